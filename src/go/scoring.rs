//! Counting a finished game under both rule sets of the Go thesis, with dead stones removed.
//!
//! - Area (Chinese): stones on the board + territory + komi, plus, for White, one point per
//!   handicap stone (the Chinese convention; AGA would give N-1). Dead stones are removed before
//!   counting, so their points become the capturer's territory.
//! - Territory (Japanese): territory + prisoners + komi, where dead stones count as prisoners of
//!   the other side and their points as its territory. Seki eyes are counted as territory (the
//!   rules' seki exception is not modelled; documented in protocols/gtp.md).
//!
//! With an empty dead list both formulas are exactly the thesis's (§1.2 of the reference).

use super::board::Board;
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
pub fn tally(board: &Board, dead: &[Vertex]) -> Tally {
    let dead_pts: Vec<usize> = dead
        .iter()
        .filter(|v| board.get(**v).is_some())
        .map(|&v| Board::point_of(v))
        .collect();
    let is_dead = |p: usize| dead_pts.contains(&p);
    let (tb, tw) = board.territory_regions(is_dead);
    let mut dead_count = [0u32; 2];
    for &p in &dead_pts {
        if let Some(c) = board.cell(p).color() {
            dead_count[c.index()] += 1;
        }
    }
    Tally {
        territory: [tb, tw],
        // Dead stones are prisoners of the other side.
        prisoners: [
            board.captures(Color::Black) + dead_count[1],
            board.captures(Color::White) + dead_count[0],
        ],
        stones: [
            board.stones_on_board(Color::Black) - dead_count[0],
            board.stones_on_board(Color::White) - dead_count[1],
        ],
    }
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
