//! Sharded batch runs and the merge of their records.
//!
//! A batch command (`tablero match`, `diplomacy play`, `gvgai sweep`, `evolve … --seeds`,
//! `plan --bench`) numbers its games
//! 0..total and seeds game `i` from `i` alone. `--shard K/N` plays exactly the games with
//! `i mod N == K - 1`, so the games of N shards together are the games of the whole run,
//! played alike. Each shard writes a records file: one JSON line per game,
//!
//! `{"kind":…,"run":{…},"total":…,"shard":"K/N","index":i,"record":{…}}`,
//!
//! where `kind` names the command, `run` holds every parameter the results depend on, and
//! `record` everything the command's summary needs. [`load`] reads the files of all shards,
//! refuses lines of different kinds or runs, duplicate indices and missing ones (each reported
//! by name), and gives the records in index order: the order the whole run summarizes them
//! in, so the merged summary is the whole run's, to the byte.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

/// Shard `K` of `N` (1 ≤ K ≤ N): the games whose index `i` has `i mod N == K - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: usize,
    n: usize,
}

/// A `--shard` value that is not `K/N` with 1 ≤ K ≤ N.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ShardError {
    /// Not two whole numbers around a slash.
    #[error("shard {0:?}: expected K/N, two whole numbers with 1 <= K <= N, e.g. 2/4")]
    Syntax(String),
    /// `K` is 0: shards are numbered from 1.
    #[error("shard {0:?}: K is numbered from 1 (the first shard is 1/N)")]
    Zero(String),
    /// `K` is above `N`.
    #[error("shard {spec:?}: K = {k} is above N = {n}")]
    Above {
        /// The value as given.
        spec: String,
        /// Its K.
        k: usize,
        /// Its N.
        n: usize,
    },
}

impl Shard {
    /// The whole run: shard 1 of 1.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Shard `k` (1-based) of `n`.
    pub fn new(k: usize, n: usize) -> Result<Shard, ShardError> {
        format!("{k}/{n}").parse()
    }

    /// Whether game `index` (0-based, of the whole run) belongs to this shard.
    pub fn contains(&self, index: usize) -> bool {
        index % self.n == self.k - 1
    }

    /// This shard's game indices among `total`, ascending.
    pub fn indices(&self, total: usize) -> impl Iterator<Item = usize> + use<> {
        (self.k - 1..total).step_by(self.n)
    }

    /// How many of `total` games this shard plays.
    pub fn count(&self, total: usize) -> usize {
        self.indices(total).count()
    }
}

impl Default for Shard {
    /// The whole run.
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(s.to_string());
        let (k, n) = s.trim().split_once('/').ok_or_else(syntax)?;
        let whole = |t: &str| {
            t.parse::<usize>()
                .ok()
                .filter(|_| t.bytes().all(|b| b.is_ascii_digit()))
        };
        let (k, n) = (whole(k).ok_or_else(syntax)?, whole(n).ok_or_else(syntax)?);
        if n == 0 {
            return Err(syntax());
        }
        if k == 0 {
            return Err(ShardError::Zero(s.to_string()));
        }
        if k > n {
            return Err(ShardError::Above {
                spec: s.to_string(),
                k,
                n,
            });
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Reading, writing or merging records files.
#[derive(Debug, Error)]
pub enum RecordsError {
    /// A file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a record line.
    #[error("{path} line {line}: not a record: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The files hold no record at all.
    #[error("no records in {0}")]
    Empty(String),
    /// Records of different commands.
    #[error("{path} line {line} is a `{found}` record, {first} holds `{expected}` records")]
    Kind {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// Its kind.
        found: String,
        /// The first record's kind.
        expected: String,
        /// Where the first record is.
        first: String,
    },
    /// Records of different runs of one command.
    #[error("{path} line {line} is from another run than {first}: {differences}")]
    Run {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// Where the first record is.
        first: String,
        /// The parameters that differ, `key: first vs this`.
        differences: String,
    },
    /// One game twice.
    #[error("game {index} is recorded twice: {first} and {second}")]
    Duplicate {
        /// The game's index.
        index: usize,
        /// Where it is first.
        first: String,
        /// Where it is again.
        second: String,
    },
    /// Games absent from every file.
    #[error("{} of {total} games are missing: {}{}", .missing.len(), list(.missing), .shards)]
    Missing {
        /// The absent indices (at most the first 20 are named).
        missing: Vec<usize>,
        /// Games of the run.
        total: usize,
        /// The shards that would hold them, e.g. " (shard 2/4)", when the files say.
        shards: String,
    },
    /// A record does not fit the command's record type.
    #[error("{path} line {line}: not a `{kind}` record: {message}")]
    Record {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The command.
        kind: String,
        /// What is wrong.
        message: String,
    },
}

/// Indices as `1, 3, 5`, the first 20 of them.
fn list(indices: &[usize]) -> String {
    let mut s: Vec<String> = indices.iter().take(20).map(usize::to_string).collect();
    if indices.len() > 20 {
        s.push("…".into());
    }
    s.join(", ")
}

/// One line of a records file.
#[derive(Debug, Serialize, Deserialize)]
struct Line<R> {
    kind: String,
    run: Value,
    total: usize,
    shard: String,
    index: usize,
    record: R,
}

/// Writes the records file `path` of shard `shard` of the run `run` of command `kind` with
/// `total` games: one line per `(index, record)`, ascending by index.
pub fn write<R: Serialize>(
    path: &Path,
    kind: &str,
    run: &impl Serialize,
    total: usize,
    shard: Shard,
    records: &[(usize, &R)],
) -> Result<(), RecordsError> {
    let io = |source| RecordsError::Io {
        path: path.to_path_buf(),
        source,
    };
    let run = serde_json::to_value(run).map_err(|e| io(std::io::Error::other(e)))?;
    let mut sorted: Vec<&(usize, &R)> = records.iter().collect();
    sorted.sort_by_key(|(i, _)| *i);
    let file = std::fs::File::create(path).map_err(io)?;
    let mut out = BufWriter::new(file);
    for (index, record) in sorted {
        let line = Line {
            kind: kind.to_string(),
            run: run.clone(),
            total,
            shard: shard.to_string(),
            index: *index,
            record,
        };
        serde_json::to_writer(&mut out, &line).map_err(|e| io(std::io::Error::other(e)))?;
        out.write_all(b"\n").map_err(io)?;
    }
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)
}

/// The records of one run, merged from its shards' files.
#[derive(Debug)]
pub struct Merged {
    /// The command.
    pub kind: String,
    /// Its parameters.
    pub run: Value,
    /// Games of the run.
    pub total: usize,
    /// Every record, in index order, with where it was read.
    pub records: Vec<(Value, PathBuf, usize)>,
}

impl Merged {
    /// The run's parameters as the command's type.
    pub fn run<P: DeserializeOwned>(&self) -> Result<P, RecordsError> {
        let (path, line) = self
            .records
            .first()
            .map(|(_, p, l)| (p.clone(), *l))
            .unwrap_or_default();
        serde_json::from_value(self.run.clone()).map_err(|e| RecordsError::Record {
            path,
            line,
            kind: self.kind.clone(),
            message: format!("run: {e}"),
        })
    }

    /// The records as the command's record type, in index order.
    pub fn records<R: DeserializeOwned>(&self) -> Result<Vec<R>, RecordsError> {
        self.records
            .iter()
            .map(|(v, path, line)| {
                serde_json::from_value(v.clone()).map_err(|e| RecordsError::Record {
                    path: path.clone(),
                    line: *line,
                    kind: self.kind.clone(),
                    message: e.to_string(),
                })
            })
            .collect()
    }
}

/// Where a line is, for messages.
fn at(path: &Path, line: usize) -> String {
    format!("{} line {line}", path.display())
}

/// Reads the records files of a run's shards (blank lines skipped) and checks that they are
/// one run, complete and without duplicates.
pub fn load(paths: &[PathBuf]) -> Result<Merged, RecordsError> {
    let mut first: Option<(Line<Value>, String)> = None;
    let mut by_index: BTreeMap<usize, (Value, PathBuf, usize)> = BTreeMap::new();
    let mut shard_counts = BTreeMap::new();
    for path in paths {
        let file = std::fs::File::open(path).map_err(|source| RecordsError::Io {
            path: path.clone(),
            source,
        })?;
        for (n, text) in std::io::BufReader::new(file).lines().enumerate() {
            let text = text.map_err(|source| RecordsError::Io {
                path: path.clone(),
                source,
            })?;
            if text.trim().is_empty() {
                continue;
            }
            let line: Line<Value> =
                serde_json::from_str(&text).map_err(|e| RecordsError::Parse {
                    path: path.clone(),
                    line: n + 1,
                    message: e.to_string(),
                })?;
            let here = (path.clone(), n + 1);
            if let Some((head, where_)) = &first {
                same_run(head, where_, &line, &here)?;
            } else {
                first = Some((clone_head(&line), at(path, n + 1)));
            }
            if let Ok(s) = line.shard.parse::<Shard>() {
                shard_counts.insert(s.n, ());
            }
            if let Some((_, p, l)) = by_index.get(&line.index) {
                return Err(RecordsError::Duplicate {
                    index: line.index,
                    first: at(p, *l),
                    second: at(path, n + 1),
                });
            }
            by_index.insert(line.index, (line.record, here.0, here.1));
        }
    }
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let (head, _) = first.ok_or_else(|| RecordsError::Empty(names.join(", ")))?;
    complete(&by_index, head.total, &shard_counts)?;
    Ok(Merged {
        kind: head.kind,
        run: head.run,
        total: head.total,
        records: by_index.into_values().collect(),
    })
}

/// The first line without its record.
fn clone_head(line: &Line<Value>) -> Line<Value> {
    Line {
        kind: line.kind.clone(),
        run: line.run.clone(),
        total: line.total,
        shard: line.shard.clone(),
        index: line.index,
        record: Value::Null,
    }
}

/// Refuses `line` (at `here`) unless it is of the kind, run and size of `head` (at `first`).
fn same_run(
    head: &Line<Value>,
    first: &str,
    line: &Line<Value>,
    here: &(PathBuf, usize),
) -> Result<(), RecordsError> {
    if line.kind != head.kind {
        return Err(RecordsError::Kind {
            path: here.0.clone(),
            line: here.1,
            found: line.kind.clone(),
            expected: head.kind.clone(),
            first: first.to_string(),
        });
    }
    let mut differences = differences("run", &head.run, &line.run);
    if line.total != head.total {
        differences.push(format!("total: {} vs {}", head.total, line.total));
    }
    if differences.is_empty() {
        return Ok(());
    }
    Err(RecordsError::Run {
        path: here.0.clone(),
        line: here.1,
        first: first.to_string(),
        differences: differences.join("; "),
    })
}

/// The keys under `prefix` whose values differ, `key: a vs b`.
fn differences(prefix: &str, a: &Value, b: &Value) -> Vec<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter()
                .flat_map(|k| {
                    let null = Value::Null;
                    let (va, vb) = (x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null));
                    differences(&format!("{prefix}.{k}"), va, vb)
                })
                .collect()
        }
        _ if a == b => Vec::new(),
        _ => vec![format!("{prefix}: {a} vs {b}")],
    }
}

/// Refuses a merge without every index below `total`.
fn complete<T>(
    by_index: &BTreeMap<usize, T>,
    total: usize,
    shard_counts: &BTreeMap<usize, ()>,
) -> Result<(), RecordsError> {
    let missing: Vec<usize> = (0..total).filter(|i| !by_index.contains_key(i)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    // When every file says the same N, name the shards the missing games belong to.
    let shards = match shard_counts.keys().collect::<Vec<_>>().as_slice() {
        [n] => {
            let mut ks: Vec<usize> = missing.iter().map(|i| i % **n + 1).collect();
            ks.dedup();
            ks.sort_unstable();
            ks.dedup();
            let names: Vec<String> = ks.iter().map(|k| format!("{k}/{n}")).collect();
            format!(
                " (shard{} {})",
                if names.len() > 1 { "s" } else { "" },
                names.join(", ")
            )
        }
        _ => String::new(),
    };
    Err(RecordsError::Missing {
        missing,
        total,
        shards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_values_parse_or_are_refused_by_name() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { k: 2, n: 4 }));
        assert_eq!(Shard::new(1, 1), Ok(Shard::WHOLE));
        assert_eq!("0/2".parse::<Shard>(), Err(ShardError::Zero("0/2".into())));
        assert!(matches!(
            "3/2".parse::<Shard>(),
            Err(ShardError::Above { k: 3, n: 2, .. })
        ));
        for bad in ["a/b", "2", "1/0", "-1/2", "+1/2", "1/2/3", ""] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError::Syntax(bad.into())),
                "{bad}"
            );
        }
        let e = "0/2".parse::<Shard>().unwrap_err().to_string();
        assert!(e.contains("\"0/2\"") && e.contains("from 1"), "{e}");
    }

    #[test]
    fn shards_partition_the_games() {
        for n in 1..=5 {
            let mut all: Vec<usize> = (1..=n)
                .flat_map(|k| Shard::new(k, n).unwrap().indices(11).collect::<Vec<_>>())
                .collect();
            all.sort_unstable();
            assert_eq!(all, (0..11).collect::<Vec<_>>(), "n = {n}");
            for k in 1..=n {
                let s = Shard::new(k, n).unwrap();
                assert!(s.indices(11).all(|i| s.contains(i)));
                assert_eq!(s.count(11), s.indices(11).count());
            }
        }
        assert_eq!(Shard::new(4, 4).unwrap().count(2), 0);
    }

    fn write_shards(dir: &Path, n: usize, run: &Value) -> Vec<PathBuf> {
        (1..=n)
            .map(|k| {
                let shard = Shard::new(k, n).unwrap();
                let path = dir.join(format!("s{k}.jsonl"));
                let recs: Vec<(usize, usize)> = shard.indices(5).map(|i| (i, i * 10)).collect();
                let refs: Vec<(usize, &usize)> = recs.iter().map(|(i, r)| (*i, r)).collect();
                write(&path, "test", run, 5, shard, &refs).unwrap();
                path
            })
            .collect()
    }

    #[test]
    fn numbers_read_back_are_the_numbers_written() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut values: Vec<f64> = (0..20_000)
            .map(|_| rng.r#gen::<f64>() * 10f64.powi(rng.gen_range(-6..6)))
            .collect();
        values.push(0.009_886_288_257_425_744);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.jsonl");
        let refs: Vec<(usize, &f64)> = values.iter().enumerate().collect();
        write(&path, "test", &0, values.len(), Shard::WHOLE, &refs).unwrap();
        let back: Vec<f64> = load(&[path]).unwrap().records().unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&values));
    }

    #[test]
    fn shards_merge_in_index_order_and_bad_sets_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let run = serde_json::json!({"seed": 1, "games": 5});
        let d2 = dir.path().join("two");
        std::fs::create_dir(&d2).unwrap();
        let files = write_shards(&d2, 2, &run);
        let merged = load(&files).unwrap();
        assert_eq!(merged.records::<usize>().unwrap(), vec![0, 10, 20, 30, 40]);
        assert_eq!(merged.run::<Value>().unwrap(), run);
        let e = load(&files[..1]).unwrap_err().to_string();
        assert_eq!(e, "2 of 5 games are missing: 1, 3 (shard 2/2)");
        let dup = [files[0].clone(), files[1].clone(), files[0].clone()];
        let e = load(&dup).unwrap_err().to_string();
        assert!(e.starts_with("game 0 is recorded twice"), "{e}");
        let d3 = dir.path().join("other");
        std::fs::create_dir(&d3).unwrap();
        let other = write_shards(&d3, 2, &serde_json::json!({"seed": 2, "games": 5}));
        let e = load(&[files[0].clone(), other[1].clone()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("run.seed: 1 vs 2"), "{e}");
        std::fs::write(dir.path().join("empty"), "").unwrap();
        assert!(matches!(
            load(&[dir.path().join("empty")]),
            Err(RecordsError::Empty(_))
        ));
    }
}
