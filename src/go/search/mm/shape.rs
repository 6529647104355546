//! Shape keys of a candidate move for the MM model: the 3×3 neighbourhood with atari flags,
//! and the larger diamond patterns (all points within Manhattan distance 2: 12 points; 3: 24
//! points). Every key is canonical: the same under the 8 symmetries of the square, and written
//! from the point of view of the side to move (own / opponent stones, not black / white), so a
//! shape and its mirror images or colour swap share one gamma.
//!
//! The 3×3 key packs 3 bits per neighbour (empty, own, opponent, off-board, own stone in atari,
//! opponent stone in atari) and takes the smallest code over the symmetries. The diamond keys
//! are Zobrist hashes (fixed-seed keys per offset and contents: empty, own, opponent,
//! off-board) and take the smallest hash over the symmetries; the radius sits in the top bits
//! so keys of different radii never meet.

use super::super::patterns::symmetry;
use crate::go::board::{Board, Cell, PATTERN_DELTAS, PATTERN_OFFSETS, Point, splitmix64};
use crate::go::{Color, Vertex};
use std::sync::OnceLock;

/// Largest diamond radius hashed.
pub const MAX_RADIUS: usize = 3;
/// Side of the square of offsets around the move that holds the largest diamond.
const SIDE: usize = 2 * MAX_RADIUS + 1;
/// Bits of a diamond hash below the radius tag.
const HASH_BITS: u32 = 60;

/// Contents of a point relative to the side to move.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPPONENT: u8 = 2;
const OFF_BOARD: u8 = 3;

/// The contents of `p` seen by `color`: empty, own, opponent or off the board.
#[inline]
fn relative(board: &Board, color: Color, p: Point) -> u8 {
    match board.cell(p) {
        Cell::Empty => EMPTY,
        Cell::Border => OFF_BOARD,
        c if c.color() == Some(color) => OWN,
        _ => OPPONENT,
    }
}

/// The canonical 3×3 key of `color` playing at `p`: neighbours with atari flags, smallest
/// code over the 8 symmetries.
pub fn pattern3(board: &Board, color: Color, p: Point) -> u32 {
    let mut value = [0u32; 8];
    for (i, &off) in PATTERN_OFFSETS.iter().enumerate() {
        let q = (p as isize + off) as Point;
        let v = relative(board, color, q);
        let atari = (v == OWN || v == OPPONENT) && board.in_atari(q);
        value[i] = v as u32 + if atari { 3 } else { 0 };
    }
    let mut best = u32::MAX;
    for k in 0..8 {
        let mut code = 0u32;
        for (i, &d) in PATTERN_DELTAS.iter().enumerate() {
            let slot = slot_of(symmetry(k, d));
            code |= value[slot] << (3 * i);
        }
        best = best.min(code);
    }
    best
}

/// The index in `PATTERN_DELTAS` of the neighbour at `d`.
#[inline]
fn slot_of(d: (isize, isize)) -> usize {
    PATTERN_DELTAS
        .iter()
        .position(|&q| q == d)
        .unwrap_or_default()
}

/// Zobrist keys per offset square (row-major over `SIDE × SIDE`) and contents.
fn keys() -> &'static [[u64; 4]; SIDE * SIDE] {
    static KEYS: OnceLock<[[u64; 4]; SIDE * SIDE]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state: u64 = 0x6d6d_2d73_6861_7065;
        let mut out = [[0u64; 4]; SIDE * SIDE];
        for square in out.iter_mut() {
            for k in square.iter_mut() {
                *k = splitmix64(&mut state);
            }
        }
        out
    })
}

/// Offsets of a diamond, nearest first, and how many lie within each radius.
type Diamond = (Vec<(isize, isize)>, [usize; MAX_RADIUS + 1]);

/// The offsets of the largest diamond, nearest first (distance 1, 2, 3), and for each how
/// many lie within each radius: `diamond().1[r]` is the number of offsets within distance r.
fn diamond() -> &'static Diamond {
    static D: OnceLock<Diamond> = OnceLock::new();
    D.get_or_init(|| {
        let mut offsets = Vec::new();
        let mut within = [0usize; MAX_RADIUS + 1];
        let r = MAX_RADIUS as isize;
        for dist in 1..=r {
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs() + dy.abs() == dist {
                        offsets.push((dx, dy));
                    }
                }
            }
            within[dist as usize] = offsets.len();
        }
        (offsets, within)
    })
}

/// The canonical diamond keys of `color` playing at `p` for radius 2 and 3 (in that order).
pub fn diamonds(board: &Board, color: Color, p: Point) -> [u64; 2] {
    let n = board.size() as isize;
    let (x, y) = Board::coords(p);
    let (x, y) = (x as isize, y as isize);
    let r = MAX_RADIUS as isize;
    // Contents of the square around `p`, row-major from (-r, -r).
    let mut square = [OFF_BOARD; SIDE * SIDE];
    for dy in -r..=r {
        for dx in -r..=r {
            let (xx, yy) = (x + dx, y + dy);
            if (0..n).contains(&xx) && (0..n).contains(&yy) {
                let q = Board::point_of(Vertex::new(xx as usize, yy as usize));
                square[index(dx, dy)] = relative(board, color, q);
            }
        }
    }
    let keys = keys();
    let (offsets, within) = diamond();
    let mut best = [u64::MAX; 2];
    for k in 0..8 {
        let mut h = 0u64;
        for (i, &d) in offsets.iter().enumerate() {
            let (sx, sy) = symmetry(k, d);
            h ^= keys[index(d.0, d.1)][square[index(sx, sy)] as usize];
            if i + 1 == within[2] {
                best[0] = best[0].min(h);
            }
        }
        best[1] = best[1].min(h);
    }
    [tag(best[0], 2), tag(best[1], 3)]
}

/// Index of offset (dx, dy) in the `SIDE × SIDE` square.
#[inline]
fn index(dx: isize, dy: isize) -> usize {
    let r = MAX_RADIUS as isize;
    ((dy + r) * SIDE as isize + dx + r) as usize
}

/// A hash with its radius in the top bits.
#[inline]
fn tag(hash: u64, radius: u64) -> u64 {
    (radius << HASH_BITS) | (hash & ((1 << HASH_BITS) - 1))
}

/// The radius a diamond key was made with.
pub fn radius_of(key: u64) -> u64 {
    key >> HASH_BITS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::tests::{pt, setup};

    #[test]
    fn diamond_sizes_are_12_and_24() {
        let (offsets, within) = diamond();
        assert_eq!(within[2], 12);
        assert_eq!(within[3], 24);
        assert_eq!(offsets.len(), 24);
    }

    #[test]
    fn mirror_and_rotated_positions_share_keys() {
        // A shape near the lower-left corner and its images in the other corners.
        let a = setup(9, &["C3", "D4"], &["C4"]);
        let b = setup(9, &["G3", "F4"], &["G4"]); // mirrored left-right
        let c = setup(9, &["C7", "D6"], &["C6"]); // mirrored top-bottom
        let d = setup(9, &["G7", "F6"], &["G6"]); // rotated 180°
        let pa = pattern3(&a, Color::Black, pt("D3", 9));
        let da = diamonds(&a, Color::Black, pt("D3", 9));
        for (b, p) in [(&b, "F3"), (&c, "D7"), (&d, "F7")] {
            assert_eq!(pattern3(b, Color::Black, pt(p, 9)), pa);
            assert_eq!(diamonds(b, Color::Black, pt(p, 9)), da);
        }
        // Transposition (x <-> y).
        let t = setup(9, &["C3", "D4"], &["D3"]);
        assert_eq!(pattern3(&t, Color::Black, pt("C4", 9)), pa);
        assert_eq!(diamonds(&t, Color::Black, pt("C4", 9)), da);
    }

    #[test]
    fn keys_are_relative_to_the_side_to_move() {
        let a = setup(9, &["C3", "D4"], &["C4"]);
        let swapped = setup(9, &["C4"], &["C3", "D4"]);
        let p = pt("D3", 9);
        assert_eq!(
            pattern3(&a, Color::Black, p),
            pattern3(&swapped, Color::White, p)
        );
        assert_eq!(
            diamonds(&a, Color::Black, p),
            diamonds(&swapped, Color::White, p)
        );
        assert_ne!(pattern3(&a, Color::Black, p), pattern3(&a, Color::White, p));
        assert_ne!(diamonds(&a, Color::Black, p), diamonds(&a, Color::White, p));
    }

    #[test]
    fn different_shapes_get_different_keys() {
        let b = setup(9, &["C3", "D4"], &["C4"]);
        let empty = Board::new(9);
        let p = pt("D3", 9);
        assert_ne!(
            pattern3(&b, Color::Black, p),
            pattern3(&empty, Color::Black, p)
        );
        // A stone at distance 3 changes the radius-3 key only.
        let far = setup(9, &["G3"], &[]);
        let dk = diamonds(&far, Color::Black, p);
        let de = diamonds(&empty, Color::Black, p);
        assert_eq!(dk[0], de[0]);
        assert_ne!(dk[1], de[1]);
        assert_eq!(radius_of(dk[0]), 2);
        assert_eq!(radius_of(dk[1]), 3);
        // The edge is part of the shape: the centre and the first line differ.
        assert_ne!(
            diamonds(&empty, Color::Black, pt("E5", 9)),
            diamonds(&empty, Color::Black, pt("E1", 9))
        );
        assert_ne!(
            pattern3(&empty, Color::Black, pt("E5", 9)),
            pattern3(&empty, Color::Black, pt("E1", 9))
        );
    }

    #[test]
    fn atari_flags_change_the_3x3_key() {
        // White C4 with 3 liberties, then in atari.
        let free = setup(9, &["C3"], &["C4"]);
        let atari = setup(9, &["C3", "B4", "C5"], &["C4"]);
        // Same 3×3 around D3 (C4 diagonal, C3 left) apart from the atari flag... the other
        // stones B4 and C5 lie outside D3's 3×3.
        assert_ne!(
            pattern3(&free, Color::Black, pt("D3", 9)),
            pattern3(&atari, Color::Black, pt("D3", 9))
        );
    }
}
