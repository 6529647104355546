//! Diplomacy game core: typed model, map and adjudication. Pure: no I/O.
//!
//! Modules:
//! - [`model`]: powers, provinces, coasts, units, locations, orders, phases.
//! - [`map`]: maps built with a validating builder; the standard map built in
//!   (`standard.mdf`, DAIDE names); MDF ⇄ map lives in `daide::convert`.
//! - [`judge`]: movement adjudication wrapping the `diplomacy` crate (0.2,
//!   MIT) behind tablero's types; DATC 6.A–6.G (132 cases) pass in
//!   `tests/daide_datc.rs`.
//! - [`phases`]: retreats, adjustments (builds, removals, waives, civil
//!   disorder), centre ownership, tablero's own code; DATC 6.H.4–16,
//!   6.I and 6.J run in `tests/daide_datc.rs`.
//! - [`infer`]: where each unit ended a movement phase, read from the
//!   positions before and after it (for servers that report no other
//!   power's orders).
//! - [`game`]: position, phase sequencing with the standard skips, ownership
//!   after the fall, elimination, solo threshold, the standard opening. The
//!   year cap and draws are the server's and the tournament's (`daide::server`,
//!   `tournament::diplomacy`), not the game's.

pub mod game;
pub mod infer;
pub mod judge;
pub mod map;
pub mod model;
pub mod phases;
pub mod play;
pub mod validate;

pub use game::{Game, GameView};
pub use map::{Map, MapBuilder, MapError, ProvinceInfo};
pub use model::{
    Coast, Location, Order, Phase, PhaseKind, Power, Province, ProvinceKind, Season, Unit, UnitType,
};
pub use play::Player;
