//! GA machinery shared by the dungeon GA and the NPC GP: the four selection schemes of the
//! evolutionary content thesis (roulette, stochastic universal sampling, tournament, linear
//! ranking), fitness shifting for schemes that need non-negative weights, and per-generation
//! statistics (best, mean, standard deviation).

use std::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Serialize};

/// A parent-selection scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Selection {
    /// Probability proportional to (shifted) fitness, one spin per pick.
    Roulette,
    /// Stochastic universal sampling: one random offset, `n` equally spaced pointers.
    Sus,
    /// Best of `k` individuals drawn uniformly with replacement.
    Tournament,
    /// Linear ranking (pressure `s` in [1, 2]), then roulette on the rank weights.
    Ranking,
}

impl FromStr for Selection {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "roulette" => Ok(Selection::Roulette),
            "sus" | "stochastic" => Ok(Selection::Sus),
            "tournament" => Ok(Selection::Tournament),
            "ranking" => Ok(Selection::Ranking),
            other => Err(format!(
                "unknown selection \"{other}\" (roulette, sus, tournament, ranking)"
            )),
        }
    }
}

/// Parameters of [`select`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelectParams {
    pub scheme: Selection,
    /// Tournament size (the thesis: 3).
    pub tournament: usize,
    /// Linear-ranking selective pressure `s` (expected copies of the best), in [1, 2].
    pub ranking_pressure: f64,
    /// Added after shifting by the minimum, so the worst individual keeps a small chance.
    pub shift_epsilon: f64,
}

/// Fitness made usable as roulette weights: unchanged when every value is positive, else
/// shifted by the population minimum so the worst gets `epsilon` (the thesis's fitness can
/// be negative).
pub fn shifted(fitness: &[f64], epsilon: f64) -> Vec<f64> {
    let min = fitness.iter().copied().fold(f64::INFINITY, f64::min);
    if min > 0.0 {
        fitness.to_vec()
    } else {
        fitness.iter().map(|f| f - min + epsilon).collect()
    }
}

/// Linear ranking weights in the input order: the best gets `s`, the worst `2 − s`.
pub fn ranking_weights(fitness: &[f64], s: f64) -> Vec<f64> {
    let n = fitness.len();
    let mut order: Vec<usize> = (0..n).collect();
    // Worst first; ties keep index order so results are reproducible.
    order.sort_by(|&a, &b| fitness[a].total_cmp(&fitness[b]).then(a.cmp(&b)));
    let mut w = vec![0.0; n];
    for (rank, &i) in order.iter().enumerate() {
        w[i] = if n == 1 {
            1.0
        } else {
            (2.0 - s) + 2.0 * (s - 1.0) * rank as f64 / (n - 1) as f64
        };
    }
    w
}

fn spin(cumulative: &[f64], r: f64) -> usize {
    cumulative
        .partition_point(|&c| c <= r)
        .min(cumulative.len().saturating_sub(1))
}

fn cumulative(w: &[f64]) -> Vec<f64> {
    let mut acc = 0.0;
    w.iter()
        .map(|x| {
            acc += x;
            acc
        })
        .collect()
}

/// Pick `n` parents (indices into `fitness`). Empty when the population is empty.
pub fn select<R: Rng>(fitness: &[f64], n: usize, p: &SelectParams, rng: &mut R) -> Vec<usize> {
    let len = fitness.len();
    if len == 0 {
        return Vec::new();
    }
    match p.scheme {
        Selection::Tournament => (0..n)
            .map(|_| {
                let mut best = rng.gen_range(0..len);
                for _ in 1..p.tournament.max(1) {
                    let c = rng.gen_range(0..len);
                    if fitness[c] > fitness[best] {
                        best = c;
                    }
                }
                best
            })
            .collect(),
        Selection::Roulette | Selection::Ranking | Selection::Sus => {
            let w = if p.scheme == Selection::Ranking {
                ranking_weights(fitness, p.ranking_pressure)
            } else {
                shifted(fitness, p.shift_epsilon)
            };
            let cum = cumulative(&w);
            let total = cum.last().copied().unwrap_or(0.0);
            if total <= 0.0 || !total.is_finite() {
                return (0..n).map(|_| rng.gen_range(0..len)).collect();
            }
            if p.scheme == Selection::Sus {
                let step = total / n.max(1) as f64;
                let start = rng.gen_range(0.0..step);
                (0..n)
                    .map(|i| spin(&cum, start + i as f64 * step))
                    .collect()
            } else {
                (0..n)
                    .map(|_| spin(&cum, rng.gen_range(0.0..total)))
                    .collect()
            }
        }
    }
}

/// Best, mean and (population) standard deviation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stats {
    pub best: f64,
    pub mean: f64,
    pub std: f64,
}

pub fn stats(fitness: &[f64]) -> Stats {
    let n = fitness.len().max(1) as f64;
    let best = fitness.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = fitness.iter().sum::<f64>() / n;
    let var = fitness.iter().map(|f| (f - mean).powi(2)).sum::<f64>() / n;
    Stats {
        best,
        mean,
        std: var.sqrt(),
    }
}

/// Indices of the `k` best individuals, best first (ties by index).
pub fn elite(fitness: &[f64], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
    order.truncate(k);
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn params(scheme: Selection) -> SelectParams {
        SelectParams {
            scheme,
            tournament: 3,
            ranking_pressure: 2.0,
            shift_epsilon: 1e-6,
        }
    }

    fn counts(scheme: Selection, fitness: &[f64], draws: usize) -> Vec<f64> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut c = vec![0.0; fitness.len()];
        for _ in 0..draws / fitness.len() {
            for i in select(fitness, fitness.len(), &params(scheme), &mut rng) {
                c[i] += 1.0;
            }
        }
        c.iter().map(|x| x / draws as f64).collect()
    }

    #[test]
    fn roulette_is_proportional_to_fitness() {
        let f = [1.0, 2.0, 3.0, 4.0];
        let p = counts(Selection::Roulette, &f, 200_000);
        for (i, x) in p.iter().enumerate() {
            assert!((x - f[i] / 10.0).abs() < 0.01, "{p:?}");
        }
    }

    #[test]
    fn sus_expected_counts_and_low_spread() {
        // With fitness proportional shares 0.1..0.4 of 4 picks, SUS gives every individual
        // floor or ceil of its expected count (0.4 → 0 or 1; 1.6 → 1 or 2).
        let f = [1.0, 2.0, 3.0, 4.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut tot = [0.0; 4];
        for _ in 0..20_000 {
            let mut c = [0usize; 4];
            for i in select(&f, 4, &params(Selection::Sus), &mut rng) {
                c[i] += 1;
            }
            for (i, &k) in c.iter().enumerate() {
                let e = f[i] / 10.0 * 4.0;
                assert!((k as f64 - e).abs() < 1.0, "{c:?}");
                tot[i] += k as f64;
            }
        }
        for i in 0..4 {
            assert!((tot[i] / 20_000.0 - f[i] * 0.4).abs() < 0.03);
        }
    }

    #[test]
    fn negative_fitness_is_shifted() {
        let f = [-5.0, -3.0, -1.0];
        let w = shifted(&f, 1e-6);
        assert!(w[0] > 0.0 && w[0] < 1e-5);
        assert!((w[2] - 4.0).abs() < 1e-5);
        let p = counts(Selection::Roulette, &f, 60_000);
        assert!(p[0] < 0.01 && (p[2] - 4.0 / 6.0).abs() < 0.02, "{p:?}");
    }

    #[test]
    fn tournament_of_three_matches_order_statistics() {
        // P(rank r of n is the best of 3 draws with replacement) = (r^3 - (r-1)^3) / n^3.
        let f = [10.0, -2.0, 5.0, 0.0];
        let p = counts(Selection::Tournament, &f, 200_000);
        let rank = [4.0, 1.0, 3.0, 2.0];
        for i in 0..4 {
            let r: f64 = rank[i];
            let want = (r.powi(3) - (r - 1.0).powi(3)) / 64.0;
            assert!((p[i] - want).abs() < 0.01, "{p:?}");
        }
    }

    #[test]
    fn ranking_uses_ranks_only() {
        let f = [1000.0, -1.0, 0.5, 0.0];
        // s = 2: weights 0, 2/3, 4/3, 2 for ranks 0..3 → shares 0, 1/6, 1/3, 1/2.
        let p = counts(Selection::Ranking, &f, 200_000);
        assert!((p[0] - 0.5).abs() < 0.01, "{p:?}");
        assert!(p[1] < 0.001);
        assert!((p[2] - 1.0 / 3.0).abs() < 0.01);
        assert!((p[3] - 1.0 / 6.0).abs() < 0.01);
    }

    #[test]
    fn stats_and_elite() {
        let s = stats(&[1.0, 3.0]);
        assert_eq!((s.best, s.mean, s.std), (3.0, 2.0, 1.0));
        assert_eq!(elite(&[1.0, 5.0, 3.0], 2), vec![1, 2]);
    }
}
