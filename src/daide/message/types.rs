//! The typed DAIDE level-0 messages and their parts (turns, units, orders, map definitions,
//! reports), and [`MessageError`], why a token sequence is not a message.

use thiserror::Error;

use crate::daide::token::{
    CoastToken, OrdResult, Param, PhaseToken, PowerToken, ProvinceToken, ThxNote, Token, UnitKind,
};

/// A game turn: season and year, `(SPR 1901)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The season / phase.
    pub season: PhaseToken,
    /// The year.
    pub year: i16,
}

/// A location: a province, or a province with a coast `(STP NCS)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loc {
    /// A province without coast.
    Prov(ProvinceToken),
    /// A province and one of its coasts.
    Coast(ProvinceToken, CoastToken),
}

impl Loc {
    /// The province of this location.
    pub fn province(self) -> ProvinceToken {
        match self {
            Loc::Prov(p) | Loc::Coast(p, _) => p,
        }
    }
}

/// A unit: `(POW AMY PROV)` or `(POW FLT (PROV COAST))`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Owner.
    pub power: PowerToken,
    /// Army or fleet.
    pub kind: UnitKind,
    /// Where it stands.
    pub loc: Loc,
}

/// A level-0 order, with its own enclosing brackets on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Order {
    /// `(unit) HLD`
    Hold(Unit),
    /// `(unit) MTO loc`
    Move(Unit, Loc),
    /// `(unit) SUP (unit)`
    SupportHold(Unit, Unit),
    /// `(unit) SUP (unit) MTO prov` (no coast)
    SupportMove(Unit, Unit, ProvinceToken),
    /// `(fleet) CVY (army) CTO prov`
    Convoy(Unit, Unit, ProvinceToken),
    /// `(army) CTO prov VIA (sea …)`
    ConvoyMove(Unit, ProvinceToken, Vec<ProvinceToken>),
    /// `(unit) RTO loc`
    Retreat(Unit, Loc),
    /// `(unit) DSB`
    Disband(Unit),
    /// `(unit) BLD`
    Build(Unit),
    /// `(unit) REM`
    Remove(Unit),
    /// `POW WVE`
    Waive(PowerToken),
}

impl Order {
    /// The ordered unit (none for a waive).
    pub fn unit(&self) -> Option<&Unit> {
        match self {
            Order::Hold(u)
            | Order::Move(u, _)
            | Order::SupportHold(u, _)
            | Order::SupportMove(u, _, _)
            | Order::Convoy(u, _, _)
            | Order::ConvoyMove(u, _, _)
            | Order::Retreat(u, _)
            | Order::Disband(u)
            | Order::Build(u)
            | Order::Remove(u) => Some(u),
            Order::Waive(_) => None,
        }
    }
}

/// Something parsed when possible, kept as raw tokens otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Parsed<T> {
    /// Parsed.
    Ok(T),
    /// The raw tokens (bracket-balanced) that did not parse.
    Raw(Vec<Token>),
}

/// Who owns a group of centres in an MDF or SCO.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Owners {
    /// `UNO`
    Unowned,
    /// One power.
    Power(PowerToken),
    /// A home centre shared by several powers: `(POW POW)` (MDF only).
    Shared(Vec<PowerToken>),
}

/// `(owner centre centre …)`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CentreGroup {
    /// The owner(s).
    pub owners: Owners,
    /// The centres.
    pub centres: Vec<ProvinceToken>,
}

/// The unit part of an MDF adjacency list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AdjUnit {
    /// `AMY`
    Army,
    /// `FLT`
    Fleet,
    /// `(FLT coast)`
    FleetCoast(CoastToken),
}

/// `(AMY adj …)`, `(FLT adj …)` or `((FLT coast) adj …)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AdjList {
    /// Which unit (and coast) the list is for.
    pub unit: AdjUnit,
    /// Reachable locations.
    pub to: Vec<Loc>,
}

/// `(PROV (AMY …) (FLT …) …)`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProvinceAdjacency {
    /// The province.
    pub province: ProvinceToken,
    /// Its adjacency lists.
    pub lists: Vec<AdjList>,
}

/// An MDF: `MDF (powers) ((centres…) (non-centres)) (adjacencies…)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MapDef {
    /// The powers, in the server's order.
    pub powers: Vec<PowerToken>,
    /// Supply centres grouped by home owner (UNO for neutral ones).
    pub centres: Vec<CentreGroup>,
    /// Provinces that are not supply centres.
    pub non_centres: Vec<ProvinceToken>,
    /// Adjacency per province.
    pub adjacencies: Vec<ProvinceAdjacency>,
}

/// HLO payload: `(POW) (passcode) (variant…)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hello {
    /// The power assigned.
    pub power: PowerToken,
    /// Passcode for IAM.
    pub passcode: i16,
    /// Variant options, e.g. `(LVL 0) (MTL 1200) (AOA)`.
    pub variant: Vec<(Param, Option<i16>)>,
}

/// A unit in NOW or MIS, with its retreat options when dislodged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlacedUnit {
    /// The unit.
    pub unit: Unit,
    /// `MRT (loc …)` when the unit must retreat.
    pub retreats: Option<Vec<Loc>>,
}

/// NOW payload: the turn and every unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// The current turn.
    pub turn: Turn,
    /// All units on the board.
    pub units: Vec<PlacedUnit>,
}

/// MIS payload.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Missing {
    /// Units still without orders (empty: bare `MIS`, nothing missing / a query).
    Units(Vec<PlacedUnit>),
    /// Adjustments owed: > 0 removals, < 0 builds available.
    Count(i16),
}

/// One ORD line: `(turn) (order) (result…)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrderReport {
    /// The turn resolved.
    pub turn: Turn,
    /// The order (raw when the server sent something malformed).
    pub order: Parsed<Order>,
    /// One or two result tokens (e.g. `BNC RET`).
    pub results: Vec<OrdResult>,
}

/// One SMR entry: `(POW ('name') ('version') centres [year])`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SummaryEntry {
    /// The power.
    pub power: PowerToken,
    /// Player name.
    pub name: String,
    /// Player version.
    pub version: String,
    /// Centres at the end.
    pub centres: i16,
    /// Year of elimination, if eliminated.
    pub eliminated: Option<i16>,
}

/// A level-0 DAIDE message (either direction).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Message {
    /// `NME ('name') ('version')`
    Nme {
        /// Bot name.
        name: String,
        /// Bot version.
        version: String,
    },
    /// `OBS`
    Obs,
    /// `IAM (POW) (passcode)`
    Iam {
        /// Power to rejoin as.
        power: PowerToken,
        /// Passcode from HLO.
        passcode: i16,
    },
    /// `MAP` (query) or `MAP ('name')`
    Map(Option<String>),
    /// `MDF` (query) or a map definition.
    Mdf(Option<std::sync::Arc<MapDef>>),
    /// `YES (message)`
    Yes(Box<Parsed<Message>>),
    /// `REJ (message)`
    Rej(Box<Parsed<Message>>),
    /// `NOT (message)`
    Not(Box<Parsed<Message>>),
    /// `HLO` (query) or `HLO (POW) (passcode) (variant)`
    Hlo(Option<Hello>),
    /// `SCO` (query) or centre ownership.
    Sco(Vec<CentreGroup>),
    /// `NOW` (query) or the position.
    Now(Option<Position>),
    /// `TME` or `TME (seconds)`
    Tme(Option<i16>),
    /// `SUB [(turn)] (order) …`
    Sub {
        /// Optional turn the orders are for.
        turn: Option<Turn>,
        /// The orders.
        orders: Vec<Order>,
    },
    /// `THX (order) (note)`
    Thx {
        /// The order acknowledged.
        order: Order,
        /// The verdict.
        note: ThxNote,
    },
    /// `MIS …`
    Mis(Missing),
    /// `GOF`
    Gof,
    /// `ORD` (query) or one order result.
    Ord(Option<OrderReport>),
    /// `DRW` or `DRW (POW …)` (partial draw, level ≥ 10)
    Drw(Vec<PowerToken>),
    /// `HST (turn)`
    Hst(Turn),
    /// `CCD (POW)` or `CCD (POW) (turn)`
    Ccd {
        /// The power in civil disorder.
        power: PowerToken,
        /// Since when, if given.
        turn: Option<Turn>,
    },
    /// `OUT (POW)`
    Out(PowerToken),
    /// `ADM ('name') ('text')`
    Adm {
        /// Sender name.
        name: String,
        /// Text.
        text: String,
    },
    /// `SLO (POW)`
    Slo(PowerToken),
    /// `SMR (turn) (entry) …`
    Smr {
        /// Final turn.
        turn: Turn,
        /// One entry per power.
        entries: Vec<SummaryEntry>,
    },
    /// `OFF`
    Off,
    /// `HUH (tokens with ERR)`
    Huh(Vec<Token>),
    /// `PRN (tokens, possibly unbalanced)`
    Prn(Vec<Token>),
    /// `FRM (POW) (POW …) (press)` (press kept raw)
    Frm {
        /// Sender.
        from: PowerToken,
        /// Recipients.
        to: Vec<PowerToken>,
        /// The press message, raw.
        press: Vec<Token>,
    },
    /// `SND …` (kept raw)
    Snd(Vec<Token>),
    /// `LOD ('game')`
    Lod(String),
    /// `SVE ('game')`
    Sve(String),
}

/// Why a token sequence is not a valid message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MessageError {
    /// No tokens at all.
    #[error("empty message")]
    Empty,
    /// Brackets do not balance.
    #[error("unbalanced brackets")]
    Unbalanced,
    /// Grammar error; `position` is the index of the first bad token.
    #[error("syntax error at token {position}")]
    Syntax {
        /// Index of the first bad token (may equal the length: premature end).
        position: usize,
    },
}

impl MessageError {
    /// The reply the spec asks for: `PRN (message)` for bracket errors,
    /// `HUH (message with ERR before the first bad token)` otherwise.
    pub fn reply(&self, tokens: &[Token]) -> Message {
        match self {
            MessageError::Unbalanced => Message::Prn(tokens.to_vec()),
            MessageError::Empty => Message::Huh(vec![Token::Param(Param::Err)]),
            MessageError::Syntax { position } => {
                let p = (*position).min(tokens.len());
                let mut v = tokens[..p].to_vec();
                v.push(Token::Param(Param::Err));
                v.extend_from_slice(&tokens[p..]);
                Message::Huh(v)
            }
        }
    }
}
