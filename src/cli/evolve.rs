//! `tablero evolve dungeon|npc`: the dungeon GA and the NPC GP; one JSON line on stdout.
//! With `--seeds N`, a batch of N runs from seeds `--seed`, `--seed`+1, … (shardable: run i
//! is game i), each writing into its own `seed-S` folder, and the statistics over the runs
//! ([`tablero::tournament::evolve_seeds`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use tablero::config::{Config, EvolveConfig};
use tablero::tournament::evolve_seeds::{self, SeedRecord, SeedsRun};

use super::merge::ShardArgs;
use super::progress::Progress;
use super::{ConfigArgs, failure, init_logging, print_json, usage};

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
        /// Run N seeds from --seed (seed, seed+1, …; shardable) and print the statistics over
        /// them; run i writes into the folder `seed-<seed+i>` of DIR [default: one run].
        #[arg(long, value_name = "N")]
        seeds: Option<usize>,
        #[command(flatten)]
        shard: ShardArgs,
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
        /// Run N seeds from --seed (seed, seed+1, …; shardable) and print the statistics over
        /// them; run i writes FILE's name into the folder `seed-<seed+i>` beside FILE
        /// [default: one run].
        #[arg(long, value_name = "N")]
        seeds: Option<usize>,
        #[command(flatten)]
        shard: ShardArgs,
        /// Sequential evaluation without the fitness cache (for speed comparisons).
        #[arg(long)]
        naive: bool,
        #[command(flatten)]
        config: ConfigArgs,
    },
}

/// `tablero evolve …`.
pub fn run(cmd: EvolveCommand) -> ExitCode {
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
    let (seeds, shard) = match &cmd {
        EvolveCommand::Dungeon { seeds, shard, .. } | EvolveCommand::Npc { seeds, shard, .. } => {
            (*seeds, shard)
        }
    };
    if let Some(n) = seeds {
        return batch(&cmd, &config.evolve, n, shard);
    }
    if shard.shard.is_some() || shard.records_file.is_some() {
        return usage("--shard and --records-file need --seeds N");
    }
    let (seed, out) = seed_and_out(&cmd);
    let bar = Progress::new(generations(&cmd, &config.evolve) + 1, "generations");
    let step = |line: &str| bar.step(line);
    match one(&cmd, &config.evolve, seed, out, &step) {
        Ok(v) => {
            drop(bar);
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => failure(e),
    }
}

/// The `--seed` and `--out` of `cmd`.
fn seed_and_out(cmd: &EvolveCommand) -> (u64, &Path) {
    match cmd {
        EvolveCommand::Dungeon { seed, out, .. } | EvolveCommand::Npc { seed, out, .. } => {
            (*seed, out)
        }
    }
}

/// Generations of each run of `cmd`.
fn generations(cmd: &EvolveCommand, cfg: &EvolveConfig) -> usize {
    match cmd {
        EvolveCommand::Dungeon { .. } => cfg.dungeon_params().generations,
        EvolveCommand::Npc { .. } => tablero::evolve::run::gp_params(cfg).generations,
    }
}

/// One run of `cmd` from `seed`, writing into `out`; its JSON line.
fn one(
    cmd: &EvolveCommand,
    cfg: &EvolveConfig,
    seed: u64,
    out: &Path,
    step: &dyn Fn(&str),
) -> Result<serde_json::Value, tablero::evolve::run::RunError> {
    use tablero::evolve::run;
    match cmd {
        EvolveCommand::Dungeon { no_check, npc, .. } => {
            run::dungeon(cfg, seed, out, !no_check, npc, step)
        }
        EvolveCommand::Npc { naive, .. } => run::npc(cfg, seed, out, *naive, step),
    }
}

/// Where run `seed` of a batch writes: the folder `seed-S` in the dungeon's DIR, or in the
/// NPC file's folder with the file's name.
fn seed_out(cmd: &EvolveCommand, out: &Path, seed: u64) -> PathBuf {
    let folder = format!("seed-{seed}");
    match cmd {
        EvolveCommand::Dungeon { .. } => out.join(folder),
        EvolveCommand::Npc { .. } => {
            let parent = out.parent().unwrap_or_else(|| Path::new(""));
            let name = out.file_name().unwrap_or_else(|| "npc.sexp".as_ref());
            parent.join(folder).join(name)
        }
    }
}

/// The identity of the batch `cmd` of `seeds` runs: everything its results depend on.
fn seeds_run(cmd: &EvolveCommand, cfg: &EvolveConfig, seeds: usize) -> SeedsRun {
    let mut settings = serde_json::to_value(cfg).unwrap_or_default();
    let (generator, population, flags) = match cmd {
        EvolveCommand::Dungeon { no_check, npc, .. } => (
            "dungeon",
            cfg.dungeon_params().population,
            serde_json::json!({"check": !no_check, "npc": npc}),
        ),
        EvolveCommand::Npc { naive, .. } => (
            "npc",
            tablero::evolve::run::gp_params(cfg).population,
            serde_json::json!({"naive": naive}),
        ),
    };
    if let Some(map) = settings.as_object_mut() {
        // Threads change the speed, not the result.
        map.remove("npc_threads");
        map.insert("flags".into(), flags);
    }
    SeedsRun {
        generator: generator.into(),
        seed: seed_and_out(cmd).0,
        seeds,
        generations: generations(cmd, cfg),
        population,
        settings,
    }
}

/// `tablero evolve … --seeds N`: the shard's runs, a progress line each, their records, and
/// the statistics over them as one JSON line.
fn batch(cmd: &EvolveCommand, cfg: &EvolveConfig, seeds: usize, shard: &ShardArgs) -> ExitCode {
    if seeds == 0 {
        return usage("--seeds must be at least 1");
    }
    let run = seeds_run(cmd, cfg, seeds);
    let out = seed_and_out(cmd).1;
    let part = shard.shard();
    let bar = Progress::new(part.count(seeds), "runs");
    let mut records = Vec::new();
    for i in part.indices(seeds) {
        let seed = run.seed_of(i);
        let line = match one(cmd, cfg, seed, &seed_out(cmd, out, seed), &|_| {}) {
            Ok(v) => v,
            Err(e) => return failure(e),
        };
        let r = SeedRecord::from_line(line);
        bar.step(&format!(
            "run {}/{seeds}: {} seed {seed}: best fitness {:.4} in {:.1} s",
            i + 1,
            run.generator,
            r.best_fitness,
            r.seconds
        ));
        records.push((i, r));
    }
    drop(bar);
    let refs: Vec<(usize, &SeedRecord)> = records.iter().map(|(i, r)| (*i, r)).collect();
    if let Err(code) = shard.write(evolve_seeds::RECORDS_KIND, &run, seeds, &refs) {
        return code;
    }
    let records: Vec<SeedRecord> = records.into_iter().map(|(_, r)| r).collect();
    print_json(&evolve_seeds::summarize(&run, &records))
}
