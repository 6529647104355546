//! `tablero gvgai …`: play, replay, connect, host, bench, pddl, plan, render (and the `[gvgai]`
//! session handler of `tablero serve`). Every subcommand takes `--config`/`--set`: the
//! `[gvgai]` section gives the defaults of the controller flags (`--controller`, `--act-ms`,
//! `--init-ms`, `--seed` of connect and host, `--max-line-bytes`, `--reply-timeout`, `--game`
//! of connect and host) and `--games-dir`; a flag given on the command line wins. Each ends
//! with one JSON line on stdout; progress and logs go to stderr.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};
use tablero::config::{Config, GvgaiConfig};
use tablero::controllers::make;
use tablero::daemon::{self, CancellationToken, Daemon, Session, SessionHandler, ShutdownSignal};
use tablero::gvgai::controllers::{self, ControllerSettings};
use tablero::gvgai::engine::{self, Game};
use tablero::gvgai_line::{self as line, AgentSettings, HostSettings};
use tablero::tournament::gvgai_sweep::{Cell, SweepRun};

use super::progress::Progress;
use super::{ConfigArgs, EXIT_FAILURE, failure, init_logging, print_json, runtime, usage};

#[derive(Debug, Subcommand)]
pub enum GvgaiCommand {
    /// Play one level in-process with a controller; one JSON line with the result.
    Play(PlayArgs),
    /// Replay a fixed action string (U D L R N S); one JSON line with the result.
    Replay(ReplayArgs),
    /// Play controllers on levels over seeds (shardable); one JSON line with win rates and
    /// mean scores per level and controller.
    Sweep(SweepArgs),
    /// Connect to a GVG-AI learning-track game server as the controller (client) side.
    Connect(ConnectArgs),
    /// Be the learning-track game server (tablero's engine) for remote clients.
    Host(HostArgs),
    /// Forward-model speed: copy + advance steps per second (as in benches/gvgai_forward.rs).
    Bench(BenchArgs),
    /// Translate a level to PDDL: writes DIR/domain.pddl and DIR/problem.pddl.
    Pddl(PddlArgs),
    /// Plan a level (VGDL -> PDDL -> planner) and replay the plan; one JSON line.
    Plan(PlanArgs),
    /// Draw a level as an SVG picture (a coloured tile per sprite, a legend naming the sprite
    /// types); one JSON line.
    Render(RenderArgs),
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Game name (<name>.txt in the games folder).
    #[arg(long)]
    game: String,
    /// Level number (the game's <name>_lvlN.txt).
    #[arg(long, default_value_t = 0)]
    level: usize,
    /// The SVG file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    games: GamesDir,
    #[command(flatten)]
    config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct PddlArgs {
    /// Game name (<name>.txt in the games folder).
    #[arg(long)]
    game: String,
    /// Level number (the game's <name>_lvlN.txt).
    #[arg(long, default_value_t = 0)]
    level: usize,
    /// Folder for domain.pddl and problem.pddl.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    #[command(flatten)]
    games: GamesDir,
    #[command(flatten)]
    config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Game name (<name>.txt in the games folder).
    #[arg(long)]
    game: String,
    /// Level number (the game's <name>_lvlN.txt).
    #[arg(long, default_value_t = 0)]
    level: usize,
    /// Only optimal planners: the plan is provably shortest.
    #[arg(long)]
    optimal: bool,
    /// A portfolio member (lama, hadd-lm, hff, hff-type, lama-type, hadd-type, lmcut-type,
    /// bfws, iw1, iw2, siw, astar-lmcut, astar-lmcut-plain, astar-hmax, astar-blind) or
    /// fast-downward [default: portfolio].
    #[arg(long, value_name = "NAME")]
    planner: Option<String>,
    /// Wall-clock seconds for the whole planning run [default: 10 (config planning.timeout)].
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Planner threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    #[command(flatten)]
    games: GamesDir,
    /// The configuration (its `[planning]` section configures the planners).
    #[command(flatten)]
    config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Game name (<name>.txt in the games folder).
    #[arg(long, default_value = "sokoban")]
    game: String,
    /// Level number (the game's <name>_lvlN.txt).
    #[arg(long, default_value_t = 0)]
    level: usize,
    /// Seconds to run.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    seconds: f64,
    /// Seed of every random choice (same seed, same result).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    games: GamesDir,
    #[command(flatten)]
    config: ConfigArgs,
}

/// Where games come from.
#[derive(Debug, Args, Clone)]
pub struct GamesDir {
    /// Folder of VGDL games (<name>.txt, <name>_lvlN.txt) [default: the shipped games (config
    /// gvgai.games_dir)].
    #[arg(long, value_name = "DIR")]
    pub games_dir: Option<PathBuf>,
}

impl GamesDir {
    /// The folder the flag names, else the one `gvgai.games_dir` names; `None`: the shipped
    /// games.
    pub fn dir(&self, config: &GvgaiConfig) -> Option<PathBuf> {
        self.games_dir.clone().or_else(|| config_games_dir(config))
    }

    pub fn load(&self, name: &str, config: &GvgaiConfig) -> Result<Game, engine::EngineError> {
        load_game(name, self.dir(config).as_deref())
    }
}

/// The folder `gvgai.games_dir` names ("" names none: the shipped games).
fn config_games_dir(config: &GvgaiConfig) -> Option<PathBuf> {
    (!config.games_dir.is_empty()).then(|| PathBuf::from(&config.games_dir))
}

/// A game by name, from `dir` or the shipped games.
pub fn load_game(name: &str, dir: Option<&Path>) -> Result<Game, engine::EngineError> {
    match dir {
        Some(d) => Game::load(d, name),
        None => tablero::gvgai::games::shipped(name),
    }
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game name (<name>.txt in the games folder).
    #[arg(long)]
    game: String,
    /// Level number (the game's <name>_lvlN.txt).
    #[arg(long, default_value_t = 0)]
    level: usize,
    /// random, onestep, mcts, olets, rhea, bfs, iw, planner, dungeon-bfs, evolved:FILE; MCTS
    /// settings as mcts:k=K,depth=D,goal=W (UCT constant, rollout depth, goal-distance weight;
    /// 0 = off), OLETS settings as olets:k=K,taboo=T,memory=M,goal=W,hp=H
    /// [default: olets (config gvgai.controller)].
    #[arg(long, value_name = "CONTROLLER")]
    controller: Option<String>,
    /// Two-player games: player 1's controller (player 0's is --controller)
    /// [default: as --controller].
    #[arg(long, value_name = "CONTROLLER")]
    controller2: Option<String>,
    /// Two-player games: how each player's search models the other player's actions:
    /// random, nil or repeat (its last action).
    #[arg(long, default_value = "random")]
    opponent: String,
    /// Seed of the game and the controller.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    budget: ActBudget,
    #[command(flatten)]
    games: GamesDir,
    #[command(flatten)]
    config: ConfigArgs,
}

/// A controller's budget per act in `play` and `sweep`.
#[derive(Debug, Args)]
pub struct ActBudget {
    /// Milliseconds per act (GVG-AI gives 40) [default: 40 (config gvgai.act_ms)].
    #[arg(long, value_name = "MS")]
    act_ms: Option<u64>,
    /// Count-based budget per act (MCTS iterations, RHEA evaluations, BFS/IW expansions); with
    /// an act time never overrun, results do not depend on the machine's speed
    /// [default: none, the time budget alone].
    #[arg(long, value_name = "N")]
    iterations: Option<usize>,
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    /// A game and its levels, NAME or NAME:L,L,… (repeatable) [default levels: all of the
    /// game's].
    #[arg(long = "game", value_name = "NAME[:LEVELS]", required = true)]
    games_levels: Vec<String>,
    /// A controller, as in `gvgai play` (repeatable) [default: olets (config
    /// gvgai.controller)].
    #[arg(long = "controller", value_name = "CONTROLLER")]
    controllers: Vec<String>,
    /// Episodes per level and controller.
    #[arg(long, default_value_t = 1)]
    seeds: usize,
    /// Seed of the first episode of every level and controller; the next count up from it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    budget: ActBudget,
    #[command(flatten)]
    shard: super::merge::ShardArgs,
    #[command(flatten)]
    games: GamesDir,
    #[command(flatten)]
    config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Game name (<name>.txt in the games folder).
    #[arg(long)]
    game: String,
    /// Level number (the game's <name>_lvlN.txt).
    #[arg(long, default_value_t = 0)]
    level: usize,
    /// Actions, one letter per tick: U D L R N (nil) S (use).
    #[arg(long)]
    actions: String,
    /// Seed of every random choice (same seed, same result).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    games: GamesDir,
    #[command(flatten)]
    config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// The game server, HOST:PORT (GVG-AI's learning track listens on 8080).
    #[arg(
        long,
        alias = "addr",
        value_name = "HOST:PORT",
        default_value = "127.0.0.1:8080"
    )]
    server: String,
    /// Controller: random, onestep, mcts[:k=K,depth=D,goal=W], olets[:k=K,taboo=T,memory=M,goal=W,hp=H],
    /// rhea, bfs, iw, planner, dungeon-bfs or evolved:FILE [default: olets (config gvgai.controller)].
    #[arg(long, value_name = "CONTROLLER")]
    controller: Option<String>,
    /// The game the host plays, for the controller's forward model: name the host's
    /// `--game`. Without one, controllers that need a forward model play random moves. The
    /// protocol never names the game, so a different game cannot be detected: its
    /// observations do not fit the model, and the controller plays random moves (the
    /// summary's `model_acts` stays 0) [default: none (config gvgai.game)].
    #[arg(long)]
    game: Option<String>,
    /// Seed of every random choice (same seed, same result) [default: 0 (config gvgai.seed)].
    #[arg(long)]
    seed: Option<u64>,
    /// Count budget per act (MCTS iterations, RHEA evaluations, BFS/IW expansions) on top of
    /// the time budget [default: none, the time budget alone].
    #[arg(long, value_name = "N")]
    iterations: Option<usize>,
    /// Milliseconds per act (GVG-AI gives 40) [default: 40 (config gvgai.act_ms)].
    #[arg(long, value_name = "MS")]
    act_ms: Option<u64>,
    /// Milliseconds to initialise (GVG-AI gives 1000) [default: 1000 (config gvgai.init_ms)].
    #[arg(long, value_name = "MS")]
    init_ms: Option<u64>,
    /// Longest protocol line accepted, in bytes; a longer one ends the session
    /// [default: 4194304 (config gvgai.max_line_bytes)].
    #[arg(long, value_name = "BYTES")]
    max_line_bytes: Option<usize>,
    /// Give up connecting after this many seconds (0: retry every second forever).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    retry_for: f64,
    #[command(flatten)]
    games: GamesDir,
    #[command(flatten)]
    config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct HostArgs {
    /// Address to listen on, IP:PORT.
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    listen: String,
    /// Game name (<name>.txt in the games folder), needed here or as gvgai.game. The
    /// protocol does not tell clients the game: give `connect` the same `--game`
    /// [default: none (config gvgai.game)].
    #[arg(long)]
    game: Option<String>,
    /// Training levels played first, in order (comma-separated).
    #[arg(long, default_value = "0,1,2", value_parser = parse_levels)]
    levels: Levels,
    /// Validation levels (comma-separated; "" for none).
    #[arg(long, default_value = "3,4", value_parser = parse_levels)]
    validation: Levels,
    /// Rounds of validation levels.
    #[arg(long, default_value_t = 1)]
    validation_times: usize,
    /// Most levels per client session.
    #[arg(long, default_value_t = 20)]
    max_games: usize,
    /// Seed of every random choice (same seed, same result) [default: 0 (config gvgai.seed)].
    #[arg(long)]
    seed: Option<i64>,
    /// Seconds to wait for a reply before closing the session
    /// [default: 60 (config gvgai.reply_timeout)].
    #[arg(long, value_name = "SECONDS")]
    reply_timeout: Option<f64>,
    /// Longest protocol line accepted, in bytes; a longer one ends the session
    /// [default: 4194304 (config gvgai.max_line_bytes)].
    #[arg(long, value_name = "BYTES")]
    max_line_bytes: Option<usize>,
    /// Serve one client, print its result and exit.
    #[arg(long)]
    once: bool,
    #[command(flatten)]
    games: GamesDir,
    #[command(flatten)]
    config: ConfigArgs,
}

/// A comma-separated list of level numbers ("" = none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Levels(Vec<usize>);

fn parse_levels(s: &str) -> Result<Levels, String> {
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.parse::<usize>()
                .map_err(|_| format!("{p:?} is not a level number"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Levels)
}

impl GvgaiCommand {
    /// The `--config`/`--set` flags of the subcommand.
    fn config_args(&self) -> &ConfigArgs {
        match self {
            GvgaiCommand::Play(a) => &a.config,
            GvgaiCommand::Replay(a) => &a.config,
            GvgaiCommand::Sweep(a) => &a.config,
            GvgaiCommand::Connect(a) => &a.config,
            GvgaiCommand::Host(a) => &a.config,
            GvgaiCommand::Bench(a) => &a.config,
            GvgaiCommand::Pddl(a) => &a.config,
            GvgaiCommand::Plan(a) => &a.config,
            GvgaiCommand::Render(a) => &a.config,
        }
    }
}

/// Runs one `tablero gvgai` subcommand: loads the configuration (exit 2 if it is bad), starts
/// logging at `log.level` and runs the subcommand with it.
pub fn run(cmd: GvgaiCommand) -> ExitCode {
    let config = match cmd.config_args().load() {
        Ok(c) => c,
        Err(code) => return code,
    };
    init_logging(&config.log.level);
    let gvgai = &config.gvgai;
    match cmd {
        GvgaiCommand::Play(a) => play(a, gvgai),
        GvgaiCommand::Replay(a) => replay(a, gvgai),
        GvgaiCommand::Sweep(a) => sweep(a, gvgai),
        GvgaiCommand::Connect(a) => connect(a, gvgai),
        GvgaiCommand::Host(a) => host(a, gvgai),
        GvgaiCommand::Bench(a) => bench(a, gvgai),
        GvgaiCommand::Pddl(a) => pddl(a, gvgai),
        GvgaiCommand::Plan(a) => plan(a, &config),
        GvgaiCommand::Render(a) => render(a, gvgai),
    }
}

/// The games folder the planning commands read (the shipped games when it has no such game).
fn planning_games_dir(games: &GamesDir, config: &GvgaiConfig) -> PathBuf {
    games
        .dir(config)
        .unwrap_or_else(|| PathBuf::from(tablero::planning::cli::DEFAULT_GAMES_DIR))
}

/// Prints the JSON line of a planning command, or its error.
fn print_line(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => failure(e),
    }
}

fn pddl(a: PddlArgs, config: &GvgaiConfig) -> ExitCode {
    use tablero::planning::cli;
    print_line(cli::run_pddl(&cli::PddlArgs {
        games_dir: planning_games_dir(&a.games, config),
        game: a.game,
        level: a.level,
        out: a.out,
    }))
}

fn plan(a: PlanArgs, config: &Config) -> ExitCode {
    use tablero::planning::cli;
    print_line(cli::run_plan(
        &cli::PlanArgs {
            games_dir: planning_games_dir(&a.games, &config.gvgai),
            game: a.game,
            level: a.level,
            optimal: a.optimal,
            planner: a.planner,
            timeout: a.timeout,
            threads: a.threads,
        },
        &config.planning,
    ))
}

/// `tablero gvgai render`: writes the level's picture.
fn render(a: RenderArgs, config: &GvgaiConfig) -> ExitCode {
    let game = match a.games.load(&a.game, config) {
        Ok(g) => g,
        Err(e) => return usage(&e.to_string()),
    };
    let (Some(picture), Some(level)) = (
        tablero::plot::level::svg(&game, a.level),
        game.levels.get(a.level),
    ) else {
        return usage(&format!(
            "--level {}: {} has levels 0..={}",
            a.level,
            a.game,
            game.levels.len().saturating_sub(1)
        ));
    };
    if let Err(e) = std::fs::write(&a.out, picture) {
        return failure(format!("cannot write {}: {e}", a.out.display()));
    }
    print_json(&serde_json::json!({
        "game": a.game,
        "level": a.level,
        "width": level.width,
        "height": level.height,
        "sprites": level.cells.iter().map(Vec::len).sum::<usize>(),
        "out": a.out.display().to_string(),
    }))
}

/// Copies the level's start state and advances it 100 ticks with random actions, again and
/// again (a fresh copy whenever the game ends), for `--seconds`; reports steps per second.
fn bench(a: BenchArgs, config: &GvgaiConfig) -> ExitCode {
    use rand::{Rng, SeedableRng};
    let game = match a.games.load(&a.game, config) {
        Ok(g) => g,
        Err(e) => return usage(&e.to_string()),
    };
    let Ok(secs) = Duration::try_from_secs_f64(a.seconds) else {
        return usage("--seconds must be a number > 0");
    };
    let root = match game.start(a.level, a.seed as i64) {
        Ok(s) => s,
        Err(e) => return usage(&e.to_string()),
    };
    let actions = controllers::choices(&root);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(a.seed);
    let cpu0 = thread_cpu_ns();
    let start = std::time::Instant::now();
    let (mut steps, mut copies) = (0u64, 0u64);
    while start.elapsed() < secs {
        let mut st = root.clone();
        copies += 1;
        for _ in 0..100 {
            if st.is_over() {
                st = root.clone();
                copies += 1;
            }
            st.advance(actions[rng.gen_range(0..actions.len())]);
            steps += 1;
        }
    }
    let el = start.elapsed().as_secs_f64();
    // On a shared machine the thread's CPU time says how fast the model itself is.
    let cpu = match (cpu0, thread_cpu_ns()) {
        (Some(a), Some(b)) if b > a => Some((b - a) as f64 / 1e9),
        _ => None,
    };
    print_json(&serde_json::json!({
        "game": a.game,
        "level": a.level,
        "seconds": (el * 100.0).round() / 100.0,
        "cpu_seconds": cpu.map(|c| (c * 100.0).round() / 100.0),
        "steps": steps,
        "copies": copies,
        "steps_per_sec": (steps as f64 / el).round(),
        "steps_per_cpu_sec": cpu.map(|c| (steps as f64 / c).round()),
    }))
}

/// CPU time of the calling thread in nanoseconds (Linux `/proc/thread-self/schedstat`).
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn play(a: PlayArgs, config: &GvgaiConfig) -> ExitCode {
    let game = match a.games.load(&a.game, config) {
        Ok(g) => g,
        Err(e) => return usage(&e.to_string()),
    };
    if a.level >= game.levels.len() {
        return usage(&format!("game {} has no level {}", a.game, a.level));
    }
    let settings = ControllerSettings {
        seed: a.seed,
        iterations: a.budget.iterations,
    };
    let controller = a
        .controller
        .clone()
        .unwrap_or_else(|| config.controller.clone());
    let mut c = match make(&controller, &settings) {
        Ok(c) => c,
        Err(e) => return usage(&e.to_string()),
    };
    let act = Duration::from_millis(a.budget.act_ms.unwrap_or(config.act_ms).max(1));
    if game.rules.desc.params.no_players > 1 {
        let two = super::gvgai_players::TwoPlayers {
            game_name: &a.game,
            level: a.level,
            seed: a.seed,
            opponent: &a.opponent,
            controller2: a.controller2.as_deref(),
        };
        return two.play(&game, c, &controller, &settings, act);
    }
    // Seeds above i64::MAX wrap, as Java's long would.
    let played = {
        let mut report = TickReport::new();
        controllers::play_observed(
            &game,
            a.level,
            a.seed as i64,
            c.as_mut(),
            act,
            &mut |st, action| report.tick(st, action),
        )
    };
    match played {
        Ok(r) => print_json(&serde_json::json!({
            "game": a.game,
            "level": a.level,
            "controller": controller,
            "seed": a.seed,
            "win": r.outcome.win,
            "score": r.outcome.score,
            "ticks": r.outcome.ticks,
            "act_ms_max": (r.act_ms_max * 10.0).round() / 10.0,
            "init_ms": (r.init_ms * 10.0).round() / 10.0,
            "overspent": r.overspent,
            "over_50ms": r.over_disq,
            "act_cpu_ms_max": r.act_cpu_ms_max.map(|ms| (ms * 10.0).round() / 10.0),
            "actions": r.actions,
        })),
        Err(e) => failure(e),
    }
}

/// Ticks per progress line of `gvgai play`.
const TICKS_PER_REPORT: i32 = 100;

/// The progress of one `gvgai play` on stderr: a line every [`TICKS_PER_REPORT`] ticks with
/// the score and how many of those ticks were NIL (a controller that finds nothing plays NIL).
struct TickReport {
    progress: Progress,
    nil: usize,
}

impl TickReport {
    fn new() -> Self {
        let reports = (engine::MAX_TICKS / TICKS_PER_REPORT) as usize;
        TickReport {
            progress: Progress::new(reports, "x100 ticks"),
            nil: 0,
        }
    }

    fn tick(&mut self, st: &engine::GameState, action: engine::Action) {
        self.nil += usize::from(action == engine::Action::Nil);
        if st.tick() % TICKS_PER_REPORT == 0 && !st.is_over() {
            self.progress.step(&format!(
                "tick {}: score {}, {} of the last {TICKS_PER_REPORT} actions NIL",
                st.tick(),
                st.score(),
                self.nil
            ));
            self.nil = 0;
        }
    }
}

fn replay(a: ReplayArgs, config: &GvgaiConfig) -> ExitCode {
    let game = match a.games.load(&a.game, config) {
        Ok(g) => g,
        Err(e) => return usage(&e.to_string()),
    };
    match engine::replay(&game, a.level, &a.actions, a.seed as i64) {
        Ok(o) => print_json(&serde_json::json!({
            "game": a.game,
            "level": a.level,
            "controller": "replay",
            "seed": a.seed,
            "win": o.win,
            "score": o.score,
            "ticks": o.ticks,
            "act_ms_max": 0.0,
        })),
        Err(e) => usage(&e.to_string()),
    }
}

/// The sweep `a` describes, with its games loaded; exit 2 naming what is wrong.
fn sweep_run(
    a: &SweepArgs,
    config: &GvgaiConfig,
) -> Result<(SweepRun, std::collections::BTreeMap<String, Game>), ExitCode> {
    let mut games = std::collections::BTreeMap::new();
    let mut cells = Vec::new();
    for spec in &a.games_levels {
        let (name, levels) = match spec.split_once(':') {
            Some((n, l)) => (
                n,
                Some(parse_levels(l).map_err(|e| usage(&format!("--game: {e}")))?),
            ),
            None => (spec.as_str(), None),
        };
        let game = a
            .games
            .load(name, config)
            .map_err(|e| usage(&e.to_string()))?;
        let levels = levels.map_or_else(|| (0..game.levels.len()).collect(), |l| l.0);
        cells.extend(levels.into_iter().map(|level| Cell {
            game: name.to_string(),
            level,
        }));
        games.insert(name.to_string(), game);
    }
    let controllers = if a.controllers.is_empty() {
        vec![config.controller.clone()]
    } else {
        a.controllers.clone()
    };
    if a.seeds == 0 {
        return Err(usage("--seeds must be at least 1"));
    }
    let run = SweepRun {
        cells,
        controllers,
        seeds: a.seeds,
        seed: a.seed,
        act_ms: a.budget.act_ms.unwrap_or(config.act_ms).max(1),
        iterations: a.budget.iterations,
    };
    tablero::tournament::gvgai_sweep::check(&run, &games).map_err(|e| usage(&e.to_string()))?;
    Ok((run, games))
}

/// `tablero gvgai sweep`: a progress line per episode, the summary as one JSON line.
fn sweep(a: SweepArgs, config: &GvgaiConfig) -> ExitCode {
    use tablero::tournament::gvgai_sweep as sw;
    let (run, games) = match sweep_run(&a, config) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let shard = a.shard.shard();
    let total = run.total();
    let bar = super::progress::Progress::new(shard.count(total), "episodes");
    let step = |e: &sw::EpisodeRecord| {
        bar.step(&format!(
            "episode {}/{total}: {} {} {} seed {}: {} score {} at tick {}",
            e.episode + 1,
            e.game,
            e.level,
            e.controller,
            e.seed,
            if e.win { "win" } else { "loss" },
            e.score,
            e.ticks
        ));
    };
    let episodes = match sw::play(&run, &games, shard, &step) {
        Ok(e) => e,
        Err(e) => return failure(e),
    };
    drop(bar);
    let records: Vec<_> = episodes.iter().map(|e| (e.episode, e)).collect();
    if let Err(code) = a.shard.write(sw::RECORDS_KIND, &run, total, &records) {
        return code;
    }
    print_json(&sw::summarize(&run, &episodes))
}

/// The game `gvgai.game` names ("" names none).
fn config_game(config: &GvgaiConfig) -> Option<String> {
    (!config.game.is_empty()).then(|| config.game.clone())
}

/// How `connect` plays: the `[gvgai]` section with the flags given on top; exit 2 for an
/// unknown controller or game.
fn connect_settings(a: &ConnectArgs, config: &GvgaiConfig) -> Result<AgentSettings, ExitCode> {
    let controller = a
        .controller
        .clone()
        .unwrap_or_else(|| config.controller.clone());
    if let Err(e) = make(&controller, &ControllerSettings::seeded(0)) {
        return Err(usage(&e.to_string()));
    }
    let game = match a.game.clone().or_else(|| config_game(config)) {
        Some(name) => match a.games.load(&name, config) {
            Ok(g) => Some(Arc::new(g)),
            Err(e) => return Err(usage(&e.to_string())),
        },
        None => None,
    };
    Ok(AgentSettings {
        controller,
        seed: a.seed.unwrap_or(config.seed),
        iterations: a.iterations,
        game,
        act_time: Duration::from_millis(a.act_ms.unwrap_or(config.act_ms).max(1)),
        init_time: Duration::from_millis(a.init_ms.unwrap_or(config.init_ms).max(1)),
        max_line_bytes: a.max_line_bytes.unwrap_or(config.max_line_bytes).max(1024),
    })
}

fn connect(a: ConnectArgs, config: &GvgaiConfig) -> ExitCode {
    let settings = match connect_settings(&a, config) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(code) => return code,
    };
    let server = a.server.clone();
    let retry_for = Duration::try_from_secs_f64(a.retry_for).unwrap_or_default();
    let summary = rt.block_on(async move {
        let cancel = super::cancel_on_signal();
        let stream = connect_retrying(&server, retry_for, &cancel).await?;
        let _ = stream.set_nodelay(true);
        tracing::info!("connected to {server}");
        let (r, w) = stream.into_split();
        Ok::<_, String>(line::run_agent(r, w, &settings, cancel).await)
    });
    rt.shutdown_timeout(Duration::from_millis(200));
    match summary {
        Ok(s) => {
            let ok = s.error.is_none() || s.finished;
            let code = print_json(&s);
            if ok {
                code
            } else {
                ExitCode::from(EXIT_FAILURE)
            }
        }
        Err(e) => failure(&e),
    }
}

/// A connection to `server`, retried every second until it is up, `retry_for` has passed
/// (zero: never give up) or `cancel` fires.
async fn connect_retrying(
    server: &str,
    retry_for: Duration,
    cancel: &CancellationToken,
) -> Result<tokio::net::TcpStream, String> {
    let started = std::time::Instant::now();
    loop {
        match tokio::net::TcpStream::connect(server).await {
            Ok(s) => return Ok(s),
            Err(e) => {
                if !retry_for.is_zero() && started.elapsed() >= retry_for {
                    return Err(format!("cannot connect to {server}: {e}"));
                }
                tracing::info!("cannot connect to {server} ({e}); retrying in 1 s");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                    () = cancel.cancelled() => return Err("cancelled".to_string()),
                }
            }
        }
    }
}

/// How `host` serves: the `[gvgai]` section with the flags given on top; exit 2 without a
/// game, for a game or level that does not exist, or a bad reply timeout.
fn host_settings(a: &HostArgs, config: &GvgaiConfig) -> Result<HostSettings, ExitCode> {
    let Some(name) = a.game.clone().or_else(|| config_game(config)) else {
        return Err(usage("name the game to host: --game NAME (or gvgai.game)"));
    };
    let game = match a.games.load(&name, config) {
        Ok(g) => Arc::new(g),
        Err(e) => return Err(usage(&e.to_string())),
    };
    if let Some(l) = a
        .levels
        .0
        .iter()
        .chain(&a.validation.0)
        .find(|&&l| l >= game.levels.len())
    {
        return Err(usage(&format!("game {name} has no level {l}")));
    }
    let reply_timeout = a.reply_timeout.unwrap_or(config.reply_timeout);
    let Ok(reply_timeout) = Duration::try_from_secs_f64(reply_timeout) else {
        return Err(usage("--reply-timeout must be a number of seconds > 0"));
    };
    Ok(HostSettings {
        game,
        training: a.levels.0.clone(),
        validation: a.validation.0.clone(),
        validation_times: a.validation_times,
        max_games: a.max_games.max(1),
        // Seeds above i64::MAX wrap, as Java's long would.
        seed: a.seed.unwrap_or(config.seed as i64),
        reply_timeout: reply_timeout.max(Duration::from_millis(1)),
        max_line_bytes: a.max_line_bytes.unwrap_or(config.max_line_bytes).max(1024),
    })
}

fn host(a: HostArgs, config: &GvgaiConfig) -> ExitCode {
    let Ok(addr) = a.listen.parse::<std::net::SocketAddr>() else {
        return usage(&format!("--listen must be IP:PORT, got {:?}", a.listen));
    };
    let settings = match host_settings(&a, config) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(code) => return code,
    };
    let once = a.once;
    let out = rt.block_on(async move {
        let signal = ShutdownSignal::install().map_err(|e| e.to_string())?;
        if once {
            host_one(addr, &settings, signal).await
        } else {
            host_many(addr, settings, signal).await
        }
    });
    rt.shutdown_timeout(Duration::from_millis(200));
    match out {
        Ok(v) => print_json(&v),
        Err(e) => failure(&e),
    }
}

/// `host --once`: serves the first client that connects; its summary.
async fn host_one(
    addr: std::net::SocketAddr,
    settings: &HostSettings,
    signal: ShutdownSignal,
) -> Result<serde_json::Value, String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!("GVG-AI game server listening on {bound} (one client)");
    let cancel = CancellationToken::new();
    let (stream, peer) = tokio::select! {
        r = listener.accept() => r.map_err(|e| e.to_string())?,
        _ = signal.recv() => {
            return Err("interrupted before a client connected".to_string());
        }
    };
    let _ = stream.set_nodelay(true);
    tracing::info!(%peer, "client connected");
    let (r, w) = stream.into_split();
    let s = line::run_host(r, w, settings, cancel).await;
    Ok(serde_json::json!(s))
}

/// `host`: serves every client that connects, a line per session on stderr, until SIGINT or
/// SIGTERM; every session's summary.
async fn host_many(
    addr: std::net::SocketAddr,
    settings: HostSettings,
    signal: ShutdownSignal,
) -> Result<serde_json::Value, String> {
    let daemon = Daemon::bind_addr(addr, 64, Duration::from_secs(2))
        .await
        .map_err(|e| e.to_string())?;
    tracing::info!("GVG-AI game server listening on {}", daemon.local_addr());
    let results = Arc::new(std::sync::Mutex::new(Vec::new()));
    let handler = {
        let results = Arc::clone(&results);
        daemon::session_handler(move |s: Session, cancel: CancellationToken| {
            let settings = settings.clone();
            let results = Arc::clone(&results);
            async move {
                let summary = line::run_host(s.reader, s.writer, &settings, cancel).await;
                eprintln!(
                    "session {} ({}): {} games, {} won{}",
                    s.id,
                    s.peer,
                    summary.games.len(),
                    summary.wins,
                    summary
                        .error
                        .as_deref()
                        .map(|e| format!(", ended: {e}"))
                        .unwrap_or_default()
                );
                if let Ok(mut r) = results.lock() {
                    r.push(summary);
                }
                Ok::<(), std::io::Error>(())
            }
        })
    };
    daemon
        .run(handler, async move {
            signal.recv().await;
        })
        .await;
    let sessions = results.lock().map(|r| r.clone()).unwrap_or_default();
    Ok(serde_json::json!({ "sessions": sessions }))
}

/// The `[gvgai]` listener's sessions in `tablero serve`: each connection is a game runner
/// driving the configured controller (`protocols/gvgai-line.md`).
pub fn serve_handler(config: &GvgaiConfig) -> Result<SessionHandler, String> {
    make(&config.controller, &ControllerSettings::seeded(0))
        .map_err(|e| format!("gvgai.controller: {e}"))?;
    let dir = config_games_dir(config);
    let game = match config_game(config) {
        Some(name) => Some(Arc::new(
            load_game(&name, dir.as_deref()).map_err(|e| format!("gvgai.game: {e}"))?,
        )),
        None => None,
    };
    let base = AgentSettings {
        controller: config.controller.clone(),
        seed: config.seed,
        iterations: None,
        game,
        act_time: Duration::from_millis(config.act_ms),
        init_time: Duration::from_millis(config.init_ms),
        max_line_bytes: config.max_line_bytes,
    };
    Ok(daemon::session_handler(
        move |s: Session, cancel: CancellationToken| {
            let mut settings = base.clone();
            settings.seed = settings.seed.wrapping_add(s.id.wrapping_mul(1_000_003));
            async move {
                let summary = line::run_agent(s.reader, s.writer, &settings, cancel).await;
                tracing::info!(
                    session = s.id,
                    games = summary.games.len(),
                    wins = summary.wins,
                    "GVG-AI session over"
                );
                match summary.error {
                    Some(e) if !summary.finished => Err(std::io::Error::other(e)),
                    _ => Ok(()),
                }
            }
        },
    ))
}
