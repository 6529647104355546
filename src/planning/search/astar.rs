//! Eager A* with an admissible heuristic (LM-cut, h_max or blind), with re-opening, so its
//! plans are optimal. Nodes whose heuristic is infinite are pruned as dead ends.

use super::relaxed::{LmCut, RelaxedHeuristic, RelaxedKind};
use super::{Bound, Engine, NO_NODE, Registry, Shared, Stats, Step};
use crate::planning::task::{OpId, State};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdmissibleKind {
    LmCut,
    HMax,
    Blind,
}

enum Inst {
    LmCut(Box<LmCut>),
    HMax(RelaxedHeuristic),
    Blind,
}

pub struct AStar {
    name: String,
    shared: Arc<Shared>,
    bound: Bound,
    reg: Registry,
    h: Vec<u64>,
    open: BinaryHeap<Reverse<(u64, u64, u64, u32)>>,
    inst: Inst,
    seq: u64,
    started: bool,
    stats: Stats,
    ops: Vec<OpId>,
}

const DEAD: u64 = u64::MAX;

impl AStar {
    pub fn new(shared: Arc<Shared>, kind: AdmissibleKind, bound: Bound) -> AStar {
        let inst = match kind {
            AdmissibleKind::LmCut => Inst::LmCut(Box::new(LmCut::new(shared.relaxed.clone()))),
            AdmissibleKind::HMax => Inst::HMax(RelaxedHeuristic::new(
                shared.relaxed.clone(),
                RelaxedKind::Max,
            )),
            AdmissibleKind::Blind => Inst::Blind,
        };
        let name = match kind {
            AdmissibleKind::LmCut => "astar-lmcut",
            AdmissibleKind::HMax => "astar-hmax",
            AdmissibleKind::Blind => "astar-blind",
        };
        AStar {
            name: name.into(),
            shared,
            bound,
            reg: Registry::new(),
            h: Vec::new(),
            open: BinaryHeap::new(),
            inst,
            seq: 0,
            started: false,
            stats: Stats::default(),
            ops: Vec::new(),
        }
    }

    fn eval(&mut self, s: &State) -> u64 {
        self.stats.evaluated += 1;
        let task = &self.shared.task;
        let v = match &mut self.inst {
            Inst::LmCut(l) => l.evaluate(s),
            Inst::HMax(r) => r.evaluate(task, s, None),
            Inst::Blind => Some(if task.is_goal(s) { 0 } else { 1 }),
        };
        v.unwrap_or(DEAD)
    }

    fn push(&mut self, node: u32) {
        let g = self.reg.g[node as usize];
        let h = self.h[node as usize];
        if h == DEAD || g.saturating_add(h) >= self.bound.get() {
            return;
        }
        self.seq += 1;
        self.open.push(Reverse((g + h, h, self.seq, node)));
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
        let task_cost = |sh: &Shared, o: OpId| sh.task.operators[o as usize].cost as u64;
        if !self.started {
            self.started = true;
            let s = self.shared.task.initial_state();
            let h = self.eval(&s);
            self.reg.insert(s, NO_NODE, 0, 0);
            self.h.push(h);
            self.push(0);
        }
        for _ in 0..expansions {
            if self.reg.states.len() >= super::MAX_STATES {
                return Step::GaveUp;
            }
            let Some(Reverse((f, _, _, node))) = self.open.pop() else {
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
            let shared = self.shared.clone();
            let task = &shared.task;
            let state = self.reg.states[n].clone();
            if task.is_goal(&state) {
                return Step::Solved(self.reg.plan(node));
            }
            self.stats.expanded += 1;
            let mut ops = std::mem::take(&mut self.ops);
            shared.succ.applicable(task, &state, &mut ops);
            self.stats.generated += ops.len() as u64;
            for &o in &ops {
                let child = task.apply(&state, o);
                let cg = g + task_cost(&shared, o);
                let (id, new) = self.reg.insert(child, node, o, cg);
                if new {
                    let cs = self.reg.states[id as usize].clone();
                    let h = self.eval(&cs);
                    self.h.push(h);
                    self.push(id);
                } else if cg < self.reg.g[id as usize] {
                    self.reg.g[id as usize] = cg;
                    self.reg.parent[id as usize] = node;
                    self.reg.op[id as usize] = o;
                    self.push(id);
                }
            }
            self.ops = ops;
        }
        Step::Running
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}
