//! Decision-time benchmark (`tablero bench jic`): local games of one JIC
//! (power `g mod 7` in game `g`) against six DumbBots, timing every JIC
//! decision by phase kind; the report gives the median, 90th percentile and
//! maximum per kind.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{JicBot, JicConfig};
use crate::bots::DumbBot;
use crate::budget::Budget;
use crate::diplomacy::judge::JudgeError;
use crate::diplomacy::model::PhaseKind;
use crate::diplomacy::play::LocalGame;
use crate::diplomacy::{GameView, Map, Order, Player};

/// Decision times of one phase kind, in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseTimes {
    /// Decisions timed.
    pub decisions: usize,
    /// Median.
    pub median_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// Maximum.
    pub max_ms: f64,
}

impl PhaseTimes {
    fn of(mut times: Vec<Duration>) -> Self {
        times.sort();
        let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        let at = |q: f64| {
            if times.is_empty() {
                None
            } else {
                times.get(((times.len() - 1) as f64 * q).round() as usize)
            }
        };
        PhaseTimes {
            decisions: times.len(),
            median_ms: ms(at(0.5)),
            p90_ms: ms(at(0.9)),
            max_ms: ms(times.last()),
        }
    }
}

/// The benchmark's result (one JSON line).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchReport {
    /// Games played.
    pub games: usize,
    /// Think time per phase given to every player, seconds.
    pub think_time_s: f64,
    /// Movement phases.
    pub movement: PhaseTimes,
    /// Retreat phases.
    pub retreat: PhaseTimes,
    /// Adjustment phases.
    pub adjustment: PhaseTimes,
}

type Log = Arc<Mutex<Vec<(PhaseKind, Duration)>>>;

struct Timed {
    bot: JicBot,
    log: Log,
}

impl Player for Timed {
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        let start = Instant::now();
        let orders = self.bot.orders(view, budget);
        if let Ok(mut l) = self.log.lock() {
            l.push((view.phase.season.kind(), start.elapsed()));
        }
        orders
    }

    fn observe(&mut self, view: &GameView, orders: &[Order]) {
        self.bot.observe(view, orders)
    }

    fn position(&mut self, view: &GameView) {
        self.bot.position(view)
    }
}

/// Plays `games` games and times JIC's decisions; `progress` gets each
/// finished game's index.
pub fn run(
    config: &JicConfig,
    games: usize,
    seed: u64,
    think_time: Duration,
    progress: &dyn Fn(usize),
) -> Result<BenchReport, JudgeError> {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let n = Map::standard().power_count();
    let local = LocalGame {
        think_time,
        ..LocalGame::default()
    };
    for g in 0..games {
        let jic = g % n;
        let s = seed.wrapping_mul(1000).wrapping_add(g as u64 * 10);
        let mut players: Vec<Box<dyn Player>> = (0..n)
            .map(|p| -> Box<dyn Player> {
                if p == jic {
                    Box::new(Timed {
                        bot: JicBot::new(config.clone(), s),
                        log: Arc::clone(&log),
                    })
                } else {
                    Box::new(DumbBot::new(s + 1 + p as u64))
                }
            })
            .collect();
        local.play_standard(&mut players)?;
        progress(g);
    }
    let all = log.lock().map(|l| l.clone()).unwrap_or_default();
    let of = |k: PhaseKind| {
        PhaseTimes::of(
            all.iter()
                .filter(|(kind, _)| *kind == k)
                .map(|(_, d)| *d)
                .collect(),
        )
    };
    Ok(BenchReport {
        games,
        think_time_s: think_time.as_secs_f64(),
        movement: of(PhaseKind::Movement),
        retreat: of(PhaseKind::Retreat),
        adjustment: of(PhaseKind::Adjustment),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_sorted_sample() {
        let t = PhaseTimes::of((1..=10).map(Duration::from_millis).collect());
        assert_eq!(t.decisions, 10);
        assert_eq!(t.max_ms, 10.0);
        assert!((t.median_ms - 6.0).abs() < 1e-9 || (t.median_ms - 5.0).abs() < 1e-9);
        assert_eq!(t.p90_ms, 9.0);
        assert_eq!(PhaseTimes::of(Vec::new()).decisions, 0);
    }
}
