//! The GTP engine for Go: dispatches every typed command to the game (`go::game`), the clock
//! (`go::clock`), scoring (`go::scoring`), SGF (`go::sgf`) and a move generator behind the
//! [`GoPlayer`] trait (the MCTS search, or the seeded [`RandomPlayer`]); runs the analysis
//! commands (`analysis`), GoGui graphics (`gogui`), `cputime` and pondering between commands.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::analysis::{AnalyzeArgs, Dialect, report_line};
use super::command::{
    COMMAND_NAMES, ChatPlace, Command, CommandError, GfxKind, KgsRules, KgsTime, RawCommand,
    StoneStatus,
};
use super::gogui;
use super::session::{CommandContext, CommandKind, Engine};
use crate::budget::{Budget, CancelFlag};
use crate::config::Config;
use crate::go::board::Board;
use crate::go::clock::{Clock, TimeSystem};
use crate::go::game::{Game, GameError, KoRule, Rules, Scoring};
pub use crate::go::search::Decision;
use crate::go::search::{
    CoreGate, DEAD_STONE_PLAYOUTS, MoveStat, Observer, Player, SearchOptions, SearchParams,
    SearchSnapshot, SearchSummary,
};
use crate::go::{Color, Move, Vertex, scoring, sgf};

/// A Go move generator as the GTP engine uses it. Runs on the engine thread; must return soon
/// after `budget` expires or its cancel flag is raised.
pub trait GoPlayer: Send {
    /// A move for `color` in `game` (legal, or pass), or resignation.
    fn genmove(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision;
    /// Like [`GoPlayer::genmove`], but does not pass while dead opponent stones remain on the
    /// board (KGS cleanup phase). The default is plain `genmove`.
    fn genmove_cleanup(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision {
        self.genmove(game, color, budget)
    }
    /// The stones of the current position that are dead (to be removed before counting).
    fn dead_stones(&mut self, game: &Game, budget: &Budget) -> Vec<Vertex>;
    /// The game was reset (new size, clear_board, loadsgf): forget any saved search state.
    fn new_game(&mut self) {}
    /// A search that `observer` watches while it runs (analysis, live graphics); `cleanup` as
    /// in [`GoPlayer::genmove_cleanup`], `ownership` asks for ownership in the snapshots. The
    /// default, for players without a search, reports the move `genmove` chooses as one visit
    /// (and `playouts` 0: nothing more will come of searching longer).
    fn search_live(
        &mut self,
        game: &Game,
        color: Color,
        budget: &Budget,
        cleanup: bool,
        _ownership: bool,
        observer: Option<Observer<'_>>,
    ) -> SearchSummary {
        let start = Instant::now();
        let decision = if cleanup {
            self.genmove_cleanup(game, color, budget)
        } else {
            self.genmove(game, color, budget)
        };
        let moves = match decision {
            Decision::Play(mv) => vec![MoveStat {
                mv,
                visits: 1,
                winrate: 0.5,
                prior: 1.0,
                pv: vec![mv],
            }],
            Decision::Resign => Vec::new(),
        };
        if let Some(obs) = observer {
            (obs.callback)(&SearchSnapshot {
                playouts: 0,
                root_visits: 1,
                elapsed: start.elapsed(),
                moves: moves.clone(),
                ownership: None,
            });
        }
        SearchSummary {
            decision,
            playouts: 0,
            root_visits: 1,
            elapsed: start.elapsed(),
            moves,
            tree_nodes: 1,
            stopped_early: false,
        }
    }
    /// Searches `color`'s moves in `game` until `budget` ends, to reuse the tree later
    /// (pondering on the opponent's time). The default does nothing.
    fn ponder(&mut self, _game: &Game, _color: Color, _budget: &Budget) {}
    /// The search parameters, for players that have them (GoGui's `tablero-params`).
    fn search_params(&self) -> Option<SearchParams> {
        None
    }
    /// Replaces the search parameters (the saved tree is dropped). The default ignores them.
    fn set_search_params(&mut self, _params: SearchParams) {}
}

/// A seeded uniform-random player that never fills its own eyes and treats every stone as
/// alive. It stands in where no search is configured (and in protocol tests).
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl GoPlayer for RandomPlayer {
    fn genmove(&mut self, game: &Game, color: Color, _budget: &Budget) -> Decision {
        let board = game.board();
        let mut candidates: Vec<usize> = board
            .empty_points()
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| !board.is_eye(color, p))
            .collect();
        candidates.shuffle(&mut self.rng);
        candidates
            .into_iter()
            .map(|p| Move::Play(Board::vertex_of(p)))
            .find(|&m| game.is_legal(color, m))
            .map_or(Decision::Play(Move::Pass), Decision::Play)
    }

    fn dead_stones(&mut self, _game: &Game, _budget: &Budget) -> Vec<Vertex> {
        Vec::new()
    }
}

/// The MCTS search as the GTP engine's move generator.
impl GoPlayer for Player {
    fn genmove(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision {
        let summary = self.search(game, color, budget);
        tracing::debug!(
            playouts = summary.playouts,
            root_visits = summary.root_visits,
            winrate = summary.winrate(),
            elapsed_ms = summary.elapsed.as_millis() as u64,
            "genmove {color}: {:?}",
            summary.decision
        );
        summary.decision
    }

    fn genmove_cleanup(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision {
        let options = SearchOptions {
            cleanup: true,
            ..SearchOptions::default()
        };
        self.search_with(game, color, budget, options).decision
    }

    fn search_live(
        &mut self,
        game: &Game,
        color: Color,
        budget: &Budget,
        cleanup: bool,
        ownership: bool,
        observer: Option<Observer<'_>>,
    ) -> SearchSummary {
        let options = SearchOptions {
            cleanup,
            ownership,
            ..SearchOptions::default()
        };
        self.search_observed(game, color, budget, options, observer)
    }

    fn ponder(&mut self, game: &Game, color: Color, budget: &Budget) {
        let summary = self.search(game, color, budget);
        tracing::debug!(
            playouts = summary.playouts,
            root_visits = summary.root_visits,
            "pondered {color}'s replies"
        );
    }

    fn dead_stones(&mut self, game: &Game, _budget: &Budget) -> Vec<Vertex> {
        Player::dead_stones(self, game, DEAD_STONE_PLAYOUTS)
            .into_iter()
            .flatten()
            .collect()
    }

    fn new_game(&mut self) {
        self.clear();
    }

    fn search_params(&self) -> Option<SearchParams> {
        Some(self.params().clone())
    }

    fn set_search_params(&mut self, params: SearchParams) {
        self.set_params(params);
    }
}

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
            clock: Clock::new(time_per_move, secs(config.search.lag_buffer)),
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

    /// The move's budget from its clock, capped by `limits.max_move`, counted from the
    /// command's arrival (`start`).
    fn budget(&self, color: Color, start: Instant, cancel: &CancelFlag) -> Budget {
        let size = self.game.size();
        let time = self
            .clock
            .move_budget(color, self.game.move_count(), size * size);
        Budget::new(start + self.limits.cap_move(time), cancel.clone())
    }

    /// Generates a move; `play` puts it on the board. Never returns an illegal move. With
    /// `analyze`, the search's reports are streamed and the result is `play <move>`.
    fn generate(
        &mut self,
        color: Color,
        cleanup: bool,
        play: bool,
        ctx: &mut CommandContext<'_>,
        analyze: Option<&AnalyzeArgs>,
    ) -> Result<String, CommandError> {
        let start = ctx.received();
        let budget = self.budget(color, start, ctx.cancel_flag());
        let decision = if let Some(args) = analyze {
            ctx.stream("");
            let summary = {
                let mut report = |snapshot: &SearchSnapshot| {
                    if let Some(line) = report_line(args, color, snapshot) {
                        ctx.stream(&line);
                    }
                };
                // Without an interval only the search's last snapshot is reported: as KataGo, one
                // `info` line always precedes `play` (the CGOS client reads it).
                let observer = Observer {
                    interval: args.interval.unwrap_or(ANALYSIS_HORIZON),
                    callback: &mut report,
                };
                self.player.search_live(
                    &self.game,
                    color,
                    &budget,
                    cleanup,
                    args.ownership,
                    Some(observer),
                )
            };
            filtered_decision(args, color, &summary, &self.game)
        } else if self.live_gfx {
            let sink = &mut self.gfx_sink;
            let summary = {
                let mut draw =
                    |snapshot: &SearchSnapshot| sink(&gogui::live_block(snapshot, color));
                let observer = Observer {
                    interval: LIVE_GFX_INTERVAL,
                    callback: &mut draw,
                };
                self.player
                    .search_live(&self.game, color, &budget, cleanup, false, Some(observer))
            };
            // Before the response, so that GoGui does not draw stale markup afterwards.
            sink(gogui::LIVE_CLEAR);
            summary.decision
        } else if cleanup {
            self.player.genmove_cleanup(&self.game, color, &budget)
        } else {
            self.player.genmove(&self.game, color, &budget)
        };
        let prefix = if analyze.is_some() { "play " } else { "" };
        let mv = match decision {
            Decision::Resign => {
                if play {
                    self.clock.record_move(color, start.elapsed());
                }
                return Ok(format!("{prefix}resign"));
            }
            Decision::Play(m) if self.game.is_legal(color, m) => m,
            Decision::Play(m) => {
                tracing::error!("player chose illegal {m} for {color}; passing instead");
                Move::Pass
            }
        };
        if play {
            self.game
                .play(color, mv)
                .map_err(|_| CommandError::IllegalMove)?;
            self.clock.record_move(color, start.elapsed());
            self.ponder_for = Some(color.opponent());
        }
        Ok(format!("{prefix}{mv}"))
    }

    /// `lz-analyze` and friends: searches until stopped, streaming a report every interval.
    fn analyze(
        &mut self,
        args: &AnalyzeArgs,
        ctx: &mut CommandContext<'_>,
    ) -> Result<String, CommandError> {
        let color = args.color.unwrap_or(self.game.to_move());
        ctx.stream("");
        let horizon = self.limits.cap_analysis(ANALYSIS_HORIZON);
        let budget = Budget::new(ctx.received() + horizon, ctx.cancel_flag().clone());
        let mut reported = Instant::now();
        loop {
            let summary = {
                let mut report = |snapshot: &SearchSnapshot| {
                    // The search also calls back when it ends: no report right after another,
                    // and none once the analysis was stopped.
                    let due = args.interval.is_some_and(|i| reported.elapsed() >= i / 2);
                    if due && !ctx.is_cancelled() {
                        if let Some(line) = report_line(args, color, snapshot) {
                            ctx.stream(&line);
                        }
                        reported = Instant::now();
                    }
                };
                let observer = args.interval.map(|interval| Observer {
                    interval,
                    callback: &mut report,
                });
                self.player
                    .search_live(&self.game, color, &budget, false, args.ownership, observer)
            };
            if budget.expired() {
                break;
            }
            if summary.playouts == 0 {
                // Nothing more to learn (no search, or nothing to search): wait to be stopped.
                while !budget.expired() {
                    std::thread::sleep(Duration::from_millis(2));
                }
                break;
            }
            // The search stopped by itself (a playout cap): go on with the same tree.
        }
        Ok(String::new())
    }

    /// The `tablero-*` GoGui analyze commands: a search of `analysis_time`, then its picture.
    fn gfx(
        &mut self,
        kind: GfxKind,
        color: Option<Color>,
        ctx: &CommandContext<'_>,
    ) -> Result<String, CommandError> {
        let color = color.unwrap_or(self.game.to_move());
        let budget = Budget::new(
            ctx.received() + self.limits.cap_move(self.analysis_time),
            ctx.cancel_flag().clone(),
        );
        let mut last: Option<SearchSnapshot> = None;
        {
            let mut keep = |snapshot: &SearchSnapshot| last = Some(snapshot.clone());
            let observer = Observer {
                // Only the snapshot at the end is wanted.
                interval: ANALYSIS_HORIZON,
                callback: &mut keep,
            };
            let ownership = kind == GfxKind::Ownership;
            self.player
                .search_live(&self.game, color, &budget, false, ownership, Some(observer));
        }
        let snapshot = last.ok_or_else(|| CommandError::Other("no search result".into()))?;
        Ok(match kind {
            GfxKind::Pv => gogui::pv(&snapshot),
            GfxKind::Visits => gogui::visits(&snapshot, color),
            GfxKind::Winrates => gogui::winrates(&snapshot, color),
            GfxKind::Ownership => {
                let own = snapshot
                    .ownership
                    .as_ref()
                    .ok_or_else(|| CommandError::Other("no ownership estimate".into()))?;
                gogui::ownership(own, self.game.size())
            }
        })
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

    fn loadsgf(&mut self, file: &str, move_number: Option<usize>) -> Result<String, CommandError> {
        let path = match &self.limits.sgf {
            SgfAccess::Any => Some(PathBuf::from(file)),
            SgfAccess::Below(dir) => confined(dir, file),
            SgfAccess::Refused => {
                return Err(CommandError::Other(
                    "loadsgf is disabled on this server (no server.sgf_dir)".into(),
                ));
            }
        };
        // One message for a missing, unreadable or forbidden file: the answer tells nothing
        // about files outside the SGF directory.
        let text = path
            .and_then(|p| read_sgf_file(&p))
            .ok_or_else(|| CommandError::Other(format!("cannot open or parse '{file}'")))?;
        let cannot_load = |why: String| CommandError::Other(format!("cannot load '{file}': {why}"));
        check_sgf_size(&text).map_err(cannot_load)?;
        let game = sgf::load(&text, *self.game.rules(), move_number)
            .map_err(|e| cannot_load(e.to_string()))?;
        self.game = game;
        self.player.new_game();
        Ok(self.game.to_move().to_string())
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
            Command::ListCommands => Ok(COMMAND_NAMES
                .iter()
                .filter(|c| self.listed(c))
                .copied()
                .collect::<Vec<_>>()
                .join("\n")),
            // The session answers `quit` itself; this is for direct callers.
            Command::Quit => ok(),
            Command::Boardsize(n) => self.reset(n).and_then(|()| ok()),
            Command::ClearBoard => {
                let size = self.game.size();
                self.reset(size)?;
                ok()
            }
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
            Command::Undo => {
                if self.game.undo() {
                    ok()
                } else {
                    Err(E::CannotUndo)
                }
            }
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
            Command::FinalStatusList(status) => {
                let dead = self.dead(ctx);
                Ok(match status {
                    StoneStatus::Alive => self.chains(&dead, false),
                    StoneStatus::Dead => self.chains(&dead, true),
                    // Seki is not told apart from independent life: reported as alive.
                    StoneStatus::Seki => String::new(),
                })
            }
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
            Command::Params(None) => Ok(self.gui_settings()?.listing()),
            Command::Params(Some((key, value))) => {
                let mut settings = self.gui_settings()?;
                settings
                    .set(&key, &value)
                    .map_err(|e| E::Other(e.to_string()))?;
                self.apply_gui_settings(&settings)?;
                ok()
            }
        }
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

/// The decision of a `genmove_analyze` search, honouring the request's `avoid`/`allow`: a
/// filtered-out choice is replaced by the most visited permitted legal move, else a pass.
fn filtered_decision(
    args: &AnalyzeArgs,
    color: Color,
    summary: &SearchSummary,
    game: &Game,
) -> Decision {
    match summary.decision {
        Decision::Play(mv) if !args.permits(color, mv) => summary
            .moves
            .iter()
            .filter(|m| m.visits > 0 && args.permits(color, m.mv) && game.is_legal(color, m.mv))
            .map(|m| Decision::Play(m.mv))
            .next()
            .unwrap_or(Decision::Play(Move::Pass)),
        d => d,
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

/// Largest SGF file `loadsgf` reads.
const MAX_SGF_BYTES: u64 = 8 << 20;
/// Most nodes (`;`) and game trees (`(`) an SGF file may hold: the SGF parser recurses once
/// per node, so this bounds its stack use (see [`super::session::ENGINE_STACK`]).
const MAX_SGF_NODES: usize = 20_000;

/// `file` resolved below `dir` (symbolic links followed), if it exists there; `None` for
/// absolute names, names that leave `dir`, and missing files alike.
fn confined(dir: &Path, file: &str) -> Option<PathBuf> {
    let name = Path::new(file);
    if name.is_absolute() {
        return None;
    }
    let root = dir.canonicalize().ok()?;
    let path = root.join(name).canonicalize().ok()?;
    path.starts_with(&root).then_some(path)
}

/// The text of a regular file of at most [`MAX_SGF_BYTES`]; `None` if it cannot be read.
fn read_sgf_file(file: &Path) -> Option<String> {
    use std::io::Read;
    let f = std::fs::File::open(file).ok()?;
    // Not a FIFO, device or directory: those could block or never end.
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    f.take(MAX_SGF_BYTES + 1).read_to_string(&mut text).ok()?;
    Some(text)
}

/// Rejects SGF texts too large or too deeply structured for the parser.
fn check_sgf_size(text: &str) -> Result<(), String> {
    if text.len() as u64 > MAX_SGF_BYTES {
        return Err(format!("SGF file larger than {MAX_SGF_BYTES} bytes"));
    }
    let (mut in_value, mut escaped, mut nodes) = (false, false, 0usize);
    for c in text.chars() {
        match (in_value, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, ']') => in_value = false,
            (false, _, '[') => in_value = true,
            (false, _, ';' | '(') => nodes += 1,
            _ => {}
        }
        if nodes > MAX_SGF_NODES {
            return Err(format!("SGF file has more than {MAX_SGF_NODES} nodes"));
        }
    }
    Ok(())
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
