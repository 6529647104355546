//! The `tablero` command line: subcommands → library calls. Logs go to stderr only; stdout is
//! the protocol channel of `tablero gtp` and the JSON result line of `tablero bench`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use tablero::config::Config;
use tablero::daemon::{
    self, CancellationToken, Session, SessionError, SessionHandler, ShutdownSignal,
};
use tracing_subscriber::EnvFilter;

/// Exit code for a bad configuration or bad arguments (clap uses 2 as well).
const EXIT_USAGE: u8 = 2;
/// Exit code for a failure while running.
const EXIT_FAILURE: u8 = 1;

#[derive(Debug, Parser)]
#[command(
    name = "tablero",
    version,
    about = "A networked game-bot server: Go over GTP (Diplomacy and GVG-AI coming)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the daemon: GTP over TCP at server.gtp_listen, one engine per connection.
    Serve(ConfigArgs),
    /// Run one GTP engine on stdin/stdout (what GoGui, Sabaki and other GTP tools launch).
    Gtp(ConfigArgs),
    /// Measure speed; prints one JSON line on stdout.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Play GTP engines against each other (like gogui-twogtp); one JSON line at the end.
    Match(MatchArgs),
}

#[derive(Debug, Args)]
struct MatchArgs {
    /// Command line of the first engine (Black in odd games). `{game}` is replaced by the
    /// game number, e.g. `--set search.seed={game}` for different games from seeded engines.
    #[arg(long)]
    black: String,
    /// Command line of the second engine.
    #[arg(long)]
    white: String,
    /// GTP engine that scores finished games (e.g. "gnugo --mode gtp --chinese-rules").
    #[arg(long)]
    referee: Option<String>,
    #[arg(long, default_value_t = 9)]
    size: usize,
    #[arg(long, default_value_t = 7.0)]
    komi: f64,
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// Swap colours every other game.
    #[arg(long)]
    alternate: bool,
    /// Seconds per move (time_settings 0 T 1); slower moves lose on time.
    #[arg(long)]
    time: Option<f64>,
    /// Write one SGF file per game into this folder.
    #[arg(long, value_name = "DIR")]
    sgf_dir: Option<PathBuf>,
    /// Include every game's record in the JSON line.
    #[arg(long)]
    records: bool,
}

#[derive(Debug, Args)]
struct ConfigArgs {
    /// TOML configuration file (see configs/tablero.toml); built-in defaults without it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Override one key after the file, e.g. --set go.boardsize=9 (repeatable).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    set: Vec<String>,
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Random playouts per second on an empty board.
    Playouts {
        /// Board size (2..=25).
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Seconds to run.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Playout threads (one board each).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed of the playouts' random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => with_config(&args, serve),
        Command::Gtp(args) => with_config(&args, gtp_stdio),
        Command::Bench(BenchCommand::Playouts {
            size,
            seconds,
            threads,
            seed,
        }) => {
            init_logging("info");
            bench_playouts(size, seconds, threads, seed)
        }
        Command::Match(args) => {
            init_logging("warn");
            run_match(args)
        }
    }
}

/// `tablero match`: checks the arguments, plays, prints the summary as one JSON line.
fn run_match(args: MatchArgs) -> ExitCode {
    if !(tablero::go::MIN_SIZE..=tablero::go::MAX_SIZE).contains(&args.size) {
        eprintln!(
            "tablero: --size must be between 2 and 25, got {}",
            args.size
        );
        return ExitCode::from(EXIT_USAGE);
    }
    if args.time.is_some_and(|t| !(t.is_finite() && t > 0.0)) || !args.komi.is_finite() {
        eprintln!("tablero: --time must be > 0 and --komi a number");
        return ExitCode::from(EXIT_USAGE);
    }
    let mut opts = tablero::tournament::go_match::MatchOptions::new(
        &args.black,
        &args.white,
        args.size,
        args.komi,
        args.games,
    );
    opts.referee = args.referee;
    opts.alternate = args.alternate;
    opts.time_per_move = args.time;
    opts.sgf_dir = args.sgf_dir;
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("tablero: cannot start the tokio runtime: {e}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let mut summary = runtime.block_on(tablero::tournament::go_match::run_match(&opts));
    if !args.records {
        summary.records.clear();
    }
    match serde_json::to_string(&summary) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tablero: cannot render the summary: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Loads the configuration (exit 2 with the reason on stderr if it is bad), starts logging
/// and runs `f` on a fresh tokio runtime.
fn with_config(
    args: &ConfigArgs,
    f: fn(Arc<Config>, &tokio::runtime::Runtime) -> ExitCode,
) -> ExitCode {
    let config = match Config::load(args.config.as_deref(), &args.set) {
        Ok(config) => Arc::new(config),
        Err(e) => {
            eprintln!("tablero: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
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
fn init_logging(level: &str) {
    let from_env = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let (filter, env_problem) = match from_env.as_deref().map(EnvFilter::try_new) {
        Some(Ok(filter)) => (filter, None),
        Some(Err(e)) => (EnvFilter::new(level), Some(e)),
        None => (EnvFilter::new(level), None),
    };
    let installed = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
    if installed.is_err() {
        eprintln!("tablero: a logger was already installed");
    }
    if let Some(e) = env_problem {
        tracing::warn!("ignoring RUST_LOG: {e}; using log.level {level:?}");
    }
}

fn serve(config: Arc<Config>, runtime: &tokio::runtime::Runtime) -> ExitCode {
    let handler = gtp_session_handler(Arc::clone(&config));
    match runtime.block_on(daemon::serve(&config, handler)) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// One GTP session on stdin/stdout; SIGINT/SIGTERM cancel it like a daemon shutdown.
fn gtp_stdio(config: Arc<Config>, runtime: &tokio::runtime::Runtime) -> ExitCode {
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
/// with the MCTS search, served by `tablero::gtp::run_session`.
fn gtp_session_handler(config: Arc<Config>) -> SessionHandler {
    daemon::session_handler(move |session: Session, cancel: CancellationToken| {
        let config = Arc::clone(&config);
        async move {
            let engine = tablero::gtp::go_engine(&config).map_err(SessionError::from)?;
            tablero::gtp::run_session(
                session.reader,
                session.writer,
                Box::new(engine),
                &config.gtp,
                cancel,
            )
            .await
            .map_err(SessionError::from)
        }
    })
}

/// `tablero bench playouts`: checks the arguments, runs the benchmark, prints one JSON line.
fn bench_playouts(size: usize, seconds: f64, threads: usize, seed: u64) -> ExitCode {
    if !(tablero::go::MIN_SIZE..=tablero::go::MAX_SIZE).contains(&size) {
        eprintln!(
            "tablero: --size must be between {} and {}, got {size}",
            tablero::go::MIN_SIZE,
            tablero::go::MAX_SIZE
        );
        return ExitCode::from(EXIT_USAGE);
    }
    if !(seconds.is_finite() && seconds > 0.0) {
        eprintln!("tablero: --seconds must be a number > 0, got {seconds}");
        return ExitCode::from(EXIT_USAGE);
    }
    if !(1..=tablero::config::MAX_THREADS).contains(&threads) {
        eprintln!(
            "tablero: --threads must be between 1 and {}, got {threads}",
            tablero::config::MAX_THREADS
        );
        return ExitCode::from(EXIT_USAGE);
    }
    match run_playout_bench(size, seconds, threads, seed) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tablero: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Runs `tablero::go::search::bench::bench_playouts` and renders its result as JSON.
fn run_playout_bench(
    size: usize,
    seconds: f64,
    threads: usize,
    seed: u64,
) -> Result<String, String> {
    let result = tablero::go::search::bench::bench_playouts(size, seconds, threads, seed);
    serde_json::to_string(&result).map_err(|e| format!("cannot render the result: {e}"))
}
