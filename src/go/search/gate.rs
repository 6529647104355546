//! Sharing the machine's cores among concurrent searches (the daemon's sessions).
//!
//! A [`CoreGate`] holds one token per core. A search worker runs playouts only while it holds
//! a token; after a [`QUANTUM`] it hands the token to the longest-waiting worker (first come,
//! first served) if anyone waits, and queues again. So at most `cores` search threads are
//! runnable at once whatever the number of sessions: each search gets its share of playouts,
//! the deadline checks of the running workers stay punctual, and the protocol threads are not
//! crowded out. A worker waits for a token only until its budget ends: a search under load
//! plays fewer playouts, never more time.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::budget::Budget;

/// How long a worker keeps a token while others wait.
pub const QUANTUM: Duration = Duration::from_millis(2);
/// How often a waiting worker looks at its cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(5);

/// Tokens for the cores that searches share; see the module docs.
#[derive(Debug)]
pub struct CoreGate {
    cores: usize,
    state: Mutex<GateState>,
    /// Workers queued for a token (read without the lock at the end of each quantum).
    waiting: AtomicUsize,
}

#[derive(Debug)]
struct GateState {
    free: usize,
    queue: VecDeque<Arc<Waiter>>,
}

#[derive(Debug, Default)]
struct Waiter {
    granted: Mutex<bool>,
    cv: Condvar,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The gate's state stays consistent across a panic in a holder (no invariant spans one).
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl CoreGate {
    /// A gate with `cores` tokens (0 = one per core of the machine).
    pub fn new(cores: usize) -> CoreGate {
        let cores = if cores == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            cores
        };
        CoreGate {
            cores,
            state: Mutex::new(GateState {
                free: cores,
                queue: VecDeque::new(),
            }),
            waiting: AtomicUsize::new(0),
        }
    }

    /// The number of tokens.
    pub fn cores(&self) -> usize {
        self.cores
    }

    /// Workers waiting for a token now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Acquire)
    }

    /// A lease for one worker thread; it holds no token until [`Lease::hold`].
    pub fn lease(&self) -> Lease<'_> {
        Lease {
            gate: self,
            since: None,
        }
    }

    /// Takes a token, waiting in line until `budget` ends; false if it ended first.
    fn acquire(&self, budget: &Budget) -> bool {
        let me = {
            let mut st = lock(&self.state);
            if st.free > 0 && st.queue.is_empty() {
                st.free -= 1;
                return true;
            }
            let me = Arc::new(Waiter::default());
            st.queue.push_back(Arc::clone(&me));
            self.waiting.fetch_add(1, Ordering::AcqRel);
            me
        };
        {
            let mut granted = lock(&me.granted);
            loop {
                if *granted {
                    return true;
                }
                let now = Instant::now();
                if now >= budget.deadline || budget.cancel.is_cancelled() {
                    break;
                }
                let wait = (budget.deadline - now).min(CANCEL_POLL);
                granted = me
                    .cv
                    .wait_timeout(granted, wait)
                    .map(|(g, _)| g)
                    .unwrap_or_else(|e| e.into_inner().0);
            }
        }
        // Giving up: unless a token arrived meanwhile, leave the queue.
        let mut st = lock(&self.state);
        if *lock(&me.granted) {
            self.release_locked(&mut st);
        } else if let Some(i) = st.queue.iter().position(|w| Arc::ptr_eq(w, &me)) {
            st.queue.remove(i);
            self.waiting.fetch_sub(1, Ordering::AcqRel);
        }
        false
    }

    fn release(&self) {
        let mut st = lock(&self.state);
        self.release_locked(&mut st);
    }

    /// Hands the token to the first in line, or frees it.
    fn release_locked(&self, st: &mut GateState) {
        match st.queue.pop_front() {
            Some(next) => {
                self.waiting.fetch_sub(1, Ordering::AcqRel);
                *lock(&next.granted) = true;
                next.cv.notify_one();
            }
            None => st.free += 1,
        }
    }
}

/// One worker's claim on the gate; dropping it returns a held token.
#[derive(Debug)]
pub struct Lease<'a> {
    gate: &'a CoreGate,
    /// When the held token was taken; `None` when none is held.
    since: Option<Instant>,
}

impl Lease<'_> {
    /// Makes sure this worker holds a token: keeps the one it has for up to a quantum (longer
    /// if nobody waits), otherwise passes it on and queues. False when the budget ended
    /// before a token came: the worker must stop.
    pub fn hold(&mut self, budget: &Budget) -> bool {
        if let Some(since) = self.since {
            if since.elapsed() < QUANTUM || self.gate.waiting() == 0 {
                return true;
            }
            self.since = None;
            self.gate.release();
        }
        if self.gate.acquire(budget) {
            self.since = Some(Instant::now());
            true
        } else {
            false
        }
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if self.since.take().is_some() {
            self.gate.release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::CancelFlag;
    use std::sync::atomic::AtomicU64;

    fn budget(ms: u64) -> Budget {
        Budget::new(
            Instant::now() + Duration::from_millis(ms),
            CancelFlag::new(),
        )
    }

    #[test]
    fn at_most_cores_workers_run_and_all_get_turns() {
        let gate = CoreGate::new(2);
        let running = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let turns: Vec<AtomicU64> = (0..8).map(|_| AtomicU64::new(0)).collect();
        std::thread::scope(|s| {
            for t in &turns {
                let (gate, running, peak) = (&gate, &running, &peak);
                s.spawn(move || {
                    let b = budget(300);
                    let mut lease = gate.lease();
                    let mut last = None;
                    while !b.expired() && lease.hold(&b) {
                        // Between two `hold` calls this worker runs: count how many do.
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(now, Ordering::SeqCst);
                        if lease.since != last {
                            last = lease.since;
                            t.fetch_add(1, Ordering::SeqCst);
                        }
                        std::thread::sleep(Duration::from_micros(200));
                        running.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert!(peak.load(Ordering::SeqCst) <= 2, "{peak:?}");
        for t in &turns {
            assert!(t.load(Ordering::SeqCst) >= 3, "a worker starved: {turns:?}");
        }
        assert_eq!(gate.waiting(), 0);
        assert_eq!(lock(&gate.state).free, 2);
    }

    #[test]
    fn a_waiter_gives_up_at_its_deadline() {
        let gate = CoreGate::new(1);
        let mut holder = gate.lease();
        assert!(holder.hold(&budget(1000)));
        let start = Instant::now();
        let mut other = gate.lease();
        assert!(!other.hold(&budget(50)));
        let waited = start.elapsed();
        assert!(waited >= Duration::from_millis(50) && waited < Duration::from_millis(500));
        assert_eq!(gate.waiting(), 0);
        drop(holder);
        assert!(other.hold(&budget(50)));
    }
}
