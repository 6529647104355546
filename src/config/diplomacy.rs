//! `[diplomacy]`: the bot seats `tablero serve` keeps on DAIDE servers, the external programs
//! that can take a seat, reconnection and thinking times, with the checks of its values.

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
