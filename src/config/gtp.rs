//! `[gtp]`: the GTP front end (line length, engine name, live graphics, analysis reports),
//! with the checks of its values.

use serde::{Deserialize, Serialize};

use super::{ConfigError, inv};

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

impl GtpConfig {
    /// Checks this section's value ranges.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
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
