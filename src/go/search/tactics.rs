//! Ladder reading: does a chain in atari get away, and does an atari on a two-liberty chain
//! capture it? The defender may extend or capture an adjacent attacker chain in atari; the
//! attacker keeps the chain in atari by playing on one of its two liberties. Reading plays on
//! board copies (one per node), so it belongs to tree-node priors, not to playouts. It is
//! bounded by a node budget; when the budget runs out the chain is assumed to escape (the
//! cautious answer: no bonus for the attacker, no penalty for the defender).

use crate::go::Color;
use crate::go::board::{Board, Point};

/// Board copies one reading may make by default.
pub const DEFAULT_BUDGET: u32 = 200;

/// Liberties at which the defender counts as free.
const FREE: usize = 3;

/// The colour of the stone at `p`, if any.
#[inline]
fn colour_at(b: &Board, p: Point) -> Option<Color> {
    b.cell(p).color()
}

/// True if `c`'s move at legal `p` leaves the chain through `s` (a stone of `c`, currently in
/// atari or not) uncapturable by a ladder.
pub fn escape_move_works(board: &Board, c: Color, s: Point, p: Point, budget: u32) -> bool {
    if !board.is_legal(c, p) {
        return false;
    }
    let mut b = board.clone();
    b.play_unchecked(c, p);
    let mut budget = budget;
    after_defence(&b, c, s, &mut budget)
}

/// True if the chain through `s` (in atari, its owner to move) escapes by any move.
pub fn escapes(board: &Board, s: Point, budget: u32) -> bool {
    match colour_at(board, s) {
        Some(c) => {
            let mut budget = budget;
            defender_escapes(board, c, s, &mut budget)
        }
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
    let mut b = board.clone();
    b.play_unchecked(attacker, p);
    if colour_at(&b, target) != Some(c) {
        return true; // captured outright
    }
    if !b.in_atari(target) {
        return false;
    }
    let mut budget = budget;
    !defender_escapes(&b, c, target, &mut budget)
}

/// The chain through `s` (colour `c`) is in atari and `c` is to move.
fn defender_escapes(b: &Board, c: Color, s: Point, budget: &mut u32) -> bool {
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    let opp = c.opponent();
    // Counter-captures of attacker chains in atari that touch the chain.
    let mut tried = [usize::MAX; 8];
    let mut n_tried = 0;
    let mut t = s;
    loop {
        for u in Board::neighbours(t) {
            if colour_at(b, u) == Some(opp) && b.in_atari(u) {
                let l = b.atari_liberty(u);
                if n_tried < tried.len() && !tried[..n_tried].contains(&l) {
                    tried[n_tried] = l;
                    n_tried += 1;
                    if b.is_legal(c, l) {
                        let mut nb = b.clone();
                        nb.play_unchecked(c, l);
                        if after_defence(&nb, c, s, budget) {
                            return true;
                        }
                    }
                }
            }
        }
        t = b.next_stone(t);
        if t == s {
            break;
        }
    }
    // Extension.
    let l = b.atari_liberty(s);
    if !tried[..n_tried].contains(&l) && b.is_legal(c, l) {
        match b.liberties_after_upto(c, l, FREE as u32) as usize {
            n if n >= FREE => return true,
            2 => {
                let mut nb = b.clone();
                nb.play_unchecked(c, l);
                if attacker_fails(&nb, c, s, budget) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The defender (`c`) has just moved; the attacker is to move.
fn after_defence(b: &Board, c: Color, s: Point, budget: &mut u32) -> bool {
    if colour_at(b, s) != Some(c) {
        return false;
    }
    let mut libs = [0; FREE];
    match b.chain_liberties_upto(s, &mut libs) {
        n if n >= FREE => true,
        2 => attacker_fails(b, c, s, budget),
        _ => false,
    }
}

/// The chain through `s` has exactly two liberties and the attacker is to move: true if no
/// atari captures it.
fn attacker_fails(b: &Board, c: Color, s: Point, budget: &mut u32) -> bool {
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    let opp = c.opponent();
    let mut libs = [0; 2];
    if b.chain_liberties_upto(s, &mut libs) < 2 {
        return false;
    }
    for l in libs {
        if !b.is_legal(opp, l) {
            continue;
        }
        let mut nb = b.clone();
        nb.play_unchecked(opp, l);
        if colour_at(&nb, s) != Some(c) {
            return false;
        }
        if nb.in_atari(s) && !defender_escapes(&nb, c, s, budget) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{Move, Vertex};

    fn pt(s: &str, size: usize) -> Point {
        Board::point_of(Vertex::parse(s, size).unwrap())
    }

    fn setup(size: usize, black: &[&str], white: &[&str]) -> Board {
        let mut b = Board::new(size);
        for s in black {
            b.play_move(Color::Black, Move::Play(Vertex::parse(s, size).unwrap()))
                .unwrap();
        }
        for s in white {
            b.play_move(Color::White, Move::Play(Vertex::parse(s, size).unwrap()))
                .unwrap();
        }
        b
    }

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
}
