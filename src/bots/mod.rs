//! Diplomacy bots: the baseline players HoldBot, RandBot and DumbBot, and the
//! registry that builds a bot from its name (`--bot` everywhere, the daemon's
//! `[[diplomacy.bots]]`, tournament seats).
//!
//! Every bot implements [`crate::diplomacy::Player`] and is a pure function of
//! the [`crate::diplomacy::GameView`] it is given and its seeded random state:
//! no I/O, no clock (the [`crate::budget::Budget`] is ignored — these bots
//! answer in microseconds).

pub mod dumbbot;
pub mod holdbot;
pub mod jic;
pub mod randbot;

use thiserror::Error;

use crate::diplomacy::Player;

pub use dumbbot::DumbBot;
pub use holdbot::HoldBot;
pub use randbot::RandBot;

/// A bot ready to play (the [`Player`] trait is `Send + 'static`).
pub type BoxedBot = Box<dyn Player>;

/// Registry errors.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BotError {
    /// No bot of that name.
    #[error("unknown bot {name:?} (known: {known})")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names the registry knows, comma-separated.
        known: String,
    },
}

/// The bot names [`make`] accepts.
pub const BOT_NAMES: &[&str] = &["holdbot", "randbot", "dumbbot", "jic", "jic-thesis"];

/// Builds the bot called `name` (case-insensitive) with random seed `seed`
/// and the default `[jic]` configuration.
pub fn make(name: &str, seed: u64) -> Result<BoxedBot, BotError> {
    make_with(name, seed, &jic::JicConfig::default())
}

/// Builds the bot called `name` with random seed `seed`; "jic" plays with
/// `jic` (the config's `[jic]` section), "jic-thesis" with the same section
/// in thesis mode.
pub fn make_with(name: &str, seed: u64, jic: &jic::JicConfig) -> Result<BoxedBot, BotError> {
    match name.trim().to_ascii_lowercase().as_str() {
        "holdbot" => Ok(Box::new(HoldBot::new())),
        "randbot" => Ok(Box::new(RandBot::new(seed))),
        "dumbbot" => Ok(Box::new(DumbBot::new(seed))),
        "jic" => Ok(Box::new(jic::JicBot::new(jic.clone(), seed))),
        "jic-thesis" => Ok(Box::new(jic::JicBot::new(
            jic::JicConfig {
                mode: jic::JicMode::Thesis,
                ..jic.clone()
            },
            seed,
        ))),
        other => Err(BotError::Unknown {
            name: other.to_string(),
            known: BOT_NAMES.join(", "),
        }),
    }
}

/// Whether [`make`] knows `name`.
pub fn is_known(name: &str) -> bool {
    make(name, 0).is_ok()
}

/// Helpers shared by the bots.
pub(crate) mod util {
    use crate::diplomacy::phases::buildable_kinds;
    use crate::diplomacy::{GameView, Location, Power, Province, Unit, UnitType};

    /// `me`'s units, in province-index order.
    pub fn my_units(view: &GameView, me: Power) -> Vec<Unit> {
        let mut units: Vec<Unit> = view
            .units
            .iter()
            .filter(|u| u.power == me)
            .copied()
            .collect();
        units.sort_by_key(|u| u.location.province);
        units
    }

    /// `me`'s home centres that `me` owns and no unit stands in, in province-name order.
    pub fn open_home_centres(view: &GameView, me: Power) -> Vec<Province> {
        let mut open: Vec<Province> = view
            .map
            .home_centres(me)
            .filter(|p| view.owners.get(p) == Some(&me))
            .filter(|p| !view.units.iter().any(|u| u.location.province == *p))
            .collect();
        open.sort_by(|a, b| view.map.name(*a).cmp(view.map.name(*b)));
        open
    }

    /// Every unit that could be built in `p`: an army where armies stand, a
    /// fleet on every coast where fleets stand.
    pub fn build_options(view: &GameView, me: Power, p: Province) -> Vec<Unit> {
        let map = &view.map;
        let mut out = Vec::new();
        if map.can_stand(UnitType::Army, Location::new(p)) {
            out.push(Unit {
                power: me,
                kind: UnitType::Army,
                location: Location::new(p),
            });
        }
        for l in buildable_kinds(map, p) {
            if map.can_stand(UnitType::Fleet, l) {
                out.push(Unit {
                    power: me,
                    kind: UnitType::Fleet,
                    location: l,
                });
            }
        }
        out
    }

    /// Where `u` can move (its own army or fleet graph), in name order.
    pub fn destinations(view: &GameView, u: &Unit) -> Vec<Location> {
        let mut out: Vec<Location> = match u.kind {
            UnitType::Army => view
                .map
                .army_neighbours(u.location.province)
                .iter()
                .map(|p| Location::new(*p))
                .collect(),
            UnitType::Fleet => view.map.fleet_neighbours(u.location).to_vec(),
        };
        out.sort_by(|a, b| {
            view.map
                .name(a.province)
                .cmp(view.map.name(b.province))
                .then(a.coast.cmp(&b.coast))
        });
        out
    }
}

#[cfg(test)]
mod tests;
