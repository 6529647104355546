//! The one configuration: a TOML file (`configs/tablero.toml` documents every key), defaults for
//! every key, `--set section.key=value` overrides, and validation with clear errors.
//!
//! [`Config::load`] reads the file (or none), checks every key and value type against the
//! defaults (so a typo is reported as `unknown config key "search.uct"`), applies the overrides
//! on the same value tree, deserializes, and finally runs [`Config::validate`].

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::{Table, Value};

use crate::go::game::{KoRule, Rules, Scoring};
use crate::go::search::SearchParams;
use crate::go::search::playout::PlayoutPolicy;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub log: LogConfig,
    pub server: ServerConfig,
    pub gtp: GtpConfig,
    pub go: GoConfig,
    pub search: SearchConfig,
    pub diplomacy: DiplomacyConfig,
    pub gvgai: GvgaiConfig,
    /// `[jic]`: the JIC Diplomacy bot (every bot named "jic"/"jic-thesis").
    pub jic: crate::bots::jic::JicConfig,
    /// `[evolve]`: dungeon GA and NPC GP (`tablero evolve`, `protocols/evolution.md`).
    pub evolve: EvolveConfig,
    /// `[planning]`: planners of `tablero gvgai plan` and the `planner` controller.
    pub planning: PlanningConfig,
}

/// `[gvgai]`: the GVG-AI line adapter (`protocols/gvgai-line.md`) in `tablero serve` and the
/// defaults of `tablero gvgai connect|host`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GvgaiConfig {
    /// Address `tablero serve` listens on for GVG-AI game runners (one controller session per
    /// connection).
    pub listen: String,
    /// Most GVG-AI sessions served at once by `tablero serve`.
    pub max_connections: usize,
    /// Longest accepted line in bytes (observations of large levels are ~100 KB).
    pub max_line_bytes: usize,
    /// Milliseconds a controller gets per act (GVG-AI: 40).
    pub act_ms: u64,
    /// Milliseconds a controller gets to initialise at each level (GVG-AI: 1000).
    pub init_ms: u64,
    /// Controller served by `tablero serve` (a `--controller` name).
    pub controller: String,
    /// Game whose rules give served controllers their forward model ("" = none: controllers
    /// that need one play `random`).
    pub game: String,
    /// Folder of VGDL games ("" = the games tablero ships).
    pub games_dir: String,
    /// Seed of the served controllers (session n uses seed + n).
    pub seed: u64,
    /// Seconds a game server (`tablero gvgai host`) waits for a client's reply before closing.
    pub reply_timeout: f64,
}

impl Default for GvgaiConfig {
    fn default() -> Self {
        Self {
            listen: "127.0.0.1:8090".into(),
            max_connections: 8,
            max_line_bytes: 4 * 1024 * 1024,
            act_ms: 40,
            init_ms: 1000,
            controller: "mcts".into(),
            game: String::new(),
            games_dir: String::new(),
            seed: 0,
            reply_timeout: 60.0,
        }
    }
}

/// `[planning]`: the planners of `tablero gvgai plan` and the `planner` controller.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlanningConfig {
    /// Fast Downward driver (`fast-downward.py`) or executable; empty: the
    /// TABLERO_FAST_DOWNWARD environment variable, then `fast-downward(.py)` on PATH.
    pub fast_downward: String,
    /// Fast Downward `--alias` used when `fd_search` is empty.
    pub fd_alias: String,
    /// Fast Downward `--search` string (e.g. "astar(lmcut())"); empty: use `fd_alias`.
    pub fd_search: String,
    /// Python interpreter that runs a `.py` driver.
    pub fd_python: String,
    /// Default seconds for `tablero gvgai plan` (--timeout overrides).
    pub timeout: f64,
}

impl Default for PlanningConfig {
    fn default() -> Self {
        Self {
            fast_downward: String::new(),
            fd_alias: "lama-first".into(),
            fd_search: String::new(),
            fd_python: "python3".into(),
            timeout: 10.0,
        }
    }
}

impl GvgaiConfig {
    /// The listen address as a socket address.
    pub fn listen_addr(&self) -> Result<SocketAddr, ConfigError> {
        self.listen.parse().map_err(|e| {
            ConfigError::invalid(
                "gvgai.listen",
                format!(
                    "{:?}: {e} (expected IP:PORT, e.g. 127.0.0.1:8090)",
                    self.listen
                ),
            )
        })
    }
}

impl PlanningConfig {
    /// The Fast Downward call this section describes.
    pub fn fd_config(&self) -> crate::planning::fast_downward::FdConfig {
        crate::planning::fast_downward::FdConfig {
            path: (!self.fast_downward.is_empty()).then(|| PathBuf::from(&self.fast_downward)),
            alias: self.fd_alias.clone(),
            search: self.fd_search.clone(),
            python: self.fd_python.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiplomacyConfig {
    /// Bot seats `tablero serve` keeps in the games of DAIDE servers.
    pub bots: Vec<DiplomacyBotConfig>,
    /// Other programs that can take a seat in `tablero diplomacy play`.
    pub external: Vec<ExternalSeatConfig>,
    /// First reconnection delay in seconds (doubled after each failure).
    pub reconnect_initial: f64,
    /// Longest reconnection delay in seconds.
    pub reconnect_max: f64,
    /// Seconds a bot may think per phase when the server sets no deadline.
    pub think_time: f64,
    /// Seed of the bots' random choices (each seat and game derives its own).
    pub seed: u64,
}

impl Default for DiplomacyConfig {
    fn default() -> Self {
        Self {
            bots: Vec::new(),
            external: Vec::new(),
            reconnect_initial: 1.0,
            reconnect_max: 60.0,
            think_time: 5.0,
            seed: 0,
        }
    }
}

/// `[evolve]`: the dungeon GA and the NPC GP (`tablero evolve`). The thesis gives almost no
/// numbers; every value here is tablero's choice (see `protocols/evolution.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvolveConfig {
    pub dungeon_population: usize,
    pub dungeon_generations: usize,
    pub dungeon_selection: crate::evolve::ga::Selection,
    pub dungeon_tournament: usize,
    pub dungeon_ranking_pressure: f64,
    pub dungeon_shift_epsilon: f64,
    pub dungeon_elitism: usize,
    pub dungeon_crossover_rate: f64,
    pub dungeon_crossover_cuts: usize,
    pub dungeon_cross_edges_min: usize,
    pub dungeon_cross_edges_max: usize,
    pub dungeon_mutation_rate: f64,
    pub dungeon_combined_mutation: crate::evolve::dungeon::Combined,
    pub dungeon_stagnation: usize,
    pub dungeon_init_rooms_min: usize,
    pub dungeon_init_rooms_max: usize,
    pub dungeon_init_edge_factor: f64,
    pub dungeon_room_side_min: u32,
    pub dungeon_room_side_max: u32,
    pub dungeon_enemies_max: u32,
    pub dungeon_chests_max: u32,
    pub dungeon_rooms_weight: f64,
    pub dungeon_window_min: usize,
    pub dungeon_window_max: usize,
    pub dungeon_window_penalty: f64,
    pub dungeon_check_controller: String,
    pub dungeon_check_act_ms: u64,
    pub dungeon_check_expansions: usize,
    pub npc_population: usize,
    pub npc_generations: usize,
    pub npc_tournament: usize,
    pub npc_elitism: usize,
    pub npc_crossover_rate: f64,
    pub npc_mutation_rate: f64,
    pub npc_min_depth: usize,
    pub npc_max_depth: usize,
    pub npc_depth_cap: usize,
    pub npc_turns: usize,
    pub npc_player_hp: u32,
    pub npc_hp: u32,
    pub npc_detection_range: u32,
    pub npc_heal_turns: u32,
    pub npc_threads: usize,
}

impl Default for EvolveConfig {
    fn default() -> Self {
        Self {
            dungeon_population: 100,
            dungeon_generations: 100,
            dungeon_selection: crate::evolve::ga::Selection::Tournament,
            dungeon_tournament: 3,
            dungeon_ranking_pressure: 1.5,
            dungeon_shift_epsilon: 0.01,
            dungeon_elitism: 2,
            dungeon_crossover_rate: 0.8,
            dungeon_crossover_cuts: 1,
            dungeon_cross_edges_min: 1,
            dungeon_cross_edges_max: 3,
            dungeon_mutation_rate: 0.2,
            dungeon_combined_mutation: crate::evolve::dungeon::Combined::One,
            dungeon_stagnation: 0,
            dungeon_init_rooms_min: 15,
            dungeon_init_rooms_max: 40,
            dungeon_init_edge_factor: 1.2,
            dungeon_room_side_min: 4,
            dungeon_room_side_max: 12,
            dungeon_enemies_max: 3,
            dungeon_chests_max: 2,
            dungeon_rooms_weight: 0.4,
            dungeon_window_min: 15,
            dungeon_window_max: 30,
            dungeon_window_penalty: 2.0,
            dungeon_check_controller: "dungeon-bfs".into(),
            dungeon_check_act_ms: 100,
            dungeon_check_expansions: 200_000,
            npc_population: 100,
            npc_generations: 50,
            npc_tournament: 3,
            npc_elitism: 3,
            npc_crossover_rate: 0.8,
            npc_mutation_rate: 0.2,
            npc_min_depth: 2,
            npc_max_depth: 6,
            npc_depth_cap: 8,
            npc_turns: 100,
            npc_player_hp: 3,
            npc_hp: 3,
            npc_detection_range: 5,
            npc_heal_turns: 4,
            npc_threads: 0,
        }
    }
}

impl EvolveConfig {
    /// The dungeon GA's parameters, with the scheme, generations and population given.
    pub fn ga_params(
        &self,
        scheme: crate::evolve::ga::Selection,
        generations: usize,
        population: usize,
    ) -> crate::evolve::dungeon::GaParams {
        use crate::evolve::dungeon as d;
        d::GaParams {
            population,
            generations,
            elitism: self.dungeon_elitism,
            crossover_rate: self.dungeon_crossover_rate,
            mutation_rate: self.dungeon_mutation_rate,
            select: crate::evolve::ga::SelectParams {
                scheme,
                tournament: self.dungeon_tournament,
                ranking_pressure: self.dungeon_ranking_pressure,
                shift_epsilon: self.dungeon_shift_epsilon,
            },
            init: d::InitParams {
                rooms_min: self.dungeon_init_rooms_min,
                rooms_max: self.dungeon_init_rooms_max,
                edge_factor: self.dungeon_init_edge_factor,
                room_side_min: self.dungeon_room_side_min,
                room_side_max: self.dungeon_room_side_max,
                enemies_max: self.dungeon_enemies_max,
                chests_max: self.dungeon_chests_max,
            },
            ops: d::OperatorParams {
                cuts: self.dungeon_crossover_cuts,
                cross_edges_min: self.dungeon_cross_edges_min,
                cross_edges_max: self.dungeon_cross_edges_max,
                combined: self.dungeon_combined_mutation,
            },
            fitness: d::FitnessParams {
                rooms_weight: self.dungeon_rooms_weight,
                window_min: self.dungeon_window_min,
                window_max: self.dungeon_window_max,
                window_penalty: self.dungeon_window_penalty,
            },
            stagnation: self.dungeon_stagnation,
        }
    }

    /// The dungeon GA's parameters as configured.
    pub fn dungeon_params(&self) -> crate::evolve::dungeon::GaParams {
        self.ga_params(
            self.dungeon_selection,
            self.dungeon_generations,
            self.dungeon_population,
        )
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let inv = |k: &str, m: String| Err(ConfigError::invalid(&format!("evolve.{k}"), m));
        let prob = [
            ("dungeon_crossover_rate", self.dungeon_crossover_rate),
            ("dungeon_mutation_rate", self.dungeon_mutation_rate),
            ("npc_crossover_rate", self.npc_crossover_rate),
            ("npc_mutation_rate", self.npc_mutation_rate),
        ];
        for (k, v) in prob {
            if !(0.0..=1.0).contains(&v) {
                return inv(k, format!("must be a probability in [0, 1], got {v}"));
            }
        }
        let at_least = [
            ("dungeon_population", self.dungeon_population, 2),
            ("dungeon_tournament", self.dungeon_tournament, 1),
            ("dungeon_crossover_cuts", self.dungeon_crossover_cuts, 1),
            ("dungeon_init_rooms_min", self.dungeon_init_rooms_min, 3),
            (
                "dungeon_room_side_min",
                self.dungeon_room_side_min as usize,
                1,
            ),
            (
                "dungeon_check_act_ms",
                self.dungeon_check_act_ms as usize,
                1,
            ),
            ("dungeon_check_expansions", self.dungeon_check_expansions, 1),
            ("npc_population", self.npc_population, 2),
            ("npc_tournament", self.npc_tournament, 1),
            ("npc_max_depth", self.npc_max_depth, 1),
            ("npc_turns", self.npc_turns, 1),
            ("npc_player_hp", self.npc_player_hp as usize, 1),
            ("npc_hp", self.npc_hp as usize, 1),
            ("npc_detection_range", self.npc_detection_range as usize, 1),
        ];
        for (k, v, min) in at_least {
            if v < min {
                return inv(k, format!("must be at least {min}, got {v}"));
            }
        }
        if self.dungeon_init_rooms_max < self.dungeon_init_rooms_min {
            return inv(
                "dungeon_init_rooms_max",
                "must be >= dungeon_init_rooms_min".into(),
            );
        }
        if self.dungeon_room_side_max < self.dungeon_room_side_min {
            return inv(
                "dungeon_room_side_max",
                "must be >= dungeon_room_side_min".into(),
            );
        }
        if self.dungeon_cross_edges_max < self.dungeon_cross_edges_min {
            return inv(
                "dungeon_cross_edges_max",
                "must be >= dungeon_cross_edges_min".into(),
            );
        }
        if !(1.0..=2.0).contains(&self.dungeon_ranking_pressure) {
            return inv(
                "dungeon_ranking_pressure",
                format!("must be in [1, 2], got {}", self.dungeon_ranking_pressure),
            );
        }
        if !(self.dungeon_init_edge_factor.is_finite() && self.dungeon_init_edge_factor >= 0.0) {
            return inv(
                "dungeon_init_edge_factor",
                "must be a finite number >= 0".into(),
            );
        }
        if !(self.dungeon_shift_epsilon.is_finite() && self.dungeon_shift_epsilon > 0.0) {
            return inv(
                "dungeon_shift_epsilon",
                "must be a finite number > 0".into(),
            );
        }
        if !(self.dungeon_rooms_weight.is_finite() && self.dungeon_window_penalty.is_finite()) {
            return inv("dungeon_rooms_weight", "weights must be finite".into());
        }
        if self.dungeon_window_max < self.dungeon_window_min {
            return inv("dungeon_window_max", "must be >= dungeon_window_min".into());
        }
        if !["dungeon-bfs", "bfs", "iw", "mcts"].contains(&self.dungeon_check_controller.as_str()) {
            return inv(
                "dungeon_check_controller",
                format!(
                    "must be dungeon-bfs, bfs, iw or mcts, got {:?}",
                    self.dungeon_check_controller
                ),
            );
        }
        if self.npc_min_depth > self.npc_max_depth || self.npc_max_depth > self.npc_depth_cap {
            return inv(
                "npc_depth_cap",
                "need npc_min_depth <= npc_max_depth <= npc_depth_cap".into(),
            );
        }
        if self.npc_depth_cap > 17 {
            return inv("npc_depth_cap", "must be at most 17".into());
        }
        if self.dungeon_elitism >= self.dungeon_population
            || self.npc_elitism >= self.npc_population
        {
            return inv(
                "dungeon_elitism",
                "elitism must be below the population".into(),
            );
        }
        Ok(())
    }
}

/// One `[[diplomacy.bots]]` entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiplomacyBotConfig {
    /// DAIDE server, HOST:PORT.
    pub server: String,
    /// Registered bot: "dumbbot", "randbot", "holdbot" (and "jic").
    pub bot: String,
    /// Name sent in NME.
    pub name: String,
    /// Power asked for (e.g. "TUR"), sent as a `TUR:name` prefix.
    #[serde(default)]
    pub power: Option<String>,
}

/// One `[[diplomacy.external]]` entry: a DAIDE client program that `tablero diplomacy play`
/// starts for a seat named `name`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalSeatConfig {
    /// Seat name used in `--seats`.
    pub name: String,
    /// Command line; `{host}`, `{port}` and `{power}` (e.g. `FRA`) are replaced.
    pub command: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// tracing filter, e.g. "info" or "tablero=debug"; RUST_LOG overrides it.
    pub level: String,
}

impl Default for LogConfig {
    fn default() -> Self {
        Self {
            level: "info".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerConfig {
    /// Address of the GTP TCP listener of `tablero serve`.
    pub gtp_listen: String,
    /// Most GTP sessions served at once; further connections wait in the accept queue.
    pub max_connections: usize,
    /// Seconds running sessions get to end after a shutdown signal before they are dropped.
    pub shutdown_grace: f64,
    /// Longest search of one genmove in seconds, whatever clock the client sets.
    pub max_move_seconds: f64,
    /// Longest analysis (`lz-analyze`, ...) or pondering in seconds, even if never stopped.
    pub max_analysis_seconds: f64,
    /// A session with no input and no running command for this many seconds is closed (0 = never).
    pub idle_timeout: f64,
    /// When every slot is busy, a waiting client evicts the longest-idle session idle for at
    /// least this many seconds (0 = never evict).
    pub evict_idle_after: f64,
    /// Cores the sessions' searches share (0 = one per core of the machine).
    pub search_cores: usize,
    /// Directory below which `loadsgf` reads over TCP; empty = `loadsgf` refused over TCP.
    pub sgf_dir: String,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            gtp_listen: "127.0.0.1:6790".into(),
            max_connections: 16,
            shutdown_grace: 5.0,
            max_move_seconds: 60.0,
            max_analysis_seconds: 600.0,
            idle_timeout: 1800.0,
            evict_idle_after: 60.0,
            search_cores: 0,
            sgf_dir: String::new(),
        }
    }
}

impl ServerConfig {
    /// The GTP listen address as a socket address (`IP:PORT`; port 0 = any free port).
    pub fn gtp_listen_addr(&self) -> Result<SocketAddr, ConfigError> {
        self.gtp_listen.parse().map_err(|e| {
            ConfigError::invalid(
                "server.gtp_listen",
                format!(
                    "{:?}: {e} (expected IP:PORT, e.g. 127.0.0.1:6790)",
                    self.gtp_listen
                ),
            )
        })
    }

    /// The shutdown grace period as a duration (validated configs only; bad values give zero).
    pub fn shutdown_grace_duration(&self) -> std::time::Duration {
        std::time::Duration::try_from_secs_f64(self.shutdown_grace).unwrap_or_default()
    }

    /// `max_move_seconds` as a duration.
    pub fn max_move(&self) -> std::time::Duration {
        std::time::Duration::try_from_secs_f64(self.max_move_seconds).unwrap_or_default()
    }

    /// `max_analysis_seconds` as a duration.
    pub fn max_analysis(&self) -> std::time::Duration {
        std::time::Duration::try_from_secs_f64(self.max_analysis_seconds).unwrap_or_default()
    }

    /// `idle_timeout` as a duration; `None` when off (0).
    pub fn idle_timeout_duration(&self) -> Option<std::time::Duration> {
        positive_secs(self.idle_timeout)
    }

    /// `evict_idle_after` as a duration; `None` when off (0).
    pub fn evict_idle_after_duration(&self) -> Option<std::time::Duration> {
        positive_secs(self.evict_idle_after)
    }
}

fn positive_secs(s: f64) -> Option<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GtpConfig {
    /// Longest accepted command line in bytes; longer lines get `? line too long`.
    pub max_line_length: usize,
    /// Engine name reported by `name`.
    pub name: String,
    /// Write `gogui-gfx:` lines on stderr while genmove searches.
    pub live_gfx: bool,
    /// Fewest visits a move needs for analysis reports (`lz-analyze`, `kata-analyze`,
    /// `analyze`, the genmove_analyze forms) to show it with its own win rate; fewer are shown
    /// only to fill `minmoves`, with the position's win rate. 1 = KataGo's (every visited
    /// move); the default, 500, is Pachi's (the fewest playouts its `lz-analyze` reports).
    pub analysis_min_visits: u32,
    /// List `kgs-chat` in `list_commands` (kgsGtp then sends chat to the engine). Off by
    /// default: kgsGtp 3.5.20 and later are reported to fail on engines that list it.
    pub kgs_chat: bool,
}

impl Default for GtpConfig {
    fn default() -> Self {
        Self {
            max_line_length: 1 << 20,
            name: "tablero".into(),
            live_gfx: false,
            analysis_min_visits: 500,
            kgs_chat: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoConfig {
    /// Board size at start-up (2..=25).
    pub boardsize: usize,
    pub komi: f64,
    pub scoring: Scoring,
    pub ko: KoRule,
}

impl GoConfig {
    /// The rule set games start with.
    pub fn rules(&self) -> Rules {
        Rules {
            scoring: self.scoring,
            ko: self.ko,
            komi: self.komi,
        }
    }
}

impl Default for GoConfig {
    fn default() -> Self {
        Self {
            boardsize: 19,
            komi: 7.5,
            scoring: Scoring::Area,
            ko: KoRule::Positional,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// UCT exploration constant C in  v/n + C·sqrt(ln N / n)  (thesis: 1.0).
    pub uct_c: f64,
    /// A leaf's children are created once it has this many visits (thesis: 2 or 30).
    pub expand_threshold: u32,
    /// Playouts per move; 0 = limited by time only.
    pub playouts: u64,
    /// Seconds per move when no GTP clock is set.
    pub time_per_move: f64,
    /// Search threads; 0 = one per core.
    pub threads: usize,
    /// Resign when the best move's win rate is below this (0 = never resign).
    pub resign_threshold: f64,
    /// Seed of every random choice; same seed and playout budget, same move.
    pub seed: u64,
    /// Keep the subtree of the played moves between genmoves.
    pub reuse_tree: bool,
    /// Upper bound on search-tree memory in MiB; the search stops growing the tree at the cap.
    pub max_tree_memory_mb: usize,
    /// Seconds kept back from every clock for network and start-up lag.
    pub lag_buffer: f64,
    /// Playout policy: "random" (thesis: uniform over legal moves, no eye rule), "light"
    /// (uniform over moves that do not fill an own eye) or "heavy" (captures, atari escapes,
    /// 3×3 patterns and self-atari rejection first).
    pub playout_policy: PlayoutPolicy,
    /// RAVE equivalence parameter (visits at which AMAF and real statistics weigh the same);
    /// 0 turns RAVE off, as in the thesis.
    pub rave_equiv: f64,
    /// Visits without wins added to a node while a thread's descent through it is in flight.
    pub virtual_loss: u32,
    /// Stop searching when the best move can no longer be overtaken in the time left.
    pub early_stop: bool,
    /// Heuristic priors for new tree nodes (captures, escapes, patterns, distance); off in
    /// the thesis.
    pub priors: bool,
    /// After genmove, keep searching the opponent's replies until the next command arrives.
    pub ponder: bool,
    /// Heavy playouts: board copies one ladder reading of an atari escape may make (an
    /// extension to two liberties that a ladder captures is not played); 0 = no reading.
    pub playout_ladder_budget: u32,
    /// Heavy playouts: probability of playing the vital point of a small eye space (3 to 5
    /// points, one colour around it) next to the last move; 0 = off.
    pub playout_nakade: f64,
    /// Heavy playouts: fill-board draws (a random point with 8 empty neighbours) before the
    /// random move; 0 = off.
    pub playout_fill_board: u32,
    /// Prior visits (all wins) for the vital point of a small eye space; 0 = off.
    pub prior_nakade: u32,
    /// Heavy playouts: last good reply with forgetting (LGRF-1), one table per thread.
    pub playout_last_good_reply: bool,
}

impl SearchConfig {
    /// The search these settings describe (`threads = 0`: one per core).
    pub fn params(&self) -> SearchParams {
        let threads = if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        };
        let base = SearchParams::default();
        SearchParams {
            uct_c: self.uct_c,
            expand_threshold: self.expand_threshold,
            max_playouts: self.playouts,
            policy: self.playout_policy,
            resign_threshold: self.resign_threshold,
            seed: self.seed,
            reuse_tree: self.reuse_tree,
            max_nodes: SearchParams::nodes_in(self.max_tree_memory_mb),
            threads,
            rave_equiv: self.rave_equiv,
            virtual_loss: self.virtual_loss,
            early_stop: self.early_stop,
            priors: self.priors,
            heavy: crate::go::search::policy::HeavyParams {
                ladder_budget: self.playout_ladder_budget,
                nakade: self.playout_nakade,
                fill_board: self.playout_fill_board,
                ..base.heavy
            },
            prior_params: crate::go::search::priors::PriorParams {
                nakade: self.prior_nakade,
                ..base.prior_params
            },
            last_good_reply: self.playout_last_good_reply,
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            uct_c: 0.1,
            expand_threshold: 2,
            playouts: 0,
            time_per_move: 5.0,
            threads: 0,
            resign_threshold: 0.1,
            seed: 0,
            reuse_tree: true,
            max_tree_memory_mb: 1024,
            lag_buffer: 0.5,
            playout_policy: PlayoutPolicy::Heavy,
            rave_equiv: 3000.0,
            virtual_loss: 3,
            early_stop: true,
            priors: true,
            ponder: false,
            playout_ladder_budget: 30,
            playout_nakade: 0.0,
            playout_fill_board: 0,
            prior_nakade: 0,
            playout_last_good_reply: false,
        }
    }
}

/// Everything that can be wrong with a configuration; every message names the key at fault.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {} is not valid TOML: {message}", path.display())]
    Syntax { path: PathBuf, message: String },
    #[error("override {0:?} is not of the form section.key=value")]
    OverrideSyntax(String),
    #[error("unknown config key {0:?}")]
    UnknownKey(String),
    #[error("config key {key:?} expects {expected}, got {got}")]
    WrongType {
        key: String,
        expected: &'static str,
        got: String,
    },
    #[error("invalid value for config key {key:?}: {message}")]
    Invalid { key: String, message: String },
    #[error("internal error building the config schema: {0}")]
    Schema(String),
}

impl ConfigError {
    fn invalid(key: &str, message: impl Into<String>) -> ConfigError {
        ConfigError::Invalid {
            key: key.to_string(),
            message: message.into(),
        }
    }
}

impl Config {
    /// Loads the configuration: built-in defaults, then the TOML file at `path` (if any), then
    /// each `section.key=value` override in order, then validation.
    pub fn load(path: Option<&Path>, overrides: &[String]) -> Result<Config, ConfigError> {
        let file = match path {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                })?;
                Some((path, text))
            }
            None => None,
        };
        Config::from_text(file.as_ref().map(|(p, t)| (*p, t.as_str())), overrides)
    }

    /// As [`Config::load`], with the file's text given (and its path, for messages).
    pub fn from_text(
        file: Option<(&Path, &str)>,
        overrides: &[String],
    ) -> Result<Config, ConfigError> {
        let schema = schema()?;
        let mut tree = Table::new();
        if let Some((path, text)) = file {
            let file: Table = text
                .parse()
                .map_err(|e: toml::de::Error| ConfigError::Syntax {
                    path: path.to_path_buf(),
                    message: locate(text, &e),
                })?;
            tree = check_table(file, &schema, "")?;
        }
        for item in overrides {
            apply_override(&mut tree, &schema, item)?;
        }
        let config = deserialize(tree, &schema)?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every value range; the first problem found is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        log_filter(&self.log.level).map_err(|e| {
            inv(
                "log.level",
                format!("{:?} is not a tracing filter: {e}", self.log.level),
            )
        })?;
        self.server.validate()?;
        self.gvgai.validate()?;
        self.planning.validate()?;
        self.gtp.validate()?;
        self.go.validate()?;
        self.evolve.validate()?;
        self.search.validate()?;
        self.diplomacy.validate()?;
        if let Err((key, message)) = self.jic.validate() {
            return Err(inv(&format!("jic.{key}"), message));
        }
        Ok(())
    }
}

fn inv(key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError::invalid(key, message)
}

impl ServerConfig {
    /// Checks this section's value ranges.
    fn validate(&self) -> Result<(), ConfigError> {
        let server = self;
        server.gtp_listen_addr()?;
        if server.max_connections == 0 {
            return Err(inv("server.max_connections", "must be at least 1"));
        }
        for (key, value) in [
            ("server.shutdown_grace", server.shutdown_grace),
            ("server.idle_timeout", server.idle_timeout),
            ("server.evict_idle_after", server.evict_idle_after),
        ] {
            if !(value.is_finite() && (0.0..=1e7).contains(&value)) {
                return Err(inv(
                    key,
                    format!("must be a number of seconds in 0..=1e7, got {value}"),
                ));
            }
        }
        for (key, value) in [
            ("server.max_move_seconds", server.max_move_seconds),
            ("server.max_analysis_seconds", server.max_analysis_seconds),
        ] {
            if !(value.is_finite() && value > 0.0 && value <= 1e7) {
                return Err(inv(
                    key,
                    format!("must be a number of seconds in (0, 1e7], got {value}"),
                ));
            }
        }
        if server.search_cores > 256 {
            return Err(inv("server.search_cores", "must be at most 256"));
        }
        Ok(())
    }
}

impl GvgaiConfig {
    /// Checks this section's value ranges.
    fn validate(&self) -> Result<(), ConfigError> {
        let gv = self;
        gv.listen_addr()?;
        if gv.max_connections == 0 {
            return Err(inv("gvgai.max_connections", "must be at least 1"));
        }
        if gv.max_line_bytes < 1024 {
            return Err(inv("gvgai.max_line_bytes", "must be at least 1024"));
        }
        if !(1..=60_000).contains(&gv.act_ms) {
            return Err(inv("gvgai.act_ms", "must be between 1 and 60000"));
        }
        if !(1..=600_000).contains(&gv.init_ms) {
            return Err(inv("gvgai.init_ms", "must be between 1 and 600000"));
        }
        if gv.controller.trim().is_empty() {
            return Err(inv("gvgai.controller", "must name a controller"));
        }
        if !(gv.reply_timeout.is_finite() && gv.reply_timeout > 0.0) {
            return Err(inv(
                "gvgai.reply_timeout",
                "must be a number of seconds > 0",
            ));
        }
        Ok(())
    }
}

impl PlanningConfig {
    /// Checks this section's value ranges.
    fn validate(&self) -> Result<(), ConfigError> {
        let planning = self;
        if !(planning.timeout.is_finite() && planning.timeout > 0.0) {
            return Err(inv(
                "planning.timeout",
                format!("must be a number of seconds > 0, got {}", planning.timeout),
            ));
        }
        if planning.fd_alias.trim().is_empty() && planning.fd_search.trim().is_empty() {
            return Err(inv(
                "planning.fd_alias",
                "fd_alias and fd_search cannot both be empty",
            ));
        }
        Ok(())
    }
}

impl GtpConfig {
    /// Checks this section's value ranges.
    fn validate(&self) -> Result<(), ConfigError> {
        let gtp = self;
        if gtp.max_line_length == 0 {
            return Err(inv("gtp.max_line_length", "must be at least 1"));
        }
        if gtp.name.trim().is_empty() || gtp.name.chars().any(char::is_control) {
            return Err(inv(
                "gtp.name",
                format!(
                    "must be non-empty and free of control characters, got {:?}",
                    gtp.name
                ),
            ));
        }
        Ok(())
    }
}

impl GoConfig {
    /// Checks this section's value ranges.
    fn validate(&self) -> Result<(), ConfigError> {
        let go = self;
        if !(crate::go::MIN_SIZE..=crate::go::MAX_SIZE).contains(&go.boardsize) {
            return Err(inv(
                "go.boardsize",
                format!(
                    "must be between {} and {}, got {}",
                    crate::go::MIN_SIZE,
                    crate::go::MAX_SIZE,
                    go.boardsize
                ),
            ));
        }
        if !go.komi.is_finite() {
            return Err(inv(
                "go.komi",
                format!("must be a finite number, got {}", go.komi),
            ));
        }
        Ok(())
    }
}

impl SearchConfig {
    /// Checks this section's value ranges.
    fn validate(&self) -> Result<(), ConfigError> {
        let search = self;
        if !(search.uct_c.is_finite() && search.uct_c >= 0.0) {
            return Err(inv(
                "search.uct_c",
                format!("must be a finite number >= 0, got {}", search.uct_c),
            ));
        }
        if search.expand_threshold == 0 {
            return Err(inv("search.expand_threshold", "must be at least 1"));
        }
        if !(search.time_per_move.is_finite() && search.time_per_move > 0.0) {
            return Err(inv(
                "search.time_per_move",
                format!(
                    "must be a number of seconds > 0, got {}",
                    search.time_per_move
                ),
            ));
        }
        if search.threads > MAX_THREADS {
            return Err(inv(
                "search.threads",
                format!(
                    "must be at most {MAX_THREADS} (0 = one per core), got {}",
                    search.threads
                ),
            ));
        }
        if !(0.0..1.0).contains(&search.resign_threshold) {
            return Err(inv(
                "search.resign_threshold",
                format!("must be in [0, 1), got {}", search.resign_threshold),
            ));
        }
        if !(search.rave_equiv.is_finite() && search.rave_equiv >= 0.0) {
            return Err(inv(
                "search.rave_equiv",
                format!("must be a finite number >= 0, got {}", search.rave_equiv),
            ));
        }
        if !(0.0..=1.0).contains(&search.playout_nakade) {
            return Err(inv(
                "search.playout_nakade",
                format!(
                    "must be a probability in [0, 1], got {}",
                    search.playout_nakade
                ),
            ));
        }
        if search.max_tree_memory_mb == 0 {
            return Err(inv("search.max_tree_memory_mb", "must be at least 1"));
        }
        if !(search.lag_buffer.is_finite() && search.lag_buffer >= 0.0) {
            return Err(inv(
                "search.lag_buffer",
                format!(
                    "must be a number of seconds >= 0, got {}",
                    search.lag_buffer
                ),
            ));
        }
        Ok(())
    }
}

impl DiplomacyConfig {
    /// Checks this section's value ranges.
    fn validate(&self) -> Result<(), ConfigError> {
        let dip = self;
        for (key, v) in [
            ("diplomacy.reconnect_initial", dip.reconnect_initial),
            ("diplomacy.reconnect_max", dip.reconnect_max),
            ("diplomacy.think_time", dip.think_time),
        ] {
            if !(v.is_finite() && v > 0.0 && v < 1e9) {
                return Err(inv(
                    key,
                    format!("must be a number of seconds > 0, got {v}"),
                ));
            }
        }
        for (i, b) in dip.bots.iter().enumerate() {
            let key = format!("diplomacy.bots[{i}]");
            if !b.server.contains(':') || b.server.trim().is_empty() {
                return Err(inv(
                    &key,
                    format!("server must be HOST:PORT, got {:?}", b.server),
                ));
            }
            if let Err(e) = crate::bots::make(&b.bot, 0) {
                return Err(inv(&key, e.to_string()));
            }
            if b.name.trim().is_empty() || b.name.chars().any(char::is_control) {
                return Err(inv(
                    &key,
                    format!("name must be non-empty text, got {:?}", b.name),
                ));
            }
            if let Some(p) = &b.power
                && !(p.len() == 3 && p.chars().all(|c| c.is_ascii_alphabetic()))
            {
                return Err(inv(&key, format!("power must be three letters, got {p:?}")));
            }
        }
        Ok(())
    }
}

/// A TOML syntax error as one line: `line L, column C: message`.
fn locate(text: &str, e: &toml::de::Error) -> String {
    let message = e
        .message()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    match e.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message.to_string(),
    }
}

/// Most search threads accepted by `search.threads`.
pub const MAX_THREADS: usize = 256;

/// The defaults as a TOML tree: the set of keys and the type of every value.
fn schema() -> Result<Table, ConfigError> {
    match Value::try_from(Config::default()) {
        Ok(Value::Table(t)) => Ok(t),
        Ok(other) => Err(ConfigError::Schema(format!(
            "defaults are a {}, not a table",
            other.type_str()
        ))),
        Err(e) => Err(ConfigError::Schema(e.to_string())),
    }
}

fn join_key(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Checks a (file) table against the schema: known keys, sections where sections belong,
/// scalar types that match (integers are accepted where floats are expected).
fn check_table(table: Table, schema: &Table, prefix: &str) -> Result<Table, ConfigError> {
    let mut out = Table::new();
    for (key, value) in table {
        let full = join_key(prefix, &key);
        let Some(expected) = schema.get(&key) else {
            return Err(ConfigError::UnknownKey(full));
        };
        let checked = match (expected, value) {
            (Value::Table(sub), Value::Table(given)) => {
                Value::Table(check_table(given, sub, &full)?)
            }
            (expected, value) => coerce(&full, expected, value)?,
        };
        out.insert(key, checked);
    }
    Ok(out)
}

/// The value, converted to the schema's type where that is lossless, or a type error.
fn coerce(key: &str, expected: &Value, value: Value) -> Result<Value, ConfigError> {
    let wrong = |expected: &'static str, value: &Value| ConfigError::WrongType {
        key: key.to_string(),
        expected,
        got: describe(value),
    };
    match (expected, value) {
        (Value::Table(_), value) => Err(wrong("a section (table)", &value)),
        (Value::Float(_), Value::Integer(i)) => Ok(Value::Float(i as f64)),
        (Value::Integer(_), Value::Integer(i)) if i < 0 => {
            Err(wrong("a non-negative integer", &Value::Integer(i)))
        }
        (e, v) if e.same_type(&v) => Ok(v),
        (e, v) => Err(wrong(type_name(e), &v)),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Integer(_) => "a non-negative integer",
        Value::Float(_) => "a number",
        Value::Boolean(_) => "true or false",
        Value::Datetime(_) => "a date-time",
        Value::Array(_) => "an array",
        Value::Table(_) => "a section (table)",
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Table(_) => "a section (table)".to_string(),
        Value::Array(_) => "an array".to_string(),
        other => other.to_string(),
    }
}

/// Parses an override value as a TOML scalar: integer, float, bool, a quoted TOML string, or
/// else the raw text as a string.
fn parse_scalar(raw: &str) -> Value {
    let text = raw.trim();
    if let Ok(i) = text.parse::<i64>() {
        return Value::Integer(i);
    }
    let special = ["inf", "+inf", "-inf", "nan", "+nan", "-nan"].contains(&text);
    if special || text.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.')
    {
        if let Ok(f) = text.parse::<f64>() {
            return Value::Float(f);
        }
    }
    match text {
        "true" => return Value::Boolean(true),
        "false" => return Value::Boolean(false),
        _ => {}
    }
    if text.len() >= 2 && (text.starts_with('"') || text.starts_with('\'')) {
        if let Ok(table) = format!("v = {text}").parse::<Table>() {
            if let Some(Value::String(s)) = table.get("v") {
                return Value::String(s.clone());
            }
        }
    }
    Value::String(raw.to_string())
}

/// Applies one `section.key=value` override onto the tree.
fn apply_override(tree: &mut Table, schema: &Table, item: &str) -> Result<(), ConfigError> {
    let (key, raw) = item
        .split_once('=')
        .ok_or_else(|| ConfigError::OverrideSyntax(item.to_string()))?;
    let key = key.trim();
    let segments: Vec<&str> = key.split('.').collect();
    if key.is_empty() || segments.iter().any(|s| s.is_empty()) {
        return Err(ConfigError::OverrideSyntax(item.to_string()));
    }
    let (last, sections) = segments
        .split_last()
        .ok_or_else(|| ConfigError::OverrideSyntax(item.to_string()))?;
    let mut schema_at = schema;
    let mut tree_at = tree;
    let mut prefix = String::new();
    for section in sections {
        prefix = join_key(&prefix, section);
        schema_at = match schema_at.get(*section) {
            Some(Value::Table(t)) => t,
            Some(_) => return Err(ConfigError::UnknownKey(key.to_string())),
            None => return Err(ConfigError::UnknownKey(prefix)),
        };
        let entry = tree_at
            .entry(section.to_string())
            .or_insert_with(|| Value::Table(Table::new()));
        tree_at = match entry {
            Value::Table(t) => t,
            // check_table guarantees sections are tables; anything else is replaced.
            other => {
                *other = Value::Table(Table::new());
                match other {
                    Value::Table(t) => t,
                    _ => {
                        return Err(ConfigError::Schema(format!(
                            "section {prefix} is not a table"
                        )));
                    }
                }
            }
        };
    }
    let expected = schema_at
        .get(*last)
        .ok_or_else(|| ConfigError::UnknownKey(key.to_string()))?;
    let value = match (expected, parse_scalar(raw)) {
        // A string key takes the text as written (`gtp.name=42` names the engine "42").
        (Value::String(_), Value::String(s)) => Value::String(s),
        (Value::String(_), _) => Value::String(raw.trim().to_string()),
        (expected, value) => coerce(key, expected, value)?,
    };
    tree_at.insert(last.to_string(), value);
    Ok(())
}

/// Deserializes the checked tree; on failure, finds the key whose value is at fault.
fn deserialize(tree: Table, schema: &Table) -> Result<Config, ConfigError> {
    match Config::deserialize(Value::Table(tree.clone())) {
        Ok(config) => Ok(config),
        Err(whole) => {
            for (section, values) in &tree {
                let Value::Table(values) = values else {
                    continue;
                };
                for (key, value) in values {
                    let mut probe = schema.clone();
                    if let Some(Value::Table(s)) = probe.get_mut(section) {
                        s.insert(key.clone(), value.clone());
                    }
                    if let Err(e) = Config::deserialize(Value::Table(probe)) {
                        return Err(ConfigError::invalid(
                            &join_key(section, key),
                            e.message().to_string(),
                        ));
                    }
                }
            }
            Err(ConfigError::invalid("", whole.message().to_string()))
        }
    }
}

/// A tracing filter (`log.level`, `RUST_LOG`). Directives are ASCII: anything else is refused
/// here, because the filter parser panics on some multi-byte characters.
pub fn log_filter(spec: &str) -> Result<tracing_subscriber::EnvFilter, String> {
    if let Some(c) = spec.chars().find(|c| !c.is_ascii()) {
        return Err(format!("{c:?} is not ASCII"));
    }
    tracing_subscriber::EnvFilter::try_new(spec).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_log_level_that_is_not_ascii_is_an_error_not_a_panic() {
        // A multi-byte character before `[` in a directive after `, ` makes tracing-subscriber's
        // filter parser slice inside the character and panic.
        for level in ["e, 3\u{fffd}[", "info, tablero\u{e9}[span]"] {
            let e = super::Config::from_text(None, &[format!("log.level={level}")]).unwrap_err();
            assert!(e.to_string().contains("not ASCII"), "{e}");
        }
    }

    use super::*;
    use std::io::Write;

    fn set(items: &[&str]) -> Result<Config, ConfigError> {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        Config::load(None, &items)
    }

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        f
    }

    fn load_text(text: &str) -> Result<Config, ConfigError> {
        let f = file(text);
        Config::load(Some(f.path()), &[])
    }

    fn invalid_key(r: Result<Config, ConfigError>) -> String {
        match r {
            Err(ConfigError::Invalid { key, .. }) => key,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    fn shipped_path() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/tablero.toml")
    }

    #[test]
    fn no_file_no_overrides_is_default() {
        assert_eq!(set(&[]).unwrap(), Config::default());
        Config::default().validate().unwrap();
    }

    #[test]
    fn shipped_file_equals_defaults() {
        let config = Config::load(Some(&shipped_path()), &[]).unwrap();
        assert_eq!(config, Config::default());
    }

    fn leaves(table: &Table, prefix: &str, out: &mut Vec<String>) {
        for (k, v) in table {
            match v {
                Value::Table(t) => leaves(t, &join_key(prefix, k), out),
                _ => out.push(join_key(prefix, k)),
            }
        }
    }

    #[test]
    fn shipped_file_names_every_key_with_a_comment() {
        let text = std::fs::read_to_string(shipped_path()).unwrap();
        let file: Table = text.parse().unwrap();
        let mut want = Vec::new();
        leaves(&schema().unwrap(), "", &mut want);
        let mut have = Vec::new();
        leaves(&file, "", &mut have);
        want.sort();
        have.sort();
        assert_eq!(
            want, have,
            "configs/tablero.toml must set exactly every key"
        );
        // Every `key = value` line follows a comment line.
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for (i, line) in lines.iter().enumerate() {
            if line.contains('=') && !line.starts_with('#') {
                assert!(
                    i > 0 && lines[i - 1].starts_with('#'),
                    "undocumented key line: {line}"
                );
            }
        }
    }

    #[test]
    fn overrides_parse_scalars() {
        let c = set(&[
            "go.boardsize=9",
            "go.komi=6.5",
            "go.scoring=japanese",
            "go.ko=simple",
            "search.uct_c=1",
            "search.reuse_tree=false",
            "search.seed=42",
            "gtp.name=\"my bot\"",
            "log.level=tablero=debug",
            "search.playout_policy=random",
        ])
        .unwrap();
        assert_eq!(c.go.boardsize, 9);
        assert_eq!(c.go.komi, 6.5);
        assert_eq!(c.go.scoring, Scoring::Territory);
        assert_eq!(c.go.ko, KoRule::Simple);
        assert_eq!(c.search.uct_c, 1.0);
        assert!(!c.search.reuse_tree);
        assert_eq!(c.search.seed, 42);
        assert_eq!(c.gtp.name, "my bot");
        assert_eq!(c.log.level, "tablero=debug");
        assert_eq!(c.search.playout_policy, PlayoutPolicy::Random);
    }

    #[test]
    fn string_keys_take_numbers_as_text() {
        assert_eq!(set(&["gtp.name=42"]).unwrap().gtp.name, "42");
    }

    #[test]
    fn overrides_apply_after_file_in_order() {
        let f = file("[go]\nboardsize = 13\nkomi = 0\n");
        let c = Config::load(
            Some(f.path()),
            &["go.boardsize=9".into(), "go.boardsize=7".into()],
        )
        .unwrap();
        assert_eq!(c.go.boardsize, 7);
        assert_eq!(c.go.komi, 0.0, "integer accepted for a float key");
        assert_eq!(c.search, SearchConfig::default());
    }

    #[test]
    fn unknown_override_key_is_named() {
        let e = set(&["search.uct=1"]).unwrap_err();
        assert_eq!(e.to_string(), "unknown config key \"search.uct\"");
        assert!(matches!(set(&["serch.uct_c=1"]), Err(ConfigError::UnknownKey(k)) if k == "serch"));
        assert!(
            matches!(set(&["go.komi.x=1"]), Err(ConfigError::UnknownKey(k)) if k == "go.komi.x")
        );
        assert!(matches!(set(&["go=1"]), Err(ConfigError::WrongType { .. })));
    }

    #[test]
    fn unknown_file_key_is_named() {
        let e = load_text("[search]\nuct = 1.0\n").unwrap_err();
        assert_eq!(e.to_string(), "unknown config key \"search.uct\"");
        assert!(matches!(load_text("[serch]\n"), Err(ConfigError::UnknownKey(k)) if k == "serch"));
        assert!(matches!(load_text("top = 1\n"), Err(ConfigError::UnknownKey(k)) if k == "top"));
    }

    #[test]
    fn malformed_override_rejected() {
        for bad in [
            "go.boardsize",
            "=9",
            ".boardsize=9",
            "go..boardsize=9",
            "go.=9",
        ] {
            assert!(
                matches!(set(&[bad]), Err(ConfigError::OverrideSyntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn wrong_types_rejected() {
        let e = set(&["go.boardsize=big"]).unwrap_err();
        assert!(
            matches!(&e, ConfigError::WrongType { key, .. } if key == "go.boardsize"),
            "{e}"
        );
        assert!(e.to_string().contains("go.boardsize"));
        assert!(matches!(
            set(&["go.boardsize=-3"]),
            Err(ConfigError::WrongType { .. })
        ));
        assert!(matches!(
            set(&["search.reuse_tree=1"]),
            Err(ConfigError::WrongType { .. })
        ));
        assert!(matches!(
            set(&["go.komi=lots"]),
            Err(ConfigError::WrongType { .. })
        ));
        assert!(
            matches!(load_text("go = 3\n"), Err(ConfigError::WrongType { key, .. }) if key == "go")
        );
        assert!(matches!(
            load_text("[go]\nboardsize = \"9\"\n"),
            Err(ConfigError::WrongType { .. })
        ));
        assert!(matches!(
            load_text("[go]\nboardsize = [9]\n"),
            Err(ConfigError::WrongType { .. })
        ));
        assert!(matches!(
            load_text("[go.boardsize]\n"),
            Err(ConfigError::WrongType { .. })
        ));
    }

    #[test]
    fn bad_enum_value_names_key() {
        let e = set(&["go.scoring=korean"]).unwrap_err();
        assert_eq!(invalid_key(Err(e)), "go.scoring");
        assert_eq!(invalid_key(load_text("[go]\nko = \"superko\"\n")), "go.ko");
        assert_eq!(
            invalid_key(set(&["search.expand_threshold=99999999999"])),
            "search.expand_threshold"
        );
    }

    #[test]
    fn missing_and_unparsable_files() {
        let missing = Config::load(Some(Path::new("/nonexistent/tablero.toml")), &[]);
        assert!(matches!(missing, Err(ConfigError::Read { .. })));
        let e = load_text("[go]\nboardsize = 9\nkomi = = 1\n").unwrap_err();
        assert!(matches!(e, ConfigError::Syntax { .. }), "{e}");
        assert!(e.to_string().contains("line 3, column"), "{e}");
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }

    #[test]
    fn every_range_is_checked() {
        let cases: &[(&str, &str)] = &[
            ("log.level=tablero=loud", "log.level"),
            ("server.gtp_listen=localhost", "server.gtp_listen"),
            ("server.gtp_listen=127.0.0.1:99999", "server.gtp_listen"),
            ("server.max_connections=0", "server.max_connections"),
            ("server.shutdown_grace=-1", "server.shutdown_grace"),
            ("gtp.max_line_length=0", "gtp.max_line_length"),
            ("gtp.name= ", "gtp.name"),
            ("go.boardsize=1", "go.boardsize"),
            ("go.boardsize=26", "go.boardsize"),
            ("go.komi=nan", "go.komi"),
            ("go.komi=inf", "go.komi"),
            ("search.uct_c=-0.1", "search.uct_c"),
            ("search.uct_c=inf", "search.uct_c"),
            ("search.expand_threshold=0", "search.expand_threshold"),
            ("search.time_per_move=0", "search.time_per_move"),
            ("search.threads=100000", "search.threads"),
            ("search.resign_threshold=1", "search.resign_threshold"),
            ("search.resign_threshold=-0.5", "search.resign_threshold"),
            ("search.max_tree_memory_mb=0", "search.max_tree_memory_mb"),
            ("search.lag_buffer=-1", "search.lag_buffer"),
            ("search.playout_policy=superheavy", "search.playout_policy"),
        ];
        for (item, key) in cases {
            assert_eq!(invalid_key(set(&[item])), *key, "{item}");
        }
        // The edges that are allowed.
        for ok in [
            "go.boardsize=2",
            "go.boardsize=25",
            "go.komi=-3.5",
            "search.uct_c=0",
            "search.resign_threshold=0",
            "search.resign_threshold=0.99",
            "search.threads=0",
            "server.gtp_listen=[::1]:0",
            "server.shutdown_grace=0",
        ] {
            set(&[ok]).unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
    }

    #[test]
    fn diplomacy_bots_are_read_and_checked() {
        let c = load_text(
            "[[diplomacy.bots]]\nserver = \"127.0.0.1:16713\"\nbot = \"dumbbot\"\nname = \"d1\"\npower = \"TUR\"\n",
        )
        .unwrap();
        assert_eq!(c.diplomacy.bots.len(), 1);
        assert_eq!(c.diplomacy.bots[0].power.as_deref(), Some("TUR"));
        let bad = "[[diplomacy.bots]]\nserver = \"x:1\"\nbot = \"albert\"\nname = \"a\"\n";
        assert!(invalid_key(load_text(bad)).starts_with("diplomacy.bots"));
        let typo =
            "[[diplomacy.bots]]\nserver = \"x:1\"\nbot = \"dumbbot\"\nname = \"a\"\npwr = 1\n";
        assert!(load_text(typo).is_err());
        assert_eq!(
            invalid_key(set(&["diplomacy.reconnect_max=0"])),
            "diplomacy.reconnect_max"
        );
    }

    #[test]
    fn jic_section_is_read_overridden_and_checked() {
        use crate::bots::jic::{JicConfig, JicMode};
        let d = set(&[]).unwrap().jic;
        assert_eq!(d, JicConfig::default());
        assert_eq!(d.mode, JicMode::Strong);
        assert_eq!(d.full_search_max_units, 7);
        assert_eq!(d.partition_max_units, 8);
        assert_eq!(d.support_gain_cap, 500);
        assert_eq!(d.deadlock_change_fraction, 0.3);
        assert_eq!(d.max_no_plan, 2);
        assert_eq!(d.budget_fraction, 0.1);
        let c = set(&[
            "jic.mode=thesis",
            "jic.max_evaluations=4000",
            "jic.max_search_nodes=20000",
            "jic.budget_fraction=1",
        ])
        .unwrap();
        assert_eq!(c.jic.mode, JicMode::Thesis);
        assert_eq!(c.jic.max_evaluations, 4000);
        assert_eq!(c.jic.max_search_nodes, 20000);
        assert_eq!(c.jic.budget_fraction, 1.0);
        let f = load_text("[jic]\nmode = \"thesis\"\npartition_max_units = 4\n").unwrap();
        assert_eq!(f.jic.mode, JicMode::Thesis);
        assert_eq!(f.jic.partition_max_units, 4);
        assert_eq!(invalid_key(set(&["jic.mode=best"])), "jic.mode");
        assert_eq!(
            invalid_key(set(&["jic.deadlock_change_fraction=1.5"])),
            "jic.deadlock_change_fraction"
        );
        assert_eq!(
            invalid_key(set(&["jic.partition_max_units=0"])),
            "jic.partition_max_units"
        );
        assert_eq!(
            invalid_key(set(&["jic.max_think_seconds=-1"])),
            "jic.max_think_seconds"
        );
        assert!(matches!(
            set(&["jic.full_search=7"]),
            Err(ConfigError::UnknownKey(_))
        ));
        assert!(matches!(
            set(&["jic.support_gain_cap=-5"]),
            Err(ConfigError::WrongType { .. })
        ));
    }

    #[test]
    fn listen_address_and_grace_helpers() {
        let c = set(&["server.gtp_listen=0.0.0.0:0", "server.shutdown_grace=1.5"]).unwrap();
        assert_eq!(c.server.gtp_listen_addr().unwrap().port(), 0);
        assert_eq!(
            c.server.shutdown_grace_duration(),
            std::time::Duration::from_millis(1500)
        );
    }

    /// `configs/thesis.toml` reaches the thesis's search exactly.
    #[test]
    fn thesis_config_file_is_the_thesis_search() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/thesis.toml");
        let config = Config::load(Some(&path), &[]).expect("thesis.toml loads");
        let params = config.search.params();
        assert_eq!(
            SearchParams {
                max_nodes: SearchParams::thesis().max_nodes,
                ..params
            },
            SearchParams::thesis()
        );
        let rules = config.go.rules();
        assert_eq!(rules.ko, KoRule::Simple);
        assert_eq!(rules.scoring, Scoring::Territory);
    }

    /// The search's own defaults are the configuration's.
    #[test]
    fn default_search_section_is_the_default_search() {
        assert_eq!(SearchConfig::default().params(), SearchParams::default());
        assert_eq!(GoConfig::default().rules().scoring, Scoring::Area);
    }
}
