//! Planning benchmarks (`tablero plan --bench DIR`): the PDDL tasks of a folder laid out as the
//! IPC collections are (one subfolder per domain; in it `domain.pddl`, or a domain file per
//! problem, see [`tasks`]), each a "game" of a sharded batch (index = position in the sorted
//! list), and the figures planning papers report over them: coverage (tasks solved), the cost
//! of the plans found (total and mean over the solved tasks), expansions, and coverage per
//! domain.
//!
//! With one planner on one thread and an expansion bound a task's outcome, plan cost and
//! expansions are the same on every machine; the wall-clock seconds are not.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::stats::wilson95;

/// The `kind` of `tablero plan --bench` records.
pub const RECORDS_KIND: &str = "plan bench";

/// One task: a domain and a problem file, relative to the benchmark folder.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BenchTask {
    /// The domain file.
    pub domain: String,
    /// The problem file.
    pub problem: String,
}

impl BenchTask {
    /// The task's domain name: its folder.
    pub fn group(&self) -> &str {
        self.problem.split('/').next().unwrap_or("")
    }
}

/// A benchmark folder that cannot be listed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A folder cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A problem without a domain file.
    #[error("{0}: no domain file (domain.pddl or <problem>-domain.pddl beside it)")]
    NoDomain(String),
    /// No task at all.
    #[error("{0}: no PDDL problems in its subfolders")]
    Empty(String),
}

/// The sorted names of the entries of `dir` that `keep` accepts.
fn names(dir: &Path, keep: fn(&Path) -> bool) -> Result<Vec<String>, BenchError> {
    let io = |source| BenchError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if keep(&path) {
            if let Some(name) = path.file_name() {
                names.push(name.to_string_lossy().into_owned());
            }
        }
    }
    names.sort();
    Ok(names)
}

/// Whether `path` is a `.pddl` file.
fn is_pddl(path: &Path) -> bool {
    path.is_file() && path.extension().is_some_and(|e| e == "pddl")
}

/// The tasks of the benchmark folder `dir`, sorted by folder and problem: every `.pddl` file
/// of a subfolder that is not a domain file (`domain.pddl`, `*-domain.pddl`, `domain_*.pddl`)
/// with the first of `<stem>-domain.pddl`, `<p>-domain.pddl` (`<p>`: the stem up to its
/// first `-`, as `p01-domain.pddl` serves `p01-s2-n1.pddl`), `domain_<stem>.pddl` and
/// `domain.pddl` that is beside it.
pub fn tasks(dir: &Path) -> Result<Vec<BenchTask>, BenchError> {
    let folders = names(dir, Path::is_dir)?;
    let mut tasks = Vec::new();
    for folder in folders {
        let files = names(&dir.join(&folder), is_pddl)?;
        let is_domain =
            |n: &str| n == "domain.pddl" || n.ends_with("-domain.pddl") || n.starts_with("domain_");
        for problem in files.iter().filter(|n| !is_domain(n)) {
            let stem = problem.trim_end_matches(".pddl");
            let prefix = stem.split('-').next().unwrap_or(stem);
            let candidates = [
                format!("{stem}-domain.pddl"),
                format!("{prefix}-domain.pddl"),
                format!("domain_{stem}.pddl"),
                "domain.pddl".to_string(),
            ];
            let Some(domain) = candidates.into_iter().find(|c| files.contains(c)) else {
                return Err(BenchError::NoDomain(format!("{folder}/{problem}")));
            };
            tasks.push(BenchTask {
                domain: format!("{folder}/{domain}"),
                problem: format!("{folder}/{problem}"),
            });
        }
    }
    if tasks.is_empty() {
        return Err(BenchError::Empty(dir.display().to_string()));
    }
    Ok(tasks)
}

/// What every task of a benchmark depends on: every shard of one benchmark has the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchRun {
    /// The tasks, in order (relative to the folder, so shards may find it anywhere).
    pub tasks: Vec<BenchTask>,
    /// The planner (`portfolio` or a member).
    pub planner: String,
    /// Optimal planners only.
    pub optimal: bool,
    /// Improve the first plan until the deadline.
    pub anytime: bool,
    /// Planner threads (0: one per core).
    pub threads: usize,
    /// Seconds per task.
    pub timeout: f64,
    /// Node-storage bound per task, MiB.
    pub memory_mb: Option<u64>,
    /// Expansion bound per task.
    pub max_expansions: Option<u64>,
}

/// One task's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// The domain file.
    pub domain: String,
    /// The problem file.
    pub problem: String,
    /// A plan was found.
    pub solved: bool,
    /// `tablero plan`'s exit reason: solved, unsolvable, out of expansions, out of time, …
    pub status: String,
    /// The plan's cost.
    pub cost: Option<u64>,
    /// The plan's length.
    pub length: Option<usize>,
    /// Proved optimal.
    pub optimal: bool,
    /// The planner that found the plan.
    pub planner: Option<String>,
    /// Nodes expanded.
    pub expanded: u64,
    /// Wall-clock seconds (parse, ground and search).
    pub seconds: f64,
}

/// Coverage of one domain.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DomainSummary {
    /// The domain's folder.
    pub domain: String,
    /// Its tasks.
    pub tasks: usize,
    /// Solved.
    pub solved: usize,
    /// Total plan cost over the solved.
    pub total_cost: u64,
}

/// The benchmark's result (the JSON line of `tablero plan --bench`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchSummary {
    /// Tasks run.
    pub tasks: usize,
    /// Tasks solved (coverage).
    pub solved: usize,
    /// solved / tasks, with its Wilson 95 % interval.
    pub coverage: f64,
    /// Wilson 95 % interval of the coverage.
    pub wilson95: [f64; 2],
    /// Plans proved optimal.
    pub optimal: usize,
    /// Sum of the plan costs over the solved tasks.
    pub total_cost: u64,
    /// Mean plan cost over the solved tasks (0 when none).
    pub mean_cost: f64,
    /// Nodes expanded, all tasks.
    pub total_expanded: u64,
    /// Mean nodes expanded over the solved tasks (0 when none).
    pub mean_expanded_solved: f64,
    /// Tasks per outcome (`solved`, `unsolvable`, `out of expansions`, …), sorted by name.
    pub outcomes: std::collections::BTreeMap<String, usize>,
    /// Coverage per domain, in the run's order.
    pub domains: Vec<DomainSummary>,
    /// The planner.
    pub planner: String,
    /// Expansion bound per task.
    pub max_expansions: Option<u64>,
    /// Wall-clock seconds of all tasks together, to 0.1 ms (the only figure that differs
    /// between runs).
    pub seconds: f64,
}

/// The benchmark's statistics from its records (in index order): what `tablero plan --bench`
/// prints, and `tablero merge` from the records of its shards.
pub fn summarize(run: &BenchRun, records: &[TaskRecord]) -> BenchSummary {
    let solved: Vec<&TaskRecord> = records.iter().filter(|r| r.solved).collect();
    let n = solved.len();
    let total_cost: u64 = solved.iter().filter_map(|r| r.cost).sum();
    let solved_expanded: u64 = solved.iter().map(|r| r.expanded).sum();
    let mean = |x: f64| if n == 0 { 0.0 } else { x / n as f64 };
    let mut outcomes = std::collections::BTreeMap::new();
    let mut domains: Vec<DomainSummary> = Vec::new();
    for r in records {
        *outcomes.entry(r.status.clone()).or_insert(0) += 1;
        let group = r.problem.split('/').next().unwrap_or("");
        if domains.last().is_none_or(|d| d.domain != group) {
            domains.push(DomainSummary {
                domain: group.to_string(),
                tasks: 0,
                solved: 0,
                total_cost: 0,
            });
        }
        if let Some(d) = domains.last_mut() {
            d.tasks += 1;
            d.solved += usize::from(r.solved);
            d.total_cost += if r.solved { r.cost.unwrap_or(0) } else { 0 };
        }
    }
    let tasks = records.len();
    BenchSummary {
        tasks,
        solved: n,
        coverage: if tasks == 0 {
            0.0
        } else {
            n as f64 / tasks as f64
        },
        wilson95: wilson95(n as f64, tasks as f64),
        optimal: solved.iter().filter(|r| r.optimal).count(),
        total_cost,
        mean_cost: mean(total_cost as f64),
        total_expanded: records.iter().map(|r| r.expanded).sum(),
        mean_expanded_solved: mean(solved_expanded as f64),
        outcomes,
        domains,
        planner: run.planner.clone(),
        max_expansions: run.max_expansions,
        seconds: (records.iter().map(|r| r.seconds).sum::<f64>() * 1e4).round() / 1e4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_are_found_as_the_ipc_collections_lay_them_out() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/plan_data/ipc");
        let t = tasks(&dir).unwrap();
        let find = |p: &str| t.iter().find(|x| x.problem == p).unwrap();
        assert_eq!(
            find("psr-small/p01-s2-n1-l2-f50.pddl").domain,
            "psr-small/p01-domain.pddl"
        );
        assert_eq!(
            find("miconic-fulladl/f2-0.pddl").domain,
            "miconic-fulladl/domain.pddl"
        );
        assert_eq!(
            t.iter().filter(|x| x.group() == "miconic-fulladl").count(),
            2
        );
        assert!(t.windows(2).all(|w| w[0] < w[1]), "sorted");
        assert!(t.iter().all(|x| !x.problem.ends_with("domain.pddl")));
        let empty = tempfile::tempdir().unwrap();
        assert!(matches!(tasks(empty.path()), Err(BenchError::Empty(_))));
        std::fs::create_dir(empty.path().join("d")).unwrap();
        std::fs::write(empty.path().join("d/p1.pddl"), "").unwrap();
        let e = tasks(empty.path()).unwrap_err().to_string();
        assert!(e.starts_with("d/p1.pddl: no domain file"), "{e}");
    }

    #[test]
    fn the_summary_counts_coverage_cost_and_domains() {
        let rec = |problem: &str, cost: Option<u64>, expanded: u64| TaskRecord {
            domain: String::new(),
            problem: problem.into(),
            solved: cost.is_some(),
            status: if cost.is_some() {
                "solved"
            } else {
                "out of expansions"
            }
            .into(),
            cost,
            length: cost.map(|c| c as usize),
            optimal: cost == Some(4),
            planner: None,
            expanded,
            seconds: 0.25,
        };
        let records = [
            rec("a/p1.pddl", Some(4), 10),
            rec("a/p2.pddl", None, 100),
            rec("b/p1.pddl", Some(8), 30),
        ];
        let run = BenchRun {
            tasks: Vec::new(),
            planner: "hff".into(),
            optimal: false,
            anytime: false,
            threads: 1,
            timeout: 10.0,
            memory_mb: None,
            max_expansions: Some(100),
        };
        let s = summarize(&run, &records);
        assert_eq!((s.tasks, s.solved, s.optimal), (3, 2, 1));
        assert_eq!((s.total_cost, s.mean_cost), (12, 6.0));
        assert_eq!((s.total_expanded, s.mean_expanded_solved), (140, 20.0));
        assert_eq!(s.outcomes["out of expansions"], 1);
        assert_eq!(s.domains.len(), 2);
        assert_eq!((s.domains[0].tasks, s.domains[0].solved), (2, 1));
        assert_eq!(s.seconds, 0.75);
        assert_eq!(s.wilson95, wilson95(2.0, 3.0));
    }
}
