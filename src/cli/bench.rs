//! `tablero bench …`: speed measurements of every family; one JSON line on stdout.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use super::{ConfigArgs, init_logging};

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Random playouts per second on an empty board.
    Playouts {
        /// Board size (2..=25).
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Seconds to run.
        #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
        seconds: f64,
        /// Playout threads (one board each).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed of the playouts' random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Playout policy: random, light or heavy.
        #[arg(long, default_value = "light")]
        policy: String,
        /// The configuration (the bench reads only `[log]`).
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// Full MCTS search speed (tree, priors, RAVE, playouts) from the empty board, with the
    /// `[search]` settings of the configuration (e.g. --set search.threads=2).
    Search {
        /// Board size (2..=25).
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Seconds to search.
        #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
        seconds: f64,
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// Go tactics suite (ladders, life and death, semeai, captures on 19×19): tablero's
    /// search on every position at each budget; the solved rate per category and budget with
    /// 95 % Wilson intervals (a table on stderr, one JSON line on stdout).
    Tactics {
        /// The suite file.
        #[arg(
            long,
            value_name = "FILE",
            default_value = "data/go/tactics/tactics-19.txt"
        )]
        file: PathBuf,
        /// Seconds of thought per position; several budgets as --seconds 0.5 --seconds 1 ….
        #[arg(long, value_name = "SECONDS", default_values_t = [1.0])]
        seconds: Vec<f64>,
        /// Only the first N positions (0: all).
        #[arg(long, default_value_t = 0)]
        limit: usize,
        /// The configuration (its `[search]` section configures the search).
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// JIC decision time per phase (median, p90, max): 1 JIC vs 6 DumbBot local games.
    Jic {
        /// Games (JIC plays power g mod 7 in game g).
        #[arg(long, default_value_t = 2)]
        games: usize,
        /// Seed of every random choice (same seed, same result).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seconds per phase given to every player (JIC uses jic.budget_fraction of it).
        #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
        think_time: f64,
        /// The configuration (its `[jic]` section configures JIC).
        #[command(flatten)]
        cfg: ConfigArgs,
    },
}

/// Runs one bench.
pub fn run(cmd: BenchCommand) -> ExitCode {
    match cmd {
        BenchCommand::Playouts {
            size,
            seconds,
            threads,
            seed,
            policy,
            config,
        } => {
            let config = match config.load() {
                Ok(c) => c,
                Err(code) => return code,
            };
            init_logging(&config.log.level);
            super::go::bench_playouts(size, seconds, threads, seed, &policy)
        }
        BenchCommand::Search {
            size,
            seconds,
            config,
        } => super::go::bench_search(size, seconds, &config),
        BenchCommand::Tactics {
            file,
            seconds,
            limit,
            config,
        } => super::go::bench_tactics(&file, &seconds, limit, &config),
        BenchCommand::Jic {
            games,
            seed,
            think_time,
            cfg,
        } => super::diplomacy::bench_jic(games, seed, think_time, &cfg),
    }
}
