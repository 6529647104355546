//! Cheap local predictions for playout policies and priors: what a stone *would* do
//! (liberties, captures, self-atari), the 3×3 pattern around a point and its distance to the
//! edge, without cloning the board.

use super::{Board, Cell, NONE, Point, STRIDE};
use crate::go::Color;

/// Largest liberty cap `liberties_after_upto` accepts.
pub const LIBERTY_CAP_MAX: u32 = 8;

impl Board {
    /// Liberties of the chain a stone of `c` at legal `p` would form, captures included (the
    /// points of captured stones that touch the new chain become liberties), capped at 4: the
    /// result distinguishes 0 (only for illegal suicide), 1, 2, 3 and "4 or more".
    #[inline]
    pub fn liberties_after(&self, c: Color, p: Point) -> u32 {
        self.liberties_after_upto(c, p, 4)
    }

    /// `liberties_after` with an explicit cap (`1..=LIBERTY_CAP_MAX`): stops counting at `cap`.
    /// Walks only the adjacent own chains (until the cap is reached) and adjacent captured
    /// chains; no allocation.
    pub fn liberties_after_upto(&self, c: Color, p: Point, cap: u32) -> u32 {
        let cap = cap.clamp(1, LIBERTY_CAP_MAX) as usize;
        let own = Cell::of(c);
        let opp = Cell::of(c.opponent());
        let mut libs = [0 as Point; LIBERTY_CAP_MAX as usize];
        let mut n = 0usize;
        // Adds `q` to the liberty set; true once the cap is reached.
        let mut add = |q: Point, libs: &mut [Point; LIBERTY_CAP_MAX as usize]| -> bool {
            if q != p && !libs[..n].contains(&q) {
                libs[n] = q;
                n += 1;
            }
            n >= cap
        };
        let nbrs = Self::neighbours(p);
        // Heads of the own chains the stone joins.
        let mut own_heads = [NONE; 4];
        let mut own_count = 0;
        for q in nbrs {
            match self.cells[q] {
                Cell::Empty if add(q, &mut libs) => return cap as u32,
                Cell::Empty => {}
                cell if cell == own => {
                    let h = self.head[q];
                    if !own_heads[..own_count].contains(&h) {
                        own_heads[own_count] = h;
                        own_count += 1;
                    }
                }
                _ => {}
            }
        }
        // Captured chains: every stone touching `p` or a joined own chain becomes a liberty.
        let mut cap_heads = [NONE; 4];
        let mut cap_count = 0;
        for q in nbrs {
            if self.cells[q] != opp || !self.in_atari(q) {
                continue;
            }
            let h = self.head[q];
            if cap_heads[..cap_count].contains(&h) {
                continue;
            }
            cap_heads[cap_count] = h;
            cap_count += 1;
            let mut s = q;
            loop {
                let touches = Self::neighbours(s).into_iter().any(|t| {
                    t == p
                        || (self.cells[t] == own && own_heads[..own_count].contains(&self.head[t]))
                });
                if touches && add(s, &mut libs) {
                    return cap as u32;
                }
                s = self.next[s] as Point;
                if s == q {
                    break;
                }
            }
        }
        // Liberties of the joined own chains.
        for &h in &own_heads[..own_count] {
            let start = h as Point;
            let mut s = start;
            loop {
                for t in Self::neighbours(s) {
                    if self.cells[t] == Cell::Empty && add(t, &mut libs) {
                        return cap as u32;
                    }
                }
                s = self.next[s] as Point;
                if s == start {
                    break;
                }
            }
        }
        n as u32
    }

    /// True if a stone of `c` at legal `p` would leave its chain with exactly one liberty,
    /// after its captures (a capture that still leaves one liberty, e.g. taking a ko, counts).
    #[inline]
    pub fn is_self_atari(&self, c: Color, p: Point) -> bool {
        // Fast path: two empty neighbours are two liberties.
        let mut empties = 0;
        for q in Self::neighbours(p) {
            if self.cells[q] == Cell::Empty {
                empties += 1;
            }
        }
        if empties >= 2 {
            return false;
        }
        self.liberties_after_upto(c, p, 2) == 1
    }

    /// Stones in the chain a stone of `c` at `p` would form (1 plus the joined own chains).
    #[inline]
    pub fn chain_size_after(&self, c: Color, p: Point) -> u32 {
        let own = Cell::of(c);
        1 + self.stones_of_adjacent_chains(p, |q| self.cells[q] == own)
    }

    /// Opponent stones a stone of `c` at `p` would capture (adjacent opponent chains in atari).
    #[inline]
    pub fn captures_after(&self, c: Color, p: Point) -> u32 {
        let opp = Cell::of(c.opponent());
        self.stones_of_adjacent_chains(p, |q| self.cells[q] == opp && self.in_atari(q))
    }

    /// Stones of the distinct chains through the neighbours `q` of `p` that `counts(q)` keeps.
    #[inline]
    fn stones_of_adjacent_chains(&self, p: Point, counts: impl Fn(Point) -> bool) -> u32 {
        let mut heads = [NONE; 4];
        let mut k = 0;
        let mut total = 0u32;
        for q in Self::neighbours(p) {
            if counts(q) {
                let h = self.head[q];
                if !heads[..k].contains(&h) {
                    heads[k] = h;
                    k += 1;
                    total += self.stones[h as usize] as u32;
                }
            }
        }
        total
    }

    /// The 8 neighbours of `p`, 2 bits each (`Cell as u16`: 0 empty, 1 black, 2 white,
    /// 3 border), in the order of `PATTERN_OFFSETS`: neighbour `i` in bits `2i..2i+2`.
    #[inline]
    pub fn pattern3x3(&self, p: Point) -> u16 {
        let mut code = 0u16;
        for (i, off) in PATTERN_OFFSETS.iter().enumerate() {
            let q = (p as isize + off) as usize;
            code |= (self.cells[q] as u16) << (2 * i);
        }
        code
    }

    /// Writes up to `out.len()` distinct liberties of the chain through stone `p` into `out`
    /// and returns how many it wrote (stops walking the chain once `out` is full).
    pub fn chain_liberties_upto(&self, p: Point, out: &mut [Point]) -> usize {
        let mut n = 0;
        if out.is_empty() || self.cells[p].color().is_none() {
            return 0;
        }
        let mut s = p;
        loop {
            for t in Self::neighbours(s) {
                if self.cells[t] == Cell::Empty && !out[..n].contains(&t) {
                    out[n] = t;
                    n += 1;
                    if n == out.len() {
                        return n;
                    }
                }
            }
            s = self.next[s] as Point;
            if s == p {
                return n;
            }
        }
    }

    /// The next stone of the chain through stone `p` (circular: walking from `p` returns to
    /// `p` after `chain_size(p)` steps).
    #[inline]
    pub fn next_stone(&self, p: Point) -> Point {
        self.next[p] as Point
    }

    /// Coordinates of `p` as (column, row), both 0-based from the lower-left corner.
    #[inline]
    pub fn coords(p: Point) -> (usize, usize) {
        (p % STRIDE - 1, p / STRIDE - 1)
    }

    /// Distance from `p` to the nearest edge: 0 on the first line, 1 on the second...
    #[inline]
    pub fn line_height(&self, p: Point) -> usize {
        let (x, y) = Self::coords(p);
        let n = self.size - 1;
        x.min(y).min(n - x).min(n - y)
    }
}

/// Array offsets of the 8 neighbours used by `Board::pattern3x3`, as (dx, dy) pairs in
/// `PATTERN_DELTAS`: row below (y-1) left to right, then the middle row (x-1, x+1), then the row
/// above (y+1) left to right.
pub const PATTERN_OFFSETS: [isize; 8] = {
    let mut out = [0isize; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = PATTERN_DELTAS[i].1 * STRIDE as isize + PATTERN_DELTAS[i].0;
        i += 1;
    }
    out
};

/// (dx, dy) of each neighbour in `pattern3x3` order.
pub const PATTERN_DELTAS: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
