//! The one configuration: a TOML file (`configs/tablero.toml` documents every key), defaults for
//! every key, `--set section.key=value` overrides, and validation with clear errors.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub log: LogConfig,
    pub server: ServerConfig,
    pub gtp: GtpConfig,
    pub go: GoConfig,
    pub search: SearchConfig,
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
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            gtp_listen: "127.0.0.1:6790".into(),
            max_connections: 16,
        }
    }
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
}

impl Default for GtpConfig {
    fn default() -> Self {
        Self {
            max_line_length: 1 << 20,
            name: "tablero".into(),
            live_gfx: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoringRule {
    /// Area scoring: stones + territory + komi (Chinese, Tromp-Taylor, CGOS).
    Chinese,
    /// Territory scoring: territory + prisoners + komi (Japanese).
    Japanese,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KoConfig {
    /// Only the immediate retake (2-ply repetition) is forbidden, as in the thesis.
    Simple,
    /// No move may recreate any earlier whole-board position.
    Positional,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoConfig {
    /// Board size at start-up (2..=25).
    pub boardsize: usize,
    pub komi: f64,
    pub scoring: ScoringRule,
    pub ko: KoConfig,
}

impl Default for GoConfig {
    fn default() -> Self {
        Self {
            boardsize: 19,
            komi: 7.5,
            scoring: ScoringRule::Chinese,
            ko: KoConfig::Positional,
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
    /// Playout policy: "random" (thesis: uniform over legal moves, no eye rule) or "light"
    /// (uniform over moves that do not fill an own eye).
    pub playout_policy: String,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            uct_c: 0.7,
            expand_threshold: 2,
            playouts: 0,
            time_per_move: 5.0,
            threads: 0,
            resign_threshold: 0.1,
            seed: 0,
            reuse_tree: true,
            max_tree_memory_mb: 1024,
            lag_buffer: 0.5,
            playout_policy: "light".into(),
        }
    }
}
