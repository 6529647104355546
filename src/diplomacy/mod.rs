//! Diplomacy game core: typed model, map and adjudication. Pure: no I/O.
//!
//! Status (issue 4, in progress):
//! - [`model`]: powers, provinces, coasts, units, locations, orders, phases — done.
//! - [`map`]: maps built with a validating builder; the standard map built in
//!   (from the `diplomacy` crate's data, DAIDE names); MDF → map lives in the
//!   DAIDE layer — builder done, MDF conversion not yet written.
//! - [`judge`]: movement adjudication wrapping the `diplomacy` crate (0.2,
//!   MIT, DATC v3 tests) behind tablero's types — done for movement; retreats
//!   and adjustments not yet written; DATC cases in `tests/daide_datc.rs`
//!   (a first subset).
//! - game state / phase sequencing (SCO updates, skipped phases, civil
//!   disorder): not yet written.

pub mod judge;
pub mod map;
pub mod model;

pub use map::{Map, MapBuilder, MapError, ProvinceInfo};
pub use model::{
    Coast, Location, Order, Phase, PhaseKind, Power, Province, ProvinceKind, Season, Unit, UnitType,
};
