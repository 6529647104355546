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

mod agent;
mod cover;
mod tokens;
mod walks;

use crate::planning::task::{State, Task};
use agent::Agent;
use cover::Cover;
use tokens::Tokens;

pub use walks::{WalkEnd, Walks};

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

#[cfg(test)]
mod tests;
