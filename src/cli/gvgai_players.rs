//! `tablero gvgai play` of a multi-player game: one controller per player.

use std::process::ExitCode;
use std::time::Duration;

use tablero::controllers::make;
use tablero::gvgai::controllers::{self, ControllerSettings};
use tablero::gvgai::engine;

use super::{failure, print_json, usage};

/// The `gvgai play` arguments a two-player game uses.
pub(super) struct TwoPlayers<'a> {
    pub game_name: &'a str,
    pub level: usize,
    pub seed: u64,
    /// `--opponent`: how each search models the other player.
    pub opponent: &'a str,
    /// `--controller2`: player 1's controller (default: player 0's).
    pub controller2: Option<&'a str>,
}

impl TwoPlayers<'_> {
    /// `gvgai play` of a two-player game: player 0 with `c` (`name`), player 1 with
    /// `--controller2`; one JSON line with both players' scores and results.
    pub(super) fn play(
        &self,
        game: &engine::Game,
        mut c: Box<dyn controllers::Controller>,
        name: &str,
        settings: &ControllerSettings,
        act: Duration,
    ) -> ExitCode {
        let a = self;
        let Some(opponent) = engine::Opponent::parse(a.opponent) else {
            return usage(&format!(
                "unknown --opponent {} (random, nil or repeat)",
                a.opponent
            ));
        };
        let name2 = a.controller2.unwrap_or(name).to_string();
        let settings2 = ControllerSettings {
            seed: settings.seed.wrapping_add(1),
            ..*settings
        };
        let mut c2 = match make(&name2, &settings2) {
            Ok(c) => c,
            Err(e) => return usage(&e.to_string()),
        };
        let mut both: [&mut dyn controllers::Controller; 2] = [c.as_mut(), c2.as_mut()];
        match controllers::play_players(game, a.level, a.seed as i64, &mut both, opponent, act) {
            Ok(r) => print_json(&serde_json::json!({
                "game": a.game_name,
                "level": a.level,
                "controllers": [name, name2],
                "opponent": a.opponent,
                "seed": a.seed,
                "wins": r.winners.iter().map(|w| *w == engine::Winner::PlayerWins).collect::<Vec<_>>(),
                "scores": r.scores,
                "ticks": r.ticks,
                "act_ms_max": (r.act_ms_max * 10.0).round() / 10.0,
                "overspent": r.overspent,
                "actions": r.actions,
            })),
            Err(e) => failure(e),
        }
    }
}
