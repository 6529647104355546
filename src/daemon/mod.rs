//! `tablero serve`: the daemon. It owns the TCP listener for GTP (one independent session per
//! connection), the connection limit, the shutdown signal and the grace period; it knows nothing
//! about GTP itself: the protocol is plugged in as a [`SessionHandler`].
//!
//! Connection limit: at most `server.max_connections` sessions run at once. When all slots are
//! busy the daemon stops calling `accept`, so further clients complete the TCP handshake (the
//! kernel queues them) but get no answer until a running session ends; nothing is refused.
//!
//! Shutdown (SIGINT/SIGTERM, or any future passed to [`Daemon::run`]): stop accepting and close
//! the listener, cancel every session's [`CancellationToken`], wait up to
//! `server.shutdown_grace` seconds for them to end, then drop the ones still running (which
//! closes their sockets).

mod listener;
mod session;
mod shutdown;

pub use listener::{Daemon, ShutdownReport};
pub use session::{BoxReader, BoxWriter, Session, SessionError, SessionHandler, session_handler};
pub use shutdown::ShutdownSignal;
pub use tokio_util::sync::CancellationToken;

use crate::config::{Config, ConfigError};

#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: std::net::SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot install the SIGINT/SIGTERM handlers: {0}")]
    Signal(#[source] std::io::Error),
}

/// Runs the daemon from the configuration until SIGINT or SIGTERM, then shuts down cleanly.
pub async fn serve(
    config: &Config,
    handler: SessionHandler,
) -> Result<ShutdownReport, DaemonError> {
    let signal = ShutdownSignal::install().map_err(DaemonError::Signal)?;
    let daemon = Daemon::bind(&config.server).await?;
    tracing::info!(
        max_connections = config.server.max_connections,
        "GTP listening on {}",
        daemon.local_addr()
    );
    let report = daemon
        .run(handler, async move {
            let name = signal.recv().await;
            tracing::info!("{name} received, shutting down");
        })
        .await;
    Ok(report)
}
