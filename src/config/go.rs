//! `[go]`: the board size and rules games start with, with the checks of its values.

use serde::{Deserialize, Serialize};

use super::{ConfigError, inv};
use crate::go::game::{KoRule, Rules, Scoring};

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

impl GoConfig {
    /// Checks this section's value ranges.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
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
