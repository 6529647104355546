//! A* with an admissible heuristic (LM-cut, h_max or blind), with re-opening, so its plans
//! are optimal. Nodes whose heuristic is infinite are pruned as dead ends.
//!
//! Evaluation is lazy: a child enters the open list with its parent's h less the step's cost
//! (a lower bound on its own h*, by the parent's admissibility, even for an inconsistent
//! heuristic) and is evaluated only when it is popped; if its h is higher it goes back with
//! its true key. The order of expansions is A*'s (lowest f, then lowest h), but the children
//! left in the open list when the goal comes out, most of the last f layer, are never
//! evaluated.
//!
//! The LM-cut kind also uses the task's structural bound ([`StructureBound`]: the maximum
//! with LM-cut, or the bound alone when it is at least LM-cut's value in the initial state)
//! and walk compression ([`Walks`]): a node's successors are "walk along a cheapest path,
//! then one other operator", with the walk's exact cost, so the optimal cost is unchanged.
//! With the environment variable `TABLERO_ASTAR_TRACE` set, each new f layer is logged on
//! stderr (expansions, evaluations, states), to see where a search spends its effort.

use super::relaxed::{LmCut, RelaxedHeuristic, RelaxedKind};
use super::structure::{StructureBound, WalkEnd, Walks};
use super::{Bound, Engine, NO_NODE, Registry, Shared, Stats, Step, heap_bytes};
use crate::planning::task::{OpId, State};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdmissibleKind {
    /// LM-cut with the structural bound and walk compression when the task has them.
    LmCut,
    /// Plain LM-cut (no structural bound, no walk compression).
    PlainLmCut,
    HMax,
    Blind,
}

enum Inst {
    /// LM-cut (None once the structural bound is known to dominate it), structural bound.
    LmCut(Option<Box<LmCut>>, Option<Box<StructureBound>>),
    HMax(RelaxedHeuristic),
    /// 0 in a goal state, else the cheapest operator's cost (0 when an operator is free).
    Blind(u64),
}

pub struct AStar {
    name: String,
    shared: Arc<Shared>,
    bound: Bound,
    reg: Registry,
    /// Per node: its heuristic value, or while not `known` the lower bound it inherited.
    h: Vec<u64>,
    known: Vec<bool>,
    open: OpenList,
    inst: Inst,
    seq: u64,
    started: bool,
    stats: Stats,
    ops: Vec<OpId>,
    trace: bool,
    trace_f: u64,
    /// Walk compression; per node, the walk before its operator.
    walks: Option<Box<Walks>>,
    walk_end: Vec<WalkEnd>,
    ends: Vec<WalkEnd>,
}

const DEAD: u64 = u64::MAX;

/// f values below this go to buckets (by f, then h, last in first out), others to a heap.
const BUCKET_LIMIT: u64 = 1 << 16;

/// The open list: O(1) buckets for the small integer f values of unit-cost tasks, a binary
/// heap for the rest; lowest f first, then lowest h.
#[derive(Default)]
struct OpenList {
    buckets: Vec<Vec<Vec<u32>>>,
    min_h: Vec<usize>,
    min_f: usize,
    heap: BinaryHeap<Reverse<(u64, u64, u64, u32)>>,
}

impl OpenList {
    fn push(&mut self, f: u64, h: u64, seq: u64, node: u32) {
        if f >= BUCKET_LIMIT {
            self.heap.push(Reverse((f, h, seq, node)));
            return;
        }
        let (f, h) = (f as usize, h as usize);
        if f >= self.buckets.len() {
            self.buckets.resize_with(f + 1, Vec::new);
            self.min_h.resize(f + 1, 0);
        }
        let b = &mut self.buckets[f];
        if h >= b.len() {
            b.resize_with(h + 1, Vec::new);
        }
        b[h].push(node);
        self.min_h[f] = self.min_h[f].min(h);
        self.min_f = self.min_f.min(f);
    }

    fn pop(&mut self) -> Option<(u64, u32)> {
        while self.min_f < self.buckets.len() {
            let f = self.min_f;
            let b = &mut self.buckets[f];
            while self.min_h[f] < b.len() {
                if let Some(n) = b[self.min_h[f]].pop() {
                    return Some((f as u64, n));
                }
                self.min_h[f] += 1;
            }
            self.min_h[f] = usize::MAX;
            self.min_f += 1;
        }
        self.heap.pop().map(|Reverse((f, _, _, n))| (f, n))
    }
}

/// The operator of a macro step that is a walk only (it reaches the goal).
const WALK_ONLY: OpId = OpId::MAX - 1;

const NO_WALK: WalkEnd = WalkEnd {
    cell: u32::MAX,
    moved: false,
    cost: 0,
};

impl AStar {
    pub fn new(shared: Arc<Shared>, kind: AdmissibleKind, bound: Bound) -> AStar {
        let lmcut = || Some(Box::new(LmCut::new(shared.admissible())));
        let (inst, walks) = match kind {
            AdmissibleKind::LmCut => (
                Inst::LmCut(lmcut(), StructureBound::detect(&shared.task).map(Box::new)),
                Walks::detect(&shared.task).map(Box::new),
            ),
            AdmissibleKind::PlainLmCut => (Inst::LmCut(lmcut(), None), None),
            AdmissibleKind::HMax => (
                Inst::HMax(RelaxedHeuristic::new(shared.admissible(), RelaxedKind::Max)),
                None,
            ),
            AdmissibleKind::Blind => {
                let ops = &shared.task.operators;
                let cheapest = ops.iter().map(|o| o.cost as u64).min().unwrap_or(0);
                (Inst::Blind(cheapest), None)
            }
        };
        let name = match kind {
            AdmissibleKind::LmCut => "astar-lmcut",
            AdmissibleKind::PlainLmCut => "astar-lmcut-plain",
            AdmissibleKind::HMax => "astar-hmax",
            AdmissibleKind::Blind => "astar-blind",
        };
        AStar {
            name: name.into(),
            shared,
            bound,
            reg: Registry::new(),
            h: Vec::new(),
            known: Vec::new(),
            open: OpenList::default(),
            inst,
            seq: 0,
            started: false,
            stats: Stats::default(),
            ops: Vec::new(),
            trace: std::env::var_os("TABLERO_ASTAR_TRACE").is_some(),
            trace_f: 0,
            walks,
            walk_end: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// Whether walk compression is on (for tests).
    pub fn compresses_walks(&self) -> bool {
        self.walks.is_some()
    }

    fn eval(&mut self, s: &State) -> u64 {
        self.stats.evaluated += 1;
        let task = &self.shared.task;
        let v = match &mut self.inst {
            Inst::LmCut(l, sb) => match (l, sb.as_mut().map(|b| b.evaluate(s))) {
                (_, Some(None)) => None,
                (Some(l), Some(Some(hs))) => l.evaluate(s).map(|h| h.max(hs)),
                (None, Some(Some(hs))) => Some(hs),
                (Some(l), None) => l.evaluate(s),
                (None, None) => Some(0),
            },
            Inst::HMax(r) => r.evaluate(task, s, None),
            Inst::Blind(cheapest) => Some(if task.is_goal(s) { 0 } else { *cheapest }),
        };
        v.unwrap_or(DEAD)
    }

    /// In the initial state: drop LM-cut when the structural bound is at least as high.
    fn choose_heuristic(&mut self, s: &State) {
        if let Inst::LmCut(l, Some(b)) = &mut self.inst {
            let hs = b.evaluate(s);
            let hl = l.as_mut().and_then(|l| l.evaluate(s));
            if self.trace {
                eprintln!(
                    "{}: initial LM-cut {hl:?}, structural bound {hs:?} {:?}, walks {}",
                    self.name,
                    b.kinds(),
                    self.walks.is_some()
                );
            }
            if let (Some(hs), Some(hl)) = (hs, hl) {
                if hs >= hl {
                    *l = None;
                }
            }
        }
    }

    fn push(&mut self, node: u32) {
        let g = self.reg.g[node as usize];
        let h = self.h[node as usize];
        if h == DEAD || g.saturating_add(h) >= self.bound.get() {
            return;
        }
        self.seq += 1;
        self.open.push(g + h, h, self.seq, node);
    }

    /// Adds or improves a child reached with cost `cg` by `op` after `walk`, unevaluated: its
    /// key inherits the parent's h less the step's cost.
    fn add_child(&mut self, child: State, parent: u32, op: OpId, walk: WalkEnd, cg: u64) {
        let p = parent as usize;
        let inherited = self.h[p].saturating_sub(cg - self.reg.g[p]);
        let (id, new) = self.reg.insert(child, parent, op, cg);
        let c = id as usize;
        if new {
            self.walk_end.push(walk);
            self.h.push(inherited);
            self.known.push(false);
            self.push(id);
        } else if cg < self.reg.g[c] {
            self.reg.g[c] = cg;
            self.reg.parent[c] = parent;
            self.reg.op[c] = op;
            self.walk_end[c] = walk;
            if !self.known[c] {
                self.h[c] = self.h[c].max(inherited);
            }
            self.push(id);
        }
    }

    /// Evaluates a popped node that was not yet; true if its key rose (it went back to the
    /// open list, or was pruned as a dead end) and it must not be expanded now.
    fn evaluate_popped(&mut self, node: u32, state: &State) -> bool {
        let n = node as usize;
        if self.known[n] {
            return false;
        }
        self.known[n] = true;
        let h = self.eval(state);
        if h <= self.h[n] {
            // Lower than the inherited bound only for an inconsistent heuristic: keep the bound.
            return false;
        }
        self.h[n] = h;
        self.push(node);
        true
    }

    /// The operator sequence to `node`, walks expanded.
    fn plan(&mut self, node: u32) -> Vec<OpId> {
        let Some(walks) = self.walks.as_mut() else {
            return self.reg.plan(node);
        };
        let task = &self.shared.task;
        let mut steps = Vec::new();
        let mut n = node;
        while self.reg.parent[n as usize] != NO_NODE {
            let p = self.reg.parent[n as usize];
            let op = self.reg.op[n as usize];
            let mut part = walks.path(
                task,
                &self.reg.states[p as usize],
                &self.walk_end[n as usize],
            );
            if op != WALK_ONLY {
                part.push(op);
            }
            steps.push(part);
            n = p;
        }
        steps.reverse();
        steps.concat()
    }

    fn expand_plain(&mut self, node: u32, state: &State, g: u64) {
        let shared = self.shared.clone();
        let task = &shared.task;
        let mut ops = std::mem::take(&mut self.ops);
        shared.succ.applicable(task, state, &mut ops);
        self.stats.generated += ops.len() as u64;
        for &o in &ops {
            let child = task.apply(state, o);
            let cg = g + task.operators[o as usize].cost as u64;
            self.add_child(child, node, o, NO_WALK, cg);
        }
        self.ops = ops;
    }

    fn expand_walks(&mut self, node: u32, state: &State, g: u64) {
        let shared = self.shared.clone();
        let task = &shared.task;
        let Some(mut walks) = self.walks.take() else {
            return;
        };
        let mut ends = std::mem::take(&mut self.ends);
        walks.ends(task, state, &mut ends);
        let check_goal = walks.walk_reaches_goal(task, state);
        for end in &ends {
            let mut sx: Option<State> = None;
            if end.moved && check_goal {
                let t = walks.state_after(state, end);
                if task.is_goal(&t) {
                    self.stats.generated += 1;
                    self.add_child(t.clone(), node, WALK_ONLY, *end, g + end.cost);
                }
                sx = Some(t);
            }
            for &o in walks.others_from(end.cell) {
                if walks.applicable_after(task, state, end, o) {
                    self.stats.generated += 1;
                    let sx = sx.get_or_insert_with(|| walks.state_after(state, end));
                    let child = task.apply(sx, o);
                    let cg = g + end.cost + task.operators[o as usize].cost as u64;
                    self.add_child(child, node, o, *end, cg);
                }
            }
        }
        self.ends = ends;
        self.walks = Some(walks);
    }
}

impl Engine for AStar {
    fn name(&self) -> &str {
        &self.name
    }

    fn optimal(&self) -> bool {
        true
    }

    fn step(&mut self, expansions: u64) -> Step {
        if !self.started {
            self.started = true;
            let s = self.shared.task.initial_state();
            self.choose_heuristic(&s);
            let h = self.eval(&s);
            self.reg.insert(s, NO_NODE, 0, 0);
            self.walk_end.push(NO_WALK);
            self.h.push(h);
            self.known.push(true);
            self.push(0);
        }
        for _ in 0..expansions {
            if self.reg.states.len() >= super::MAX_STATES {
                return Step::GaveUp;
            }
            let Some((f, node)) = self.open.pop() else {
                return Step::Exhausted;
            };
            let n = node as usize;
            let g = self.reg.g[n];
            if f != g.saturating_add(self.h[n]) {
                continue; // stale entry
            }
            if f >= self.bound.get() {
                return Step::Exhausted;
            }
            if self.trace && f > self.trace_f {
                self.trace_f = f;
                eprintln!(
                    "{}: f={} expanded={} evaluated={} states={}",
                    self.name,
                    f,
                    self.stats.expanded,
                    self.stats.evaluated,
                    self.reg.states.len()
                );
            }
            let state = self.reg.states[n].clone();
            if self.shared.task.is_goal(&state) {
                if self.trace {
                    let st = &self.stats;
                    let (x, e) = (st.expanded, st.evaluated);
                    eprintln!("{}: goal at f={f} expanded={x} evaluated={e}", self.name);
                }
                return Step::Solved(self.plan(node));
            }
            if self.evaluate_popped(node, &state) {
                continue;
            }
            self.stats.expanded += 1;
            if self.walks.is_some() {
                self.expand_walks(node, &state, g);
            } else {
                self.expand_plain(node, &state, g);
            }
        }
        Step::Running
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        let buckets: usize = self
            .open
            .buckets
            .iter()
            .map(|b| {
                heap_bytes(b, b.capacity())
                    + b.iter().map(|v| heap_bytes(v, v.capacity())).sum::<usize>()
            })
            .sum();
        self.reg.memory_bytes()
            + heap_bytes(&self.h, self.h.capacity())
            + heap_bytes(&self.known, self.known.capacity())
            + heap_bytes(&self.walk_end, self.walk_end.capacity())
            + buckets
            + self.open.heap.capacity() * std::mem::size_of::<Reverse<(u64, u64, u64, u32)>>()
    }
}
