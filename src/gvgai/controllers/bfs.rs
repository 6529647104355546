//! Breadth-first search for deterministic games: expands states in order of depth, merging
//! equal states by [`GameState::key`], until a winning state appears, then plays the path.
//! With IW(1) (`--controller iw`), a new state is kept only if some sprite stands where no
//! sprite of its type has stood before in the search (novelty 1); when that search runs dry
//! without a win, it falls back to plain BFS.
//! The search persists across acts (NIL is played while it runs) as long as the game state
//! does not change; a plan is followed by state (an action replaced by NIL, as GVG-AI does
//! for a late answer, is played again) and dropped as soon as the game leaves it.

use std::collections::{HashSet, VecDeque};
use std::time::Duration;

use super::{Clock, Controller, SAFETY_MARGIN, choices};
use crate::budget::Budget;
use crate::gvgai::engine::{Action, GameState, Winner};

/// Stop expanding beyond this many distinct states (memory bound).
const MAX_STATES: usize = 2_000_000;
/// Tables are grown (a rehash or copy of everything stored) only when at least this much time
/// per million stored entries is left before the deadline.
const GROW_TIME_PER_MILLION: Duration = Duration::from_millis(40);
/// Table sizes reserved when a search starts: the state set gets room for every state it may
/// hold (its control bytes, ~2 MB, are written now; the rest of the memory is touched only as
/// it fills), so it never rehashes a million entries in the middle of an act.
const INITIAL_CAPACITY: usize = MAX_STATES;

/// A FIFO queue in fixed-size chunks: growing it never copies the states already queued
/// (a `VecDeque` of a million states would copy hundreds of megabytes when it doubles).
struct ChunkQueue<T> {
    chunks: VecDeque<VecDeque<T>>,
}

impl<T> Default for ChunkQueue<T> {
    fn default() -> Self {
        ChunkQueue {
            chunks: VecDeque::new(),
        }
    }
}

const CHUNK: usize = 4096;

impl<T> ChunkQueue<T> {
    fn push_back(&mut self, t: T) {
        if self.chunks.back().is_none_or(|c| c.len() >= CHUNK) {
            self.chunks.push_back(VecDeque::with_capacity(CHUNK));
        }
        if let Some(c) = self.chunks.back_mut() {
            c.push_back(t);
        }
    }

    fn push_front(&mut self, t: T) {
        if self.chunks.front().is_none_or(|c| c.len() >= CHUNK) {
            self.chunks.push_front(VecDeque::with_capacity(1));
        }
        if let Some(c) = self.chunks.front_mut() {
            c.push_front(t);
        }
    }

    fn pop_front(&mut self) -> Option<T> {
        loop {
            let front = self.chunks.front_mut()?;
            if let Some(t) = front.pop_front() {
                return Some(t);
            }
            self.chunks.pop_front();
        }
    }
}

/// Whether a table of `len` entries may grow now, given the time left.
fn may_grow(len: usize, clock: &Clock) -> bool {
    let need = GROW_TIME_PER_MILLION.mul_f64((len as f64 / 1e6).max(0.05));
    clock.remaining() > need
}

struct Search {
    root_key: u64,
    root: GameState,
    /// (parent node, action) per node; node 0 is the root.
    nodes: Vec<(u32, Action)>,
    queue: ChunkQueue<(u32, GameState)>,
    seen: HashSet<u64>,
    /// IW(1) atoms seen: (sprite type, x, y); `None` for plain BFS.
    atoms: Option<HashSet<(u16, i32, i32)>>,
}

impl Search {
    fn new(state: &GameState, key: u64, width1: bool) -> Search {
        let mut seen = HashSet::with_capacity(INITIAL_CAPACITY);
        seen.insert(key);
        let atoms = width1.then(|| {
            let mut a = HashSet::new();
            novel(&mut a, state);
            a
        });
        Search {
            root_key: key,
            root: state.clone(),
            nodes: {
                let mut v = Vec::with_capacity(INITIAL_CAPACITY);
                v.push((0, Action::Nil));
                v
            },
            queue: {
                let mut q = ChunkQueue::default();
                q.push_back((0, state.clone()));
                q
            },
            seen,
            atoms,
        }
    }

    fn path_to(&self, mut node: u32) -> Vec<Action> {
        let mut path = Vec::new();
        while node != 0 {
            let (parent, a) = self.nodes[node as usize];
            path.push(a);
            node = parent;
        }
        path.reverse();
        path
    }
}

/// Record the atoms of `state`; true if any is new.
fn novel(atoms: &mut HashSet<(u16, i32, i32)>, state: &GameState) -> bool {
    let mut new = false;
    for s in state.sprites() {
        if !s.killed {
            new |= atoms.insert((s.ty, s.x, s.y));
        }
    }
    new
}

/// Free a search off the clock (dropping millions of states takes time).
fn discard(search: Option<Search>) {
    if let Some(old) = search {
        if old.seen.len() > 10_000 {
            std::thread::spawn(move || drop(old));
        }
    }
}

/// BFS controller (`--controller bfs`), or IW(1) falling back to BFS (`--controller iw`).
#[derive(Default)]
pub struct Bfs {
    iw: bool,
    search: Option<Search>,
    /// Remaining plan: action and the state key expected before playing it.
    plan: VecDeque<(Action, u64)>,
    /// States expanded by the last act (for reporting).
    pub last_expansions: usize,
    /// Cap on expansions per act (count-based budgets); `None`: the clock decides.
    cap: Option<usize>,
}

impl Bfs {
    pub fn new() -> Self {
        Bfs::default()
    }

    pub fn iw() -> Self {
        Bfs {
            iw: true,
            ..Bfs::default()
        }
    }

    /// Limit the expansions per act (count-based budget).
    pub fn with_expansion_cap(mut self, cap: Option<usize>) -> Self {
        self.cap = cap;
        self
    }

    /// Expand until the deadline; the winning path if one is found.
    fn expand(&mut self, budget: &Budget) -> Option<Vec<Action>> {
        let clock = Clock::new(budget, SAFETY_MARGIN);
        self.last_expansions = 0;
        loop {
            let search = self.search.as_mut()?;
            if clock.done()
                || search.seen.len() >= MAX_STATES
                || self.cap.is_some_and(|c| self.last_expansions >= c)
            {
                return None;
            }
            // Grow the tables before they would grow themselves, and only with time to spare.
            let n = search.root.available_actions().len().max(1) + 1;
            if search.seen.len() + n > search.seen.capacity() {
                if !may_grow(search.seen.len(), &clock) {
                    return None;
                }
                search.seen.reserve(search.seen.len().max(n));
            }
            if search.nodes.len() + n > search.nodes.capacity() {
                if !may_grow(search.nodes.len() / 8, &clock) {
                    return None;
                }
                search.nodes.reserve(search.nodes.len().max(n));
            }
            let Some((node, state)) = search.queue.pop_front() else {
                if search.atoms.is_some() {
                    // IW(1) ran dry: search again without pruning.
                    let fresh = Search::new(&search.root, search.root_key, false);
                    discard(self.search.replace(fresh));
                    continue;
                }
                return None;
            };
            self.last_expansions += 1;
            for a in choices(&state) {
                if clock.done() {
                    // Put the state back: its remaining children are generated next time.
                    search.queue.push_front((node, state));
                    return None;
                }
                let mut next = state.clone();
                next.advance(a);
                if next.winner() == Winner::PlayerWins {
                    let mut path = search.path_to(node);
                    path.push(a);
                    return Some(path);
                }
                if next.is_over() || !search.seen.insert(next.key()) {
                    continue;
                }
                if let Some(atoms) = search.atoms.as_mut() {
                    if !novel(atoms, &next) {
                        continue;
                    }
                }
                search.nodes.push((node, a));
                let id = (search.nodes.len() - 1) as u32;
                search.queue.push_back((id, next));
            }
        }
    }

    fn act_inner(&mut self, state: &GameState, budget: &Budget) -> Action {
        let key = state.key();
        // Resume the plan where the game is: one step on if the last action was played, the
        // same step again if it was replaced by NIL (GVG-AI plays NIL for an act over 40 ms)
        // and NIL left the state as it was. A step stays in the plan until the game is seen
        // past it.
        if let Some(pos) = self.plan.iter().position(|&(_, k)| k == key) {
            self.plan.drain(..pos);
            if let Some(&(a, _)) = self.plan.front() {
                return a;
            }
        }
        self.plan.clear();
        if self.search.as_ref().is_none_or(|s| s.root_key != key) {
            discard(self.search.take());
            self.search = Some(Search::new(state, key, self.iw));
        }
        if let Some(path) = self.expand(budget) {
            discard(self.search.take());
            // Record the expected key before each step, to detect deviations.
            let mut s = state.clone();
            for a in path {
                let k = s.key();
                self.plan.push_back((a, k));
                s.advance(a);
            }
            if let Some(&(a, _)) = self.plan.front() {
                return a;
            }
        }
        Action::Nil
    }
}

impl Controller for Bfs {
    fn name(&self) -> &'static str {
        if self.iw { "iw" } else { "bfs" }
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
    use crate::gvgai::controllers::{ACT_TIME, play};
    use crate::gvgai::games::shipped;

    #[test]
    fn bfs_solves_sokoban_level_4_optimally() {
        let game = shipped("sokoban").unwrap();
        let mut c = Bfs::new();
        let r = play(&game, 4, 0, &mut c, ACT_TIME).unwrap();
        assert!(r.outcome.win, "{r:?}");
        // 8 moves is optimal; a few NIL ticks may precede them while searching.
        assert!(r.outcome.ticks < 20, "{r:?}");
    }

    #[test]
    fn a_plan_survives_actions_replaced_by_nil() {
        // Sokoban: NIL changes nothing, so after a NIL the planned step is played again
        // instead of searching afresh.
        let game = shipped("sokoban").unwrap();
        let mut c = Bfs::new();
        let mut state = game.start(4, 0).unwrap();
        let budget = || {
            Budget::new(
                std::time::Instant::now() + ACT_TIME * 25,
                Default::default(),
            )
        };
        let mut first = c.act(&state, &budget());
        while first == Action::Nil && c.plan.is_empty() {
            first = c.act(&state, &budget());
        }
        let plan_len = c.plan.len();
        // The first planned action is replaced by NIL: the same action comes again.
        state.advance(Action::Nil);
        assert_eq!(c.act(&state, &budget()), first);
        assert_eq!(c.plan.len(), plan_len, "no new search");
        let mut moves = 0;
        let mut a = first;
        while !state.is_over() && moves < 50 {
            state.advance(a);
            moves += 1;
            a = c.act(&state, &budget());
        }
        assert!(
            state.winner() == Winner::PlayerWins && moves == plan_len,
            "{moves}"
        );
    }

    #[test]
    fn iw_solves_sokoban_level_4() {
        let game = shipped("sokoban").unwrap();
        let mut c = Bfs::iw();
        let r = play(&game, 4, 0, &mut c, ACT_TIME).unwrap();
        assert!(r.outcome.win, "{r:?}");
        assert!(r.outcome.ticks < 40, "{r:?}");
    }
}
