//! The Go board: a padded 1-D array, chains as circular linked lists with incremental
//! pseudo-liberty statistics (count, sum, sum of squares: a chain is in atari exactly when all its
//! pseudo-liberties are one point), a list of empty points for O(1) random move picks, per point
//! the number of empty, black, white and border neighbours (one packed word), Zobrist hashing,
//! the simple-ko point and prisoner counts.
//!
//! The playout's questions are answered with as few unpredictable branches as possible: an
//! empty neighbour settles "may a playout play here" at once, and the eye, capture and suicide
//! tests read every neighbour without asking first what it holds (points without a stone read
//! the statistics of `NO_CHAIN`). A random playout gives a branch predictor nothing to learn, and
//! a mispredicted branch costs more than the few loads it saves.
//!
//! `Board` is a fixed-size value: cloning it is one memcpy, so a playout copies the board once and
//! plays forward with no allocation. Whole-game rules (superko, undo, handicap) live in `game`.

use super::{Color, MAX_SIZE, Move, Vertex};

/// Side of the padded array: the largest board plus a border on each side.
const STRIDE: usize = MAX_SIZE + 2;
/// Number of cells in the padded array.
pub const CELLS: usize = STRIDE * STRIDE;
/// "No point" marker for links and the ko point.
const NONE: u16 = u16::MAX;
/// The `head` of every point without a stone: the corner border cell, whose chain statistics
/// stay zero (no liberties, so never "in atari"), so that a neighbour's head can be read
/// without asking first whether it holds a stone.
const NO_CHAIN: u16 = 0;

/// Contents of a cell of the padded array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Border = 3,
}

impl Cell {
    fn of(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Why the board refuses a stone (board-level rules only; superko is the game's business).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("point is occupied")]
    Occupied,
    #[error("suicide")]
    Suicide,
    #[error("ko")]
    Ko,
    #[error("vertex is off the board")]
    OffBoard,
}

/// A point of the padded array (`index = (row + 1) * STRIDE + col + 1`).
pub type Point = usize;

/// One step of splitmix64 (Steele, Lea, Flood 2014): advances `state` and returns the next
/// 64-bit output. Fixed-seed key tables (Zobrist hashing, pattern hashes) are built with it.
pub(crate) const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist keys per colour and point: splitmix64 from a fixed seed, computed at compile time,
/// so every run and every machine hashes alike and no playout move pays for a lazy init.
static ZOBRIST: [[u64; CELLS]; 2] = {
    let mut s: u64 = 0x7461_626c_6572_6f21;
    let mut keys = [[0u64; CELLS]; 2];
    let mut side = 0;
    while side < 2 {
        let mut p = 0;
        while p < CELLS {
            keys[side][p] = splitmix64(&mut s);
            p += 1;
        }
        side += 1;
    }
    keys
};

#[inline]
fn zobrist() -> &'static [[u64; CELLS]; 2] {
    &ZOBRIST
}

#[derive(Clone)]
pub struct Board {
    size: usize,
    cells: [Cell; CELLS],
    /// Next stone of the same chain (circular); `NONE` on empty points.
    next: [u16; CELLS],
    /// Head (representative) of the chain a stone belongs to; `NO_CHAIN` elsewhere.
    head: [u16; CELLS],
    /// Per chain, indexed by head: pseudo-liberty count, sum and sum of squares, stone count.
    /// The sums fit 32 bits: at most 4 · 625 pseudo-liberties of index < 729 (square < 2^19.1).
    plibs: [u16; CELLS],
    lsum: [u32; CELLS],
    lsum2: [u32; CELLS],
    stones: [u16; CELLS],
    /// Per point, how many neighbours are empty, black, white and border: one nibble each, at
    /// bit `4 * Cell as u8` (kept for every on-board point, whatever it holds).
    nbrs: [u16; CELLS],
    /// Empty points of the board and each point's position in that list.
    empty: [u16; MAX_SIZE * MAX_SIZE],
    empty_len: usize,
    empty_pos: [u16; CELLS],
    ko: u16,
    hash: u64,
    /// Stones captured *by* each colour (prisoners it holds).
    captures: [u32; 2],
    /// Stones of each colour on the board.
    on_board: [u32; 2],
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Board {}x{}", self.size, self.size)?;
        f.write_str(&self.to_ascii())
    }
}

impl Board {
    /// An empty board; `size` must lie in `MIN_SIZE..=MAX_SIZE` (checked by `Game::new`).
    pub fn new(size: usize) -> Board {
        assert!((super::MIN_SIZE..=MAX_SIZE).contains(&size));
        let mut b = Board {
            size,
            cells: [Cell::Border; CELLS],
            next: [NONE; CELLS],
            head: [NO_CHAIN; CELLS],
            plibs: [0; CELLS],
            lsum: [0; CELLS],
            lsum2: [0; CELLS],
            stones: [0; CELLS],
            nbrs: [0; CELLS],
            empty: [0; MAX_SIZE * MAX_SIZE],
            empty_len: 0,
            empty_pos: [NONE; CELLS],
            ko: NONE,
            hash: 0,
            captures: [0; 2],
            on_board: [0; 2],
        };
        for row in 0..size {
            for col in 0..size {
                let p = Self::point_of(Vertex::new(col, row));
                b.cells[p] = Cell::Empty;
                b.empty_pos[p] = b.empty_len as u16;
                b.empty[b.empty_len] = p as u16;
                b.empty_len += 1;
            }
        }
        for p in b.points().collect::<Vec<_>>() {
            b.nbrs[p] = b.count_neighbours(p);
        }
        b
    }

    /// The packed neighbour counts of `p`, counted from the cells.
    fn count_neighbours(&self, p: Point) -> u16 {
        Self::neighbours(p)
            .into_iter()
            .map(|n| 1u16 << (4 * self.cells[n] as u16))
            .sum()
    }

    /// Neighbours of `p` holding `cell`, from the packed counts.
    #[inline]
    fn neighbours_holding(&self, p: Point, cell: Cell) -> u16 {
        (self.nbrs[p] >> (4 * cell as u16)) & 0xf
    }

    /// Adds `delta` to the packed counts of `p`'s neighbours: `p` changed from one cell kind
    /// to another (`nibble(new) - nibble(old)`, wrapping).
    #[inline]
    fn shift_neighbour_counts(&mut self, p: Point, delta: u16) {
        for n in Self::neighbours(p) {
            self.nbrs[n] = self.nbrs[n].wrapping_add(delta);
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    #[inline]
    pub fn point_of(v: Vertex) -> Point {
        (v.row() + 1) * STRIDE + v.col() + 1
    }

    #[inline]
    pub fn vertex_of(p: Point) -> Vertex {
        Vertex::new(p % STRIDE - 1, p / STRIDE - 1)
    }

    #[inline]
    pub fn neighbours(p: Point) -> [Point; 4] {
        [p - STRIDE, p - 1, p + 1, p + STRIDE]
    }

    #[inline]
    pub fn diagonals(p: Point) -> [Point; 4] {
        [
            p - STRIDE - 1,
            p - STRIDE + 1,
            p + STRIDE - 1,
            p + STRIDE + 1,
        ]
    }

    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p]
    }

    pub fn get(&self, v: Vertex) -> Option<Color> {
        if !v.on_board(self.size) {
            return None;
        }
        self.cells[Self::point_of(v)].color()
    }

    /// Zobrist hash of the stones (not of the side to move or the ko point).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Prisoners held by `c`: opponent stones that `c` captured.
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    pub fn stones_on_board(&self, c: Color) -> u32 {
        self.on_board[c.index()]
    }

    /// Empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empty[..self.empty_len]
    }

    /// The point where an immediate retake is forbidden, if any.
    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != NONE).then_some(self.ko as Point)
    }

    /// All on-board points.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.size).flat_map(move |row| {
            (0..self.size).map(move |col| Self::point_of(Vertex::new(col, row)))
        })
    }

    /// The stones of the chain through `p`.
    pub fn chain(&self, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if self.cells[p].color().is_none() {
            return out;
        }
        let mut q = p;
        loop {
            out.push(q);
            q = self.next[q] as Point;
            if q == p {
                return out;
            }
        }
    }

    /// Head of the chain through a stone.
    #[inline]
    pub fn chain_head(&self, p: Point) -> Point {
        self.head[p] as Point
    }

    /// Number of stones of the chain through stone `p`.
    pub fn chain_size(&self, p: Point) -> usize {
        self.stones[self.head[p] as usize] as usize
    }

    /// True if the chain through stone `p` has exactly one liberty.
    #[inline]
    pub fn in_atari(&self, p: Point) -> bool {
        self.chain_in_atari(self.head[p] as usize)
    }

    /// True if the chain with head `h` has exactly one liberty (all its pseudo-liberties are
    /// one point); false for `NO_CHAIN`. Without a branch, as the playout tests need.
    #[inline]
    fn chain_in_atari(&self, h: usize) -> bool {
        let n = self.plibs[h] as u64;
        let s = self.lsum[h] as u64;
        (n > 0) & (n * self.lsum2[h] as u64 == s * s)
    }

    /// The single liberty of a chain in atari.
    #[inline]
    pub fn atari_liberty(&self, p: Point) -> Point {
        let h = self.head[p] as usize;
        (self.lsum[h] / self.plibs[h] as u32) as Point
    }

    /// Exact liberties of the chain through stone `p` (sorted, distinct).
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        let mut libs: Vec<Point> = self
            .chain(p)
            .into_iter()
            .flat_map(Self::neighbours)
            .filter(|&n| self.cells[n] == Cell::Empty)
            .collect();
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// The Zobrist hash after a legal stone of `c` at `p`, without playing it.
    pub fn hash_after(&self, c: Color, p: Point) -> u64 {
        let keys = zobrist();
        let mut h = self.hash ^ keys[c.index()][p];
        let opp = Cell::of(c.opponent());
        let mut seen = [NONE; 4];
        for (i, n) in Self::neighbours(p).into_iter().enumerate() {
            if self.cells[n] == opp && self.in_atari(n) {
                let head = self.head[n];
                if seen[..i].contains(&head) {
                    continue;
                }
                seen[i] = head;
                let mut q = n;
                loop {
                    h ^= keys[c.opponent().index()][q];
                    q = self.next[q] as Point;
                    if q == n {
                        break;
                    }
                }
            }
        }
        h
    }

    /// Board-level legality of a stone of `c` at `p`: empty, not the ko point, not suicide.
    pub fn check(&self, c: Color, p: Point) -> Result<(), BoardError> {
        if self.cells[p] != Cell::Empty {
            return Err(if self.cells[p] == Cell::Border {
                BoardError::OffBoard
            } else {
                BoardError::Occupied
            });
        }
        if p as u16 == self.ko {
            return Err(BoardError::Ko);
        }
        if self.is_suicide(c, p) {
            return Err(BoardError::Suicide);
        }
        Ok(())
    }

    #[inline]
    pub fn is_legal(&self, c: Color, p: Point) -> bool {
        self.cells[p] == Cell::Empty && p as u16 != self.ko && !self.is_suicide(c, p)
    }

    /// True if a stone of `c` at empty `p` would have no liberty after its captures.
    #[inline]
    pub fn is_suicide(&self, c: Color, p: Point) -> bool {
        self.neighbours_holding(p, Cell::Empty) == 0 && !self.captures_or_connects_out(c, p)
    }

    /// For an empty `p` without empty neighbours: a stone of `c` there captures (an opponent
    /// neighbour is in atari) or joins an own chain with another liberty. No branch per
    /// neighbour: points without a stone read the `NO_CHAIN` statistics, never in atari.
    #[inline]
    fn captures_or_connects_out(&self, c: Color, p: Point) -> bool {
        let own = Cell::of(c);
        let opp = Cell::of(c.opponent());
        let mut out = false;
        for n in Self::neighbours(p) {
            let cell = self.cells[n];
            let atari = self.chain_in_atari(self.head[n] as usize);
            out |= ((cell == own) & !atari) | ((cell == opp) & atari);
        }
        out
    }

    /// True if `p` is an eye-like point of `c`: every neighbour is `c` or the edge, and the
    /// opponent holds fewer than two diagonals (fewer than one on the edge).
    #[inline]
    pub fn is_eye(&self, c: Color, p: Point) -> bool {
        let own = Cell::of(c);
        let shape = self.neighbours_holding(p, own) + self.neighbours_holding(p, Cell::Border) == 4;
        let opp = Cell::of(c.opponent()) as u8;
        // Opponent diagonals, plus one if any diagonal is off the board: fewer than two. No
        // branch: playouts ask this of points whose answer no predictor can guess.
        let (mut bad, mut edge) = (0u8, 0u8);
        for d in Self::diagonals(p) {
            let cell = self.cells[d] as u8;
            bad += (cell == opp) as u8;
            edge |= (cell == Cell::Border as u8) as u8;
        }
        shape & (bad + edge < 2)
    }

    /// A move a playout may make: `p` is empty, legal for `c` and not `c`'s own eye (the same
    /// answer as `!is_eye(c, p) && is_legal(c, p)` on an empty point). The neighbour counts
    /// settle most points at once: an empty neighbour makes `p` legal, no eye and not the ko
    /// point (whose neighbours are all stones of the side that captured there).
    #[inline]
    pub fn is_playable(&self, c: Color, p: Point) -> bool {
        if self.cells[p] != Cell::Empty {
            return false;
        }
        if self.neighbours_holding(p, Cell::Empty) != 0 {
            return true;
        }
        !self.is_eye(c, p) && (p as u16 != self.ko) & self.captures_or_connects_out(c, p)
    }

    /// Plays a move; on error the board is unchanged.
    pub fn play_move(&mut self, c: Color, mv: Move) -> Result<(), BoardError> {
        match mv {
            Move::Pass => {
                self.pass();
                Ok(())
            }
            Move::Play(v) => {
                if !v.on_board(self.size) {
                    return Err(BoardError::OffBoard);
                }
                let p = Self::point_of(v);
                self.check(c, p)?;
                self.play_unchecked(c, p);
                Ok(())
            }
        }
    }

    /// A pass: only clears the ko point.
    #[inline]
    pub fn pass(&mut self) {
        self.ko = NONE;
    }

    #[inline]
    fn add_lib(&mut self, h: usize, p: Point) {
        self.plibs[h] += 1;
        self.lsum[h] += p as u32;
        self.lsum2[h] += (p * p) as u32;
    }

    #[inline]
    fn remove_lib(&mut self, h: usize, p: Point) {
        self.plibs[h] -= 1;
        self.lsum[h] -= p as u32;
        self.lsum2[h] -= (p * p) as u32;
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let i = self.empty_pos[p] as usize;
        self.empty_len -= 1;
        let last = self.empty[self.empty_len];
        self.empty[i] = last;
        self.empty_pos[last as usize] = i as u16;
        self.empty_pos[p] = NONE;
    }

    #[inline]
    fn add_empty(&mut self, p: Point) {
        self.empty_pos[p] = self.empty_len as u16;
        self.empty[self.empty_len] = p as u16;
        self.empty_len += 1;
    }

    /// Plays a stone that `is_legal` accepted. Returns the number of stones captured.
    pub fn play_unchecked(&mut self, c: Color, p: Point) -> u32 {
        debug_assert!(self.is_legal(c, p));
        let own = Cell::of(c);
        let keys = zobrist();
        self.cells[p] = own;
        self.hash ^= keys[c.index()][p];
        self.on_board[c.index()] += 1;
        self.remove_empty(p);
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.stones[p] = 1;
        self.plibs[p] = 0;
        self.lsum[p] = 0;
        self.lsum2[p] = 0;

        // The new stone's own liberties, and which neighbours hold stones of either colour,
        // without a branch per neighbour.
        let ns = Self::neighbours(p);
        let (mut own_mask, mut opp_mask) = (0u32, 0u32);
        let opp = Cell::of(c.opponent());
        for (i, &n) in ns.iter().enumerate() {
            let cell = self.cells[n];
            let e = (cell == Cell::Empty) as u32;
            self.plibs[p] += e as u16;
            self.lsum[p] += e * n as u32;
            self.lsum2[p] += e * (n * n) as u32;
            own_mask |= ((cell == own) as u32) << i;
            opp_mask |= ((cell == opp) as u32) << i;
        }
        self.shift_neighbour_counts(p, (1u16 << (4 * own as u16)).wrapping_sub(1));
        // Every neighbouring chain loses `p`, then own chains merge and opponent chains left
        // without liberties are captured (the sums make the order irrelevant).
        let mut m = own_mask | opp_mask;
        while m != 0 {
            let h = self.head[ns[m.trailing_zeros() as usize]] as usize;
            self.remove_lib(h, p);
            m &= m - 1;
        }
        while own_mask != 0 {
            let h = self.head[ns[own_mask.trailing_zeros() as usize]] as usize;
            let mine = self.head[p] as usize;
            if h != mine {
                self.merge(mine, h);
            }
            own_mask &= own_mask - 1;
        }
        let mut captured = 0u32;
        let mut single_capture = NONE;
        while opp_mask != 0 {
            let n = ns[opp_mask.trailing_zeros() as usize];
            opp_mask &= opp_mask - 1;
            let h = self.head[n];
            // A chain touching `p` more than once is taken at its last neighbour, so that
            // captured stones join the empty list in neighbour order.
            if self.plibs[h as usize] == 0 && !self.chain_among(&ns, opp_mask, h) {
                let removed = self.capture(h as usize);
                if removed == 1 {
                    single_capture = n as u16;
                }
                captured += removed;
            }
        }
        self.captures[c.index()] += captured;
        let h = self.head[p] as usize;
        // Simple ko: one stone captured one stone and stands alone with one liberty.
        self.ko = if captured == 1 && self.stones[h] == 1 && self.plibs[h] == 1 {
            single_capture
        } else {
            NONE
        };
        captured
    }

    /// True if one of the points `ns[i]`, for the bits `i` set in `mask`, belongs to chain `h`.
    #[inline]
    fn chain_among(&self, ns: &[Point; 4], mut mask: u32, h: u16) -> bool {
        let mut found = false;
        while mask != 0 {
            found |= self.head[ns[mask.trailing_zeros() as usize]] == h;
            mask &= mask - 1;
        }
        found
    }

    /// Merges chain `b` into chain `a` (or the smaller into the larger) and fixes heads.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.stones[a] >= self.stones[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut q = small;
        loop {
            self.head[q] = big as u16;
            q = self.next[q] as usize;
            if q == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.stones[big] += self.stones[small];
        self.plibs[big] += self.plibs[small];
        self.lsum[big] += self.lsum[small];
        self.lsum2[big] += self.lsum2[small];
    }

    /// Removes the chain with head `h`; returns the number of stones removed.
    fn capture(&mut self, h: usize) -> u32 {
        let cell = self.cells[h];
        let color = match cell.color() {
            Some(c) => c,
            None => return 0,
        };
        let keys = zobrist();
        let mut removed = 0;
        let mut q = h;
        loop {
            let nq = self.next[q] as usize;
            self.cells[q] = Cell::Empty;
            self.hash ^= keys[color.index()][q];
            self.next[q] = NONE;
            self.head[q] = NO_CHAIN;
            self.add_empty(q);
            self.shift_neighbour_counts(q, 1u16.wrapping_sub(1 << (4 * cell as u16)));
            removed += 1;
            for n in Self::neighbours(q) {
                if let Some(_c) = self.cells[n].color() {
                    let nh = self.head[n] as usize;
                    self.add_lib(nh, q);
                }
            }
            q = nq;
            if q == h {
                break;
            }
        }
        self.on_board[color.index()] -= removed;
        removed
    }

    /// Area score before komi, Tromp-Taylor: stones plus empty regions that reach only one
    /// colour. Returns (black, white).
    pub fn area(&self) -> (u32, u32) {
        let (tb, tw) = self.territory_regions();
        (self.on_board[0] + tb, self.on_board[1] + tw)
    }

    /// Black area minus white area, fast path for playouts that ended with every empty point
    /// surrounded; falls back to a flood fill when an empty point touches both colours or none.
    #[inline]
    pub fn area_difference(&self) -> i32 {
        let mut diff = self.on_board[0] as i32 - self.on_board[1] as i32;
        for &p in self.empty_points() {
            let mut seen = 0u8;
            for n in Self::neighbours(p as Point) {
                seen |= match self.cells[n] {
                    Cell::Black => 1,
                    Cell::White => 2,
                    Cell::Empty => 4,
                    Cell::Border => 0,
                };
            }
            match seen {
                1 => diff += 1,
                2 => diff -= 1,
                3 => {}
                _ => {
                    let (b, w) = self.area();
                    return b as i32 - w as i32;
                }
            }
        }
        diff
    }

    /// Counts empty regions bordered by one colour only (every stone alive; scoring with dead
    /// stones is `scoring::tally`). Returns (black territory, white territory).
    pub fn territory_regions(&self) -> (u32, u32) {
        let mut seen = [false; CELLS];
        let mut stack: Vec<Point> = Vec::with_capacity(64);
        let mut terr = [0u32; 2];
        for start in self.points() {
            let is_space = |q: Point| self.cells[q] == Cell::Empty;
            if seen[start] || !is_space(start) {
                continue;
            }
            let mut region = 0u32;
            let mut reach = [false; 2];
            seen[start] = true;
            stack.push(start);
            while let Some(q) = stack.pop() {
                region += 1;
                for n in Self::neighbours(q) {
                    match self.cells[n] {
                        Cell::Border => {}
                        _ if is_space(n) => {
                            if !seen[n] {
                                seen[n] = true;
                                stack.push(n);
                            }
                        }
                        cell => {
                            if let Some(c) = cell.color() {
                                reach[c.index()] = true;
                            }
                        }
                    }
                }
            }
            match reach {
                [true, false] => terr[0] += region,
                [false, true] => terr[1] += region,
                _ => {}
            }
        }
        (terr[0], terr[1])
    }

    /// A plain text diagram (no blank lines), GTP coordinates on the edges.
    pub fn to_ascii(&self) -> String {
        let n = self.size;
        let letters: String = (0..n)
            .map(|c| format!(" {}", super::COLUMN_LETTERS[c] as char))
            .collect();
        let mut s = format!("  {letters}\n");
        for row in (0..n).rev() {
            s.push_str(&format!("{:>2}", row + 1));
            for col in 0..n {
                let p = Self::point_of(Vertex::new(col, row));
                s.push(' ');
                s.push(match self.cells[p] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                });
            }
            s.push_str(&format!(" {}\n", row + 1));
        }
        s.push_str(&format!("  {letters}"));
        s
    }

    /// Checks every incremental structure against a recomputation (tests and debug builds).
    pub fn validate(&self) -> Result<(), String> {
        let keys = zobrist();
        let mut hash = 0;
        let mut counts = [0u32; 2];
        // Every chain is walked once, from its first stone: linear in the board size.
        let mut walked = vec![false; self.cells.len()];
        for p in self.points() {
            if self.nbrs[p] != self.count_neighbours(p) {
                return Err(format!("neighbour counts wrong at {p}"));
            }
            match self.cells[p].color() {
                Some(c) => {
                    hash ^= keys[c.index()][p];
                    counts[c.index()] += 1;
                    if walked[p] {
                        continue;
                    }
                    let h = self.head[p] as usize;
                    let chain = self.chain(p);
                    for &q in &chain {
                        walked[q] = true;
                    }
                    if chain.iter().any(|&q| self.head[q] as usize != h) {
                        return Err(format!("chain through {p} has mixed heads"));
                    }
                    if chain.len() != self.stones[h] as usize {
                        return Err(format!("chain size mismatch at {p}"));
                    }
                    let (mut n, mut s, mut s2) = (0u16, 0u32, 0u32);
                    for &q in &chain {
                        for l in Self::neighbours(q) {
                            if self.cells[l] == Cell::Empty {
                                n += 1;
                                s += l as u32;
                                s2 += (l * l) as u32;
                            }
                        }
                    }
                    if (n, s, s2) != (self.plibs[h], self.lsum[h], self.lsum2[h]) {
                        return Err(format!("liberty stats wrong at {p}"));
                    }
                    if n == 0 {
                        return Err(format!("chain without liberties at {p}"));
                    }
                }
                None => {
                    if self.empty_pos[p] == NONE
                        || self.empty[self.empty_pos[p] as usize] as usize != p
                    {
                        return Err(format!("empty list misses {p}"));
                    }
                }
            }
        }
        if hash != self.hash {
            return Err("hash mismatch".into());
        }
        if counts != self.on_board {
            return Err("stone counts mismatch".into());
        }
        if self.empty_len as u32 + counts[0] + counts[1] != (self.size * self.size) as u32 {
            return Err("empty count mismatch".into());
        }
        Ok(())
    }
}

mod predict;
pub use predict::{LIBERTY_CAP_MAX, PATTERN_DELTAS, PATTERN_OFFSETS};

#[cfg(test)]
pub(crate) mod tests;
