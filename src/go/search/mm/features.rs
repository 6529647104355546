//! The features of a candidate move (Coulom 2007, "Computing Elo Ratings of Move Patterns in
//! the Game of Go", adapted): each feature belongs to a group and a move has at most one
//! feature per group, so that the strength of a move is the product of its features' gammas.
//!
//! | group | values |
//! |---|---|
//! | `pass` | 1 pass, 2 pass after the opponent passed |
//! | `capture` | 1 captures a chain next to an own chain in atari, 2 captures the chain of the last move, 3 other capture |
//! | `escape` | extends an own chain out of atari: 1 to 3+ liberties, 2 to two liberties that no ladder takes, 3 into a ladder that captures it |
//! | `self_atari` | the new chain has one liberty: 1 a single stone, 2 two or more stones |
//! | `atari` | puts an opponent chain in atari: 1 and captures it in a ladder, 2 other atari while a ko is on the board, 3 other atari |
//! | `dist_prev` | Coulom's distance `|dx|+|dy|+max(|dx|,|dy|)` to the last move: 2..=16, 17 for 17 and more |
//! | `dist_prev2` | the same to the move before it (the mover's own previous move) |
//! | `edge` | no stone within Manhattan distance 3: line of the move, 1..=4, 5 for the 5th line and up |
//! | `pat3` | the canonical 3×3 key with atari flags (`shape::pattern3`) |
//! | `shape` | the largest known canonical diamond (radius 3, else 2; `shape::diamonds`) |
//!
//! Everything is deterministic: ladders are read with a fixed budget (`LADDER_BUDGET`).

use super::super::tactics;
use super::shape;
use crate::go::Color;
use crate::go::board::{Board, Cell, Point};

/// Board copies one ladder reading of a feature may make.
pub const LADDER_BUDGET: u32 = 100;
/// Largest distance bucket of `dist_prev` and `dist_prev2`.
pub const MAX_DISTANCE: u64 = 17;
/// Radius (Manhattan) of the empty area the `edge` feature asks for.
const EDGE_RADIUS: usize = 3;

/// A group of mutually exclusive features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    Pass,
    Capture,
    Escape,
    SelfAtari,
    Atari,
    DistPrev,
    DistPrev2,
    Edge,
    Pat3,
    Shape,
}

impl Group {
    /// Every group, in table order.
    pub const ALL: [Group; 10] = [
        Group::Pass,
        Group::Capture,
        Group::Escape,
        Group::SelfAtari,
        Group::Atari,
        Group::DistPrev,
        Group::DistPrev2,
        Group::Edge,
        Group::Pat3,
        Group::Shape,
    ];

    /// The group's name in the table file.
    pub fn name(self) -> &'static str {
        match self {
            Group::Pass => "pass",
            Group::Capture => "capture",
            Group::Escape => "escape",
            Group::SelfAtari => "self_atari",
            Group::Atari => "atari",
            Group::DistPrev => "dist_prev",
            Group::DistPrev2 => "dist_prev2",
            Group::Edge => "edge",
            Group::Pat3 => "pat3",
            Group::Shape => "shape",
        }
    }

    /// The group named `name` in the table file.
    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }

    /// True for the groups whose values are pattern keys (written in hexadecimal).
    pub fn is_pattern(self) -> bool {
        matches!(self, Group::Pat3 | Group::Shape)
    }
}

/// One feature: a group and a value within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Feature {
    pub group: Group,
    pub value: u64,
}

impl Feature {
    pub const fn new(group: Group, value: u64) -> Feature {
        Feature { group, value }
    }
}

/// The feature of a pass; `after_pass` when the opponent's last move was a pass.
pub fn pass_feature(after_pass: bool) -> Feature {
    Feature::new(Group::Pass, if after_pass { 2 } else { 1 })
}

/// Coulom's distance between two points: `|dx| + |dy| + max(|dx|, |dy|)`, capped at
/// `MAX_DISTANCE`.
pub fn coulom_distance(a: Point, b: Point) -> u64 {
    let (ax, ay) = Board::coords(a);
    let (bx, by) = Board::coords(b);
    let (dx, dy) = (ax.abs_diff(bx), ay.abs_diff(by));
    ((dx + dy + dx.max(dy)) as u64).min(MAX_DISTANCE)
}

/// Appends the features of `color` playing the legal point `p` to `out`. `last` holds the
/// points of the last move and of the move before it (None for a pass or no move).
/// `known_shape` says which diamond keys have a gamma; the largest known one is the `shape`
/// feature.
pub fn play_features(
    board: &Board,
    color: Color,
    p: Point,
    last: [Option<Point>; 2],
    known_shape: impl Fn(u64) -> bool,
    out: &mut Vec<Feature>,
) {
    let last = last.map(|l| l.filter(|&q| board.cell(q) != Cell::Border));
    tactical_features(board, color, p, last[0], out);
    for (l, group) in last.into_iter().zip([Group::DistPrev, Group::DistPrev2]) {
        if let Some(l) = l {
            out.push(Feature::new(group, coulom_distance(l, p)));
        }
    }
    if no_stones_within(board, p, EDGE_RADIUS) {
        let line = (board.line_height(p) + 1).min(5) as u64;
        out.push(Feature::new(Group::Edge, line));
    }
    out.push(Feature::new(
        Group::Pat3,
        shape::pattern3(board, color, p) as u64,
    ));
    let [r2, r3] = shape::diamonds(board, color, p);
    if known_shape(r3) {
        out.push(Feature::new(Group::Shape, r3));
    } else if known_shape(r2) {
        out.push(Feature::new(Group::Shape, r2));
    }
}

/// The capture, escape, self-atari and atari features of `color` at `p`.
fn tactical_features(
    board: &Board,
    color: Color,
    p: Point,
    last: Option<Point>,
    out: &mut Vec<Feature>,
) {
    let opp = color.opponent();
    let nbrs = Board::neighbours(p);
    let mut own_in_atari = None;
    let mut capture = 0u64;
    let mut two_lib_opponents = [None; 4];
    for (i, &q) in nbrs.iter().enumerate() {
        match board.cell(q).color() {
            Some(c) if c == color && board.in_atari(q) => own_in_atari = Some(q),
            Some(c) if c == opp && board.in_atari(q) => {
                let kind = capture_kind(board, color, q, last);
                capture = if capture == 0 {
                    kind
                } else {
                    capture.min(kind)
                };
            }
            Some(c) if c == opp => {
                let mut libs = [0; 3];
                if board.chain_liberties_upto(q, &mut libs) == 2 {
                    two_lib_opponents[i] = Some(q);
                }
            }
            _ => {}
        }
    }
    if capture > 0 {
        out.push(Feature::new(Group::Capture, capture));
    }
    let libs = board.liberties_after_upto(color, p, 3);
    if let Some(s) = own_in_atari
        && libs >= 2
    {
        let kind = if libs >= 3 {
            1
        } else if tactics::escape_move_works(board, color, s, p, LADDER_BUDGET) {
            2
        } else {
            3
        };
        out.push(Feature::new(Group::Escape, kind));
    }
    if libs == 1 {
        let kind = if board.chain_size_after(color, p) >= 2 {
            2
        } else {
            1
        };
        out.push(Feature::new(Group::SelfAtari, kind));
    }
    if libs >= 2 && two_lib_opponents.iter().any(Option::is_some) {
        let ladder = two_lib_opponents
            .iter()
            .flatten()
            .any(|&q| tactics::ladder_captures(board, color, p, q, LADDER_BUDGET));
        let kind = if ladder {
            1
        } else if board.ko_point().is_some() {
            2
        } else {
            3
        };
        out.push(Feature::new(Group::Atari, kind));
    }
}

/// The kind of capture of the opponent chain through `q` (in atari): 1 it touches an own
/// chain in atari, 2 it holds the last move, 3 other.
fn capture_kind(board: &Board, color: Color, q: Point, last: Option<Point>) -> u64 {
    let head = board.chain_head(q);
    let mut s = q;
    let mut holds_last = false;
    loop {
        if Board::neighbours(s)
            .iter()
            .any(|&t| board.cell(t).color() == Some(color) && board.in_atari(t))
        {
            return 1;
        }
        holds_last |= Some(s) == last;
        s = board.next_stone(s);
        if s == q {
            break;
        }
    }
    debug_assert_eq!(board.chain_head(q), head);
    if holds_last { 2 } else { 3 }
}

/// True if no stone lies within Manhattan distance `r` of `p`.
pub(crate) fn no_stones_within(board: &Board, p: Point, r: usize) -> bool {
    let (x, y) = Board::coords(p);
    let n = board.size() as isize;
    let r = r as isize;
    for dy in -r..=r {
        let yy = y as isize + dy;
        if yy < 0 || yy >= n {
            continue;
        }
        let span = r - dy.abs();
        for dx in -span..=span {
            let xx = x as isize + dx;
            if xx < 0 || xx >= n {
                continue;
            }
            let q = Board::point_of(crate::go::Vertex::new(xx as usize, yy as usize));
            if board.cell(q).color().is_some() {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::tests::{pt, setup};

    /// The features of `color` at `s` (no known shapes), minus the shape keys.
    fn feats(b: &Board, color: Color, s: &str, last: [Option<&str>; 2]) -> Vec<Feature> {
        let n = b.size();
        let mut out = Vec::new();
        play_features(
            b,
            color,
            pt(s, n),
            last.map(|l| l.map(|v| pt(v, n))),
            |_| false,
            &mut out,
        );
        out.retain(|f| f.group != Group::Pat3);
        out
    }

    fn value(fs: &[Feature], g: Group) -> Option<u64> {
        fs.iter().find(|f| f.group == g).map(|f| f.value)
    }

    #[test]
    fn captures_have_kinds() {
        // White E5 alone in atari at E6 (black D5 F5 E4).
        let b = setup(9, &["D5", "F5", "E4"], &["E5"]);
        let f = feats(&b, Color::Black, "E6", [Some("E5"), None]);
        assert_eq!(
            value(&f, Group::Capture),
            Some(2),
            "recapture of the last move"
        );
        let f = feats(&b, Color::Black, "E6", [Some("A1"), None]);
        assert_eq!(value(&f, Group::Capture), Some(3), "other capture");
        assert_eq!(
            value(&feats(&b, Color::Black, "E7", [None, None]), Group::Capture),
            None
        );
        // Black A1 in atari (white B1), white B1 in atari (black A1 B2 C2): C1 captures B1
        // and saves A1.
        let mut b2 = setup(9, &["C2", "B2"], &["B1"]);
        b2.play_move(Color::Black, crate::go::Move::parse("A1", 9).unwrap())
            .unwrap();
        // Now black A1 has liberty A2 only (B1 white); white B1 has liberty C1 only.
        assert!(b2.in_atari(pt("A1", 9)) && b2.in_atari(pt("B1", 9)));
        let f = feats(&b2, Color::Black, "C1", [Some("B1"), None]);
        assert_eq!(value(&f, Group::Capture), Some(1), "saves A1");
    }

    #[test]
    fn escapes_and_self_ataris() {
        // Black E5 in atari, E4 extends to three liberties.
        let b = setup(9, &["E5"], &["D5", "F5", "E6"]);
        let f = feats(&b, Color::Black, "E4", [None, None]);
        assert_eq!(value(&f, Group::Escape), Some(1));
        assert_eq!(
            value(&feats(&b, Color::White, "E4", [None, None]), Group::Escape),
            None
        );
        assert_eq!(
            value(&feats(&b, Color::Black, "A1", [None, None]), Group::Escape),
            None
        );
        // A ladder: white D4 in atari, E4 escapes to two liberties but the ladder works.
        let b = setup(9, &["C4", "D5", "E3", "D3"], &["D4"]);
        assert_eq!(
            value(&feats(&b, Color::White, "E4", [None, None]), Group::Escape),
            Some(3)
        );
        let b = setup(9, &["C4", "D5", "E3", "D3"], &["D4", "G7"]);
        assert_eq!(
            value(&feats(&b, Color::White, "E4", [None, None]), Group::Escape),
            Some(2)
        );
        // Self-atari of two stones and of one.
        let b = setup(5, &["A1"], &["B1", "B2"]);
        assert_eq!(
            value(
                &feats(&b, Color::Black, "A2", [None, None]),
                Group::SelfAtari
            ),
            Some(2)
        );
        let b = setup(5, &[], &["A2", "B2", "C1"]);
        assert_eq!(
            value(
                &feats(&b, Color::Black, "B1", [None, None]),
                Group::SelfAtari
            ),
            Some(1)
        );
        assert_eq!(
            value(
                &feats(&b, Color::Black, "D4", [None, None]),
                Group::SelfAtari
            ),
            None
        );
    }

    #[test]
    fn ataris_have_kinds() {
        // White D4 with two liberties D3, E4 (black C4 D5 E3): D3 ataris and the ladder works.
        let b = setup(9, &["C4", "D5", "E3"], &["D4"]);
        assert_eq!(
            value(&feats(&b, Color::Black, "D3", [None, None]), Group::Atari),
            Some(1)
        );
        // With a breaker at G7 the atari is a plain one.
        let b = setup(9, &["C4", "D5", "E3"], &["D4", "G7"]);
        assert_eq!(
            value(&feats(&b, Color::Black, "D3", [None, None]), Group::Atari),
            Some(3)
        );
        assert_eq!(
            value(&feats(&b, Color::Black, "F6", [None, None]), Group::Atari),
            None
        );
    }

    #[test]
    fn distances_and_edge() {
        let b = setup(19, &["D4"], &["Q16"]);
        let f = feats(&b, Color::Black, "R16", [Some("Q16"), Some("D4")]);
        assert_eq!(value(&f, Group::DistPrev), Some(2));
        assert_eq!(value(&f, Group::DistPrev2), Some(MAX_DISTANCE));
        let f = feats(&b, Color::Black, "R17", [Some("Q16"), None]);
        assert_eq!(value(&f, Group::DistPrev), Some(3));
        assert_eq!(value(&f, Group::DistPrev2), None);
        let f = feats(&b, Color::Black, "O15", [Some("Q16"), None]);
        assert_eq!(value(&f, Group::DistPrev), Some(5)); // dx 2, dy 1
        // Edge: only far from stones.
        assert_eq!(
            value(&feats(&b, Color::Black, "K3", [None, None]), Group::Edge),
            Some(3)
        );
        assert_eq!(
            value(&feats(&b, Color::Black, "K1", [None, None]), Group::Edge),
            Some(1)
        );
        assert_eq!(
            value(&feats(&b, Color::Black, "K10", [None, None]), Group::Edge),
            Some(5)
        );
        assert_eq!(
            value(&feats(&b, Color::Black, "D6", [None, None]), Group::Edge),
            None
        );
        // A quiet move far from everything has only distance and edge features.
        let f = feats(&b, Color::White, "K10", [Some("D4"), Some("Q16")]);
        assert_eq!(
            f.iter().map(|f| f.group).collect::<Vec<_>>(),
            [Group::DistPrev, Group::DistPrev2, Group::Edge]
        );
    }

    #[test]
    fn the_largest_known_shape_is_the_feature() {
        let b = setup(9, &["C3"], &["D4"]);
        let p = pt("D3", 9);
        let [r2, r3] = shape::diamonds(&b, Color::Black, p);
        let shape_of = |known: &dyn Fn(u64) -> bool| {
            let mut out = Vec::new();
            play_features(&b, Color::Black, p, [None, None], known, &mut out);
            value(&out, Group::Shape)
        };
        assert_eq!(shape_of(&|_| true), Some(r3));
        assert_eq!(shape_of(&|k| k == r2), Some(r2));
        assert_eq!(shape_of(&|_| false), None);
        assert_eq!(pass_feature(true).value, 2);
    }
}
