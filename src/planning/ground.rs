//! Grounding: lifted PDDL → a compact [`Task`]. Only facts and actions reachable in the
//! delete relaxation (a semi-naive fixpoint over the positive preconditions) are produced;
//! static predicates are evaluated away.

use super::normalize::{NormalAction, NormalEffect, NormalTask, normalize};
use super::pddl::{Atom, Domain, Problem, Term, TypedName};
use super::task::Task;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::time::Instant;
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GroundError {
    #[error("unknown object or constant '{0}'")]
    UnknownObject(String),
    #[error("undeclared predicate '{0}'")]
    UnknownPredicate(String),
    #[error("predicate '{0}' takes {1} arguments, given {2}")]
    Arity(String, usize, usize),
    #[error("object '{0}' has undeclared type '{1}'")]
    UnknownType(String, String),
    #[error("unsupported: {0}")]
    Unsupported(String),
    #[error("the goal fact {0} is unreachable (the task is unsolvable)")]
    GoalUnreachable(String),
    #[error("the problem is for domain '{0}', not '{1}'")]
    DomainMismatch(String, String),
    #[error("grounding exceeded the limit of {0} ground actions")]
    TooLarge(usize),
    #[error("grounding exceeded the limit of {0} candidate bindings examined")]
    TooMuchWork(u64),
    #[error("grounding ran out of time")]
    OutOfTime,
    #[error(
        "the derived predicate '{0}' depends on its own negation (the axioms are not stratified)"
    )]
    NotStratified(String),
    #[error("undeclared function '{0}' (or wrong number of arguments) in the initial values")]
    UnknownFunction(String),
    #[error("the initial state gives no value for the action cost {0}")]
    MissingValue(String),
    #[error("the cost of {0} exceeds {max}", max = u32::MAX)]
    CostTooLarge(String),
}

/// The maximum number of ground actions before grounding gives up.
pub const MAX_GROUND_ACTIONS: usize = 2_000_000;

/// How much grounding may do before it gives up: ground actions kept, candidate bindings
/// (of parameters, forall variables and joined facts) examined, which bounds the time spent on
/// schemas that enumerate many bindings and keep few, and the instant it must stop by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroundLimits {
    pub max_actions: usize,
    pub max_bindings: u64,
    pub deadline: Option<Instant>,
}

impl Default for GroundLimits {
    fn default() -> Self {
        GroundLimits {
            max_actions: MAX_GROUND_ACTIONS,
            max_bindings: 4_000_000_000,
            deadline: None,
        }
    }
}

/// How many bindings are examined between two looks at the clock.
const CLOCK_EVERY: u64 = 4096;

/// Candidate bindings examined so far, against the limits and the deadline.
struct Work {
    done: Cell<u64>,
    max: u64,
    max_actions: usize,
    deadline: Option<Instant>,
    late: Cell<bool>,
    /// Set once a round has found more actions than the limit allows (the round's list would
    /// otherwise grow without bound before the limit is checked).
    full: Cell<bool>,
}

impl Work {
    fn new(limits: &GroundLimits) -> Work {
        Work {
            done: Cell::new(0),
            max: limits.max_bindings,
            max_actions: limits.max_actions,
            deadline: limits.deadline,
            late: Cell::new(false),
            full: Cell::new(false),
        }
    }
    /// Counts one binding; false once the limit or the deadline is passed (the enumeration
    /// then stops).
    fn tick(&self) -> bool {
        let n = self.done.get() + 1;
        self.done.set(n);
        if n % CLOCK_EVERY == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.late.set(true);
        }
        n <= self.max && !self.late.get() && !self.full.get()
    }
    /// True once any limit or the deadline has stopped the enumeration.
    fn stopped(&self) -> bool {
        self.done.get() > self.max || self.late.get() || self.full.get()
    }
    /// Notes that `actions` ground actions are known; past the limit the enumeration stops.
    fn found(&self, actions: usize) {
        if actions > self.max_actions {
            self.full.set(true);
        }
    }
    fn check(&self) -> Result<(), GroundError> {
        if self.late.get() {
            return Err(GroundError::OutOfTime);
        }
        if self.full.get() {
            return Err(GroundError::TooLarge(self.max_actions));
        }
        if self.done.get() > self.max {
            return Err(GroundError::TooMuchWork(self.max));
        }
        Ok(())
    }
}

mod build;
mod join;
mod lift;
mod reach;

use build::{Build, Ids, ground_goal, ground_init};
use join::FactTable;
use lift::{Grounder, LAction};
use reach::Reach;

/// Grounds a domain and problem into a task with relaxed-reachability pruning, within the
/// default [`GroundLimits`].
pub fn ground(domain: &Domain, problem: &Problem) -> Result<Task, GroundError> {
    ground_within(domain, problem, GroundLimits::default())
}

/// [`ground`] within `limits`.
pub fn ground_within(
    domain: &Domain,
    problem: &Problem,
    limits: GroundLimits,
) -> Result<Task, GroundError> {
    if !problem.domain.is_empty() && problem.domain != domain.name {
        return Err(GroundError::DomainMismatch(
            problem.domain.clone(),
            domain.name.clone(),
        ));
    }
    let normal = normalize(domain, problem);
    let g = Grounder::new(domain, problem, &normal)?;
    let schemas = lift_schemas(&g, &normal)?;
    let work = Work::new(&limits);
    let mut reach = Reach {
        g: &g,
        schemas: &schemas,
        work: &work,
        facts: initial_facts(&g, problem)?,
        actions: Vec::new(),
        seen: HashSet::new(),
        pending: Vec::new(),
    };
    reach.run(limits.max_actions)?;
    let facts = reach.facts;
    let ids = Ids::new(&g, &facts);
    let mut task = Task {
        facts: ids.names.clone(),
        ..Task::default()
    };
    task.derived_facts = facts
        .keys
        .iter()
        .filter(|k| g.derived[k.0 as usize])
        .filter_map(|k| ids.of(k))
        .collect();
    task.init = ground_init(&g, &ids, problem)?;
    let build = Build {
        g: &g,
        ids: &ids,
        work: &work,
    };
    for ga in &reach.actions {
        let s = &schemas[ga.schema];
        if ga.schema >= normal.actions.len() {
            task.axioms.extend(build.axiom(s, &ga.binding)?);
        } else {
            task.operators.extend(build.operator(s, &ga.binding)?);
        }
    }
    task.axioms.sort_by_key(|a| a.layer);
    (task.goal_pos, task.goal_neg) = ground_goal(&g, &ids, &normal.goal)?;
    work.check()?;
    Ok(task)
}

/// The domain's action schemas, then its derived-predicate rules as schemas that add their
/// head (their ground instances become the task's axioms).
fn lift_schemas(g: &Grounder, normal: &NormalTask) -> Result<Vec<LAction>, GroundError> {
    let rules: Vec<NormalAction> = normal
        .rules
        .iter()
        .map(|r| NormalAction {
            name: r.head.name.clone(),
            params: r
                .head
                .params
                .iter()
                .chain(&r.vars)
                .cloned()
                .collect::<Vec<TypedName>>(),
            precondition: r.body.clone(),
            effects: vec![NormalEffect::Add(Atom {
                predicate: r.head.name.clone(),
                args: r
                    .head
                    .params
                    .iter()
                    .map(|p| Term::Var(p.name.clone()))
                    .collect(),
            })],
            cost: Vec::new(),
        })
        .collect();
    normal
        .actions
        .iter()
        .chain(&rules)
        .map(|a| g.lift_action(a))
        .collect()
}

/// The problem's initial facts, all of round 0.
fn initial_facts(g: &Grounder, problem: &Problem) -> Result<FactTable, GroundError> {
    let mut facts = FactTable {
        index: HashMap::new(),
        keys: Vec::new(),
        round: Vec::new(),
        by_pred: vec![Vec::new(); g.preds.len()],
        by_arg: HashMap::new(),
    };
    for a in &problem.init {
        let la = g.latom(a, &HashMap::new())?;
        facts.insert(g.ground_key(&la, &[]), 0);
    }
    Ok(facts)
}
