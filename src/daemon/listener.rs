//! The accept loop: a semaphore slot per session, one task per connection, the idle policy
//! (idle timeout, eviction of the longest-idle session when full) and the shutdown sequence
//! (stop accepting, cancel, bounded wait, drop stragglers).

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::{info, warn};

use super::DaemonError;
use super::session::{Activity, Session, SessionHandler};
use crate::config::ServerConfig;

/// A bound, not yet running, GTP listener.
#[derive(Debug)]
pub struct Daemon {
    listener: TcpListener,
    local_addr: SocketAddr,
    max_connections: usize,
    grace: Duration,
    idle: IdlePolicy,
}

/// When the daemon closes silent sessions (see the module docs of `daemon`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdlePolicy {
    /// Close a session idle this long (`None`: never).
    pub timeout: Option<Duration>,
    /// While a client waits for a slot, evict the longest-idle session once it has been idle
    /// this long (`None`: never evict).
    pub evict_after: Option<Duration>,
}

impl IdlePolicy {
    pub fn from_config(server: &ServerConfig) -> IdlePolicy {
        IdlePolicy {
            timeout: server.idle_timeout_duration(),
            evict_after: server.evict_idle_after_duration(),
        }
    }
}

/// The running sessions' activity and cancellation, for eviction.
type Registry = Arc<Mutex<HashMap<u64, (Activity, CancellationToken)>>>;

/// How often a held connection looks again for a session to evict.
const EVICT_RETRY: Duration = Duration::from_millis(500);

/// What happened during a daemon's life, returned when it has shut down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShutdownReport {
    /// Sessions started in total.
    pub sessions: u64,
    /// Sessions still running at the end of the grace period, dropped.
    pub forced: usize,
    /// Sessions closed by the idle policy (timeout or eviction).
    pub idle_closed: u64,
}

impl Daemon {
    /// Binds `server.gtp_listen` (port 0 picks a free port; see [`Daemon::local_addr`]).
    pub async fn bind(server: &ServerConfig) -> Result<Daemon, DaemonError> {
        let addr = server.gtp_listen_addr()?;
        let daemon = Daemon::bind_addr(
            addr,
            server.max_connections,
            server.shutdown_grace_duration(),
        )
        .await?;
        Ok(daemon.with_idle_policy(IdlePolicy::from_config(server)))
    }

    /// Sets the idle policy (none by default for [`Daemon::bind_addr`]).
    pub fn with_idle_policy(mut self, idle: IdlePolicy) -> Daemon {
        self.idle = idle;
        self
    }

    /// Binds any address with its own connection limit and grace period (the GVG-AI
    /// listener uses this).
    pub async fn bind_addr(
        addr: SocketAddr,
        max_connections: usize,
        grace: Duration,
    ) -> Result<Daemon, DaemonError> {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| DaemonError::Bind { addr, source })?;
        let local_addr = listener
            .local_addr()
            .map_err(|source| DaemonError::Bind { addr, source })?;
        Ok(Daemon {
            listener,
            local_addr,
            max_connections: max_connections.max(1),
            grace,
            idle: IdlePolicy::default(),
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Serves connections until `shutdown` resolves, then shuts down (see the module docs).
    pub async fn run(
        self,
        handler: SessionHandler,
        shutdown: impl Future<Output = ()>,
    ) -> ShutdownReport {
        let Daemon {
            listener,
            max_connections,
            grace,
            idle,
            ..
        } = self;
        let slots = Arc::new(Semaphore::new(max_connections));
        let cancel = CancellationToken::new();
        let kill = CancellationToken::new();
        let tracker = TaskTracker::new();
        let forced = Arc::new(AtomicUsize::new(0));
        let idle_closed = Arc::new(AtomicUsize::new(0));
        let registry: Registry = Arc::default();
        let mut sessions = 0u64;
        tokio::pin!(shutdown);

        loop {
            let (stream, peer) = tokio::select! {
                biased;
                () = &mut shutdown => break,
                stream = crate::net::accept(&listener) => stream,
            };
            let permit = match slots.clone().try_acquire_owned() {
                Ok(permit) => permit,
                Err(_) => {
                    info!(max_connections, %peer, "all session slots busy; the client waits");
                    let wait = wait_for_slot(&slots, &registry, idle.evict_after, &idle_closed);
                    tokio::select! {
                        biased;
                        () = &mut shutdown => break,
                        permit = wait => match permit {
                            Some(permit) => permit,
                            None => break,
                        },
                    }
                }
            };
            sessions += 1;
            let session = Session::tcp(stream, peer, sessions);
            let handler = Arc::clone(&handler);
            let token = cancel.child_token();
            registry
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(sessions, (session.activity.clone(), token.clone()));
            let kill = kill.clone();
            let forced = Arc::clone(&forced);
            let idle_closed = Arc::clone(&idle_closed);
            let registry = Arc::clone(&registry);
            tracker.spawn(async move {
                let _permit = permit;
                let (id, peer) = (session.id, session.peer.clone());
                let activity = session.activity.clone();
                let started = Instant::now();
                info!(session = id, %peer, "session start");
                let run = handler(session, token.clone());
                let watch = watch_idle(activity, idle.timeout, token, id, idle_closed);
                tokio::pin!(run, watch);
                let mut watching = true;
                let outcome = loop {
                    tokio::select! {
                        outcome = &mut run => break Some(outcome),
                        () = kill.cancelled() => break None,
                        () = &mut watch, if watching => watching = false,
                    }
                };
                registry
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
                let secs = started.elapsed().as_secs_f64();
                match outcome {
                    Some(Ok(())) => info!(session = id, %peer, secs, "session end"),
                    Some(Err(e)) => warn!(session = id, %peer, secs, "session end with error: {e}"),
                    None => {
                        forced.fetch_add(1, Ordering::Relaxed);
                        warn!(session = id, %peer, secs, "session closed: still running after the shutdown grace period");
                    }
                }
            });
        }

        drop(listener);
        info!(
            running = tracker.len(),
            "listener closed; cancelling sessions"
        );
        cancel.cancel();
        tracker.close();
        if tokio::time::timeout(grace, tracker.wait()).await.is_err() {
            kill.cancel();
            // Dropping a session's future only waits for its next poll; bound that too.
            if tokio::time::timeout(Duration::from_secs(1), tracker.wait())
                .await
                .is_err()
            {
                warn!(
                    running = tracker.len(),
                    "sessions did not stop; leaving them behind"
                );
            }
        }
        let report = ShutdownReport {
            sessions,
            forced: forced.load(Ordering::Relaxed),
            idle_closed: idle_closed.load(Ordering::Relaxed) as u64,
        };
        info!(
            sessions = report.sessions,
            forced = report.forced,
            "daemon stopped"
        );
        report
    }
}

/// Waits for a free slot for a held connection, evicting the longest-idle session (idle at
/// least `evict_after`) while none is free; `None` if the semaphore closed.
async fn wait_for_slot(
    slots: &Arc<Semaphore>,
    registry: &Registry,
    evict_after: Option<Duration>,
    evicted: &AtomicUsize,
) -> Option<tokio::sync::OwnedSemaphorePermit> {
    loop {
        if let Some(min) = evict_after {
            evict_longest_idle(registry, min, evicted);
        }
        tokio::select! {
            permit = slots.clone().acquire_owned() => return permit.ok(),
            () = tokio::time::sleep(EVICT_RETRY) => {}
        }
    }
}

/// Cancels the session idle longest if it has been idle at least `min`; it leaves the
/// registry at once so that it is not chosen twice while it winds down.
fn evict_longest_idle(registry: &Registry, min: Duration, evicted: &AtomicUsize) {
    let mut reg = registry.lock().unwrap_or_else(|e| e.into_inner());
    let longest = reg
        .iter()
        .filter_map(|(&id, (activity, _))| activity.idle_for().map(|d| (d, id)))
        .filter(|&(d, _)| d >= min)
        .max();
    if let Some((idle, id)) = longest
        && let Some((_, token)) = reg.remove(&id)
    {
        info!(
            session = id,
            idle_secs = idle.as_secs_f64(),
            "evicting the longest-idle session for a waiting client"
        );
        evicted.fetch_add(1, Ordering::Relaxed);
        token.cancel();
    }
}

/// Cancels `token` once the session has been idle for `timeout`; never returns otherwise.
async fn watch_idle(
    activity: Activity,
    timeout: Option<Duration>,
    token: CancellationToken,
    id: u64,
    closed: Arc<AtomicUsize>,
) {
    let Some(timeout) = timeout else {
        return std::future::pending().await;
    };
    loop {
        let wait = match activity.idle_for() {
            Some(idle) if idle >= timeout => break,
            Some(idle) => timeout - idle,
            // Busy: look again soon after it ends.
            None => timeout.min(Duration::from_secs(1)),
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = token.cancelled() => return std::future::pending().await,
        }
    }
    info!(
        session = id,
        timeout_secs = timeout.as_secs_f64(),
        "closing an idle session"
    );
    closed.fetch_add(1, Ordering::Relaxed);
    token.cancel();
    std::future::pending().await
}
