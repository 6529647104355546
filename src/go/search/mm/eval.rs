//! Held-out evaluation of move prediction: how often the played move is the first, or among
//! the first five, of the legal moves ranked by the learned gammas, next to the same rates of
//! the hand-written priors (`priors::prior`, ranked by prior win rate, then prior visits, as
//! the first selection of a new node orders them). Ties count fractionally: a move tied with
//! `e` others right after `g` better ones is among the first `k` with probability
//! `(k - g) / (e + 1)` (clamped to 0..1), as a random tie-break would put it.

use super::table::Table;
use super::train::replay;
use crate::go::Move;
use crate::go::board::{Board, Point};
use crate::go::game::Game;
use crate::go::search::priors::{PriorParams, prior};
use serde::Serialize;

/// Top-1 and top-5 prediction rates of one ranking.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Rates {
    pub top1: f64,
    pub top5: f64,
}

/// Prediction rates on held-out positions (played moves that are not passes) of one board
/// size.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Evaluation {
    pub size: usize,
    pub positions: usize,
    /// Mean number of legal moves per position.
    pub mean_legal_moves: f64,
    /// The learned gammas.
    pub mm: Rates,
    /// Mean natural log of the probability the gammas give the played move.
    pub mm_mean_log_probability: f64,
    /// The hand-written priors (`priors::PriorParams::DEFAULT`).
    pub priors: Rates,
}

/// The chance that the winner is among the first `k` when `better` moves rank above it and
/// `tied` others with it.
fn top_k(k: usize, better: usize, tied: usize) -> f64 {
    ((k as f64 - better as f64) / (tied as f64 + 1.0)).clamp(0.0, 1.0)
}

/// Counts moves ranked strictly above and equal to the move at `winner` in `keys`.
fn rank<T: PartialOrd>(keys: &[T], winner: usize) -> (usize, usize) {
    let w = &keys[winner];
    let better = keys.iter().filter(|k| *k > w).count();
    let tied = keys.iter().filter(|k| *k == w).count() - 1;
    (better, tied)
}

/// Evaluates `table` and the default priors on every non-pass move of `games`, one
/// evaluation per board size (smallest first).
pub fn evaluate_by_size(games: &[Game], table: &Table) -> Vec<Evaluation> {
    let mut sizes: Vec<usize> = games.iter().map(Game::size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .into_iter()
        .map(|n| {
            let same: Vec<Game> = games.iter().filter(|g| g.size() == n).cloned().collect();
            Evaluation {
                size: n,
                ..evaluate(&same, table)
            }
        })
        .collect()
}

/// Evaluates `table` and the default priors on every non-pass move of `games` (the size is
/// left for the caller to fill in).
fn evaluate(games: &[Game], table: &Table) -> Evaluation {
    let mut out = Evaluation::default();
    let mut legal_total = 0usize;
    let mut scratch = Vec::new();
    let mut points: Vec<Point> = Vec::new();
    let mut gammas: Vec<f64> = Vec::new();
    let mut priors: Vec<(f64, u32)> = Vec::new();
    let params = PriorParams::DEFAULT;
    for game in games {
        replay(game, |pos| {
            let Move::Play(v) = pos.played else {
                return;
            };
            let played = Board::point_of(v);
            points.clear();
            points.extend(
                pos.board
                    .points()
                    .filter(|&p| pos.board.is_legal(pos.color, p)),
            );
            let Some(winner) = points.iter().position(|&p| p == played) else {
                return;
            };
            gammas.clear();
            priors.clear();
            for &p in &points {
                gammas.push(table.move_gamma(pos.board, pos.color, p, pos.last, &mut scratch));
                let pr = prior(pos.board, pos.color, p, pos.last[0], &params);
                priors.push((pr.rate(), pr.visits));
            }
            out.positions += 1;
            legal_total += points.len();
            let total: f64 = gammas.iter().sum();
            out.mm_mean_log_probability += (gammas[winner] / total).ln();
            let (better, tied) = rank(&gammas, winner);
            out.mm.top1 += top_k(1, better, tied);
            out.mm.top5 += top_k(5, better, tied);
            let (better, tied) = rank(&priors, winner);
            out.priors.top1 += top_k(1, better, tied);
            out.priors.top5 += top_k(5, better, tied);
        });
    }
    if out.positions > 0 {
        let n = out.positions as f64;
        out.mean_legal_moves = legal_total as f64 / n;
        out.mm_mean_log_probability /= n;
        for r in [&mut out.mm, &mut out.priors] {
            r.top1 /= n;
            r.top5 /= n;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_count_fractionally() {
        assert_eq!(top_k(1, 0, 0), 1.0);
        assert_eq!(top_k(1, 1, 0), 0.0);
        assert_eq!(top_k(1, 0, 3), 0.25);
        assert_eq!(top_k(5, 3, 3), 0.5);
        assert_eq!(top_k(5, 0, 2), 1.0);
        assert_eq!(rank(&[1.0, 3.0, 2.0, 2.0], 2), (1, 1));
        assert_eq!(rank(&[(0.5, 10), (0.5, 12), (0.7, 1)], 0), (2, 0));
    }
}
