//! Breadth-first search for deterministic games: expands states in order of depth, merging
//! equal states by [`GameState::key`], until a winning state appears, then plays the path.
//! The search persists across acts (NIL is played while it runs) as long as the game state
//! does not change; a plan is dropped as soon as the game deviates from it.

use std::collections::{HashSet, VecDeque};
use std::time::{Duration, Instant};

use super::{Controller, choices};
use crate::budget::Budget;
use crate::gvgai::engine::{Action, GameState, Winner};

/// Stop expanding beyond this many distinct states (memory bound).
const MAX_STATES: usize = 2_000_000;
/// Stop this long before the deadline.
const MARGIN: Duration = Duration::from_millis(5);

struct Search {
    root_key: u64,
    /// (parent node, action) per node; node 0 is the root.
    nodes: Vec<(u32, Action)>,
    queue: VecDeque<(u32, GameState)>,
    seen: HashSet<u64>,
}

/// BFS controller (`--controller bfs`).
#[derive(Default)]
pub struct Bfs {
    search: Option<Search>,
    /// Remaining plan: action and the state key expected before playing it.
    plan: VecDeque<(Action, u64)>,
    /// States expanded by the last act (for reporting).
    pub last_expansions: usize,
}

impl Bfs {
    pub fn new() -> Self {
        Bfs::default()
    }

    fn path_to(search: &Search, mut node: u32) -> Vec<Action> {
        let mut path = Vec::new();
        while node != 0 {
            let (parent, a) = search.nodes[node as usize];
            path.push(a);
            node = parent;
        }
        path.reverse();
        path
    }

    /// Expand until the deadline; the winning path if one is found.
    fn expand(&mut self, budget: &Budget) -> Option<Vec<Action>> {
        let stop = budget
            .deadline
            .checked_sub(MARGIN)
            .unwrap_or(budget.deadline);
        let search = self.search.as_mut()?;
        self.last_expansions = 0;
        while Instant::now() < stop && !budget.expired() && search.seen.len() < MAX_STATES {
            let Some((node, state)) = search.queue.pop_front() else {
                break;
            };
            self.last_expansions += 1;
            for a in choices(&state) {
                let mut next = state.clone();
                next.advance(a);
                if next.winner() == Winner::PlayerWins {
                    let mut path = Self::path_to(search, node);
                    path.push(a);
                    return Some(path);
                }
                if next.is_over() || !search.seen.insert(next.key()) {
                    continue;
                }
                search.nodes.push((node, a));
                let id = (search.nodes.len() - 1) as u32;
                search.queue.push_back((id, next));
            }
        }
        None
    }
}

impl Controller for Bfs {
    fn name(&self) -> &'static str {
        "bfs"
    }

    fn init(&mut self, state: &GameState, budget: &Budget) {
        let _ = self.act_inner(state, budget);
    }

    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        self.act_inner(state, budget)
    }
}

impl Bfs {
    fn act_inner(&mut self, state: &GameState, budget: &Budget) -> Action {
        let key = state.key();
        if let Some(&(a, expected)) = self.plan.front() {
            if expected == key {
                self.plan.pop_front();
                return a;
            }
            self.plan.clear();
        }
        if self.search.as_ref().is_none_or(|s| s.root_key != key) {
            // Freeing a large search takes long: do it off the clock.
            if let Some(old) = self.search.take() {
                if old.seen.len() > 10_000 {
                    std::thread::spawn(move || drop(old));
                }
            }
            let mut seen = HashSet::with_capacity(1 << 12);
            seen.insert(key);
            self.search = Some(Search {
                root_key: key,
                nodes: vec![(0, Action::Nil)],
                queue: VecDeque::from([(0, state.clone())]),
                seen,
            });
        }
        if let Some(path) = self.expand(budget) {
            if let Some(old) = self.search.take() {
                std::thread::spawn(move || drop(old));
            }
            // Record the expected key before each step, to detect deviations.
            let mut s = state.clone();
            for a in path {
                let k = s.key();
                self.plan.push_back((a, k));
                s.advance(a);
            }
            if let Some((a, _)) = self.plan.pop_front() {
                return a;
            }
        }
        Action::Nil
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gvgai::controllers::{ACT_TIME, play};
    use crate::gvgai::games::shipped;

    #[test]
    fn bfs_solves_sokoban_level_4_optimally() {
        let game = shipped("sokoban").unwrap();
        let mut c = Bfs::new();
        let r = play(&game, 4, 0, &mut c, ACT_TIME).unwrap();
        assert!(r.outcome.win, "{r:?}");
        // 8 pushes/moves is optimal; a few NIL ticks may precede them while searching.
        assert!(r.outcome.ticks < 20, "{r:?}");
    }
}
