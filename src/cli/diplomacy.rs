//! `tablero diplomacy server|bot|play` (the embedded DAIDE server, one bot on any DAIDE
//! server, tournaments) and `tablero bench jic`. Each takes `--config`/`--set`: `bot` reads
//! `[diplomacy]` (thinking time, seed, reconnection delays) and `[jic]`, `play` and `bench jic`
//! read `[jic]` and `play` the external seats; `server` reads `[diplomacy.server]` (its flags
//! override the keys of the same names) and `[log]`.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::{Args, Subcommand};
use tablero::daemon::ShutdownSignal;
use tablero::tournament::diplomacy as tour;

use super::progress::Progress;
use super::{ConfigArgs, EXIT_FAILURE, failure, init_logging, print_json, runtime, usage};

#[derive(Debug, Subcommand)]
pub enum DiplomacyCommand {
    /// Host DAIDE games (level 0): a new game opens whenever the previous one has started.
    Server(ServerArgs),
    /// One bot joins a DAIDE server and plays one game (reconnecting with IAM after a drop).
    Bot(BotArgs),
    /// Play complete games between bots; a progress line per game on stderr, one JSON line.
    Play(PlayArgs),
}

#[derive(Debug, Args)]
pub struct ServerArgs {
    /// Address to listen on (IP:PORT)
    /// [default: 127.0.0.1:16713 (config diplomacy.server.listen)].
    #[arg(long, value_name = "IP:PORT")]
    pub listen: Option<String>,
    /// Seconds per phase (MTL = RTL = BTL); 0 for no deadlines
    /// [default: 0 (config diplomacy.server.deadline)].
    #[arg(long, value_name = "SECONDS")]
    pub deadline: Option<u16>,
    /// Last year played, after which a game is a draw of the survivors; 0 to play until a
    /// solo or an agreed draw [default: 0 (config diplomacy.server.end_year)].
    #[arg(long, value_name = "YEAR")]
    pub end_year: Option<u16>,
    /// Seed of power assignment and passcodes (game n uses seed + n)
    /// [default: 0 (config diplomacy.server.seed)].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Connections served at once; more wait in the listen queue until one closes
    /// [default: 64 (config diplomacy.server.max_connections)].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_connections: Option<u32>,
    /// Games after which the server exits; 0 for no limit
    /// [default: 0 (config diplomacy.server.max_games)].
    #[arg(long, value_name = "N")]
    pub max_games: Option<u64>,
    /// Append one JSON line per finished game to FILE (created if missing), written and
    /// synced to disk as the game ends [default: none (config diplomacy.server.results)].
    #[arg(long, value_name = "FILE")]
    pub results: Option<std::path::PathBuf>,
    /// The configuration: `[diplomacy.server]` (the flags above override its keys; `enabled`
    /// is for `tablero serve` only) and `[log]`.
    #[command(flatten)]
    pub cfg: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct BotArgs {
    /// The DAIDE server, HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub server: String,
    /// The bot: holdbot, randbot, dumbbot, jic or jic-thesis.
    #[arg(long)]
    pub bot: String,
    /// Name sent in NME [default: the --bot name].
    #[arg(long)]
    pub name: Option<String>,
    /// Power to ask for, e.g. TUR (sent as the NME prefix "TUR:name") [default: none, the
    /// server assigns one].
    #[arg(long)]
    pub power: Option<String>,
    /// Seed of the bot's random choices [default: 0 (config diplomacy.seed)].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Seconds per phase when the server sets no deadline
    /// [default: 5 (config diplomacy.think_time)].
    #[arg(long, value_name = "SECONDS")]
    pub think_time: Option<f64>,
    /// The configuration (`[diplomacy]`: thinking time, seed, reconnection delays; `[jic]`
    /// configures JIC).
    #[command(flatten)]
    pub cfg: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// One bot per power, comma-separated (7 for the standard map).
    #[arg(long, value_name = "BOT,BOT,...")]
    pub seats: String,
    /// Number of games.
    #[arg(long, default_value_t = 7)]
    pub games: usize,
    /// Seed of every random choice (same seed, same result).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Last year played; the game is then a draw of the survivors.
    #[arg(long, value_name = "YEAR", default_value_t = 1930)]
    pub end_year: i16,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Play by direct calls instead of over DAIDE (faster; built-in bots only).
    #[arg(long)]
    pub local: bool,
    /// The DAIDE server's deadline per phase in seconds (0: none; external seats need one).
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    pub deadline: u16,
    /// An external seat: NAME=COMMAND, where the command may use {host}, {port} and
    /// {power}; NAME can then be used in --seats. Adds to `[[diplomacy.external]]`
    /// (repeatable).
    #[arg(long = "external", value_name = "NAME=COMMAND")]
    pub external: Vec<String>,
    /// Seconds per built-in bot per phase (at most the deadline less a margin).
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
    pub think_time: f64,
    /// Draw the supply centres of every power by year as an SVG chart into FILE: one game's
    /// counts, or the mean over the games [default: none, no chart].
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub shard: super::merge::ShardArgs,
    /// The configuration (its `[jic]` section configures JIC seats).
    #[command(flatten)]
    pub cfg: ConfigArgs,
}

/// `tablero bench jic`: progress on stderr, one JSON line on stdout.
pub fn bench_jic(games: usize, seed: u64, think_time: f64, cfg: &ConfigArgs) -> ExitCode {
    let config = match cfg.load() {
        Ok(c) => c,
        Err(code) => return code,
    };
    init_logging("warn");
    let Ok(think_time) = Duration::try_from_secs_f64(think_time) else {
        return usage("--think-time must be a number of seconds >= 0");
    };
    if games == 0 {
        return usage("--games must be at least 1");
    }
    let bar = Progress::new(games, "games");
    let progress = |g: usize| bar.step(&format!("game {}/{games} done", g + 1));
    match tablero::bots::jic::bench::run(&config.jic, games, seed, think_time, &progress) {
        Ok(report) => print_json(&report),
        Err(e) => failure(e),
    }
}

/// `tablero diplomacy …`.
pub fn run(cmd: DiplomacyCommand) -> ExitCode {
    match cmd {
        DiplomacyCommand::Server(a) => server(a),
        DiplomacyCommand::Bot(a) => bot(a),
        DiplomacyCommand::Play(a) => play(a),
    }
}

/// `tablero diplomacy server`: hosts DAIDE games until SIGINT or SIGTERM (or
/// `max_games`).
fn server(args: ServerArgs) -> ExitCode {
    let mut config = match args.cfg.load() {
        Ok(c) => c,
        Err(code) => return code,
    };
    init_logging(&config.log.level);
    let daide = &mut config.diplomacy.server;
    if let Some(listen) = args.listen {
        daide.listen = listen;
    }
    daide.deadline = args.deadline.map_or(daide.deadline, u64::from);
    daide.end_year = args.end_year.map_or(daide.end_year, u64::from);
    daide.seed = args.seed.unwrap_or(daide.seed);
    daide.max_connections = args
        .max_connections
        .map_or(daide.max_connections, |m| m as usize);
    daide.max_games = args.max_games.unwrap_or(daide.max_games);
    if let Err(e) = config.validate() {
        return usage(&format!("{e} (from a flag or the configuration)"));
    }
    let daide = config.diplomacy.server;
    let mut results = match args
        .results
        .or_else(|| daide.results_path())
        .map(tablero::daide::server::ResultsFile::open)
        .transpose()
    {
        Ok(r) => r,
        Err(e) => return failure(e),
    };
    let addr = match daide.listen_addr() {
        Ok(a) => a,
        Err(e) => return usage(&e.to_string()),
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(code) => return code,
    };
    let outcome = rt.block_on(async move {
        let signal = ShutdownSignal::install()?;
        let listener = tokio::net::TcpListener::bind(addr).await?;
        tracing::info!("DAIDE server listening on {}", listener.local_addr()?);
        let limits = tablero::daide::server::ListenerLimits {
            max_connections: daide.max_connections,
        };
        let max_games = daide.game_limit();
        let games = tablero::daide::server::run_server_with(
            listener,
            tablero::daide::token::TokenTable::standard(),
            move |n| daide.game_config(n),
            limits,
            max_games,
            async move {
                let name = signal.recv().await;
                tracing::info!("{name} received, shutting down");
            },
            move |record| {
                if let Some(file) = results.as_mut()
                    && let Err(e) = file.append(&record)
                {
                    tracing::error!("{e}");
                }
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

/// `tablero diplomacy bot`: one seat on a DAIDE server for one game.
fn bot(args: BotArgs) -> ExitCode {
    let BotArgs {
        server,
        bot,
        name,
        power,
        seed,
        think_time,
        cfg,
    } = args;
    let config = match cfg.load() {
        Ok(c) => c,
        Err(code) => return code,
    };
    init_bot_logging(&config.log.level, &server);
    let dip = &config.diplomacy;
    let seed = seed.unwrap_or(dip.seed);
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
    let Ok(think_time) = Duration::try_from_secs_f64(think_time.unwrap_or(dip.think_time)) else {
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
        initial: Duration::try_from_secs_f64(dip.reconnect_initial).unwrap_or_default(),
        max: Duration::try_from_secs_f64(dip.reconnect_max).unwrap_or_default(),
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(code) => return code,
    };
    let outcome = rt.block_on(async move {
        let cancel = super::cancel_on_signal();
        tablero::daemon::dipbot::run_seat(&seat, backoff, false, cancel).await
    });
    match outcome {
        Ok(r) if r.games > 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(EXIT_FAILURE),
        Err(e) => usage(&e.to_string()),
    }
}

/// Logging for `tablero diplomacy bot`, as [`super::init_logging`], plus the one line on
/// stderr that says the bot waits for the game to start.
fn init_bot_logging(level: &str, server: &str) {
    use tracing_subscriber::prelude::*;
    let (filter, env_problem) = super::log_filter(level);
    let log = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_filter(filter);
    let notice = WaitingNotice {
        server: server.to_string(),
        printed: AtomicBool::new(false),
    }
    .with_filter(
        tracing_subscriber::filter::Targets::new()
            .with_target("tablero::daemon::dipbot", tracing::Level::INFO),
    );
    let installed = tracing_subscriber::registry()
        .with(log)
        .with(notice)
        .try_init()
        .is_ok();
    super::logging_started(installed, env_problem, level);
}

/// Says once, whatever the log level, that the bot has connected and waits for the server to
/// start the game: a lone bot would otherwise wait without a word. The seat logs its join
/// (the event with a `join` field) right after each connection.
struct WaitingNotice {
    server: String,
    printed: AtomicBool,
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for WaitingNotice {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        if event.metadata().fields().field("join").is_some()
            && !self.printed.swap(true, Ordering::Relaxed)
        {
            eprintln!(
                "tablero: connected to {}; waiting for the server to start the game (a game \
                 needs seven players)",
                self.server
            );
        }
    }
}

/// `tablero diplomacy play`: a tournament; progress on stderr, one JSON line on stdout.
fn play(args: PlayArgs) -> ExitCode {
    let PlayArgs {
        seats,
        games,
        seed,
        end_year,
        jobs,
        local,
        deadline,
        external,
        think_time,
        svg,
        shard,
        cfg,
    } = args;
    let config = match cfg.load() {
        Ok(c) => c,
        Err(code) => return code,
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
    settings.shard = shard.shard();
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
    let bar = Progress::new(settings.shard.count(games), "games");
    let progress = |g: &tour::GameResult| bar.step(&g.describe(games));
    match tour::play_games(&settings, &progress) {
        Ok(results) => {
            let histories: Vec<_> = results.iter().map(|g| g.centres_by_year.clone()).collect();
            if let Some(path) = svg
                && let Err(e) =
                    std::fs::write(&path, tablero::plot::centres::svg_standard(&histories))
            {
                return failure(format!("cannot write {}: {e}", path.display()));
            }
            let records: Vec<_> = results.iter().map(|g| (g.game, g)).collect();
            if let Err(code) = shard.write(tour::RECORDS_KIND, &settings, games, &records) {
                return code;
            }
            print_json(&tour::summarize(&settings, &results))
        }
        Err(
            e @ (tour::PlayError::Bot(_)
            | tour::PlayError::SeatCount { .. }
            | tour::PlayError::Settings(_)),
        ) => usage(&e.to_string()),
        Err(e) => failure(e),
    }
}
