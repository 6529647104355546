//! `tablero serve`: the daemon. It owns the TCP listener for GTP (one independent session per
//! connection), the connection limit, the shutdown signal and the grace period; it knows nothing
//! about GTP itself: the protocol is plugged in as a [`SessionHandler`].
//!
//! Connection limit: at most `server.max_connections` sessions run at once. When all slots are
//! busy the daemon accepts one more connection and holds it, unanswered, until a slot frees;
//! further clients complete the TCP handshake (the kernel queues them) and wait behind it.
//! Nothing is refused.
//!
//! Idle policy (see [`IdlePolicy`]): a session silent (no input, no command running) for
//! `server.idle_timeout` is closed; and while a client waits for a slot, the session idle
//! longest is evicted once it has been idle for `server.evict_idle_after`. A long timeout
//! keeps slow but legitimate games (a human opponent thinking, a controller between games)
//! when the server has room; eviction reclaims slots from silent clients only when someone
//! else needs one, so a few silent connections cannot starve the server. A session whose
//! protocol marks it busy (a genmove in progress) is never idle.
//!
//! Shutdown (SIGINT/SIGTERM, or any future passed to [`Daemon::run`]): stop accepting and close
//! the listener, cancel every session's [`CancellationToken`], wait up to
//! `server.shutdown_grace` seconds for them to end, then drop the ones still running (which
//! closes their sockets).

pub mod dipbot;
mod listener;
mod session;
mod shutdown;

pub use listener::{Daemon, IdlePolicy, ShutdownReport};
pub use session::{
    Activity, BoxReader, BoxWriter, Session, SessionError, SessionHandler, Transport,
    session_handler,
};
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

/// Starts one [`dipbot::run_seat`] task per `[[diplomacy.bots]]` entry; they
/// play until `cancel`.
pub fn spawn_diplomacy_bots(
    config: &Config,
    cancel: &CancellationToken,
) -> Vec<tokio::task::JoinHandle<()>> {
    let d = &config.diplomacy;
    let backoff = dipbot::Backoff {
        initial: std::time::Duration::try_from_secs_f64(d.reconnect_initial).unwrap_or_default(),
        max: std::time::Duration::try_from_secs_f64(d.reconnect_max).unwrap_or_default(),
    };
    d.bots
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let seat = dipbot::BotSeat {
                server: b.server.clone(),
                bot: b.bot.clone(),
                name: b.name.clone(),
                power: b.power.clone(),
                seed: d.seed.wrapping_add(1000 * i as u64),
                think_time: std::time::Duration::try_from_secs_f64(d.think_time)
                    .unwrap_or_default(),
                jic: config.jic.clone(),
            };
            let cancel = cancel.child_token();
            tokio::spawn(async move {
                match dipbot::run_seat(&seat, backoff, true, cancel).await {
                    Ok(r) => tracing::info!(bot = %seat.bot, server = %seat.server, games = r.games, "bot seat stopped"),
                    Err(e) => tracing::error!(bot = %seat.bot, server = %seat.server, "bot seat failed: {e}"),
                }
            })
        })
        .collect()
}

/// Runs the daemon from the configuration until SIGINT or SIGTERM, then shuts down cleanly.
/// The Diplomacy bot seats of `[[diplomacy.bots]]` play meanwhile. With `gvgai`, a second
/// listener on `gvgai.listen` serves GVG-AI game runners (one session per connection, at most
/// `gvgai.max_connections`), shut down with the first.
pub async fn serve(
    config: &Config,
    handler: SessionHandler,
    gvgai: Option<SessionHandler>,
) -> Result<ShutdownReport, DaemonError> {
    let signal = ShutdownSignal::install().map_err(DaemonError::Signal)?;
    let daemon = Daemon::bind(&config.server).await?;
    let stop = CancellationToken::new();
    let gvgai_task = match gvgai {
        Some(gv_handler) => {
            let addr = config.gvgai.listen_addr()?;
            let gv = Daemon::bind_addr(
                addr,
                config.gvgai.max_connections,
                config.server.shutdown_grace_duration(),
            )
            .await?;
            tracing::info!(
                max_connections = config.gvgai.max_connections,
                "GVG-AI line adapter listening on {}",
                gv.local_addr()
            );
            let stop = stop.clone();
            Some(tokio::spawn(async move {
                gv.run(gv_handler, stop.cancelled_owned()).await
            }))
        }
        None => None,
    };
    let bots_cancel = CancellationToken::new();
    let seats = spawn_diplomacy_bots(config, &bots_cancel);
    if !seats.is_empty() {
        tracing::info!(bots = seats.len(), "Diplomacy bot seats started");
    }
    tracing::info!(
        max_connections = config.server.max_connections,
        "GTP listening on {}",
        daemon.local_addr()
    );
    let on_stop = stop.clone();
    let report = daemon
        .run(handler, async move {
            let name = signal.recv().await;
            tracing::info!("{name} received, shutting down");
            on_stop.cancel();
        })
        .await;
    stop.cancel();
    if let Some(t) = gvgai_task {
        let _ = t.await;
    }
    bots_cancel.cancel();
    for s in seats {
        let _ = s.await;
    }
    Ok(report)
}
