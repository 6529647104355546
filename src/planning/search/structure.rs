//! Admissible bounds from the structure of a grounded task with one agent on a graph of
//! cells (the GVG-AI puzzles): every operator moves one agent fact (or keeps it), so plans
//! are walks, and two kinds of progress are counted on them.
//!
//! - **Cover** (Zen Puzzle): goal facts achieved only by entering one cell each, where
//!   entering sets a marker nothing deletes and that forbids entering again. Every unvisited
//!   goal cell is entered exactly once, so the walk splits into segments that are paths in
//!   the graph of unvisited cells; a cell with fewer than two unvisited neighbours ends a
//!   segment, which bounds the number of segments (and of the moves that leave them) from
//!   below, and a segment end with no way in or out is a dead end.
//! - **Tokens** (Sokoban): facts of one predicate that operators move one at a time, remove
//!   (into a hole) or create, with a counter whose goal value proves that no token may be
//!   left. Each token needs its own removal path, so the sum of the tokens' shortest paths
//!   to removal is a lower bound; a token with no such path is a dead end.
//!
//! Both add the moves the agent needs before its first progressing operator, found by
//! breadth-first search over the other operators with the facts that only progressing
//! operators change fixed at their current values. Every bound counts disjoint sets of plan
//! steps, so it never exceeds the optimal cost; A* takes the maximum with LM-cut.

use crate::planning::task::{FactId, OpId, State, Task};
use std::collections::{HashMap, VecDeque};

const NONE: u32 = u32::MAX;

/// The agent: one predicate whose facts form an exactly-one group that every operator
/// reads; `from[o]`/`to[o]` are the cells (agent facts) before and after operator `o`.
#[derive(Debug, Clone)]
struct Agent {
    /// Cell index of each fact (NONE for non-agent facts).
    cell_of: Vec<u32>,
    num_cells: usize,
    from: Vec<u32>,
    to: Vec<u32>,
}

/// The predicate name of a fact name `(pred a b)`.
fn predicate(name: &str) -> &str {
    name.trim_start_matches('(')
        .split([' ', ')'])
        .next()
        .unwrap_or("")
}

fn groups(task: &Task) -> HashMap<&str, Vec<FactId>> {
    let mut g: HashMap<&str, Vec<FactId>> = HashMap::new();
    for (i, f) in task.facts.iter().enumerate() {
        g.entry(predicate(f)).or_default().push(i as FactId);
    }
    g
}

/// Whether effect lists of `o` mention a fact of `in_p` (conditional effects included).
fn touches(task: &Task, o: OpId, in_p: &[bool]) -> bool {
    task.operators[o as usize]
        .effects
        .iter()
        .any(|e| e.add.iter().chain(&e.del).any(|&f| in_p[f as usize]))
}

/// The unconditional effect's adds and deletes restricted to `in_p`, or None when a
/// conditional effect touches `in_p`.
fn uncond(task: &Task, o: OpId, in_p: &[bool]) -> Option<(Vec<FactId>, Vec<FactId>)> {
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
fn exactly_one(task: &Task, facts: &[FactId]) -> Option<Vec<(u32, u32)>> {
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
    fn detect(task: &Task) -> Option<Agent> {
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

    fn cell(&self, s: &State) -> Option<u32> {
        s.facts()
            .map(|f| self.cell_of[f as usize])
            .find(|&c| c != NONE)
    }
}

/// The moves before the first progressing operator: BFS over the other operators whose
/// preconditions on stable facts (facts only progressing operators change) hold.
#[derive(Debug, Clone)]
struct PreWalk {
    /// Per operator, its preconditions on stable facts.
    stable_pos: Vec<Vec<FactId>>,
    stable_neg: Vec<Vec<FactId>>,
    /// Non-progressing operators by source cell.
    walk_from: Vec<Vec<OpId>>,
    progress_ops: Vec<OpId>,
    dist: Vec<u32>,
    target: Vec<bool>,
    queue: VecDeque<u32>,
}

impl PreWalk {
    fn new(task: &Task, agent: &Agent, progress: Vec<bool>) -> PreWalk {
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

    fn ok(&self, s: &State, o: OpId) -> bool {
        self.stable_pos[o as usize].iter().all(|&f| s.has(f))
            && !self.stable_neg[o as usize].iter().any(|&f| s.has(f))
    }

    /// The fewest moves before a progressing operator can apply (None: none ever can).
    fn distance(&mut self, agent: &Agent, s: &State, at: u32) -> Option<u64> {
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

/// Cells that goals require entering exactly once (see the module doc).
#[derive(Debug, Clone)]
struct Cover {
    /// (goal fact, cover index) pairs.
    goals: Vec<(FactId, u32)>,
    /// Cell of each cover index, its "visited" marker.
    cells: Vec<u32>,
    marker: Vec<FactId>,
    /// Cover index of each cell (NONE if none).
    index_of_cell: Vec<u32>,
    /// Undirected neighbours among cover cells (cover indices).
    nbrs: Vec<Vec<u32>>,
    /// Cells from which an operator enters / to which one leaves each cover cell.
    in_from: Vec<Vec<u32>>,
    out_to: Vec<Vec<u32>>,
    /// Whether the goal forces the agent off the cover cells at the end.
    final_exit: bool,
    walk: PreWalk,
    // scratch
    in_u: Vec<bool>,
    comp: Vec<u32>,
    stack: Vec<u32>,
}

impl Cover {
    fn detect(task: &Task, agent: &Agent) -> Option<Cover> {
        let nops = task.operators.len();
        if (0..nops).any(|o| agent.from[o] == agent.to[o]) {
            return None;
        }
        let n = task.facts.len();
        let mut adders: Vec<Vec<OpId>> = vec![Vec::new(); n];
        let mut deleted = vec![false; n];
        for (oi, o) in task.operators.iter().enumerate() {
            for e in &o.effects {
                for &f in &e.add {
                    adders[f as usize].push(oi as OpId);
                }
                for &f in &e.del {
                    deleted[f as usize] = true;
                }
            }
        }
        let mut entering: Vec<Vec<OpId>> = vec![Vec::new(); agent.num_cells];
        for o in 0..nops {
            entering[agent.to[o] as usize].push(o as OpId);
        }
        let unconditional_add = |o: OpId, f: FactId| {
            task.operators[o as usize]
                .effects
                .iter()
                .any(|e| e.cond_pos.is_empty() && e.cond_neg.is_empty() && e.add.contains(&f))
        };
        let init = task.initial_state();
        // Entering operators that can never apply (see below).
        let mut never = vec![false; nops];
        let mut goals = Vec::new();
        let mut cells: Vec<u32> = Vec::new();
        let mut marker: Vec<FactId> = Vec::new();
        let mut index_of_cell = vec![NONE; agent.num_cells];
        for &g in &task.goal_pos {
            if agent.cell_of[g as usize] != NONE {
                continue;
            }
            let ach = &adders[g as usize];
            if ach.is_empty() {
                continue;
            }
            let c = agent.to[ach[0] as usize];
            if ach
                .iter()
                .any(|&o| agent.to[o as usize] != c || !unconditional_add(o, g))
            {
                continue;
            }
            if index_of_cell[c as usize] == NONE {
                // A marker every operator entering c needs false; nothing deletes it. An
                // entering operator either sets it, or needs false a fact that holds
                // initially, is never added, and is only deleted by operators setting the
                // marker (so that operator can never apply: Zen's walk onto cleared ground).
                let ent = &entering[c as usize];
                let implies_marker = |x: FactId, w: FactId| {
                    init.has(x)
                        && adders[x as usize].is_empty()
                        && task.operators.iter().enumerate().all(|(o, op)| {
                            !op.effects.iter().any(|e| e.del.contains(&x))
                                || unconditional_add(o as OpId, w)
                        })
                };
                let first = &task.operators[ent[0] as usize];
                let w = first.pre_neg.iter().copied().find(|&w| {
                    !deleted[w as usize]
                        && ent.iter().all(|&o| {
                            let op = &task.operators[o as usize];
                            op.pre_neg.contains(&w)
                                && (unconditional_add(o, w)
                                    || op.pre_neg.iter().any(|&x| implies_marker(x, w)))
                        })
                });
                let Some(w) = w else { continue };
                for &o in ent {
                    if !unconditional_add(o, w) {
                        never[o as usize] = true;
                    }
                }
                index_of_cell[c as usize] = cells.len() as u32;
                cells.push(c);
                marker.push(w);
            }
            goals.push((g, index_of_cell[c as usize]));
        }
        if goals.is_empty() {
            return None;
        }
        let k = cells.len();
        let mut nbrs = vec![Vec::new(); k];
        let mut in_from = vec![Vec::new(); k];
        let mut out_to = vec![Vec::new(); k];
        for o in (0..nops).filter(|&o| !never[o]) {
            let (a, b) = (agent.from[o], agent.to[o]);
            let (ia, ib) = (index_of_cell[a as usize], index_of_cell[b as usize]);
            if ib != NONE && !in_from[ib as usize].contains(&a) {
                in_from[ib as usize].push(a);
            }
            if ia != NONE && !out_to[ia as usize].contains(&b) {
                out_to[ia as usize].push(b);
            }
            if ia != NONE && ib != NONE {
                if !nbrs[ia as usize].contains(&ib) {
                    nbrs[ia as usize].push(ib);
                }
                if !nbrs[ib as usize].contains(&ia) {
                    nbrs[ib as usize].push(ia);
                }
            }
        }
        // A goal fact that every operator entering a cover cell deletes and none of them adds.
        let is_cover = |o: usize| !never[o] && index_of_cell[agent.to[o] as usize] != NONE;
        let final_exit = task.goal_pos.iter().any(|&q| {
            agent.cell_of[q as usize] == NONE
                && (0..nops).filter(|&o| is_cover(o)).all(|o| {
                    let op = &task.operators[o];
                    op.effects.iter().any(|e| {
                        e.cond_pos.is_empty() && e.cond_neg.is_empty() && e.del.contains(&q)
                    }) && !op.effects.iter().any(|e| e.add.contains(&q))
                })
        });
        let progress = (0..nops).map(is_cover).collect();
        let walk = PreWalk::new(task, agent, progress);
        Some(Cover {
            goals,
            cells,
            marker,
            index_of_cell,
            nbrs,
            in_from,
            out_to,
            final_exit,
            walk,
            in_u: Vec::new(),
            comp: Vec::new(),
            stack: Vec::new(),
        })
    }

    /// Moves still needed (in units of the cheapest operator), None for a dead end.
    fn evaluate(&mut self, agent: &Agent, s: &State, at: u32) -> Option<u64> {
        let k = self.cells.len();
        self.in_u.clear();
        self.in_u.resize(k, false);
        let mut nu = 0u64;
        for &(g, ci) in &self.goals {
            if !s.has(g) {
                if s.has(self.marker[ci as usize]) {
                    return None; // visited, goal not achieved, never enterable again
                }
                if !self.in_u[ci as usize] {
                    self.in_u[ci as usize] = true;
                    nu += 1;
                }
            }
        }
        if nu == 0 {
            return Some(0);
        }
        // Cells a segment can be entered from (the agent's own cell included) and left to.
        let in_u = &self.in_u;
        let free_out = |c: u32| -> bool {
            let ci = self.index_of_cell[c as usize];
            ci == NONE || (!in_u[ci as usize] && !s.has(self.marker[ci as usize]))
        };
        let free_in = |c: u32| c == at || free_out(c);
        self.comp.clear();
        self.comp.resize(k, NONE);
        let mut segments = 0u64;
        let mut ncomp = 0u32;
        for start in 0..k {
            if !self.in_u[start] || self.comp[start] != NONE {
                continue;
            }
            let mut deficit = 0u64;
            self.stack.clear();
            self.stack.push(start as u32);
            self.comp[start] = ncomp;
            while let Some(u) = self.stack.pop() {
                let u = u as usize;
                let mut d = 0u64;
                for &v in &self.nbrs[u] {
                    if self.in_u[v as usize] {
                        d += 1;
                        if self.comp[v as usize] == NONE {
                            self.comp[v as usize] = ncomp;
                            self.stack.push(v);
                        }
                    }
                }
                if d < 2 {
                    // An end of a segment: it needs a way in from outside, or out.
                    let can_in = self.in_from[u].iter().any(|&c| free_in(c));
                    let can_out = self.out_to[u].iter().any(|&c| free_out(c));
                    let ok = if d == 0 {
                        can_in && (can_out || !self.final_exit)
                    } else {
                        can_in || can_out || !self.final_exit
                    };
                    if !ok {
                        return None;
                    }
                    deficit += 2 - d;
                }
            }
            segments += deficit.div_ceil(2).max(1);
            ncomp += 1;
        }
        let exits = if self.final_exit {
            segments
        } else {
            segments - 1
        };
        let pre = self.walk.distance(agent, s, at)?;
        Some(nu + exits + pre)
    }
}

/// Tokens moved one at a time and removed at sinks, with a counter that forces removing all.
#[derive(Debug, Clone)]
struct Tokens {
    facts: Vec<FactId>,
    /// Cheapest cost to remove a token at each token fact (u64::MAX: never).
    dist: Vec<u64>,
    walk: PreWalk,
}

impl Tokens {
    fn detect(task: &Task, agent: &Agent) -> Option<Tokens> {
        let g = groups(task);
        let mut names: Vec<&&str> = g.keys().collect();
        names.sort();
        for q in names {
            if let Some(t) = Self::try_family(task, agent, &g, q) {
                return Some(t);
            }
        }
        None
    }

    fn try_family(
        task: &Task,
        agent: &Agent,
        g: &HashMap<&str, Vec<FactId>>,
        q: &str,
    ) -> Option<Tokens> {
        let n = task.facts.len();
        let facts = g.get(q)?;
        if facts.iter().any(|&f| agent.cell_of[f as usize] != NONE) {
            return None;
        }
        let mut in_q = vec![false; n];
        for &f in facts {
            in_q[f as usize] = true;
        }
        if task
            .goal_pos
            .iter()
            .chain(&task.goal_neg)
            .any(|&f| in_q[f as usize])
        {
            return None;
        }
        // Per operator: change in the token count and the token edge (from, to or NONE).
        let nops = task.operators.len();
        let mut delta = vec![0i64; nops];
        let mut edges: Vec<(FactId, u32, u64)> = Vec::new();
        let mut progress = vec![false; nops];
        for (oi, o) in task.operators.iter().enumerate() {
            if !touches(task, oi as OpId, &in_q) {
                continue;
            }
            progress[oi] = true;
            let (add, del) = uncond(task, oi as OpId, &in_q)?;
            let c = o.cost as u64;
            match (del.as_slice(), add.as_slice()) {
                ([a], [b]) if o.pre_pos.contains(a) && o.pre_neg.contains(b) => {
                    edges.push((*a, *b, c));
                }
                ([a], []) if o.pre_pos.contains(a) => {
                    delta[oi] = -1;
                    edges.push((*a, NONE, c));
                }
                ([], [b]) if o.pre_neg.contains(b) => delta[oi] = 1,
                _ => return None,
            }
        }
        if edges.is_empty() {
            return None;
        }
        // A counter (exactly-one group) that moves by exactly the token-count change.
        let ntok0 = task.init.iter().filter(|&&f| in_q[f as usize]).count() as i64;
        let mut names: Vec<(&&str, &Vec<FactId>)> = g.iter().collect();
        names.sort();
        let mut forced = false;
        for (_, kf) in names {
            if kf
                .iter()
                .any(|&f| in_q[f as usize] || agent.cell_of[f as usize] != NONE)
            {
                continue;
            }
            let Some(ft) = exactly_one(task, kf) else {
                continue;
            };
            let mut val: HashMap<FactId, i64> = HashMap::new();
            let Some(&k0) = task.init.iter().find(|f| kf.contains(f)) else {
                continue;
            };
            val.insert(k0, ntok0);
            let mut ok = true;
            // Every operator changing the count moves the counter; propagate values.
            for (oi, &(a, b)) in ft.iter().enumerate() {
                if delta[oi] != 0 && (a == NONE || a == b) {
                    ok = false;
                }
            }
            if !ok {
                continue;
            }
            let mut changed = true;
            while changed && ok {
                changed = false;
                for (oi, &(a, b)) in ft.iter().enumerate() {
                    if a == NONE || a == b {
                        continue;
                    }
                    if let Some(&va) = val.get(&a) {
                        let vb = va + delta[oi];
                        match val.get(&b) {
                            None => {
                                val.insert(b, vb);
                                changed = true;
                            }
                            Some(&x) if x != vb => ok = false,
                            _ => {}
                        }
                    }
                }
            }
            if ok
                && task
                    .goal_pos
                    .iter()
                    .any(|f| kf.contains(f) && val.get(f) == Some(&0))
            {
                forced = true;
                break;
            }
        }
        if !forced {
            return None;
        }
        // Cheapest removal cost per token fact (Dijkstra backwards from the sinks).
        let mut dist = vec![u64::MAX; n];
        let mut rev: Vec<Vec<(FactId, u64)>> = vec![Vec::new(); n];
        let mut heap = std::collections::BinaryHeap::new();
        for &(a, b, c) in &edges {
            if b == NONE {
                if c < dist[a as usize] {
                    dist[a as usize] = c;
                    heap.push(std::cmp::Reverse((c, a)));
                }
            } else {
                rev[b as usize].push((a, c));
            }
        }
        while let Some(std::cmp::Reverse((d, f))) = heap.pop() {
            if d > dist[f as usize] {
                continue;
            }
            for &(a, c) in &rev[f as usize] {
                let nd = d + c;
                if nd < dist[a as usize] {
                    dist[a as usize] = nd;
                    heap.push(std::cmp::Reverse((nd, a)));
                }
            }
        }
        let walk = PreWalk::new(task, agent, progress);
        Some(Tokens {
            facts: facts.clone(),
            dist,
            walk,
        })
    }

    fn evaluate(&mut self, agent: &Agent, s: &State, at: u32, unit: u64) -> Option<u64> {
        let mut h = 0u64;
        let mut any = false;
        for &f in &self.facts {
            if s.has(f) {
                let d = self.dist[f as usize];
                if d == u64::MAX {
                    return None;
                }
                h += d;
                any = true;
            }
        }
        if !any {
            return Some(0);
        }
        let pre = self.walk.distance(agent, s, at)?;
        Some(h + pre * unit)
    }
}

/// The structural bounds of a task (see the module doc); `detect` returns None when the
/// task has neither structure.
#[derive(Debug, Clone)]
pub struct StructureBound {
    agent: Agent,
    cover: Option<Cover>,
    tokens: Option<Tokens>,
    min_cost: u64,
}

impl StructureBound {
    pub fn detect(task: &Task) -> Option<StructureBound> {
        let agent = Agent::detect(task)?;
        let min_cost = task.operators.iter().map(|o| o.cost as u64).min()?;
        if min_cost == 0 {
            return None;
        }
        let cover = Cover::detect(task, &agent);
        let tokens = Tokens::detect(task, &agent);
        if cover.is_none() && tokens.is_none() {
            return None;
        }
        Some(StructureBound {
            agent,
            cover,
            tokens,
            min_cost,
        })
    }

    /// Which bounds were found (for logs and tests).
    pub fn kinds(&self) -> (bool, bool) {
        (self.cover.is_some(), self.tokens.is_some())
    }

    /// An admissible estimate of the cost to the goal; None if `s` is a proven dead end.
    pub fn evaluate(&mut self, s: &State) -> Option<u64> {
        let at = self.agent.cell(s)?;
        let mut h = 0;
        if let Some(c) = self.cover.as_mut() {
            h = h.max(c.evaluate(&self.agent, s, at)? * self.min_cost);
        }
        if let Some(t) = self.tokens.as_mut() {
            // Removal paths use real operator costs; only the walk is in cheapest units.
            h = h.max(t.evaluate(&self.agent, s, at, self.min_cost)?);
        }
        Some(h)
    }
}

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

    fn search(&mut self, task: &Task, s: &State, at: u32) {
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

#[cfg(test)]
#[path = "structure_tests.rs"]
mod tests;
