//! The accept loop: a semaphore slot per session, one task per connection, the idle policy
//! (idle timeout, eviction of the longest-idle session when full) and the shutdown sequence
//! (stop accepting, cancel, bounded wait, drop stragglers).

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::{Instrument, info, warn};

use super::DaemonError;
use super::session::{Activity, Session, SessionHandler};
use crate::config::ServerConfig;

/// A bound, not yet running, listener: GTP, GVG-AI or the embedded DAIDE server's.
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

    /// Binds any address with its own connection limit and grace period (the GVG-AI and DAIDE
    /// listeners use this).
    pub async fn bind_addr(
        addr: SocketAddr,
        max_connections: usize,
        grace: Duration,
    ) -> Result<Daemon, DaemonError> {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| DaemonError::Bind { addr, source })?;
        Daemon::from_listener(listener, max_connections, grace)
            .map_err(|source| DaemonError::Bind { addr, source })
    }

    /// A listener bound elsewhere, with its connection limit and grace period (the embedded
    /// DAIDE server's `run_server` takes one).
    pub fn from_listener(
        listener: TcpListener,
        max_connections: usize,
        grace: Duration,
    ) -> std::io::Result<Daemon> {
        let local_addr = listener.local_addr()?;
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
        let mut sessions = Sessions::new(handler, max_connections, idle);
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                biased;
                () = &mut shutdown => break,
                stream = crate::net::accept(&listener) => stream,
            };
            let Some(permit) = sessions.slot(peer, shutdown.as_mut()).await else {
                break;
            };
            sessions.spawn(stream, peer, permit);
        }
        drop(listener);
        sessions.shut_down(grace).await
    }
}

/// What every session of a running listener shares.
#[derive(Clone)]
struct Shared {
    handler: SessionHandler,
    /// Cancelled at the end of the grace period: the sessions still running are dropped.
    kill: CancellationToken,
    idle_timeout: Option<Duration>,
    registry: Registry,
    forced: Arc<AtomicUsize>,
    idle_closed: Arc<AtomicUsize>,
}

/// The sessions of a running listener: their slots, cancellation and tasks.
struct Sessions {
    shared: Shared,
    max_connections: usize,
    evict_after: Option<Duration>,
    slots: Arc<Semaphore>,
    /// Cancelled at shutdown; every session's token is a child of it.
    cancel: CancellationToken,
    tracker: TaskTracker,
    /// Sessions started so far (the last one's id).
    started: u64,
}

impl Sessions {
    fn new(handler: SessionHandler, max_connections: usize, idle: IdlePolicy) -> Sessions {
        Sessions {
            shared: Shared {
                handler,
                kill: CancellationToken::new(),
                idle_timeout: idle.timeout,
                registry: Arc::default(),
                forced: Arc::default(),
                idle_closed: Arc::default(),
            },
            max_connections,
            evict_after: idle.evict_after,
            slots: Arc::new(Semaphore::new(max_connections)),
            cancel: CancellationToken::new(),
            tracker: TaskTracker::new(),
            started: 0,
        }
    }

    /// A slot for the connection just accepted from `peer`: a free one, or else the first to
    /// free up (evicting idle sessions meanwhile) while the connection is held; `None` if
    /// `shutdown` comes first.
    async fn slot(
        &self,
        peer: SocketAddr,
        shutdown: std::pin::Pin<&mut impl Future<Output = ()>>,
    ) -> Option<OwnedSemaphorePermit> {
        if let Ok(permit) = self.slots.clone().try_acquire_owned() {
            return Some(permit);
        }
        let max_connections = self.max_connections;
        info!(max_connections, %peer, "all session slots busy; the client waits");
        let wait = wait_for_slot(
            &self.slots,
            &self.shared.registry,
            self.evict_after,
            &self.shared.idle_closed,
        );
        tokio::select! {
            biased;
            () = shutdown => None,
            permit = wait => permit,
        }
    }

    /// Starts the session of a connection that has its slot.
    fn spawn(&mut self, stream: TcpStream, peer: SocketAddr, permit: OwnedSemaphorePermit) {
        self.started += 1;
        let session = Session::tcp(stream, peer, self.started);
        let token = self.cancel.child_token();
        self.shared
            .registry
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(self.started, (session.activity.clone(), token.clone()));
        let task = run_session(self.shared.clone(), session, token, permit);
        // The session logs in the listener's span (its protocol, in `tablero serve`).
        self.tracker.spawn(task.in_current_span());
    }

    /// The shutdown sequence once the listener is closed: cancel every session, wait for them
    /// at most `grace`, then drop the ones still running.
    async fn shut_down(self, grace: Duration) -> ShutdownReport {
        let tracker = self.tracker;
        info!(
            running = tracker.len(),
            "listener closed; cancelling sessions"
        );
        self.cancel.cancel();
        tracker.close();
        if tokio::time::timeout(grace, tracker.wait()).await.is_err() {
            self.shared.kill.cancel();
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
            sessions: self.started,
            forced: self.shared.forced.load(Ordering::Relaxed),
            idle_closed: self.shared.idle_closed.load(Ordering::Relaxed) as u64,
        };
        info!(
            sessions = report.sessions,
            forced = report.forced,
            "daemon stopped"
        );
        report
    }
}

/// One session, holding its slot: the protocol's handler, the idle watch beside it, until the
/// handler ends or the grace period is over; then the session leaves the registry and its end
/// is logged.
async fn run_session(
    shared: Shared,
    session: Session,
    token: CancellationToken,
    _permit: OwnedSemaphorePermit,
) {
    let (id, peer) = (session.id, session.peer.clone());
    let activity = session.activity.clone();
    let started = Instant::now();
    info!(session = id, %peer, "session start");
    let run = (shared.handler)(session, token.clone());
    let closed = Arc::clone(&shared.idle_closed);
    let watch = watch_idle(activity, shared.idle_timeout, token, id, closed);
    tokio::pin!(run, watch);
    let mut watching = true;
    let outcome = loop {
        tokio::select! {
            outcome = &mut run => break Some(outcome),
            () = shared.kill.cancelled() => break None,
            () = &mut watch, if watching => watching = false,
        }
    };
    shared
        .registry
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&id);
    let secs = started.elapsed().as_secs_f64();
    match outcome {
        Some(Ok(())) => info!(session = id, %peer, secs, "session end"),
        Some(Err(e)) => warn!(session = id, %peer, secs, "session end with error: {e}"),
        None => {
            shared.forced.fetch_add(1, Ordering::Relaxed);
            warn!(session = id, %peer, secs, "session closed: still running after the shutdown grace period");
        }
    }
}

/// Waits for a free slot for a held connection, evicting the longest-idle session (idle at
/// least `evict_after`) while none is free; `None` if the semaphore closed.
async fn wait_for_slot(
    slots: &Arc<Semaphore>,
    registry: &Registry,
    evict_after: Option<Duration>,
    evicted: &AtomicUsize,
) -> Option<OwnedSemaphorePermit> {
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
