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
        let ctx = Context::new(task, agent);
        let found = CoverCells::find(&ctx, agent);
        if found.goals.is_empty() {
            return None;
        }
        let links = Links::of(agent, &found);
        let is_cover =
            |o: usize| !found.never[o] && found.index_of_cell[agent.to[o] as usize] != NONE;
        let final_exit = forces_final_exit(task, agent, &is_cover);
        let progress = (0..nops).map(is_cover).collect();
        let walk = PreWalk::new(task, agent, progress);
        Some(Cover {
            goals: found.goals,
            cells: found.cells,
            marker: found.marker,
            index_of_cell: found.index_of_cell,
            nbrs: links.nbrs,
            in_from: links.in_from,
            out_to: links.out_to,
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

/// What cover detection asks of the task's operators.
struct Context<'t> {
    task: &'t Task,
    /// The operators adding each fact.
    adders: Vec<Vec<OpId>>,
    /// Whether any operator deletes each fact.
    deleted: Vec<bool>,
    /// The operators entering each cell.
    entering: Vec<Vec<OpId>>,
    init: State,
}

impl<'t> Context<'t> {
    fn new(task: &'t Task, agent: &Agent) -> Context<'t> {
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
        for o in 0..task.operators.len() {
            entering[agent.to[o] as usize].push(o as OpId);
        }
        Context {
            task,
            adders,
            deleted,
            entering,
            init: task.initial_state(),
        }
    }

    /// Whether operator `o` adds `f` without conditions.
    fn unconditional_add(&self, o: OpId, f: FactId) -> bool {
        self.task.operators[o as usize]
            .effects
            .iter()
            .any(|e| e.cond_pos.is_empty() && e.cond_neg.is_empty() && e.add.contains(&f))
    }

    /// Whether `x` stands in for marker `w`: it holds initially, is never added, and only
    /// operators that set `w` delete it.
    fn implies_marker(&self, x: FactId, w: FactId) -> bool {
        self.init.has(x)
            && self.adders[x as usize].is_empty()
            && self.task.operators.iter().enumerate().all(|(o, op)| {
                !op.effects.iter().any(|e| e.del.contains(&x))
                    || self.unconditional_add(o as OpId, w)
            })
    }

    /// The "visited" marker of cell `c`: a fact every operator entering `c` needs false and
    /// nothing deletes. An entering operator either sets it, or needs false a fact that
    /// implies it (so that operator can never apply: Zen's walk onto cleared ground).
    fn marker_of(&self, c: u32) -> Option<FactId> {
        let ent = &self.entering[c as usize];
        let first = &self.task.operators[*ent.first()? as usize];
        first.pre_neg.iter().copied().find(|&w| {
            !self.deleted[w as usize]
                && ent.iter().all(|&o| {
                    let op = &self.task.operators[o as usize];
                    op.pre_neg.contains(&w)
                        && (self.unconditional_add(o, w)
                            || op.pre_neg.iter().any(|&x| self.implies_marker(x, w)))
                })
        })
    }
}

/// The goal cells that must be entered exactly once, with their markers.
struct CoverCells {
    goals: Vec<(FactId, u32)>,
    cells: Vec<u32>,
    marker: Vec<FactId>,
    index_of_cell: Vec<u32>,
    /// Entering operators that can never apply.
    never: Vec<bool>,
}

impl CoverCells {
    fn find(ctx: &Context, agent: &Agent) -> CoverCells {
        let task = ctx.task;
        let mut found = CoverCells {
            goals: Vec::new(),
            cells: Vec::new(),
            marker: Vec::new(),
            index_of_cell: vec![NONE; agent.num_cells],
            never: vec![false; task.operators.len()],
        };
        for &g in &task.goal_pos {
            if agent.cell_of[g as usize] != NONE {
                continue;
            }
            let ach = &ctx.adders[g as usize];
            let Some(&a0) = ach.first() else { continue };
            let c = agent.to[a0 as usize];
            if ach
                .iter()
                .any(|&o| agent.to[o as usize] != c || !ctx.unconditional_add(o, g))
            {
                continue;
            }
            if found.index_of_cell[c as usize] == NONE {
                let Some(w) = ctx.marker_of(c) else { continue };
                for &o in &ctx.entering[c as usize] {
                    if !ctx.unconditional_add(o, w) {
                        found.never[o as usize] = true;
                    }
                }
                found.index_of_cell[c as usize] = found.cells.len() as u32;
                found.cells.push(c);
                found.marker.push(w);
            }
            found.goals.push((g, found.index_of_cell[c as usize]));
        }
        found
    }
}

/// How the cover cells connect, among themselves and to the other cells.
struct Links {
    nbrs: Vec<Vec<u32>>,
    in_from: Vec<Vec<u32>>,
    out_to: Vec<Vec<u32>>,
}

impl Links {
    fn of(agent: &Agent, found: &CoverCells) -> Links {
        let k = found.cells.len();
        let mut links = Links {
            nbrs: vec![Vec::new(); k],
            in_from: vec![Vec::new(); k],
            out_to: vec![Vec::new(); k],
        };
        let push = |v: &mut Vec<u32>, x: u32| {
            if !v.contains(&x) {
                v.push(x);
            }
        };
        for o in (0..found.never.len()).filter(|&o| !found.never[o]) {
            let (a, b) = (agent.from[o], agent.to[o]);
            let (ia, ib) = (
                found.index_of_cell[a as usize],
                found.index_of_cell[b as usize],
            );
            if ib != NONE {
                push(&mut links.in_from[ib as usize], a);
            }
            if ia != NONE {
                push(&mut links.out_to[ia as usize], b);
            }
            if ia != NONE && ib != NONE {
                push(&mut links.nbrs[ia as usize], ib);
                push(&mut links.nbrs[ib as usize], ia);
            }
        }
        links
    }
}

/// Whether the goal forces the agent off the cover cells at the end: a goal fact that every
/// operator entering a cover cell deletes and none of them adds.
fn forces_final_exit(task: &Task, agent: &Agent, is_cover: &dyn Fn(usize) -> bool) -> bool {
    let nops = task.operators.len();
    task.goal_pos.iter().any(|&q| {
        agent.cell_of[q as usize] == NONE
            && (0..nops).filter(|&o| is_cover(o)).all(|o| {
                let op = &task.operators[o];
                op.effects
                    .iter()
                    .any(|e| e.cond_pos.is_empty() && e.cond_neg.is_empty() && e.del.contains(&q))
                    && !op.effects.iter().any(|e| e.add.contains(&q))
            })
    })
}
