//! Grounding: lifted PDDL → a compact [`Task`]. Only facts and actions reachable in the
//! delete relaxation (a semi-naive fixpoint over the positive preconditions) are produced;
//! static predicates are evaluated away.

use super::normalize::{NormalAction, NormalEffect, NormalTask, normalize};
use super::pddl::{Atom, Domain, Literal, Metric, NumExpr, Problem, Term, TypedName};
use super::task::{Axiom, CondEffect, FactId, Operator, Task};
use std::collections::{HashMap, HashSet};
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

/// How much grounding may do before it gives up: ground actions kept, and candidate bindings
/// (of parameters, forall variables and joined facts) examined, which bounds the time spent on
/// schemas that enumerate many bindings and keep few.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroundLimits {
    pub max_actions: usize,
    pub max_bindings: u64,
}

impl Default for GroundLimits {
    fn default() -> Self {
        GroundLimits {
            max_actions: MAX_GROUND_ACTIONS,
            max_bindings: 4_000_000_000,
        }
    }
}

/// Candidate bindings examined so far, against the limit.
struct Work {
    done: std::cell::Cell<u64>,
    max: u64,
}

impl Work {
    /// Counts one binding; false once the limit is passed (the enumeration then stops).
    fn tick(&self) -> bool {
        let n = self.done.get() + 1;
        self.done.set(n);
        n <= self.max
    }
    fn check(&self) -> Result<(), GroundError> {
        if self.done.get() > self.max {
            return Err(GroundError::TooMuchWork(self.max));
        }
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Arg {
    Var(usize),
    Obj(u32),
}

#[derive(Clone, Debug)]
struct LAtom {
    pred: u32,
    args: Vec<Arg>,
}

#[derive(Clone, Debug)]
enum LLit {
    Pos(LAtom),
    Neg(LAtom),
    Eq(Arg, Arg),
    NotEq(Arg, Arg),
}

#[derive(Clone, Debug)]
struct LEffect {
    /// forall variables introduced by this effect (indices into the binding).
    cond: Vec<LLit>,
    add: Vec<LAtom>,
    del: Vec<LAtom>,
    /// Extra variables (from enclosing foralls) with their allowed objects.
    forall_vars: Vec<(usize, Vec<u32>)>,
}

/// A lifted action-cost term.
#[derive(Clone, Debug)]
enum LCost {
    Const(u64),
    Term(String, Vec<Arg>),
}

struct LAction {
    name: String,
    /// Allowed objects per variable (action parameters first, then forall variables).
    domains: Vec<Vec<u32>>,
    num_params: usize,
    pos: Vec<LAtom>,
    neg: Vec<LAtom>,
    eqs: Vec<(Arg, Arg, bool)>,
    effects: Vec<LEffect>,
    cost: Vec<LCost>,
}

type Key = (u32, Vec<u32>);

struct Grounder<'a> {
    domain: &'a Domain,
    objects: Vec<String>,
    obj_index: HashMap<String, u32>,
    obj_type: Vec<String>,
    preds: Vec<(String, usize)>,
    pred_index: HashMap<String, u32>,
    fluent: Vec<bool>,
    derived: Vec<bool>,
    /// The stratum of each derived predicate (0 for the others).
    layer: Vec<u32>,
    /// Action costs count (a `total-cost` metric); otherwise every action costs 1.
    metric: bool,
    /// Numeric initial values by function and objects.
    values: HashMap<(String, Vec<u32>), u64>,
}

impl<'a> Grounder<'a> {
    fn new(
        domain: &'a Domain,
        problem: &Problem,
        normal: &NormalTask,
    ) -> Result<Self, GroundError> {
        let mut g = Grounder {
            domain,
            objects: Vec::new(),
            obj_index: HashMap::new(),
            obj_type: Vec::new(),
            preds: Vec::new(),
            pred_index: HashMap::new(),
            fluent: Vec::new(),
            derived: Vec::new(),
            layer: Vec::new(),
            metric: problem.metric == Some(Metric::MinimizeTotalCost),
            values: HashMap::new(),
        };
        for o in domain.constants.iter().chain(&problem.objects) {
            if o.ty != "object" && !domain.types.iter().any(|t| t.name == o.ty) {
                return Err(GroundError::UnknownType(o.name.clone(), o.ty.clone()));
            }
            if g.obj_index.contains_key(&o.name) {
                continue; // a problem may repeat a domain constant
            }
            g.obj_index.insert(o.name.clone(), g.objects.len() as u32);
            g.objects.push(o.name.clone());
            g.obj_type.push(o.ty.clone());
        }
        for p in &normal.predicates {
            g.pred_index.insert(p.name.clone(), g.preds.len() as u32);
            g.preds.push((p.name.clone(), p.params.len()));
        }
        g.fluent = vec![false; g.preds.len()];
        g.derived = vec![false; g.preds.len()];
        fn mark(g: &mut Grounder, es: &[NormalEffect]) {
            for e in es {
                match e {
                    NormalEffect::Add(a) | NormalEffect::Del(a) => {
                        if let Some(&p) = g.pred_index.get(&a.predicate) {
                            g.fluent[p as usize] = true;
                        }
                    }
                    NormalEffect::When(_, inner) | NormalEffect::Forall(_, inner) => mark(g, inner),
                }
            }
        }
        for a in &normal.actions {
            mark(&mut g, &a.effects);
        }
        for r in &normal.rules {
            let &p = g
                .pred_index
                .get(&r.head.name)
                .ok_or_else(|| GroundError::UnknownPredicate(r.head.name.clone()))?;
            g.fluent[p as usize] = true;
            g.derived[p as usize] = true;
        }
        g.values = g.function_values(problem)?;
        g.layer = g.strata(normal)?;
        Ok(g)
    }

    /// Stratifies the rules: a head's layer is at least that of every derived predicate its
    /// body uses and above that of every one it negates. Layers above the number of derived
    /// predicates mean a cycle through negation.
    fn strata(&self, normal: &NormalTask) -> Result<Vec<u32>, GroundError> {
        let mut layer = vec![0u32; self.preds.len()];
        let limit = self.derived.iter().filter(|&&d| d).count() as u32;
        loop {
            let mut changed = false;
            for r in &normal.rules {
                let h = self.pred_index[&r.head.name] as usize;
                for l in &r.body {
                    let (a, above) = match l {
                        Literal::Pos(a) => (a, 0),
                        Literal::Neg(a) => (a, 1),
                        Literal::Eq(..) | Literal::NotEq(..) => continue,
                    };
                    let Some(&q) = self.pred_index.get(&a.predicate) else {
                        continue;
                    };
                    if self.derived[q as usize] && layer[h] < layer[q as usize] + above {
                        layer[h] = layer[q as usize] + above;
                        if layer[h] > limit {
                            return Err(GroundError::NotStratified(r.head.name.clone()));
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return Ok(layer);
            }
        }
    }

    /// The problem's numeric initial values, keyed by function and object ids.
    fn function_values(
        &self,
        problem: &Problem,
    ) -> Result<HashMap<(String, Vec<u32>), u64>, GroundError> {
        let mut values = HashMap::new();
        for v in &problem.values {
            let f = &v.term.predicate;
            let declared = self
                .domain
                .functions
                .iter()
                .any(|d| &d.name == f && d.params.len() == v.term.args.len());
            if !declared {
                return Err(GroundError::UnknownFunction(v.term.to_string()));
            }
            let args = v
                .term
                .args
                .iter()
                .map(|t| match self.arg(t, &HashMap::new())? {
                    Arg::Obj(o) => Ok(o),
                    Arg::Var(_) => Err(GroundError::UnknownObject(t.as_str().into())),
                })
                .collect::<Result<Vec<_>, _>>()?;
            values.insert((f.clone(), args), v.value);
        }
        Ok(values)
    }

    fn objects_of(&self, ty: &str) -> Vec<u32> {
        (0..self.objects.len() as u32)
            .filter(|&o| self.domain.is_subtype(&self.obj_type[o as usize], ty))
            .collect()
    }

    fn pred(&self, name: &str, arity: usize) -> Result<u32, GroundError> {
        let &p = self
            .pred_index
            .get(name)
            .ok_or_else(|| GroundError::UnknownPredicate(name.into()))?;
        let want = self.preds[p as usize].1;
        if want != arity {
            return Err(GroundError::Arity(name.into(), want, arity));
        }
        Ok(p)
    }

    fn arg(&self, t: &Term, vars: &HashMap<String, usize>) -> Result<Arg, GroundError> {
        match t {
            Term::Var(v) => vars
                .get(v)
                .map(|&i| Arg::Var(i))
                .ok_or_else(|| GroundError::UnknownObject(v.clone())),
            Term::Object(o) => self
                .obj_index
                .get(o)
                .map(|&i| Arg::Obj(i))
                .ok_or_else(|| GroundError::UnknownObject(o.clone())),
        }
    }

    fn latom(&self, a: &Atom, vars: &HashMap<String, usize>) -> Result<LAtom, GroundError> {
        Ok(LAtom {
            pred: self.pred(&a.predicate, a.args.len())?,
            args: a
                .args
                .iter()
                .map(|t| self.arg(t, vars))
                .collect::<Result<_, _>>()?,
        })
    }

    fn llit(&self, l: &Literal, vars: &HashMap<String, usize>) -> Result<LLit, GroundError> {
        Ok(match l {
            Literal::Pos(a) => LLit::Pos(self.latom(a, vars)?),
            Literal::Neg(a) => LLit::Neg(self.latom(a, vars)?),
            Literal::Eq(a, b) => LLit::Eq(self.arg(a, vars)?, self.arg(b, vars)?),
            Literal::NotEq(a, b) => LLit::NotEq(self.arg(a, vars)?, self.arg(b, vars)?),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn flatten_effects(
        &self,
        es: &[NormalEffect],
        vars: &mut HashMap<String, usize>,
        domains: &mut Vec<Vec<u32>>,
        cond: &[LLit],
        forall_vars: &[(usize, Vec<u32>)],
        out: &mut Vec<LEffect>,
    ) -> Result<(), GroundError> {
        let mut simple = LEffect {
            cond: cond.to_vec(),
            add: vec![],
            del: vec![],
            forall_vars: forall_vars.to_vec(),
        };
        for e in es {
            match e {
                NormalEffect::Add(a) => simple.add.push(self.latom(a, vars)?),
                NormalEffect::Del(a) => simple.del.push(self.latom(a, vars)?),
                NormalEffect::When(c, inner) => {
                    let mut c2 = cond.to_vec();
                    for l in c {
                        c2.push(self.llit(l, vars)?);
                    }
                    self.flatten_effects(inner, vars, domains, &c2, forall_vars, out)?;
                }
                NormalEffect::Forall(params, inner) => {
                    let saved = vars.clone();
                    let mut fv = forall_vars.to_vec();
                    for p in params {
                        let idx = domains.len();
                        let objs = self.objects_of(&p.ty);
                        domains.push(objs.clone());
                        vars.insert(p.name.clone(), idx);
                        fv.push((idx, objs));
                    }
                    self.flatten_effects(inner, vars, domains, cond, &fv, out)?;
                    *vars = saved;
                }
            }
        }
        if !simple.add.is_empty() || !simple.del.is_empty() {
            out.push(simple);
        }
        Ok(())
    }

    fn lift_action(&self, a: &NormalAction) -> Result<LAction, GroundError> {
        let mut vars = HashMap::new();
        let mut domains = Vec::new();
        for p in &a.params {
            vars.insert(p.name.clone(), domains.len());
            domains.push(self.objects_of(&p.ty));
        }
        let mut la = LAction {
            name: a.name.clone(),
            domains: Vec::new(),
            num_params: a.params.len(),
            pos: vec![],
            neg: vec![],
            eqs: vec![],
            effects: vec![],
            cost: a
                .cost
                .iter()
                .map(|c| match c {
                    NumExpr::Const(v) => Ok(LCost::Const(*v)),
                    NumExpr::Term(t) => Ok(LCost::Term(
                        t.predicate.clone(),
                        t.args
                            .iter()
                            .map(|x| self.arg(x, &vars))
                            .collect::<Result<_, _>>()?,
                    )),
                })
                .collect::<Result<_, GroundError>>()?,
        };
        for l in &a.precondition {
            match self.llit(l, &vars)? {
                LLit::Pos(x) => la.pos.push(x),
                LLit::Neg(x) => la.neg.push(x),
                LLit::Eq(x, y) => la.eqs.push((x, y, true)),
                LLit::NotEq(x, y) => la.eqs.push((x, y, false)),
            }
        }
        self.flatten_effects(
            &a.effects,
            &mut vars,
            &mut domains,
            &[],
            &[],
            &mut la.effects,
        )?;
        la.domains = domains;
        Ok(la)
    }

    fn ground_key(&self, a: &LAtom, b: &[u32]) -> Key {
        (
            a.pred,
            a.args
                .iter()
                .map(|x| match *x {
                    Arg::Var(i) => b[i],
                    Arg::Obj(o) => o,
                })
                .collect(),
        )
    }

    fn fact_name(&self, k: &Key) -> String {
        let mut s = format!("({}", self.preds[k.0 as usize].0);
        for &o in &k.1 {
            s.push(' ');
            s.push_str(&self.objects[o as usize]);
        }
        s.push(')');
        s
    }
}

fn val(a: Arg, b: &[u32]) -> u32 {
    match a {
        Arg::Var(i) => b[i],
        Arg::Obj(o) => o,
    }
}

struct FactTable {
    index: HashMap<Key, u32>,
    keys: Vec<Key>,
    round: Vec<u32>,
    by_pred: Vec<Vec<u32>>,
    /// Facts by (predicate, argument position, object).
    by_arg: HashMap<(u32, u32, u32), Vec<u32>>,
}

impl FactTable {
    fn insert(&mut self, k: Key, round: u32) -> bool {
        if self.index.contains_key(&k) {
            return false;
        }
        let id = self.keys.len() as u32;
        self.by_pred[k.0 as usize].push(id);
        for (pos, &o) in k.1.iter().enumerate() {
            self.by_arg
                .entry((k.0, pos as u32, o))
                .or_default()
                .push(id);
        }
        self.index.insert(k.clone(), id);
        self.keys.push(k);
        self.round.push(round);
        true
    }
}

/// Which facts an atom may match in the current round of the semi-naive join.
#[derive(Clone, Copy)]
enum Window {
    Delta(u32),
    Old(u32),
    Upto(u32),
}

impl Window {
    fn ok(self, r: u32) -> bool {
        match self {
            Window::Delta(x) => r == x,
            Window::Old(x) => r < x,
            Window::Upto(x) => r <= x,
        }
    }
}

fn bound_value(a: Arg, binding: &[Option<u32>]) -> Option<u32> {
    match a {
        Arg::Obj(o) => Some(o),
        Arg::Var(i) => binding[i],
    }
}

/// Joins the atoms not yet `used`, picking at each level the atom with the most bound
/// arguments and scanning only the facts indexed under its most selective bound argument.
fn join(
    facts: &FactTable,
    atoms: &[(&LAtom, Window)],
    used: &mut Vec<bool>,
    binding: &mut Vec<Option<u32>>,
    work: &Work,
    out: &mut dyn FnMut(&[Option<u32>]),
) {
    let mut pick: Option<(usize, usize)> = None;
    for (j, (a, _)) in atoms.iter().enumerate() {
        if used[j] {
            continue;
        }
        let nb = a
            .args
            .iter()
            .filter(|&&x| bound_value(x, binding).is_some())
            .count();
        if pick.is_none_or(|(_, best)| nb > best) {
            pick = Some((j, nb));
        }
    }
    let Some((j, _)) = pick else {
        out(binding);
        return;
    };
    let (atom, window) = atoms[j];
    used[j] = true;
    let empty = Vec::new();
    let mut candidates = &facts.by_pred[atom.pred as usize];
    for (k, &x) in atom.args.iter().enumerate() {
        if let Some(o) = bound_value(x, binding) {
            let list = facts
                .by_arg
                .get(&(atom.pred, k as u32, o))
                .unwrap_or(&empty);
            if list.len() < candidates.len() {
                candidates = list;
            }
        }
    }
    for &fid in candidates {
        if !work.tick() {
            break;
        }
        if !window.ok(facts.round[fid as usize]) {
            continue;
        }
        let args = &facts.keys[fid as usize].1;
        let mut newly = Vec::new();
        let mut ok = true;
        for (a, &o) in atom.args.iter().zip(args) {
            match *a {
                Arg::Obj(x) => {
                    if x != o {
                        ok = false;
                        break;
                    }
                }
                Arg::Var(i) => match binding[i] {
                    Some(x) if x != o => {
                        ok = false;
                        break;
                    }
                    Some(_) => {}
                    None => {
                        binding[i] = Some(o);
                        newly.push(i);
                    }
                },
            }
        }
        if ok {
            join(facts, atoms, used, binding, work, out);
        }
        for i in newly {
            binding[i] = None;
        }
    }
    used[j] = false;
}

/// Enumerates completions of a partial binding over the variables `vars` (product of domains).
fn complete(
    domains: &[Vec<u32>],
    partial: &[Option<u32>],
    vars: &[usize],
    work: &Work,
    out: &mut dyn FnMut(&[u32]),
) {
    let mut b: Vec<u32> = partial.iter().map(|x| x.unwrap_or(u32::MAX)).collect();
    let free: Vec<usize> = vars
        .iter()
        .copied()
        .filter(|&v| partial[v].is_none())
        .collect();
    // Bound variables must respect their declared types.
    for &v in vars {
        if let Some(o) = partial[v] {
            if domains[v].binary_search(&o).is_err() {
                return;
            }
        }
    }
    fn rec(
        domains: &[Vec<u32>],
        free: &[usize],
        b: &mut Vec<u32>,
        work: &Work,
        out: &mut dyn FnMut(&[u32]),
    ) {
        let Some((&v, rest)) = free.split_first() else {
            if work.tick() {
                out(b);
            }
            return;
        };
        for &o in &domains[v] {
            if work.done.get() > work.max {
                return;
            }
            b[v] = o;
            rec(domains, rest, b, work, out);
        }
    }
    rec(domains, &free, &mut b, work, out);
}

/// The head parameters of a derived rule plus its free (existential) body variables.
struct GroundAction {
    schema: usize,
    binding: Vec<u32>,
}

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
    let work = Work {
        done: std::cell::Cell::new(0),
        max: limits.max_bindings,
    };
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

/// Relaxed reachability: a semi-naive fixpoint over rounds, each finding the bindings whose
/// positive preconditions hold among the facts reached so far (at least one reached in the
/// previous round), keeping the new ground actions and adding what their effects add.
struct Reach<'a> {
    g: &'a Grounder<'a>,
    schemas: &'a [LAction],
    work: &'a Work,
    facts: FactTable,
    actions: Vec<GroundAction>,
    seen: HashSet<(usize, Vec<u32>)>,
    /// Conditional adds waiting for their conditions: (condition keys, add keys).
    pending: Vec<(Vec<Key>, Vec<Key>)>,
}

impl Reach<'_> {
    fn run(&mut self, max_actions: usize) -> Result<(), GroundError> {
        let mut round = 1u32;
        loop {
            let mut found = Vec::new();
            for si in 0..self.schemas.len() {
                self.bindings(si, round, &mut found);
            }
            self.work.check()?;
            self.add_actions(found, max_actions)?;
            let new_facts = self.fire_pending(round);
            self.work.check()?;
            if !new_facts {
                return Ok(());
            }
            round += 1;
        }
    }

    /// The bindings of schema `si` new in `round`: each positive precondition in turn matched
    /// against the previous round's facts, the others against older ones (earlier atoms) or
    /// all (later atoms), so that every binding is found once.
    fn bindings(&self, si: usize, round: u32, found: &mut Vec<(usize, Vec<u32>)>) {
        let (g, facts, s) = (self.g, &self.facts, &self.schemas[si]);
        let params: Vec<usize> = (0..s.num_params).collect();
        let mut emit = |b: &[Option<u32>]| {
            complete(&s.domains, b, &params, self.work, &mut |full: &[u32]| {
                if s.eqs
                    .iter()
                    .any(|&(x, y, eq)| (val(x, full) == val(y, full)) != eq)
                {
                    return;
                }
                let static_false = |n: &LAtom| {
                    !g.fluent[n.pred as usize] && facts.index.contains_key(&g.ground_key(n, full))
                };
                if !s.neg.iter().any(static_false) {
                    found.push((si, full[..s.num_params].to_vec()));
                }
            });
        };
        let mut binding = vec![None; s.domains.len()];
        if s.pos.is_empty() {
            if round == 1 {
                emit(&binding);
            }
            return;
        }
        for i in 0..s.pos.len() {
            let mut order: Vec<(&LAtom, Window)> = vec![(&s.pos[i], Window::Delta(round - 1))];
            for (j, a) in s.pos.iter().enumerate() {
                if j < i {
                    order.push((a, Window::Old(round - 1)));
                } else if j > i {
                    order.push((a, Window::Upto(round - 1)));
                }
            }
            let mut used = vec![false; order.len()];
            // The delta atom goes first: it has the fewest candidate facts.
            used[0] = true;
            let (a0, w0) = order[0];
            for &fid in &facts.by_pred[a0.pred as usize] {
                if !w0.ok(facts.round[fid as usize]) {
                    continue;
                }
                let args = &facts.keys[fid as usize].1;
                let mut ok = true;
                let mut newly = Vec::new();
                for (a, &o) in a0.args.iter().zip(args) {
                    match *a {
                        Arg::Obj(x) => ok &= x == o,
                        Arg::Var(v) => match binding[v] {
                            Some(x) => ok &= x == o,
                            None => {
                                binding[v] = Some(o);
                                newly.push(v);
                            }
                        },
                    }
                }
                if ok {
                    join(facts, &order, &mut used, &mut binding, self.work, &mut emit);
                }
                for v in newly {
                    binding[v] = None;
                }
            }
        }
    }

    /// Keeps the new ground actions and queues what their effects add.
    fn add_actions(
        &mut self,
        found: Vec<(usize, Vec<u32>)>,
        max_actions: usize,
    ) -> Result<(), GroundError> {
        for (si, b) in found {
            if !self.seen.insert((si, b.clone())) {
                continue;
            }
            if self.actions.len() >= max_actions {
                return Err(GroundError::TooLarge(max_actions));
            }
            for e in &self.schemas[si].effects {
                self.queue_adds(&self.schemas[si], e, &b);
            }
            self.actions.push(GroundAction {
                schema: si,
                binding: b,
            });
        }
        Ok(())
    }

    /// Queues the adds of effect `e` of a ground action, for each instance of its `forall`
    /// variables whose static conditions hold, with its fluent conditions.
    fn queue_adds(&mut self, s: &LAction, e: &LEffect, b: &[u32]) {
        let (g, facts, pending) = (self.g, &self.facts, &mut self.pending);
        each_instance(s, e, b, self.work, &mut |full: &[u32]| {
            let mut conds = Vec::new();
            for c in &e.cond {
                let holds = match c {
                    LLit::Pos(a) => {
                        let k = g.ground_key(a, full);
                        if g.fluent[a.pred as usize] {
                            conds.push(k);
                            true
                        } else {
                            facts.index.contains_key(&k)
                        }
                    }
                    LLit::Neg(a) => {
                        g.fluent[a.pred as usize]
                            || !facts.index.contains_key(&g.ground_key(a, full))
                    }
                    LLit::Eq(x, y) => val(*x, full) == val(*y, full),
                    LLit::NotEq(x, y) => val(*x, full) != val(*y, full),
                };
                if !holds {
                    return;
                }
            }
            let adds: Vec<Key> = e.add.iter().map(|a| g.ground_key(a, full)).collect();
            if !adds.is_empty() {
                pending.push((conds, adds));
            }
        });
    }

    /// Adds the queued facts whose conditions are reached, until nothing changes; true if a
    /// fact is new.
    fn fire_pending(&mut self, round: u32) -> bool {
        let mut new_facts = false;
        loop {
            let mut changed = false;
            let mut keep = Vec::with_capacity(self.pending.len());
            for (conds, adds) in self.pending.drain(..) {
                if conds.iter().all(|k| self.facts.index.contains_key(k)) {
                    for k in adds {
                        changed |= self.facts.insert(k, round);
                    }
                } else {
                    keep.push((conds, adds));
                }
            }
            self.pending = keep;
            new_facts |= changed;
            if !changed {
                return new_facts;
            }
        }
    }
}

/// Calls `out` with every instance of effect `e` of the ground action with binding `b`: the
/// binding extended by each value of the effect's `forall` variables.
fn each_instance(s: &LAction, e: &LEffect, b: &[u32], work: &Work, out: &mut dyn FnMut(&[u32])) {
    let vars: Vec<usize> = (0..s.num_params)
        .chain(e.forall_vars.iter().map(|(v, _)| *v))
        .collect();
    let mut partial: Vec<Option<u32>> = vec![None; s.domains.len()];
    for (i, &o) in b.iter().enumerate() {
        partial[i] = Some(o);
    }
    complete(&s.domains, &partial, &vars, work, out);
}

/// Task fact ids of the reached facts: fluent facts only, in the order reached.
struct Ids<'a> {
    facts: &'a FactTable,
    id: HashMap<u32, FactId>,
    names: Vec<String>,
}

impl<'a> Ids<'a> {
    fn new(g: &Grounder, facts: &'a FactTable) -> Self {
        let mut ids = Ids {
            facts,
            id: HashMap::new(),
            names: Vec::new(),
        };
        for (i, k) in facts.keys.iter().enumerate() {
            if g.fluent[k.0 as usize] {
                ids.id.insert(i as u32, ids.names.len() as FactId);
                ids.names.push(g.fact_name(k));
            }
        }
        ids
    }

    /// The task fact of a reached fluent fact.
    fn of(&self, k: &Key) -> Option<FactId> {
        self.facts
            .index
            .get(k)
            .and_then(|i| self.id.get(i))
            .copied()
    }

    /// Whether a fact is reached (static facts: whether it holds).
    fn reached(&self, k: &Key) -> bool {
        self.facts.index.contains_key(k)
    }
}

fn sorted(mut v: Vec<FactId>) -> Vec<FactId> {
    v.sort_unstable();
    v.dedup();
    v
}

fn ground_init(g: &Grounder, ids: &Ids, problem: &Problem) -> Result<Vec<FactId>, GroundError> {
    let mut init = Vec::new();
    for a in &problem.init {
        let la = g.latom(a, &HashMap::new())?;
        init.extend(ids.of(&g.ground_key(&la, &[])));
    }
    Ok(sorted(init))
}

/// Builds the task's operators and axioms from the reached ground actions.
struct Build<'a> {
    g: &'a Grounder<'a>,
    ids: &'a Ids<'a>,
    work: &'a Work,
}

impl Build<'_> {
    /// A ground action's fluent preconditions, positive and negative; None if they contradict.
    fn preconditions(&self, s: &LAction, b: &[u32]) -> Option<(Vec<FactId>, Vec<FactId>)> {
        let (g, ids) = (self.g, self.ids);
        let pos = s.pos.iter().filter_map(|a| ids.of(&g.ground_key(a, b)));
        let neg = s.neg.iter().filter(|a| g.fluent[a.pred as usize]);
        let pre_pos = sorted(pos.collect());
        let pre_neg = sorted(neg.filter_map(|a| ids.of(&g.ground_key(a, b))).collect());
        let contradiction = pre_pos.iter().any(|f| pre_neg.binary_search(f).is_ok());
        (!contradiction).then_some((pre_pos, pre_neg))
    }

    /// The axiom of a ground derived-predicate rule, if its head is reached.
    fn axiom(&self, s: &LAction, b: &[u32]) -> Result<Option<Axiom>, GroundError> {
        let (g, ids) = (self.g, self.ids);
        let Some((pre_pos, pre_neg)) = self.preconditions(s, b) else {
            return Ok(None);
        };
        let head = &s.effects[0].add[0];
        Ok(ids.of(&g.ground_key(head, b)).map(|id| Axiom {
            pre_pos,
            pre_neg,
            head: id,
            layer: g.layer[head.pred as usize],
        }))
    }

    /// The operator of a ground action; None if it can never apply or changes nothing.
    fn operator(&self, s: &LAction, b: &[u32]) -> Result<Option<Operator>, GroundError> {
        let Some((pre_pos, pre_neg)) = self.preconditions(s, b) else {
            return Ok(None);
        };
        let mut uncond = CondEffect::default();
        let mut conds: Vec<CondEffect> = Vec::new();
        for e in &s.effects {
            each_instance(s, e, b, self.work, &mut |full: &[u32]| {
                let Some(ce) = self.instance(e, full, &pre_pos, &pre_neg) else {
                    return;
                };
                if ce.cond_pos.is_empty() && ce.cond_neg.is_empty() {
                    uncond.add.extend(ce.add);
                    uncond.del.extend(ce.del);
                } else if !ce.add.is_empty() || !ce.del.is_empty() {
                    conds.push(ce);
                }
            });
        }
        uncond.add = sorted(uncond.add);
        uncond.del = sorted(uncond.del);
        let mut effects = Vec::new();
        if !uncond.add.is_empty() || !uncond.del.is_empty() {
            effects.push(uncond);
        }
        effects.extend(conds);
        if effects.is_empty() {
            return Ok(None);
        }
        let mut name = format!("({}", s.name);
        for &o in &b[..s.num_params] {
            name.push(' ');
            name.push_str(&self.g.objects[o as usize]);
        }
        name.push(')');
        let cost = self.cost(s, b, &name)?;
        Ok(Some(Operator {
            name,
            pre_pos,
            pre_neg,
            effects,
            cost,
        }))
    }

    /// A ground action's cost: the sum of its cost terms under a `total-cost` metric, else 1.
    fn cost(&self, s: &LAction, b: &[u32], name: &str) -> Result<u32, GroundError> {
        if !self.g.metric {
            return Ok(1);
        }
        let mut total: u64 = 0;
        for c in &s.cost {
            let v = match c {
                LCost::Const(v) => *v,
                LCost::Term(f, args) => {
                    let key = (
                        f.clone(),
                        args.iter().map(|&a| val(a, b)).collect::<Vec<_>>(),
                    );
                    let Some(&v) = self.g.values.get(&key) else {
                        let mut term = format!("({f}");
                        for &o in &key.1 {
                            term.push(' ');
                            term.push_str(&self.g.objects[o as usize]);
                        }
                        return Err(GroundError::MissingValue(format!("{term}) of {name}")));
                    };
                    v
                }
            };
            total = total.saturating_add(v);
        }
        u32::try_from(total).map_err(|_| GroundError::CostTooLarge(name.to_string()))
    }

    /// One instance of an effect: its fluent conditions (without those the precondition
    /// implies) and what it adds and deletes; None if it can never fire.
    fn instance(
        &self,
        e: &LEffect,
        full: &[u32],
        pre_pos: &[FactId],
        pre_neg: &[FactId],
    ) -> Option<CondEffect> {
        let (g, ids) = (self.g, self.ids);
        let mut ce = CondEffect::default();
        for c in &e.cond {
            match c {
                LLit::Pos(a) => {
                    let k = g.ground_key(a, full);
                    if g.fluent[a.pred as usize] {
                        // A fluent condition never reached never holds.
                        ce.cond_pos.push(ids.of(&k)?);
                    } else if !ids.reached(&k) {
                        return None;
                    }
                }
                LLit::Neg(a) => {
                    let k = g.ground_key(a, full);
                    if g.fluent[a.pred as usize] {
                        ce.cond_neg.extend(ids.of(&k));
                    } else if ids.reached(&k) {
                        return None;
                    }
                }
                LLit::Eq(x, y) if val(*x, full) != val(*y, full) => return None,
                LLit::NotEq(x, y) if val(*x, full) == val(*y, full) => return None,
                LLit::Eq(..) | LLit::NotEq(..) => {}
            }
        }
        ce.cond_pos.retain(|f| pre_pos.binary_search(f).is_err());
        ce.cond_neg.retain(|f| pre_neg.binary_search(f).is_err());
        if ce.cond_pos.iter().any(|f| pre_neg.binary_search(f).is_ok())
            || ce.cond_neg.iter().any(|f| pre_pos.binary_search(f).is_ok())
        {
            return None;
        }
        ce.add = e
            .add
            .iter()
            .filter_map(|a| ids.of(&g.ground_key(a, full)))
            .collect();
        ce.del = e
            .del
            .iter()
            .filter_map(|a| ids.of(&g.ground_key(a, full)))
            .collect();
        ce.cond_pos.sort_unstable();
        ce.cond_neg.sort_unstable();
        Some(ce)
    }
}

/// The goal's fluent facts, positive and negative; an error if a static part is false.
fn ground_goal(
    g: &Grounder,
    ids: &Ids,
    goal: &[Literal],
) -> Result<(Vec<FactId>, Vec<FactId>), GroundError> {
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    let unreachable = |what: String| Err(GroundError::GoalUnreachable(what));
    for l in goal {
        match g.llit(l, &HashMap::new())? {
            LLit::Pos(a) => {
                let k = g.ground_key(&a, &[]);
                if g.fluent[a.pred as usize] {
                    match ids.of(&k) {
                        Some(f) => pos.push(f),
                        None => return unreachable(g.fact_name(&k)),
                    }
                } else if !ids.reached(&k) {
                    return unreachable(g.fact_name(&k));
                }
            }
            LLit::Neg(a) => {
                let k = g.ground_key(&a, &[]);
                if g.fluent[a.pred as usize] {
                    neg.extend(ids.of(&k));
                } else if ids.reached(&k) {
                    return unreachable(format!("(not {})", g.fact_name(&k)));
                }
            }
            LLit::Eq(x, y) if val(x, &[]) != val(y, &[]) => {
                return unreachable("an equality of distinct objects".into());
            }
            LLit::NotEq(x, y) if val(x, &[]) == val(y, &[]) => {
                return unreachable("an inequality of an object with itself".into());
            }
            LLit::Eq(..) | LLit::NotEq(..) => {}
        }
    }
    Ok((sorted(pos), sorted(neg)))
}
