//! GVG-AI sweeps (`tablero gvgai sweep`): controllers played on levels over seeds, one
//! episode per (level, controller, seed), with the win rates and mean scores per level and
//! controller.
//!
//! Episodes are numbered level-major, then controller, then seed: episode
//! `i = (cell × controllers + c) × seeds + s`. Episode `i` plays with seed `seed + s` (the
//! game's and the controller's, as `tablero gvgai play --seed`), whichever shard plays it. With
//! a count budget (`iterations`) and an act budget the controller never overruns, an episode
//! is the same on every machine; under a time budget alone it depends on the machine's speed,
//! as `gvgai play` does.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::shard::Shard;
use super::stats::wilson95;
use crate::gvgai::controllers::{self, ControllerSettings};
use crate::gvgai::engine::Game;

/// The `kind` of `tablero gvgai sweep` records.
pub const RECORDS_KIND: &str = "gvgai sweep";

/// One level of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The game's name.
    pub game: String,
    /// The level number.
    pub level: usize,
}

/// What a sweep's episodes depend on: every shard of one sweep has the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRun {
    /// The levels, in order.
    pub cells: Vec<Cell>,
    /// The controllers (as `gvgai play --controller`), in order.
    pub controllers: Vec<String>,
    /// Episodes per level and controller.
    pub seeds: usize,
    /// The first episode's seed; the others count up from it.
    pub seed: u64,
    /// Milliseconds per act.
    pub act_ms: u64,
    /// Count budget per act, if any.
    pub iterations: Option<usize>,
}

impl SweepRun {
    /// Episodes of the whole sweep.
    pub fn total(&self) -> usize {
        self.cells.len() * self.controllers.len() * self.seeds
    }

    /// Episode `i`: its level, controller and seed.
    pub fn episode(&self, i: usize) -> Option<(&Cell, &str, u64)> {
        let seeds = self.seeds.max(1);
        let s = i % seeds;
        let c = (i / seeds) % self.controllers.len().max(1);
        let cell = self.cells.get(i / seeds / self.controllers.len().max(1))?;
        let controller = self.controllers.get(c)?;
        Some((cell, controller, self.seed.wrapping_add(s as u64)))
    }
}

/// One episode's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeRecord {
    /// The episode's index in the sweep.
    pub episode: usize,
    /// The game.
    pub game: String,
    /// The level.
    pub level: usize,
    /// The controller.
    pub controller: String,
    /// The seed of the game and the controller.
    pub seed: u64,
    /// Won.
    pub win: bool,
    /// Final score.
    pub score: f64,
    /// GVG-AI's game tick at the end.
    pub ticks: i32,
    /// Longest act, wall milliseconds.
    pub act_ms_max: f64,
    /// Acts over the act budget (played as NIL).
    pub overspent: usize,
    /// The actions played (`tablero gvgai replay --actions`).
    pub actions: String,
}

/// A sweep that cannot be played.
#[derive(Debug, Error)]
pub enum SweepError {
    /// A controller spec the registry refuses.
    #[error("controller {0:?}: {1}")]
    Controller(String, String),
    /// A game named by a cell was not loaded, or lacks the level.
    #[error("{0}")]
    Level(String),
    /// The engine failed.
    #[error("episode {episode}: {message}")]
    Engine {
        /// The episode.
        episode: usize,
        /// What failed.
        message: String,
    },
}

/// Checks that every controller is known and every cell's level exists in `games`.
pub fn check(run: &SweepRun, games: &BTreeMap<String, Game>) -> Result<(), SweepError> {
    for c in &run.controllers {
        crate::controllers::make(c, &ControllerSettings::seeded(0))
            .map_err(|e| SweepError::Controller(c.clone(), e.to_string()))?;
    }
    for cell in &run.cells {
        match games.get(&cell.game) {
            Some(g) if cell.level < g.levels.len() => {}
            Some(_) => {
                return Err(SweepError::Level(format!(
                    "game {} has no level {}",
                    cell.game, cell.level
                )));
            }
            None => return Err(SweepError::Level(format!("game {} not loaded", cell.game))),
        }
    }
    Ok(())
}

/// Plays episode `i` of `run`.
pub fn play_episode(
    run: &SweepRun,
    games: &BTreeMap<String, Game>,
    i: usize,
) -> Result<EpisodeRecord, SweepError> {
    let engine = |message: String| SweepError::Engine {
        episode: i,
        message,
    };
    let (cell, controller, seed) = run
        .episode(i)
        .ok_or_else(|| engine(format!("no episode {i} of {}", run.total())))?;
    let game = games
        .get(&cell.game)
        .ok_or_else(|| engine(format!("game {} not loaded", cell.game)))?;
    let settings = ControllerSettings {
        seed,
        iterations: run.iterations,
    };
    let mut c = crate::controllers::make(controller, &settings)
        .map_err(|e| SweepError::Controller(controller.to_string(), e.to_string()))?;
    let act = Duration::from_millis(run.act_ms.max(1));
    // Seeds above i64::MAX wrap, as Java's long would (as `gvgai play`).
    let r = controllers::play(game, cell.level, seed as i64, c.as_mut(), act)
        .map_err(|e| engine(e.to_string()))?;
    Ok(EpisodeRecord {
        episode: i,
        game: cell.game.clone(),
        level: cell.level,
        controller: controller.to_string(),
        seed,
        win: r.outcome.win,
        score: r.outcome.score,
        ticks: r.outcome.ticks,
        act_ms_max: r.act_ms_max,
        overspent: r.overspent,
        actions: r.actions,
    })
}

/// Plays the episodes of `shard`, in order; `progress` gets each as it ends.
pub fn play(
    run: &SweepRun,
    games: &BTreeMap<String, Game>,
    shard: Shard,
    progress: &dyn Fn(&EpisodeRecord),
) -> Result<Vec<EpisodeRecord>, SweepError> {
    check(run, games)?;
    shard
        .indices(run.total())
        .map(|i| {
            let r = play_episode(run, games, i)?;
            progress(&r);
            Ok(r)
        })
        .collect()
}

/// Win counts and means over a set of episodes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tally {
    /// Episodes.
    pub episodes: usize,
    /// Won.
    pub wins: usize,
    /// wins / episodes (0 without episodes).
    pub win_rate: f64,
    /// Wilson 95 % interval of the win rate.
    pub wilson95: [f64; 2],
    /// Mean final score.
    pub mean_score: f64,
    /// Mean game tick at the end.
    pub mean_ticks: f64,
}

impl Tally {
    fn of<'a>(episodes: impl Iterator<Item = &'a EpisodeRecord>) -> Tally {
        let (mut n, mut wins, mut score, mut ticks) = (0usize, 0usize, 0.0, 0.0);
        for e in episodes {
            n += 1;
            wins += usize::from(e.win);
            score += e.score;
            ticks += f64::from(e.ticks);
        }
        let mean = |x: f64| if n == 0 { 0.0 } else { x / n as f64 };
        Tally {
            episodes: n,
            wins,
            win_rate: mean(wins as f64),
            wilson95: wilson95(wins as f64, n as f64),
            mean_score: mean(score),
            mean_ticks: mean(ticks),
        }
    }
}

/// One level and controller.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellSummary {
    /// The game.
    pub game: String,
    /// The level.
    pub level: usize,
    /// The controller.
    pub controller: String,
    /// Its episodes' figures.
    #[serde(flatten)]
    pub tally: Tally,
}

/// One controller over every level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ControllerSummary {
    /// The controller.
    pub controller: String,
    /// Its episodes' figures.
    #[serde(flatten)]
    pub tally: Tally,
}

/// The sweep's result (the JSON line of `tablero gvgai sweep`). Wall-clock figures stay in
/// the records, so the same episodes give the same line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepSummary {
    /// Episodes played.
    pub episodes: usize,
    /// Episodes won.
    pub wins: usize,
    /// Per controller over every level, in the run's order.
    pub controllers: Vec<ControllerSummary>,
    /// Per level and controller, in the run's order (cells without episodes left out).
    pub cells: Vec<CellSummary>,
    /// Episodes per level and controller in the run.
    pub seeds: usize,
    /// The first seed.
    pub seed: u64,
    /// Milliseconds per act.
    pub act_ms: u64,
    /// Count budget per act.
    pub iterations: Option<usize>,
}

/// The sweep's statistics from its episode records (in episode order): what `tablero gvgai
/// sweep` prints, and `tablero merge` from the records of its shards.
pub fn summarize(run: &SweepRun, episodes: &[EpisodeRecord]) -> SweepSummary {
    let controllers = run
        .controllers
        .iter()
        .map(|c| ControllerSummary {
            controller: c.clone(),
            tally: Tally::of(episodes.iter().filter(|e| &e.controller == c)),
        })
        .collect();
    let cells =
        run.cells
            .iter()
            .flat_map(|cell| run.controllers.iter().map(move |c| (cell, c)))
            .map(|(cell, c)| CellSummary {
                game: cell.game.clone(),
                level: cell.level,
                controller: c.clone(),
                tally: Tally::of(episodes.iter().filter(|e| {
                    e.game == cell.game && e.level == cell.level && &e.controller == c
                })),
            })
            .filter(|s| s.tally.episodes > 0)
            .collect();
    SweepSummary {
        episodes: episodes.len(),
        wins: episodes.iter().filter(|e| e.win).count(),
        controllers,
        cells,
        seeds: run.seeds,
        seed: run.seed,
        act_ms: run.act_ms,
        iterations: run.iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> SweepRun {
        SweepRun {
            cells: vec![
                Cell {
                    game: "a".into(),
                    level: 0,
                },
                Cell {
                    game: "a".into(),
                    level: 1,
                },
            ],
            controllers: vec!["random".into(), "onestep".into(), "mcts".into()],
            seeds: 4,
            seed: 10,
            act_ms: 40,
            iterations: None,
        }
    }

    #[test]
    fn episodes_are_numbered_level_controller_seed() {
        let r = run();
        assert_eq!(r.total(), 24);
        let (cell, c, seed) = r.episode(0).unwrap();
        assert_eq!((cell.level, c, seed), (0, "random", 10));
        let (cell, c, seed) = r.episode(4 + 3).unwrap();
        assert_eq!((cell.level, c, seed), (0, "onestep", 13));
        let (cell, c, seed) = r.episode(12 + 8 + 1).unwrap();
        assert_eq!((cell.level, c, seed), (1, "mcts", 11));
        assert!(r.episode(24).is_none());
    }

    #[test]
    fn the_summary_counts_per_cell_and_controller() {
        let r = run();
        let rec = |i: usize, win: bool, score: f64| {
            let (cell, c, seed) = r.episode(i).unwrap();
            EpisodeRecord {
                episode: i,
                game: cell.game.clone(),
                level: cell.level,
                controller: c.into(),
                seed,
                win,
                score,
                ticks: 100,
                act_ms_max: 1.0,
                overspent: 0,
                actions: String::new(),
            }
        };
        let eps = [rec(0, true, 3.0), rec(1, false, 1.0), rec(12, true, 2.0)];
        let s = summarize(&r, &eps);
        assert_eq!((s.episodes, s.wins), (3, 2));
        assert_eq!(s.cells.len(), 2, "cells without episodes are left out");
        assert_eq!(s.cells[0].tally.episodes, 2);
        assert_eq!(s.cells[0].tally.mean_score, 2.0);
        assert_eq!(s.controllers[0].tally.wins, 2);
        assert_eq!(s.controllers[1].tally.episodes, 0);
        assert_eq!(s.controllers[0].tally.wilson95, wilson95(2.0, 3.0));
    }
}
