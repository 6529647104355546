//! Classical planning, Fast-Downward-like: PDDL parsing ([`pddl`]), grounding with relaxed
//! reachability ([`ground`]) into a STRIPS task with conditional effects ([`task`]), search
//! engines with pluggable heuristics ([`search`]) and a concurrent anytime portfolio
//! ([`portfolio`]). Pure computation: no I/O; CPU work runs on std threads.
//!
//! Entry point: [`solve`] (text in, validated plan out) or [`solve_task`] for a grounded task.

pub mod cli;
pub mod controller;
pub mod eliminate;
pub mod examples;
pub mod fast_downward;
pub mod ground;
pub mod normalize;
pub mod pddl;
pub mod portfolio;
pub mod relevance;
pub mod search;
pub mod task;
pub mod vgdl;

use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Options for [`solve`].
#[derive(Debug, Clone)]
pub struct PlanOptions {
    /// Wall-clock limit for grounding and search together.
    pub timeout: Duration,
    /// Only optimal planners; the plan returned is provably shortest.
    pub optimal: bool,
    /// Worker threads (0: the available parallelism).
    pub threads: usize,
    /// Keep improving the first plan until the deadline (satisficing mode).
    pub anytime: bool,
    /// Run one named member (see [`portfolio::MEMBER_NAMES`]) instead of the portfolio.
    pub planner: Option<String>,
    /// Most bytes of search node storage (state registries, per-node data, open lists; all
    /// members together). Reaching it without a plan is [`PlanError::OutOfMemory`]. The
    /// grounded task and heuristic tables are not counted. `None`: no bound beyond each
    /// engine's state limit.
    pub memory_limit: Option<u64>,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            memory_limit: None,
            timeout: Duration::from_secs(10),
            optimal: false,
            threads: 0,
            anytime: false,
            planner: None,
        }
    }
}

/// A validated plan, serialisable as one JSON object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanResult {
    /// Ground action names, e.g. `"(move up c1_1 c1_2)"`.
    pub plan: Vec<String>,
    pub length: usize,
    pub cost: u64,
    /// Wall time of the whole call (parse, ground, search).
    pub seconds: f64,
    /// Wall time until the returned plan was found.
    pub found_seconds: f64,
    /// The portfolio member (stage) that found the returned plan.
    pub planner: String,
    /// Whether the plan is proved optimal.
    pub optimal: bool,
    /// Nodes expanded by all members together.
    pub expanded: u64,
    /// The most bytes of search node storage held at once (see [`PlanOptions::memory_limit`]).
    pub peak_memory: u64,
    /// Operator indices into the grounded task (for replaying with [`task::Task`]).
    #[serde(skip)]
    pub ops: Vec<task::OpId>,
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum PlanError {
    #[error("domain: {0}")]
    Domain(pddl::PddlError),
    #[error("problem: {0}")]
    Problem(pddl::PddlError),
    #[error("grounding: {0}")]
    Ground(#[from] ground::GroundError),
    #[error("the task has no plan (the search space was exhausted)")]
    Unsolvable,
    #[error("no plan found within {0:.3} s")]
    Timeout(f64),
    #[error(
        "out of memory: the search's node storage reached {limit_mib} MiB without a plan after {seconds:.3} s"
    )]
    OutOfMemory { limit_mib: u64, seconds: f64 },
    #[error("no plan within {0} expansions")]
    ExpansionLimit(u64),
    #[error("every planner gave up without a plan after {0:.3} s (only incomplete planners ran)")]
    GaveUp(f64),
    #[error("unknown planner '{0}' (known: {known})", known = portfolio::MEMBER_NAMES.join(", "))]
    UnknownPlanner(String),
}

/// Parses, grounds, prunes what is irrelevant to the goal ([`relevance`]) and plans. The plan
/// is validated on the grounded task.
///
/// Blocking and CPU-heavy (it runs the portfolio on its own std threads and returns by the
/// deadline): call it from a std thread or `spawn_blocking`, never on a tokio worker.
pub fn solve(
    domain_text: &str,
    problem_text: &str,
    options: &PlanOptions,
) -> Result<PlanResult, PlanError> {
    let start = Instant::now();
    let domain = pddl::parse_domain(domain_text).map_err(PlanError::Domain)?;
    let problem = pddl::parse_problem(problem_text).map_err(PlanError::Problem)?;
    let task = match ground_relevant(&domain, &problem, start + options.timeout) {
        Ok((t, _)) => t,
        Err(ground::GroundError::GoalUnreachable(_)) => return Err(PlanError::Unsolvable),
        Err(ground::GroundError::OutOfTime) => {
            return Err(PlanError::Timeout(options.timeout.as_secs_f64()));
        }
        Err(e) => return Err(e.into()),
    };
    solve_task(task, options, start)
}

/// Grounds a PDDL task within the default limits and `deadline`, then prunes what is
/// irrelevant to its goal ([`relevance`]); with the task, how many facts and operators were
/// irrelevant.
pub fn ground_relevant(
    domain: &pddl::Domain,
    problem: &pddl::Problem,
    deadline: Instant,
) -> Result<(task::Task, (usize, usize)), ground::GroundError> {
    let limits = ground::GroundLimits {
        deadline: Some(deadline),
        ..ground::GroundLimits::default()
    };
    let mut task = ground::ground_within(domain, problem, limits)?;
    let pruned = relevance::prune_irrelevant(&mut task);
    Ok((task, pruned))
}

/// Plans on a grounded task; `start` is when the caller's clock started (for the deadline).
pub fn solve_task(
    task: task::Task,
    options: &PlanOptions,
    start: Instant,
) -> Result<PlanResult, PlanError> {
    search_task(task, options, start).outcome
}

/// What [`search_task`] did: the plan or why there is none, and the search's counters either way.
#[derive(Debug, Clone)]
pub struct Searched {
    pub outcome: Result<PlanResult, PlanError>,
    /// Nodes expanded by all members together.
    pub expanded: u64,
    /// The most bytes of search node storage held at once.
    pub peak_memory: u64,
}

/// [`solve_task`] with the counters of a failed search too.
pub fn search_task(task: task::Task, options: &PlanOptions, start: Instant) -> Searched {
    search_task_bounded(task, options, None, start)
}

/// [`search_task`] stopped after `max_expanded` expansions (all members together), if given:
/// with one planner on one thread, its outcome, plan and counters are the same on every
/// machine (the deadline aside).
pub fn search_task_bounded(
    task: task::Task,
    options: &PlanOptions,
    max_expanded: Option<u64>,
    start: Instant,
) -> Searched {
    let members = match &options.planner {
        Some(name) if name != "portfolio" => {
            match portfolio::member(name, options.anytime && !options.optimal) {
                Some(m) => vec![m],
                None => {
                    return Searched {
                        outcome: Err(PlanError::UnknownPlanner(name.clone())),
                        expanded: 0,
                        peak_memory: 0,
                    };
                }
            }
        }
        _ => portfolio::default_members(options.optimal, options.anytime),
    };
    let shared = search::Shared::new(task);
    let report = portfolio::run(
        Arc::clone(&shared),
        &portfolio::PortfolioOptions {
            deadline: start + options.timeout,
            threads: options.threads,
            anytime: options.anytime,
            members,
            memory_limit: options.memory_limit,
            max_expanded,
        },
    );
    let seconds = start.elapsed().as_secs_f64();
    let outcome = match report.best {
        Some(found) => Ok(PlanResult {
            plan: found
                .plan
                .iter()
                .map(|&o| shared.task.operators[o as usize].name.clone())
                .collect(),
            length: found.plan.len(),
            cost: found.cost,
            seconds,
            found_seconds: found.found_after.as_secs_f64(),
            planner: found.planner,
            optimal: found.optimal,
            expanded: report.stats.expanded,
            peak_memory: report.peak_memory,
            ops: found.plan,
        }),
        None => Err(match report.outcome {
            portfolio::Outcome::Unsolvable => PlanError::Unsolvable,
            portfolio::Outcome::OutOfMemory => PlanError::OutOfMemory {
                limit_mib: options.memory_limit.unwrap_or(0) / (1024 * 1024),
                seconds,
            },
            portfolio::Outcome::ExpansionLimit => {
                PlanError::ExpansionLimit(max_expanded.unwrap_or(0))
            }
            _ if start.elapsed() < options.timeout => PlanError::GaveUp(seconds),
            _ => PlanError::Timeout(seconds),
        }),
    };
    Searched {
        outcome,
        expanded: report.stats.expanded,
        peak_memory: report.peak_memory,
    }
}

#[cfg(test)]
mod tests;
