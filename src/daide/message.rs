//! The DAIDE level-0 message grammar: typed [`Message`]s parsed from token
//! slices with nom, and written back to tokens.
//!
//! Covers both directions of the level-0 client/server language: NME, OBS, IAM,
//! MAP, MDF, YES, REJ, NOT, HLO, SCO, NOW, TME, SUB, THX, MIS, GOF, ORD, DRW,
//! HST, CCD, OUT, ADM, SLO, SMR, OFF, HUH, PRN, LOD, SVE, and press envelopes
//! (FRM, SND) whose press body stays as raw tokens (a no-press bot only needs
//! to answer it). A bare query (`MAP`, `MDF`, `HLO`, `SCO`, `NOW`, `ORD`, `TME`,
//! `MIS`) is the same message with no payload (`None` / empty).
//!
//! Parsing never panics: [`parse_message`] first checks bracket balance
//! ([`MessageError::Unbalanced`] → answer `PRN`), then the grammar
//! ([`MessageError::Syntax`] with the token position → answer
//! `HUH (… ERR …)`, see [`MessageError::reply`]). Nested messages inside
//! YES/REJ/NOT are parsed when possible and kept raw otherwise, as is the order
//! in an ORD (the `diplomacy` server echoes convoy orders malformed there).

mod parse;
mod types;
mod write;

pub use parse::{brackets_balanced, parse_message, parse_order};
pub use types::{
    AdjList, AdjUnit, CentreGroup, Hello, Loc, MapDef, Message, MessageError, Missing, Order,
    OrderReport, Owners, Parsed, PlacedUnit, Position, ProvinceAdjacency, SummaryEntry, Turn, Unit,
};

#[cfg(test)]
mod tests;
