//! The heavy playout policy (MoGo/michi/Pachi-moggy style): local answers to the last move
//! before a random move. In priority order, each step tried with its own probability:
//!
//! 1. **Capture**: an opponent chain in atari on the last move's 3×3 (the last-moved chain
//!    included) or on the 3×3 of the mover's own previous move → take it.
//! 2. **Atari escape**: own chains next to the last move in atari → capture an adjacent
//!    opponent chain in atari (which frees them), or extend at the liberty if the extension has
//!    at least 3 liberties, or 2 that a ladder cannot take (`ladder_budget` > 0; without
//!    ladder reading every extension to 2 liberties counts).
//!
//!    **Nakade** (`nakade` > 0): an empty region of 3 to 5 points next to the last move,
//!    enclosed by one colour, with a unique vital point (the point with the most neighbours
//!    in the region: the middle of a straight or bent three, the centre of a pyramid four,
//!    bulky or crossed five) → play the vital point: the owner makes two eyes, the other side
//!    kills.
//! 3. **Low liberties** (Fuego's two-liberty rule): chains on and next to the last move with
//!    exactly two liberties → for an own chain, a liberty that takes it to three or more; for
//!    an opponent chain, the atari on one liberty when its extension at the other would
//!    still leave it at most one liberty (a sure capture, no ladder reading needed).
//!    **Last good reply** (LGRF-1, Baier & Drake; with a `LastGoodReply` table, switched by
//!    `search.playout_last_good_reply`): the reply that last won a playout after the
//!    opponent's last point, if it is still playable (winning playouts store their replies,
//!    losing ones forget theirs).
//! 4. **Pattern**: empty points of the 3×3 of the last two moves that match a MoGo 3×3 pattern
//!    (`patterns`), random among matches.
//! 5. **Random**: with `fill_board` > 0, first that many draws of a random empty point whose
//!    eight neighbours are all empty (MoGo's fill-board: occupy open areas early); then a
//!    uniform-ish legal move from a random start in the empty-point list, never filling
//!    one's own eye.
//!
//! Within a step the candidates are tried from a random start; a candidate that is a
//! self-atari of a chain of `self_atari_min_stones` stones or more is rejected with the
//! step's probability (michi's `PROB_SSAREJECT`/`PROB_RSAREJECT` scheme: the random step
//! rejects less often so that nakade throw-ins stay possible). Every returned point is legal
//! (`Board::is_legal`) and not the mover's own eye; `None` is a pass. No allocation.

use super::patterns::is_pattern;
use super::tactics;
use crate::go::board::{Board, CELLS, Cell, PATTERN_OFFSETS, Point};
use crate::go::{Color, Move};
use rand::Rng;

/// Knobs of `heavy_move`. Probabilities outside `[0, 1]` act as clamped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeavyParams {
    /// Probability of looking for captures (step 1). Default 0.9 (michi `PROB_HEURISTIC`
    /// capture): a little randomness keeps playouts from being too deterministic.
    pub capture: f64,
    /// Probability of looking for atari escapes (step 2). Default 0.9, same reasoning.
    pub escape: f64,
    /// Probability of looking at two-liberty chains (step 3). Default 0.9, like the other
    /// tactical steps; 0 gives michi's policy.
    pub low_liberty: f64,
    /// Probability of looking for pattern moves (step 4). Default 0.95 (michi pat3).
    pub pattern: f64,
    /// Probability of rejecting a self-atari proposed by steps 1–3. Default 0.9 (michi
    /// `PROB_SSAREJECT`).
    pub reject_self_atari_heuristic: f64,
    /// Probability of rejecting a self-atari drawn by the random step. Default 0.5 (michi
    /// `PROB_RSAREJECT`): lower than the heuristic one so that nakade and throw-ins survive.
    pub reject_self_atari_random: f64,
    /// Smallest resulting chain (in stones) whose self-atari is rejected. Default 2: a
    /// single-stone self-atari is often a useful throw-in or nakade, as in michi
    /// (`singlept_ok`); 1 rejects every self-atari.
    pub self_atari_min_stones: u32,
    /// Board copies one ladder reading of an atari escape may make (an extension to exactly
    /// two liberties that a ladder captures is no escape); 0 = no reading. Default 30 (a
    /// 9×9 ladder; longer ones count as escapes). Config `search.playout_ladder_budget`.
    pub ladder_budget: u32,
    /// Probability of looking for nakade vital points after the escape step; 0 = off.
    /// Config `search.playout_nakade`.
    pub nakade: f64,
    /// Fill-board draws before the random step; 0 = off. Config `search.playout_fill_board`.
    pub fill_board: u32,
}

impl HeavyParams {
    pub const DEFAULT: HeavyParams = HeavyParams {
        capture: 0.9,
        escape: 0.9,
        low_liberty: 0.9,
        pattern: 0.95,
        reject_self_atari_heuristic: 0.9,
        reject_self_atari_random: 0.5,
        self_atari_min_stones: 2,
        ladder_budget: 30,
        nakade: 0.0,
        fill_board: 0,
    };
}

impl Default for HeavyParams {
    fn default() -> Self {
        HeavyParams::DEFAULT
    }
}

/// Last good replies with forgetting (LGRF-1): per colour and opponent point, the reply that
/// won the last playout in which it was played. One table per search thread.
#[derive(Clone, Debug)]
pub struct LastGoodReply {
    /// `reply[colour * CELLS + opponent point]`, 0 = none.
    reply: Vec<u16>,
}

impl Default for LastGoodReply {
    fn default() -> Self {
        Self::new()
    }
}

impl LastGoodReply {
    pub fn new() -> Self {
        LastGoodReply {
            reply: vec![0; 2 * CELLS],
        }
    }

    /// The stored reply of `c` to the opponent's move at `prev`.
    #[inline]
    pub fn get(&self, c: Color, prev: Point) -> Option<Point> {
        match self.reply.get(c.index() * CELLS + prev) {
            Some(&r) if r != 0 => Some(r as Point),
            _ => None,
        }
    }

    /// Learns from one finished simulation: `moves` in order (passes may be missing; only
    /// consecutive moves of different colours count as move and reply). The winner's replies
    /// are stored; the loser's replies are forgotten where they are the stored ones.
    pub fn update(&mut self, moves: &[(Color, Move)], winner: Option<Color>) {
        let Some(winner) = winner else {
            return;
        };
        for pair in moves.windows(2) {
            let [(c1, m1), (c2, m2)] = [pair[0], pair[1]];
            let (Move::Play(v1), Move::Play(v2)) = (m1, m2) else {
                continue;
            };
            if c1 == c2 {
                continue;
            }
            let (p1, p2) = (Board::point_of(v1), Board::point_of(v2));
            let slot = &mut self.reply[c2.index() * CELLS + p1];
            if c2 == winner {
                *slot = p2 as u16;
            } else if *slot == p2 as u16 {
                *slot = 0;
            }
        }
    }
}

/// True with probability `p`; draws from `rng` only when `0 < p < 1`.
#[inline]
fn chance<R: Rng>(rng: &mut R, p: f64) -> bool {
    if p >= 1.0 {
        true
    } else if p > 0.0 {
        rng.r#gen::<f64>() < p
    } else {
        false
    }
}

/// A small de-duplicated set of candidate points, on the stack.
struct Candidates {
    points: [u16; 32],
    len: usize,
}

impl Candidates {
    fn new() -> Self {
        Candidates {
            points: [0; 32],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, p: Point) {
        let p = p as u16;
        if self.len < self.points.len() && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    #[inline]
    fn as_slice(&self) -> &[u16] {
        &self.points[..self.len]
    }
}

/// True if `c` at legal `p` is a self-atari the policy should consider rejecting.
#[inline]
pub fn is_bad_self_atari(board: &Board, c: Color, p: Point, min_stones: u32) -> bool {
    if min_stones >= 2 {
        // Cheap exit first: without an own neighbour the new chain is a single stone.
        let own = board_cell(c);
        if !Board::neighbours(p).iter().any(|&q| board.cell(q) == own) {
            return false;
        }
    }
    board.is_self_atari(c, p) && (min_stones <= 2 || board.chain_size_after(c, p) >= min_stones)
}

#[inline]
fn board_cell(c: Color) -> Cell {
    match c {
        Color::Black => Cell::Black,
        Color::White => Cell::White,
    }
}

/// A move the policy may play at all: legal and not the mover's own eye.
#[inline]
fn playable(board: &Board, c: Color, p: Point) -> bool {
    board.is_playable(c, p)
}

/// Picks among `cands` from a random start, rejecting bad self-ataris with probability
/// `reject`.
#[inline]
fn pick<R: Rng>(
    board: &Board,
    c: Color,
    cands: &[u16],
    reject: f64,
    min_stones: u32,
    rng: &mut R,
) -> Option<Point> {
    let n = cands.len();
    if n == 0 {
        return None;
    }
    let start = if n == 1 { 0 } else { rng.gen_range(0..n) };
    for i in 0..n {
        let p = cands[(start + i) % n] as Point;
        if is_bad_self_atari(board, c, p, min_stones) && chance(rng, reject) {
            continue;
        }
        return Some(p);
    }
    None
}

/// The point and its 8 neighbours.
#[inline]
fn around(p: Point) -> impl Iterator<Item = Point> {
    std::iter::once(p).chain(
        PATTERN_OFFSETS
            .iter()
            .map(move |&o| (p as isize + o) as Point),
    )
}

/// Step 1: liberties of opponent chains in atari on the 3×3 of `at`.
fn capture_moves(board: &Board, c: Color, at: Point, out: &mut Candidates) {
    let opp = c.opponent();
    for q in around(at) {
        if board.cell(q).color() == Some(opp) && board.in_atari(q) {
            let l = board.atari_liberty(q);
            if playable(board, c, l) {
                out.push(l);
            }
        }
    }
}

/// Step 2: ways out of atari for the own chains next to `at`; extensions to two liberties are
/// read as ladders with `ladder_budget` board copies (0: not read).
fn escape_moves(board: &Board, c: Color, at: Point, ladder_budget: u32, out: &mut Candidates) {
    let mut heads = [usize::MAX; 4];
    for (i, q) in Board::neighbours(at).into_iter().enumerate() {
        if board.cell(q).color() != Some(c) || !board.in_atari(q) {
            continue;
        }
        let h = board.chain_head(q);
        if heads[..i].contains(&h) {
            continue;
        }
        heads[i] = h;
        // Counter-captures: opponent chains in atari touching the chain.
        let opp = c.opponent();
        let mut s = q;
        loop {
            for t in Board::neighbours(s) {
                if board.cell(t).color() == Some(opp) && board.in_atari(t) {
                    let l = board.atari_liberty(t);
                    if playable(board, c, l) {
                        out.push(l);
                    }
                }
            }
            s = board.next_stone(s);
            if s == q {
                break;
            }
        }
        // Extension, if it reaches three liberties, or two that no ladder takes.
        let l = board.atari_liberty(q);
        if playable(board, c, l) {
            let works = match board.liberties_after_upto(c, l, 3) {
                0 | 1 => false,
                2 => {
                    ladder_budget == 0 || tactics::escape_move_works(board, c, q, l, ladder_budget)
                }
                _ => true,
            };
            if works {
                out.push(l);
            }
        }
    }
}

/// Step 3: moves in two-liberty fights of the chains on and next to `at`.
fn low_liberty_moves(board: &Board, c: Color, at: Point, out: &mut Candidates) {
    let mut heads = [usize::MAX; 5];
    for (i, q) in std::iter::once(at).chain(Board::neighbours(at)).enumerate() {
        let Some(owner) = board.cell(q).color() else {
            continue;
        };
        let h = board.chain_head(q);
        if heads[..i].contains(&h) {
            continue;
        }
        heads[i] = h;
        let mut libs = [0 as Point; 3];
        if board.chain_liberties_upto(q, &mut libs) != 2 {
            continue;
        }
        for (l, other) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if !playable(board, c, l) {
                continue;
            }
            if owner == c {
                // Gain liberties.
                if board.liberties_after_upto(c, l, 3) >= 3 {
                    out.push(l);
                }
            } else if board.liberties_after_upto(owner, other, 3) <= 2 {
                // After our atari at `l` the extension at `other` has lost `l` too: at most
                // one liberty left, so the chain cannot run.
                out.push(l);
            }
        }
    }
}

/// Largest eye space the nakade step looks at.
const NAKADE_MAX: usize = 5;

/// The vital point of the empty region through the empty point `start` if the region has 3 to
/// `NAKADE_MAX` points, touches stones of one colour only, and one point of it has more
/// neighbours in the region than any other (and at least 2).
pub fn nakade_vital_point(board: &Board, start: Point) -> Option<Point> {
    if board.cell(start) != Cell::Empty {
        return None;
    }
    let mut region = [0 as Point; NAKADE_MAX];
    let mut len = 1;
    region[0] = start;
    let mut owner: Option<Color> = None;
    let mut i = 0;
    while i < len {
        for q in Board::neighbours(region[i]) {
            match board.cell(q) {
                Cell::Border => {}
                Cell::Empty => {
                    if !region[..len].contains(&q) {
                        if len == NAKADE_MAX {
                            return None;
                        }
                        region[len] = q;
                        len += 1;
                    }
                }
                cell => {
                    let col = cell.color();
                    if owner.is_some() && owner != col {
                        return None;
                    }
                    owner = col;
                }
            }
        }
        i += 1;
    }
    if len < 3 || owner.is_none() {
        return None;
    }
    let region = &region[..len];
    let degree = |p: Point| {
        Board::neighbours(p)
            .iter()
            .filter(|q| region.contains(q))
            .count()
    };
    let (mut best, mut best_deg, mut unique) = (region[0], 0, false);
    for &p in region {
        let d = degree(p);
        if d > best_deg {
            (best, best_deg, unique) = (p, d, true);
        } else if d == best_deg {
            unique = false;
        }
    }
    (unique && best_deg >= 2).then_some(best)
}

/// Step 2b: vital points of small enclosed eye spaces next to `at`. Only empty points with at
/// most two empty neighbours start a search (every 3–5 point space has such points, and open
/// areas are skipped after four reads).
fn nakade_moves(board: &Board, c: Color, at: Point, out: &mut Candidates) {
    let mut seen = [0 as Point; 4];
    for (i, q) in Board::neighbours(at).into_iter().enumerate() {
        if board.cell(q) != Cell::Empty
            || Board::neighbours(q)
                .iter()
                .filter(|&&r| board.cell(r) == Cell::Empty)
                .count()
                > 2
        {
            continue;
        }
        if let Some(v) = nakade_vital_point(board, q)
            && !seen[..i].contains(&v)
        {
            seen[i] = v;
            if playable(board, c, v) {
                out.push(v);
            }
        }
    }
}

/// Step 4: pattern matches on the 3×3 of `at`.
fn pattern_moves(board: &Board, c: Color, at: Point, out: &mut Candidates) {
    for &o in PATTERN_OFFSETS.iter() {
        let q = (at as isize + o) as Point;
        if board.cell(q) == Cell::Empty && is_pattern(board, q) && playable(board, c, q) {
            out.push(q);
        }
    }
}

/// Is `p` a stone-bearing or empty on-board point we can reason around (not a pass)?
#[inline]
fn on_board(board: &Board, p: Option<Point>) -> Option<Point> {
    p.filter(|&q| board.cell(q) != Cell::Border)
}

/// The heavy policy's move for `color` after the moves `last` (the opponent's) and `last2`
/// (the mover's previous one); `None` (a pass) only when no acceptable move exists.
pub fn heavy_move<R: Rng>(
    board: &Board,
    color: Color,
    last: Option<Point>,
    last2: Option<Point>,
    params: &HeavyParams,
    rng: &mut R,
) -> Option<Point> {
    heavy_move_with(board, color, last, last2, params, None, rng)
}

/// `heavy_move` with a last-good-reply table (`None`: the step is skipped).
pub fn heavy_move_with<R: Rng>(
    board: &Board,
    color: Color,
    last: Option<Point>,
    last2: Option<Point>,
    params: &HeavyParams,
    lgr: Option<&LastGoodReply>,
    rng: &mut R,
) -> Option<Point> {
    let last = on_board(board, last);
    let last2 = on_board(board, last2);
    let min = params.self_atari_min_stones;
    let reject = params.reject_self_atari_heuristic;
    if last.is_some() || last2.is_some() {
        if chance(rng, params.capture) {
            let mut c = Candidates::new();
            for at in [last, last2].into_iter().flatten() {
                capture_moves(board, color, at, &mut c);
            }
            if let Some(p) = pick(board, color, c.as_slice(), reject, min, rng) {
                return Some(p);
            }
        }
        if let Some(at) = last
            && chance(rng, params.escape)
        {
            let mut c = Candidates::new();
            escape_moves(board, color, at, params.ladder_budget, &mut c);
            if let Some(p) = pick(board, color, c.as_slice(), reject, min, rng) {
                return Some(p);
            }
        }
        if let Some(at) = last
            && params.nakade > 0.0
            && chance(rng, params.nakade)
        {
            let mut c = Candidates::new();
            nakade_moves(board, color, at, &mut c);
            if let Some(p) = pick(board, color, c.as_slice(), reject, min, rng) {
                return Some(p);
            }
        }
        if let Some(at) = last
            && chance(rng, params.low_liberty)
        {
            let mut c = Candidates::new();
            low_liberty_moves(board, color, at, &mut c);
            if let Some(p) = pick(board, color, c.as_slice(), reject, min, rng) {
                return Some(p);
            }
        }
        if let (Some(table), Some(at)) = (lgr, last)
            && let Some(r) = table.get(color, at)
            && playable(board, color, r)
            && !(is_bad_self_atari(board, color, r, min) && chance(rng, reject))
        {
            return Some(r);
        }
        if chance(rng, params.pattern) {
            let mut c = Candidates::new();
            for at in [last, last2].into_iter().flatten() {
                pattern_moves(board, color, at, &mut c);
            }
            if let Some(p) = pick(board, color, c.as_slice(), reject, min, rng) {
                return Some(p);
            }
        }
    }
    random_move(board, color, params, rng)
}

/// Step 5: scan the empty points from a random start for a playable move.
#[inline]
pub fn random_move<R: Rng>(
    board: &Board,
    color: Color,
    params: &HeavyParams,
    rng: &mut R,
) -> Option<Point> {
    let empty = board.empty_points();
    let n = empty.len();
    if n == 0 {
        return None;
    }
    for _ in 0..params.fill_board {
        let p = empty[rng.gen_range(0..n)] as Point;
        if PATTERN_OFFSETS
            .iter()
            .all(|&o| board.cell((p as isize + o) as Point) == Cell::Empty)
            && board.is_legal(color, p)
        {
            return Some(p);
        }
    }
    let start = rng.gen_range(0..n);
    for i in 0..n {
        let mut k = start + i;
        if k >= n {
            k -= n;
        }
        let p = empty[k] as Point;
        if !board.is_playable(color, p) {
            continue;
        }
        if is_bad_self_atari(board, color, p, params.self_atari_min_stones)
            && chance(rng, params.reject_self_atari_random)
        {
            continue;
        }
        return Some(p);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::tests::{pt, setup};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Every step always on, every self-atari rejected.
    const SURE: HeavyParams = HeavyParams {
        capture: 1.0,
        escape: 1.0,
        low_liberty: 1.0,
        pattern: 1.0,
        reject_self_atari_heuristic: 1.0,
        reject_self_atari_random: 1.0,
        self_atari_min_stones: 2,
        ladder_budget: 0,
        nakade: 0.0,
        fill_board: 0,
    };

    #[test]
    fn captures_the_chain_that_just_self_ataried() {
        // White just extended E5 to E6 between black walls: the chain E5-E6 has one liberty,
        // E7.
        let b = setup(9, &["D5", "F5", "E4", "D6", "F6"], &["E5", "E6"]);
        let last = Some(pt("E6", 9));
        for seed in 0..20 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = heavy_move(&b, Color::Black, last, None, &SURE, &mut rng);
            assert_eq!(m, Some(pt("E7", 9)));
        }
    }

    #[test]
    fn escapes_from_atari_by_extending() {
        // Black E5 with white D5, F5, E6: in atari at E4 after white's E6. Extending to E4
        // gives three liberties.
        let b = setup(9, &["E5"], &["D5", "F5", "E6"]);
        for seed in 0..20 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = heavy_move(&b, Color::Black, Some(pt("E6", 9)), None, &SURE, &mut rng);
            assert_eq!(m, Some(pt("E4", 9)));
        }
    }

    #[test]
    fn escapes_from_atari_by_capturing() {
        //   row 3: X O .
        //   row 2: O X O      white just played C2
        //   row 1: . . .
        // Black B2 has one liberty, B1; white A2 has one too, A1 (A3 and B2 are black).
        let b = setup(5, &["B2", "A3"], &["A2", "B3", "C2"]);
        let b2 = pt("B2", 5);
        assert!(b.in_atari(b2));
        assert!(b.in_atari(pt("A2", 5)));
        let mut seen_capture = false;
        for seed in 0..40 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = heavy_move(&b, Color::Black, Some(pt("C2", 5)), None, &SURE, &mut rng);
            // Capturing A2 at A1 saves B2; extending at B1 gives B2-B1 liberties A1, C1: also
            // an escape. Either is fine, nothing else is.
            assert!(m == Some(pt("A1", 5)) || m == Some(pt("B1", 5)), "{m:?}");
            seen_capture |= m == Some(pt("A1", 5));
        }
        assert!(seen_capture);
    }

    #[test]
    fn does_not_extend_into_a_ladder_dead_end() {
        // Black A1 in atari in the corner after white B1 (white B1-B2): extending to A2 gives
        // A1-A2 the single liberty A3, so it is no escape, and as a self-atari of two stones
        // it is rejected (probability 1 here) by every step.
        let b = setup(5, &["A1"], &["B1", "B2"]);
        assert!(b.in_atari(pt("A1", 5)));
        for seed in 0..30 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = heavy_move(&b, Color::Black, Some(pt("B1", 5)), None, &SURE, &mut rng);
            assert_ne!(m, Some(pt("A2", 5)));
            assert!(m.is_some());
        }
    }

    fn low_liberty(b: &Board, c: Color, at: &str) -> Vec<Point> {
        let mut out = Candidates::new();
        low_liberty_moves(b, c, pt(at, 9), &mut out);
        out.as_slice().iter().map(|&p| p as Point).collect()
    }

    #[test]
    fn two_liberty_own_chain_gains_liberties() {
        // Black E5-E6 with white D5, D6, F5 (white just played F5): liberties E4, E7, F6.
        // White then F6 leaves E4 and E7; E7 gives D7, F7, E8: three or more.
        let b = setup(9, &["E5", "E6"], &["D5", "D6", "F5", "F6"]);
        let moves = low_liberty(&b, Color::Black, "F6");
        assert!(moves.contains(&pt("E7", 9)), "{moves:?}");
        // E4 gives D4, F4, E3: also three.
        assert!(moves.contains(&pt("E4", 9)), "{moves:?}");
    }

    #[test]
    fn two_liberty_opponent_chain_that_cannot_run_is_put_in_atari() {
        // White B1 after black C1 (black A2 there): white's liberties are A1 and B2. Atari at
        // B2 leaves A1, where the extension has no liberty left (A2 black): a sure capture.
        // Atari at A1 leaves B2, where white gets C2 and B3: it runs, so A1 is not proposed.
        // (C1 itself has two liberties, D1 and C2, which black may extend to.)
        let b = setup(9, &["C1", "A2"], &["B1"]);
        let moves = low_liberty(&b, Color::Black, "C1");
        assert!(moves.contains(&pt("B2", 9)), "{moves:?}");
        assert!(!moves.contains(&pt("A1", 9)), "{moves:?}");
    }

    #[test]
    fn two_liberty_opponent_chain_that_can_run_is_left_alone() {
        // White E5 with black D5 and F5 just played: liberties E4 and E6, and either
        // extension gets three liberties, so no atari is proposed.
        let b = setup(9, &["D5", "F5"], &["E5"]);
        assert!(low_liberty(&b, Color::Black, "F5").is_empty());
    }

    #[test]
    fn plays_pattern_answers() {
        // Black E5, white E6 (white just played contact): the hane points D6 and F6 match.
        let b = setup(9, &["E5"], &["E6"]);
        let mut seen = [false; 2];
        for seed in 0..40 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = heavy_move(&b, Color::Black, Some(pt("E6", 9)), None, &SURE, &mut rng);
            let m = m.unwrap();
            assert!(is_pattern(&b, m), "{:?}", Board::vertex_of(m));
            seen[0] |= m == pt("D6", 9);
            seen[1] |= m == pt("F6", 9);
        }
        assert!(seen[0] && seen[1], "random among matches");
    }

    #[test]
    fn never_illegal_nor_eye_filling_and_seeded() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
        let mut moves = 0;
        for size in [5, 9, 13] {
            for _ in 0..30 {
                let mut b = Board::new(size);
                let mut color = Color::Black;
                let (mut last, mut last2) = (None, None);
                let mut passes = 0;
                for _ in 0..3 * size * size {
                    let m = heavy_move(&b, color, last, last2, &HeavyParams::DEFAULT, &mut rng);
                    match m {
                        Some(p) => {
                            assert!(b.is_legal(color, p), "illegal {p}\n{b:?}");
                            assert!(!b.is_eye(color, p), "own eye {p}\n{b:?}");
                            b.play_unchecked(color, p);
                            passes = 0;
                            moves += 1;
                        }
                        None => {
                            // A pass only when no playable move is left that the policy would
                            // accept: at minimum there is no legal non-eye, non-self-atari one.
                            for &q in b.empty_points() {
                                let q = q as Point;
                                assert!(
                                    !b.is_legal(color, q)
                                        || b.is_eye(color, q)
                                        || is_bad_self_atari(&b, color, q, 2),
                                    "passed with {q} available\n{b:?}"
                                );
                            }
                            b.pass();
                            passes += 1;
                        }
                    }
                    last2 = last;
                    last = m;
                    color = color.opponent();
                    if passes == 2 {
                        break;
                    }
                }
                b.validate().unwrap();
            }
        }
        assert!(moves > 1000);
        // Same seed, same moves.
        let run = |seed| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut b = Board::new(9);
            let mut color = Color::Black;
            let mut last = None;
            let mut out = Vec::new();
            for _ in 0..100 {
                let m = heavy_move(&b, color, last, None, &HeavyParams::DEFAULT, &mut rng);
                if let Some(p) = m {
                    b.play_unchecked(color, p);
                } else {
                    b.pass();
                }
                out.push(m);
                last = m;
                color = color.opponent();
            }
            out
        };
        assert_eq!(run(4), run(4));
        assert_ne!(run(4), run(5));
    }

    #[test]
    fn nakade_vital_points_of_small_eye_spaces() {
        // A straight three on the first line, A1-C1, enclosed by white A2-C2, D1 (and D2):
        // the vital point is B1.
        let b = setup(9, &[], &["A2", "B2", "C2", "D2", "D1"]);
        assert_eq!(nakade_vital_point(&b, pt("A1", 9)), Some(pt("B1", 9)));
        assert_eq!(nakade_vital_point(&b, pt("C1", 9)), Some(pt("B1", 9)));
        // A bent three in the corner, A1, B1, A2 (white around): the corner A1.
        let b = setup(9, &[], &["C1", "B2", "A3"]);
        assert_eq!(nakade_vital_point(&b, pt("B1", 9)), Some(pt("A1", 9)));
        // A pyramid four, A1-C1 plus B2: B1.
        let b = setup(9, &[], &["A2", "C2", "B3", "D1"]);
        assert_eq!(nakade_vital_point(&b, pt("A1", 9)), Some(pt("B1", 9)));
        // A square four has no vital point (already dead); a straight four none either.
        let b = setup(9, &[], &["C1", "C2", "A3", "B3"]);
        assert_eq!(nakade_vital_point(&b, pt("A1", 9)), None);
        let b = setup(9, &[], &["A2", "B2", "C2", "D2", "E1"]);
        assert_eq!(nakade_vital_point(&b, pt("A1", 9)), None);
        // Mixed colours around the space, too big a space, or two points only: none.
        let b = setup(9, &["D1"], &["A2", "B2", "C2"]);
        assert_eq!(nakade_vital_point(&b, pt("A1", 9)), None);
        let b = setup(9, &[], &["A2", "B2", "C2", "D2", "E2", "F2", "G1"]);
        assert_eq!(nakade_vital_point(&b, pt("A1", 9)), None);
        let b = setup(9, &[], &["A2", "B2", "C1"]);
        assert_eq!(nakade_vital_point(&b, pt("A1", 9)), None);
    }

    #[test]
    fn nakade_step_plays_the_vital_point_for_both_sides() {
        // White closed a straight three A1-C1 with D1 (white A2-D2 around it): black kills at
        // B1, and white, to move instead, makes two eyes there too.
        let b = setup(
            9,
            &["E1", "E2", "A3", "B3", "C3", "D3", "E3"],
            &["A2", "B2", "C2", "D2", "D1"],
        );
        let p = HeavyParams {
            nakade: 1.0,
            ..SURE
        };
        for seed in 0..10 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let last = Some(pt("D1", 9));
            assert_eq!(
                heavy_move(&b, Color::Black, last, None, &p, &mut rng),
                Some(pt("B1", 9))
            );
            assert_eq!(
                heavy_move(&b, Color::White, last, None, &p, &mut rng),
                Some(pt("B1", 9))
            );
        }
        // Switched off, the step never fires: black's moves spread elsewhere.
        let mut others = 0;
        for seed in 0..20 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = heavy_move(&b, Color::Black, Some(pt("D1", 9)), None, &SURE, &mut rng);
            others += usize::from(m != Some(pt("B1", 9)));
        }
        assert!(others > 10, "{others}");
    }

    #[test]
    fn escape_into_a_ladder_is_read_in_playouts() {
        // White D4 in atari after black D3 (black C4, D5, E3, D3): extending to E4 gives two
        // liberties, and the ladder then captures it. With reading the extension is no
        // escape; without, it is proposed.
        let b = setup(9, &["C4", "D5", "E3", "D3"], &["D4"]);
        assert!(b.in_atari(pt("D4", 9)));
        let mut with = Candidates::new();
        escape_moves(&b, Color::White, pt("D3", 9), 200, &mut with);
        assert!(with.as_slice().is_empty(), "{:?}", with.as_slice());
        let mut without = Candidates::new();
        escape_moves(&b, Color::White, pt("D3", 9), 0, &mut without);
        assert_eq!(without.as_slice(), &[pt("E4", 9) as u16]);
        // A ladder breaker on the path makes the extension an escape again.
        let b = setup(9, &["C4", "D5", "E3", "D3"], &["D4", "G7"]);
        let mut with = Candidates::new();
        escape_moves(&b, Color::White, pt("D3", 9), 200, &mut with);
        assert_eq!(with.as_slice(), &[pt("E4", 9) as u16]);
    }

    #[test]
    fn fill_board_takes_open_points() {
        // On an almost empty board fill-board draws land on points with 8 empty neighbours.
        let b = setup(9, &["E5"], &["C3"]);
        let p = HeavyParams {
            fill_board: 5,
            ..SURE
        };
        let open = |q: Point| {
            PATTERN_OFFSETS
                .iter()
                .all(|&o| b.cell((q as isize + o) as Point) == Cell::Empty)
        };
        let mut hits = 0;
        for seed in 0..200 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = random_move(&b, Color::Black, &p, &mut rng).unwrap();
            hits += usize::from(open(m));
        }
        // Without fill-board about 49 % of the empty points are open; with 5 draws almost all.
        assert!(hits > 190, "{hits}");
        let mut hits0 = 0;
        for seed in 0..200 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = random_move(&b, Color::Black, &SURE, &mut rng).unwrap();
            hits0 += usize::from(open(m));
        }
        assert!(hits0 < 150, "{hits0}");
    }

    #[test]
    fn last_good_reply_is_learned_played_and_forgotten() {
        let mv = |s: &str| Move::Play(Board::vertex_of(pt(s, 9)));
        let mut t = LastGoodReply::new();
        let game = [
            (Color::Black, mv("E5")),
            (Color::White, mv("C3")),
            (Color::Black, mv("G7")),
        ];
        // White won: white's reply C3 to E5 is stored, black's G7 to C3 is not.
        t.update(&game, Some(Color::White));
        assert_eq!(t.get(Color::White, pt("E5", 9)), Some(pt("C3", 9)));
        assert_eq!(t.get(Color::Black, pt("C3", 9)), None);
        // The policy plays the stored reply (no tactical move around), and not without it.
        let white_reply = |b: &Board, t: Option<&LastGoodReply>, seed: u64| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            heavy_move_with(b, Color::White, Some(pt("E5", 9)), None, &SURE, t, &mut rng)
        };
        let b = setup(9, &["E5"], &[]);
        for seed in 0..10 {
            assert_eq!(white_reply(&b, Some(&t), seed), Some(pt("C3", 9)));
        }
        let differ = (0..10)
            .filter(|&seed| white_reply(&b, None, seed) != Some(pt("C3", 9)))
            .count();
        assert!(differ > 5, "{differ}");
        // Occupied reply points are skipped.
        let b2 = setup(9, &["E5", "C3"], &[]);
        assert_ne!(white_reply(&b2, Some(&t), 1), Some(pt("C3", 9)));
        // A lost playout with the same reply forgets it; a draw changes nothing.
        t.update(&game, None);
        assert_eq!(t.get(Color::White, pt("E5", 9)), Some(pt("C3", 9)));
        t.update(&game, Some(Color::Black));
        assert_eq!(t.get(Color::White, pt("E5", 9)), None);
        assert_eq!(t.get(Color::Black, pt("C3", 9)), Some(pt("G7", 9)));
        // Two moves of one colour in a row (a pass left out) are no move and reply.
        let mut t = LastGoodReply::new();
        t.update(
            &[(Color::Black, mv("E5")), (Color::Black, mv("D4"))],
            Some(Color::Black),
        );
        assert_eq!(t.get(Color::Black, pt("E5", 9)), None);
    }

    #[test]
    fn random_step_is_spread_out() {
        // On an empty 9×9 board the random step should reach most points over many draws.
        let b = Board::new(9);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut hits = std::collections::HashSet::new();
        for _ in 0..2000 {
            if let Some(p) = heavy_move(&b, Color::Black, None, None, &SURE, &mut rng) {
                hits.insert(p);
            }
        }
        assert_eq!(hits.len(), 81);
    }
}
