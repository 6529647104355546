//! `[server]`: the GTP listener and session limits of `tablero serve`, with the checks of its
//! values and its times as durations.

use std::net::SocketAddr;

use serde::{Deserialize, Serialize};

use super::{ConfigError, inv};

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

    /// Checks this section's value ranges.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
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

fn positive_secs(s: f64) -> Option<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
}
