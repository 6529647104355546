//! Delete-relaxation heuristics: h_max, h_add, h_FF (with preferred operators) and LM-cut.
//! Conditional effects are split into one relaxed action per effect; all relaxed actions of
//! an operator share its cost, which keeps LM-cut admissible. Negative conditions are relaxed
//! facts of their own, as in Fast Downward: ¬f holds in a state without f and is added by the
//! effects that delete f. So a condition on a fact nothing can delete any more (Zen Puzzle's
//! walked tiles) makes its action unreachable, and dead ends become visible.

use super::negaxioms::NegatedAxioms;
use crate::planning::task::{FactId, OpId, State, Task};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub const INF: u64 = u64::MAX;
const GOAL_OP: u32 = u32::MAX;
/// The operator id of relaxed actions that come from axioms (cost 0).
const AXIOM_OP: u32 = u32::MAX - 1;

/// A relaxed action: one effect of one operator.
#[derive(Debug, Clone)]
pub struct RelAction {
    pub pre: Vec<u32>,
    pub add: Vec<u32>,
    pub op: u32,
}

/// The relaxed task with two artificial facts: `TRUE` (always holds; the precondition of
/// actions that have none) and `GOAL` (added by the goal action, whose preconditions are the
/// goal facts).
#[derive(Debug, Clone)]
pub struct RelaxedTask {
    pub num_facts: usize,
    pub true_fact: u32,
    pub goal_fact: u32,
    pub actions: Vec<RelAction>,
    pub op_cost: Vec<u64>,
    /// Negated facts: relaxed fact `num_task_facts + 2 + k` is ¬`neg_of[k]`.
    pub neg_of: Vec<u32>,
    /// The propagation's flat layout (see [`Flat`]).
    flat: Flat,
}

/// The relaxed task laid out for cost propagation: the actions each fact is a precondition
/// of, and each action's add list, as contiguous slices (`start[i]..start[i + 1]`), and the
/// per-action counters an evaluation starts from (copied in one pass).
#[derive(Debug, Clone, Default)]
struct Flat {
    pre_of_start: Vec<u32>,
    pre_of: Vec<u32>,
    add_start: Vec<u32>,
    add: Vec<u32>,
    op: Vec<u32>,
    counters: Vec<Counter>,
    /// Every operator costs at most [`BUCKET_MAX_OP_COST`]: costs stay small and dense, so
    /// the propagation queue is a bucket queue.
    small_costs: bool,
}

/// One relaxed action's state during propagation: preconditions not yet reached and the
/// value accumulated over the reached ones.
#[derive(Debug, Clone, Copy, Default)]
struct Counter {
    unsat: u32,
    val: u64,
}

/// Tasks whose operators cost at most this use a bucket queue in the propagation.
const BUCKET_MAX_OP_COST: u64 = 16;
/// Fact costs at or above this go to the heap even in bucket mode (bounds the buckets).
const BUCKET_LIMIT: u64 = 1 << 16;

/// Whether every operator costs at most [`BUCKET_MAX_OP_COST`] (the bucket queue pays).
fn bucket_sized(op_cost: &[u64]) -> bool {
    op_cost.iter().all(|&c| c <= BUCKET_MAX_OP_COST)
}

impl Flat {
    fn new(num_facts: usize, actions: &[RelAction], op_cost: &[u64]) -> Flat {
        let mut count = vec![0u32; num_facts + 1];
        for a in actions {
            for &p in &a.pre {
                count[p as usize + 1] += 1;
            }
        }
        for i in 0..num_facts {
            count[i + 1] += count[i];
        }
        let mut next = count.clone();
        let mut pre_of = vec![0u32; count[num_facts] as usize];
        for (ai, a) in actions.iter().enumerate() {
            for &p in &a.pre {
                pre_of[next[p as usize] as usize] = ai as u32;
                next[p as usize] += 1;
            }
        }
        let mut add_start = Vec::with_capacity(actions.len() + 1);
        let mut add = Vec::new();
        add_start.push(0);
        for a in actions {
            add.extend_from_slice(&a.add);
            add_start.push(add.len() as u32);
        }
        Flat {
            pre_of_start: count,
            pre_of,
            add_start,
            add,
            op: actions.iter().map(|a| a.op).collect(),
            counters: actions
                .iter()
                .map(|a| Counter {
                    unsat: a.pre.len() as u32,
                    val: 0,
                })
                .collect(),
            small_costs: bucket_sized(op_cost),
        }
    }
}

/// The negated facts of a relaxed task: ids for `¬f`, handed out as conditions ask for them.
struct Negations {
    mode: Derived,
    first_id: u32,
    is_derived: Vec<bool>,
    derived: NegatedAxioms,
    neg_id: Vec<u32>,
    neg_of: Vec<u32>,
}

impl Negations {
    fn new(task: &Task, derived: Derived) -> Negations {
        let n = task.facts.len();
        let mut is_derived = vec![false; n];
        for &f in &task.derived_facts {
            is_derived[f as usize] = true;
        }
        let negative_conditions = task
            .operators
            .iter()
            .flat_map(|o| {
                o.pre_neg
                    .iter()
                    .chain(o.effects.iter().flat_map(|e| &e.cond_neg))
            })
            .chain(&task.goal_neg)
            .chain(task.axioms.iter().flat_map(|a| &a.pre_neg))
            .copied();
        let rules = match derived {
            Derived::Negated => NegatedAxioms::new(task, negative_conditions),
            Derived::Positive => NegatedAxioms::default(),
        };
        Negations {
            mode: derived,
            first_id: n as u32 + 2,
            derived: rules,
            is_derived,
            neg_id: vec![u32::MAX; n],
            neg_of: Vec::new(),
        }
    }

    /// The relaxed fact `¬f`; None for a derived fact without exact negated axioms (the
    /// condition is then left out of the relaxation).
    fn id(&mut self, f: u32) -> Option<u32> {
        if self.is_derived[f as usize] && !self.derived.rules.contains_key(&f) {
            return None;
        }
        if self.neg_id[f as usize] == u32::MAX {
            self.neg_id[f as usize] = self.first_id + self.neg_of.len() as u32;
            self.neg_of.push(f);
        }
        Some(self.neg_id[f as usize])
    }

    /// `pos` and the negated facts of `neg` as one sorted precondition list (TRUE if empty).
    fn pre(&mut self, pos: &[u32], neg: &[u32], true_fact: u32) -> Vec<u32> {
        let mut pre: Vec<u32> = pos.to_vec();
        pre.extend(neg.iter().filter_map(|&f| self.id(f)));
        pre.sort_unstable();
        pre.dedup();
        if pre.is_empty() {
            pre.push(true_fact);
        }
        pre
    }

    /// The axiom actions: each axiom, then each negated-axiom rule (both cost 0).
    fn axiom_actions(&mut self, task: &Task, true_fact: u32) -> Vec<RelAction> {
        let mut out = Vec::new();
        for ax in &task.axioms {
            let neg: &[u32] = match self.mode {
                Derived::Negated => &ax.pre_neg,
                Derived::Positive => &[],
            };
            let pre = self.pre(&ax.pre_pos, neg, true_fact);
            out.push(RelAction {
                pre,
                add: vec![ax.head],
                op: AXIOM_OP,
            });
        }
        let mut heads: Vec<u32> = self.derived.rules.keys().copied().collect();
        heads.sort_unstable();
        for d in heads {
            let Some(head) = self.id(d) else { continue };
            let bodies = self.derived.rules.get(&d).cloned().unwrap_or_default();
            for body in bodies {
                let pos: Vec<u32> = body.iter().filter(|l| l.1).map(|l| l.0).collect();
                let neg: Vec<u32> = body.iter().filter(|l| !l.1).map(|l| l.0).collect();
                let pre = self.pre(&pos, &neg, true_fact);
                out.push(RelAction {
                    pre,
                    add: vec![head],
                    op: AXIOM_OP,
                });
            }
        }
        out
    }
}

/// How a relaxed task treats negative conditions on derived facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derived {
    /// Through negated axioms ([`NegatedAxioms`]): more informed, and dearer to evaluate
    /// where many conditions are negated derived facts.
    Negated,
    /// Left out (the axioms' positive bodies only): what A* with LM-cut uses, where each
    /// evaluation's many cut rounds make the larger relaxation cost more than it saves
    /// (optical-telegraphs: 6× the time for 0.4× the expansions).
    Positive,
}

impl RelaxedTask {
    pub fn new(task: &Task) -> RelaxedTask {
        Self::with_derived(task, Derived::Negated)
    }

    pub fn with_derived(task: &Task, derived: Derived) -> RelaxedTask {
        let n = task.facts.len();
        let true_fact = n as u32;
        let goal_fact = n as u32 + 1;
        // Negated facts (Fast Downward's "negated atom" values): ¬f is a relaxed fact that
        // holds in a state without f and is added by every effect deleting f (by the
        // negated axioms when f is derived).
        let mut negs = Negations::new(task, derived);
        let mut actions = Vec::new();
        for (i, o) in task.operators.iter().enumerate() {
            for e in &o.effects {
                let pos: Vec<u32> = o.pre_pos.iter().chain(&e.cond_pos).copied().collect();
                let neg: Vec<u32> = o.pre_neg.iter().chain(&e.cond_neg).copied().collect();
                let pre = negs.pre(&pos, &neg, true_fact);
                actions.push((pre, e.add.clone(), e.del.clone(), i as u32));
            }
        }
        let goal_pre = negs.pre(&task.goal_pos, &task.goal_neg, true_fact);
        let axiom_actions = negs.axiom_actions(task, true_fact);
        // Every ¬f has its id now: the deleting effects can add them.
        let mut rel: Vec<RelAction> = Vec::new();
        for (pre, add, del, op) in actions {
            let mut add = add;
            for f in del {
                if negs.neg_id[f as usize] != u32::MAX {
                    add.push(negs.neg_id[f as usize]);
                }
            }
            if !add.is_empty() {
                rel.push(RelAction { pre, add, op });
            }
        }
        let mut actions = rel;
        actions.extend(axiom_actions);
        actions.push(RelAction {
            pre: goal_pre,
            add: vec![goal_fact],
            op: GOAL_OP,
        });
        let neg_of = negs.neg_of;
        let num_facts = n + 2 + neg_of.len();
        let op_cost: Vec<u64> = task.operators.iter().map(|o| o.cost as u64).collect();
        let flat = Flat::new(num_facts, &actions, &op_cost);
        RelaxedTask {
            num_facts,
            true_fact,
            goal_fact,
            actions,
            op_cost,
            neg_of,
            flat,
        }
    }

    /// The relaxed facts true in `s`: its facts, TRUE, and ¬f for every tracked f not in s.
    pub fn state_facts<'a>(&'a self, s: &'a State) -> impl Iterator<Item = u32> + 'a {
        let base = self.goal_fact + 1;
        s.facts().chain(std::iter::once(self.true_fact)).chain(
            self.neg_of
                .iter()
                .enumerate()
                .filter(move |(_, f)| !s.has(**f))
                .map(move |(k, _)| base + k as u32),
        )
    }
}

fn op_cost_of(op: u32, op_cost: &[u64]) -> u64 {
    if op >= AXIOM_OP {
        0
    } else {
        op_cost[op as usize]
    }
}

/// The propagation's priority queue: buckets indexed by cost while costs are small (popped
/// in cost order, as the costs pushed never fall below the cost last popped), a binary heap
/// for the rest. Each bucket is a stack.
#[derive(Debug, Clone, Default)]
struct CostQueue {
    buckets: Vec<Vec<u32>>,
    /// The lowest bucket that may hold entries.
    current: usize,
    /// One past the highest bucket used since the last reset.
    used: usize,
    in_buckets: usize,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl CostQueue {
    fn reset(&mut self) {
        for b in &mut self.buckets[..self.used] {
            b.clear();
        }
        self.current = 0;
        self.used = 0;
        self.in_buckets = 0;
        self.heap.clear();
    }

    fn push(&mut self, buckets: bool, cost: u64, fact: u32) {
        if buckets && cost < BUCKET_LIMIT {
            let i = cost as usize;
            if i >= self.buckets.len() {
                self.buckets.resize_with(i + 1, Vec::new);
            }
            self.buckets[i].push(fact);
            self.used = self.used.max(i + 1);
            self.in_buckets += 1;
        } else {
            self.heap.push(Reverse((cost, fact)));
        }
    }

    fn pop(&mut self) -> Option<(u64, u32)> {
        if self.in_buckets > 0 {
            while self.current < self.used {
                if let Some(f) = self.buckets[self.current].pop() {
                    self.in_buckets -= 1;
                    return Some((self.current as u64, f));
                }
                self.current += 1;
            }
        }
        self.heap.pop().map(|Reverse(e)| e)
    }
}

/// Scratch space for one heuristic instance.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    pub fact_cost: Vec<u64>,
    pub supporter: Vec<u32>,
    counters: Vec<Counter>,
    queue: CostQueue,
    marked: Vec<bool>,
    op_marked: Vec<bool>,
    seen_fact: Vec<bool>,
    stack: Vec<u32>,
}

/// Operator costs for a propagation, and whether they are all small enough for the bucket
/// queue (at most [`BUCKET_MAX_OP_COST`]).
#[derive(Debug, Clone, Copy)]
pub struct Costs<'a> {
    pub op: &'a [u64],
    pub small: bool,
}

impl RelaxedTask {
    /// The task's own operator costs.
    pub fn costs(&self) -> Costs<'_> {
        Costs {
            op: &self.op_cost,
            small: self.flat.small_costs,
        }
    }
}

/// How a heuristic sees operator costs (Fast Downward's `adapt_costs`): as they are, every
/// operator costing 1 (LAMA's first search: the heuristic counts actions, so zero-cost
/// actions no longer make plateaus of equal values), or cost + 1 (LAMA's later stages: the
/// costs still count but a free action is not free).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CostType {
    #[default]
    Normal,
    One,
    PlusOne,
}

impl CostType {
    /// The costs `op_cost` seen through this cost type.
    pub fn adapt(self, op_cost: &[u64]) -> Vec<u64> {
        op_cost
            .iter()
            .map(|&c| match self {
                CostType::Normal => c,
                CostType::One => 1,
                CostType::PlusOne => c.saturating_add(1),
            })
            .collect()
    }
}

/// Cost propagation (generalised Dijkstra). `additive` selects h_add, otherwise h_max.
pub fn propagate(rt: &RelaxedTask, s: &State, costs: Costs, additive: bool, sc: &mut Scratch) {
    propagate_full(rt, s, costs, additive, true, sc)
}

/// Like [`propagate`]; with `stop_at_goal == false` every fact gets its final cost.
pub fn propagate_full(
    rt: &RelaxedTask,
    s: &State,
    costs: Costs,
    additive: bool,
    stop_at_goal: bool,
    sc: &mut Scratch,
) {
    let nf = rt.num_facts;
    let flat = &rt.flat;
    let op_cost = costs.op;
    sc.fact_cost.clear();
    sc.fact_cost.resize(nf, INF);
    sc.supporter.clear();
    sc.supporter.resize(nf, u32::MAX);
    sc.counters.clear();
    sc.counters.extend_from_slice(&flat.counters);
    sc.queue.reset();
    let buckets = costs.small;
    // The state's facts include TRUE; each is pushed once, so each is expanded once and every
    // precondition counter reaches zero exactly once.
    for f in rt.state_facts(s) {
        if (f as usize) < nf {
            sc.fact_cost[f as usize] = 0;
            sc.queue.push(buckets, 0, f);
        }
    }
    while let Some((c, f)) = sc.queue.pop() {
        if c > sc.fact_cost[f as usize] {
            continue;
        }
        if f == rt.goal_fact && stop_at_goal {
            break;
        }
        let (lo, hi) = (
            flat.pre_of_start[f as usize] as usize,
            flat.pre_of_start[f as usize + 1] as usize,
        );
        for &ai in &flat.pre_of[lo..hi] {
            let ai = ai as usize;
            let counter = &mut sc.counters[ai];
            counter.val = if additive {
                counter.val.saturating_add(c)
            } else {
                counter.val.max(c)
            };
            counter.unsat -= 1;
            if counter.unsat == 0 {
                let v = counter.val.saturating_add(op_cost_of(flat.op[ai], op_cost));
                let (alo, ahi) = (flat.add_start[ai] as usize, flat.add_start[ai + 1] as usize);
                for &q in &flat.add[alo..ahi] {
                    if v < sc.fact_cost[q as usize] {
                        sc.fact_cost[q as usize] = v;
                        sc.supporter[q as usize] = ai as u32;
                        sc.queue.push(buckets, v, q);
                    }
                }
            }
        }
    }
}

/// Which relaxation heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelaxedKind {
    Max,
    Add,
    FF,
}

/// h_max / h_add / h_FF with preferred operators (relaxed-plan actions applicable in s).
pub struct RelaxedHeuristic {
    pub rt: std::sync::Arc<RelaxedTask>,
    pub kind: RelaxedKind,
    /// The operator costs the heuristic counts (the task's, adapted by a [`CostType`]).
    op_cost: Vec<u64>,
    small: bool,
    sc: Box<Scratch>,
}

impl RelaxedHeuristic {
    pub fn new(rt: std::sync::Arc<RelaxedTask>, kind: RelaxedKind) -> Self {
        Self::with_costs(rt, kind, CostType::Normal)
    }

    /// The heuristic counting operator costs as `cost_type` says.
    pub fn with_costs(
        rt: std::sync::Arc<RelaxedTask>,
        kind: RelaxedKind,
        cost_type: CostType,
    ) -> Self {
        let op_cost = cost_type.adapt(&rt.op_cost);
        let small = bucket_sized(&op_cost);
        RelaxedHeuristic {
            rt,
            kind,
            op_cost,
            small,
            sc: Box::default(),
        }
    }

    /// The heuristic value (None: dead end), filling `preferred` when given.
    pub fn evaluate(
        &mut self,
        task: &Task,
        s: &State,
        preferred: Option<&mut Vec<OpId>>,
    ) -> Option<u64> {
        let rt = &*self.rt;
        let costs = Costs {
            op: &self.op_cost,
            small: self.small,
        };
        propagate(rt, s, costs, self.kind != RelaxedKind::Max, &mut self.sc);
        let hg = self.sc.fact_cost[rt.goal_fact as usize];
        if hg == INF {
            return None;
        }
        if self.kind == RelaxedKind::Max && preferred.is_none() {
            return Some(hg);
        }
        // Relaxed plan extraction from best supporters.
        let sc = &mut self.sc;
        sc.marked.clear();
        sc.marked.resize(rt.actions.len(), false);
        sc.op_marked.clear();
        sc.op_marked.resize(rt.op_cost.len(), false);
        sc.stack.clear();
        sc.stack.push(rt.goal_fact);
        let mut ff = 0u64;
        let mut pref = preferred;
        if let Some(p) = pref.as_deref_mut() {
            p.clear();
        }
        sc.seen_fact.clear();
        sc.seen_fact.resize(rt.num_facts, false);
        while let Some(f) = sc.stack.pop() {
            // Facts of the state have no supporter; a fact reached by zero-cost actions has
            // cost 0 too but still needs its supporter in the relaxed plan.
            if sc.seen_fact[f as usize] || sc.supporter[f as usize] == u32::MAX {
                continue;
            }
            sc.seen_fact[f as usize] = true;
            let ai = sc.supporter[f as usize];
            if ai == u32::MAX || sc.marked[ai as usize] {
                continue;
            }
            sc.marked[ai as usize] = true;
            let a = &rt.actions[ai as usize];
            if a.op < AXIOM_OP && !sc.op_marked[a.op as usize] {
                sc.op_marked[a.op as usize] = true;
                ff += self.op_cost[a.op as usize];
            }
            let mut all_true = true;
            for &p in &a.pre {
                if sc.supporter[p as usize] != u32::MAX {
                    all_true = false;
                    sc.stack.push(p);
                }
            }
            if all_true && a.op < AXIOM_OP {
                if let Some(p) = pref.as_deref_mut() {
                    if task.applicable(s, a.op) && !p.contains(&a.op) {
                        p.push(a.op);
                    }
                }
            }
        }
        Some(match self.kind {
            RelaxedKind::FF => ff,
            _ => hg,
        })
    }
}

/// LM-cut (Helmert & Domshlak 2009) on the split relaxation with shared operator costs,
/// seeded with the goal landmarks that need no search: a goal fact false in the state needs
/// one of its achievers, and when no operator achieves two goal facts these landmarks are
/// disjoint. Each gets its cheapest achiever's cost, which is subtracted from its achievers
/// (a cost partitioning, so the sum stays admissible) before LM-cut runs on the rest. Plain
/// LM-cut can count a cut of moves once for several goal cells (Zen Puzzle: it valued a
/// state with 26 unvisited tiles at 14); the seed never counts less than the unvisited tiles.
/// The result is also at least h_max.
///
/// After each cut, h_max is updated incrementally as in Fast Downward: only the facts whose
/// cheapest support got cheaper are revisited, from the effects of the cut operators.
pub struct LmCut {
    pub rt: std::sync::Arc<RelaxedTask>,
    /// Goal facts whose achievers achieve no other goal fact, with their achieving operators
    /// and the cheapest achiever's cost.
    seeds: Vec<(u32, Vec<u32>, u64)>,
    in_state: Vec<bool>,
    sc: Scratch,
    cost: Vec<u64>,
    adders: Vec<Vec<u32>>,
    /// The relaxed actions of each operator (one per conditional effect).
    op_actions: Vec<Vec<u32>>,
    /// Each relaxed action's precondition choice (its dearest precondition under h_max;
    /// `u32::MAX` when unreachable) and that precondition's h_max value.
    pcf: Vec<u32>,
    pcf_cost: Vec<u64>,
    /// The actions each fact is the chosen precondition of.
    by_pcf: ByChoice,
    in_goal_zone: Vec<bool>,
    reached: Vec<bool>,
    queue: Vec<u32>,
    /// The operators whose cost was lowered last (by the seeds or a cut).
    cut_ops: Vec<u32>,
}

impl LmCut {
    pub fn new(rt: std::sync::Arc<RelaxedTask>) -> Self {
        let mut adders = vec![Vec::new(); rt.num_facts];
        let mut op_actions = vec![Vec::new(); rt.op_cost.len()];
        for (ai, a) in rt.actions.iter().enumerate() {
            for &q in &a.add {
                adders[q as usize].push(ai as u32);
            }
            if a.op < AXIOM_OP {
                op_actions[a.op as usize].push(ai as u32);
            }
        }
        // Goal facts: the preconditions of the goal action.
        let goals: Vec<u32> = rt
            .actions
            .iter()
            .find(|a| a.op == GOAL_OP)
            .map(|a| {
                a.pre
                    .iter()
                    .copied()
                    .filter(|&f| f != rt.true_fact)
                    .collect()
            })
            .unwrap_or_default();
        let mut is_goal = vec![false; rt.num_facts];
        for &g in &goals {
            is_goal[g as usize] = true;
        }
        // Goal facts added by each operator (over all its effects).
        let mut op_goals: Vec<Vec<u32>> = vec![Vec::new(); rt.op_cost.len()];
        for a in &rt.actions {
            if a.op < AXIOM_OP {
                for &q in &a.add {
                    if is_goal[q as usize] && !op_goals[a.op as usize].contains(&q) {
                        op_goals[a.op as usize].push(q);
                    }
                }
            }
        }
        let mut seeds = Vec::new();
        for &g in &goals {
            let mut ops: Vec<u32> = Vec::new();
            let mut exclusive = true;
            for &ai in &adders[g as usize] {
                let a = &rt.actions[ai as usize];
                if a.op >= AXIOM_OP {
                    exclusive = false; // derived: no operator landmark
                    break;
                }
                if op_goals[a.op as usize].len() > 1 {
                    exclusive = false;
                    break;
                }
                ops.push(a.op);
            }
            ops.sort_unstable();
            ops.dedup();
            if exclusive && !ops.is_empty() {
                let c = ops
                    .iter()
                    .map(|&o| rt.op_cost[o as usize])
                    .min()
                    .unwrap_or(0);
                seeds.push((g, ops, c));
            }
        }
        LmCut {
            seeds,
            in_state: Vec::new(),
            rt,
            sc: Scratch::default(),
            cost: Vec::new(),
            adders,
            op_actions,
            pcf: Vec::new(),
            pcf_cost: Vec::new(),
            by_pcf: ByChoice::default(),
            in_goal_zone: Vec::new(),
            reached: Vec::new(),
            queue: Vec::new(),
            cut_ops: Vec::new(),
        }
    }

    pub fn evaluate(&mut self, s: &State) -> Option<u64> {
        let rt = self.rt.clone();
        self.cost.clear();
        self.cost.extend_from_slice(&rt.op_cost);
        // h_max under the full costs (also the dead-end test).
        self.propagate(&rt, s);
        let hmax = self.sc.fact_cost[rt.goal_fact as usize];
        if hmax == INF {
            return None;
        }
        self.choose_preconditions(&rt);
        let mut h = self.seed(&rt, s);
        self.update_hmax(&rt);
        #[cfg(test)]
        self.assert_hmax_exact(&rt, s);
        while self.sc.fact_cost[rt.goal_fact as usize] > 0 {
            self.mark_goal_zone(&rt);
            let m = self.cut(&rt, s);
            if m == INF || m == 0 {
                // Cannot happen for a correct cut; stay admissible by stopping here.
                break;
            }
            h += m;
            self.cut_ops.sort_unstable();
            self.cut_ops.dedup();
            for &o in &self.cut_ops {
                self.cost[o as usize] -= m;
            }
            self.update_hmax(&rt);
            #[cfg(test)]
            self.assert_hmax_exact(&rt, s);
        }
        Some(h.max(hmax))
    }

    /// Test builds check every incremental update against a full propagation under the same
    /// costs: the same h_max values and the same precondition choices.
    #[cfg(test)]
    fn assert_hmax_exact(&self, rt: &RelaxedTask, s: &State) {
        let mut full = Scratch::default();
        let costs = Costs {
            op: &self.cost,
            small: rt.flat.small_costs,
        };
        propagate_full(rt, s, costs, false, false, &mut full);
        assert_eq!(
            full.fact_cost, self.sc.fact_cost,
            "incremental h_max is off"
        );
        for (ai, a) in rt.actions.iter().enumerate() {
            let (first, cost) = dearest(&a.pre, &full.fact_cost);
            let chosen = self.pcf[ai];
            assert_eq!(cost, self.pcf_cost[ai], "choice of {ai} is off");
            assert_eq!(
                first == u32::MAX,
                chosen == u32::MAX,
                "choice of {ai} is off"
            );
            if chosen != u32::MAX {
                assert!(a.pre.contains(&chosen) && full.fact_cost[chosen as usize] == cost);
            }
        }
    }

    /// Lowers the h_max values (and the precondition choices) after the operators in
    /// `cut_ops` got cheaper: a Dijkstra from the effects of their actions that revisits an
    /// action only when its chosen precondition got cheaper. The h_max values equal a full
    /// propagation's under the new costs, and every choice is a dearest precondition.
    fn update_hmax(&mut self, rt: &RelaxedTask) {
        let flat = &rt.flat;
        let small = flat.small_costs;
        let sc = &mut self.sc;
        sc.queue.reset();
        for &o in &self.cut_ops {
            for &ai in &self.op_actions[o as usize] {
                let ai = ai as usize;
                if self.pcf[ai] != u32::MAX {
                    lower_adds(
                        flat,
                        sc,
                        ai,
                        self.pcf_cost[ai] + self.cost[o as usize],
                        small,
                    );
                }
            }
        }
        while let Some((c, f)) = sc.queue.pop() {
            if c > sc.fact_cost[f as usize] {
                continue;
            }
            let (lo, hi) = (
                flat.pre_of_start[f as usize] as usize,
                flat.pre_of_start[f as usize + 1] as usize,
            );
            for &ai in &flat.pre_of[lo..hi] {
                let ai = ai as usize;
                if self.pcf[ai] != f || self.pcf_cost[ai] <= c {
                    continue;
                }
                let old = self.pcf_cost[ai];
                let (p, pc) = dearest(&rt.actions[ai].pre, &sc.fact_cost);
                if p != f {
                    self.by_pcf.unlink(f, ai as u32);
                    self.by_pcf.link(p, ai as u32);
                }
                self.pcf[ai] = p;
                self.pcf_cost[ai] = pc;
                if pc < old {
                    let v = pc + op_cost_of(flat.op[ai], &self.cost);
                    lower_adds(flat, sc, ai, v, small);
                }
            }
        }
    }

    /// h_max under the current (reduced) costs.
    fn propagate(&mut self, rt: &RelaxedTask, s: &State) {
        let costs = Costs {
            op: &self.cost,
            small: rt.flat.small_costs,
        };
        propagate_full(rt, s, costs, false, false, &mut self.sc);
    }

    /// The seeds' share: each goal not true in `s` adds its cheapest achiever's cost, which
    /// is taken off its achievers (listed in `cut_ops`).
    fn seed(&mut self, rt: &RelaxedTask, s: &State) -> u64 {
        let mut h = 0u64;
        self.cut_ops.clear();
        if self.seeds.is_empty() {
            return h;
        }
        self.in_state.clear();
        self.in_state.resize(rt.num_facts, false);
        for f in rt.state_facts(s) {
            if (f as usize) < rt.num_facts {
                self.in_state[f as usize] = true;
            }
        }
        for (g, ops, c) in &self.seeds {
            if !self.in_state[*g as usize] && *c > 0 {
                h += c;
                for &o in ops {
                    self.cost[o as usize] -= c;
                    self.cut_ops.push(o);
                }
            }
        }
        h
    }

    /// Each action's precondition choice function: its dearest precondition under h_max.
    fn choose_preconditions(&mut self, rt: &RelaxedTask) {
        self.pcf.clear();
        self.pcf_cost.clear();
        self.by_pcf.reset(rt.num_facts, rt.actions.len());
        for (ai, a) in rt.actions.iter().enumerate() {
            let (p, c) = dearest(&a.pre, &self.sc.fact_cost);
            self.pcf.push(p);
            self.pcf_cost.push(c);
            if p != u32::MAX {
                self.by_pcf.link(p, ai as u32);
            }
        }
    }

    /// The goal zone: backwards from GOAL over zero-cost actions.
    fn mark_goal_zone(&mut self, rt: &RelaxedTask) {
        self.in_goal_zone.clear();
        self.in_goal_zone.resize(rt.num_facts, false);
        self.in_goal_zone[rt.goal_fact as usize] = true;
        self.queue.clear();
        self.queue.push(rt.goal_fact);
        while let Some(f) = self.queue.pop() {
            for k in 0..self.adders[f as usize].len() {
                let ai = self.adders[f as usize][k] as usize;
                if self.pcf[ai] == u32::MAX || op_cost_of(rt.flat.op[ai], &self.cost) != 0 {
                    continue;
                }
                self.break_ties(rt, ai);
                let p = self.pcf[ai];
                if !self.in_goal_zone[p as usize] {
                    self.in_goal_zone[p as usize] = true;
                    self.queue.push(p);
                }
            }
        }
    }

    /// Among the dearest preconditions of the zero-cost action `ai`, prefers one that is
    /// already in the goal zone or that only operators with a cost achieve (Fast Downward's
    /// goal-zone and border detection): the zone then grows less, and the cuts stay small.
    fn break_ties(&mut self, rt: &RelaxedTask, ai: usize) {
        let cost = self.pcf_cost[ai];
        for &p in &rt.actions[ai].pre {
            if self.sc.fact_cost[p as usize] != cost {
                continue;
            }
            let border = || {
                self.adders[p as usize]
                    .iter()
                    .all(|&a| op_cost_of(rt.flat.op[a as usize], &self.cost) != 0)
            };
            if self.in_goal_zone[p as usize] || border() {
                let old = self.pcf[ai];
                if p != old {
                    self.by_pcf.unlink(old, ai as u32);
                    self.by_pcf.link(p, ai as u32);
                    self.pcf[ai] = p;
                }
                return;
            }
        }
    }

    /// The cut: forward from the state without entering the goal zone, the operators of
    /// the actions crossing into it (in `cut_ops`); their least cost.
    fn cut(&mut self, rt: &RelaxedTask, s: &State) -> u64 {
        let nf = rt.num_facts;
        self.reached.clear();
        self.reached.resize(nf, false);
        self.queue.clear();
        for f in rt.state_facts(s) {
            if (f as usize) < nf && !self.reached[f as usize] {
                self.reached[f as usize] = true;
                self.queue.push(f);
            }
        }
        self.cut_ops.clear();
        let mut m = INF;
        let flat = &rt.flat;
        while let Some(f) = self.queue.pop() {
            let mut next = self.by_pcf.head[f as usize];
            while next != NIL {
                let ai = next as usize;
                next = self.by_pcf.next[ai];
                let adds = &flat.add[flat.add_start[ai] as usize..flat.add_start[ai + 1] as usize];
                if adds.iter().any(|&q| self.in_goal_zone[q as usize]) {
                    // Into the goal zone: in the cut, and (as in Fast Downward) its other
                    // effects are not explored.
                    let op = flat.op[ai];
                    if op < AXIOM_OP {
                        m = m.min(self.cost[op as usize]);
                        self.cut_ops.push(op);
                    }
                    continue;
                }
                for &q in adds {
                    if !self.reached[q as usize] {
                        self.reached[q as usize] = true;
                        self.queue.push(q);
                    }
                }
            }
        }
        m
    }
}

const NIL: u32 = u32::MAX;

/// Relaxed actions grouped by a fact of theirs: one intrusive doubly linked list per fact, so
/// an action moves between facts in O(1) and a walk visits exactly the actions of its fact.
#[derive(Debug, Default)]
struct ByChoice {
    head: Vec<u32>,
    next: Vec<u32>,
    prev: Vec<u32>,
}

impl ByChoice {
    /// Empty lists for `facts` facts and `actions` actions.
    fn reset(&mut self, facts: usize, actions: usize) {
        self.head.clear();
        self.head.resize(facts, NIL);
        self.next.resize(actions, NIL);
        self.prev.resize(actions, NIL);
    }

    fn link(&mut self, f: u32, ai: u32) {
        let h = self.head[f as usize];
        self.next[ai as usize] = h;
        self.prev[ai as usize] = NIL;
        if h != NIL {
            self.prev[h as usize] = ai;
        }
        self.head[f as usize] = ai;
    }

    fn unlink(&mut self, f: u32, ai: u32) {
        let (p, n) = (self.prev[ai as usize], self.next[ai as usize]);
        if p == NIL {
            self.head[f as usize] = n;
        } else {
            self.next[p as usize] = n;
        }
        if n != NIL {
            self.prev[n as usize] = p;
        }
    }
}

/// The first of the dearest preconditions and its cost, or `(u32::MAX, INF)` when one is
/// unreachable.
fn dearest(pre: &[u32], fact_cost: &[u64]) -> (u32, u64) {
    let mut best = (u32::MAX, 0);
    for &p in pre {
        let c = fact_cost[p as usize];
        if c == INF {
            return (u32::MAX, INF);
        }
        if best.0 == u32::MAX || c > best.1 {
            best = (p, c);
        }
    }
    best
}

/// Lowers the cost of the facts relaxed action `ai` adds to `v` where that is cheaper.
fn lower_adds(flat: &Flat, sc: &mut Scratch, ai: usize, v: u64, small: bool) {
    let (lo, hi) = (flat.add_start[ai] as usize, flat.add_start[ai + 1] as usize);
    for &q in &flat.add[lo..hi] {
        if v < sc.fact_cost[q as usize] {
            sc.fact_cost[q as usize] = v;
            sc.queue.push(small, v, q);
        }
    }
}

/// The facts a relaxed plan needs (used by tests).
pub fn relaxed_reachable(rt: &RelaxedTask, s: &State) -> Vec<bool> {
    let mut sc = Scratch::default();
    propagate(rt, s, rt.costs(), false, &mut sc);
    sc.fact_cost.iter().map(|&c| c != INF).collect()
}

pub fn fact_ids(v: &[bool]) -> Vec<FactId> {
    v.iter()
        .enumerate()
        .filter(|(_, b)| **b)
        .map(|(i, _)| i as FactId)
        .collect()
}
