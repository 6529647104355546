//! Evolution over seeds (`tablero evolve dungeon|npc --seeds N`): independent runs of one
//! generator from seeds `seed, seed + 1, …`, each a "game" of a sharded batch (index = seed −
//! first seed), and the statistics an evolutionary-computation study reports over them: the
//! best fitness of each run summarized by its mean, sample standard deviation, Student-t 95 %
//! interval of the mean, minimum, median and maximum, and for dungeons the rates (with Wilson
//! 95 % intervals) of levels the check controller wins and of room counts in the window.
//!
//! A run's result depends on its seed and the `[evolve]` settings alone, so the records of
//! shards merge to the whole batch's summary; wall-clock seconds stay in the records.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::stats::wilson95;

/// The `kind` of `tablero evolve` records.
pub const RECORDS_KIND: &str = "evolve";

/// What every run of a batch depends on: every shard of one batch has the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeedsRun {
    /// `dungeon` or `npc`.
    pub generator: String,
    /// The first run's seed; run `i` has seed `seed + i`.
    pub seed: u64,
    /// Runs in the batch.
    pub seeds: usize,
    /// Generations of each run.
    pub generations: usize,
    /// Population of each run.
    pub population: usize,
    /// The rest the runs depend on: the `[evolve]` settings (less the thread count) and the
    /// generator's flags.
    pub settings: Value,
}

impl SeedsRun {
    /// The seed of run `i`.
    pub fn seed_of(&self, i: usize) -> u64 {
        self.seed.wrapping_add(i as u64)
    }
}

/// One run's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeedRecord {
    /// Its seed.
    pub seed: u64,
    /// The best fitness of the run (the dungeon's `fitness`, the NPC's `best_fitness`).
    pub best_fitness: f64,
    /// Dungeons: whether the check controller won the level (`None` without a check or when
    /// the dungeon did not render).
    pub won: Option<bool>,
    /// Dungeons: whether the room count is in the configured window.
    pub in_window: Option<bool>,
    /// Wall-clock seconds of the run (not summarized).
    pub seconds: f64,
    /// The single run's JSON line, as `tablero evolve` prints it for one seed.
    pub line: Value,
}

impl SeedRecord {
    /// The record of the run whose `tablero evolve dungeon|npc` JSON line is `line`.
    pub fn from_line(line: Value) -> SeedRecord {
        let number = |k: &str| line.get(k).and_then(Value::as_f64);
        let flag = |k: &str| line.get(k).and_then(Value::as_bool);
        SeedRecord {
            seed: line.get("seed").and_then(Value::as_u64).unwrap_or_default(),
            best_fitness: number("best_fitness")
                .or_else(|| number("fitness"))
                .unwrap_or(f64::NAN),
            won: flag("won"),
            in_window: flag("in_window"),
            seconds: number("seconds")
                .or_else(|| number("ga_seconds"))
                .unwrap_or_default(),
            line,
        }
    }
}

/// A sample of numbers: mean, spread and order statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1; 0 for one value).
    pub std: f64,
    /// Student-t 95 % interval of the mean (the mean twice for one value).
    pub ci95: [f64; 2],
    /// Smallest.
    pub min: f64,
    /// Median (the mean of the middle two for an even count).
    pub median: f64,
    /// Largest.
    pub max: f64,
}

impl Spread {
    /// The spread of `xs` (all zero when empty).
    pub fn of(xs: &[f64]) -> Spread {
        let n = xs.len();
        if n == 0 {
            return Spread {
                mean: 0.0,
                std: 0.0,
                ci95: [0.0, 0.0],
                min: 0.0,
                median: 0.0,
                max: 0.0,
            };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        let std = if n > 1 {
            (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let half = if n > 1 {
            t975(n - 1) * std / (n as f64).sqrt()
        } else {
            0.0
        };
        let mut sorted = xs.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Spread {
            mean,
            std,
            ci95: [mean - half, mean + half],
            min: sorted[0],
            median,
            max: sorted[n - 1],
        }
    }
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom: a table to 30, then the
/// Cornish–Fisher expansion around the normal quantile (error below 1e-4).
pub fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if let Some(t) = df.checked_sub(1).and_then(|i| TABLE.get(i)) {
        return *t;
    }
    let z = 1.959_963_984_540_054_f64;
    let v = df.max(1) as f64;
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / (384.0 * v.powi(3))
}

/// How often a yes/no outcome held.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Runs with the outcome known.
    pub runs: usize,
    /// Runs where it held.
    pub count: usize,
    /// count / runs (0 without runs).
    pub rate: f64,
    /// Wilson 95 % interval of the rate.
    pub wilson95: [f64; 2],
}

impl Rate {
    /// The rate of `true` among the known outcomes; `None` when none is known.
    fn of(outcomes: impl Iterator<Item = Option<bool>>) -> Option<Rate> {
        let known: Vec<bool> = outcomes.flatten().collect();
        if known.is_empty() {
            return None;
        }
        let count = known.iter().filter(|b| **b).count();
        let runs = known.len();
        Some(Rate {
            runs,
            count,
            rate: count as f64 / runs as f64,
            wilson95: wilson95(count as f64, runs as f64),
        })
    }
}

/// The batch's result (the JSON line of `tablero evolve … --seeds N`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeedsSummary {
    /// `dungeon` or `npc`.
    pub generator: String,
    /// Runs summarized.
    pub runs: usize,
    /// The first seed.
    pub seed: u64,
    /// Generations of each run.
    pub generations: usize,
    /// Population of each run.
    pub population: usize,
    /// The best fitness of each run.
    pub best_fitness: Spread,
    /// The seed of the run with the highest best fitness (the first such).
    pub best_seed: Option<u64>,
    /// Dungeons: levels the check controller won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won: Option<Rate>,
    /// Dungeons: room counts in the window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_window: Option<Rate>,
}

/// The batch's statistics from its records (in index order): what `tablero evolve … --seeds N`
/// prints, and `tablero merge` from the records of its shards.
pub fn summarize(run: &SeedsRun, records: &[SeedRecord]) -> SeedsSummary {
    let fitness: Vec<f64> = records.iter().map(|r| r.best_fitness).collect();
    let best_seed = records
        .iter()
        .fold(None::<&SeedRecord>, |best, r| match best {
            Some(b) if b.best_fitness >= r.best_fitness => Some(b),
            _ => Some(r),
        })
        .map(|r| r.seed);
    SeedsSummary {
        generator: run.generator.clone(),
        runs: records.len(),
        seed: run.seed,
        generations: run.generations,
        population: run.population,
        best_fitness: Spread::of(&fitness),
        best_seed,
        won: Rate::of(records.iter().map(|r| r.won)),
        in_window: Rate::of(records.iter().map(|r| r.in_window)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_has_the_textbook_values() {
        let s = Spread::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!((s.mean, s.min, s.median, s.max), (5.0, 2.0, 4.5, 9.0));
        assert!((s.std - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        let half = 2.365 * s.std / 8f64.sqrt();
        assert!((s.ci95[0] - (5.0 - half)).abs() < 1e-12);
        assert_eq!(Spread::of(&[3.0]).ci95, [3.0, 3.0]);
        assert_eq!(Spread::of(&[1.0, 3.0, 2.0]).median, 2.0);
        assert_eq!(Spread::of(&[]).mean, 0.0);
    }

    #[test]
    fn t_quantiles_follow_the_tables() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(30), 2.042);
        // Tables: 2.021 (40), 2.000 (60), 1.980 (120).
        for (df, t) in [(40, 2.021), (60, 2.000), (120, 1.980)] {
            assert!((t975(df) - t).abs() < 5e-4, "{df}: {}", t975(df));
        }
        assert!(t975(31) < t975(30) && t975(31) > 2.03);
    }

    #[test]
    fn the_summary_counts_outcomes_and_finds_the_best_seed() {
        let run = SeedsRun {
            generator: "dungeon".into(),
            seed: 10,
            seeds: 3,
            generations: 5,
            population: 8,
            settings: Value::Null,
        };
        let rec = |seed: u64, f: f64, won: Option<bool>| {
            SeedRecord::from_line(serde_json::json!({
                "seed": seed, "fitness": f, "won": won, "in_window": true, "ga_seconds": 0.5
            }))
        };
        let records = [
            rec(10, 1.0, Some(true)),
            rec(11, 3.0, None),
            rec(12, 3.0, Some(false)),
        ];
        assert_eq!(records[0].seconds, 0.5);
        let s = summarize(&run, &records);
        assert_eq!((s.runs, s.best_seed), (3, Some(11)));
        let won = s.won.unwrap();
        assert_eq!((won.runs, won.count, won.rate), (2, 1, 0.5));
        assert_eq!(s.in_window.unwrap().count, 3);
        assert_eq!(run.seed_of(2), 12);
        let npc = SeedRecord::from_line(serde_json::json!({"seed": 1, "best_fitness": 2.5}));
        assert_eq!((npc.best_fitness, npc.won), (2.5, None));
        assert!(summarize(&run, &[npc]).won.is_none());
    }
}
