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
/// expression: compiling one can take seconds for a few hundred bytes of filter. Of several
/// directives that differ only in their level the last one holds, as in the filter itself;
/// only that one is passed on, because the filter's debug builds assert on two equal
/// directives with literal field values.
pub fn log_filter(spec: &str) -> Result<tracing_subscriber::EnvFilter, String> {
    if let Some(c) = spec.chars().find(|c| !c.is_ascii()) {
        return Err(format!("{c:?} is not ASCII"));
    }
    let builder = || tracing_subscriber::EnvFilter::builder().with_regex(false);
    // (what a directive selects, its text), the last directive for each selection
    let mut kept: Vec<(String, &str)> = Vec::new();
    for directive in spec.split(',').filter(|d| !d.is_empty()) {
        let canonical = builder()
            .parse(directive)
            .map_err(|e| e.to_string())?
            .to_string();
        let selects = canonical
            .rsplit_once('=')
            .map_or(String::new(), |(s, _level)| s.to_string());
        kept.retain(|(s, _)| *s != selects);
        kept.push((selects, directive));
    }
    let unique: Vec<&str> = kept.iter().map(|&(_, d)| d).collect();
    builder().parse(unique.join(",")).map_err(|e| e.to_string())
}
