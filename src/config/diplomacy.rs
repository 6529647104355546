//! `[diplomacy]`: the bot seats `tablero serve` keeps on DAIDE servers, the external programs
//! that can take a seat, reconnection and thinking times, and `[diplomacy.server]`, the DAIDE
//! server `tablero serve` may host; with the checks of their values.

use std::net::SocketAddr;

use serde::{Deserialize, Serialize};

use super::{ConfigError, inv};

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
    /// `[diplomacy.server]`: the DAIDE server hosted by `tablero serve`.
    pub server: DiplomacyServerConfig,
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
            server: DiplomacyServerConfig::default(),
        }
    }
}

impl DiplomacyConfig {
    /// Checks this section's value ranges.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
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
        dip.server.validate()
    }
}

/// `[diplomacy.server]`: the embedded DAIDE server as a listener of `tablero serve`, with the
/// game options of `tablero diplomacy server` (same names as its flags).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiplomacyServerConfig {
    /// Host DAIDE games in `tablero serve`.
    pub enabled: bool,
    /// Address of the DAIDE listener (IP:PORT; port 0 = any free port).
    pub listen: String,
    /// Connections served at once (players, observers, clients before their IM); further
    /// clients wait in the listen queue until one closes.
    pub max_connections: usize,
    /// Seconds per phase (MTL = RTL = BTL); 0 = no deadlines.
    pub deadline: u64,
    /// Last year played, after which a game is a draw of the survivors; 0 = no cap.
    pub end_year: u64,
    /// Seed of power assignment and passcodes (game n uses seed + n).
    pub seed: u64,
    /// Games after which the DAIDE listener closes (the other listeners go on); 0 = no limit.
    pub max_games: u64,
    /// File that gets one JSON line per finished game, synced as the game ends; "" = none.
    pub results: String,
}

impl Default for DiplomacyServerConfig {
    fn default() -> Self {
        Self {
            enabled: false,
            listen: "127.0.0.1:16713".into(),
            max_connections: 64,
            deadline: 0,
            end_year: 0,
            seed: 0,
            max_games: 0,
            results: String::new(),
        }
    }
}

/// Latest `diplomacy.server.end_year` accepted.
const MAX_END_YEAR: u64 = 3000;
/// Most connections `diplomacy.server.max_connections` may allow.
const MAX_DAIDE_CONNECTIONS: usize = 100_000;

impl DiplomacyServerConfig {
    /// The listen address as a socket address.
    pub fn listen_addr(&self) -> Result<SocketAddr, ConfigError> {
        self.listen.parse().map_err(|e| {
            inv(
                "diplomacy.server.listen",
                format!(
                    "{:?}: {e} (expected IP:PORT, e.g. 127.0.0.1:16713)",
                    self.listen
                ),
            )
        })
    }

    /// Seconds per phase, `None` for no deadlines (validated configs only).
    pub fn deadline_secs(&self) -> Option<u16> {
        u16::try_from(self.deadline).ok().filter(|&d| d > 0)
    }

    /// The year cap, `None` for none (validated configs only).
    pub fn last_year(&self) -> Option<i16> {
        i16::try_from(self.end_year).ok().filter(|&y| y > 0)
    }

    /// The game limit, `None` for none.
    pub fn game_limit(&self) -> Option<usize> {
        usize::try_from(self.max_games).ok().filter(|&n| n > 0)
    }

    /// The settings of the server's game `n`: the standard game with this section's deadline
    /// and year cap, seeded `seed + n` (validated configs only).
    pub fn game_config(&self, n: u64) -> crate::daide::server::ServerConfig {
        let mut cfg = crate::daide::server::ServerConfig::standard(self.seed.wrapping_add(n));
        cfg.deadline = self.deadline_secs();
        cfg.end_year = self.last_year();
        cfg
    }

    /// The results file, `None` for none.
    pub fn results_path(&self) -> Option<std::path::PathBuf> {
        (!self.results.is_empty()).then(|| self.results.clone().into())
    }

    /// Checks this section's value ranges.
    fn validate(&self) -> Result<(), ConfigError> {
        self.listen_addr()?;
        if !(1..=MAX_DAIDE_CONNECTIONS).contains(&self.max_connections) {
            return Err(inv(
                "diplomacy.server.max_connections",
                format!("must be between 1 and {MAX_DAIDE_CONNECTIONS}"),
            ));
        }
        if self.deadline > u64::from(u16::MAX) {
            return Err(inv(
                "diplomacy.server.deadline",
                format!(
                    "must be a number of seconds in 0..={}, got {}",
                    u16::MAX,
                    self.deadline
                ),
            ));
        }
        if self.end_year != 0 && !(1901..=MAX_END_YEAR).contains(&self.end_year) {
            return Err(inv(
                "diplomacy.server.end_year",
                format!(
                    "must be 0 (no cap) or a year in 1901..={MAX_END_YEAR}, got {}",
                    self.end_year
                ),
            ));
        }
        if self.results.chars().any(char::is_control) {
            return Err(inv(
                "diplomacy.server.results",
                "must be a file name without control characters",
            ));
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
