//! Sharded batch runs on the command line: the `--shard K/N` and `--records-file` flags every
//! batch command (`match`, `diplomacy play`, `gvgai sweep`, `evolve … --seeds`, `plan --bench`) takes, and `tablero merge`, which
//! reads the records files of a run's shards and prints the summary line the whole run prints,
//! computed by the command's own summary function.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;
use tablero::tournament::shard::{self, Merged, RecordsError, Shard};
use tablero::tournament::{diplomacy, evolve_seeds, go_match, gvgai_sweep, plan_bench};

use super::{failure, print_json};

/// `--shard` and `--records-file`.
#[derive(Debug, Args)]
pub struct ShardArgs {
    /// Play only shard K of N (1 <= K <= N): the games whose 0-based index i has
    /// i mod N = K - 1, each seeded as in the whole run. Needs --records-file; `tablero merge`
    /// combines the shards' files [default: 1/1, every game].
    #[arg(long, value_name = "K/N", requires = "records_file")]
    pub shard: Option<Shard>,
    /// Write one JSON line per game played (the run's parameters, the game's index and its
    /// record) to FILE, for `tablero merge` [default: none].
    #[arg(long, value_name = "FILE")]
    pub records_file: Option<PathBuf>,
}

impl ShardArgs {
    /// The shard to play.
    pub fn shard(&self) -> Shard {
        self.shard.unwrap_or(Shard::WHOLE)
    }

    /// Writes `records` (with their game indices) to the records file, if one is asked for.
    pub fn write<R: Serialize>(
        &self,
        kind: &str,
        run: &impl Serialize,
        total: usize,
        records: &[(usize, &R)],
    ) -> Result<(), ExitCode> {
        let Some(path) = &self.records_file else {
            return Ok(());
        };
        shard::write(path, kind, run, total, self.shard(), records).map_err(failure)
    }
}

/// `tablero merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The records files of every shard of one run (`--records-file` of `tablero match`,
    /// `diplomacy play`, `gvgai sweep`, `evolve … --seeds` or `plan --bench`), in any order.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// `tablero merge FILES…`: checks that the files are the complete records of one run and
/// prints that run's summary line; exit 1 naming the file and line of a record from another
/// run, a game recorded twice, or the games missing.
pub fn run(args: MergeArgs) -> ExitCode {
    match merge(&args.files) {
        Ok(code) => code,
        Err(e) => failure(e),
    }
}

fn merge(files: &[PathBuf]) -> Result<ExitCode, RecordsError> {
    let merged = shard::load(files)?;
    Ok(match merged.kind.as_str() {
        go_match::RECORDS_KIND => {
            let mut summary = go_match::summarize(&merged.run()?, merged.records()?);
            summary.records.clear();
            print_json(&summary)
        }
        diplomacy::RECORDS_KIND => {
            print_json(&diplomacy::summarize(&merged.run()?, &merged.records()?))
        }
        gvgai_sweep::RECORDS_KIND => {
            print_json(&gvgai_sweep::summarize(&merged.run()?, &merged.records()?))
        }
        evolve_seeds::RECORDS_KIND => {
            print_json(&evolve_seeds::summarize(&merged.run()?, &merged.records()?))
        }
        plan_bench::RECORDS_KIND => {
            print_json(&plan_bench::summarize(&merged.run()?, &merged.records()?))
        }
        other => return Err(unknown_kind(&merged, other)),
    })
}

/// A records file of a command that `merge` does not know.
fn unknown_kind(merged: &Merged, kind: &str) -> RecordsError {
    let (path, line) = merged
        .records
        .first()
        .map(|(_, p, l)| (p.clone(), *l))
        .unwrap_or_else(|| (Path::new("").to_path_buf(), 0));
    RecordsError::Record {
        path,
        line,
        kind: kind.to_string(),
        message: "no batch command writes records of this kind (match, diplomacy play, \
                  gvgai sweep, evolve, plan bench)"
            .into(),
    }
}
