//! `tablero plan DOMAIN PROBLEM`: plans a PDDL task with the embedded planner and writes the
//! plan the way Fast Downward does (`sas_plan` unless `--plan-file` says otherwise). Progress
//! goes to stderr, one JSON line to stdout, and the exit code follows Fast Downward's
//! `driver/returncodes.py` where they match (see [`Exit`]). `tablero plan --bench DIR` runs
//! every task of a benchmark folder (shardable) and prints the coverage, cost and expansion
//! figures over them ([`tablero::tournament::plan_bench`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;
use tablero::config::Config;
use tablero::planning::{self, PlanError, PlanOptions, PlanResult, ground, pddl, task::Task};
use tablero::tournament::plan_bench;

use super::ConfigArgs;

/// The exit codes of `tablero plan` (Fast Downward's numbers where they exist).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// A plan was found (and written).
    Solved = 0,
    /// The plan could not be written, or another failure while running.
    Failure = 1,
    /// Bad arguments or input: unreadable files, malformed or unsupported PDDL.
    Usage = 2,
    /// Grounding proved the task unsolvable (a goal fact is unreachable; FD's
    /// TRANSLATE_UNSOLVABLE).
    UnsolvableGround = 10,
    /// A complete search exhausted the state space (FD's SEARCH_UNSOLVABLE).
    Unsolvable = 11,
    /// Every planner stopped without a plan and without a proof (FD's
    /// SEARCH_UNSOLVED_INCOMPLETE).
    Incomplete = 12,
    /// The search's node storage reached `--memory-mb` (FD's SEARCH_OUT_OF_MEMORY).
    OutOfMemory = 22,
    /// `--timeout` passed without a plan (FD's SEARCH_OUT_OF_TIME).
    OutOfTime = 23,
}

impl Exit {
    fn reason(self) -> &'static str {
        match self {
            Exit::Solved => "solved",
            Exit::Failure => "failure",
            Exit::Usage => "bad input",
            Exit::UnsolvableGround | Exit::Unsolvable => "unsolvable",
            Exit::Incomplete => "unsolved incomplete",
            Exit::OutOfMemory => "out of memory",
            Exit::OutOfTime => "out of time",
        }
    }
}

const AFTER_HELP: &str = "\
Exit codes (Fast Downward's numbers where they exist):
  0   solved: the plan is written and printed
  1   failure while running (e.g. the plan file cannot be written)
  2   bad arguments or input (unreadable file, malformed or unsupported PDDL; the message
      names line and column)
  10  unsolvable, proved while grounding (a goal fact is unreachable)
  11  unsolvable, proved by exhausting the search space
  12  no plan and no proof: only incomplete planners ran, every planner gave up, or
      --max-expansions was reached
  22  out of memory: the search's node storage reached --memory-mb
  23  out of time: --timeout passed without a plan

The plan file has one `(action arg ...)` line per step, then `; cost = N (unit cost)` or
`; cost = N (general cost)`, as Fast Downward writes it.";

#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct PlanArgs {
    /// PDDL domain file.
    #[arg(value_name = "DOMAIN", required_unless_present = "bench")]
    domain: Option<PathBuf>,
    /// PDDL problem file.
    #[arg(value_name = "PROBLEM", required_unless_present = "bench")]
    problem: Option<PathBuf>,
    /// Plan every task of DIR instead (laid out as the IPC collections: a subfolder per
    /// domain with domain.pddl, or <problem>-domain.pddl beside each problem); no plan files
    /// are written, one JSON line sums up coverage, costs and expansions (shardable)
    /// [default: none, plan DOMAIN PROBLEM].
    #[arg(long, value_name = "DIR", conflicts_with_all = ["domain", "problem", "plan_file"])]
    bench: Option<PathBuf>,
    /// Stop each search after N expansions (all planners together); with one --planner and
    /// --threads 1 the outcome is the same on every machine [default: no bound].
    #[arg(long, value_name = "N")]
    max_expansions: Option<u64>,
    /// Only optimal planners (A* with admissible heuristics): the plan is provably cheapest.
    #[arg(long)]
    optimal: bool,
    /// Keep improving the first plan until the deadline (satisficing mode); the best is written.
    #[arg(long)]
    anytime: bool,
    /// Wall-clock seconds for parsing, grounding and search [default: 10 (config
    /// planning.timeout)].
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Bound on the search's node storage (states, per-node data, open lists) in MiB;
    /// reaching it stops the search with exit 22. Default: no bound.
    #[arg(long, value_name = "M")]
    memory_mb: Option<u64>,
    /// Where to write the plan (Fast Downward's default: sas_plan in the current folder).
    #[arg(long, value_name = "F", default_value = "sas_plan")]
    plan_file: PathBuf,
    /// portfolio (default) or one member: lama, hadd-lm, hff, bfws, iw1, iw2, siw,
    /// astar-lmcut, astar-hmax, astar-blind, ... (the list is in the error for an unknown one).
    #[arg(long, value_name = "NAME")]
    planner: Option<String>,
    /// Planner threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    #[command(flatten)]
    shard: super::merge::ShardArgs,
    #[command(flatten)]
    config: ConfigArgs,
}

/// The JSON line of `tablero plan`.
#[derive(Debug, Serialize)]
struct Report {
    solved: bool,
    exit: &'static str,
    exit_code: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    domain: String,
    problem: String,
    length: Option<usize>,
    cost: Option<u64>,
    optimal: bool,
    planner: Option<String>,
    plan_file: Option<String>,
    seconds: f64,
    found_seconds: Option<f64>,
    ground_seconds: Option<f64>,
    facts: Option<usize>,
    operators: Option<usize>,
    expanded: u64,
    peak_memory_mb: f64,
}

impl Report {
    fn new(args: &PlanArgs, exit: Exit, start: Instant) -> Report {
        let shown =
            |p: &Option<PathBuf>| p.as_deref().unwrap_or(Path::new("")).display().to_string();
        Report {
            solved: exit == Exit::Solved,
            exit: exit.reason(),
            exit_code: exit as u8,
            message: None,
            domain: shown(&args.domain),
            problem: shown(&args.problem),
            length: None,
            cost: None,
            optimal: false,
            planner: None,
            plan_file: None,
            seconds: round4(start.elapsed().as_secs_f64()),
            found_seconds: None,
            ground_seconds: None,
            facts: None,
            operators: None,
            expanded: 0,
            peak_memory_mb: 0.0,
        }
    }

    /// Prints the message (if any) on stderr and the JSON line on stdout; returns the code.
    fn finish(self) -> ExitCode {
        if let Some(m) = &self.message {
            eprintln!("tablero: {m}");
        }
        let code = self.exit_code;
        match serde_json::to_string(&self) {
            Ok(json) => println!("{json}"),
            Err(e) => eprintln!("tablero: cannot render the result: {e}"),
        }
        ExitCode::from(code)
    }
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The options the flags and the `[planning]` section give, or the reason they are bad.
fn options(args: &PlanArgs) -> Result<PlanOptions, String> {
    let config =
        Config::load(args.config.config.as_deref(), &args.config.set).map_err(|e| e.to_string())?;
    let timeout = args.timeout.unwrap_or(config.planning.timeout);
    let timeout = Duration::try_from_secs_f64(timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| format!("--timeout must be a number of seconds > 0, got {timeout}"))?;
    let memory_limit = match args.memory_mb {
        Some(0) => return Err("--memory-mb must be > 0".into()),
        Some(m) => Some(m.saturating_mul(1024 * 1024)),
        None => None,
    };
    Ok(PlanOptions {
        timeout,
        optimal: args.optimal,
        threads: args.threads,
        anytime: args.anytime,
        planner: args.planner.clone(),
        memory_limit,
    })
}

fn read(path: &Path, what: &str) -> Result<String, String> {
    std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the {what} {}: {e}", path.display()))
}

/// Reads, parses and grounds by `deadline`; `Err` is the exit code and the message.
fn load(
    domain_path: &Path,
    problem_path: &Path,
    deadline: Instant,
) -> Result<Task, (Exit, String)> {
    let bad = |m: String| (Exit::Usage, m);
    let domain_text = read(domain_path, "domain").map_err(bad)?;
    let problem_text = read(problem_path, "problem").map_err(bad)?;
    let where_ =
        |path: &Path, e: pddl::PddlError| (Exit::Usage, format!("{}: {e}", path.display()));
    let domain = pddl::parse_domain(&domain_text).map_err(|e| where_(domain_path, e))?;
    let problem = pddl::parse_problem(&problem_text).map_err(|e| where_(problem_path, e))?;
    eprintln!(
        "tablero plan: domain {} ({} actions), problem {} ({} objects)",
        domain.name,
        domain.actions.len(),
        problem.name,
        problem.objects.len()
    );
    let (task, (facts, operators)) = planning::ground_relevant(&domain, &problem, deadline)
        .map_err(|e| match e {
            ground::GroundError::GoalUnreachable(_) => (Exit::UnsolvableGround, e.to_string()),
            ground::GroundError::OutOfTime => (Exit::OutOfTime, e.to_string()),
            ground::GroundError::TooLarge(_) | ground::GroundError::TooMuchWork(_) => {
                (Exit::Incomplete, e.to_string())
            }
            e => (Exit::Usage, format!("grounding: {e}")),
        })?;
    if facts + operators > 0 {
        eprintln!("tablero plan: {facts} irrelevant facts and {operators} operators pruned");
    }
    Ok(task)
}

/// The exit code of a search that found no plan.
fn failed(e: &PlanError) -> Exit {
    match e {
        PlanError::Unsolvable => Exit::Unsolvable,
        PlanError::Timeout(_) => Exit::OutOfTime,
        PlanError::OutOfMemory { .. } => Exit::OutOfMemory,
        PlanError::GaveUp(_) | PlanError::ExpansionLimit(_) => Exit::Incomplete,
        PlanError::UnknownPlanner(_) => Exit::Usage,
        PlanError::Domain(_) | PlanError::Problem(_) | PlanError::Ground(_) => Exit::Usage,
    }
}

/// The plan as Fast Downward writes it (`unit`: every operator costs 1).
pub fn plan_text(found: &PlanResult, unit: bool) -> String {
    let mut text = String::new();
    for step in &found.plan {
        text.push_str(&step.to_lowercase());
        text.push('\n');
    }
    let kind = if unit { "unit cost" } else { "general cost" };
    text.push_str(&format!("; cost = {} ({kind})\n", found.cost));
    text
}

/// Runs `tablero plan`.
pub fn run(args: PlanArgs) -> ExitCode {
    let start = Instant::now();
    let fail = |exit: Exit, message: String| {
        let mut r = Report::new(&args, exit, start);
        r.message = Some(message);
        r.finish()
    };
    let opts = match options(&args) {
        Ok(o) => o,
        Err(m) => return fail(Exit::Usage, m),
    };
    if let Some(dir) = &args.bench {
        return bench(&args, dir, &opts);
    }
    if args.shard.shard.is_some() || args.shard.records_file.is_some() {
        return fail(
            Exit::Usage,
            "--shard and --records-file need --bench DIR".into(),
        );
    }
    let (Some(domain), Some(problem)) = (&args.domain, &args.problem) else {
        return fail(Exit::Usage, "DOMAIN and PROBLEM are needed".into());
    };
    let task = match load(domain, problem, start + opts.timeout) {
        Ok(t) => t,
        Err((exit, m)) => return fail(exit, m),
    };
    let ground_seconds = start.elapsed().as_secs_f64();
    let (facts, operators) = (task.facts.len(), task.operators.len());
    eprintln!(
        "tablero plan: grounded {facts} facts, {operators} operators in {ground_seconds:.3} s; searching ({}, {} s{})",
        opts.planner.as_deref().unwrap_or(if opts.optimal {
            "optimal portfolio"
        } else {
            "portfolio"
        }),
        opts.timeout.as_secs_f64(),
        args.memory_mb
            .map(|m| format!(", {m} MiB"))
            .unwrap_or_default(),
    );
    let unit = task.operators.iter().all(|o| o.cost == 1);
    let searched = planning::search_task_bounded(task, &opts, args.max_expansions, start);
    let exit = match &searched.outcome {
        Ok(_) => Exit::Solved,
        Err(e) => failed(e),
    };
    let mut report = Report::new(&args, exit, start);
    report.ground_seconds = Some(round4(ground_seconds));
    report.facts = Some(facts);
    report.operators = Some(operators);
    report.expanded = searched.expanded;
    report.peak_memory_mb = round4(searched.peak_memory as f64 / (1024.0 * 1024.0));
    match searched.outcome {
        Err(e) => {
            report.message = Some(e.to_string());
            report.finish()
        }
        Ok(found) => solved(report, &args.plan_file, unit, &found),
    }
}

/// Writes the plan file and finishes the report of a solved task.
fn solved(mut report: Report, plan_file: &Path, unit: bool, found: &PlanResult) -> ExitCode {
    if let Err(e) = std::fs::write(plan_file, plan_text(found, unit)) {
        report.solved = false;
        report.exit = Exit::Failure.reason();
        report.exit_code = Exit::Failure as u8;
        report.message = Some(format!(
            "cannot write the plan to {}: {e}",
            plan_file.display()
        ));
        return report.finish();
    }
    eprintln!(
        "tablero plan: solved by {} in {:.3} s: length {}, cost {}{}; plan written to {}",
        found.planner,
        found.found_seconds,
        found.length,
        found.cost,
        if found.optimal { " (optimal)" } else { "" },
        plan_file.display()
    );
    report.length = Some(found.length);
    report.cost = Some(found.cost);
    report.optimal = found.optimal;
    report.planner = Some(found.planner.clone());
    report.plan_file = Some(plan_file.display().to_string());
    report.found_seconds = Some(round4(found.found_seconds));
    report.finish()
}

/// The status a benchmark record gives an exit: its reason, or `out of expansions`.
fn status(outcome: &Result<PlanResult, PlanError>) -> String {
    match outcome {
        Ok(_) => Exit::Solved.reason().into(),
        Err(PlanError::ExpansionLimit(_)) => "out of expansions".into(),
        Err(e) => failed(e).reason().into(),
    }
}

/// Plans one task of a benchmark (`dir`/`task`); its record.
fn bench_task(
    dir: &Path,
    task: &plan_bench::BenchTask,
    opts: &PlanOptions,
    max_expansions: Option<u64>,
) -> plan_bench::TaskRecord {
    let start = Instant::now();
    let mut record = plan_bench::TaskRecord {
        domain: task.domain.clone(),
        problem: task.problem.clone(),
        solved: false,
        status: String::new(),
        cost: None,
        length: None,
        optimal: false,
        planner: None,
        expanded: 0,
        seconds: 0.0,
    };
    match load(
        &dir.join(&task.domain),
        &dir.join(&task.problem),
        start + opts.timeout,
    ) {
        Err((exit, message)) => {
            tracing::warn!("{}: {message}", task.problem);
            record.status = exit.reason().into();
        }
        Ok(grounded) => {
            let searched = planning::search_task_bounded(grounded, opts, max_expansions, start);
            record.status = status(&searched.outcome);
            record.expanded = searched.expanded;
            if let Ok(found) = &searched.outcome {
                record.solved = true;
                record.cost = Some(found.cost);
                record.length = Some(found.length);
                record.optimal = found.optimal;
                record.planner = Some(found.planner.clone());
            }
        }
    }
    record.seconds = round4(start.elapsed().as_secs_f64());
    record
}

/// `tablero plan --bench DIR`: the shard's tasks, a progress line each, their records, and the
/// benchmark's figures as one JSON line.
fn bench(args: &PlanArgs, dir: &Path, opts: &PlanOptions) -> ExitCode {
    let tasks = match plan_bench::tasks(dir) {
        Ok(t) => t,
        Err(e) => return super::usage(&e.to_string()),
    };
    if let Some(name) = opts.planner.as_deref().filter(|n| *n != "portfolio") {
        if planning::portfolio::member(name, false).is_none() {
            return super::usage(&PlanError::UnknownPlanner(name.into()).to_string());
        }
    }
    let run = plan_bench::BenchRun {
        tasks,
        planner: opts.planner.clone().unwrap_or_else(|| "portfolio".into()),
        optimal: opts.optimal,
        anytime: opts.anytime,
        threads: opts.threads,
        timeout: opts.timeout.as_secs_f64(),
        memory_mb: args.memory_mb,
        max_expansions: args.max_expansions,
    };
    let total = run.tasks.len();
    let shard = args.shard.shard();
    let bar = super::progress::Progress::new(shard.count(total), "tasks");
    let mut records = Vec::new();
    for i in shard.indices(total) {
        let r = bench_task(dir, &run.tasks[i], opts, args.max_expansions);
        bar.step(&format!(
            "task {}/{total}: {}: {}{} after {} expansions, {:.3} s",
            i + 1,
            r.problem,
            r.status,
            r.cost.map(|c| format!(" (cost {c})")).unwrap_or_default(),
            r.expanded,
            r.seconds
        ));
        records.push((i, r));
    }
    drop(bar);
    let refs: Vec<(usize, &plan_bench::TaskRecord)> =
        records.iter().map(|(i, r)| (*i, r)).collect();
    if let Err(code) = args
        .shard
        .write(plan_bench::RECORDS_KIND, &run, total, &refs)
    {
        return code;
    }
    let records: Vec<plan_bench::TaskRecord> = records.into_iter().map(|(_, r)| r).collect();
    super::print_json(&plan_bench::summarize(&run, &records))
}
