//! Learned move prediction: Bradley–Terry gammas of move features trained by
//! minorization-maximization (Coulom 2007, "Computing Elo Ratings of Move Patterns in the Game
//! of Go"; Pachi's "MM patterns" are the model), used as a prior of new tree nodes.
//!
//! - `features.rs`: the features of a candidate move (captures, escapes, self-atari, ataris,
//!   distances to the last two moves, empty-area line, pass, 3×3 and diamond shapes).
//! - `shape.rs`: canonical shape keys (8 symmetries, colour to move).
//! - `train.rs`: the competitions of game records and the MM steps.
//! - `table.rs`: the gammas and their text file (the trained one compiled in).
//! - `eval.rs`: top-1 / top-5 prediction on held-out games, next to the hand-written priors.
//!
//! [`train()`] runs the whole procedure: a seeded split of the games into training and held-out
//! games, the shape dictionary (diamond keys of played moves seen at least `min_count` times
//! in the training games), the MM steps, and the evaluation. Same games, same options, same
//! table.

pub mod eval;
pub mod features;
pub mod shape;
pub mod table;
pub mod train;

use crate::go::game::Game;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::Serialize;

pub use table::{Table, TableError};

/// The knobs of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Seed of the split into training and held-out games.
    pub seed: u64,
    /// Fraction of the games held out for the evaluation (0..1).
    pub held_out: f64,
    /// Fewest times a diamond shape must be played in the training games to get a gamma.
    pub min_count: u32,
    /// MM steps (each updates every group once).
    pub iterations: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            seed: 1,
            held_out: 0.1,
            min_count: 5,
            iterations: 20,
        }
    }
}

/// What a training run did and how well the result predicts held-out moves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainReport {
    pub training_games: usize,
    pub held_out_games: usize,
    pub training_positions: usize,
    pub features: usize,
    pub shapes: usize,
    pub iterations: usize,
    /// Log-posterior per position before the first MM step and after the last.
    pub log_posterior_start: f64,
    pub log_posterior_end: f64,
    /// Held-out prediction rates, one entry per board size.
    pub held_out: Vec<eval::Evaluation>,
}

/// Which games are held out: `round(n · fraction)` of them, chosen by `seed`.
pub fn held_out_games(n: usize, fraction: f64, seed: u64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    order.shuffle(&mut rng);
    let k = ((n as f64) * fraction.clamp(0.0, 1.0)).round() as usize;
    let mut out = vec![false; n];
    for &i in &order[..k] {
        out[i] = true;
    }
    out
}

/// Trains a table on `games` (see the module documentation); `header` becomes the table's
/// first comment lines, followed by a summary of the run.
pub fn train(games: &[Game], opts: &TrainOptions, header: Vec<String>) -> (Table, TrainReport) {
    let test = held_out_games(games.len(), opts.held_out, opts.seed);
    let (mut training, mut held) = (Vec::new(), Vec::new());
    for (g, t) in games.iter().zip(test) {
        if t {
            held.push(g.clone());
        } else {
            training.push(g.clone());
        }
    }
    let mut shapes = train::count_shapes(&training);
    shapes.retain(|_, n| *n >= opts.min_count);
    let data = train::Dataset::build(&training, &shapes);
    let mut header = header;
    header.push(format!(
        "training games: {}, held-out games: {}, positions: {}, features: {}, shapes kept (played >= {} times): {}, MM steps: {}",
        training.len(),
        held.len(),
        data.positions(),
        data.features(),
        opts.min_count,
        shapes.len(),
        opts.iterations
    ));
    let (table, curve) = data.train(opts.iterations, header);
    let per = |x: f64| x / data.positions().max(1) as f64;
    let report = TrainReport {
        training_games: training.len(),
        held_out_games: held.len(),
        training_positions: data.positions(),
        features: data.features(),
        shapes: shapes.len(),
        iterations: opts.iterations,
        log_posterior_start: per(curve.first().copied().unwrap_or_default()),
        log_posterior_end: per(curve.last().copied().unwrap_or_default()),
        held_out: eval::evaluate_by_size(&held, &table),
    };
    (table, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` games of 40 random legal moves on 9×9, from `seed`.
    fn random_games(n: usize, seed: u64) -> Vec<Game> {
        use crate::go::game::Rules;
        use crate::go::{Color, Move};
        use rand::Rng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let mut g = Game::new(9, Rules::default()).unwrap();
                let mut c = Color::Black;
                for _ in 0..40 {
                    let empty = g.board().empty_points().to_vec();
                    let p = empty[rng.gen_range(0..empty.len())] as usize;
                    let mv = Move::Play(crate::go::board::Board::vertex_of(p));
                    if g.play(c, mv).is_err() {
                        g.play(c, Move::Pass).unwrap();
                    }
                    c = c.opponent();
                }
                g
            })
            .collect()
    }

    #[test]
    fn same_seed_same_table() {
        let games = random_games(6, 5);
        let opts = TrainOptions {
            held_out: 0.34,
            min_count: 2,
            iterations: 3,
            ..TrainOptions::default()
        };
        let (a, ra) = train(&games, &opts, vec!["h".into()]);
        let (b, rb) = train(&games, &opts, vec!["h".into()]);
        assert_eq!(a.to_text(), b.to_text());
        assert_eq!(ra, rb);
        assert_eq!((ra.training_games, ra.held_out_games), (4, 2));
        assert_eq!(ra.held_out.len(), 1);
        assert!(ra.held_out[0].positions > 0);
        assert!(ra.log_posterior_end > ra.log_posterior_start);
        let other = TrainOptions { seed: 2, ..opts };
        assert_ne!(
            train(&games, &other, vec!["h".into()]).0.to_text(),
            a.to_text()
        );
    }

    #[test]
    fn the_split_depends_on_the_seed_only() {
        let a = held_out_games(50, 0.2, 7);
        assert_eq!(a, held_out_games(50, 0.2, 7));
        assert_eq!(a.iter().filter(|&&t| t).count(), 10);
        assert_ne!(a, held_out_games(50, 0.2, 8));
        assert!(held_out_games(5, 0.0, 1).iter().all(|&t| !t));
    }
}
