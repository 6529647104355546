//! Width-based search: IW(k) (breadth-first search pruning states of novelty > k) and
//! BFWS (best-first search on (novelty, #unachieved goals), novelty counted per #goals).

use super::{Bound, Engine, NO_NODE, Registry, Shared, StateHasher, Stats, Step};
use crate::planning::task::{FactId, OpId, State, Task};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// Seen atoms and atom pairs. Pairs are counted over the basic facts only: a derived fact is
/// a function of the basic ones, and pairs over derived facts grow with the square of the
/// axioms' output (PSR has a thousand derived facts beside a few dozen basic ones).
#[derive(Default)]
struct NoveltyTable {
    facts: Vec<bool>,
    pairs: HashSet<u64, BuildHasherDefault<StateHasher>>,
}

impl NoveltyTable {
    /// Bytes held: the atom flags and the hash set of pairs (slot and control byte).
    fn memory_bytes(&self) -> usize {
        self.facts.capacity() + self.pairs.capacity() * 9 * 8 / 7
    }

    /// The novelty of `s` (1, 2, or k_max + 1 when neither a new atom nor pair exists), and
    /// records its atoms (and pairs of basic atoms, those not `derived`, if `k_max >= 2`).
    fn novelty(&mut self, s: &State, derived: &[bool], k_max: u32, buf: &mut Vec<FactId>) -> u32 {
        let n = derived.len();
        if self.facts.len() < n {
            self.facts.resize(n, false);
        }
        buf.clear();
        let mut w = k_max + 1;
        for f in s.facts() {
            if !self.facts[f as usize] {
                self.facts[f as usize] = true;
                w = 1;
            }
            if !derived[f as usize] {
                buf.push(f);
            }
        }
        if k_max >= 2 {
            for (i, &a) in buf.iter().enumerate() {
                for &b in &buf[i + 1..] {
                    if self.pairs.insert(a as u64 * n as u64 + b as u64) && w > 2 {
                        w = 2;
                    }
                }
            }
        }
        w
    }
}

fn unachieved(task: &Task, s: &State) -> u32 {
    (task.goal_pos.iter().filter(|&&f| !s.has(f)).count()
        + task.goal_neg.iter().filter(|&&f| s.has(f)).count()) as u32
}

/// IW(k).
pub struct Iw {
    name: String,
    shared: Arc<Shared>,
    k: u32,
    bound: Bound,
    reg: Registry,
    queue: VecDeque<u32>,
    table: NoveltyTable,
    /// Whether each fact is derived (left out of novelty pairs).
    derived: Vec<bool>,
    started: bool,
    stats: Stats,
    buf: Vec<FactId>,
    ops: Vec<OpId>,
    start: Option<State>,
    target: Option<u32>,
}

impl Iw {
    pub fn new(shared: Arc<Shared>, k: u32, bound: Bound) -> Iw {
        let derived = shared.task.derived_mask();
        Iw {
            name: format!("iw{k}"),
            shared,
            k,
            bound,
            reg: Registry::new(),
            queue: VecDeque::new(),
            table: NoveltyTable::default(),
            derived,
            started: false,
            stats: Stats::default(),
            buf: Vec::new(),
            ops: Vec::new(),
            start: None,
            target: None,
        }
    }

    /// IW(k) from `start` that succeeds on any state with fewer than `target` unachieved
    /// goals (a subproblem of serialized IW).
    fn subproblem(shared: Arc<Shared>, k: u32, bound: Bound, start: State, target: u32) -> Iw {
        let mut iw = Iw::new(shared, k, bound);
        iw.start = Some(start);
        iw.target = Some(target);
        iw
    }

    fn success(&self, task: &Task, s: &State) -> bool {
        match self.target {
            Some(t) => unachieved(task, s) < t,
            None => task.is_goal(s),
        }
    }
}

impl Engine for Iw {
    fn name(&self) -> &str {
        &self.name
    }

    fn step(&mut self, expansions: u64) -> Step {
        let shared = self.shared.clone();
        let task = &shared.task;
        if !self.started {
            self.started = true;
            let s = self.start.clone().unwrap_or_else(|| task.initial_state());
            if self.success(task, &s) {
                return Step::Solved(Vec::new());
            }
            self.table.novelty(&s, &self.derived, self.k, &mut self.buf);
            self.reg.insert(s, NO_NODE, 0, 0);
            self.queue.push_back(0);
        }
        for _ in 0..expansions {
            if self.reg.states.len() >= super::MAX_STATES {
                return Step::GaveUp;
            }
            let Some(node) = self.queue.pop_front() else {
                return Step::Exhausted;
            };
            let state = self.reg.states[node as usize].clone();
            let g = self.reg.g[node as usize];
            self.stats.expanded += 1;
            let mut ops = std::mem::take(&mut self.ops);
            shared.succ.applicable(task, &state, &mut ops);
            for &o in &ops {
                let cg = g + task.operators[o as usize].cost as u64;
                if cg >= self.bound.get() {
                    continue;
                }
                let child = task.apply(&state, o);
                if self.reg.index.contains_key(&child) {
                    continue;
                }
                self.stats.generated += 1;
                let goal = self.success(task, &child);
                let w = self
                    .table
                    .novelty(&child, &self.derived, self.k, &mut self.buf);
                if w > self.k && !goal {
                    continue;
                }
                let (id, _) = self.reg.insert(child, node, o, cg);
                if goal {
                    return Step::Solved(self.reg.plan(id));
                }
                self.queue.push_back(id);
            }
            self.ops = ops;
        }
        Step::Running
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.reg.memory_bytes() + self.queue.capacity() * 4 + self.table.memory_bytes()
    }
}

/// BFWS with novelty per number of unachieved goals; complete (no pruning).
pub struct Bfws {
    shared: Arc<Shared>,
    bound: Bound,
    reg: Registry,
    open: BinaryHeap<Reverse<(u32, u32, u64, u32)>>,
    tables: HashMap<u32, NoveltyTable>,
    /// Whether each fact is derived (left out of novelty pairs).
    derived: Vec<bool>,
    seq: u64,
    started: bool,
    stats: Stats,
    buf: Vec<FactId>,
    ops: Vec<OpId>,
}

impl Bfws {
    pub fn new(shared: Arc<Shared>, bound: Bound) -> Bfws {
        let derived = shared.task.derived_mask();
        Bfws {
            shared,
            bound,
            reg: Registry::new(),
            open: BinaryHeap::new(),
            tables: HashMap::new(),
            derived,
            seq: 0,
            started: false,
            stats: Stats::default(),
            buf: Vec::new(),
            ops: Vec::new(),
        }
    }

    fn push(&mut self, node: u32) {
        let s = &self.reg.states[node as usize];
        let gc = unachieved(&self.shared.task, s);
        let w = self
            .tables
            .entry(gc)
            .or_default()
            .novelty(s, &self.derived, 2, &mut self.buf);
        self.seq += 1;
        self.open.push(Reverse((w, gc, self.seq, node)));
    }
}

impl Engine for Bfws {
    fn name(&self) -> &str {
        "bfws"
    }

    fn step(&mut self, expansions: u64) -> Step {
        let shared = self.shared.clone();
        let task = &shared.task;
        if !self.started {
            self.started = true;
            let s = task.initial_state();
            if task.is_goal(&s) {
                return Step::Solved(Vec::new());
            }
            self.reg.insert(s, NO_NODE, 0, 0);
            self.push(0);
        }
        for _ in 0..expansions {
            if self.reg.states.len() >= super::MAX_STATES {
                return Step::GaveUp;
            }
            let Some(Reverse((_, _, _, node))) = self.open.pop() else {
                return Step::Exhausted;
            };
            let state = self.reg.states[node as usize].clone();
            let g = self.reg.g[node as usize];
            self.stats.expanded += 1;
            let mut ops = std::mem::take(&mut self.ops);
            shared.succ.applicable(task, &state, &mut ops);
            for &o in &ops {
                let cg = g + task.operators[o as usize].cost as u64;
                if cg >= self.bound.get() {
                    continue;
                }
                let child = task.apply(&state, o);
                let (id, new) = self.reg.insert(child, node, o, cg);
                if !new {
                    continue;
                }
                self.stats.generated += 1;
                if task.is_goal(&self.reg.states[id as usize]) {
                    return Step::Solved(self.reg.plan(id));
                }
                self.push(id);
            }
            self.ops = ops;
        }
        Step::Running
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.reg.memory_bytes()
            + self.open.capacity() * std::mem::size_of::<Reverse<(u32, u32, u64, u32)>>()
            + self
                .tables
                .values()
                .map(NoveltyTable::memory_bytes)
                .sum::<usize>()
    }
}

/// Serialized IW: IW(1), then IW(2) if needed, from the current state until one more goal
/// atom is achieved; the sub-plans are concatenated. Incomplete.
pub struct Siw {
    shared: Arc<Shared>,
    bound: Bound,
    current: Option<State>,
    prefix: Vec<OpId>,
    inner: Option<Iw>,
    stats: Stats,
}

impl Siw {
    pub fn new(shared: Arc<Shared>, bound: Bound) -> Siw {
        Siw {
            shared,
            bound,
            current: None,
            prefix: Vec::new(),
            inner: None,
            stats: Stats::default(),
        }
    }
}

impl Engine for Siw {
    fn name(&self) -> &str {
        "siw"
    }

    fn step(&mut self, expansions: u64) -> Step {
        let shared = self.shared.clone();
        let task = &shared.task;
        let current = self
            .current
            .get_or_insert_with(|| task.initial_state())
            .clone();
        if task.is_goal(&current) {
            return Step::Solved(self.prefix.clone());
        }
        let inner = self.inner.get_or_insert_with(|| {
            Iw::subproblem(
                shared.clone(),
                1,
                self.bound.clone(),
                current.clone(),
                unachieved(task, &current),
            )
        });
        let before = inner.stats();
        let res = inner.step(expansions);
        let after = inner.stats();
        self.stats.expanded += after.expanded - before.expanded;
        self.stats.generated += after.generated - before.generated;
        match res {
            Step::Running => Step::Running,
            Step::Solved(sub) => {
                let mut s = current;
                for &o in &sub {
                    s = task.apply(&s, o);
                }
                self.prefix.extend(sub);
                self.current = Some(s);
                self.inner = None;
                if self.bound.get() <= task.plan_cost(&self.prefix) {
                    return Step::Exhausted;
                }
                Step::Running
            }
            Step::Exhausted | Step::GaveUp => {
                if inner.k == 1 {
                    self.inner = Some(Iw::subproblem(
                        shared.clone(),
                        2,
                        self.bound.clone(),
                        current.clone(),
                        unachieved(task, &current),
                    ));
                    Step::Running
                } else {
                    Step::Exhausted
                }
            }
        }
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.inner.as_ref().map_or(0, |i| i.memory_bytes())
            + self.prefix.capacity() * std::mem::size_of::<OpId>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(n: usize, facts: &[FactId]) -> State {
        let mut s = State::empty(n);
        for &f in facts {
            s.set(f, true);
        }
        s
    }

    #[test]
    fn novelty_pairs_leave_derived_facts_out() {
        let n = 4;
        // Facts 2 and 3 are derived.
        let derived = [false, false, true, true];
        let mut table = NoveltyTable::default();
        let mut buf = Vec::new();
        assert_eq!(table.novelty(&state(n, &[0, 2]), &derived, 2, &mut buf), 1);
        assert_eq!(table.novelty(&state(n, &[1, 3]), &derived, 2, &mut buf), 1);
        // Every atom seen; the pair (0, 3) is new but 3 is derived: nothing new.
        assert_eq!(table.novelty(&state(n, &[0, 3]), &derived, 2, &mut buf), 3);
        // The basic pair (0, 1) is new.
        assert_eq!(table.novelty(&state(n, &[0, 1]), &derived, 2, &mut buf), 2);
        assert_eq!(
            table.novelty(&state(n, &[0, 1, 2]), &derived, 2, &mut buf),
            3
        );
    }
}
