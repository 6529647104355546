//! `[gvgai]`: the GVG-AI line adapter of `tablero serve` and the defaults of
//! `tablero gvgai connect|host`, with the checks of its values.

use std::net::SocketAddr;

use serde::{Deserialize, Serialize};

use super::{ConfigError, inv};

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
            controller: "olets".into(),
            game: String::new(),
            games_dir: String::new(),
            seed: 0,
            reply_timeout: 60.0,
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

    /// Checks this section's value ranges.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
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
