//! The agent: the exactly-one group of cells every operator moves, found from the operators'
//! effects, and the breadth-first pre-walk to the first progressing operator.

use std::collections::{HashMap, VecDeque};

use crate::planning::task::{FactId, OpId, State, Task};

pub(super) const NONE: u32 = u32::MAX;

/// The agent: one predicate whose facts form an exactly-one group that every operator
/// reads; `from[o]`/`to[o]` are the cells (agent facts) before and after operator `o`.
#[derive(Debug, Clone)]
pub(super) struct Agent {
    /// Cell index of each fact (NONE for non-agent facts).
    pub(super) cell_of: Vec<u32>,
    pub(super) num_cells: usize,
    pub(super) from: Vec<u32>,
    pub(super) to: Vec<u32>,
}

/// The predicate name of a fact name `(pred a b)`.
pub(super) fn predicate(name: &str) -> &str {
    name.trim_start_matches('(')
        .split([' ', ')'])
        .next()
        .unwrap_or("")
}

pub(super) fn groups(task: &Task) -> HashMap<&str, Vec<FactId>> {
    let mut g: HashMap<&str, Vec<FactId>> = HashMap::new();
    for (i, f) in task.facts.iter().enumerate() {
        g.entry(predicate(f)).or_default().push(i as FactId);
    }
    g
}

/// Whether effect lists of `o` mention a fact of `in_p` (conditional effects included).
pub(super) fn touches(task: &Task, o: OpId, in_p: &[bool]) -> bool {
    task.operators[o as usize]
        .effects
        .iter()
        .any(|e| e.add.iter().chain(&e.del).any(|&f| in_p[f as usize]))
}

/// The unconditional effect's adds and deletes restricted to `in_p`, or None when a
/// conditional effect touches `in_p`.
pub(super) fn uncond(task: &Task, o: OpId, in_p: &[bool]) -> Option<(Vec<FactId>, Vec<FactId>)> {
    let mut add = Vec::new();
    let mut del = Vec::new();
    for e in &task.operators[o as usize].effects {
        let conditional = !e.cond_pos.is_empty() || !e.cond_neg.is_empty();
        for &f in &e.add {
            if in_p[f as usize] {
                if conditional {
                    return None;
                }
                add.push(f);
            }
        }
        for &f in &e.del {
            if in_p[f as usize] {
                if conditional {
                    return None;
                }
                del.push(f);
            }
        }
    }
    add.sort_unstable();
    add.dedup();
    del.sort_unstable();
    del.dedup();
    Some((add, del))
}

/// An exactly-one group: `init` has one of the facts, and every operator touching the group
/// reads exactly one of them, deletes it and adds exactly one other. Returns, per operator,
/// (from, to) facts, or NONE for operators that neither read nor touch the group.
pub(super) fn exactly_one(task: &Task, facts: &[FactId]) -> Option<Vec<(u32, u32)>> {
    let n = task.facts.len();
    let mut in_p = vec![false; n];
    for &f in facts {
        in_p[f as usize] = true;
    }
    if task.init.iter().filter(|&&f| in_p[f as usize]).count() != 1
        || task.derived_facts.iter().any(|&f| in_p[f as usize])
        || task.goal_neg.iter().any(|&f| in_p[f as usize])
    {
        return None;
    }
    let mut out = Vec::with_capacity(task.operators.len());
    for (oi, o) in task.operators.iter().enumerate() {
        let pre: Vec<FactId> = o
            .pre_pos
            .iter()
            .copied()
            .filter(|&f| in_p[f as usize])
            .collect();
        if o.pre_neg.iter().any(|&f| in_p[f as usize]) || pre.len() > 1 {
            return None;
        }
        let t = touches(task, oi as OpId, &in_p);
        match (pre.first(), t) {
            (None, false) => out.push((NONE, NONE)),
            (None, true) => return None,
            (Some(&p), false) => out.push((p, p)),
            (Some(&p), true) => {
                let (add, del) = uncond(task, oi as OpId, &in_p)?;
                if del != [p] || add.len() != 1 || add[0] == p {
                    return None;
                }
                out.push((p, add[0]));
            }
        }
    }
    Some(out)
}

impl Agent {
    pub(super) fn detect(task: &Task) -> Option<Agent> {
        if task.operators.is_empty() || !task.axioms.is_empty() {
            return None;
        }
        let mut best: Option<Agent> = None;
        let mut names: Vec<(&str, Vec<FactId>)> = groups(task).into_iter().collect();
        names.sort();
        for (_, facts) in names {
            let Some(ft) = exactly_one(task, &facts) else {
                continue;
            };
            // Every operator reads the agent.
            if ft.iter().any(|&(f, _)| f == NONE) {
                continue;
            }
            let mut cell_of = vec![NONE; task.facts.len()];
            for (i, &f) in facts.iter().enumerate() {
                cell_of[f as usize] = i as u32;
            }
            let from = ft.iter().map(|&(f, _)| cell_of[f as usize]).collect();
            let to = ft.iter().map(|&(_, t)| cell_of[t as usize]).collect();
            if best.as_ref().is_none_or(|b| b.num_cells < facts.len()) {
                best = Some(Agent {
                    cell_of,
                    num_cells: facts.len(),
                    from,
                    to,
                });
            }
        }
        best
    }

    pub(super) fn cell(&self, s: &State) -> Option<u32> {
        s.facts()
            .map(|f| self.cell_of[f as usize])
            .find(|&c| c != NONE)
    }
}

/// The moves before the first progressing operator: BFS over the other operators whose
/// preconditions on stable facts (facts only progressing operators change) hold.
#[derive(Debug, Clone)]
pub(super) struct PreWalk {
    /// Per operator, its preconditions on stable facts.
    pub(super) stable_pos: Vec<Vec<FactId>>,
    pub(super) stable_neg: Vec<Vec<FactId>>,
    /// Non-progressing operators by source cell.
    pub(super) walk_from: Vec<Vec<OpId>>,
    pub(super) progress_ops: Vec<OpId>,
    pub(super) dist: Vec<u32>,
    pub(super) target: Vec<bool>,
    pub(super) queue: VecDeque<u32>,
}

impl PreWalk {
    pub(super) fn new(task: &Task, agent: &Agent, progress: Vec<bool>) -> PreWalk {
        let n = task.facts.len();
        let mut unstable = vec![false; n];
        for (oi, o) in task.operators.iter().enumerate() {
            if progress[oi] {
                continue;
            }
            for e in &o.effects {
                for &f in e.add.iter().chain(&e.del) {
                    unstable[f as usize] = true;
                }
            }
        }
        let keep = |v: &[FactId]| -> Vec<FactId> {
            v.iter()
                .copied()
                .filter(|&f| !unstable[f as usize])
                .collect()
        };
        let stable_pos = task.operators.iter().map(|o| keep(&o.pre_pos)).collect();
        let stable_neg = task.operators.iter().map(|o| keep(&o.pre_neg)).collect();
        let mut walk_from = vec![Vec::new(); agent.num_cells];
        let mut progress_ops = Vec::new();
        for oi in 0..task.operators.len() {
            if progress[oi] {
                progress_ops.push(oi as OpId);
            } else if agent.from[oi] != agent.to[oi] {
                walk_from[agent.from[oi] as usize].push(oi as OpId);
            }
        }
        PreWalk {
            stable_pos,
            stable_neg,
            walk_from,
            progress_ops,
            dist: Vec::new(),
            target: Vec::new(),
            queue: VecDeque::new(),
        }
    }

    pub(super) fn ok(&self, s: &State, o: OpId) -> bool {
        self.stable_pos[o as usize].iter().all(|&f| s.has(f))
            && !self.stable_neg[o as usize].iter().any(|&f| s.has(f))
    }

    /// The fewest moves before a progressing operator can apply (None: none ever can).
    pub(super) fn distance(&mut self, agent: &Agent, s: &State, at: u32) -> Option<u64> {
        self.target.clear();
        self.target.resize(agent.num_cells, false);
        let mut any = false;
        for &o in &self.progress_ops {
            if self.ok(s, o) {
                self.target[agent.from[o as usize] as usize] = true;
                any = true;
            }
        }
        if !any {
            return None;
        }
        self.dist.clear();
        self.dist.resize(agent.num_cells, u32::MAX);
        self.queue.clear();
        self.dist[at as usize] = 0;
        self.queue.push_back(at);
        while let Some(c) = self.queue.pop_front() {
            if self.target[c as usize] {
                return Some(self.dist[c as usize] as u64);
            }
            let d = self.dist[c as usize] + 1;
            for i in 0..self.walk_from[c as usize].len() {
                let o = self.walk_from[c as usize][i];
                let t = agent.to[o as usize];
                if self.dist[t as usize] == u32::MAX && self.ok(s, o) {
                    self.dist[t as usize] = d;
                    self.queue.push_back(t);
                }
            }
        }
        None
    }
}
