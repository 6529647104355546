//! `[planning]`: the planners of `tablero gvgai plan` and of the `planner` controller (the
//! Fast Downward call), with the checks of its values.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{ConfigError, inv};

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

    /// Checks this section's value ranges.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
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
