//! Every listener of one `tablero serve` on one [`Server`], as hickory-dns registers each
//! protocol on its `Server`: a listener is registered (bound at once, so that a bind error
//! stops the start-up before anything is served and the address is logged), then all of them
//! run until one shutdown, each with its connection limit and the one grace period. GTP and
//! GVG-AI are sessions of a [`SessionHandler`]; the embedded DAIDE server runs its hub over
//! the sessions of its listener (`daide::server::serve_games`).

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, error, info, info_span};

use super::{Daemon, DaemonError, IdlePolicy, SessionHandler, ShutdownReport};
use crate::config::{DiplomacyServerConfig, GvgaiConfig, ServerConfig};
use crate::daide::server::{self as daide_server, GameRecord, ResultsFile};
use crate::daide::token::TokenTable;

/// A registered listener, not yet running: its protocol (for logs) and what serves it until
/// the server's stop token is cancelled.
struct Registered {
    protocol: &'static str,
    run: BoxFuture<'static, ShutdownReport>,
}

/// The listeners of `tablero serve`, stopped together.
pub struct Server {
    grace: Duration,
    stop: CancellationToken,
    listeners: Vec<Registered>,
}

impl Server {
    /// A server with no listener yet; at shutdown every listener gives its sessions `grace`.
    pub fn new(grace: Duration) -> Server {
        Server {
            grace,
            stop: CancellationToken::new(),
            listeners: Vec::new(),
        }
    }

    /// GTP on `server.gtp_listen`, with the connection limit and idle policy of `[server]`.
    pub async fn register_gtp(
        &mut self,
        server: &ServerConfig,
        handler: SessionHandler,
    ) -> Result<SocketAddr, DaemonError> {
        let addr = server.gtp_listen_addr()?;
        let daemon = Daemon::bind_addr(addr, server.max_connections, self.grace)
            .await?
            .with_idle_policy(IdlePolicy::from_config(server));
        info!(
            max_connections = server.max_connections,
            "GTP listening on {}",
            daemon.local_addr()
        );
        Ok(self.register_sessions("gtp", daemon, handler))
    }

    /// The GVG-AI line protocol on `gvgai.listen`, at most `gvgai.max_connections` sessions.
    pub async fn register_gvgai(
        &mut self,
        gvgai: &GvgaiConfig,
        handler: SessionHandler,
    ) -> Result<SocketAddr, DaemonError> {
        let addr = gvgai.listen_addr()?;
        let daemon = Daemon::bind_addr(addr, gvgai.max_connections, self.grace).await?;
        info!(
            max_connections = gvgai.max_connections,
            "GVG-AI line adapter listening on {}",
            daemon.local_addr()
        );
        Ok(self.register_sessions("gvgai", daemon, handler))
    }

    /// Any protocol, one session of `handler` per connection of a bound listener.
    pub fn register_sessions(
        &mut self,
        protocol: &'static str,
        daemon: Daemon,
        handler: SessionHandler,
    ) -> SocketAddr {
        let addr = daemon.local_addr();
        let run = daemon.run(handler, self.stop.clone().cancelled_owned());
        self.listeners.push(Registered {
            protocol,
            run: Box::pin(run),
        });
        addr
    }

    /// The embedded DAIDE server on `diplomacy.server.listen`: standard games with the
    /// section's deadline, year cap and seed, at most `max_connections` connections, each
    /// finished game appended to the results file. At shutdown running games end; finished
    /// ones are on disk already.
    pub async fn register_daide(
        &mut self,
        daide: &DiplomacyServerConfig,
    ) -> Result<SocketAddr, DaemonError> {
        let addr = daide.listen_addr()?;
        let mut results = daide.results_path().map(ResultsFile::open).transpose()?;
        let daemon = Daemon::bind_addr(addr, daide.max_connections, self.grace).await?;
        let local = daemon.local_addr();
        info!(
            max_connections = daide.max_connections,
            "DAIDE server listening on {local}"
        );
        let games_config = daide.clone();
        let make = move |n: u64| games_config.game_config(n);
        let on_finish = move |record: GameRecord| {
            if let Some(file) = results.as_mut()
                && let Err(e) = file.append(&record)
            {
                error!("{e}");
            }
        };
        let games = daide_server::serve_games(
            daemon,
            TokenTable::standard(),
            make,
            daide.game_limit(),
            self.stop.clone().cancelled_owned(),
            on_finish,
        );
        self.listeners.push(Registered {
            protocol: "daide",
            run: Box::pin(async move {
                let (games, report) = games.await;
                match games {
                    Ok(games) => info!(finished = games.len(), "DAIDE server stopped"),
                    Err(e) => error!("DAIDE server failed: {e}"),
                }
                report
            }),
        });
        Ok(local)
    }

    /// Serves every registered listener until `shutdown` resolves, then stops them all: each
    /// closes its listener, cancels its sessions and waits for them at most the grace period.
    /// Returns the listeners' reports added up.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> ShutdownReport {
        let Server {
            stop, listeners, ..
        } = self;
        let running: Vec<_> = listeners
            .into_iter()
            .map(|l| {
                let span = info_span!("listener", protocol = l.protocol);
                (l.protocol, tokio::spawn(l.run.instrument(span)))
            })
            .collect();
        shutdown.await;
        stop.cancel();
        let mut total = ShutdownReport::default();
        for (protocol, task) in running {
            match task.await {
                Ok(report) => {
                    total.sessions += report.sessions;
                    total.forced += report.forced;
                    total.idle_closed += report.idle_closed;
                }
                Err(e) => error!(protocol, "listener task failed: {e}"),
            }
        }
        total
    }
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let protocols: Vec<_> = self.listeners.iter().map(|l| l.protocol).collect();
        f.debug_struct("Server")
            .field("grace", &self.grace)
            .field("listeners", &protocols)
            .finish_non_exhaustive()
    }
}
