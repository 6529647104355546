//! `tablero bench tactics`: tablero's search on every position of a Go tactics suite at each
//! time budget, and the solved rate per category and budget with 95 % Wilson intervals.

use super::stats::wilson95;
use crate::budget::{Budget, CancelFlag};
use crate::go::search::{Decision, Player, SearchParams};
use crate::go::tactics_suite::{Problem, Suite, SuiteError};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One search of one problem.
#[derive(Clone, Debug, Serialize)]
pub struct Attempt {
    pub id: String,
    pub category: String,
    pub seconds: f64,
    /// The move chosen (`resign` when the search resigned).
    pub answer: String,
    pub solved: bool,
    pub playouts: u64,
}

/// Solved count of one category (or `all`) at one budget.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub category: String,
    pub seconds: f64,
    pub solved: usize,
    pub total: usize,
    pub rate: f64,
    pub wilson95: [f64; 2],
    pub mean_playouts: f64,
}

/// The whole run: one row per category and budget, `all` rows last within a budget.
#[derive(Clone, Debug, Serialize)]
pub struct TacticsReport {
    pub positions: usize,
    pub threads: usize,
    pub rows: Vec<Row>,
}

/// Searches `problem` for `seconds` with a fresh player (no tree from other positions).
pub fn attempt(
    problem: &Problem,
    size: usize,
    seconds: f64,
    params: &SearchParams,
) -> Result<Attempt, SuiteError> {
    let game = problem.game(size)?;
    let mut player = Player::new(params.clone());
    let deadline = Instant::now() + Duration::from_secs_f64(seconds.max(0.001));
    let summary = player.search(
        &game,
        problem.to_move,
        &Budget::new(deadline, CancelFlag::new()),
    );
    let (answer, solved) = match summary.decision {
        Decision::Play(mv) => (mv.to_string(), problem.solved_by(mv)),
        Decision::Resign => ("resign".to_string(), false),
    };
    Ok(Attempt {
        id: problem.id.clone(),
        category: problem.category.clone(),
        seconds,
        answer,
        solved,
        playouts: summary.playouts,
    })
}

/// Every problem of `suite` at every budget in `seconds` (in that order); `each` sees every
/// attempt as it ends.
pub fn run_suite(
    suite: &Suite,
    seconds: &[f64],
    params: &SearchParams,
    mut each: impl FnMut(&Attempt),
) -> Result<TacticsReport, SuiteError> {
    let mut attempts = Vec::with_capacity(seconds.len() * suite.problems.len());
    for &s in seconds {
        for problem in &suite.problems {
            let a = attempt(problem, suite.size, s, params)?;
            each(&a);
            attempts.push(a);
        }
    }
    Ok(TacticsReport {
        positions: suite.problems.len(),
        threads: params.threads.max(1),
        rows: rows(&attempts, seconds),
    })
}

fn rows(attempts: &[Attempt], seconds: &[f64]) -> Vec<Row> {
    let mut out = Vec::new();
    for &s in seconds {
        let at: Vec<&Attempt> = attempts.iter().filter(|a| a.seconds == s).collect();
        let mut by_category: BTreeMap<&str, Vec<&Attempt>> = BTreeMap::new();
        for a in &at {
            by_category.entry(&a.category).or_default().push(a);
        }
        for (category, list) in by_category {
            out.push(row(category, s, &list));
        }
        out.push(row("all", s, &at));
    }
    out
}

fn row(category: &str, seconds: f64, list: &[&Attempt]) -> Row {
    let total = list.len();
    let solved = list.iter().filter(|a| a.solved).count();
    let playouts: u64 = list.iter().map(|a| a.playouts).sum();
    Row {
        category: category.to_string(),
        seconds,
        solved,
        total,
        rate: solved as f64 / total.max(1) as f64,
        wilson95: wilson95(solved as f64, total as f64),
        mean_playouts: playouts as f64 / total.max(1) as f64,
    }
}

/// The report as a Markdown table (category, budget, solved/total, rate, interval, playouts).
pub fn table(report: &TacticsReport) -> String {
    let mut out = String::from(
        "| category | s/move | solved | rate | 95 % Wilson | mean playouts |\n|---|---|---|---|---|---|\n",
    );
    for r in &report.rows {
        out.push_str(&format!(
            "| {} | {} | {}/{} | {:.0} % | {:.0}–{:.0} % | {:.0} |\n",
            r.category,
            r.seconds,
            r.solved,
            r.total,
            100.0 * r.rate,
            100.0 * r.wilson95[0],
            100.0 * r.wilson95[1],
            r.mean_playouts
        ));
    }
    out
}
