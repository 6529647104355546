//! The one budget type shared by every player: a deadline plus a cancellation check.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

/// How long a decision may take: a hard deadline and a flag that ends it early.
#[derive(Clone, Debug)]
pub struct Budget {
    pub deadline: Instant,
    pub cancel: CancelFlag,
}

impl Budget {
    pub fn new(deadline: Instant, cancel: CancelFlag) -> Self {
        Self { deadline, cancel }
    }
    /// True once the deadline has passed or the flag was raised.
    pub fn expired(&self) -> bool {
        self.cancel.is_cancelled() || Instant::now() >= self.deadline
    }
}
