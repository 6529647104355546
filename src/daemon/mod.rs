//! `tablero serve`: the daemon. It owns the TCP listeners (GTP, GVG-AI, the embedded DAIDE
//! server; one [`Server`] holds them), their connection limits, the shutdown signal and the
//! grace period; it knows nothing about GTP or the GVG-AI line protocol: each is plugged in as
//! a [`SessionHandler`] (one independent session per connection). The DAIDE server's hub
//! (`daide::server`) routes the sessions of its listener to games.
//!
//! Connection limit: at most `server.max_connections` GTP sessions run at once (the other
//! listeners have limits of their own). When all slots are busy the daemon accepts one more
//! connection and holds it, unanswered, until a slot frees; further clients complete the TCP
//! handshake (the kernel queues them) and wait behind it. Nothing is refused.
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
mod server;
mod session;
mod shutdown;

pub use listener::{Daemon, IdlePolicy, ShutdownReport};
pub use server::Server;
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
    #[error("diplomacy.server.results: {0}")]
    Results(#[from] crate::daide::server::ResultsError),
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

/// Runs the daemon from the configuration until SIGINT or SIGTERM, then shuts down cleanly:
/// GTP on `server.gtp_listen` with `handler`; with `gvgai`, GVG-AI game runners on
/// `gvgai.listen` (at most `gvgai.max_connections` sessions); with `diplomacy.server.enabled`,
/// the embedded DAIDE server on `diplomacy.server.listen`. One [`Server`] holds them, so one
/// signal stops them all within `server.shutdown_grace`. The Diplomacy bot seats of
/// `[[diplomacy.bots]]` play meanwhile.
pub async fn serve(
    config: &Config,
    handler: SessionHandler,
    gvgai: Option<SessionHandler>,
) -> Result<ShutdownReport, DaemonError> {
    let signal = ShutdownSignal::install().map_err(DaemonError::Signal)?;
    let mut server = Server::new(config.server.shutdown_grace_duration());
    if let Some(gv_handler) = gvgai {
        server.register_gvgai(&config.gvgai, gv_handler).await?;
    }
    if config.diplomacy.server.enabled {
        server.register_daide(&config.diplomacy.server).await?;
    }
    server.register_gtp(&config.server, handler).await?;
    let bots_cancel = CancellationToken::new();
    let seats = spawn_diplomacy_bots(config, &bots_cancel);
    if !seats.is_empty() {
        tracing::info!(bots = seats.len(), "Diplomacy bot seats started");
    }
    let report = server
        .run(async move {
            let name = signal.recv().await;
            tracing::info!("{name} received, shutting down");
        })
        .await;
    bots_cancel.cancel();
    for s in seats {
        let _ = s.await;
    }
    Ok(report)
}
