//! Counting a finished game under both rule sets of the Go thesis, with dead stones removed.
//!
//! - Area (Chinese): stones on the board + territory + komi, plus, for White, one point per
//!   handicap stone (the Chinese convention; AGA would give N-1). Dead stones are removed before
//!   counting, so their points become the capturer's territory; a dead chain's liberties in
//!   neutral regions count as filled by the capturer, as capturing it in play would fill them.
//! - Territory (Japanese): territory + prisoners + komi, where dead stones count as prisoners of
//!   the other side and their points as its territory. Seki eyes are counted as territory (the
//!   rules' seki exception is not modelled; documented in protocols/gtp.md).
//!
//! With an empty dead list both formulas are exactly the thesis's (§1.2 of the reference).

use super::board::{Board, CELLS, Cell, Point};
use super::game::{Game, Scoring};
use super::{Color, Vertex};
use std::fmt;

/// Final points of both sides (komi and compensation included).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub black: f64,
    pub white: f64,
}

impl Score {
    /// Black's points minus White's.
    pub fn margin(&self) -> f64 {
        self.black - self.white
    }
    pub fn winner(&self) -> Option<Color> {
        Color::winner_by_margin(self.margin())
    }
}

/// GTP `final_score` form: `B+3.5`, `W+2`, `0`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.margin();
        match self.winner() {
            None => f.write_str("0"),
            Some(c) => write!(f, "{}+{}", c.letter(), m.abs()),
        }
    }
}

/// Per-side aggregates that the two formulas combine.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub territory: [u32; 2],
    pub prisoners: [u32; 2],
    pub stones: [u32; 2],
}

/// The thesis's formulas (Table 2.3) applied to aggregates.
pub fn combine(scoring: Scoring, t: &Tally, komi: f64, white_bonus: f64) -> Score {
    let [b, w] = match scoring {
        Scoring::Territory => [0, 1].map(|i| t.territory[i] + t.prisoners[i]),
        Scoring::Area => [0, 1].map(|i| t.territory[i] + t.stones[i]),
    };
    Score {
        black: b as f64,
        white: w as f64 + komi + white_bonus,
    }
}

/// Aggregates of a position with the given stones taken off as dead.
///
/// Dead stones are captured as they would be in play: where a dead chain's liberty lies in a
/// region that touches both colours (so it would count for neither), the capturer is taken to
/// have filled it, which makes it the capturer's stone and the captured points the capturer's
/// territory. A dead stone in atari beside a live chain of its own colour, for instance, gives
/// the capturer both its point and the liberty, as playing the capture out does (and as GNU Go
/// counts). Liberties inside the capturer's own territory stay territory.
pub fn tally(board: &Board, dead: &[Vertex]) -> Tally {
    let dead_pts: Vec<usize> = dead
        .iter()
        .filter(|v| board.get(**v).is_some())
        .map(|&v| Board::point_of(v))
        .collect();
    let mut is_dead = vec![false; CELLS];
    let mut dead_count = [0u32; 2];
    for &p in &dead_pts {
        if let Some(c) = board.cell(p).color() {
            is_dead[p] = true;
            dead_count[c.index()] += 1;
        }
    }
    let mut wall: Vec<Option<Color>> = (0..CELLS)
        .map(|p| board.cell(p).color().filter(|_| !is_dead[p]))
        .collect();
    let mut filled = [0u32; 2];
    for (p, c) in capture_fills(board, &is_dead, &wall) {
        wall[p] = Some(c);
        filled[c.index()] += 1;
    }
    Tally {
        territory: territory(board, &wall),
        // Dead stones are prisoners of the other side.
        prisoners: [
            board.captures(Color::Black) + dead_count[1],
            board.captures(Color::White) + dead_count[0],
        ],
        stones: [
            board.stones_on_board(Color::Black) - dead_count[0] + filled[0],
            board.stones_on_board(Color::White) - dead_count[1] + filled[1],
        ],
    }
}

/// The owner of every point's region (`None` for stones and neutral points): flood fill over
/// the points without a wall, a region belonging to the one colour whose walls it touches.
fn region_owners(board: &Board, wall: &[Option<Color>]) -> Vec<Option<Color>> {
    let mut owner = vec![None; CELLS];
    let mut seen = vec![false; CELLS];
    let mut region = Vec::new();
    for start in board.points() {
        if seen[start] || wall[start].is_some() {
            continue;
        }
        let mut reach = [false; 2];
        region.clear();
        region.push(start);
        seen[start] = true;
        let mut i = 0;
        while let Some(&q) = region.get(i) {
            i += 1;
            for n in Board::neighbours(q) {
                if board.cell(n) == Cell::Border {
                    continue;
                }
                match wall[n] {
                    Some(c) => reach[c.index()] = true,
                    None if !seen[n] => {
                        seen[n] = true;
                        region.push(n);
                    }
                    None => {}
                }
            }
        }
        let color = match reach {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        };
        region.iter().for_each(|&q| owner[q] = color);
    }
    owner
}

/// The liberties of dead chains that lie in neutral regions, each with the capturer's colour;
/// a point that is a liberty of dead stones of both colours is left out.
fn capture_fills(board: &Board, is_dead: &[bool], wall: &[Option<Color>]) -> Vec<(Point, Color)> {
    let owner = region_owners(board, wall);
    let mut fill: Vec<Option<Option<Color>>> = vec![None; CELLS];
    for p in board.points().filter(|&p| is_dead[p]) {
        let Some(capturer) = board.cell(p).color().map(Color::opponent) else {
            continue;
        };
        for n in Board::neighbours(p) {
            if board.cell(n) != Cell::Empty || owner[n].is_some() {
                continue;
            }
            fill[n] = match fill[n] {
                None => Some(Some(capturer)),
                Some(Some(c)) if c == capturer => Some(Some(c)),
                Some(_) => Some(None),
            };
        }
    }
    board
        .points()
        .filter_map(|p| fill[p].flatten().map(|c| (p, c)))
        .collect()
}

/// Territory of both sides: the points without a wall in regions of one colour.
fn territory(board: &Board, wall: &[Option<Color>]) -> [u32; 2] {
    let mut terr = [0u32; 2];
    for c in region_owners(board, wall).into_iter().flatten() {
        terr[c.index()] += 1;
    }
    terr
}

/// Points White gets for Black's handicap stones: N under area scoring (Chinese), none under
/// territory scoring.
pub fn white_bonus(game: &Game) -> f64 {
    match game.rules().scoring {
        Scoring::Area => game.handicap().len() as f64,
        Scoring::Territory => 0.0,
    }
}

/// The score of `game` with `dead` stones removed, under the game's rules.
pub fn score(game: &Game, dead: &[Vertex]) -> Score {
    let rules = game.rules();
    combine(
        rules.scoring,
        &tally(game.board(), dead),
        rules.komi,
        white_bonus(game),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Move;
    use crate::go::game::{KoRule, Rules};

    /// Thesis Fig. 2.14 / Table 2.3.
    #[test]
    fn thesis_table_2_3() {
        let t = Tally {
            territory: [18, 14],
            prisoners: [2, 3],
            stones: [26, 22],
        };
        let j = combine(Scoring::Territory, &t, 2.5, 0.0);
        assert_eq!((j.black, j.white), (20.0, 19.5));
        assert_eq!(j.to_string(), "B+0.5");
        let c = combine(Scoring::Area, &t, 2.5, 0.0);
        assert_eq!((c.black, c.white), (44.0, 38.5));
        assert_eq!(c.to_string(), "B+5.5");
    }

    fn game_from(size: usize, scoring: Scoring, komi: f64, black: &[&str], white: &[&str]) -> Game {
        let mut g = Game::new(
            size,
            Rules {
                scoring,
                ko: KoRule::Positional,
                komi,
            },
        )
        .unwrap();
        let n = black.len().max(white.len());
        for i in 0..n {
            let b = black
                .get(i)
                .map_or(Move::Pass, |s| Move::parse(s, size).unwrap());
            let w = white
                .get(i)
                .map_or(Move::Pass, |s| Move::parse(s, size).unwrap());
            g.play(Color::Black, b).unwrap();
            g.play(Color::White, w).unwrap();
        }
        g
    }

    #[test]
    fn empty_board() {
        for k in [0.0, 6.5, -3.0] {
            let g = Game::new(
                9,
                Rules {
                    komi: k,
                    ..Rules::default()
                },
            )
            .unwrap();
            let s = score(&g, &[]);
            assert_eq!((s.black, s.white), (0.0, k));
        }
    }

    #[test]
    fn walls_and_dead_stone() {
        // 5x5: black wall on column B, white wall on column D, a dead white stone at A3.
        let g = game_from(
            5,
            Scoring::Area,
            0.5,
            &["B1", "B2", "B3", "B4", "B5"],
            &["D1", "D2", "D3", "D4", "D5", "A3"],
        );
        // With A3 alive, column A is split into two regions touching both colours? A1-A2 touch
        // B (black) and A3 (white): neutral; A4-A5 likewise. Black 5, White 6 + 5 territory.
        let alive = score(&g, &[]);
        assert_eq!((alive.black, alive.white), (5.0, 11.5));
        let dead = score(&g, &[Vertex::parse("A3", 5).unwrap()]);
        assert_eq!((dead.black, dead.white), (10.0, 10.5));
        assert_eq!(dead.to_string(), "W+0.5");

        let gj = game_from(
            5,
            Scoring::Territory,
            0.5,
            &["B1", "B2", "B3", "B4", "B5"],
            &["D1", "D2", "D3", "D4", "D5", "A3"],
        );
        // Japanese: black territory A1..A5 (5, incl. the dead stone's point) + 1 prisoner;
        // white territory E1..E5 (5) + komi.
        let j = score(&gj, &[Vertex::parse("A3", 5).unwrap()]);
        assert_eq!((j.black, j.white), (6.0, 5.5));
        assert_eq!(j.to_string(), "B+0.5");
    }

    /// A game whose board is `rows` (top row first; `X` Black, `O` White, `.` empty).
    fn game_from_diagram(scoring: Scoring, komi: f64, rows: &[&str]) -> Game {
        let size = rows.len();
        let letters = "ABCDEFGHJKLMNOPQRST";
        let mut stones: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let v = format!("{}{}", &letters[c..=c], size - r);
                match ch {
                    'X' => stones[0].push(v),
                    'O' => stones[1].push(v),
                    _ => {}
                }
            }
        }
        let black: Vec<&str> = stones[0].iter().map(String::as_str).collect();
        let white: Vec<&str> = stones[1].iter().map(String::as_str).collect();
        game_from(size, scoring, komi, &black, &white)
    }

    fn vertices(list: &str, size: usize) -> Vec<Vertex> {
        list.split_whitespace()
            .map(|s| Vertex::parse(s, size).unwrap())
            .collect()
    }

    /// The end of a game against GNU Go: Black's A2 is dead in atari beside Black's live B1.
    /// Capturing it fills A1, so A1 and A2 are White's, as GNU Go's `final_score` counts them
    /// (B+34); a flood fill without the capture would call both neutral (B+36).
    #[test]
    fn a_dead_stone_beside_a_live_chain_of_its_colour_is_captured_by_filling() {
        let rows = [
            ".OXXO.O.X",
            ".OOXXOOO.",
            "..OX.XXOO",
            ".OXXXXXXX",
            ".OOXXOXXO",
            ".OXXOOOO.",
            "OOXXXOOOO",
            "XOXXOO.X.",
            ".XXXXOOOO",
        ];
        let dead = vertices(
            "E9 G9 F8 G8 H8 H7 J7 F5 E4 F4 G4 H4 F3 G3 H3 J3 E2 F2 F1 G1 H1 J1 J5 A2",
            9,
        );
        let g = game_from_diagram(Scoring::Area, 7.0, &rows);
        let s = score(&g, &dead);
        assert_eq!((s.black, s.white), (61.0, 27.0));
        assert_eq!(s.to_string(), "B+34");
        // Territory scoring counts the filled point as a stone, not as territory: White gains
        // A2 only.
        let j = score(&game_from_diagram(Scoring::Territory, 7.0, &rows), &dead);
        assert_eq!(
            j.white,
            7.0 + 1.0 + 1.0 + 7.0,
            "A9-A4 and B7, A2, one prisoner, komi"
        );
    }

    /// A dead stone in a neutral region takes its liberties with it, not the whole region.
    #[test]
    fn a_dead_stone_in_a_neutral_region_fills_only_its_liberties() {
        // Black wall on column B, White wall on column F, columns C-E neutral but for a White
        // stone at D4 that Black captures by filling C4, E4, D3 and D5.
        let rows = [
            ".X...O.", ".X...O.", ".X...O.", ".X.O.O.", ".X...O.", ".X...O.", ".X...O.",
        ];
        let g = game_from_diagram(Scoring::Area, 0.5, &rows);
        let alive = score(&g, &[]);
        assert_eq!((alive.black, alive.white), (14.0, 15.5));
        let dead = score(&g, &vertices("D4", 7));
        // Black: wall 7 + column A 7 + four filled liberties + D4; White: wall 7 + column G 7.
        assert_eq!((dead.black, dead.white), (19.0, 14.5));
    }

    #[test]
    fn handicap_compensation_under_area_only() {
        let mut g = Game::new(9, Rules::default()).unwrap();
        g.set_handicap(&Game::fixed_handicap_vertices(9, 2).unwrap())
            .unwrap();
        let s = score(&g, &[]);
        assert_eq!(s.white, 7.5 + 2.0);
        let mut j = Game::new(
            9,
            Rules {
                scoring: Scoring::Territory,
                ..Rules::default()
            },
        )
        .unwrap();
        j.set_handicap(&Game::fixed_handicap_vertices(9, 2).unwrap())
            .unwrap();
        assert_eq!(score(&j, &[]).white, 7.5);
    }
}
