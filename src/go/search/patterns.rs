//! The classic MoGo 3×3 playout patterns (Gelly, Wang, Munos, Teytaud 2006, "Modification of
//! UCT with patterns in Monte-Carlo Go"; the same set michi and Pachi's moggy use): hane, cuts
//! and edge shapes around an empty point. They are written below as text, expanded over the 8
//! symmetries of the square and the colour swap, and compiled once into a 65536-bit table
//! indexed by `Board::pattern3x3`.
//!
//! Pattern text, rows top to bottom, the candidate move is the centre (always empty):
//! `X`/`O` the two colours, `.` empty, `x` anything but `X` (empty, `O` or off-board), `o`
//! anything but `O`, `#` off the board, `?` anything. Because the colour swap is included, a
//! pattern says "this shape is urgent for whoever is to move", as in MoGo.

use crate::go::board::{Board, Cell, PATTERN_DELTAS, Point};
use std::sync::OnceLock;

/// The patterns: (name, rows top to bottom).
pub const PATTERN_SOURCE: [(&str, [&str; 3]); 13] = [
    // Hane: answer a contact play by bending around it.
    ("enclosing hane", ["XOX", "...", "???"]),
    ("non-cutting hane", ["XO.", "...", "?.?"]),
    ("magari", ["XO?", "X..", "x.?"]),
    ("katatsuke or diagonal attachment", [".O.", "X..", "..."]),
    // Cuts and their defence.
    ("unprotected cut", ["XO?", "O.o", "?o?"]),
    ("peeped cut", ["XO?", "O.X", "???"]),
    ("de (push between)", ["?X?", "O.O", "ooo"]),
    ("cut keima", ["OX?", "o.O", "???"]),
    // First-line shapes (the bottom row is off the board).
    ("edge chase", ["X.?", "O.?", "##?"]),
    ("edge block side cut", ["OX?", "X.O", "###"]),
    ("edge block side connection", ["?X?", "x.O", "###"]),
    ("edge sagari", ["?XO", "x.x", "###"]),
    ("edge side cut", ["?OX", "X.O", "###"]),
];

const EMPTY: u8 = 1 << Cell::Empty as u8;
const BLACK: u8 = 1 << Cell::Black as u8;
const WHITE: u8 = 1 << Cell::White as u8;
const BORDER: u8 = 1 << Cell::Border as u8;

/// The set of cell values a pattern character allows (bit `Cell as u8`), `X` being black.
fn allowed(ch: u8) -> u8 {
    match ch {
        b'.' => EMPTY,
        b'X' => BLACK,
        b'O' => WHITE,
        b'x' => EMPTY | WHITE | BORDER,
        b'o' => EMPTY | BLACK | BORDER,
        b'#' => BORDER,
        _ => EMPTY | BLACK | WHITE | BORDER,
    }
}

/// Swaps the black and white bits of an allowed set.
fn swap_colours(set: u8) -> u8 {
    (set & (EMPTY | BORDER))
        | if set & BLACK != 0 { WHITE } else { 0 }
        | if set & WHITE != 0 { BLACK } else { 0 }
}

/// The 8 symmetries of the square as maps of (dx, dy).
pub(crate) fn symmetry(k: usize, (dx, dy): (isize, isize)) -> (isize, isize) {
    let (x, y) = if k & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let x = if k & 1 != 0 { -x } else { x };
    let y = if k & 2 != 0 { -y } else { y };
    (x, y)
}

/// Index in `pattern3x3` order of the neighbour at (dx, dy).
fn slot(d: (isize, isize)) -> usize {
    PATTERN_DELTAS
        .iter()
        .position(|&q| q == d)
        .unwrap_or_default()
}

/// Per slot, the allowed cell values of one pattern under symmetry `k` and colour swap `swap`.
fn constraints(rows: &[&str; 3], k: usize, swap: bool) -> [u8; 8] {
    let mut out = [0xffu8; 8];
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.as_bytes().iter().enumerate().take(3) {
            if r == 1 && c == 1 {
                continue;
            }
            // Text rows go top to bottom: row 0 is dy = +1.
            let d = (c as isize - 1, 1 - r as isize);
            let set = allowed(ch);
            out[slot(symmetry(k, d))] = if swap { swap_colours(set) } else { set };
        }
    }
    out
}

/// Sets the bit of every code whose 8 cells each lie in their allowed set.
fn mark(table: &mut [u64; 1024], sets: &[u8; 8]) {
    // Odometer over the allowed values of each slot.
    let choices: [[u8; 4]; 8] = std::array::from_fn(|i| {
        let mut v = [u8::MAX; 4];
        let mut n = 0;
        for cell in 0..4u8 {
            if sets[i] & (1 << cell) != 0 {
                v[n] = cell;
                n += 1;
            }
        }
        v
    });
    let counts: [usize; 8] =
        std::array::from_fn(|i| choices[i].iter().take_while(|&&c| c != u8::MAX).count());
    if counts.contains(&0) {
        return;
    }
    let mut idx = [0usize; 8];
    loop {
        let mut code = 0usize;
        for i in 0..8 {
            code |= (choices[i][idx[i]] as usize) << (2 * i);
        }
        table[code >> 6] |= 1 << (code & 63);
        let mut i = 0;
        loop {
            if i == 8 {
                return;
            }
            idx[i] += 1;
            if idx[i] < counts[i] {
                break;
            }
            idx[i] = 0;
            i += 1;
        }
    }
}

fn table() -> &'static [u64; 1024] {
    static TABLE: OnceLock<Box<[u64; 1024]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0u64; 1024]);
        for (_, rows) in PATTERN_SOURCE.iter() {
            for k in 0..8 {
                for swap in [false, true] {
                    mark(&mut t, &constraints(rows, k, swap));
                }
            }
        }
        t
    })
}

/// True if the neighbourhood code (from `Board::pattern3x3`) matches a pattern.
#[inline]
pub fn matches_code(code: u16) -> bool {
    let code = code as usize;
    table()[code >> 6] & (1 << (code & 63)) != 0
}

/// True if `p` is empty and its 3×3 neighbourhood matches one of the patterns.
#[inline]
pub fn is_pattern(board: &Board, p: Point) -> bool {
    board.cell(p) == Cell::Empty && matches_code(board.pattern3x3(p))
}

/// Number of distinct neighbourhood codes the table accepts (for tests and diagnostics).
pub fn table_size() -> u32 {
    table().iter().map(|w| w.count_ones()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{Color, Move, Vertex};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The code of a concrete 3×3 picture (rows top to bottom, `X` black, `O` white, `.`
    /// empty, `#` border; the centre is ignored).
    fn code_of(rows: [&str; 3]) -> u16 {
        let mut code = 0u16;
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                if r == 1 && c == 1 {
                    continue;
                }
                let v = match ch {
                    b'X' => Cell::Black,
                    b'O' => Cell::White,
                    b'#' => Cell::Border,
                    _ => Cell::Empty,
                } as u16;
                let i = PATTERN_DELTAS
                    .iter()
                    .position(|&d| d == (c as isize - 1, 1 - r as isize))
                    .unwrap();
                code |= v << (2 * i);
            }
        }
        code
    }

    /// Independent picture transforms on text grids.
    fn rot90(g: [String; 3]) -> [String; 3] {
        let b: Vec<Vec<u8>> = g.iter().map(|r| r.bytes().collect()).collect();
        std::array::from_fn(|r| (0..3).map(|c| b[2 - c][r] as char).collect())
    }
    fn mirror(g: [String; 3]) -> [String; 3] {
        std::array::from_fn(|r| g[r].chars().rev().collect())
    }
    fn swap(g: [String; 3]) -> [String; 3] {
        std::array::from_fn(|r| {
            g[r].chars()
                .map(|c| match c {
                    'X' => 'O',
                    'O' => 'X',
                    'x' => 'o',
                    'o' => 'x',
                    c => c,
                })
                .collect()
        })
    }
    fn grid(rows: [&str; 3]) -> [String; 3] {
        rows.map(str::to_string)
    }
    fn variants(rows: [&str; 3]) -> Vec<[String; 3]> {
        let mut out = Vec::new();
        for s in [false, true] {
            let mut g = grid(rows);
            if s {
                g = swap(g);
            }
            for m in [false, true] {
                let mut h = g.clone();
                if m {
                    h = mirror(h);
                }
                for _ in 0..4 {
                    out.push(h.clone());
                    h = rot90(h);
                }
            }
        }
        out
    }
    fn code_of_grid(g: &[String; 3]) -> u16 {
        code_of([g[0].as_str(), g[1].as_str(), g[2].as_str()])
    }

    /// Slow reference: does the concrete picture match pattern text character by character,
    /// trying every variant of the pattern text?
    fn naive_match(code: u16) -> bool {
        let cell = |i: usize| (code >> (2 * i)) & 3;
        PATTERN_SOURCE.iter().any(|(_, rows)| {
            variants(*rows).iter().any(|g| {
                (0..3).all(|r| {
                    (0..3).all(|c| {
                        if r == 1 && c == 1 {
                            return true;
                        }
                        let i = PATTERN_DELTAS
                            .iter()
                            .position(|&d| d == (c as isize - 1, 1 - r as isize))
                            .unwrap();
                        let v = cell(i);
                        match g[r].as_bytes()[c] {
                            b'.' => v == 0,
                            b'X' => v == 1,
                            b'O' => v == 2,
                            b'#' => v == 3,
                            b'x' => v != 1,
                            b'o' => v != 2,
                            _ => true,
                        }
                    })
                })
            })
        })
    }

    #[test]
    fn concrete_shapes_match_in_every_orientation_and_colour() {
        let shapes: [[&str; 3]; 9] = [
            ["XOX", "...", "..."], // enclosing hane
            ["XO.", "...", "..."], // non-cutting hane
            ["XO.", "X..", "..."], // magari
            [".O.", "X..", "..."], // diagonal attachment
            ["XO.", "O..", "..."], // unprotected cut
            [".X.", "O.O", "..."], // de
            ["OX.", "..O", "..."], // cut keima
            ["X..", "O..", "###"], // edge chase
            [".XO", "...", "###"], // sagari
        ];
        for s in shapes {
            for g in variants(s) {
                assert!(
                    matches_code(code_of_grid(&g)),
                    "{g:?} (from {s:?}) should match"
                );
            }
        }
    }

    #[test]
    fn non_shapes_do_not_match() {
        let shapes: [[&str; 3]; 6] = [
            ["...", "...", "..."],
            [".X.", "...", "..."], // a lone stone
            ["X.X", "...", "..."], // two own stones
            ["XX.", "...", "..."],
            ["...", "...", "###"], // empty edge
            ["###", "#..", "#.."], // empty corner
        ];
        for s in shapes {
            for g in variants(s) {
                assert!(!matches_code(code_of_grid(&g)), "{g:?} should not match");
            }
        }
        // Enclosing hane needs the two X stones; with one replaced by O it is a different
        // shape (XOO / ... is the thin hane, deliberately left out).
        assert!(!matches_code(code_of(["XOO", "...", "..."])));
    }

    #[test]
    fn table_agrees_with_a_naive_matcher() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut hits = 0;
        for _ in 0..3000 {
            let code: u16 = rng.r#gen();
            let m = matches_code(code);
            assert_eq!(m, naive_match(code), "code {code:#06x}");
            hits += m as u32;
        }
        assert!(hits > 0);
        // Biased toward realistic codes: mostly empty with a few stones.
        for _ in 0..3000 {
            let mut code = 0u16;
            for i in 0..8 {
                let v = match rng.gen_range(0..10) {
                    0..=4 => 0,
                    5 | 6 => 1,
                    7 | 8 => 2,
                    _ => 3,
                };
                code |= v << (2 * i);
            }
            assert_eq!(matches_code(code), naive_match(code), "code {code:#06x}");
        }
        assert!(table_size() > 1000 && table_size() < 65536);
    }

    #[test]
    fn is_pattern_on_a_board() {
        let mut b = Board::new(9);
        let play = |b: &mut Board, c, s: &str| {
            b.play_move(c, Move::Play(Vertex::parse(s, 9).unwrap()))
                .unwrap()
        };
        // Black E5, white E6 (contact from above). Around D6 the picture (rows top to bottom)
        // is "...", "..O", "..X": the non-cutting hane, rotated.
        play(&mut b, Color::Black, "E5");
        play(&mut b, Color::White, "E6");
        let p = |s: &str| Board::point_of(Vertex::parse(s, 9).unwrap());
        assert!(is_pattern(&b, p("D6")));
        assert!(is_pattern(&b, p("F6")));
        // Far away points and occupied points do not match.
        assert!(!is_pattern(&b, p("A9")));
        assert!(!is_pattern(&b, p("E5")));
        assert!(!is_pattern(&b, p("B2")));
    }
}
