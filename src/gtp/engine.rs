//! The GTP engine for Go: dispatches every typed command to the game (`go::game`), the clock
//! (`go::clock`), scoring (`go::scoring`), SGF (`go::sgf`) and a move generator behind the
//! [`GoPlayer`] trait (the MCTS search, or the seeded [`RandomPlayer`]); runs the analysis
//! commands (`analysis`), GoGui graphics (`gogui`), `cputime` and pondering between commands.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::analysis::Dialect;
use super::command::{
    COMMAND_NAMES, ChatPlace, Command, CommandError, KgsRules, KgsTime, RawCommand, StoneStatus,
};
use super::gogui;
use super::session::{CommandContext, CommandKind, Engine};
use crate::budget::{Budget, CancelFlag};
use crate::config::Config;
use crate::go::board::Board;
use crate::go::clock::{Clock, TimeSystem};
use crate::go::game::{Game, GameError, KoRule, Rules, Scoring};
pub use crate::go::search::Decision;
use crate::go::search::{CoreGate, Player};
use crate::go::{Color, Vertex, scoring, sgf};

mod genmove;
mod player;
mod sgf_file;

pub use player::{GoPlayer, RandomPlayer};

/// The engine `tablero gtp` and `tablero serve` run: the configured board and rules, the MCTS
/// search with the `[search]` parameters.
pub fn go_engine(config: &Config) -> Result<GoEngine, String> {
    let params = config.search.params();
    GoEngine::new(config, Box::new(Player::new(params))).map_err(|e| e.to_string())
}

/// The engine of one `tablero serve` session: [`go_engine`] with the daemon's limits, its
/// search sharing the daemon's cores through `gate`.
pub fn daemon_engine(
    config: &Config,
    limits: EngineLimits,
    gate: Arc<CoreGate>,
) -> Result<GoEngine, String> {
    let params = config.search.params();
    let mut player = Player::new(params);
    player.set_gate(Some(gate));
    let mut engine = GoEngine::new(config, Box::new(player)).map_err(|e| e.to_string())?;
    engine.set_limits(limits);
    Ok(engine)
}

/// Where `loadsgf` may read files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SgfAccess {
    /// Any file the process can read (stdin/stdout sessions: the user runs the engine).
    #[default]
    Any,
    /// Only regular files below this directory (a daemon with `server.sgf_dir`).
    Below(PathBuf),
    /// Never (a daemon without `server.sgf_dir`).
    Refused,
}

/// What a session may ask of the engine. The defaults (no caps, any file) are those of a
/// stdin/stdout session; `tablero serve` sets them from `[server]`.
#[derive(Clone, Debug, Default)]
pub struct EngineLimits {
    /// Longest search of a genmove (or GoGui analysis), whatever the client's clock.
    pub max_move: Option<Duration>,
    /// Longest analysis (`lz-analyze` and the like) or pondering, even if never stopped.
    pub max_analysis: Option<Duration>,
    pub sgf: SgfAccess,
}

impl EngineLimits {
    fn cap_move(&self, t: Duration) -> Duration {
        self.max_move.map_or(t, |m| t.min(m))
    }
    fn cap_analysis(&self, t: Duration) -> Duration {
        self.max_analysis.map_or(t, |m| t.min(m))
    }
}

/// How far away the deadline of an analysis lies: it runs until stopped.
const ANALYSIS_HORIZON: Duration = Duration::from_secs(30 * 24 * 3600);
/// How often live graphics are written during genmove.
const LIVE_GFX_INTERVAL: Duration = Duration::from_millis(300);

/// The clock of a `kgs-time_settings` command; a system with no overtime periods is absolute.
fn kgs_time_system(system: KgsTime) -> TimeSystem {
    match system {
        KgsTime::None => TimeSystem::Unlimited,
        KgsTime::Absolute { main } => TimeSystem::Absolute { main: secs(main) },
        KgsTime::Canadian {
            main,
            period,
            stones,
        } if stones > 0 && period > 0.0 => TimeSystem::from_gtp(secs(main), secs(period), stones),
        KgsTime::Byoyomi {
            main,
            period,
            periods,
        } if periods > 0 && period > 0.0 => TimeSystem::Byoyomi {
            main: secs(main),
            period: secs(period),
            periods,
        },
        KgsTime::Canadian { main, .. } | KgsTime::Byoyomi { main, .. } => {
            TimeSystem::Absolute { main: secs(main) }
        }
    }
}

/// Where `gogui-gfx:` text goes (stderr unless a test captures it).
pub type GfxSink = Box<dyn FnMut(&str) + Send>;

/// How long `final_score` / `final_status_list` may think about dead stones.
const STATUS_TIME: Duration = Duration::from_secs(2);

/// tablero's GTP engine for Go.
pub struct GoEngine {
    name: String,
    game: Game,
    clock: Clock,
    player: Box<dyn GoPlayer>,
    /// The last dead-stone estimate and the position (hash, move count) it is for, so that
    /// `final_score` and `final_status_list` agree on one position.
    dead_cache: Option<(u64, usize, Vec<Vertex>)>,
    /// `search.ponder`: search the opponent's replies between commands after genmove.
    ponder: bool,
    /// The colour to ponder for once the engine is idle (set by genmove).
    ponder_for: Option<Color>,
    /// `gtp.live_gfx`: GoGui live graphics during genmove.
    live_gfx: bool,
    gfx_sink: GfxSink,
    /// Search time of the `tablero-*` GoGui analyze commands.
    analysis_time: Duration,
    limits: EngineLimits,
    /// `gtp.analysis_min_visits`.
    analysis_min_visits: u32,
    /// `gtp.kgs_chat`: list `kgs-chat` in `list_commands`.
    kgs_chat: bool,
}

impl GoEngine {
    /// A fresh engine with the board size, rules and times of `config`.
    pub fn new(config: &Config, player: Box<dyn GoPlayer>) -> Result<GoEngine, GameError> {
        let time_per_move = secs(config.search.time_per_move);
        Ok(GoEngine {
            name: config.gtp.name.clone(),
            game: Game::new(config.go.boardsize, config.go.rules())?,
            clock: Clock::new(time_per_move, secs(config.search.lag_buffer))
                .with_extension(config.search.time_extension),
            player,
            dead_cache: None,
            ponder: config.search.ponder,
            ponder_for: None,
            live_gfx: config.gtp.live_gfx,
            gfx_sink: Box::new(|text: &str| eprintln!("{text}")),
            analysis_time: time_per_move,
            limits: EngineLimits::default(),
            analysis_min_visits: config.gtp.analysis_min_visits,
            kgs_chat: config.gtp.kgs_chat,
        })
    }

    /// Sets the session's caps and `loadsgf` access.
    pub fn set_limits(&mut self, limits: EngineLimits) {
        self.limits = limits;
    }

    /// Sends live graphics to `sink` instead of stderr (tests).
    pub fn set_gfx_sink(&mut self, sink: GfxSink) {
        self.gfx_sink = sink;
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn reset(&mut self, size: usize) -> Result<(), CommandError> {
        self.game =
            Game::new(size, *self.game.rules()).map_err(|_| CommandError::UnacceptableSize)?;
        // A new game starts both clocks afresh under the same time system.
        self.clock.set_system(self.clock.system());
        self.player.new_game();
        Ok(())
    }

    fn dead(&mut self, ctx: &CommandContext<'_>) -> Vec<Vertex> {
        let key = (self.game.board().hash(), self.game.move_count());
        if let Some((hash, count, dead)) = &self.dead_cache
            && (*hash, *count) == key
        {
            return dead.clone();
        }
        let budget = Budget::new(Instant::now() + STATUS_TIME, ctx.cancel_flag().clone());
        let size = self.game.size();
        let board = self.game.board();
        let mut dead: Vec<Vertex> = self
            .player
            .dead_stones(&self.game, &budget)
            .into_iter()
            .filter(|v| v.on_board(size) && board.get(*v).is_some())
            .collect();
        dead.sort();
        dead.dedup();
        if !ctx.is_cancelled() {
            self.dead_cache = Some((key.0, key.1, dead.clone()));
        }
        dead
    }

    /// One line per chain, vertices sorted, chains in order of their first vertex.
    fn chains(&self, dead: &[Vertex], want_dead: bool) -> String {
        let board = self.game.board();
        let mut lines = BTreeSet::new();
        let mut seen = BTreeSet::new();
        for p in board.points() {
            if board.cell(p).color().is_none() || !seen.insert(board.chain_head(p)) {
                continue;
            }
            let mut stones: Vec<Vertex> =
                board.chain(p).into_iter().map(Board::vertex_of).collect();
            stones.sort();
            let is_dead = stones.iter().any(|v| dead.contains(v));
            if let Some(&first) = stones.first()
                && is_dead == want_dead
            {
                let text: Vec<String> = stones.iter().map(Vertex::to_string).collect();
                lines.insert((first, text.join(" ")));
            }
        }
        lines
            .into_iter()
            .map(|(_, l)| l)
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn showboard(&self) -> String {
        let board = self.game.board();
        let rules = self.game.rules();
        format!(
            "\n{}\nBlack (X) captures {}, White (O) captures {}\nkomi {}, {} to move, {} moves",
            board.to_ascii(),
            board.captures(Color::Black),
            board.captures(Color::White),
            rules.komi,
            self.game.to_move(),
            self.game.move_count()
        )
    }

    fn set_rules(&mut self, rules: KgsRules) {
        let komi = self.game.rules().komi;
        let (scoring, ko) = match rules {
            KgsRules::Japanese => (Scoring::Territory, KoRule::Simple),
            KgsRules::Chinese | KgsRules::Aga | KgsRules::NewZealand => {
                (Scoring::Area, KoRule::Positional)
            }
        };
        self.game.set_rules(Rules { scoring, ko, komi });
    }

    /// Runs one typed command.
    pub fn run(
        &mut self,
        cmd: Command,
        ctx: &mut CommandContext<'_>,
    ) -> Result<String, CommandError> {
        use CommandError as E;
        let ok = || Ok(String::new());
        match cmd {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok(self.name.clone()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(name) => Ok(self.listed(&name).to_string()),
            Command::ListCommands => Ok(self.command_list()),
            // The session answers `quit` itself; this is for direct callers.
            Command::Quit => ok(),
            Command::Boardsize(n) => self.reset(n).and_then(|()| ok()),
            Command::ClearBoard => self.reset(self.game.size()).and_then(|()| ok()),
            Command::Komi(k) => {
                self.game.set_komi(k);
                ok()
            }
            Command::Play(color, mv) => {
                self.game.play(color, mv).map_err(|_| E::IllegalMove)?;
                ok()
            }
            Command::Genmove(color) => self.generate(color, false, true, ctx, None),
            Command::KgsGenmoveCleanup(color) => self.generate(color, true, true, ctx, None),
            Command::RegGenmove(color) => self.generate(color, false, false, ctx, None),
            Command::GenmoveAnalyze(mut args) => {
                args.min_visits = self.analysis_min_visits;
                let color = args.color.unwrap_or(self.game.to_move());
                self.generate(color, false, true, ctx, Some(&args))
            }
            Command::Analyze(mut args) => {
                args.min_visits = self.analysis_min_visits;
                self.analyze(&args, ctx)
            }
            Command::Gfx(kind, color) => self.gfx(kind, color, ctx),
            Command::Cputime => cpu_seconds()
                .map(|s| format!("{s:.3}"))
                .ok_or_else(|| E::Other("CPU time not available".into())),
            Command::Undo => self.undo(),
            Command::FixedHandicap(n) => self.place_handicap(n, true),
            Command::PlaceFreeHandicap(n) => self.place_handicap(n, false),
            Command::SetFreeHandicap(stones) => {
                self.set_handicap(&stones)?;
                ok()
            }
            Command::TimeSettings {
                main,
                byo_time,
                byo_stones,
            } => {
                self.clock
                    .set_system(TimeSystem::from_gtp(secs(main), secs(byo_time), byo_stones));
                ok()
            }
            Command::KgsTimeSettings(system) => {
                self.clock.set_system(kgs_time_system(system));
                ok()
            }
            Command::TimeLeft {
                color,
                time,
                stones,
            } => {
                self.clock.time_left(color, secs(time), stones);
                ok()
            }
            Command::FinalScore => {
                let dead = self.dead(ctx);
                Ok(scoring::score(&self.game, &dead).to_string())
            }
            Command::FinalStatusList(status) => Ok(self.final_status_list(status, ctx)),
            Command::Showboard => Ok(self.showboard()),
            Command::Loadsgf { file, move_number } => self.loadsgf(&file, move_number),
            Command::Printsgf => Ok(sgf::save(&self.game)),
            Command::KgsRules(rules) => {
                self.set_rules(rules);
                ok()
            }
            Command::GoguiAnalyzeCommands => Ok(gogui::ANALYZE_COMMANDS.join("\n")),
            Command::GoguiInterrupt => ok(),
            Command::KgsGameOver => {
                self.log_game_over();
                ok()
            }
            Command::KgsChat {
                place,
                from,
                message,
            } => self.chat(place, &from, &message),
            Command::Params(setting) => self.params(setting),
        }
    }

    /// `list_commands`: the commands this engine lists, one a line.
    fn command_list(&self) -> String {
        COMMAND_NAMES
            .iter()
            .filter(|c| self.listed(c))
            .copied()
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `undo`: takes back the last move.
    fn undo(&mut self) -> Result<String, CommandError> {
        if self.game.undo() {
            Ok(String::new())
        } else {
            Err(CommandError::CannotUndo)
        }
    }

    /// `final_status_list`: the alive or dead stones by chain.
    fn final_status_list(&mut self, status: StoneStatus, ctx: &CommandContext<'_>) -> String {
        let dead = self.dead(ctx);
        match status {
            StoneStatus::Alive => self.chains(&dead, false),
            StoneStatus::Dead => self.chains(&dead, true),
            // Seki is not told apart from independent life: reported as alive.
            StoneStatus::Seki => String::new(),
        }
    }

    /// `tablero-params`: lists the GUI settings, or sets one (`key`, `value`).
    fn params(&mut self, setting: Option<(String, String)>) -> Result<String, CommandError> {
        let mut settings = self.gui_settings()?;
        let Some((key, value)) = setting else {
            return Ok(settings.listing());
        };
        settings
            .set(&key, &value)
            .map_err(|e| CommandError::Other(e.to_string()))?;
        self.apply_gui_settings(&settings)?;
        Ok(String::new())
    }

    /// `fixed_handicap` (`fixed`) or `place_free_handicap`: places the stones on an empty
    /// board and lists them.
    fn place_handicap(&mut self, n: usize, fixed: bool) -> Result<String, CommandError> {
        if !self.board_is_empty() {
            return Err(CommandError::BoardNotEmpty);
        }
        let size = self.game.size();
        let stones = if fixed {
            Game::fixed_handicap_vertices(size, n)
        } else {
            Game::free_handicap_vertices(size, n)
        }
        .ok_or(CommandError::InvalidHandicap)?;
        self.set_handicap(&stones)?;
        Ok(stones
            .iter()
            .map(Vertex::to_string)
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// `kgs-game_over`: logs the end. The game may only be adjourned, so the board stays.
    fn log_game_over(&self) {
        let last = self
            .game
            .history()
            .next_back()
            .map(|(c, m)| format!("{c} {m}"));
        tracing::info!(
            moves = self.game.move_count(),
            last = last.as_deref().unwrap_or("none"),
            "kgs-game_over: the game ended"
        );
    }

    /// Whether `name` is listed by `list_commands` / `known_command`: every command but
    /// `kgs-chat` unless `gtp.kgs_chat` (kgsGtp 3.5.20 and later are reported to fail on it).
    fn listed(&self, name: &str) -> bool {
        COMMAND_NAMES.contains(&name) && (name != "kgs-chat" || self.kgs_chat)
    }

    /// `kgs-chat`: a short polite answer to a private message or to a game message that names
    /// the engine; anything else is ignored (an error answer: kgsGtp then says nothing).
    fn chat(&self, place: ChatPlace, from: &str, message: &str) -> Result<String, CommandError> {
        let addressed = message.to_lowercase().contains(&self.name.to_lowercase());
        tracing::info!(?place, from, message, "kgs-chat");
        if place == ChatPlace::Private || addressed {
            Ok(format!(
                "Hello {from}, I am {} {}, a Go program; I cannot chat, but thank you for the message.",
                self.name,
                env!("CARGO_PKG_VERSION")
            ))
        } else {
            Err(CommandError::Other("no reply".into()))
        }
    }

    /// The settings `tablero-params` shows, from the player's search parameters and the clock.
    fn gui_settings(&self) -> Result<gogui::GuiSettings, CommandError> {
        let p = self
            .player
            .search_params()
            .ok_or_else(|| CommandError::Other("this player has no search parameters".into()))?;
        Ok(gogui::GuiSettings {
            playouts: p.max_playouts,
            time_per_move: self.clock.unlimited_per_move().as_secs_f64(),
            threads: p.threads,
            uct_c: p.uct_c,
            resign_threshold: p.resign_threshold,
            rave_equiv: p.rave_equiv,
            priors: p.priors,
            ponder: self.ponder,
        })
    }

    fn apply_gui_settings(&mut self, s: &gogui::GuiSettings) -> Result<(), CommandError> {
        let mut p = self
            .player
            .search_params()
            .ok_or_else(|| CommandError::Other("this player has no search parameters".into()))?;
        p.max_playouts = s.playouts;
        p.threads = s.threads;
        p.uct_c = s.uct_c;
        p.resign_threshold = s.resign_threshold;
        p.rave_equiv = s.rave_equiv;
        p.priors = s.priors;
        if self.player.search_params().as_ref() != Some(&p) {
            self.player.set_search_params(p);
        }
        let per_move = secs(s.time_per_move);
        self.clock.set_unlimited_per_move(per_move);
        self.analysis_time = per_move;
        self.ponder = s.ponder;
        Ok(())
    }

    fn board_is_empty(&self) -> bool {
        let b = self.game.board();
        self.game.move_count() == 0
            && b.stones_on_board(Color::Black) + b.stones_on_board(Color::White) == 0
    }

    fn set_handicap(&mut self, stones: &[Vertex]) -> Result<(), CommandError> {
        self.game.set_handicap(stones).map_err(|e| match e {
            GameError::BoardNotEmpty => CommandError::BoardNotEmpty,
            GameError::InvalidHandicap | GameError::InvalidSetup | GameError::Size(_) => {
                CommandError::InvalidHandicap
            }
        })
    }
}

/// CPU seconds used by the whole process (all threads), from `/proc/self/stat` (Linux).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the parenthesised command name start with field 3 (state); utime and
    // stime are fields 14 and 15, in clock ticks of USER_HZ = 100 (fixed by the Linux ABI).
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

/// Seconds as a duration, clamped to 0..=10^7 s so that clock arithmetic cannot overflow.
fn secs(s: f64) -> Duration {
    Duration::try_from_secs_f64(s.clamp(0.0, 1e7)).unwrap_or(Duration::ZERO)
}

impl Engine for GoEngine {
    fn execute(
        &mut self,
        cmd: &RawCommand,
        ctx: &mut CommandContext<'_>,
    ) -> Result<String, String> {
        // Pondering follows only directly after a genmove.
        self.ponder_for = None;
        let typed = Command::parse(cmd, self.game.size()).map_err(|e| e.to_string())?;
        self.run(typed, ctx).map_err(|e| e.to_string())
    }

    fn kind(&self, cmd: &RawCommand) -> CommandKind {
        match Dialect::of_command(&cmd.name) {
            Some((_, false)) => CommandKind::Streaming,
            _ => CommandKind::Normal,
        }
    }

    fn idle(&mut self, stop: &CancelFlag) {
        if !self.ponder || self.game.is_over() {
            return;
        }
        if let Some(color) = self.ponder_for.take() {
            let horizon = self.limits.cap_analysis(ANALYSIS_HORIZON);
            let budget = Budget::new(Instant::now() + horizon, stop.clone());
            self.player.ponder(&self.game, color, &budget);
        }
    }
}
