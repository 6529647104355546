//! The external Fast Downward backend: writes the PDDL to a private temporary directory, runs
//! the Fast Downward driver (`fast-downward.py` or a `fast-downward` executable) with an alias
//! or a search string, and reads `sas_plan`. Found via the config key
//! `planning.fast_downward`, else the `TABLERO_FAST_DOWNWARD` environment variable, else
//! `fast-downward` / `fast-downward.py` on `PATH`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum FdError {
    #[error(
        "Fast Downward not found (set planning.fast_downward, or TABLERO_FAST_DOWNWARD, or put fast-downward on PATH)"
    )]
    NotFound,
    #[error("cannot run Fast Downward ({0})")]
    Io(String),
    #[error("Fast Downward found no plan (exit status {status}): {tail}")]
    NoPlan { status: String, tail: String },
    #[error("Fast Downward timed out after {0:.1} s")]
    Timeout(f64),
}

/// How to call Fast Downward.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FdConfig {
    /// The driver (`.../fast-downward.py`) or an executable; `None`: search (see module doc).
    pub path: Option<PathBuf>,
    /// `--alias` (used when `search` is empty), e.g. `lama-first`.
    pub alias: String,
    /// A `--search` string such as `astar(lmcut())`; empty: use the alias.
    pub search: String,
    /// Python interpreter for a `.py` driver.
    pub python: String,
}

impl Default for FdConfig {
    fn default() -> Self {
        FdConfig {
            path: None,
            alias: "lama-first".into(),
            search: String::new(),
            python: "python3".into(),
        }
    }
}

/// A plan from Fast Downward.
#[derive(Debug, Clone)]
pub struct FdPlan {
    /// Ground actions, `(name arg ...)`.
    pub steps: Vec<String>,
    /// Wall time of the whole call (translator and search, process start included).
    pub seconds: f64,
}

/// The Fast Downward driver to use, if any.
pub fn locate(configured: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = configured.filter(|p| !p.as_os_str().is_empty()) {
        return Some(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("TABLERO_FAST_DOWNWARD").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["fast-downward", "fast-downward.py"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn unique_dir() -> Result<PathBuf, FdError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let base = std::env::temp_dir().join(format!(
        "tablero-fd-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&base).map_err(|e| FdError::Io(e.to_string()))?;
    Ok(base)
}

/// Runs Fast Downward on a domain and problem text with a wall-clock limit.
pub fn solve(
    domain: &str,
    problem: &str,
    cfg: &FdConfig,
    timeout: Duration,
) -> Result<FdPlan, FdError> {
    let driver = locate(cfg.path.as_deref()).ok_or(FdError::NotFound)?;
    let dir = unique_dir()?;
    let result = run_in(&dir, &driver, domain, problem, cfg, timeout);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_in(
    dir: &Path,
    driver: &Path,
    domain: &str,
    problem: &str,
    cfg: &FdConfig,
    timeout: Duration,
) -> Result<FdPlan, FdError> {
    let io = |e: std::io::Error| FdError::Io(e.to_string());
    std::fs::write(dir.join("domain.pddl"), domain).map_err(io)?;
    std::fs::write(dir.join("problem.pddl"), problem).map_err(io)?;
    let mut cmd = if driver.extension().is_some_and(|e| e == "py") {
        let mut c = Command::new(&cfg.python);
        c.arg(driver);
        c
    } else {
        Command::new(driver)
    };
    let secs = timeout.as_secs().max(1);
    cmd.current_dir(dir)
        .arg("--overall-time-limit")
        .arg(format!("{secs}s"));
    if cfg.search.is_empty() {
        cmd.arg("--alias").arg(&cfg.alias);
        cmd.arg("domain.pddl").arg("problem.pddl");
    } else {
        cmd.arg("domain.pddl")
            .arg("problem.pddl")
            .arg("--search")
            .arg(&cfg.search);
    }
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(io)?;
    // Drain the pipes on threads so a chatty planner cannot block on a full pipe.
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = out.as_mut() {
            let _ = std::io::Read::read_to_string(o, &mut s);
        }
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = err.as_mut() {
            let _ = std::io::Read::read_to_string(e, &mut s);
        }
        s
    });
    let hard = timeout + Duration::from_secs(5);
    let status = loop {
        match child.try_wait().map_err(io)? {
            Some(s) => break s,
            None if start.elapsed() > hard => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(FdError::Timeout(start.elapsed().as_secs_f64()));
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let stdout = t_out.join().unwrap_or_default();
    let stderr = t_err.join().unwrap_or_default();
    let seconds = start.elapsed().as_secs_f64();
    // Anytime aliases write sas_plan.1, .2, ...: the last is the best.
    let mut plan_file = dir.join("sas_plan");
    for i in 1.. {
        let p = dir.join(format!("sas_plan.{i}"));
        if p.is_file() {
            plan_file = p;
        } else {
            break;
        }
    }
    match std::fs::read_to_string(&plan_file) {
        Ok(text) => Ok(FdPlan {
            steps: text
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with('('))
                .map(|l| l.to_ascii_lowercase())
                .collect(),
            seconds,
        }),
        Err(_) => {
            let all = format!("{stdout}{stderr}");
            let tail: Vec<&str> = all.lines().rev().take(3).collect();
            if seconds >= timeout.as_secs_f64() {
                return Err(FdError::Timeout(seconds));
            }
            Err(FdError::NoPlan {
                status: status.to_string(),
                tail: tail.into_iter().rev().collect::<Vec<_>>().join(" | "),
            })
        }
    }
}
