//! The `tablero` command line, one file per family: `daemon` (serve, gtp), `go` (match and the
//! Go benches), `diplomacy`, `gvgai`, `plan` (PDDL), `evolve`, `bench` (the speed
//! measurements of every family) and `merge` (`--shard` and the merge of shards' records).
//! Shared here: the configuration flags, exit codes, logging and the one JSON line every long
//! job ends with. Logs go to stderr only; stdout is the protocol channel of
//! `tablero gtp` and the JSON result line of the other subcommands.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use tablero::config::Config;
use tracing_subscriber::EnvFilter;

pub mod bench;
pub mod daemon;
pub mod diplomacy;
pub mod evolve;
pub mod go;
pub mod gvgai;
mod gvgai_players;
pub mod merge;
pub mod plan;
pub mod progress;

/// Exit code for a bad configuration or bad arguments (clap uses 2 as well).
pub const EXIT_USAGE: u8 = 2;
/// Exit code for a failure while running.
pub const EXIT_FAILURE: u8 = 1;

#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// TOML configuration file (configs/tablero.toml lists every key)
    /// [default: none, the built-in values].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Override one key after the file, e.g. --set go.boardsize=9 (repeatable).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    pub set: Vec<String>,
}

impl ConfigArgs {
    /// The configuration these flags name, or exit 2 with the reason.
    pub fn load(&self) -> Result<Config, ExitCode> {
        Config::load(self.config.as_deref(), &self.set).map_err(|e| usage(&e.to_string()))
    }
}

/// A token cancelled on SIGINT or SIGTERM; call it inside the tokio runtime.
pub fn cancel_on_signal() -> tablero::daemon::CancellationToken {
    let cancel = tablero::daemon::CancellationToken::new();
    if let Ok(signal) = tablero::daemon::ShutdownSignal::install() {
        let on_signal = cancel.clone();
        tokio::spawn(async move {
            signal.recv().await;
            on_signal.cancel();
        });
    }
    cancel
}

/// Exit 2 with `message` on stderr.
pub fn usage(message: &str) -> ExitCode {
    eprintln!("tablero: {message}");
    ExitCode::from(EXIT_USAGE)
}

/// Exit 1 with `message` on stderr.
pub fn failure(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("tablero: {message}");
    ExitCode::from(EXIT_FAILURE)
}

/// A multi-threaded tokio runtime, or exit 1.
pub fn runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            eprintln!("tablero: cannot start the tokio runtime: {e}");
            ExitCode::from(EXIT_FAILURE)
        })
}

/// Loads the configuration (exit 2 with the reason on stderr if it is bad), starts logging
/// and runs `f` on a fresh tokio runtime.
pub fn with_config(
    args: &ConfigArgs,
    f: fn(Arc<Config>, &tokio::runtime::Runtime) -> ExitCode,
) -> ExitCode {
    let config = match args.load() {
        Ok(config) => Arc::new(config),
        Err(code) => return code,
    };
    init_logging(&config.log.level);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!("cannot start the tokio runtime: {e}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let code = f(config, &runtime);
    // A blocking stdin read (tokio reads stdin on a blocking thread) must not keep us alive.
    runtime.shutdown_timeout(Duration::from_millis(200));
    code
}

/// Logs to stderr, filtered by RUST_LOG if it is set and valid, else by `level`.
pub fn init_logging(level: &str) {
    let (filter, env_problem) = log_filter(level);
    let installed = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
    logging_started(installed.is_ok(), env_problem, level);
}

/// The log filter: RUST_LOG if it is set and valid, else `level`; with the reason RUST_LOG
/// was ignored, if it was.
pub fn log_filter(level: &str) -> (EnvFilter, Option<String>) {
    let from_env = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let configured =
        || tablero::config::log_filter(level).unwrap_or_else(|_| EnvFilter::new("info"));
    match from_env.as_deref().map(tablero::config::log_filter) {
        Some(Ok(filter)) => (filter, None),
        Some(Err(e)) => (configured(), Some(e)),
        None => (configured(), None),
    }
}

/// Reports what went wrong while installing the logger, once it is installed (or not).
pub fn logging_started(installed: bool, env_problem: Option<String>, level: &str) {
    if !installed {
        eprintln!("tablero: a logger was already installed");
    }
    if let Some(e) = env_problem {
        tracing::warn!("ignoring RUST_LOG: {e}; using log.level {level:?}");
    }
}

/// Prints `value` as one JSON line on stdout.
pub fn print_json(value: &impl serde::Serialize) -> ExitCode {
    match serde_json::to_string(value) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tablero: cannot render the result: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}
