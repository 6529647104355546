//! Embedded DAIDE server, level 0.
//!
//! [`ServerGame`] is the sans-I/O host of one game: client messages in,
//! [`Output`]s (messages per client, closes) out; [`ServerGame::deadline_expired`]
//! is called by the driver when a phase deadline passes. [`run_game`] hosts one
//! game over a TCP listener, [`run_server`] several at once (IM timer, RM, a
//! session per connection on the daemon's listener, a hub that routes
//! connections to games); [`serve_games`] does the same on a listener of
//! `tablero serve`.
//!
//! What it does:
//! - `NME` takes a free seat (powers assigned in a seeded random order; a
//!   name `POW:rest`, e.g. `TUR:dumbbot`, asks for that power, as the
//!   `diplomacy` server's power choice does — `REJ` if it is taken) →
//!   `YES (NME …)`, `MAP ('name')`; `OBS` → `YES (OBS)`, `MAP`; `IAM (POW)
//!   (passcode)` re-attaches a seat whose connection dropped
//!   (`NOT (CCD (POW))` is broadcast);
//! - `MDF`, `MAP`, `HLO`, `SCO`, `NOW`, `TME`, `MIS`, `ORD` queries are
//!   answered, and `HST (turn)` with that turn's `ORD`s, then the `SCO` (if
//!   one followed) and the `NOW` that followed;
//! - the game starts when every seat is taken and has accepted the map:
//!   `HLO` to each player, then `SCO`, `NOW`, `TME` (if deadlines) to all;
//! - `SUB`: each order is checked ([`crate::diplomacy::validate`]) and
//!   answered with `THX (order) (note)`; accepted orders replace earlier ones
//!   for the same unit; then `MIS` lists what is still missing. A `SUB` naming
//!   another turn is refused with `REJ`. `NOT (SUB)` / `NOT (SUB (order))`
//!   cancel;
//! - a phase is processed when every power that must order is ready, or
//!   when the deadline passes. Ready: nothing to order, no connection, or a
//!   `SUB` for this turn
//!   followed by `GOF`, or a complete order set without `NOT (GOF)`. A `GOF`
//!   before the seat's first `SUB` of the turn is answered `REJ (GOF)` and
//!   does not count: it was sent for an earlier turn (a turn processed on a
//!   seat's complete `SUB` moves on before the `GOF` the client sent after
//!   it is read). Then `ORD` for every unit of
//!   every power (unordered units hold, missing retreats disband, civil
//!   disorder removals and waives are reported), `SCO` after the fall and the
//!   adjustments, `NOW`, `TME`;
//! - a connected power that misses a deadline gets `CCD (POW) (turn)`
//!   broadcast, and `NOT (CCD (POW))` when it orders again;
//! - `OUT (POW)` on elimination; `SLO (POW)` at the solo threshold; a draw
//!   (`DRW`) when every surviving power has sent `DRW` this phase, or when
//!   the year cap is passed; then `SMR` and `OFF`;
//! - press (`SND`) is refused with `REJ` (level 0); malformed messages get
//!   `HUH`/`PRN`; unexpected ones `REJ`.
//!
//! Layout: [`ServerGame`] and its state machine live in `host` (seats and
//! joining, orders, turn processing); the TCP driver ([`run_game`],
//! [`run_server`], [`run_server_with`], [`serve_games`]) in `runtime`; the
//! results file in `results`; this module holds the types they share.

mod host;
mod results;
mod runtime;

use std::sync::Arc;

use serde::Serialize;
use thiserror::Error;

use super::message::Message;
use super::token::TokenTable;
use crate::diplomacy::judge::Rules;
use crate::diplomacy::{Map, Phase, Power, Season, Unit};

pub use host::ServerGame;
pub use results::{ResultsError, ResultsFile};
pub use runtime::{IM_TIMEOUT, run_game, run_server, run_server_with, serve_games};

/// A connection's id, chosen by the driver.
pub type ClientId = u64;

/// What the host asks the driver to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Send a message to a client.
    Send(ClientId, Message),
    /// Close a client's connection (after the messages before it).
    Close(ClientId),
}

/// Game settings.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The map.
    pub map: Arc<Map>,
    /// Its name in `MAP ('…')`.
    pub map_name: String,
    /// The representation table (standard: an empty RM is sent).
    pub table: TokenTable,
    /// The starting position.
    pub opening: Vec<Unit>,
    /// The first phase.
    pub start: Phase,
    /// Seconds per phase (MTL = RTL = BTL); None: no deadlines.
    pub deadline: Option<u16>,
    /// Last year played; the game ends in a draw of the survivors after it.
    pub end_year: Option<i16>,
    /// Seed for power assignment and passcodes.
    pub seed: u64,
    /// Adjudication rules.
    pub rules: Rules,
}

impl ServerConfig {
    /// The standard game.
    pub fn standard(seed: u64) -> ServerConfig {
        let map = Map::standard();
        let opening = crate::diplomacy::game::standard_opening(&map);
        ServerConfig {
            map: Arc::new(map),
            map_name: "standard".into(),
            table: TokenTable::standard(),
            opening,
            start: Phase {
                year: 1901,
                season: Season::Spring,
            },
            deadline: None,
            end_year: None,
            seed,
            rules: Rules::default(),
        }
    }
}

/// Server setup errors.
#[derive(Debug, Error)]
pub enum ServerError {
    /// The opening position is invalid for the map.
    #[error("invalid opening position: {0}")]
    Opening(String),
    /// A power or province of the map has no token in the table.
    #[error("map and table disagree: {0}")]
    Names(String),
    /// Socket error.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

/// What the server saw of one seat's ordering over a game: a tournament organiser's check
/// that every bot's orders reached the adjudicator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SeatStats {
    /// Phases processed in which the power had orders to give.
    pub phases_to_order: u32,
    /// Of those, phases processed without any `SUB` from it for that turn (a missed
    /// deadline, a dropped connection, or a turn that moved on before its orders came).
    pub phases_without_orders: u32,
    /// Orders answered with a `THX` note other than `MBV` (the unit then holds, disbands or
    /// the build is waived).
    pub refused_orders: u32,
    /// `SUB`s refused for naming another turn (`REJ (SUB …)`).
    pub rejected_subs: u32,
    /// Over the phases it ordered: milliseconds from the phase's `NOW` to its last `SUB`.
    pub order_ms_total: u64,
    /// The longest of those times, in milliseconds.
    pub order_ms_max: u64,
}

impl SeatStats {
    /// Phases in which the power had orders to give and sent them.
    pub fn phases_ordered(&self) -> u32 {
        self.phases_to_order - self.phases_without_orders
    }

    /// Adds another game's figures to these.
    pub fn add(&mut self, other: &SeatStats) {
        self.phases_to_order += other.phases_to_order;
        self.phases_without_orders += other.phases_without_orders;
        self.refused_orders += other.refused_orders;
        self.rejected_subs += other.rejected_subs;
        self.order_ms_total += other.order_ms_total;
        self.order_ms_max = self.order_ms_max.max(other.order_ms_max);
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A solo by this power.
    Solo(Power),
    /// A draw among the survivors (agreed or by the year cap).
    Draw(Vec<Power>),
}

/// Limits of the embedded server's listener (a [`crate::daemon::Daemon`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListenerLimits {
    /// Connections served at once (players, observers and ones that have not sent `IM` yet).
    /// One more is accepted and held, unanswered, until one of them has closed; later clients
    /// wait in the kernel's listen queue.
    pub max_connections: usize,
}

impl Default for ListenerLimits {
    fn default() -> Self {
        ListenerLimits {
            max_connections: 64,
        }
    }
}

/// One finished game, as the server logs it and a [`ResultsFile`] stores it (one JSON line per
/// game).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GameRecord {
    /// The game's number on this server, from 0 in the order games opened.
    pub game: u64,
    /// The seed of its power assignment and passcodes.
    pub seed: u64,
    /// The phase it ended in: the first one not played, e.g. `S1903M` for a game that
    /// ended by the year cap after 1902.
    pub phase: String,
    /// When it ended, in seconds since the Unix epoch.
    pub ended: u64,
    /// `solo` or `draw`.
    pub ending: String,
    /// The power that won a solo.
    pub winner: Option<String>,
    /// Every power: its player's name and its centres at the end.
    pub powers: Vec<PowerRecord>,
}

/// A power's line in a [`GameRecord`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PowerRecord {
    /// The power, e.g. `AUS`.
    pub power: String,
    /// The name its player sent in `NME` (empty if nobody took it).
    pub name: String,
    /// Supply centres owned at the end.
    pub centres: usize,
}

impl GameRecord {
    /// The record of `host`, game number `game`.
    pub fn new(game: u64, host: &ServerGame) -> GameRecord {
        let map = host.game().map();
        let power_name = |p: Power| map.power_name(p).unwrap_or("?").to_string();
        let (ending, winner) = match host.ending() {
            Some(Ending::Solo(p)) => ("solo", Some(power_name(*p))),
            _ => ("draw", None),
        };
        let mut powers: Vec<PowerRecord> = host
            .players()
            .into_iter()
            .map(|(p, name)| PowerRecord {
                power: power_name(p),
                name,
                centres: host.game().centre_count(p),
            })
            .collect();
        powers.sort_by(|a, b| a.power.cmp(&b.power));
        GameRecord {
            game,
            seed: host.config().seed,
            phase: host.game().phase().to_string(),
            ended: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            ending: ending.into(),
            winner,
            powers,
        }
    }

    /// `AUS=5 ENG=4 …`, for logs.
    pub fn centres_text(&self) -> String {
        let parts: Vec<String> = self
            .powers
            .iter()
            .map(|p| format!("{}={}", p.power, p.centres))
            .collect();
        parts.join(" ")
    }
}
