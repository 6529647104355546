//! Search engines over a grounded [`Task`]: lazy greedy best-first search with several
//! heuristics and preferred operators (also weighted A*), A* with lazy evaluation (LM-cut,
//! h_max, blind), and width-based search (IW(k), BFWS). Engines are stepped in slices of expansions so a
//! portfolio can interleave them on few threads and stop them at a deadline.

pub mod astar;
pub mod gbfs;
pub mod landmarks;
pub mod lmcut;
pub mod negaxioms;
pub mod relaxed;
pub mod structure;
pub mod width;

use super::task::{OpId, State, Task};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Outcome of one slice of search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Running,
    Solved(Vec<OpId>),
    /// The search space (below the cost bound) is exhausted.
    Exhausted,
    /// The engine stopped without a result (its state limit was reached).
    GaveUp,
}

/// The most states one engine keeps before giving up (memory guard, ~1 GB on small tasks).
pub const MAX_STATES: usize = 4_000_000;

/// Counters of an engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    pub expanded: u64,
    pub generated: u64,
    pub evaluated: u64,
}

/// A steppable search engine.
pub trait Engine: Send {
    fn name(&self) -> &str;
    /// Runs up to `expansions` node expansions.
    fn step(&mut self, expansions: u64) -> Step;
    fn stats(&self) -> Stats;
    /// Whether a plan from this engine is guaranteed optimal.
    fn optimal(&self) -> bool {
        false
    }
    /// Bytes held by the search's node storage: the state registry, per-node data and the
    /// open list or queue (an estimate from lengths and capacities; see [`heap_bytes`]).
    fn memory_bytes(&self) -> usize;
}

/// Bytes of a vector's buffer (its capacity, not its length).
pub fn heap_bytes<T>(v: &[T], capacity: usize) -> usize {
    capacity.max(v.len()) * std::mem::size_of::<T>()
}

/// The allocator's bookkeeping per heap block (glibc malloc: 16 bytes).
const ALLOC_OVERHEAD: usize = 16;

/// A shared upper bound on plan cost: engines prune nodes that cannot beat it.
#[derive(Debug, Clone)]
pub struct Bound(pub Arc<AtomicU64>);

impl Default for Bound {
    fn default() -> Self {
        Bound(Arc::new(AtomicU64::new(u64::MAX)))
    }
}

impl Bound {
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
    pub fn lower_to(&self, v: u64) {
        self.0.fetch_min(v, Ordering::Relaxed);
    }
}

/// A fast multiplicative hasher for bit-packed states (the default SipHash dominated the
/// cost of interning states in A*; state keys come from the search, not from peers).
#[derive(Default, Clone, Copy)]
pub struct StateHasher(u64);

impl std::hash::Hasher for StateHasher {
    fn finish(&self) -> u64 {
        // murmur3's 64-bit finaliser: every input bit reaches the low (bucket) bits.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

pub type StateMap<V> = HashMap<State, V, std::hash::BuildHasherDefault<StateHasher>>;

/// Interned states with their search-node data (parent, operator, g).
pub struct Registry {
    pub states: Vec<State>,
    pub index: StateMap<u32>,
    pub parent: Vec<u32>,
    pub op: Vec<OpId>,
    pub g: Vec<u64>,
}

pub const NO_NODE: u32 = u32::MAX;

impl Registry {
    pub fn new() -> Registry {
        Registry {
            states: Vec::new(),
            index: StateMap::default(),
            parent: Vec::new(),
            op: Vec::new(),
            g: Vec::new(),
        }
    }

    /// Returns (id, is_new).
    pub fn insert(&mut self, s: State, parent: u32, op: OpId, g: u64) -> (u32, bool) {
        if let Some(&id) = self.index.get(&s) {
            return (id, false);
        }
        let id = self.states.len() as u32;
        self.index.insert(s.clone(), id);
        self.states.push(s);
        self.parent.push(parent);
        self.op.push(op);
        self.g.push(g);
        (id, true)
    }

    /// Bytes held: the state vector, every state's words (twice: the index keeps a copy of
    /// each key), the hash index's buckets and the parent, operator and g columns.
    pub fn memory_bytes(&self) -> usize {
        let words = self.states.first().map_or(1, |s| s.0.len());
        let per_state_heap = words * 8 + ALLOC_OVERHEAD;
        // hashbrown: one (key, value) slot and one control byte per bucket.
        let slot = std::mem::size_of::<(State, u32)>() + 1;
        heap_bytes(&self.states, self.states.capacity())
            + 2 * self.states.len() * per_state_heap
            + self.index.capacity() * slot * 8 / 7
            + heap_bytes(&self.parent, self.parent.capacity())
            + heap_bytes(&self.op, self.op.capacity())
            + heap_bytes(&self.g, self.g.capacity())
    }

    pub fn plan(&self, mut node: u32) -> Vec<OpId> {
        let mut plan = Vec::new();
        while self.parent[node as usize] != NO_NODE {
            plan.push(self.op[node as usize]);
            node = self.parent[node as usize];
        }
        plan.reverse();
        plan
    }
}

impl Default for Registry {
    fn default() -> Self {
        Self::new()
    }
}

/// Shared read-only data for the engines of one task.
pub struct Shared {
    pub task: Task,
    pub succ: super::task::SuccessorGenerator,
    pub relaxed: Arc<relaxed::RelaxedTask>,
    /// The relaxation A* uses ([`relaxed::Derived::Positive`]); built on first use when the
    /// task has axioms, `relaxed` itself otherwise.
    admissible: std::sync::OnceLock<Arc<relaxed::RelaxedTask>>,
    pub landmarks: std::sync::OnceLock<Arc<landmarks::LandmarkGraph>>,
}

impl Shared {
    pub fn new(task: Task) -> Arc<Shared> {
        let succ = super::task::SuccessorGenerator::new(&task);
        let relaxed = Arc::new(relaxed::RelaxedTask::new(&task));
        Arc::new(Shared {
            task,
            succ,
            relaxed,
            admissible: std::sync::OnceLock::new(),
            landmarks: std::sync::OnceLock::new(),
        })
    }

    /// The relaxed task for A*'s heuristics.
    pub fn admissible(&self) -> Arc<relaxed::RelaxedTask> {
        self.admissible
            .get_or_init(|| {
                if self.task.axioms.is_empty() {
                    self.relaxed.clone()
                } else {
                    let plain =
                        relaxed::RelaxedTask::with_derived(&self.task, relaxed::Derived::Positive);
                    Arc::new(plain)
                }
            })
            .clone()
    }

    pub fn landmarks(&self) -> Arc<landmarks::LandmarkGraph> {
        self.landmarks
            .get_or_init(|| Arc::new(landmarks::LandmarkGraph::compute(&self.task, &self.relaxed)))
            .clone()
    }
}

/// Runs an engine to completion with no limit (for tests and simple uses).
pub fn run_to_end(engine: &mut dyn Engine, max_expansions: u64) -> Option<Vec<OpId>> {
    let mut used = 0;
    while used < max_expansions {
        match engine.step(1000) {
            Step::Running => used += 1000,
            Step::Solved(p) => return Some(p),
            Step::Exhausted | Step::GaveUp => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests;
