//! The planner portfolio: members (each a sequence of search stages) run concurrently on std
//! threads under one deadline, interleaved in short time slices when there are more members
//! than threads. The first valid plan wins and is improved while time remains (later stages
//! and other members search under the shared cost bound). Every plan is validated by
//! simulation on the grounded task before it is accepted.

use super::eliminate;
use super::search::astar::{AStar, AdmissibleKind};
use super::search::gbfs::{HKind, LazyConfig, LazySearch};
use super::search::relaxed::CostType;
use super::search::width::{Bfws, Iw, Siw};
use super::search::{Bound, Engine, Shared, Stats, Step};
use super::task::OpId;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One search configuration.
#[derive(Debug, Clone)]
pub enum Stage {
    Lazy(LazyConfig),
    AStar(AdmissibleKind),
    Iw(u32),
    Siw,
    Bfws,
}

impl Stage {
    fn build(&self, shared: &Arc<Shared>, bound: &Bound) -> Box<dyn Engine> {
        match self {
            Stage::Lazy(c) => Box::new(LazySearch::new(shared.clone(), c.clone(), bound.clone())),
            Stage::AStar(k) => Box::new(AStar::new(shared.clone(), *k, bound.clone())),
            Stage::Iw(k) => Box::new(Iw::new(shared.clone(), *k, bound.clone())),
            Stage::Siw => Box::new(Siw::new(shared.clone(), bound.clone())),
            Stage::Bfws => Box::new(Bfws::new(shared.clone(), bound.clone())),
        }
    }

    /// Whether exhausting this stage without a bound proves the task unsolvable.
    fn complete(&self) -> bool {
        !matches!(self, Stage::Iw(_) | Stage::Siw)
    }
}

/// A portfolio member: stages run one after the other (the later ones improve the plan).
#[derive(Debug, Clone)]
pub struct Member {
    pub name: String,
    pub stages: Vec<Stage>,
}

fn lazy(name: &str, hs: &[HKind], weight: Option<u64>, lazy: LazyOptions) -> Stage {
    Stage::Lazy(LazyConfig {
        name: name.into(),
        heuristics: hs.to_vec(),
        preferred: true,
        weight,
        type_based: lazy.type_based,
        cost_type: lazy.cost_type,
    })
}

/// How a LAMA-like member's first (greedy) stage searches.
#[derive(Debug, Clone, Copy)]
struct LazyOptions {
    /// Some(seed): a type-based exploration list beside the heuristics' lists.
    type_based: Option<u64>,
    /// How its relaxation heuristics count costs.
    cost_type: CostType,
}

/// LAMA's first search: heuristics that count actions, no type-based list.
const LAMA_FIRST: LazyOptions = LazyOptions {
    type_based: None,
    cost_type: CostType::One,
};

/// A greedy first stage as `first` says, then weighted A* with each of `weights` whose
/// heuristics count cost + 1, as LAMA's restarts do.
fn lama_like(name: &str, hs: &[HKind], weights: &[u64], first: LazyOptions) -> Member {
    let mut stages = vec![lazy(name, hs, None, first)];
    let restart = LazyOptions {
        type_based: None,
        cost_type: CostType::PlusOne,
    };
    for &w in weights {
        stages.push(lazy(&format!("{name}-wastar{w}"), hs, Some(w), restart));
    }
    Member {
        name: name.into(),
        stages,
    }
}

/// Operator applications action elimination may spend on each satisficing plan (about a
/// second for a 2,000-step plan; it also stops at the run's deadline).
const ELIMINATION_APPLICATIONS: u64 = 4_000_000;

/// The seed of the type-based exploration lists (fixed: same task, same plan).
const TYPE_SEED: u64 = 0x7AB1E50;

/// All member names accepted by [`member`].
pub const MEMBER_NAMES: &[&str] = &[
    "lama",
    "hadd-lm",
    "hff",
    "hff-type",
    "lama-type",
    "hadd-type",
    "lmcut-type",
    "bfws",
    "iw1",
    "iw2",
    "siw",
    "astar-lmcut",
    "astar-lmcut-plain",
    "astar-hmax",
    "astar-blind",
];

/// A first stage with a type-based exploration list, its heuristics counting `cost_type`.
fn typed(cost_type: CostType) -> LazyOptions {
    LazyOptions {
        type_based: Some(TYPE_SEED),
        cost_type,
    }
}

/// A member by name (`anytime` adds the weighted-A* improvement stages).
pub fn member(name: &str, anytime: bool) -> Option<Member> {
    let w: &[u64] = if anytime { &[5, 3, 2, 1] } else { &[] };
    Some(match name {
        "lama" => lama_like("lama", &[HKind::FF, HKind::LmCount], w, LAMA_FIRST),
        "hadd-lm" => lama_like("hadd-lm", &[HKind::Add, HKind::LmCount], w, LAMA_FIRST),
        "hff" => lama_like("hff", &[HKind::FF], w, LAMA_FIRST),
        "hff-type" => lama_like("hff-type", &[HKind::FF], w, typed(CostType::One)),
        "lama-type" => lama_like(
            "lama-type",
            &[HKind::FF, HKind::LmCount],
            w,
            typed(CostType::One),
        ),
        "lmcut-type" => lama_like("lmcut-type", &[HKind::LmCut], w, typed(CostType::Normal)),
        // The task's own costs: the portfolio's cost-aware member beside hff-type, which
        // counts actions (each solves tasks the other does not).
        "hadd-type" => lama_like(
            "hadd-type",
            &[HKind::Add, HKind::LmCount],
            w,
            typed(CostType::Normal),
        ),
        "bfws" => Member {
            name: name.into(),
            stages: vec![Stage::Bfws],
        },
        "iw1" => Member {
            name: name.into(),
            stages: vec![Stage::Iw(1)],
        },
        "iw2" => Member {
            name: name.into(),
            stages: vec![Stage::Iw(2)],
        },
        "siw" => Member {
            name: name.into(),
            stages: vec![Stage::Siw],
        },
        "astar-lmcut" => Member {
            name: name.into(),
            stages: vec![Stage::AStar(AdmissibleKind::LmCut)],
        },
        "astar-lmcut-plain" => Member {
            name: name.into(),
            stages: vec![Stage::AStar(AdmissibleKind::PlainLmCut)],
        },
        "astar-hmax" => Member {
            name: name.into(),
            stages: vec![Stage::AStar(AdmissibleKind::HMax)],
        },
        "astar-blind" => Member {
            name: name.into(),
            stages: vec![Stage::AStar(AdmissibleKind::Blind)],
        },
        _ => return None,
    })
}

/// The default members: satisficing (no single point of failure: two relaxation
/// heuristics with landmarks or type-based exploration, width-based search, and an optimal
/// member that ends the run with a proof of optimality), or optimal only.
pub fn default_members(optimal: bool, anytime: bool) -> Vec<Member> {
    let names: &[&str] = if optimal {
        // A* with LM-cut, the structural bound and walk compression alone: next to it, blind
        // A* took half of the CPU on one thread (Sokoban 0: 5.9 s and 470 MB of CPU time and
        // memory instead of 3.2 s and 73 MB).
        &["astar-lmcut"]
    } else if anytime {
        &["hff-type", "hadd-type", "bfws", "lama", "astar-lmcut"]
    } else {
        // First plan only: three members that cover each other's failures, measured on the
        // 15 puzzle levels (CPU seconds of each alone): h_FF with type-based exploration is
        // fastest on Zen Puzzle 0, 2, 3, 4 (<= 0.1 s) but slow on Zen 1 (1-2 s) where BFWS
        // takes 0.14 s; h_add + landmarks with type-based exploration solves Sokoban 0 in
        // 0.08 s, where greedy h_FF + landmarks (LAMA) gets lost (the unusable hole).
        &["hff-type", "bfws", "hadd-type"]
    };
    names.iter().filter_map(|n| member(n, anytime)).collect()
}

#[derive(Debug, Clone)]
pub struct PortfolioOptions {
    pub deadline: Instant,
    /// 0: the available parallelism.
    pub threads: usize,
    /// Keep improving after the first plan until the deadline (or an optimal plan).
    pub anytime: bool,
    pub members: Vec<Member>,
    /// Most bytes the engines' node storage may hold, all members together
    /// ([`Engine::memory_bytes`]); reaching it stops the run (`Outcome::OutOfMemory` when
    /// no plan was found). `None`: no bound beyond each engine's state limit.
    pub memory_limit: Option<u64>,
    /// Most nodes all members together may expand; reaching it stops the run
    /// (`Outcome::ExpansionLimit` when no plan was found). With one member on one thread the
    /// run is then the same on every machine. `None`: no bound.
    pub max_expanded: Option<u64>,
}

/// A validated plan.
#[derive(Debug, Clone)]
pub struct Found {
    pub plan: Vec<OpId>,
    pub cost: u64,
    pub planner: String,
    pub optimal: bool,
    pub found_after: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Solved,
    /// The search space was exhausted by a complete member: no plan exists.
    Unsolvable,
    /// The deadline passed (or every member gave up) without a plan.
    NoPlan,
    /// The engines' node storage reached the memory limit without a plan.
    OutOfMemory,
    /// The members expanded `max_expanded` nodes without a plan.
    ExpansionLimit,
}

/// What the portfolio did.
#[derive(Debug, Clone)]
pub struct Report {
    pub outcome: Outcome,
    pub best: Option<Found>,
    /// Every plan accepted, in order (anytime improvement).
    pub history: Vec<Found>,
    pub stats: Stats,
    /// The most bytes of node storage seen at once (every member's engines together).
    pub peak_memory: u64,
}

struct Shared2 {
    best: Mutex<Vec<Found>>,
    stop: AtomicBool,
    unsolvable: AtomicBool,
    bound: Bound,
    out_of_memory: AtomicBool,
    expansion_limit: AtomicBool,
    /// Node-storage bytes of each worker thread's engines, as of their last slice.
    memory: Vec<AtomicU64>,
    peak_memory: AtomicU64,
    expanded: AtomicU64,
    generated: AtomicU64,
    evaluated: AtomicU64,
    start: Instant,
}

struct Running {
    member: Member,
    stage: usize,
    engine: Option<Box<dyn Engine>>,
    batch: u64,
    /// Time spent in this member's steps: the worker runs the member that has used least,
    /// so members whose single steps are slow (one expansion can take 100 ms when every
    /// successor is evaluated) get the same share of the thread as the others.
    used: Duration,
    done: bool,
}

/// Runs the portfolio on a grounded task.
pub fn run(shared: Arc<Shared>, opts: &PortfolioOptions) -> Report {
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.threads
    }
    .clamp(1, opts.members.len().max(1));
    let st = Arc::new(Shared2 {
        best: Mutex::new(Vec::new()),
        stop: AtomicBool::new(false),
        unsolvable: AtomicBool::new(false),
        bound: Bound::default(),
        out_of_memory: AtomicBool::new(false),
        expansion_limit: AtomicBool::new(false),
        memory: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        peak_memory: AtomicU64::new(0),
        expanded: AtomicU64::new(0),
        generated: AtomicU64::new(0),
        evaluated: AtomicU64::new(0),
        start: Instant::now(),
    });
    let mut groups: Vec<Vec<Member>> = vec![Vec::new(); threads];
    for (i, m) in opts.members.iter().enumerate() {
        groups[i % threads].push(m.clone());
    }
    // Detached workers: the caller gets the result at the deadline (or as soon as the run is
    // decided) without waiting for the workers to notice and free their search spaces.
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    for (slot, group) in groups.into_iter().enumerate() {
        let st = st.clone();
        let shared = shared.clone();
        let opts = opts.clone();
        let tx = tx.clone();
        if let Err(e) = std::thread::Builder::new()
            .name("planner".into())
            .spawn(move || worker(shared, group, slot, &st, &opts, &tx))
        {
            tracing::error!("cannot start a planner thread: {e}");
        }
    }
    drop(tx);
    loop {
        let left = opts.deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(()) if st.stop.load(Ordering::Relaxed) => break,
            Ok(()) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                st.stop.store(true, Ordering::Relaxed);
                break;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let history = st.best.lock().map(|g| g.clone()).unwrap_or_default();
    let best = history.last().cloned();
    let outcome = if best.is_some() {
        Outcome::Solved
    } else if st.unsolvable.load(Ordering::Relaxed) {
        Outcome::Unsolvable
    } else if st.out_of_memory.load(Ordering::Relaxed) {
        Outcome::OutOfMemory
    } else if st.expansion_limit.load(Ordering::Relaxed) {
        Outcome::ExpansionLimit
    } else {
        Outcome::NoPlan
    };
    Report {
        outcome,
        best,
        history,
        stats: Stats {
            expanded: st.expanded.load(Ordering::Relaxed),
            generated: st.generated.load(Ordering::Relaxed),
            evaluated: st.evaluated.load(Ordering::Relaxed),
        },
        peak_memory: st.peak_memory.load(Ordering::Relaxed),
    }
}

/// Records the node storage of one worker's engines; past the limit, stops the run.
fn account_memory(
    running: &[Running],
    slot: usize,
    st: &Shared2,
    opts: &PortfolioOptions,
    tx: &std::sync::mpsc::Sender<()>,
) {
    let mine: usize = running
        .iter()
        .filter_map(|r| r.engine.as_ref())
        .map(|e| e.memory_bytes())
        .sum();
    if let Some(m) = st.memory.get(slot) {
        m.store(mine as u64, Ordering::Relaxed);
    }
    let total: u64 = st.memory.iter().map(|m| m.load(Ordering::Relaxed)).sum();
    st.peak_memory.fetch_max(total, Ordering::Relaxed);
    if opts.memory_limit.is_some_and(|limit| total >= limit) {
        tracing::warn!(
            "the search reached its memory limit ({:.1} MiB of node storage); stopping",
            total as f64 / (1024.0 * 1024.0)
        );
        st.out_of_memory.store(true, Ordering::Relaxed);
        st.stop.store(true, Ordering::Relaxed);
        let _ = tx.send(());
    }
}

/// The expansions the next step may make: `batch`, less what `max_expanded` leaves; `None`
/// (and the run stopped) when the bound is reached.
fn budget(
    batch: u64,
    st: &Shared2,
    opts: &PortfolioOptions,
    tx: &std::sync::mpsc::Sender<()>,
) -> Option<u64> {
    let Some(limit) = opts.max_expanded else {
        return Some(batch);
    };
    let left = limit.saturating_sub(st.expanded.load(Ordering::Relaxed));
    if left == 0 {
        st.expansion_limit.store(true, Ordering::Relaxed);
        st.stop.store(true, Ordering::Relaxed);
        let _ = tx.send(());
        return None;
    }
    Some(batch.min(left))
}

fn worker(
    shared: Arc<Shared>,
    group: Vec<Member>,
    slot: usize,
    st: &Shared2,
    opts: &PortfolioOptions,
    tx: &std::sync::mpsc::Sender<()>,
) {
    let mut running: Vec<Running> = group
        .into_iter()
        .map(|member| Running {
            member,
            stage: 0,
            engine: None,
            // One expansion first: a member whose expansions are slow (every successor
            // evaluated by an expensive heuristic) must not hold the thread for long.
            batch: 1,
            used: Duration::ZERO,
            done: false,
        })
        .collect();
    loop {
        if st.stop.load(Ordering::Relaxed) || Instant::now() >= opts.deadline {
            break;
        }
        let Some(r) = running
            .iter_mut()
            .filter(|r| !r.done)
            .min_by_key(|r| r.used)
        else {
            break;
        };
        let Some(stage) = r.member.stages.get(r.stage).cloned() else {
            r.done = true;
            continue;
        };
        let engine = r
            .engine
            .get_or_insert_with(|| stage.build(&shared, &st.bound));
        let Some(budget) = budget(r.batch, st, opts, tx) else {
            continue;
        };
        let before = engine.stats();
        let t0 = Instant::now();
        let res = engine.step(budget);
        let dt = t0.elapsed();
        r.used += dt;
        count(st, &before, &engine.stats());
        r.batch = next_batch(r.batch, dt);
        match res {
            Step::Running => {}
            Step::Solved(plan) => {
                let found = Solution {
                    optimal: engine.optimal(),
                    name: engine.name().to_string(),
                    plan,
                };
                if !accept(&shared, st, opts, tx, found) {
                    r.done = true;
                }
                r.engine = None;
                r.stage += 1;
            }
            Step::GaveUp => {
                tracing::warn!("planner {} reached its state limit", engine.name());
                r.engine = None;
                r.stage += 1;
            }
            Step::Exhausted => {
                exhausted(&stage, st, tx);
                r.engine = None;
                r.stage += 1;
            }
        }
        if r.stage >= r.member.stages.len() {
            r.done = true;
        }
        account_memory(&running, slot, st, opts, tx);
    }
    // When every member of every thread is done, the others stop on their own; a thread
    // whose members are all done simply returns.
}

/// The expansions of a member's next slice after `batch` took `dt`: slices of 4-25 ms are
/// short enough to share the thread and long enough to be cheap; a slice too long is cut in
/// proportion (to about 10 ms), not only halved.
fn next_batch(batch: u64, dt: Duration) -> u64 {
    if dt < Duration::from_millis(4) {
        (batch * 2).min(1 << 20)
    } else if dt > Duration::from_millis(25) {
        let scaled = batch as u128 * 10_000 / dt.as_micros().max(1);
        (scaled as u64).min(batch / 2).max(1)
    } else {
        batch
    }
}

/// Adds one slice's counters to the run's.
fn count(st: &Shared2, before: &Stats, after: &Stats) {
    st.expanded
        .fetch_add(after.expanded - before.expanded, Ordering::Relaxed);
    st.generated
        .fetch_add(after.generated - before.generated, Ordering::Relaxed);
    st.evaluated
        .fetch_add(after.evaluated - before.evaluated, Ordering::Relaxed);
}

/// A plan an engine found.
struct Solution {
    plan: Vec<OpId>,
    name: String,
    optimal: bool,
}

/// Shortens a satisficing plan by action elimination, validates it and records it when it
/// is the cheapest yet (lowering the shared bound); stops the run when it is optimal or
/// the run wants only a first plan. False when the plan is invalid (the member stops).
fn accept(
    shared: &Shared,
    st: &Shared2,
    opts: &PortfolioOptions,
    tx: &std::sync::mpsc::Sender<()>,
    found: Solution,
) -> bool {
    let Solution {
        plan,
        name,
        optimal,
    } = found;
    let plan = if optimal {
        plan
    } else {
        let budget = eliminate::Budget {
            applications: ELIMINATION_APPLICATIONS,
            deadline: opts.deadline,
        };
        eliminate::eliminate(&shared.task, &plan, budget)
    };
    if let Err(e) = shared.task.validate(&plan) {
        tracing::error!("planner {name} produced an invalid plan ({e}); member stopped");
        return false;
    }
    let cost = shared.task.plan_cost(&plan);
    if let Ok(mut best) = st.best.lock() {
        if best.last().is_none_or(|b| cost < b.cost) {
            best.push(Found {
                plan,
                cost,
                planner: name,
                optimal,
                found_after: st.start.elapsed(),
            });
            st.bound.lower_to(cost);
        }
    }
    if optimal || !opts.anytime {
        st.stop.store(true, Ordering::Relaxed);
        let _ = tx.send(());
    }
    true
}

/// A stage searched its whole space: without a plan a complete stage proves the task
/// unsolvable; under a plan's bound an optimal stage proves that plan optimal.
fn exhausted(stage: &Stage, st: &Shared2, tx: &std::sync::mpsc::Sender<()>) {
    if stage.complete() && st.bound.get() == u64::MAX {
        st.unsolvable.store(true, Ordering::Relaxed);
        st.stop.store(true, Ordering::Relaxed);
        let _ = tx.send(());
    }
    if matches!(stage, Stage::AStar(_)) && st.bound.get() != u64::MAX {
        if let Ok(mut best) = st.best.lock() {
            if let Some(b) = best.last_mut() {
                b.optimal = true;
            }
        }
        st.stop.store(true, Ordering::Relaxed);
        let _ = tx.send(());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::examples;
    use crate::planning::ground::ground;
    use crate::planning::pddl::{parse_domain, parse_problem};

    #[test]
    fn a_slow_slice_is_cut_in_proportion() {
        let ms = Duration::from_millis;
        // 16 expansions took half a second: the next slice is one expansion, not eight.
        assert_eq!(next_batch(16, ms(500)), 1);
        assert_eq!(next_batch(100, ms(40)), 25);
        assert_eq!(next_batch(1, ms(900)), 1);
        assert_eq!(next_batch(100, ms(10)), 100);
        assert_eq!(next_batch(100, ms(1)), 200);
    }

    fn shared(domain: &str, problem: &str) -> Arc<Shared> {
        Shared::new(
            ground(
                &parse_domain(domain).unwrap(),
                &parse_problem(problem).unwrap(),
            )
            .unwrap(),
        )
    }

    /// One thread, a hopeless member first: interleaving still lets the good member win.
    #[test]
    fn members_interleave_on_one_thread() {
        let p = examples::sokoban_problem("l1", examples::GVGAI_SOKOBAN_LEVELS[1]);
        let sh = shared(examples::SOKOBAN, &p);
        let opts = PortfolioOptions {
            max_expanded: None,
            memory_limit: None,
            deadline: Instant::now() + Duration::from_secs(60),
            threads: 1,
            anytime: false,
            members: vec![
                member("astar-blind", false).unwrap(),
                member("bfws", false).unwrap(),
            ],
        };
        let r = run(sh.clone(), &opts);
        assert_eq!(r.outcome, Outcome::Solved);
        let best = r.best.unwrap();
        assert_eq!(best.planner, "bfws");
        assert!(sh.task.validate(&best.plan).is_ok());
        assert_eq!(r.history.len(), 1);
    }

    #[test]
    fn anytime_history_strictly_improves_and_ends_optimal() {
        let sh = shared(examples::GRIPPER, examples::GRIPPER_4);
        let opts = PortfolioOptions {
            max_expanded: None,
            memory_limit: None,
            deadline: Instant::now() + Duration::from_secs(60),
            threads: 2,
            anytime: true,
            members: default_members(false, true),
        };
        let r = run(sh.clone(), &opts);
        assert!(!r.history.is_empty());
        for w in r.history.windows(2) {
            assert!(w[1].cost < w[0].cost);
        }
        let best = r.best.unwrap();
        assert!(best.optimal);
        assert_eq!(best.cost, 11);
    }

    #[test]
    fn deadline_in_the_past_gives_no_plan() {
        let sh = shared(examples::GRIPPER, examples::GRIPPER_4);
        let opts = PortfolioOptions {
            max_expanded: None,
            memory_limit: None,
            deadline: Instant::now(),
            threads: 2,
            anytime: false,
            members: default_members(false, false),
        };
        let r = run(sh, &opts);
        assert_eq!(r.outcome, Outcome::NoPlan);
        assert!(r.best.is_none());
    }

    #[test]
    fn member_names_resolve() {
        for n in MEMBER_NAMES {
            assert!(member(n, true).is_some(), "{n}");
        }
        assert!(member("fast-downward", false).is_none());
        assert_eq!(member("lama", true).unwrap().stages.len(), 5);
    }
}
