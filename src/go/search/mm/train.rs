//! Training of the gammas by minorization-maximization (Coulom 2007): every position of a
//! game record is a competition among the legal moves, won by the move played; a move's
//! strength is the product of its features' gammas (generalised Bradley–Terry). Each MM
//! step updates the gammas of one feature group at once,
//!
//!   `γ_i ← (W_i + 1) / (Σ_j C_ij / E_j + 2 / (γ_i + 1))`,
//!
//! where `W_i` counts the wins of moves with feature `i`, `E_j` is the total strength of the
//! moves of position `j` and `C_ij` the strength of its moves with feature `i` divided by
//! `γ_i`. The `+1` and `2/(γ_i+1)` are Coulom's prior: one virtual win and one virtual loss
//! against an opponent of gamma 1, which keeps rare features near 1. The log-posterior never
//! decreases from one step to the next.
//!
//! Moves of a position with identical feature lists are stored once with a multiplicity
//! (most empty points of a 19×19 board look alike), which keeps the data small.

use super::features::{Feature, Group, pass_feature, play_features};
use super::shape;
use super::table::{FeatureMap, Table};
use crate::go::board::{Board, Point};
use crate::go::game::Game;
use crate::go::{Color, Move};
use std::collections::HashMap;

/// One position of a game record: the board before the move, the mover, the move, the points
/// of the last two moves (None for passes) and whether the last move was a pass.
pub struct Position<'a> {
    pub board: &'a Board,
    pub color: Color,
    pub played: Move,
    pub last: [Option<Point>; 2],
    pub after_pass: bool,
}

/// Calls `f` on every position of `game`'s main line, from its setup; stops at a move the
/// replay refuses (records checked by `sgf::load` never have one).
pub fn replay(game: &Game, mut f: impl FnMut(&Position)) {
    let Ok(mut g) = Game::new(game.size(), *game.rules()) else {
        return;
    };
    let (black, white) = game.setup_stones();
    if (!black.is_empty() || !white.is_empty()) && g.setup(black, white).is_err() {
        return;
    }
    if !game.handicap().is_empty() && g.set_handicap(game.handicap()).is_err() {
        return;
    }
    g.set_to_move(game.start_to_move());
    let mut last: [Option<Move>; 2] = [None, None];
    for (color, mv) in game.history() {
        let point = |m: Option<Move>| match m {
            Some(Move::Play(v)) => Some(Board::point_of(v)),
            _ => None,
        };
        f(&Position {
            board: g.board(),
            color,
            played: mv,
            last: [point(last[0]), point(last[1])],
            after_pass: last[0] == Some(Move::Pass),
        });
        if g.play(color, mv).is_err() {
            return;
        }
        last = [Some(mv), last[0]];
    }
}

/// Counts the canonical diamond keys of the played moves of `games`.
pub fn count_shapes(games: &[Game]) -> HashMap<u64, u32> {
    let mut counts = HashMap::new();
    for game in games {
        replay(game, |pos| {
            if let Move::Play(v) = pos.played {
                for key in shape::diamonds(pos.board, pos.color, Board::point_of(v)) {
                    *counts.entry(key).or_insert(0) += 1;
                }
            }
        });
    }
    counts
}

/// A move of a position: its features (indices, sorted) and how many moves share them.
#[derive(Clone, Debug, PartialEq)]
struct Candidate {
    start: u32,
    len: u32,
    mult: u32,
}

/// The competitions: per position, a range of candidates and the winner among them.
#[derive(Debug, Default)]
pub struct Dataset {
    features: Vec<Feature>,
    index: FeatureMap<u32>,
    feats: Vec<u32>,
    candidates: Vec<Candidate>,
    /// Per position: first candidate, end of its candidates, the winner.
    positions: Vec<(u32, u32, u32)>,
    /// Per feature: wins of moves having it.
    wins: Vec<f64>,
}

impl Dataset {
    /// The competitions of every position of `games`, with shape features for the keys of
    /// `shapes` only.
    pub fn build(games: &[Game], shapes: &HashMap<u64, u32>) -> Dataset {
        let mut data = Dataset::default();
        let mut lists: Vec<(Vec<u32>, bool)> = Vec::new();
        let mut scratch = Vec::new();
        for game in games {
            replay(game, |pos| {
                lists.clear();
                for p in pos.board.points() {
                    if !pos.board.is_legal(pos.color, p) {
                        continue;
                    }
                    scratch.clear();
                    let known = |k| shapes.contains_key(&k);
                    play_features(pos.board, pos.color, p, pos.last, known, &mut scratch);
                    let ids = data.intern(&scratch);
                    let won = pos.played == Move::Play(Board::vertex_of(p));
                    lists.push((ids, won));
                }
                let ids = data.intern(&[pass_feature(pos.after_pass)]);
                lists.push((ids, pos.played == Move::Pass));
                data.push_position(&mut lists);
            });
        }
        data
    }

    /// The indices of `fs`, sorted, adding unseen features.
    fn intern(&mut self, fs: &[Feature]) -> Vec<u32> {
        let mut ids: Vec<u32> = fs
            .iter()
            .map(|f| {
                *self.index.entry(*f).or_insert_with(|| {
                    self.features.push(*f);
                    self.wins.push(0.0);
                    (self.features.len() - 1) as u32
                })
            })
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Adds one competition; moves with equal feature lists merge.
    fn push_position(&mut self, lists: &mut [(Vec<u32>, bool)]) {
        if !lists.iter().any(|(_, won)| *won) {
            return; // the played move was not among the candidates (e.g. a superko record)
        }
        lists.sort_unstable();
        let first = self.candidates.len() as u32;
        let mut winner = 0;
        for (i, (ids, won)) in lists.iter().enumerate() {
            let same = i > 0 && lists[i - 1].0 == *ids;
            if same {
                if let Some(last) = self.candidates.last_mut() {
                    last.mult += 1;
                }
            } else {
                self.candidates.push(Candidate {
                    start: self.feats.len() as u32,
                    len: ids.len() as u32,
                    mult: 1,
                });
                self.feats.extend_from_slice(ids);
            }
            if *won {
                winner = self.candidates.len() as u32 - 1;
                for &f in ids {
                    self.wins[f as usize] += 1.0;
                }
            }
        }
        self.positions
            .push((first, self.candidates.len() as u32, winner));
    }

    /// Number of competitions.
    pub fn positions(&self) -> usize {
        self.positions.len()
    }

    /// Number of distinct features.
    pub fn features(&self) -> usize {
        self.features.len()
    }

    fn ids(&self, c: &Candidate) -> &[u32] {
        &self.feats[c.start as usize..(c.start + c.len) as usize]
    }

    fn strength(&self, c: &Candidate, gammas: &[f64]) -> f64 {
        self.ids(c).iter().map(|&f| gammas[f as usize]).product()
    }

    /// The log-posterior of `gammas`: the log-likelihood of the played moves plus the prior's
    /// virtual win and loss of every feature.
    pub fn log_posterior(&self, gammas: &[f64]) -> f64 {
        let mut ll = 0.0;
        for &(a, b, w) in &self.positions {
            let total: f64 = self.candidates[a as usize..b as usize]
                .iter()
                .map(|c| c.mult as f64 * self.strength(c, gammas))
                .sum();
            ll += self.strength(&self.candidates[w as usize], gammas).ln() - total.ln();
        }
        ll + gammas
            .iter()
            .map(|g| g.ln() - 2.0 * (g + 1.0).ln())
            .sum::<f64>()
    }

    /// One MM step for every group in turn.
    pub fn mm_step(&self, gammas: &mut [f64]) {
        let mut denominators = vec![0.0; gammas.len()];
        let mut strengths = Vec::new();
        for group in Group::ALL {
            if !self.features.iter().any(|f| f.group == group) {
                continue;
            }
            denominators.iter_mut().for_each(|d| *d = 0.0);
            for &(a, b, _) in &self.positions {
                let cands = &self.candidates[a as usize..b as usize];
                strengths.clear();
                strengths.extend(cands.iter().map(|c| self.strength(c, gammas)));
                let total: f64 = cands
                    .iter()
                    .zip(&strengths)
                    .map(|(c, s)| c.mult as f64 * s)
                    .sum();
                for (c, s) in cands.iter().zip(&strengths) {
                    for &f in self.ids(c) {
                        let f = f as usize;
                        if self.features[f].group == group {
                            denominators[f] += c.mult as f64 * s / gammas[f] / total;
                        }
                    }
                }
            }
            for (f, feature) in self.features.iter().enumerate() {
                if feature.group == group {
                    let g = gammas[f];
                    gammas[f] = (self.wins[f] + 1.0) / (denominators[f] + 2.0 / (g + 1.0));
                }
            }
        }
    }

    /// Runs `iterations` MM steps from all gammas 1; returns the table and the log-posterior
    /// before each step and after the last.
    pub fn train(&self, iterations: usize, header: Vec<String>) -> (Table, Vec<f64>) {
        let mut gammas = vec![1.0; self.features.len()];
        let mut curve = vec![self.log_posterior(&gammas)];
        for _ in 0..iterations {
            self.mm_step(&mut gammas);
            curve.push(self.log_posterior(&gammas));
        }
        let table = Table::new(header, self.features.iter().copied().zip(gammas));
        (table, curve)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::game::Rules;

    /// A dataset from explicit competitions: each position a list of (features, won).
    fn synthetic(positions: &[Vec<(Vec<Feature>, bool)>]) -> Dataset {
        let mut data = Dataset::default();
        for pos in positions {
            let mut lists: Vec<(Vec<u32>, bool)> =
                pos.iter().map(|(fs, w)| (data.intern(fs), *w)).collect();
            data.push_position(&mut lists);
        }
        data
    }

    const A: Feature = Feature::new(Group::Capture, 1);
    const B: Feature = Feature::new(Group::Capture, 2);
    const C: Feature = Feature::new(Group::Edge, 3);

    #[test]
    fn a_feature_always_chosen_gets_the_largest_gamma() {
        // A always wins against B and plain moves; C (another group) is neutral noise.
        let mut positions = Vec::new();
        for i in 0..30 {
            let noise = if i % 2 == 0 { vec![C] } else { vec![] };
            positions.push(vec![
                ([vec![A], noise.clone()].concat(), true),
                (vec![B], false),
                (vec![], false),
                (vec![], false),
                ([vec![B], noise].concat(), false),
            ]);
        }
        let data = synthetic(&positions);
        let (table, curve) = data.train(30, vec![]);
        let (a, b, c) = (table.gamma(&A), table.gamma(&B), table.gamma(&C));
        assert!(a > 10.0 && a > b && a > c, "{a} {b} {c}");
        assert!(b < 1.0, "a feature that always loses falls below 1: {b}");
        for w in curve.windows(2) {
            assert!(w[1] >= w[0] - 1e-9, "log-posterior decreased: {curve:?}");
        }
    }

    #[test]
    fn gammas_match_the_win_shares() {
        // Two moves, A and a plain one: A wins 3 of 4 times. Without the prior the MLE is
        // γ_A = 3; the prior pulls it slightly toward 1.
        let mut positions = Vec::new();
        for i in 0..400 {
            positions.push(vec![(vec![A], i % 4 != 0), (vec![], i % 4 == 0)]);
        }
        let data = synthetic(&positions);
        let (table, curve) = data.train(200, vec![]);
        let a = table.gamma(&A);
        assert!((a - 3.0).abs() < 0.05, "{a}");
        assert!(a < 3.0);
        assert!(curve.windows(2).all(|w| w[1] >= w[0] - 1e-9));
    }

    #[test]
    fn equal_moves_merge_with_a_multiplicity() {
        let data = synthetic(&[vec![
            (vec![A], true),
            (vec![], false),
            (vec![], false),
            (vec![], false),
        ]]);
        assert_eq!(data.candidates.len(), 2);
        assert_eq!(data.candidates.iter().map(|c| c.mult).sum::<u32>(), 4);
        // Posterior at gamma 1: ln(1/4) plus the prior ln(1/4).
        assert!((data.log_posterior(&[1.0]) - (0.25f64.ln() * 2.0)).abs() < 1e-12);
    }

    fn game(moves: &[&str]) -> Game {
        let mut g = Game::new(9, Rules::default()).unwrap();
        let mut c = Color::Black;
        for m in moves {
            g.play(c, Move::parse(m, 9).unwrap()).unwrap();
            c = c.opponent();
        }
        g
    }

    #[test]
    fn replay_sees_every_position_with_its_last_moves() {
        let g = game(&["E5", "C3", "pass", "G7"]);
        let mut seen = Vec::new();
        replay(&g, |p| {
            seen.push((
                p.color,
                p.played,
                p.last,
                p.after_pass,
                p.board.stones_on_board(Color::Black),
            ))
        });
        assert_eq!(seen.len(), 4);
        let e5 = Board::point_of(crate::go::Vertex::parse("E5", 9).unwrap());
        let c3 = Board::point_of(crate::go::Vertex::parse("C3", 9).unwrap());
        assert_eq!(seen[0].2, [None, None]);
        assert_eq!(seen[2].2, [Some(c3), Some(e5)]);
        assert_eq!(seen[3].2, [None, Some(c3)]);
        assert!(seen[3].3 && !seen[2].3);
        assert_eq!(seen[3].4, 1);
    }

    #[test]
    fn same_games_same_table() {
        let games = vec![
            game(&["E5", "C3", "G3", "C7", "G7", "D5"]),
            game(&["C3", "E5", "G7", "pass", "F4"]),
        ];
        let shapes = count_shapes(&games);
        let a = Dataset::build(&games, &shapes).train(5, vec!["h".into()]).0;
        let b = Dataset::build(&games, &shapes).train(5, vec!["h".into()]).0;
        assert_eq!(a.to_text(), b.to_text());
        assert!(a.len() > 5);
        // Every move of the records is a position (passes included).
        assert_eq!(Dataset::build(&games, &shapes).positions(), 11);
    }
}
