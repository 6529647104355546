//! `[log]`: the tracing filter, and the check that turns a filter text into a filter.

use serde::{Deserialize, Serialize};

use super::{ConfigError, inv};

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

impl LogConfig {
    /// Checks that `level` is a tracing filter.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        log_filter(&self.level).map_err(|e| {
            inv(
                "log.level",
                format!("{:?} is not a tracing filter: {e}", self.level),
            )
        })?;
        Ok(())
    }
}

/// A tracing filter (`log.level`, `RUST_LOG`). Directives are ASCII: anything else is refused
/// here, because the filter parser panics on some multi-byte characters. A field value in a
/// span directive (`[span{field=value}]=debug`) matches as a literal, never as a regular
/// expression: compiling one can take seconds for a few hundred bytes of filter.
pub fn log_filter(spec: &str) -> Result<tracing_subscriber::EnvFilter, String> {
    if let Some(c) = spec.chars().find(|c| !c.is_ascii()) {
        return Err(format!("{c:?} is not ASCII"));
    }
    tracing_subscriber::EnvFilter::builder()
        .with_regex(false)
        .parse(spec)
        .map_err(|e| e.to_string())
}
