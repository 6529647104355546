//! Prior knowledge for new tree nodes (michi-style): a move starts with virtual visits and
//! wins from cheap Go heuristics, so the search looks at sensible moves first and needs fewer
//! playouts to reject silly ones. Each term adds `n` visits and either `n` wins (a good sign)
//! or 0 wins (a bad sign) on top of an even prior:
//!
//! | term | when | visits / wins (default) | source |
//! |---|---|---|---|
//! | even | always | 10 / 5 | michi `PRIOR_EVEN` |
//! | capture | captures 1 stone / 2+ stones | 15 / 15, 30 / 30 | michi `PRIOR_CAPTURE_ONE/MANY` |
//! | atari escape | extends an own chain out of atari to 3+ liberties, or to 2 that a ladder cannot take (1 stone / 2+) | 15 / 15, 30 / 30 | michi (fix_atari suggestions, ladder read) |
//! | ladder capture | ataris a two-liberty chain near the last move that the ladder then captures | as capture | michi (fix_atari `twolib_test`) |
//! | self-atari | leaves a chain of 2+ stones with 1 liberty | 10 / 0 | michi `PRIOR_SELFATARI` |
//! | 3×3 pattern | MoGo pattern near the last move | 10 / 10 | michi `PRIOR_PAT3` |
//! | distance | 1, 2, 3 from the last move | 24, 22, 8 (wins = visits) | michi `PRIOR_CFG` |
//! | empty area | no stone within 3: 1st/2nd line bad, 3rd line good | 10 / 0, 10 / 10 | michi `PRIOR_EMPTYAREA` |
//! | low line | 1st/2nd line, no stone on its 3×3, no capture, escape or ladder capture; weight scaled by the board size (0 up to 9×9, full on 19×19) | 40 / 0 on 19×19 | Pachi's large-board edge prior |
//! | nakade | the vital point of a 3–5 point eye space enclosed by one colour (`policy::nakade_vital_point`) | 0 (off; `search.prior_nakade`) | MoGo nakade |
//! | learned | the move's share `s` of the legal moves' MM gammas (`mm`, computed once per expansion by `mm_visits`) | `round(w·sqrt(s))`, w = 80 (`search.prior_mm`) | Coulom 2007, Pachi's pattern prior |
//!
//! The distance is the Manhattan distance, except that every point touching the last-moved
//! chain counts as distance 1 (the cheap part of michi's common-fate-graph distance: a chain
//! is one node). Everything is pure; only the ladder reading (`tactics`, bounded by
//! `ladder_budget` board copies) copies the board, and only for escapes to two liberties and
//! ataris near the last move.

use super::mm::features::no_stones_within;
use super::mm::table::Table;
use super::patterns::is_pattern;
use super::policy::is_bad_self_atari;
use super::tactics;
use crate::go::Color;
use crate::go::board::{Board, Cell, Point};

/// Virtual visits and wins given to a new node (wins from the mover's point of view).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Prior {
    pub visits: u32,
    pub wins: u32,
}

impl Prior {
    /// Adds `n` visits and `n` wins (a good sign).
    #[inline]
    fn good(&mut self, n: u32) {
        self.visits += n;
        self.wins += n;
    }

    /// Adds `n` visits and no wins (a bad sign).
    #[inline]
    fn bad(&mut self, n: u32) {
        self.visits += n;
    }

    /// The prior win rate, 0.5 when there are no visits.
    pub fn rate(self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins as f64 / self.visits as f64
        }
    }
}

/// The weights of the prior terms (see the module table). Zero switches a term off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriorParams {
    /// Visits of the even prior, half of them wins. Default 10 (michi `PRIOR_EVEN`).
    pub even: u32,
    /// Capturing a single stone. Default 15 (michi `PRIOR_CAPTURE_ONE`).
    pub capture_one: u32,
    /// Capturing two or more stones. Default 30 (michi `PRIOR_CAPTURE_MANY`).
    pub capture_many: u32,
    /// Saving a single-stone chain from atari by extending. Default 15 (michi gives escapes
    /// the capture weights).
    pub escape_one: u32,
    /// Saving a chain of two or more stones from atari. Default 30.
    pub escape_many: u32,
    /// Board copies a ladder reading may make; 0 turns ladder reading off (escapes to two
    /// liberties then always get the bonus and ladder captures none). Default
    /// `tactics::DEFAULT_BUDGET` (200).
    pub ladder_budget: u32,
    /// Self-atari (bad). Default 10 (michi `PRIOR_SELFATARI`).
    pub self_atari: u32,
    /// Smallest resulting chain whose self-atari is penalised. Default 2: single-stone
    /// throw-ins and nakade are not penalised (michi `singlept_ok`).
    pub self_atari_min_stones: u32,
    /// A 3×3 MoGo pattern match. Default 10 (michi `PRIOR_PAT3`).
    pub pattern: u32,
    /// Count pattern matches anywhere rather than only on the last move's 3×3 (michi looks
    /// only near the last moves). Default false. Without a last move they count anywhere.
    pub pattern_anywhere: bool,
    /// Bonus for distance 1, 2, 3 from the last move. Default [24, 22, 8] (michi
    /// `PRIOR_CFG`).
    pub distance: [u32; 3],
    /// Empty-area term: 1st/2nd line far from stones is bad, 3rd line good. Default 10
    /// (michi `PRIOR_EMPTYAREA`).
    pub empty_area: u32,
    /// "Far from stones" means no stone within this Manhattan distance. Default 3 (michi).
    pub empty_area_radius: usize,
    /// The vital point of a small eye space (good for both colours: the owner lives, the
    /// other side kills). Default 0 (off); config `search.prior_nakade`.
    pub nakade: u32,
    /// Low-line term on large boards: a 1st/2nd-line move that touches no stone (none on its
    /// 3×3) and captures, saves and ladders nothing gets `low_line · (size − 9) / 10` visits
    /// without wins (0 up to 9×9, the full weight on 19×19). Default 40; config
    /// `search.prior_low_line`.
    pub low_line: u32,
    /// Weight of the learned move-prediction term (`mm::Table::builtin`, trained by
    /// `tablero go-train`): a move whose gamma is the share `s` of the legal moves' gammas
    /// gets `round(mm · sqrt(s))` visits, all wins (Pachi's pattern prior). Default 80 (the
    /// best of 0/40/80/120 against Pachi in docs/results/go.md); 0 = off; config
    /// `search.prior_mm`.
    pub mm: u32,
}

impl PriorParams {
    pub const DEFAULT: PriorParams = PriorParams {
        even: 10,
        capture_one: 15,
        capture_many: 30,
        escape_one: 15,
        escape_many: 30,
        ladder_budget: tactics::DEFAULT_BUDGET,
        self_atari: 10,
        self_atari_min_stones: 2,
        pattern: 10,
        pattern_anywhere: false,
        distance: [24, 22, 8],
        empty_area: 10,
        empty_area_radius: 3,
        nakade: 0,
        low_line: 40,
        mm: 80,
    };

    /// Every term off (useful to test or tune one term at a time).
    pub const NONE: PriorParams = PriorParams {
        even: 0,
        capture_one: 0,
        capture_many: 0,
        escape_one: 0,
        escape_many: 0,
        ladder_budget: 0,
        self_atari: 0,
        self_atari_min_stones: 2,
        pattern: 0,
        pattern_anywhere: false,
        distance: [0, 0, 0],
        empty_area: 0,
        empty_area_radius: 3,
        nakade: 0,
        low_line: 0,
        mm: 0,
    };
}

impl Default for PriorParams {
    fn default() -> Self {
        PriorParams::DEFAULT
    }
}

/// The prior of `color` playing the legal point `p` after the opponent's `last` move.
pub fn prior(
    board: &Board,
    color: Color,
    p: Point,
    last: Option<Point>,
    params: &PriorParams,
) -> Prior {
    let last = last.filter(|&q| board.cell(q) != Cell::Border);
    let mut out = Prior {
        visits: params.even,
        wins: params.even / 2,
    };

    // Captures, bigger ones worth more.
    let captured = board.captures_after(color, p);
    match captured {
        0 => {}
        1 => out.good(params.capture_one),
        _ => out.good(params.capture_many),
    }
    let mut tactical = captured > 0;

    // Atari escapes: `p` is the last liberty of an own chain and the extension has 3+
    // liberties, or 2 that a ladder cannot take.
    let (saved, saved_at) = saved_stones(board, color, p);
    if saved > 0 && (params.escape_one > 0 || params.escape_many > 0) {
        let works = match board.liberties_after_upto(color, p, 3) {
            0 | 1 => false,
            2 => {
                params.ladder_budget == 0
                    || tactics::escape_move_works(board, color, saved_at, p, params.ladder_budget)
            }
            _ => true,
        };
        tactical |= works;
        if works {
            out.good(if saved == 1 {
                params.escape_one
            } else {
                params.escape_many
            });
        }
    }

    // Ladder captures: an atari on a two-liberty opponent chain near the last move that the
    // ladder then takes.
    if let Some(l) = last
        && params.ladder_budget > 0
    {
        let stones = ladder_capture_size(board, color, p, l, params.ladder_budget);
        tactical |= stones > 0;
        match stones {
            0 => {}
            1 => out.good(params.capture_one),
            _ => out.good(params.capture_many),
        }
    }

    if params.self_atari > 0 && is_bad_self_atari(board, color, p, params.self_atari_min_stones) {
        out.bad(params.self_atari);
    }

    if params.pattern > 0 {
        let near = match last {
            Some(l) => params.pattern_anywhere || chebyshev(l, p) == 1,
            None => true,
        };
        if near && is_pattern(board, p) {
            out.good(params.pattern);
        }
    }

    if let Some(l) = last {
        let d = distance(board, l, p);
        if (1..=3).contains(&d) {
            out.good(params.distance[d - 1]);
        }
    }

    if params.nakade > 0 && super::policy::nakade_vital_point(board, p) == Some(p) {
        out.good(params.nakade);
    }

    if params.empty_area > 0 {
        let h = board.line_height(p);
        if h <= 2 && no_stones_within(board, p, params.empty_area_radius) {
            if h <= 1 {
                out.bad(params.empty_area);
            } else {
                out.good(params.empty_area);
            }
        }
    }

    let low_line = low_line_weight(params.low_line, board.size());
    if low_line > 0 && !tactical && is_quiet_low_move(board, p) {
        out.bad(low_line);
    }
    out
}

/// The low-line weight on a board of `size`: `weight · (size − 9) / 10`, so 0 up to 9×9 and
/// `weight` on 19×19.
pub fn low_line_weight(weight: u32, size: usize) -> u32 {
    (weight as usize * size.saturating_sub(9) / 10) as u32
}

/// True when `p` is on the 1st or 2nd line and no stone stands on its 3×3 (not a contact
/// move): on an open board such a move is slow unless it captures or saves something.
pub fn is_quiet_low_move(board: &Board, p: Point) -> bool {
    board.line_height(p) <= 1
        && crate::go::board::PATTERN_OFFSETS
            .iter()
            .all(|&o| board.cell((p as isize + o) as Point).color().is_none())
}

/// The learned term of every point of `points` (legal moves of `color`) into `out`:
/// `round(weight · sqrt(s))` visits (all wins), `s` the point's share of the points' gammas
/// in `table`. `last` holds the last two moves' points.
pub fn mm_visits(
    table: &Table,
    board: &Board,
    color: Color,
    points: &[Point],
    last: [Option<Point>; 2],
    weight: u32,
    out: &mut Vec<u32>,
) {
    out.clear();
    if weight == 0 {
        out.resize(points.len(), 0);
        return;
    }
    let mut scratch = Vec::new();
    let gammas: Vec<f64> = points
        .iter()
        .map(|&p| table.move_gamma(board, color, p, last, &mut scratch))
        .collect();
    let total: f64 = gammas.iter().sum();
    out.extend(gammas.iter().map(|g| {
        let share = if total > 0.0 { g / total } else { 0.0 };
        (weight as f64 * share.sqrt()).round() as u32
    }));
}

/// Stones of the own chains in atari whose last liberty is `p` (0 if none), and a stone of
/// the largest of them.
fn saved_stones(board: &Board, color: Color, p: Point) -> (u32, Point) {
    let mut heads = [usize::MAX; 4];
    let mut total = 0;
    let (mut biggest, mut at) = (0, p);
    for (i, q) in Board::neighbours(p).into_iter().enumerate() {
        if board.cell(q).color() == Some(color) && board.in_atari(q) {
            let h = board.chain_head(q);
            if !heads[..i].contains(&h) {
                heads[i] = h;
                let n = board.chain_size(q) as u32;
                total += n;
                if n > biggest {
                    biggest = n;
                    at = q;
                }
            }
        }
    }
    (total, at)
}

/// Stones of the largest two-liberty opponent chain next to `p`, with a stone on the 3×3 of
/// the last move `l`, that `color` at `p` ataris and captures in a ladder (0 if none).
fn ladder_capture_size(board: &Board, color: Color, p: Point, l: Point, budget: u32) -> u32 {
    let opp = color.opponent();
    let mut best = 0;
    let mut heads = [usize::MAX; 4];
    for (i, q) in Board::neighbours(p).into_iter().enumerate() {
        if board.cell(q).color() != Some(opp) || board.in_atari(q) {
            continue;
        }
        let h = board.chain_head(q);
        if heads[..i].contains(&h) {
            continue;
        }
        heads[i] = h;
        let mut libs = [0; 3];
        if board.chain_liberties_upto(q, &mut libs) != 2 {
            continue;
        }
        let near = std::iter::once(l)
            .chain(
                crate::go::board::PATTERN_OFFSETS
                    .iter()
                    .map(|&o| (l as isize + o) as Point),
            )
            .any(|t| board.cell(t).color() == Some(opp) && board.chain_head(t) == h);
        if !near {
            continue;
        }
        let n = board.chain_size(q) as u32;
        if n > best && tactics::ladder_captures(board, color, p, q, budget) {
            best = n;
        }
    }
    best
}

/// King-move distance between two points.
#[inline]
fn chebyshev(a: Point, b: Point) -> usize {
    let (ax, ay) = Board::coords(a);
    let (bx, by) = Board::coords(b);
    ax.abs_diff(bx).max(ay.abs_diff(by))
}

/// Distance from the last move `l` to `p`: 1 if `p` touches the chain through `l`, otherwise
/// the Manhattan distance.
pub fn distance(board: &Board, l: Point, p: Point) -> usize {
    if board.cell(l).color().is_some() {
        let h = board.chain_head(l);
        for q in Board::neighbours(p) {
            if board.cell(q).color().is_some() && board.chain_head(q) == h {
                return 1;
            }
        }
    }
    let (ax, ay) = Board::coords(l);
    let (bx, by) = Board::coords(p);
    ax.abs_diff(bx) + ay.abs_diff(by)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::tests::{pt, setup};

    fn only(f: impl FnOnce(&mut PriorParams)) -> PriorParams {
        let mut p = PriorParams::NONE;
        f(&mut p);
        p
    }

    #[test]
    fn learned_term_follows_the_share_of_the_gammas() {
        use crate::go::search::mm::features::{Feature, Group};
        // Only "other capture" has a gamma (9): E6 captures white E5, every other move has
        // strength 1, so E6's share is 9 / (9 + n - 1).
        let table = Table::new(vec![], [(Feature::new(Group::Capture, 3), 9.0)]);
        let b = setup(9, &["D5", "F5", "E4"], &["E5"]);
        let points: Vec<Point> = b
            .points()
            .filter(|&p| b.is_legal(Color::Black, p))
            .collect();
        let mut out = Vec::new();
        mm_visits(
            &table,
            &b,
            Color::Black,
            &points,
            [None, None],
            40,
            &mut out,
        );
        assert_eq!(out.len(), points.len());
        let n = points.len() as f64;
        let at = |s| out[points.iter().position(|&p| p == pt(s, 9)).unwrap()];
        assert_eq!(at("E6"), (40.0 * (9.0 / (n + 8.0)).sqrt()).round() as u32);
        assert_eq!(at("A1"), (40.0 * (1.0 / (n + 8.0)).sqrt()).round() as u32);
        assert!(at("E6") > at("A1"));
        mm_visits(&table, &b, Color::Black, &points, [None, None], 0, &mut out);
        assert!(out.len() == points.len() && out.iter().all(|&v| v == 0));
    }

    #[test]
    fn nakade_vital_point_gets_the_bonus() {
        // A straight three A1-C1 inside white A2-D2, D1: B1 is the vital point for both.
        let b = setup(9, &[], &["A2", "B2", "C2", "D2", "D1"]);
        let params = only(|p| p.nakade = 20);
        for c in Color::BOTH {
            assert_eq!(
                prior(&b, c, pt("B1", 9), None, &params),
                Prior {
                    visits: 20,
                    wins: 20
                }
            );
            assert_eq!(prior(&b, c, pt("A1", 9), None, &params), Prior::default());
        }
        assert_eq!(
            prior(&b, Color::Black, pt("B1", 9), None, &PriorParams::NONE),
            Prior::default()
        );
    }

    #[test]
    fn even_prior_is_half_wins() {
        let b = Board::new(9);
        let p = prior(&b, Color::Black, pt("E5", 9), None, &only(|p| p.even = 10));
        assert_eq!(
            p,
            Prior {
                visits: 10,
                wins: 5
            }
        );
        assert_eq!(p.rate(), 0.5);
    }

    #[test]
    fn captures_get_a_bonus_growing_with_size() {
        let params = only(|p| {
            p.capture_one = 15;
            p.capture_many = 30;
        });
        // White E5 alone in atari at E6.
        let b = setup(9, &["D5", "F5", "E4"], &["E5"]);
        let one = prior(&b, Color::Black, pt("E6", 9), None, &params);
        assert_eq!(
            one,
            Prior {
                visits: 15,
                wins: 15
            }
        );
        // Two stones E5-E6 in atari at E7.
        let b = setup(9, &["D5", "F5", "E4", "D6", "F6"], &["E5", "E6"]);
        let many = prior(&b, Color::Black, pt("E7", 9), None, &params);
        assert_eq!(
            many,
            Prior {
                visits: 30,
                wins: 30
            }
        );
        // A non-capturing move gets nothing.
        let none = prior(&b, Color::Black, pt("A1", 9), None, &params);
        assert_eq!(none, Prior::default());
    }

    #[test]
    fn atari_escapes_get_a_bonus_only_when_they_work() {
        let params = only(|p| {
            p.escape_one = 15;
            p.escape_many = 30;
        });
        // Black E5 in atari, E4 extends to three liberties.
        let b = setup(9, &["E5"], &["D5", "F5", "E6"]);
        assert_eq!(
            prior(&b, Color::White, pt("E4", 9), None, &params),
            Prior::default(),
            "not white's chain"
        );
        assert_eq!(
            prior(&b, Color::Black, pt("E4", 9), None, &params),
            Prior {
                visits: 15,
                wins: 15
            }
        );
        // Two black stones in atari.
        let b = setup(9, &["E5", "E6"], &["D5", "F5", "D6", "F6", "E7"]);
        assert_eq!(
            prior(&b, Color::Black, pt("E4", 9), None, &params),
            Prior {
                visits: 30,
                wins: 30
            }
        );
        // Corner: extending A1 to A2 leaves one liberty: no escape bonus.
        let b = setup(5, &["A1"], &["B1", "B2"]);
        assert_eq!(
            prior(&b, Color::Black, pt("A2", 5), None, &params),
            Prior::default()
        );
    }

    #[test]
    fn self_atari_is_penalised() {
        let params = only(|p| p.self_atari = 10);
        // Black A2 next to black A1, white B1 B2: A1-A2 would have only A3.
        let b = setup(5, &["A1"], &["B1", "B2"]);
        assert_eq!(
            prior(&b, Color::Black, pt("A2", 5), None, &params),
            Prior {
                visits: 10,
                wins: 0
            }
        );
        // A single-stone throw-in is not penalised by default...
        let b = setup(5, &[], &["A2", "B2", "C1"]);
        assert!(b.is_self_atari(Color::Black, pt("B1", 5)));
        assert_eq!(
            prior(&b, Color::Black, pt("B1", 5), None, &params),
            Prior::default()
        );
        // ...but is with self_atari_min_stones = 1.
        let strict = PriorParams {
            self_atari_min_stones: 1,
            ..params
        };
        assert_eq!(
            prior(&b, Color::Black, pt("B1", 5), None, &strict),
            Prior {
                visits: 10,
                wins: 0
            }
        );
    }

    #[test]
    fn patterns_near_the_last_move_get_a_bonus() {
        let params = only(|p| p.pattern = 10);
        // White E6 on black E5: D6 is a hane.
        let b = setup(9, &["E5"], &["E6"]);
        let hane = pt("D6", 9);
        assert_eq!(
            prior(&b, Color::Black, hane, Some(pt("E6", 9)), &params),
            Prior {
                visits: 10,
                wins: 10
            }
        );
        // The same point with a far last move gets nothing unless pattern_anywhere.
        assert_eq!(
            prior(&b, Color::Black, hane, Some(pt("A1", 9)), &params),
            Prior::default()
        );
        let anywhere = PriorParams {
            pattern_anywhere: true,
            ..params
        };
        assert_eq!(
            prior(&b, Color::Black, hane, Some(pt("A1", 9)), &anywhere).wins,
            10
        );
        // A non-pattern point gets nothing.
        assert_eq!(
            prior(&b, Color::Black, pt("H8", 9), Some(pt("E6", 9)), &params),
            Prior::default()
        );
    }

    #[test]
    fn distance_to_the_last_move() {
        let params = only(|p| p.distance = [24, 22, 8]);
        let b = setup(9, &["E5", "E6"], &["C3"]);
        let last = Some(pt("E6", 9));
        let at = |s| prior(&b, Color::White, pt(s, 9), last, &params);
        assert_eq!(
            at("E7"),
            Prior {
                visits: 24,
                wins: 24
            }
        );
        // E4 touches the chain E5-E6: distance 1 though 2 away from E6.
        assert_eq!(at("E4").visits, 24);
        assert_eq!(at("D7").visits, 22);
        assert_eq!(at("E8").visits, 22);
        assert_eq!(at("E9").visits, 8);
        assert_eq!(at("A1").visits, 0);
        assert_eq!(distance(&b, pt("E6", 9), pt("G3", 9)), 5);
        // No last move, no distance term.
        assert_eq!(
            prior(&b, Color::White, pt("E7", 9), None, &params),
            Prior::default()
        );
    }

    #[test]
    fn empty_area_favours_the_third_line() {
        let params = only(|p| p.empty_area = 10);
        let b = Board::new(9);
        let at = |s| prior(&b, Color::Black, pt(s, 9), None, &params);
        assert_eq!(
            at("A1"),
            Prior {
                visits: 10,
                wins: 0
            }
        );
        assert_eq!(
            at("B5"),
            Prior {
                visits: 10,
                wins: 0
            }
        );
        assert_eq!(
            at("C3"),
            Prior {
                visits: 10,
                wins: 10
            }
        );
        assert_eq!(
            at("G5"),
            Prior {
                visits: 10,
                wins: 10
            }
        );
        assert_eq!(at("E5"), Prior::default(), "4th line and above: no term");
        // A stone within distance 3 switches the term off.
        let b = setup(9, &["D4"], &[]);
        assert_eq!(
            prior(&b, Color::Black, pt("C2", 9), None, &params),
            Prior::default()
        );
        assert_eq!(
            prior(&b, Color::Black, pt("B8", 9), None, &params),
            Prior {
                visits: 10,
                wins: 0
            }
        );
    }

    #[test]
    fn default_prior_prefers_good_moves() {
        // With all terms on: the capture beats a quiet first-line move.
        let b = setup(9, &["D5", "F5", "E4"], &["E5"]);
        let last = Some(pt("E5", 9));
        let d = PriorParams::DEFAULT;
        let capture = prior(&b, Color::Black, pt("E6", 9), last, &d);
        let quiet = prior(&b, Color::Black, pt("A9", 9), last, &d);
        assert!(capture.rate() > quiet.rate());
        assert!(capture.visits > quiet.visits);
        assert!(quiet.rate() < 0.5);
    }
    #[test]
    fn escapes_into_a_working_ladder_get_no_bonus() {
        let params = only(|p| {
            p.escape_one = 15;
            p.escape_many = 30;
            p.ladder_budget = tactics::DEFAULT_BUDGET;
        });
        // White D4 in atari at E4 after black D3 (black C4, D5, E3): the ladder works.
        let b = setup(9, &["C4", "D5", "E3", "D3"], &["D4"]);
        assert_eq!(
            prior(&b, Color::White, pt("E4", 9), None, &params),
            Prior::default()
        );
        // With a ladder breaker at G7 the escape is worth it.
        let b = setup(9, &["C4", "D5", "E3", "D3"], &["D4", "G7"]);
        assert_eq!(
            prior(&b, Color::White, pt("E4", 9), None, &params),
            Prior {
                visits: 15,
                wins: 15
            }
        );
        // Without reading, the escape to two liberties always gets the bonus.
        let b = setup(9, &["C4", "D5", "E3", "D3"], &["D4"]);
        let blind = PriorParams {
            ladder_budget: 0,
            ..params
        };
        assert_eq!(prior(&b, Color::White, pt("E4", 9), None, &blind).wins, 15);
    }

    #[test]
    fn ladder_captures_near_the_last_move_get_the_capture_bonus() {
        let params = only(|p| {
            p.capture_one = 15;
            p.capture_many = 30;
            p.ladder_budget = tactics::DEFAULT_BUDGET;
        });
        let b = setup(9, &["C4", "D5", "E3"], &["D4"]);
        let last = Some(pt("D4", 9));
        assert_eq!(
            prior(&b, Color::Black, pt("D3", 9), last, &params),
            Prior {
                visits: 15,
                wins: 15
            }
        );
        // A last move far from the chain switches the term off.
        assert_eq!(
            prior(&b, Color::Black, pt("D3", 9), Some(pt("J9", 9)), &params),
            Prior::default()
        );
        // With a breaker on the ladder's path: no bonus.
        let b = setup(9, &["C4", "D5", "E3"], &["D4", "G7"]);
        assert_eq!(
            prior(&b, Color::Black, pt("D3", 9), last, &params),
            Prior::default()
        );
    }
}
