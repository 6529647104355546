//! `tablero evolve dungeon|npc`: the dungeon GA and the NPC GP; one JSON line on stdout.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use tablero::config::Config;

use super::progress::Progress;
use super::{ConfigArgs, failure, init_logging, usage};

#[derive(Debug, Subcommand)]
pub enum EvolveCommand {
    /// Evolve a dungeon; writes dungeon.json, evodungeon.txt + _lvl0.txt, the level as
    /// evodungeon.svg, progress.csv and fitness.svg into --out and checks that
    /// evolve.dungeon_check_controller wins the level.
    Dungeon {
        /// Seed of every random choice (same seed, same result).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Generations [default: 100 (config evolve.dungeon_generations)].
        #[arg(long)]
        generations: Option<usize>,
        /// Population [default: 100 (config evolve.dungeon_population)].
        #[arg(long)]
        population: Option<usize>,
        /// Output directory.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Skip the playability check.
        #[arg(long)]
        no_check: bool,
        /// The enemies of the written game: `random` (EvolvedNPC sprites with the random
        /// policy), `static` (static guards), or an evolved individual's file (copied to
        /// DIR/npc.sexp and used as the EvolvedNPC policy). The check plays static guards.
        #[arg(long, value_name = "random|static|FILE", default_value = "random")]
        npc: String,
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// Evolve NPC behaviour; writes the best individual as an S-expression to --out, with
    /// <stem>.csv and <stem>.svg alongside.
    Npc {
        /// Seed of every random choice (same seed, same result).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Generations [default: 50 (config evolve.npc_generations)].
        #[arg(long)]
        generations: Option<usize>,
        /// Population [default: 100 (config evolve.npc_population)].
        #[arg(long)]
        population: Option<usize>,
        /// Output file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Sequential evaluation without the fitness cache (for speed comparisons).
        #[arg(long)]
        naive: bool,
        #[command(flatten)]
        config: ConfigArgs,
    },
}

/// `tablero evolve …`.
pub fn run(cmd: EvolveCommand) -> ExitCode {
    use tablero::evolve::run;
    let (args, sets) = match &cmd {
        EvolveCommand::Dungeon {
            config,
            generations,
            population,
            ..
        } => (
            config,
            [
                generations.map(|g| format!("evolve.dungeon_generations={g}")),
                population.map(|p| format!("evolve.dungeon_population={p}")),
            ],
        ),
        EvolveCommand::Npc {
            config,
            generations,
            population,
            ..
        } => (
            config,
            [
                generations.map(|g| format!("evolve.npc_generations={g}")),
                population.map(|p| format!("evolve.npc_population={p}")),
            ],
        ),
    };
    let mut overrides = args.set.clone();
    overrides.extend(sets.into_iter().flatten());
    let config = match Config::load(args.config.as_deref(), &overrides) {
        Ok(c) => c,
        Err(e) => return usage(&e.to_string()),
    };
    init_logging(&config.log.level);
    let result = match &cmd {
        EvolveCommand::Dungeon {
            seed,
            out,
            no_check,
            npc,
            ..
        } => {
            let bar = Progress::new(
                config.evolve.dungeon_params().generations + 1,
                "generations",
            );
            let step = |line: &str| bar.step(line);
            run::dungeon(&config.evolve, *seed, out, !no_check, npc, &step)
        }
        EvolveCommand::Npc {
            seed, out, naive, ..
        } => {
            let bar = Progress::new(
                run::gp_params(&config.evolve).generations + 1,
                "generations",
            );
            let step = |line: &str| bar.step(line);
            run::npc(&config.evolve, *seed, out, *naive, &step)
        }
    };
    match result {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => failure(e),
    }
}
