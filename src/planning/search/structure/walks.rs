//! Walk compression: chains of agent-only moves expanded by A* as one macro step with the
//! walk's exact cost.

use std::collections::{HashMap, VecDeque};

use super::agent::{Agent, NONE};
use crate::planning::task::{FactId, OpId, State, Task};

/// Walk compression: operators that only move the agent (plus the same unconditional side
/// effects for all of them, on facts none of them reads) can be chained without search.
/// A* then expands "walk by a cheapest path to a cell, then one other operator" as one
/// macro step with the walk's exact cost, which keeps the same optimal cost while the
/// agent's free positions no longer multiply the states.
#[derive(Debug, Clone)]
pub struct Walks {
    agent: Agent,
    is_walk: Vec<bool>,
    /// Walk operators by source cell.
    walk_from: Vec<Vec<OpId>>,
    /// Other operators by source cell.
    other_from: Vec<Vec<OpId>>,
    /// The non-agent effects every walk operator has.
    side_add: Vec<FactId>,
    side_del: Vec<FactId>,
    cell_fact: Vec<FactId>,
    dist: Vec<u64>,
    pred: Vec<OpId>,
    heap: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32)>>,
    /// All walk operators cost the same (breadth-first search suffices).
    unit: bool,
    queue: VecDeque<u32>,
}

/// One macro successor: the walk's end cell and cost; `moved` is whether it made a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkEnd {
    pub cell: u32,
    pub moved: bool,
    pub cost: u64,
}

impl Walks {
    pub fn detect(task: &Task) -> Option<Walks> {
        let agent = Agent::detect(task)?;
        let n = task.facts.len();
        let nops = task.operators.len();
        let is_agent = |f: FactId| agent.cell_of[f as usize] != NONE;
        // Moving operators with unconditional effects, by their effects on non-agent facts;
        // the most common signature is the walk.
        let mut sig_of: Vec<Option<(Vec<FactId>, Vec<FactId>)>> = vec![None; nops];
        let mut count: HashMap<(Vec<FactId>, Vec<FactId>), usize> = HashMap::new();
        for (oi, o) in task.operators.iter().enumerate() {
            if agent.from[oi] == agent.to[oi]
                || o.effects
                    .iter()
                    .any(|e| !e.cond_pos.is_empty() || !e.cond_neg.is_empty())
            {
                continue;
            }
            let mut add: Vec<FactId> = Vec::new();
            let mut del: Vec<FactId> = Vec::new();
            for e in &o.effects {
                add.extend(e.add.iter().copied().filter(|&f| !is_agent(f)));
                del.extend(e.del.iter().copied().filter(|&f| !is_agent(f)));
            }
            add.sort_unstable();
            add.dedup();
            del.sort_unstable();
            del.dedup();
            del.retain(|f| !add.contains(f));
            *count.entry((add.clone(), del.clone())).or_default() += 1;
            sig_of[oi] = Some((add, del));
        }
        let side = count
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
            .map(|(k, _)| k);
        let is_walk: Vec<bool> = sig_of.iter().map(|s| s.is_some() && *s == side).collect();
        let (side_add, side_del) = side?;
        let mut touched = vec![false; n];
        for &f in side_add.iter().chain(&side_del) {
            touched[f as usize] = true;
        }
        for (oi, o) in task.operators.iter().enumerate() {
            if is_walk[oi]
                && o.pre_pos
                    .iter()
                    .chain(&o.pre_neg)
                    .any(|&f| touched[f as usize])
            {
                return None;
            }
        }
        let walk_costs: Vec<u32> = (0..nops)
            .filter(|&o| is_walk[o])
            .map(|o| task.operators[o].cost)
            .collect();
        let unit = walk_costs.iter().all(|&c| c == walk_costs[0]);
        let mut walk_from = vec![Vec::new(); agent.num_cells];
        let mut other_from = vec![Vec::new(); agent.num_cells];
        for (oi, &walk) in is_walk.iter().enumerate() {
            let c = agent.from[oi] as usize;
            if walk {
                walk_from[c].push(oi as OpId);
            } else {
                other_from[c].push(oi as OpId);
            }
        }
        let mut cell_fact = vec![0; agent.num_cells];
        for (f, &c) in agent.cell_of.iter().enumerate() {
            if c != NONE {
                cell_fact[c as usize] = f as FactId;
            }
        }
        Some(Walks {
            agent,
            is_walk,
            walk_from,
            other_from,
            side_add,
            side_del,
            cell_fact,
            dist: Vec::new(),
            pred: Vec::new(),
            heap: std::collections::BinaryHeap::new(),
            unit,
            queue: VecDeque::new(),
        })
    }

    pub fn is_walk(&self, o: OpId) -> bool {
        self.is_walk[o as usize]
    }

    /// Operators that are not walks and start at `cell`.
    pub fn others_from(&self, cell: u32) -> &[OpId] {
        &self.other_from[cell as usize]
    }

    /// Cheapest walks from the agent's cell in `s` (Dijkstra over walk operators applicable in
    /// `s`; they read no fact a walk changes). Fills `out` with every reachable end: the
    /// empty walk, and each cell (the start cell again only through a cycle).
    pub fn ends(&mut self, task: &Task, s: &State, out: &mut Vec<WalkEnd>) {
        out.clear();
        let Some(at) = self.agent.cell(s) else {
            return;
        };
        out.push(WalkEnd {
            cell: at,
            moved: false,
            cost: 0,
        });
        self.search(task, s, at);
        for c in 0..self.agent.num_cells {
            if self.dist[c] != u64::MAX {
                out.push(WalkEnd {
                    cell: c as u32,
                    moved: true,
                    cost: self.dist[c],
                });
            }
        }
    }

    pub(super) fn search(&mut self, task: &Task, s: &State, at: u32) {
        let nc = self.agent.num_cells;
        self.dist.clear();
        self.dist.resize(nc, u64::MAX);
        self.pred.clear();
        self.pred.resize(nc, OpId::MAX);
        self.heap.clear();
        self.queue.clear();
        // Dist counts at least one move: seed with the moves out of the start cell. With unit
        // costs a FIFO queue is a Dijkstra queue.
        let relax = |from: u32, d0: u64, this: &mut Walks| {
            for i in 0..this.walk_from[from as usize].len() {
                let o = this.walk_from[from as usize][i];
                let op = &task.operators[o as usize];
                let t = this.agent.to[o as usize];
                let d = d0 + op.cost as u64;
                if d >= this.dist[t as usize] {
                    continue;
                }
                let ok = op
                    .pre_pos
                    .iter()
                    .all(|&f| this.agent.cell_of[f as usize] != NONE || s.has(f))
                    && !op.pre_neg.iter().any(|&f| s.has(f));
                if !ok {
                    continue;
                }
                this.dist[t as usize] = d;
                this.pred[t as usize] = o;
                if this.unit {
                    this.queue.push_back(t);
                } else {
                    this.heap.push(std::cmp::Reverse((d, t)));
                }
            }
        };
        relax(at, 0, self);
        if self.unit {
            while let Some(c) = self.queue.pop_front() {
                let d = self.dist[c as usize];
                relax(c, d, self);
            }
            return;
        }
        while let Some(std::cmp::Reverse((d, c))) = self.heap.pop() {
            if d > self.dist[c as usize] {
                continue;
            }
            relax(c, d, self);
        }
    }

    /// Whether some nonempty walk from `s` could end in a goal state (the goal's facts that
    /// walks do not change already hold, and the walks' side effects agree with it).
    pub fn walk_reaches_goal(&self, task: &Task, s: &State) -> bool {
        let agent = |f: FactId| self.agent.cell_of[f as usize] != NONE;
        task.goal_pos.iter().all(|&f| {
            agent(f) || self.side_add.contains(&f) || (!self.side_del.contains(&f) && s.has(f))
        }) && !task.goal_neg.iter().any(|&f| {
            !agent(f) && (self.side_add.contains(&f) || (!self.side_del.contains(&f) && s.has(f)))
        })
    }

    /// Whether operator `o` (starting at `end.cell`) applies after walking to `end` from `s`,
    /// without building that state.
    pub fn applicable_after(&self, task: &Task, s: &State, end: &WalkEnd, o: OpId) -> bool {
        let op = &task.operators[o as usize];
        let has = |f: FactId| {
            if self.agent.cell_of[f as usize] != NONE {
                return self.agent.cell_of[f as usize] == end.cell;
            }
            if end.moved {
                if self.side_add.contains(&f) {
                    return true;
                }
                if self.side_del.contains(&f) {
                    return false;
                }
            }
            s.has(f)
        };
        op.pre_pos.iter().all(|&f| has(f)) && !op.pre_neg.iter().any(|&f| has(f))
    }

    /// The state after walking to `end` from `s`.
    pub fn state_after(&self, s: &State, end: &WalkEnd) -> State {
        let mut t = s.clone();
        if !end.moved {
            return t;
        }
        if let Some(at) = self.agent.cell(s) {
            t.set(self.cell_fact[at as usize], false);
        }
        for &f in &self.side_del {
            t.set(f, false);
        }
        for &f in &self.side_add {
            t.set(f, true);
        }
        t.set(self.cell_fact[end.cell as usize], true);
        t
    }

    /// The walk operators of a cheapest walk from `s` to `end` (for plan reconstruction).
    pub fn path(&mut self, task: &Task, s: &State, end: &WalkEnd) -> Vec<OpId> {
        let mut ops = Vec::new();
        if !end.moved {
            return ops;
        }
        let Some(at) = self.agent.cell(s) else {
            return ops;
        };
        self.search(task, s, at);
        let mut c = end.cell;
        loop {
            let o = self.pred[c as usize];
            if o == OpId::MAX {
                break;
            }
            ops.push(o);
            c = self.agent.from[o as usize];
            if c == at {
                break;
            }
        }
        ops.reverse();
        ops
    }
}
