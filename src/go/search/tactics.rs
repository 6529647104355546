//! Ladder reading: does a chain in atari get away, and does an atari on a two-liberty chain
//! capture it? The defender may extend or capture an adjacent attacker chain in atari; the
//! attacker keeps the chain in atari by playing on one of its two liberties. Reading plays on
//! board copies, so it belongs to tree-node priors, not to playouts.
//!
//! The copies live in a per-thread pool, one board per reading depth, reused across calls
//! (no allocation once the pool is as deep as the longest ladder read so far, and recursion
//! frames stay small: the boards are never on the stack). A reading is bounded by a node
//! budget and by `MAX_DEPTH`; when either runs out the chain is assumed to escape (the
//! cautious answer: no bonus for the attacker, no penalty for the defender).

use crate::go::Color;
use crate::go::board::{Board, Point};
use std::cell::RefCell;

/// Nodes (board copies) one reading may make by default.
pub const DEFAULT_BUDGET: u32 = 200;

/// Deepest reading, in moves: 50 ladder steps, more than the longest ladder on 25×25.
pub const MAX_DEPTH: usize = 100;

/// Liberties at which the defender counts as free.
const FREE: usize = 3;

thread_local! {
    static POOL: RefCell<Vec<Board>> = const { RefCell::new(Vec::new()) };
}

/// The colour of the stone at `p`, if any.
#[inline]
fn colour_at(b: &Board, p: Point) -> Option<Color> {
    b.cell(p).color()
}

/// A reading in progress: `boards[d]` is the position at depth `d`.
struct Reader<'a> {
    boards: &'a mut Vec<Board>,
    budget: u32,
}

/// Runs `f` with the thread's board pool, `board` copied in as depth 0.
fn read<T>(board: &Board, budget: u32, f: impl FnOnce(&mut Reader) -> T) -> T {
    POOL.with(|pool| match pool.try_borrow_mut() {
        Ok(mut boards) => {
            set_depth_board(&mut boards, 0, board);
            let mut r = Reader {
                boards: &mut boards,
                budget,
            };
            f(&mut r)
        }
        // Re-entered on this thread (cannot happen today): read on a private pool.
        Err(_) => {
            let mut boards = Vec::new();
            set_depth_board(&mut boards, 0, board);
            let mut r = Reader {
                boards: &mut boards,
                budget,
            };
            f(&mut r)
        }
    })
}

/// Makes `boards[d]` a copy of `src`, growing the pool if needed. Kept out of line so that the
/// temporary copy lives in this short-lived frame, never in the recursive ones.
#[inline(never)]
fn set_depth_board(boards: &mut Vec<Board>, d: usize, src: &Board) {
    if d < boards.len() {
        boards[d].clone_from(src);
    } else {
        boards.push(src.clone());
    }
}

impl Reader<'_> {
    /// Plays `c` at legal `p` on a copy of depth `d`, as depth `d + 1`.
    #[inline(never)]
    fn child(&mut self, d: usize, c: Color, p: Point) {
        if d + 1 < self.boards.len() {
            let (l, r) = self.boards.split_at_mut(d + 1);
            r[0].clone_from(&l[d]);
        } else {
            let b = self.boards[d].clone();
            self.boards.push(b);
        }
        self.boards[d + 1].play_unchecked(c, p);
    }

    /// Spends one node; false when the budget or the depth is exhausted.
    #[inline]
    fn spend(&mut self, d: usize) -> bool {
        if self.budget == 0 || d + 1 >= MAX_DEPTH {
            return false;
        }
        self.budget -= 1;
        true
    }

    /// At depth `d` the chain through `s` (colour `c`) is in atari and `c` is to move.
    fn defender_escapes(&mut self, d: usize, c: Color, s: Point) -> bool {
        if !self.spend(d) {
            return true;
        }
        let opp = c.opponent();
        // Counter-captures of attacker chains in atari that touch the chain.
        let mut tried = [usize::MAX; 8];
        let mut n_tried = 0;
        let mut t = s;
        loop {
            for u in Board::neighbours(t) {
                let b = &self.boards[d];
                if colour_at(b, u) == Some(opp) && b.in_atari(u) {
                    let l = b.atari_liberty(u);
                    if n_tried < tried.len() && !tried[..n_tried].contains(&l) {
                        tried[n_tried] = l;
                        n_tried += 1;
                        if b.is_legal(c, l) {
                            self.child(d, c, l);
                            if self.after_defence(d + 1, c, s) {
                                return true;
                            }
                        }
                    }
                }
            }
            t = self.boards[d].next_stone(t);
            if t == s {
                break;
            }
        }
        // Extension.
        let b = &self.boards[d];
        let l = b.atari_liberty(s);
        if !tried[..n_tried].contains(&l) && b.is_legal(c, l) {
            match b.liberties_after_upto(c, l, FREE as u32) as usize {
                n if n >= FREE => return true,
                2 => {
                    self.child(d, c, l);
                    if self.attacker_fails(d + 1, c, s) {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// The defender (`c`) has just moved (depth `d`); the attacker is to move.
    fn after_defence(&mut self, d: usize, c: Color, s: Point) -> bool {
        let b = &self.boards[d];
        if colour_at(b, s) != Some(c) {
            return false;
        }
        let mut libs = [0; FREE];
        match b.chain_liberties_upto(s, &mut libs) {
            n if n >= FREE => true,
            2 => self.attacker_fails(d, c, s),
            _ => false,
        }
    }

    /// At depth `d` the chain through `s` has exactly two liberties and the attacker is to
    /// move: true if no atari captures it.
    fn attacker_fails(&mut self, d: usize, c: Color, s: Point) -> bool {
        if !self.spend(d) {
            return true;
        }
        let opp = c.opponent();
        let mut libs = [0; 2];
        if self.boards[d].chain_liberties_upto(s, &mut libs) < 2 {
            return false;
        }
        for l in libs {
            if !self.boards[d].is_legal(opp, l) {
                continue;
            }
            self.child(d, opp, l);
            let nb = &self.boards[d + 1];
            if colour_at(nb, s) != Some(c) {
                return false;
            }
            if nb.in_atari(s) && !self.defender_escapes(d + 1, c, s) {
                return false;
            }
        }
        true
    }
}

/// True if `c`'s move at legal `p` leaves the chain through `s` (a stone of `c`, currently in
/// atari or not) uncapturable by a ladder.
pub fn escape_move_works(board: &Board, c: Color, s: Point, p: Point, budget: u32) -> bool {
    if !board.is_legal(c, p) {
        return false;
    }
    read(board, budget, |r| {
        r.child(0, c, p);
        r.after_defence(1, c, s)
    })
}

/// True if the chain through `s` (in atari, its owner to move) escapes by any move.
pub fn escapes(board: &Board, s: Point, budget: u32) -> bool {
    match colour_at(board, s) {
        Some(c) => read(board, budget, |r| r.defender_escapes(0, c, s)),
        None => false,
    }
}

/// True if `attacker` playing legal `p` puts the chain through `target` into atari and
/// captures it in a ladder, whatever the defender does.
pub fn ladder_captures(
    board: &Board,
    attacker: Color,
    p: Point,
    target: Point,
    budget: u32,
) -> bool {
    let Some(c) = colour_at(board, target) else {
        return false;
    };
    if c == attacker || !board.is_legal(attacker, p) {
        return false;
    }
    read(board, budget, |r| {
        r.child(0, attacker, p);
        let b = &r.boards[1];
        if colour_at(b, target) != Some(c) {
            return true; // captured outright
        }
        if !b.in_atari(target) {
            return false;
        }
        !r.defender_escapes(1, c, target)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::tests::{pt, setup};

    /// White D4 against black C4, D5, E3: an atari at D3 starts a ladder that runs to the
    /// upper right edge.
    const LADDER: [&str; 3] = ["C4", "D5", "E3"];

    #[test]
    fn a_plain_ladder_works_on_an_empty_board() {
        let b = setup(9, &LADDER, &["D4"]);
        assert!(ladder_captures(
            &b,
            Color::Black,
            pt("D3", 9),
            pt("D4", 9),
            DEFAULT_BUDGET
        ));
        // An atari that leaves the stone free to run is no capture: black D3 is fine, but a
        // distant move does not even atari.
        assert!(!ladder_captures(
            &b,
            Color::Black,
            pt("A9", 9),
            pt("D4", 9),
            DEFAULT_BUDGET
        ));
    }

    #[test]
    fn a_ladder_breaker_saves_the_chain() {
        // The same ladder with a white stone on its path.
        let b = setup(9, &LADDER, &["D4", "G7"]);
        assert!(!ladder_captures(
            &b,
            Color::Black,
            pt("D3", 9),
            pt("D4", 9),
            DEFAULT_BUDGET
        ));
    }

    #[test]
    fn escape_by_extension_is_read() {
        // After black's D3 atari white D4 is in atari at E4.
        let mut b = setup(9, &LADDER, &["D4"]);
        b.play_unchecked(Color::Black, pt("D3", 9));
        assert!(b.in_atari(pt("D4", 9)));
        assert!(!escape_move_works(
            &b,
            Color::White,
            pt("D4", 9),
            pt("E4", 9),
            DEFAULT_BUDGET
        ));
        assert!(!escapes(&b, pt("D4", 9), DEFAULT_BUDGET));
        // With the breaker the extension works.
        let mut b = setup(9, &LADDER, &["D4", "G7"]);
        b.play_unchecked(Color::Black, pt("D3", 9));
        assert!(escape_move_works(
            &b,
            Color::White,
            pt("D4", 9),
            pt("E4", 9),
            DEFAULT_BUDGET
        ));
        assert!(escapes(&b, pt("D4", 9), DEFAULT_BUDGET));
    }

    #[test]
    fn counter_capture_escapes() {
        // White D4 in atari (black C4, D3, E4; liberty D5), but black E4 is itself in atari
        // (white E3, F4; liberty E5): white captures it and lives.
        let b = setup(9, &["C4", "D3", "E4"], &["D4", "E3", "F4"]);
        assert!(b.in_atari(pt("D4", 9)));
        assert!(b.in_atari(pt("E4", 9)));
        assert!(escapes(&b, pt("D4", 9), DEFAULT_BUDGET));
    }

    #[test]
    fn three_liberties_are_free_and_budget_is_cautious() {
        let b = setup(9, &["C4"], &["D4"]);
        // D3 leaves D4 with D5, E4: the chain is not in atari after the move, no capture.
        assert!(!ladder_captures(
            &b,
            Color::Black,
            pt("D3", 9),
            pt("D4", 9),
            DEFAULT_BUDGET
        ));
        // A zero budget never claims a capture.
        let b = setup(9, &["C4", "D3"], &["D4"]);
        assert!(!ladder_captures(
            &b,
            Color::Black,
            pt("E4", 9),
            pt("D4", 9),
            0
        ));
    }
    #[test]
    fn random_positions_read_consistently() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut claims = 0;
        for _ in 0..60 {
            let mut b = Board::new(9);
            let mut color = Color::Black;
            for _ in 0..rng.gen_range(10..90) {
                let legal: Vec<Point> = b
                    .empty_points()
                    .iter()
                    .map(|&p| p as Point)
                    .filter(|&p| b.is_legal(color, p) && !b.is_eye(color, p))
                    .collect();
                if legal.is_empty() {
                    break;
                }
                b.play_unchecked(color, legal[rng.gen_range(0..legal.len())]);
                color = color.opponent();
            }
            for s in b.points() {
                let Some(c) = b.cell(s).color() else { continue };
                let mut libs = [0; 3];
                match b.chain_liberties_upto(s, &mut libs) {
                    1 => {
                        // Reading never panics and agrees with a 3-liberty extension.
                        let e = escapes(&b, s, DEFAULT_BUDGET);
                        let l = b.atari_liberty(s);
                        if b.is_legal(c, l) && b.liberties_after_upto(c, l, 3) >= 3 {
                            assert!(e);
                        }
                    }
                    2 => {
                        for l in libs[..2].iter().copied() {
                            if ladder_captures(&b, c.opponent(), l, s, DEFAULT_BUDGET) {
                                claims += 1;
                                let mut a = b.clone();
                                a.play_unchecked(c.opponent(), l);
                                assert!(a.cell(s).color() != Some(c) || a.in_atari(s));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        assert!(claims > 0);
    }
    #[test]
    fn long_ladders_fit_a_small_stack() {
        // A 19×19 ladder from the lower left running 15 steps to the upper right edge, read on
        // a thread with a 256 KiB stack (debug build): the boards must not be on the stack.
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let b = setup(19, &["C4", "D5", "E3"], &["D4"]);
                ladder_captures(&b, Color::Black, pt("D3", 19), pt("D4", 19), DEFAULT_BUDGET)
            })
            .unwrap();
        assert!(handle.join().unwrap());
    }
}
