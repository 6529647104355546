//! `tablero serve` (the daemon: GTP and the GVG-AI line protocol over TCP) and `tablero gtp`
//! (one GTP engine on stdin/stdout, as GUIs launch it).

use std::process::ExitCode;
use std::sync::Arc;

use tablero::config::Config;
use tablero::daemon::{
    self, CancellationToken, Session, SessionError, SessionHandler, ShutdownSignal,
};

use super::{EXIT_FAILURE, EXIT_USAGE};

/// `tablero serve`: every configured listener until SIGINT or SIGTERM.
pub fn serve(config: Arc<Config>, runtime: &tokio::runtime::Runtime) -> ExitCode {
    let handler = gtp_session_handler(Arc::clone(&config));
    let gvgai = match super::gvgai::serve_handler(&config.gvgai) {
        Ok(h) => h,
        Err(e) => {
            tracing::error!("{e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match runtime.block_on(daemon::serve(&config, handler, Some(gvgai))) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// One GTP session on stdin/stdout; SIGINT/SIGTERM cancel it like a daemon shutdown.
pub fn gtp_stdio(config: Arc<Config>, runtime: &tokio::runtime::Runtime) -> ExitCode {
    let handler = gtp_session_handler(config);
    let outcome = runtime.block_on(async move {
        let signal = ShutdownSignal::install()?;
        let cancel = CancellationToken::new();
        let on_signal = cancel.clone();
        tokio::spawn(async move {
            let name = signal.recv().await;
            tracing::info!("{name} received, ending the GTP session");
            on_signal.cancel();
        });
        handler(Session::stdio(), cancel).await
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("GTP session failed: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// The GTP engine for one session (TCP or stdio), built from the configuration: a Go engine
/// with the MCTS search, served by `tablero::gtp::run_session_with`. TCP sessions get the
/// daemon's limits (`[server]`: move and analysis caps, `loadsgf` directory, EOF stops the
/// search) and share one core gate; stdio sessions get none of them.
fn gtp_session_handler(config: Arc<Config>) -> SessionHandler {
    let gate = Arc::new(tablero::go::search::CoreGate::new(
        config.server.search_cores,
    ));
    daemon::session_handler(move |session: Session, cancel: CancellationToken| {
        let config = Arc::clone(&config);
        let gate = Arc::clone(&gate);
        async move {
            let tcp = session.transport == daemon::Transport::Tcp;
            let engine = if tcp {
                tablero::gtp::daemon_engine(&config, daemon_limits(&config.server), gate)
            } else {
                tablero::gtp::go_engine(&config)
            }
            .map_err(SessionError::from)?;
            let options = tablero::gtp::SessionOptions {
                stop_on_eof: tcp,
                activity: Some(session.activity.clone()),
            };
            tablero::gtp::run_session_with(
                session.reader,
                session.writer,
                Box::new(engine),
                &config.gtp,
                options,
                cancel,
            )
            .await
            .map_err(SessionError::from)
        }
    })
}

/// The engine limits of a daemon session, from `[server]`.
fn daemon_limits(server: &tablero::config::ServerConfig) -> tablero::gtp::EngineLimits {
    use tablero::gtp::SgfAccess;
    tablero::gtp::EngineLimits {
        max_move: Some(server.max_move()),
        max_analysis: Some(server.max_analysis()),
        sgf: if server.sgf_dir.is_empty() {
            SgfAccess::Refused
        } else {
            SgfAccess::Below(server.sgf_dir.clone().into())
        },
    }
}
