//! Lazy best-first search (LAMA style): greedy (key h) or weighted A* (key g + w·h), one
//! open list per heuristic plus one per heuristic for preferred successors, alternated with
//! a boost for the preferred lists whenever some heuristic reaches a new best value.
//! Optionally a type-based exploration list (Xie, Müller, Holte, Imai 2014): entries are
//! bucketed by (first heuristic value, g) and popped from a bucket chosen uniformly at
//! random (seeded), which escapes the plateaus and dead-end regions that greedy order
//! digs into (Zen Puzzle's unvisited pockets).

use super::landmarks::LandmarkGraph;
use super::relaxed::{CostType, LmCut, RelaxedHeuristic, RelaxedKind};
use super::{Bound, Engine, NO_NODE, Registry, Shared, Stats, Step, heap_bytes};
use crate::planning::task::{OpId, State};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

/// A heuristic for the lazy search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HKind {
    Add,
    FF,
    LmCount,
    /// LM-cut (seeded with the goal landmarks), used greedily; no preferred operators.
    LmCut,
}

#[derive(Debug, Clone)]
pub struct LazyConfig {
    pub name: String,
    pub heuristics: Vec<HKind>,
    pub preferred: bool,
    /// None: greedy best-first search; Some(w): weighted A* with weight w.
    pub weight: Option<u64>,
    /// Some(seed): add a type-based exploration list, alternated with the others.
    pub type_based: Option<u64>,
    /// How the relaxation heuristics count operator costs.
    pub cost_type: CostType,
}

/// Open-list entries bucketed by type (h, g); pops a uniformly random bucket, then a
/// uniformly random entry of it.
struct TypeBuckets {
    index: HashMap<(u64, u64), usize>,
    keys: Vec<(u64, u64)>,
    buckets: Vec<Vec<(u32, OpId)>>,
    rng: Xoshiro256PlusPlus,
}

impl TypeBuckets {
    fn new(seed: u64) -> TypeBuckets {
        TypeBuckets {
            index: HashMap::new(),
            keys: Vec::new(),
            buckets: Vec::new(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn push(&mut self, key: (u64, u64), e: (u32, OpId)) {
        let i = *self.index.entry(key).or_insert_with(|| {
            self.keys.push(key);
            self.buckets.push(Vec::new());
            self.keys.len() - 1
        });
        self.buckets[i].push(e);
    }

    fn pop(&mut self) -> Option<(u32, OpId)> {
        if self.keys.is_empty() {
            return None;
        }
        let b = self.rng.gen_range(0..self.keys.len());
        let bucket = &mut self.buckets[b];
        let j = self.rng.gen_range(0..bucket.len());
        let e = bucket.swap_remove(j);
        if bucket.is_empty() {
            let key = self.keys.swap_remove(b);
            self.buckets.swap_remove(b);
            self.index.remove(&key);
            if let Some(&moved) = self.keys.get(b) {
                self.index.insert(moved, b);
            }
        }
        Some(e)
    }
}

enum Inst {
    Relaxed(RelaxedHeuristic),
    Lm(Arc<LandmarkGraph>),
    LmCut(Box<LmCut>),
}

type Entry = Reverse<(u64, u64, u32, OpId)>;

pub struct LazySearch {
    shared: Arc<Shared>,
    cfg: LazyConfig,
    bound: Bound,
    reg: Registry,
    insts: Vec<Inst>,
    queues: Vec<BinaryHeap<Entry>>,
    priority: Vec<i64>,
    types: Option<TypeBuckets>,
    type_priority: i64,
    best_h: Vec<u64>,
    closed: Vec<bool>,
    lm_acc: Vec<Box<[u64]>>,
    seq: u64,
    started: bool,
    stats: Stats,
    ops: Vec<OpId>,
    pref: Vec<OpId>,
    pref_mark: Vec<bool>,
}

impl LazySearch {
    pub fn new(shared: Arc<Shared>, cfg: LazyConfig, bound: Bound) -> LazySearch {
        let insts: Vec<Inst> = cfg
            .heuristics
            .iter()
            .map(|k| match k {
                HKind::Add => Inst::Relaxed(RelaxedHeuristic::with_costs(
                    shared.relaxed.clone(),
                    RelaxedKind::Add,
                    cfg.cost_type,
                )),
                HKind::FF => Inst::Relaxed(RelaxedHeuristic::with_costs(
                    shared.relaxed.clone(),
                    RelaxedKind::FF,
                    cfg.cost_type,
                )),
                HKind::LmCount => Inst::Lm(shared.landmarks()),
                HKind::LmCut => Inst::LmCut(Box::new(LmCut::new(shared.relaxed.clone()))),
            })
            .collect();
        let nq = insts.len() * if cfg.preferred { 2 } else { 1 };
        let nops = shared.task.operators.len();
        LazySearch {
            shared,
            bound,
            reg: Registry::new(),
            queues: (0..nq).map(|_| BinaryHeap::new()).collect(),
            priority: vec![0; nq],
            types: cfg.type_based.map(TypeBuckets::new),
            type_priority: 0,
            best_h: vec![u64::MAX; insts.len()],
            insts,
            cfg,
            closed: Vec::new(),
            lm_acc: Vec::new(),
            seq: 0,
            started: false,
            stats: Stats::default(),
            ops: Vec::new(),
            pref: Vec::new(),
            pref_mark: vec![false; nops],
        }
    }

    fn pop(&mut self) -> Option<(u32, OpId)> {
        let mut best: Option<usize> = None;
        for (i, q) in self.queues.iter().enumerate() {
            if !q.is_empty() && best.is_none_or(|b| self.priority[i] < self.priority[b]) {
                best = Some(i);
            }
        }
        if let Some(t) = self.types.as_mut() {
            if !t.is_empty() && best.is_none_or(|b| self.type_priority < self.priority[b]) {
                self.type_priority += 1;
                return t.pop();
            }
        }
        let i = best?;
        self.priority[i] += 1;
        self.queues[i].pop().map(|Reverse((_, _, p, o))| (p, o))
    }

    /// Processes one open-list entry; returns Some(step) when the search ends.
    fn process(&mut self, parent: u32, op: OpId) -> Option<Step> {
        let (node, g) = self.register(parent, op)?;
        let n = node as usize;
        if self.closed.len() <= n {
            self.closed.resize(n + 1, false);
        }
        self.track_landmarks(n, parent);
        self.closed[n] = true;
        let state = self.reg.states[n].clone();
        if self.shared.task.is_goal(&state) {
            return Some(Step::Solved(self.reg.plan(node)));
        }
        self.stats.evaluated += 1;
        let hs = self.evaluate(&state, n)?;
        let mut progress = false;
        for (i, &h) in hs.iter().enumerate() {
            if h < self.best_h[i] {
                self.best_h[i] = h;
                progress = true;
            }
        }
        if progress && self.cfg.preferred {
            for i in 0..self.insts.len() {
                self.priority[2 * i + 1] -= 1000;
            }
        }
        self.expand(node, g, &hs, &state);
        None
    }

    /// The node of the entry (the initial state for NO_NODE) and its g; None when it is
    /// pruned (over the bound, or closed and not reached more cheaply).
    fn register(&mut self, parent: u32, op: OpId) -> Option<(u32, u64)> {
        let task = &self.shared.task;
        if parent == NO_NODE {
            let s = task.initial_state();
            return Some((self.reg.insert(s, NO_NODE, 0, 0).0, 0));
        }
        let g = self.reg.g[parent as usize] + task.operators[op as usize].cost as u64;
        if g >= self.bound.get() {
            return None;
        }
        let s = task.apply(&self.reg.states[parent as usize], op);
        let (id, new) = self.reg.insert(s, parent, op, g);
        if !new {
            if self.closed[id as usize]
                && (self.cfg.weight.is_none() || self.reg.g[id as usize] <= g)
            {
                return None;
            }
            if g < self.reg.g[id as usize] {
                self.reg.parent[id as usize] = parent;
                self.reg.op[id as usize] = op;
                self.reg.g[id as usize] = g;
            } else if self.closed[id as usize] {
                return None;
            }
        }
        Some((id, g))
    }

    /// The accepted landmarks of a new node `n`, from its parent's.
    fn track_landmarks(&mut self, n: usize, parent: u32) {
        if self.lm_acc.len() > n {
            return;
        }
        let acc = self.insts.iter().find_map(|i| match i {
            Inst::Lm(lg) => Some(if parent == NO_NODE {
                lg.initial_accepted(&self.reg.states[n])
            } else {
                lg.progress(&self.lm_acc[parent as usize], &self.reg.states[n])
            }),
            _ => None,
        });
        if let Some(acc) = acc {
            self.lm_acc.push(acc);
        }
    }

    /// Every heuristic's value of `state` (node `n`), collecting the preferred operators in
    /// `pref`/`pref_mark`; None for a dead end.
    fn evaluate(&mut self, state: &State, n: usize) -> Option<Vec<u64>> {
        let task = &self.shared.task;
        for &p in &self.pref {
            self.pref_mark[p as usize] = false;
        }
        self.pref.clear();
        let mut hs = Vec::with_capacity(self.insts.len());
        let mut tmp = Vec::new();
        for inst in self.insts.iter_mut() {
            let h = match inst {
                Inst::Relaxed(r) => r.evaluate(task, state, self.cfg.preferred.then_some(&mut tmp)),
                Inst::LmCut(l) => l.evaluate(state),
                // Dead end if some unaccepted landmark is unreachable: covered by the
                // relaxed heuristics; landmark counting alone never prunes.
                Inst::Lm(lg) => Some(lg.count(
                    task,
                    &self.lm_acc[n],
                    state,
                    self.cfg.preferred.then_some(&mut tmp),
                )),
            };
            hs.push(h?);
            for &o in &tmp {
                if !self.pref_mark[o as usize] {
                    self.pref_mark[o as usize] = true;
                    self.pref.push(o);
                }
            }
            tmp.clear();
        }
        Some(hs)
    }

    /// Pushes each applicable operator of `state` onto every open list (and the preferred
    /// lists and type buckets).
    fn expand(&mut self, node: u32, g: u64, hs: &[u64], state: &State) {
        self.stats.expanded += 1;
        let mut ops = std::mem::take(&mut self.ops);
        self.shared
            .succ
            .applicable(&self.shared.task, state, &mut ops);
        self.stats.generated += ops.len() as u64;
        for &o in &ops {
            let preferred = self.cfg.preferred && self.pref_mark[o as usize];
            for (i, &h) in hs.iter().enumerate() {
                let key = match self.cfg.weight {
                    None => h,
                    Some(w) => g.saturating_add(w.saturating_mul(h)),
                };
                self.seq += 1;
                let e = Reverse((key, self.seq, node, o));
                if self.cfg.preferred {
                    self.queues[2 * i].push(e);
                    if preferred {
                        self.queues[2 * i + 1].push(e);
                    }
                } else {
                    self.queues[i].push(e);
                }
            }
            if let Some(t) = self.types.as_mut() {
                t.push((hs[0], g), (node, o));
            }
        }
        self.ops = ops;
    }
}

impl Engine for LazySearch {
    fn name(&self) -> &str {
        &self.cfg.name
    }

    fn step(&mut self, expansions: u64) -> Step {
        if !self.started {
            self.started = true;
            if let Some(r) = self.process(NO_NODE, 0) {
                return r;
            }
        }
        let target = self.stats.expanded + expansions;
        let mut pops = 0u64;
        while self.stats.expanded < target && pops < expansions.saturating_mul(4) {
            if self.reg.states.len() >= super::MAX_STATES {
                return Step::GaveUp;
            }
            pops += 1;
            let Some((p, o)) = self.pop() else {
                return Step::Exhausted;
            };
            if let Some(r) = self.process(p, o) {
                return r;
            }
        }
        Step::Running
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        let queues: usize = self
            .queues
            .iter()
            .map(|q| q.capacity() * std::mem::size_of::<Entry>())
            .sum();
        let types = self.types.as_ref().map_or(0, |t| {
            t.buckets
                .iter()
                .map(|b| heap_bytes(b, b.capacity()))
                .sum::<usize>()
                + t.keys.capacity() * 40
        });
        let lm: usize = self.lm_acc.iter().map(|a| a.len() * 8 + 32).sum();
        self.reg.memory_bytes()
            + queues
            + types
            + lm
            + heap_bytes(&self.best_h, self.best_h.capacity())
            + heap_bytes(&self.closed, self.closed.capacity())
    }
}
