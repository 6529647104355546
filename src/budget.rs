//! The one budget type shared by every player: a deadline plus a cancellation check; and
//! [`Activity`], a client session's idle clock, shared by the protocols and the daemon.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A cancellation flag shared between a protocol session and a running search.
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Release);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
    pub fn reset(&self) {
        self.0.store(false, Ordering::Release);
    }
}

/// How long a decision may take: a hard deadline, the time the decision aims at (a player
/// may stop there or go on to the deadline when it is unsure), and a flag that ends it early.
#[derive(Clone, Debug)]
pub struct Budget {
    pub deadline: Instant,
    pub target: Instant,
    pub cancel: CancelFlag,
}

impl Budget {
    /// A budget that aims at its deadline.
    pub fn new(deadline: Instant, cancel: CancelFlag) -> Self {
        Self {
            deadline,
            target: deadline,
            cancel,
        }
    }
    /// A budget that aims at `target` and must end by `deadline` (the later of the two).
    pub fn with_target(target: Instant, deadline: Instant, cancel: CancelFlag) -> Self {
        Self {
            deadline: deadline.max(target),
            target,
            cancel,
        }
    }
    /// The deadline less `margin` (the deadline itself when that would be before the clock's
    /// origin).
    pub fn deadline_less(&self, margin: Duration) -> Instant {
        self.deadline.checked_sub(margin).unwrap_or(self.deadline)
    }
    /// True once the deadline has passed or the flag was raised.
    pub fn expired(&self) -> bool {
        self.cancel.is_cancelled() || Instant::now() >= self.deadline
    }
}

/// What a client session is doing, for the daemon's idle policy: when it last did something
/// (input arrived, a command ended) and whether a command is running now. The transport
/// touches it on input; the protocol marks commands busy. Cheap to clone and to update.
#[derive(Clone, Debug)]
pub struct Activity(Arc<ActivityState>);

#[derive(Debug)]
struct ActivityState {
    epoch: Instant,
    /// Milliseconds after `epoch` of the last activity.
    last_ms: AtomicU64,
    busy: AtomicBool,
}

impl Default for Activity {
    fn default() -> Self {
        Self::new()
    }
}

impl Activity {
    pub fn new() -> Self {
        Activity(Arc::new(ActivityState {
            epoch: Instant::now(),
            last_ms: AtomicU64::new(0),
            busy: AtomicBool::new(false),
        }))
    }
    /// Something happened now.
    pub fn touch(&self) {
        let ms = self.0.epoch.elapsed().as_millis() as u64;
        self.0.last_ms.fetch_max(ms, Ordering::AcqRel);
    }
    /// A command starts (`true`) or ends (`false`); both count as activity.
    pub fn set_busy(&self, busy: bool) {
        self.0.busy.store(busy, Ordering::Release);
        self.touch();
    }
    /// How long the session has done nothing; `None` while a command runs.
    pub fn idle_for(&self) -> Option<Duration> {
        if self.0.busy.load(Ordering::Acquire) {
            return None;
        }
        let last = Duration::from_millis(self.0.last_ms.load(Ordering::Acquire));
        Some(self.0.epoch.elapsed().saturating_sub(last))
    }
}
