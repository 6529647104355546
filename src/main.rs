//! The `tablero` command line: subcommands → library calls. Logs go to stderr only; stdout is
//! the protocol channel of `tablero gtp` and the JSON result line of `tablero bench`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

mod cli;

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
    about = "A networked game-bot server: Go over GTP, Diplomacy over DAIDE, GVG-AI controllers"
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
    /// Diplomacy over DAIDE: the embedded server, one bot on a server, local tournaments.
    #[command(subcommand)]
    Diplomacy(DiplomacyCommand),
    /// GVG-AI: play and replay VGDL games, the learning-track line protocol (connect, host).
    #[command(subcommand)]
    Gvgai(cli::gvgai::GvgaiCommand),
    /// Evolutionary content: GA dungeons and GP NPC behaviour; one JSON line on stdout.
    #[command(subcommand)]
    Evolve(EvolveCommand),
}

#[derive(Debug, Subcommand)]
enum EvolveCommand {
    /// Evolve a dungeon; writes dungeon.json, evodungeon.txt + _lvl0.txt, progress.csv and
    /// fitness.svg into --out and checks that evolve.dungeon_check_controller wins the level.
    Dungeon {
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Generations (default: evolve.dungeon_generations).
        #[arg(long)]
        generations: Option<usize>,
        /// Population (default: evolve.dungeon_population).
        #[arg(long)]
        population: Option<usize>,
        /// Output directory.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Skip the playability check.
        #[arg(long)]
        no_check: bool,
        /// The enemies of the written game: `random` (EvolvedNPC sprites with the random
        /// policy), `static` (static guards), or an evolved individual's file (copied to
        /// DIR/npc.sexp and used as the EvolvedNPC policy). The check plays static guards.
        #[arg(long, value_name = "random|static|FILE", default_value = "random")]
        npc: String,
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// Evolve NPC behaviour; writes the best individual as an S-expression to --out, with
    /// <stem>.csv and <stem>.svg alongside.
    Npc {
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Generations (default: evolve.npc_generations).
        #[arg(long)]
        generations: Option<usize>,
        /// Population (default: evolve.npc_population).
        #[arg(long)]
        population: Option<usize>,
        /// Output file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Sequential evaluation without the fitness cache (for speed comparisons).
        #[arg(long)]
        naive: bool,
        #[command(flatten)]
        config: ConfigArgs,
    },
}

#[derive(Debug, Subcommand)]
enum DiplomacyCommand {
    /// Host DAIDE games (level 0): a new game opens whenever the previous one has started.
    Server {
        /// Address to listen on (IP:PORT).
        #[arg(long, default_value = "127.0.0.1:16713")]
        listen: String,
        /// Seconds per phase (MTL = RTL = BTL); none: no deadlines.
        #[arg(long)]
        deadline: Option<u16>,
        /// Last year played; the game is then a draw of the survivors.
        #[arg(long)]
        end_year: Option<i16>,
        /// Seed of power assignment and passcodes (game n uses seed + n).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Connections served at once; more wait in the listen queue until one closes.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        max_connections: u32,
    },
    /// One bot joins a DAIDE server and plays one game (reconnecting with IAM after a drop).
    Bot {
        /// The DAIDE server, HOST:PORT.
        #[arg(long)]
        server: String,
        /// The bot: dumbbot, randbot, holdbot (or jic).
        #[arg(long)]
        bot: String,
        /// Name sent in NME (default: the bot's name).
        #[arg(long)]
        name: Option<String>,
        /// Power to ask for, e.g. TUR (sent as the NME prefix "TUR:name").
        #[arg(long)]
        power: Option<String>,
        /// Seed of the bot's random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seconds per phase when the server sets no deadline.
        #[arg(long, default_value_t = 5.0)]
        think_time: f64,
        /// The configuration (its `[jic]` section configures JIC).
        #[command(flatten)]
        cfg: ConfigArgs,
    },
    /// Play complete games between bots; a progress line per game on stderr, one JSON line.
    Play {
        /// One bot per power, comma-separated (7 for the standard map).
        #[arg(long)]
        seats: String,
        #[arg(long, default_value_t = 7)]
        games: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Last year played; the game is then a draw of the survivors.
        #[arg(long, default_value_t = 1930)]
        end_year: i16,
        /// Games played at once (threads).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Play by direct calls instead of over DAIDE (faster; built-in bots only).
        #[arg(long)]
        local: bool,
        /// The DAIDE server's deadline per phase in seconds (0: none; external seats need one).
        #[arg(long, default_value_t = 10)]
        deadline: u16,
        /// An external seat: NAME=COMMAND, where the command may use {host}, {port} and
        /// {power}; NAME can then be used in --seats. Adds to `[[diplomacy.external]]`.
        #[arg(long = "external", value_name = "NAME=COMMAND")]
        external: Vec<String>,
        /// Seconds per built-in bot per phase (at most the deadline less a margin).
        #[arg(long, default_value_t = 1.0)]
        think_time: f64,
        /// The configuration (its `[jic]` section configures JIC seats).
        #[command(flatten)]
        cfg: ConfigArgs,
    },
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
    /// Seconds per move: the same as --clock 0+T/1.
    #[arg(long, conflicts_with = "clock")]
    time: Option<f64>,
    /// The clock both engines play under, kept by tablero as referee: MAIN seconds of sudden
    /// death (e.g. 60) or MAIN+PERIOD/STONES Canadian overtime (e.g. 300+30/10). Both engines
    /// get `time_settings` and, before every genmove, `time_left`; running out loses on time.
    #[arg(long, value_name = "SPEC")]
    clock: Option<tablero::tournament::referee_clock::ClockSpec>,
    /// Seconds of lateness forgiven on every move (process and pipe delays).
    #[arg(long, default_value_t = 2.0)]
    lag: f64,
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
        /// Playout policy: random, light or heavy.
        #[arg(long, default_value = "light")]
        policy: String,
    },
    /// Full MCTS search speed (tree, priors, RAVE, playouts) from the empty board, with the
    /// `[search]` settings of the configuration (e.g. --set search.threads=2).
    Search {
        /// Board size (2..=25).
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Seconds to search.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// JIC decision time per phase (median, p90, max): 1 JIC vs 6 DumbBot local games.
    Jic {
        /// Games (JIC plays power g mod 7 in game g).
        #[arg(long, default_value_t = 2)]
        games: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seconds per phase given to every player (JIC uses jic.budget_fraction of it).
        #[arg(long, default_value_t = 1.0)]
        think_time: f64,
        /// The configuration (its `[jic]` section configures JIC).
        #[command(flatten)]
        cfg: ConfigArgs,
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
            policy,
        }) => {
            init_logging("info");
            bench_playouts(size, seconds, threads, seed, &policy)
        }
        Command::Bench(BenchCommand::Search {
            size,
            seconds,
            config,
        }) => bench_search(size, seconds, &config),
        Command::Bench(BenchCommand::Jic {
            games,
            seed,
            think_time,
            cfg,
        }) => bench_jic(games, seed, think_time, &cfg),
        Command::Match(args) => {
            init_logging("warn");
            run_match(args)
        }
        Command::Diplomacy(cmd) => diplomacy(cmd),
        Command::Gvgai(cmd) => {
            init_logging("info");
            cli::gvgai::run(cmd)
        }
        Command::Evolve(cmd) => evolve(cmd),
    }
}

/// `tablero evolve …`.
fn evolve(cmd: EvolveCommand) -> ExitCode {
    use tablero::evolve::run;
    let (args, sets) = match &cmd {
        EvolveCommand::Dungeon {
            config,
            generations,
            population,
            ..
        } => (
            config,
            [
                generations.map(|g| format!("evolve.dungeon_generations={g}")),
                population.map(|p| format!("evolve.dungeon_population={p}")),
            ],
        ),
        EvolveCommand::Npc {
            config,
            generations,
            population,
            ..
        } => (
            config,
            [
                generations.map(|g| format!("evolve.npc_generations={g}")),
                population.map(|p| format!("evolve.npc_population={p}")),
            ],
        ),
    };
    let mut overrides = args.set.clone();
    overrides.extend(sets.into_iter().flatten());
    let config = match Config::load(args.config.as_deref(), &overrides) {
        Ok(c) => c,
        Err(e) => return usage(&e.to_string()),
    };
    init_logging(&config.log.level);
    let result = match &cmd {
        EvolveCommand::Dungeon {
            seed,
            out,
            no_check,
            npc,
            ..
        } => run::dungeon(&config.evolve, *seed, out, !no_check, npc),
        EvolveCommand::Npc {
            seed, out, naive, ..
        } => run::npc(&config.evolve, *seed, out, *naive),
    };
    match result {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tablero: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

fn usage(message: &str) -> ExitCode {
    eprintln!("tablero: {message}");
    ExitCode::from(EXIT_USAGE)
}

fn runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            eprintln!("tablero: cannot start the tokio runtime: {e}");
            ExitCode::from(EXIT_FAILURE)
        })
}

/// `tablero bench jic`: progress on stderr, one JSON line on stdout.
fn bench_jic(games: usize, seed: u64, think_time: f64, cfg: &ConfigArgs) -> ExitCode {
    let config = match Config::load(cfg.config.as_deref(), &cfg.set) {
        Ok(c) => c,
        Err(e) => return usage(&e.to_string()),
    };
    init_logging("warn");
    let Ok(think_time) = Duration::try_from_secs_f64(think_time) else {
        return usage("--think-time must be a number of seconds >= 0");
    };
    if games == 0 {
        return usage("--games must be at least 1");
    }
    let progress = |g: usize| eprintln!("game {}/{games} done", g + 1);
    match tablero::bots::jic::bench::run(&config.jic, games, seed, think_time, &progress) {
        Ok(report) => match serde_json::to_string(&report) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tablero: cannot render the report: {e}");
                ExitCode::from(EXIT_FAILURE)
            }
        },
        Err(e) => {
            eprintln!("tablero: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// `tablero diplomacy …`.
fn diplomacy(cmd: DiplomacyCommand) -> ExitCode {
    use tablero::tournament::diplomacy as tour;
    match cmd {
        DiplomacyCommand::Server {
            listen,
            deadline,
            end_year,
            seed,
            max_connections,
        } => {
            init_logging("info");
            let Ok(addr) = listen.parse::<std::net::SocketAddr>() else {
                return usage(&format!("--listen must be IP:PORT, got {listen:?}"));
            };
            if deadline == Some(0) {
                return usage("--deadline must be at least 1 second");
            }
            let rt = match runtime() {
                Ok(rt) => rt,
                Err(code) => return code,
            };
            let outcome = rt.block_on(async move {
                let signal = ShutdownSignal::install()?;
                let listener = tokio::net::TcpListener::bind(addr).await?;
                tracing::info!("DAIDE server listening on {}", listener.local_addr()?);
                let make = move |n: u64| {
                    let mut cfg =
                        tablero::daide::server::ServerConfig::standard(seed.wrapping_add(n));
                    cfg.deadline = deadline;
                    cfg.end_year = end_year;
                    cfg
                };
                let games = tablero::daide::server::run_server(
                    listener,
                    tablero::daide::token::TokenTable::standard(),
                    make,
                    tablero::daide::server::ListenerLimits {
                        max_connections: max_connections as usize,
                    },
                    None,
                    async move {
                        let name = signal.recv().await;
                        tracing::info!("{name} received, shutting down");
                    },
                )
                .await
                .map_err(std::io::Error::other)?;
                tracing::info!(finished = games.len(), "DAIDE server stopped");
                Ok::<(), std::io::Error>(())
            });
            match outcome {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    tracing::error!("{e}");
                    ExitCode::from(EXIT_FAILURE)
                }
            }
        }
        DiplomacyCommand::Bot {
            server,
            bot,
            name,
            power,
            seed,
            think_time,
            cfg,
        } => {
            let config = match Config::load(cfg.config.as_deref(), &cfg.set) {
                Ok(c) => c,
                Err(e) => return usage(&e.to_string()),
            };
            init_logging(&config.log.level);
            if let Err(e) = tablero::bots::make(&bot, seed) {
                return usage(&e.to_string());
            }
            if !server.contains(':') {
                return usage(&format!("--server must be HOST:PORT, got {server:?}"));
            }
            if power
                .as_deref()
                .is_some_and(|p| !(p.len() == 3 && p.chars().all(|c| c.is_ascii_alphabetic())))
            {
                return usage("--power must be a three-letter power, e.g. TUR");
            }
            let Ok(think_time) = Duration::try_from_secs_f64(think_time) else {
                return usage("--think-time must be a number of seconds >= 0");
            };
            let seat = tablero::daemon::dipbot::BotSeat {
                name: name.unwrap_or_else(|| bot.clone()),
                server,
                bot,
                power,
                seed,
                think_time,
                jic: config.jic.clone(),
            };
            let backoff = tablero::daemon::dipbot::Backoff {
                initial: Duration::from_secs(1),
                max: Duration::from_secs(30),
            };
            let rt = match runtime() {
                Ok(rt) => rt,
                Err(code) => return code,
            };
            let outcome = rt.block_on(async move {
                let cancel = CancellationToken::new();
                if let Ok(signal) = ShutdownSignal::install() {
                    let on_signal = cancel.clone();
                    tokio::spawn(async move {
                        signal.recv().await;
                        on_signal.cancel();
                    });
                }
                tablero::daemon::dipbot::run_seat(&seat, backoff, false, cancel).await
            });
            match outcome {
                Ok(r) if r.games > 0 => ExitCode::SUCCESS,
                Ok(_) => ExitCode::from(EXIT_FAILURE),
                Err(e) => usage(&e.to_string()),
            }
        }
        DiplomacyCommand::Play {
            seats,
            games,
            seed,
            end_year,
            jobs,
            local,
            deadline,
            external,
            think_time,
            cfg,
        } => {
            let config = match Config::load(cfg.config.as_deref(), &cfg.set) {
                Ok(c) => c,
                Err(e) => return usage(&e.to_string()),
            };
            init_logging("warn");
            let seats: Vec<String> = seats.split(',').map(|s| s.trim().to_string()).collect();
            if jobs == 0 {
                return usage("--jobs must be at least 1");
            }
            if games == 0 {
                return usage("--games must be at least 1");
            }
            if !(1901..=3000).contains(&end_year) {
                return usage("--end-year must be between 1901 and 3000");
            }
            let Ok(think_time) = Duration::try_from_secs_f64(think_time) else {
                return usage("--think-time must be a number of seconds >= 0");
            };
            let mut settings = tour::PlaySettings::new(seats);
            settings.games = games;
            settings.seed = seed;
            settings.end_year = end_year;
            settings.jobs = jobs;
            settings.transport = if local {
                tour::Transport::Local
            } else {
                tour::Transport::Daide
            };
            settings.deadline = (deadline > 0 && !local).then_some(deadline);
            settings.think_time = think_time;
            settings.jic = config.jic.clone();
            for e in &config.diplomacy.external {
                settings.external.insert(e.name.clone(), e.command.clone());
            }
            for e in &external {
                let Some((name, command)) = e.split_once('=') else {
                    return usage(&format!("--external must be NAME=COMMAND, got {e:?}"));
                };
                settings
                    .external
                    .insert(name.trim().to_string(), command.to_string());
            }
            let progress = |g: &tour::GameResult| eprintln!("{}", g.describe(games));
            match tour::play(&settings, &progress) {
                Ok(summary) => match serde_json::to_string(&summary) {
                    Ok(json) => {
                        println!("{json}");
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("tablero: cannot render the summary: {e}");
                        ExitCode::from(EXIT_FAILURE)
                    }
                },
                Err(
                    e @ (tour::PlayError::Bot(_)
                    | tour::PlayError::SeatCount { .. }
                    | tour::PlayError::Settings(_)),
                ) => usage(&e.to_string()),
                Err(e) => {
                    eprintln!("tablero: {e}");
                    ExitCode::from(EXIT_FAILURE)
                }
            }
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
    let valid_lag = args.lag.is_finite() && args.lag >= 0.0;
    if args.time.is_some_and(|t| !(t.is_finite() && t > 0.0))
        || !args.komi.is_finite()
        || !valid_lag
    {
        eprintln!("tablero: --time must be > 0, --lag >= 0 and --komi a number");
        return ExitCode::from(EXIT_USAGE);
    }
    let per_move = args
        .time
        .map(|t| tablero::tournament::referee_clock::ClockSpec {
            main: std::time::Duration::ZERO,
            period: std::time::Duration::from_secs_f64(t),
            stones: 1,
        });
    let mut opts = tablero::tournament::go_match::MatchOptions::new(
        &args.black,
        &args.white,
        args.size,
        args.komi,
        args.games,
    );
    opts.referee = args.referee;
    opts.alternate = args.alternate;
    opts.clock = args.clock.or(per_move);
    opts.lag = args.lag;
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
    let gvgai = match cli::gvgai::serve_handler(&config.gvgai) {
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

/// `tablero bench playouts`: checks the arguments, runs the benchmark, prints one JSON line.
fn bench_playouts(size: usize, seconds: f64, threads: usize, seed: u64, policy: &str) -> ExitCode {
    let policy: tablero::go::search::playout::PlayoutPolicy = match policy.parse() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tablero: --policy: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
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
    let result =
        tablero::go::search::bench::bench_playouts_with(policy, size, seconds, threads, seed);
    print_json(&result)
}

/// `tablero bench search`: one full search with the configured `[search]` settings.
fn bench_search(size: usize, seconds: f64, args: &ConfigArgs) -> ExitCode {
    if !(seconds.is_finite() && seconds > 0.0) {
        eprintln!("tablero: --seconds must be a number > 0, got {seconds}");
        return ExitCode::from(EXIT_USAGE);
    }
    let params = Config::load(args.config.as_deref(), &args.set)
        .map_err(|e| e.to_string())
        .and_then(|c| tablero::go::search::SearchParams::from_config(&c.search));
    let params = match params {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tablero: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    init_logging("warn");
    match tablero::go::search::bench::bench_search(size, seconds, params) {
        Ok(result) => print_json(&result),
        Err(e) => {
            eprintln!("tablero: --size: {e}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Prints `value` as one JSON line on stdout.
fn print_json(value: &impl serde::Serialize) -> ExitCode {
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
