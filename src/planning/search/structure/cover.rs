//! The cover bound (Zen Puzzle): goal cells entered exactly once split the walk into segments
//! that are paths among the unvisited cells (see the parent module's doc).

use super::agent::{Agent, NONE, PreWalk};
use crate::planning::task::{FactId, OpId, State, Task};

/// Cells that goals require entering exactly once (see the module doc).
#[derive(Debug, Clone)]
pub(super) struct Cover {
    /// (goal fact, cover index) pairs.
    pub(super) goals: Vec<(FactId, u32)>,
    /// Cell of each cover index, its "visited" marker.
    pub(super) cells: Vec<u32>,
    pub(super) marker: Vec<FactId>,
    /// Cover index of each cell (NONE if none).
    pub(super) index_of_cell: Vec<u32>,
    /// Undirected neighbours among cover cells (cover indices).
    pub(super) nbrs: Vec<Vec<u32>>,
    /// Cells from which an operator enters / to which one leaves each cover cell.
    pub(super) in_from: Vec<Vec<u32>>,
    pub(super) out_to: Vec<Vec<u32>>,
    /// Whether the goal forces the agent off the cover cells at the end.
    pub(super) final_exit: bool,
    pub(super) walk: PreWalk,
    // scratch
    pub(super) in_u: Vec<bool>,
    pub(super) comp: Vec<u32>,
    pub(super) stack: Vec<u32>,
}

impl Cover {
    pub(super) fn detect(task: &Task, agent: &Agent) -> Option<Cover> {
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
    pub(super) fn evaluate(&mut self, agent: &Agent, s: &State, at: u32) -> Option<u64> {
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
