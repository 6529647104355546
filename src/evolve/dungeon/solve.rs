//! The dungeon game's default playability check (`evolve.dungeon_check_controller =
//! "dungeon-bfs"`): a breadth-first search over the VGDL forward model that merges states
//! with the same avatar cell, orientation, type (with or without the key) and score, bounded
//! by a count of expansions (no wall clock, so the verdict does not depend on the machine's
//! load). A plan found is replayed on a fresh game with the same seed, and only a replay that
//! wins counts. The merge key is what makes it robust where IW(1) is not: IW(1)'s atoms
//! ignore the avatar's orientation, which this game's sword needs, and plain BFS on the full
//! state drowns in sword and portal states. Killing an enemy or opening a chest changes the
//! score, so a state that cleared a blocker is never merged with one that did not.
//!
//! [`DungeonBfs`] is the same search as a controller (`--controller dungeon-bfs`).

use std::collections::{HashSet, VecDeque};

use crate::budget::Budget;
use crate::gvgai::controllers::{Clock, Controller, SAFETY_MARGIN, choices};
use crate::gvgai::engine::{Action, EngineError, Game, GameState, Winner};

/// The result of [`solve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// A plan was found and its replay won.
    pub win: bool,
    /// Ticks of the winning replay (0 without a win).
    pub ticks: i32,
    pub expansions: usize,
    /// The search ran out of states (no budget left unused would find a win).
    pub exhausted: bool,
    /// A plan was found (its replay may still fail; `win` is the replay's verdict).
    pub found: bool,
    /// The plan (`U D L R N S`), empty without a win.
    pub plan: String,
}

/// What the search tells states apart by: the avatar's cell, facing, type, and the score.
type MergeKey = (i32, i32, u8, u16, i64);

fn merge_key(s: &GameState) -> Option<MergeKey> {
    let a = s.avatar()?;
    let (x, y) = s.cell_of(a);
    let o = a.orientation;
    let orient = match (o.x.signum() as i8, o.y.signum() as i8) {
        (0, -1) => 0,
        (1, 0) => 1,
        (0, 1) => 2,
        (-1, 0) => 3,
        _ => 4,
    };
    Some((x, y, orient, a.ty, (s.score() * 16.0).round() as i64))
}

/// A breadth-first search from one state, merging states by [`merge_key`]; it can be run in
/// slices (the controller searches across acts).
pub struct Search {
    root: GameState,
    /// (parent node, action) per node; node 0 is the root.
    nodes: Vec<(u32, Action)>,
    seen: HashSet<MergeKey>,
    queue: VecDeque<(u32, GameState)>,
    pub expansions: usize,
}

impl Search {
    pub fn new(root: &GameState) -> Search {
        let mut seen = HashSet::new();
        if let Some(k) = merge_key(root) {
            seen.insert(k);
        }
        Search {
            root: root.clone(),
            nodes: vec![(0, Action::Nil)],
            seen,
            queue: VecDeque::from([(0u32, root.clone())]),
            expansions: 0,
        }
    }

    /// The state the search started from.
    pub fn root(&self) -> &GameState {
        &self.root
    }

    /// No state is left to expand.
    pub fn exhausted(&self) -> bool {
        self.queue.is_empty()
    }

    /// Expands states until a win is found (its path), `cap` says so before an expansion (it
    /// is given the expansions so far), `late` says so before an advance (the state being
    /// expanded is then expanded again next time), or the states run out (`None` all ways).
    pub fn run(
        &mut self,
        mut cap: impl FnMut(usize) -> bool,
        mut late: impl FnMut() -> bool,
    ) -> Option<Vec<Action>> {
        while !cap(self.expansions) && !late() {
            let (node, state) = self.queue.pop_front()?;
            self.expansions += 1;
            for a in choices(&state) {
                if late() {
                    // Children generated so far are known: they are skipped next time.
                    self.queue.push_front((node, state));
                    return None;
                }
                let mut next = state.clone();
                next.advance(a);
                if next.winner() == Winner::PlayerWins {
                    self.nodes.push((node, a));
                    return Some(self.path_to(self.nodes.len() as u32 - 1));
                }
                if next.is_over() {
                    continue;
                }
                let Some(k) = merge_key(&next) else { continue };
                if self.seen.insert(k) {
                    self.nodes.push((node, a));
                    self.queue.push_back((self.nodes.len() as u32 - 1, next));
                }
            }
        }
        None
    }

    fn path_to(&self, mut n: u32) -> Vec<Action> {
        let mut plan = Vec::new();
        while n != 0 {
            let (parent, a) = self.nodes[n as usize];
            plan.push(a);
            n = parent;
        }
        plan.reverse();
        plan
    }
}

/// Search `level` of `game` (seeded with `seed`) for a win within `max_expansions`.
pub fn solve(
    game: &Game,
    level: usize,
    seed: i64,
    max_expansions: usize,
) -> Result<Solution, EngineError> {
    let mut search = Search::new(&game.start(level, seed)?);
    let found = search.run(|n| n >= max_expansions, || false);
    let plan = found.clone().unwrap_or_default();
    // Replay: only a plan that wins the real game counts.
    let mut st = game.start(level, seed)?;
    for &a in &plan {
        if st.is_over() {
            break;
        }
        st.advance(a);
    }
    let win = !plan.is_empty() && st.winner() == Winner::PlayerWins;
    Ok(Solution {
        exhausted: found.is_none() && search.exhausted(),
        found: found.is_some(),
        win,
        ticks: if win { st.tick() } else { 0 },
        expansions: search.expansions,
        plan: if win {
            plan.iter().map(|a| a.to_char()).collect()
        } else {
            String::new()
        },
    })
}

/// The dungeon check as a GVG-AI controller (`--controller dungeon-bfs`): the same search
/// from the current state, within each act's budget (and at most the `--iterations` cap of
/// expansions per act), resumed across acts while the avatar waits where it was. A plan found
/// is followed while the avatar's cell, facing, type and the score are what the search
/// expected (random enemies may move meanwhile), and searched again when they are not.
#[derive(Default)]
pub struct DungeonBfs {
    search: Option<Search>,
    /// Remaining plan: each action with the merge key expected before it.
    plan: VecDeque<(Action, Option<MergeKey>)>,
    cap: Option<usize>,
}

impl DungeonBfs {
    pub fn new(cap: Option<usize>) -> DungeonBfs {
        DungeonBfs {
            cap,
            ..DungeonBfs::default()
        }
    }

    fn act_inner(&mut self, state: &GameState, budget: &Budget) -> Action {
        let now = merge_key(state);
        if let Some(pos) = self.plan.iter().position(|&(_, k)| k == now) {
            self.plan.drain(..pos);
            if let Some(&(a, _)) = self.plan.front() {
                return a;
            }
        }
        self.plan.clear();
        // Enemies may move while the search runs: it goes on as long as the avatar waits
        // where it started (the plan is followed by the same merged view).
        if self
            .search
            .as_ref()
            .is_none_or(|s| merge_key(s.root()) != now)
        {
            self.search = Some(Search::new(state));
        }
        let clock = Clock::new(budget, SAFETY_MARGIN);
        let cap = self.cap;
        let Some(search) = self.search.as_mut() else {
            return Action::Nil;
        };
        let start = search.expansions;
        let found = search.run(|n| cap.is_some_and(|c| n - start >= c), || clock.done());
        let Some(path) = found else {
            if search.exhausted() {
                // Nothing wins from here: search again from the next state.
                self.search = None;
            }
            return Action::Nil;
        };
        self.search = None;
        let mut s = state.clone();
        for a in path {
            self.plan.push_back((a, merge_key(&s)));
            s.advance(a);
        }
        self.plan.front().map_or(Action::Nil, |&(a, _)| a)
    }
}

impl Controller for DungeonBfs {
    fn name(&self) -> &'static str {
        "dungeon-bfs"
    }

    fn init(&mut self, state: &GameState, budget: &Budget) {
        let _ = self.act_inner(state, budget);
    }

    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        self.act_inner(state, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::dungeon::render::{render, tests::small};

    #[test]
    fn solves_a_rendered_dungeon_and_fails_without_budget() {
        let r = render(&small(), 4).unwrap();
        let g = Game::from_texts("evodungeon", &r.game, &[&r.level]).unwrap();
        let s = solve(&g, 0, 1, 100_000).unwrap();
        assert!(s.win, "{s:?}\n{}", r.level);
        assert_eq!(s.ticks as usize, s.plan.len());
        // Same seed, same result.
        assert_eq!(solve(&g, 0, 1, 100_000).unwrap(), s);
        assert!(s.found && !s.exhausted);
        let none = solve(&g, 0, 1, 3).unwrap();
        assert!(!none.win && none.plan.is_empty() && !none.exhausted);
    }
}
