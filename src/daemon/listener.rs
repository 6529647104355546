//! The accept loop: a semaphore slot per session, one task per connection, and the shutdown
//! sequence (stop accepting, cancel, bounded wait, drop stragglers).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::{debug, info, warn};

use super::DaemonError;
use super::session::{Session, SessionHandler};
use crate::config::ServerConfig;

/// A bound, not yet running, GTP listener.
#[derive(Debug)]
pub struct Daemon {
    listener: TcpListener,
    local_addr: SocketAddr,
    max_connections: usize,
    grace: Duration,
}

/// What happened during a daemon's life, returned when it has shut down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShutdownReport {
    /// Sessions started in total.
    pub sessions: u64,
    /// Sessions still running at the end of the grace period, dropped.
    pub forced: usize,
}

impl Daemon {
    /// Binds `server.gtp_listen` (port 0 picks a free port; see [`Daemon::local_addr`]).
    pub async fn bind(server: &ServerConfig) -> Result<Daemon, DaemonError> {
        let addr = server.gtp_listen_addr()?;
        Daemon::bind_addr(
            addr,
            server.max_connections,
            server.shutdown_grace_duration(),
        )
        .await
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
            ..
        } = self;
        let slots = Arc::new(Semaphore::new(max_connections));
        let cancel = CancellationToken::new();
        let kill = CancellationToken::new();
        let tracker = TaskTracker::new();
        let forced = Arc::new(AtomicUsize::new(0));
        let mut sessions = 0u64;
        tokio::pin!(shutdown);

        loop {
            if slots.available_permits() == 0 {
                info!(
                    max_connections,
                    "all session slots busy; new connections wait"
                );
            }
            let permit = tokio::select! {
                biased;
                () = &mut shutdown => break,
                permit = slots.clone().acquire_owned() => match permit {
                    Ok(permit) => permit,
                    Err(_) => break,
                },
            };
            let (stream, peer) = tokio::select! {
                biased;
                () = &mut shutdown => break,
                stream = accept(&listener) => stream,
            };
            sessions += 1;
            let session = Session::tcp(stream, peer, sessions);
            let handler = Arc::clone(&handler);
            let token = cancel.child_token();
            let kill = kill.clone();
            let forced = Arc::clone(&forced);
            tracker.spawn(async move {
                let _permit = permit;
                let (id, peer) = (session.id, session.peer.clone());
                let started = Instant::now();
                info!(session = id, %peer, "session start");
                let run = handler(session, token);
                let outcome = tokio::select! {
                    outcome = run => Some(outcome),
                    () = kill.cancelled() => None,
                };
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
        };
        info!(
            sessions = report.sessions,
            forced = report.forced,
            "daemon stopped"
        );
        report
    }
}

/// Accepts one connection, retrying transient errors (e.g. out of file descriptors) with a
/// capped backoff instead of ending the daemon.
async fn accept(listener: &TcpListener) -> (TcpStream, SocketAddr) {
    let mut backoff = Duration::from_millis(10);
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                debug!(%peer, "accepted");
                return (stream, peer);
            }
            Err(e) => {
                warn!("accept failed: {e}; retrying in {backoff:?}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(1));
            }
        }
    }
}
