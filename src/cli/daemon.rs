//! `tablero serve` (the daemon: GTP and the GVG-AI line protocol over TCP), `tablero gtp`
//! (one GTP engine on stdin/stdout, as GUIs launch it) and `tablero probe` (the healthcheck
//! of the daemon's listeners and of DAIDE servers).

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

/// `tablero probe`: the listeners a healthcheck asks about.
#[derive(Debug, clap::Args)]
pub struct ProbeArgs {
    /// A GTP listener (HOST:PORT) that must answer `name` with a success response `= …`
    /// (repeatable).
    #[arg(long, value_name = "HOST:PORT")]
    pub gtp: Vec<String>,
    /// A GVG-AI line-protocol listener (HOST:PORT) that must answer a game runner's `START`
    /// with `START_DONE`; `FINISH` then ends the session (repeatable).
    #[arg(long, value_name = "HOST:PORT")]
    pub gvgai: Vec<String>,
    /// A TCP listener (HOST:PORT) that must accept a connection, e.g. a DAIDE server; the
    /// connection is closed before anything is sent (repeatable).
    #[arg(long, value_name = "HOST:PORT")]
    pub tcp: Vec<String>,
    /// Seconds each listener has to accept the connection and answer.
    #[arg(long, alias = "timeout", value_name = "SECONDS", default_value_t = 5.0)]
    pub reply_timeout: f64,
}

/// Why a listener failed its check.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The address does not resolve.
    #[error("{addr}: cannot resolve: {source}")]
    Resolve {
        addr: String,
        source: std::io::Error,
    },
    /// Nothing accepted a connection.
    #[error("{addr}: cannot connect: {source}")]
    Connect {
        addr: String,
        source: std::io::Error,
    },
    /// The connection broke or timed out before the answer.
    #[error("{addr}: no answer within the timeout: {source}")]
    Io {
        addr: String,
        source: std::io::Error,
    },
    /// The listener answered something else.
    #[error("{addr}: expected {expected}, got {answer:?}")]
    Answer {
        addr: String,
        expected: String,
        answer: String,
    },
}

/// `tablero probe`: exit 0 when every listener answers, else 1 with the first failure on
/// stderr. On success it prints one line per listener on stdout (Docker keeps it in the
/// container's health log).
pub fn probe(args: ProbeArgs) -> ExitCode {
    let Ok(timeout) = std::time::Duration::try_from_secs_f64(args.reply_timeout) else {
        return super::usage("--reply-timeout must be a number of seconds > 0");
    };
    if timeout.is_zero() {
        return super::usage("--reply-timeout must be a number of seconds > 0");
    }
    if args.gtp.is_empty() && args.gvgai.is_empty() && args.tcp.is_empty() {
        return super::usage("give at least one --gtp, --gvgai or --tcp listener to probe");
    }
    let checks = [
        ("gtp", &args.gtp, probe_gtp as fn(&str, _) -> _),
        ("gvgai", &args.gvgai, probe_gvgai),
    ];
    for (kind, addrs, check) in checks {
        for addr in addrs {
            match check(addr, timeout) {
                Ok(answer) => println!("{kind} {addr}: {answer}"),
                Err(e) => return super::failure(format!("probe failed: {e}")),
            }
        }
    }
    for addr in &args.tcp {
        match connect(addr, timeout) {
            Ok(_) => println!("tcp {addr}: accepted"),
            Err(e) => return super::failure(format!("probe failed: {e}")),
        }
    }
    ExitCode::SUCCESS
}

/// A connection to the first address `addr` resolves to that accepts within `timeout`.
fn connect(addr: &str, timeout: std::time::Duration) -> Result<std::net::TcpStream, ProbeError> {
    use std::net::ToSocketAddrs;
    let resolved = addr
        .to_socket_addrs()
        .map_err(|source| ProbeError::Resolve {
            addr: addr.to_string(),
            source,
        })?;
    let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
    for a in resolved {
        match std::net::TcpStream::connect_timeout(&a, timeout) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = e,
        }
    }
    Err(ProbeError::Connect {
        addr: addr.to_string(),
        source: last,
    })
}

/// Sends `name` and `quit` to the GTP listener at `addr`; returns the first response line if
/// it is a success response (`= …`).
fn probe_gtp(addr: &str, timeout: std::time::Duration) -> Result<String, ProbeError> {
    let mut conn = ProbeConnection::open(addr, timeout)?;
    let line = conn.ask(b"name\nquit\n")?;
    if line.starts_with('=') {
        Ok(line)
    } else {
        Err(conn.unexpected("a GTP answer \"= …\" to `name`", &line))
    }
}

/// Plays a game runner's opening to the GVG-AI listener at `addr`: `START`, which must be
/// answered `START_DONE`, then `FINISH`, which ends the session cleanly.
fn probe_gvgai(addr: &str, timeout: std::time::Duration) -> Result<String, ProbeError> {
    let mut conn = ProbeConnection::open(addr, timeout)?;
    let line = conn.ask(b"0#START\n")?;
    if !line.starts_with("0#START_DONE") {
        return Err(conn.unexpected("\"0#START_DONE\" to \"0#START\"", &line));
    }
    conn.send(b"1#FINISH\n")?;
    Ok(line)
}

/// One probing connection, every step bounded by one deadline.
struct ProbeConnection {
    addr: String,
    deadline: std::time::Instant,
    stream: std::net::TcpStream,
    reader: std::io::BufReader<std::net::TcpStream>,
}

impl ProbeConnection {
    fn open(addr: &str, timeout: std::time::Duration) -> Result<ProbeConnection, ProbeError> {
        let deadline = std::time::Instant::now() + timeout;
        let stream = connect(addr, timeout)?;
        let reader = stream.try_clone().map_err(|source| ProbeError::Io {
            addr: addr.to_string(),
            source,
        })?;
        Ok(ProbeConnection {
            addr: addr.to_string(),
            deadline,
            stream,
            reader: std::io::BufReader::new(reader),
        })
    }

    fn io(&self, source: std::io::Error) -> ProbeError {
        ProbeError::Io {
            addr: self.addr.clone(),
            source,
        }
    }

    fn unexpected(&self, expected: &str, answer: &str) -> ProbeError {
        ProbeError::Answer {
            addr: self.addr.clone(),
            expected: expected.to_string(),
            answer: answer.chars().take(200).collect(),
        }
    }

    /// The time left, never zero (a zero timeout means none to the socket calls).
    fn left(&self) -> std::time::Duration {
        self.deadline
            .saturating_duration_since(std::time::Instant::now())
            .max(std::time::Duration::from_millis(1))
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), ProbeError> {
        use std::io::Write;
        self.stream
            .set_write_timeout(Some(self.left()))
            .map_err(|e| self.io(e))?;
        self.stream.write_all(bytes).map_err(|e| self.io(e))
    }

    /// Sends `bytes`; returns the first non-empty line of the answer.
    fn ask(&mut self, bytes: &[u8]) -> Result<String, ProbeError> {
        use std::io::BufRead;
        self.send(bytes)?;
        loop {
            self.stream
                .set_read_timeout(Some(self.left()))
                .map_err(|e| self.io(e))?;
            let mut line = String::new();
            if self.reader.read_line(&mut line).map_err(|e| self.io(e))? == 0 {
                return Ok("(end of stream)".into());
            }
            let line = line.trim();
            if !line.is_empty() {
                return Ok(line.to_string());
            }
        }
    }
}
