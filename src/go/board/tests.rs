//! Tests of the Go board: placement, captures, ko, liberties, and the helpers other Go tests use.

use super::*;

/// Test helper: the point of a GTP vertex.
pub(crate) fn pt(s: &str, size: usize) -> Point {
    Board::point_of(Vertex::parse(s, size).unwrap())
}

/// Test helper: a board with the given stones (played in order), checked by `validate`.
pub(crate) fn setup(size: usize, black: &[&str], white: &[&str]) -> Board {
    let mut b = Board::new(size);
    for s in black {
        b.play_move(Color::Black, Move::Play(Vertex::parse(s, size).unwrap()))
            .unwrap();
    }
    for s in white {
        b.play_move(Color::White, Move::Play(Vertex::parse(s, size).unwrap()))
            .unwrap();
    }
    b.validate().unwrap();
    b
}

#[test]
fn capture_and_prisoners() {
    let mut b = setup(5, &["B1"], &["A1"]);
    b.play_move(Color::Black, Move::Play(Vertex::parse("A2", 5).unwrap()))
        .unwrap();
    assert_eq!(b.get(Vertex::parse("A1", 5).unwrap()), None);
    assert_eq!(b.captures(Color::Black), 1);
    assert_eq!(b.stones_on_board(Color::White), 0);
    b.validate().unwrap();
}

#[test]
fn suicide_is_illegal_unless_it_captures() {
    let mut b = setup(5, &["B1", "A2"], &[]);
    let before = b.hash();
    assert_eq!(
        b.play_move(Color::White, Move::Play(Vertex::parse("A1", 5).unwrap())),
        Err(BoardError::Suicide)
    );
    assert_eq!(b.hash(), before);
    assert_eq!(b.get(Vertex::parse("A1", 5).unwrap()), None);
    // White B1 has no liberty of its own but captures black A1: legal.
    let mut c = setup(5, &["A1"], &["A2", "C1", "B2"]);
    c.play_move(Color::White, Move::Play(Vertex::parse("B1", 5).unwrap()))
        .unwrap();
    assert_eq!(c.get(Vertex::parse("A1", 5).unwrap()), None);
    assert_eq!(c.captures(Color::White), 1);
    c.validate().unwrap();
    // A multi-stone suicide is refused too.
    let mut d = setup(5, &["A3", "B2", "C1"], &["A1"]);
    assert_eq!(
        d.play_move(Color::White, Move::Play(Vertex::parse("B1", 5).unwrap())),
        Ok(())
    );
    assert_eq!(
        d.play_move(Color::White, Move::Play(Vertex::parse("A2", 5).unwrap())),
        Err(BoardError::Suicide)
    );
    d.validate().unwrap();
}

#[test]
fn ko_point_forbids_immediate_retake() {
    //   . X O .      row 4
    //   X O . O      row 3  (white C3 to be captured by black D3)
    //   . X O .      row 2
    let mut k = setup(5, &["B3", "C4", "C2"], &["C3", "D4", "D2", "E3"]);
    k.play_move(Color::Black, Move::Play(Vertex::parse("D3", 5).unwrap()))
        .unwrap();
    assert_eq!(k.get(Vertex::parse("C3", 5).unwrap()), None);
    assert_eq!(k.ko_point(), Some(pt("C3", 5)));
    assert_eq!(
        k.play_move(Color::White, Move::Play(Vertex::parse("C3", 5).unwrap())),
        Err(BoardError::Ko)
    );
    k.pass();
    assert_eq!(k.ko_point(), None);
    k.validate().unwrap();
}

#[test]
fn atari_detection_and_liberties() {
    let b = setup(9, &["E5", "E6"], &["D5", "F5", "D6", "F6", "E7"]);
    let p = pt("E5", 9);
    assert!(b.in_atari(p));
    assert_eq!(b.atari_liberty(p), pt("E4", 9));
    assert_eq!(b.liberties(p), vec![pt("E4", 9)]);
    let q = pt("D5", 9);
    assert!(!b.in_atari(q));
}

#[test]
fn eyes() {
    let b = setup(5, &["A2", "B1", "B2"], &[]);
    assert!(b.is_eye(Color::Black, pt("A1", 5)));
    assert!(!b.is_eye(Color::White, pt("A1", 5)));
    let c = setup(5, &["A2", "B1"], &["B2"]);
    assert!(!c.is_eye(Color::Black, pt("A1", 5)));
}

#[test]
fn area_scoring_counts_regions() {
    let b = Board::new(5);
    assert_eq!(b.area(), (0, 0));
    let b = setup(5, &["C1", "C2", "C3", "C4", "C5"], &[]);
    assert_eq!(b.area(), (25, 0));
    let b = setup(
        5,
        &["B1", "B2", "B3", "B4", "B5"],
        &["D1", "D2", "D3", "D4", "D5"],
    );
    assert_eq!(b.area(), (10, 10));
}

#[test]
fn random_games_keep_invariants() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    for size in [2, 3, 5, 9, 13, 19, 25] {
        let mut b = Board::new(size);
        let mut color = Color::Black;
        for _ in 0..(size * size * 3) {
            let legal: Vec<Point> = b
                .empty_points()
                .iter()
                .map(|&p| p as Point)
                .filter(|&p| b.is_legal(color, p))
                .collect();
            if legal.is_empty() {
                b.pass();
            } else {
                let p = legal[rng.gen_range(0..legal.len())];
                let predicted = b.hash_after(color, p);
                b.play_unchecked(color, p);
                assert_eq!(predicted, b.hash());
            }
            if size <= 9 || b.empty_points().len() % 17 == 0 {
                b.validate().unwrap();
                let (bb, ww) = b.area();
                assert_eq!(b.area_difference(), bb as i32 - ww as i32);
            }
            color = color.opponent();
        }
        b.validate().unwrap();
    }
}
/// Random positions of varied density (light random play from the empty board).
fn random_positions(seed: u64, count: usize) -> Vec<Board> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let size = [5, 7, 9, 13][rng.gen_range(0..4)];
        let mut b = Board::new(size);
        let plies = rng.gen_range(0..size * size * 2);
        let mut color = Color::Black;
        for _ in 0..plies {
            let empty = b.empty_points();
            let legal: Vec<Point> = empty
                .iter()
                .map(|&p| p as Point)
                .filter(|&p| b.is_legal(color, p) && !b.is_eye(color, p))
                .collect();
            if legal.is_empty() {
                b.pass();
            } else {
                b.play_unchecked(color, legal[rng.gen_range(0..legal.len())]);
            }
            color = color.opponent();
        }
        out.push(b);
    }
    out
}

#[test]
fn liberties_after_matches_clone_and_play() {
    let mut checked = 0;
    for b in random_positions(11, 1000) {
        for &p in b.empty_points() {
            let p = p as Point;
            for c in Color::BOTH {
                if !b.is_legal(c, p) {
                    continue;
                }
                let mut after = b.clone();
                let captured = after.play_unchecked(c, p);
                let libs = after.liberties(p).len() as u32;
                for cap in 1..=LIBERTY_CAP_MAX {
                    assert_eq!(
                        b.liberties_after_upto(c, p, cap),
                        libs.min(cap),
                        "{c:?} at {p} cap {cap}\n{b:?}"
                    );
                }
                assert_eq!(b.liberties_after(c, p), libs.min(4));
                assert_eq!(b.is_self_atari(c, p), libs == 1, "{c:?} at {p}\n{b:?}");
                assert_eq!(b.chain_size_after(c, p), after.chain_size(p) as u32);
                assert_eq!(b.captures_after(c, p), captured);
                let all = after.liberties(p);
                let mut buf = [0; 3];
                let k = after.chain_liberties_upto(p, &mut buf);
                assert_eq!(k, all.len().min(3));
                assert!(buf[..k].iter().all(|l| all.contains(l)));
                checked += 1;
            }
        }
    }
    assert!(checked > 20000, "only {checked} moves checked");
}

#[test]
fn self_atari_examples() {
    let b = setup(5, &["C1"], &["B2", "C2", "A1"]);
    // Black B1: joins C1; chain {B1, C1}; liberties: D1 only (A1 white, B2/C2 white).
    assert!(b.is_self_atari(Color::Black, pt("B1", 5)));
    assert_eq!(b.liberties_after(Color::Black, pt("B1", 5)), 1);
    assert_eq!(b.chain_size_after(Color::Black, pt("B1", 5)), 2);
    // Black D1 gives the C1 chain D1's neighbours: E1, D2.
    assert!(!b.is_self_atari(Color::Black, pt("D1", 5)));
    // Capturing a chain in atari gives its points as liberties, including stones that
    // touch only a joined chain (A1 touches B1, which A3 joins through B3).
    let c = setup(5, &["B1", "B2", "B3"], &["A1", "A2"]);
    let a3 = pt("A3", 5);
    assert_eq!(c.captures_after(Color::Black, a3), 2);
    assert_eq!(c.liberties_after_upto(Color::Black, a3, 8), 7);
    assert_eq!(c.liberties_after(Color::Black, a3), 4);
    assert!(!c.is_self_atari(Color::Black, a3));
}

#[test]
fn pattern3x3_reads_the_eight_neighbours() {
    for b in random_positions(12, 50) {
        for p in b.points() {
            let code = b.pattern3x3(p);
            for (i, &(dx, dy)) in PATTERN_DELTAS.iter().enumerate() {
                let (x, y) = Board::coords(p);
                let (nx, ny) = (x as isize + dx, y as isize + dy);
                let expect =
                    if nx < 0 || ny < 0 || nx >= b.size() as isize || ny >= b.size() as isize {
                        Cell::Border
                    } else {
                        b.cell(Board::point_of(Vertex::new(nx as usize, ny as usize)))
                    };
                assert_eq!((code >> (2 * i)) & 3, expect as u16);
            }
        }
    }
}

#[test]
fn line_height_counts_from_the_edge() {
    let b = Board::new(9);
    assert_eq!(b.line_height(pt("A1", 9)), 0);
    assert_eq!(b.line_height(pt("B5", 9)), 1);
    assert_eq!(b.line_height(pt("C3", 9)), 2);
    assert_eq!(b.line_height(pt("E5", 9)), 4);
    assert_eq!(b.line_height(pt("J7", 9)), 0);
    assert_eq!(b.line_height(pt("G7", 9)), 2);
}

/// `is_eye`, `is_suicide` and `is_playable` from their definitions, by looking at every
/// neighbour and diagonal and by playing the stone on a copy.
#[test]
fn playout_predicates_match_their_definitions() {
    let mut checked = 0;
    for b in random_positions(23, 600) {
        for p in b.points() {
            for c in Color::BOTH {
                let own = Cell::of(c);
                let around = Board::neighbours(p).map(|n| b.cell(n));
                let shape = around.iter().all(|&n| n == own || n == Cell::Border);
                let diag = Board::diagonals(p).map(|d| b.cell(d));
                let bad = diag
                    .iter()
                    .filter(|&&d| d == Cell::of(c.opponent()))
                    .count();
                let edge = diag.contains(&Cell::Border);
                let eye = shape && if edge { bad == 0 } else { bad < 2 };
                assert_eq!(b.is_eye(c, p), eye, "{c:?} eye at {p}\n{b:?}");
                if b.cell(p) != Cell::Empty {
                    assert!(!b.is_playable(c, p));
                    continue;
                }
                // Suicide: no empty neighbour, every own neighbour chain in atari, no
                // opponent neighbour chain in atari (exact liberties).
                let suicide = Board::neighbours(p).iter().all(|&n| match b.cell(n) {
                    Cell::Empty => false,
                    Cell::Border => true,
                    cell => (b.liberties(n).len() == 1) == (cell == own),
                });
                assert_eq!(b.is_suicide(c, p), suicide, "{c:?} suicide at {p}\n{b:?}");
                let legal = p as u16 != b.ko && !suicide;
                assert_eq!(b.is_playable(c, p), legal && !eye, "{c:?} at {p}\n{b:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 20000, "only {checked} points checked");
}

#[test]
fn validate_finds_each_corrupted_structure() {
    let good = setup(9, &["C3", "D3", "E3", "G7"], &["C4", "D4"]);
    let (c3, d3, g7) = (pt("C3", 9), pt("D3", 9), pt("G7", 9));
    let head = good.head[c3] as usize;
    type Corrupt = fn(&mut Board, usize, Point, Point);
    let corruptions: [(&str, Corrupt); 6] = [
        ("mixed heads", |b, _, d3, g7| b.head[d3] = b.head[g7]),
        ("chain size", |b, h, _, _| b.stones[h] += 1),
        ("liberty stats", |b, h, _, _| b.lsum[h] += 1),
        ("hash", |b, _, _, _| b.hash ^= 1),
        ("neighbour counts", |b, _, d3, _| b.nbrs[d3 + 1] += 1),
        ("liberty stats", |b, _, _, g7| {
            b.plibs[b.head[g7] as usize] -= 1
        }),
    ];
    for (what, corrupt) in corruptions {
        let mut b = good.clone();
        corrupt(&mut b, head, d3, g7);
        let err = b.validate().unwrap_err();
        assert!(err.contains(what), "{what}: {err}");
    }
}
