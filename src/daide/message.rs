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

use nom::branch::alt;
use nom::combinator::{cut, map, opt, peek};
use nom::error::{ErrorKind, ParseError};
use nom::multi::{many0, many1};
use nom::sequence::{delimited, pair, preceded, terminated, tuple};
use nom::{Err as NomErr, IResult};
use thiserror::Error;

use super::token::{
    CoastToken, Command, OrdResult, OrderToken, Param, PhaseToken, PowerToken, ProvinceToken,
    ThxNote, Token, UnitKind,
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
    Mdf(Option<Box<MapDef>>),
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

// ---------------------------------------------------------------------------
// Parsing

type In<'a> = &'a [Token];

/// Parser error remembering the farthest failure (fewest tokens left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PErr {
    rest: usize,
}

impl<'a> ParseError<In<'a>> for PErr {
    fn from_error_kind(input: In<'a>, _: ErrorKind) -> Self {
        PErr { rest: input.len() }
    }
    fn append(_: In<'a>, _: ErrorKind, other: Self) -> Self {
        other
    }
    fn or(self, other: Self) -> Self {
        if other.rest < self.rest { other } else { self }
    }
}

type PResult<'a, T> = IResult<In<'a>, T, PErr>;

fn fail<T>(i: In<'_>) -> PResult<'_, T> {
    Err(NomErr::Error(PErr { rest: i.len() }))
}

fn next_map<T>(f: impl Fn(Token) -> Option<T>) -> impl Fn(In<'_>) -> PResult<'_, T> {
    move |i: In<'_>| match i.split_first() {
        Some((t, rest)) => match f(*t) {
            Some(v) => Ok((rest, v)),
            None => fail(i),
        },
        None => fail(i),
    }
}

fn tok(want: Token) -> impl Fn(In<'_>) -> PResult<'_, ()> {
    next_map(move |t| (t == want).then_some(()))
}

fn ord_tok(o: OrderToken) -> impl Fn(In<'_>) -> PResult<'_, ()> {
    tok(Token::Order(o))
}

fn bra(i: In<'_>) -> PResult<'_, ()> {
    tok(Token::Bra)(i)
}

fn ket(i: In<'_>) -> PResult<'_, ()> {
    tok(Token::Ket)(i)
}

fn group<'a, T>(p: impl FnMut(In<'a>) -> PResult<'a, T>) -> impl FnMut(In<'a>) -> PResult<'a, T> {
    delimited(bra, p, ket)
}

/// Zero or more bracketed items; once a `(` is seen the item must parse.
fn groups<'a, T>(
    p: impl FnMut(In<'a>) -> PResult<'a, T>,
) -> impl FnMut(In<'a>) -> PResult<'a, Vec<T>> {
    many0(preceded(peek(bra), cut(p)))
}

/// An optional bracketed item; once a `(` is seen it must parse.
fn opt_group<'a, T>(
    p: impl FnMut(In<'a>) -> PResult<'a, T>,
) -> impl FnMut(In<'a>) -> PResult<'a, Option<T>> {
    opt(preceded(peek(bra), cut(p)))
}

fn power(i: In<'_>) -> PResult<'_, PowerToken> {
    next_map(|t| match t {
        Token::Power(p) => Some(p),
        _ => None,
    })(i)
}

fn province(i: In<'_>) -> PResult<'_, ProvinceToken> {
    next_map(|t| match t {
        Token::Province(p) => Some(p),
        _ => None,
    })(i)
}

fn coast(i: In<'_>) -> PResult<'_, CoastToken> {
    next_map(|t| match t {
        Token::Coast(c) => Some(c),
        _ => None,
    })(i)
}

fn int(i: In<'_>) -> PResult<'_, i16> {
    next_map(|t| match t {
        Token::Int(v) => Some(v),
        _ => None,
    })(i)
}

fn unit_kind(i: In<'_>) -> PResult<'_, UnitKind> {
    next_map(|t| match t {
        Token::Unit(u) => Some(u),
        _ => None,
    })(i)
}

fn param(i: In<'_>) -> PResult<'_, Param> {
    next_map(|t| match t {
        Token::Param(p) => Some(p),
        _ => None,
    })(i)
}

fn text(i: In<'_>) -> PResult<'_, String> {
    map(
        many0(next_map(|t| match t {
            Token::Text(b) => Some(b as char),
            _ => None,
        })),
        |cs| cs.into_iter().collect(),
    )(i)
}

fn loc(i: In<'_>) -> PResult<'_, Loc> {
    alt((
        map(province, Loc::Prov),
        map(group(pair(province, coast)), |(p, c)| Loc::Coast(p, c)),
    ))(i)
}

fn turn(i: In<'_>) -> PResult<'_, Turn> {
    map(
        pair(
            next_map(|t| match t {
                Token::Phase(p) => Some(p),
                _ => None,
            }),
            int,
        ),
        |(season, year)| Turn { season, year },
    )(i)
}

fn unit_body(i: In<'_>) -> PResult<'_, Unit> {
    map(tuple((power, unit_kind, loc)), |(power, kind, loc)| Unit {
        power,
        kind,
        loc,
    })(i)
}

fn unit(i: In<'_>) -> PResult<'_, Unit> {
    group(unit_body)(i)
}

fn order_body(i: In<'_>) -> PResult<'_, Order> {
    alt((
        map(terminated(power, ord_tok(OrderToken::Wve)), Order::Waive),
        |i| {
            let (i, u) = unit(i)?;
            alt((
                map(ord_tok(OrderToken::Hld), move |_| Order::Hold(u)),
                map(preceded(ord_tok(OrderToken::Mto), loc), move |l| {
                    Order::Move(u, l)
                }),
                map(
                    preceded(
                        ord_tok(OrderToken::Sup),
                        pair(unit, opt(preceded(ord_tok(OrderToken::Mto), province))),
                    ),
                    move |(v, to)| match to {
                        Some(p) => Order::SupportMove(u, v, p),
                        None => Order::SupportHold(u, v),
                    },
                ),
                map(
                    tuple((
                        ord_tok(OrderToken::Cvy),
                        unit,
                        ord_tok(OrderToken::Cto),
                        province,
                    )),
                    move |(_, v, _, p)| Order::Convoy(u, v, p),
                ),
                map(
                    tuple((
                        ord_tok(OrderToken::Cto),
                        province,
                        ord_tok(OrderToken::Via),
                        group(many1(province)),
                    )),
                    move |(_, p, _, via)| Order::ConvoyMove(u, p, via),
                ),
                map(preceded(ord_tok(OrderToken::Rto), loc), move |l| {
                    Order::Retreat(u, l)
                }),
                map(ord_tok(OrderToken::Dsb), move |_| Order::Disband(u)),
                map(ord_tok(OrderToken::Bld), move |_| Order::Build(u)),
                map(ord_tok(OrderToken::Rem), move |_| Order::Remove(u)),
            ))(i)
        },
    ))(i)
}

fn order(i: In<'_>) -> PResult<'_, Order> {
    group(order_body)(i)
}

/// A bracket-balanced run of tokens (stops before an unmatched `)`).
fn balanced(i: In<'_>) -> PResult<'_, Vec<Token>> {
    let mut depth = 0usize;
    let mut n = 0;
    for t in i {
        match t {
            Token::Bra => depth += 1,
            Token::Ket if depth == 0 => break,
            Token::Ket => depth -= 1,
            _ => {}
        }
        n += 1;
    }
    if depth != 0 {
        return fail(i);
    }
    Ok((&i[n..], i[..n].to_vec()))
}

/// `( message )` parsed if possible, raw otherwise.
fn nested(i: In<'_>) -> PResult<'_, Box<Parsed<Message>>> {
    map(group(balanced), |toks| {
        Box::new(match message_exact(&toks) {
            Ok(m) => Parsed::Ok(m),
            Err(_) => Parsed::Raw(toks),
        })
    })(i)
}

fn placed_unit(i: In<'_>) -> PResult<'_, PlacedUnit> {
    map(
        group(pair(
            unit_body,
            opt(preceded(tok(Token::Param(Param::Mrt)), group(many0(loc)))),
        )),
        |(unit, retreats)| PlacedUnit { unit, retreats },
    )(i)
}

fn centre_group(i: In<'_>) -> PResult<'_, CentreGroup> {
    map(
        group(pair(
            alt((
                map(tok(Token::Param(Param::Uno)), |_| Owners::Unowned),
                map(power, Owners::Power),
                map(group(many1(power)), Owners::Shared),
            )),
            many0(province),
        )),
        |(owners, centres)| CentreGroup { owners, centres },
    )(i)
}

fn adj_list(i: In<'_>) -> PResult<'_, AdjList> {
    map(
        group(pair(
            alt((
                map(tok(Token::Unit(UnitKind::Amy)), |_| AdjUnit::Army),
                map(tok(Token::Unit(UnitKind::Flt)), |_| AdjUnit::Fleet),
                map(
                    group(preceded(tok(Token::Unit(UnitKind::Flt)), coast)),
                    AdjUnit::FleetCoast,
                ),
            )),
            many0(loc),
        )),
        |(unit, to)| AdjList { unit, to },
    )(i)
}

fn map_def(i: In<'_>) -> PResult<'_, MapDef> {
    map(
        tuple((
            group(many0(power)),
            group(pair(group(groups(centre_group)), group(many0(province)))),
            group(groups(group(pair(province, groups(adj_list))))),
        )),
        |(powers, (centres, non_centres), adj)| MapDef {
            powers,
            centres,
            non_centres,
            adjacencies: adj
                .into_iter()
                .map(|(province, lists)| ProvinceAdjacency { province, lists })
                .collect(),
        },
    )(i)
}

fn hello(i: In<'_>) -> PResult<'_, Hello> {
    map(
        tuple((
            group(power),
            group(int),
            group(groups(group(pair(param, opt(int))))),
        )),
        |(power, passcode, variant)| Hello {
            power,
            passcode,
            variant,
        },
    )(i)
}

fn summary_entry(i: In<'_>) -> PResult<'_, SummaryEntry> {
    map(
        group(tuple((power, group(text), group(text), int, opt(int)))),
        |(power, name, version, centres, eliminated)| SummaryEntry {
            power,
            name,
            version,
            centres,
            eliminated,
        },
    )(i)
}

/// An `ORD`'s body, if any: `(turn) (order) (results)`; the order stays raw
/// when it does not parse.
fn order_report(i: In<'_>) -> PResult<'_, Option<OrderReport>> {
    map(
        opt_group(tuple((
            group(turn),
            group(balanced),
            group(many1(next_map(|t| match t {
                Token::Result(r) => Some(r),
                _ => None,
            }))),
        ))),
        |r| {
            r.map(|(turn, toks, results)| {
                let mut wrapped = Vec::with_capacity(toks.len() + 2);
                wrapped.push(Token::Bra);
                wrapped.extend_from_slice(&toks);
                wrapped.push(Token::Ket);
                let order = match order(&wrapped) {
                    Ok(([], o)) => Parsed::Ok(o),
                    _ => Parsed::Raw(toks),
                };
                OrderReport {
                    turn,
                    order,
                    results,
                }
            })
        },
    )(i)
}

fn message(i: In<'_>) -> PResult<'_, Message> {
    let (rest, c) = next_map(|t| match t {
        Token::Command(c) => Some(c),
        _ => None,
    })(i)?;
    let i = rest;
    match c {
        Command::Nme => map(pair(group(text), group(text)), |(name, version)| {
            Message::Nme { name, version }
        })(i),
        Command::Obs => Ok((i, Message::Obs)),
        Command::Iam => map(pair(group(power), group(int)), |(power, passcode)| {
            Message::Iam { power, passcode }
        })(i),
        Command::Map => map(opt_group(group(text)), Message::Map)(i),
        Command::Mdf => map(opt_group(map_def), |m| Message::Mdf(m.map(Box::new)))(i),
        Command::Yes => map(nested, Message::Yes)(i),
        Command::Rej => map(nested, Message::Rej)(i),
        Command::Not => map(nested, Message::Not)(i),
        Command::Hlo => map(opt_group(hello), Message::Hlo)(i),
        Command::Sco => map(groups(centre_group), Message::Sco)(i),
        Command::Now => map(opt_group(pair(group(turn), groups(placed_unit))), |p| {
            Message::Now(p.map(|(turn, units)| Position { turn, units }))
        })(i),
        Command::Tme => map(opt_group(group(int)), Message::Tme)(i),
        Command::Sub => {
            // An optional turn comes first: `(SPR 1901)`; orders start `((` or `(POW WVE`.
            let (i, t) = opt(group(turn))(i)?;
            map(groups(order), move |orders| Message::Sub {
                turn: t,
                orders,
            })(i)
        }
        Command::Thx => map(
            pair(
                order,
                group(next_map(|t| match t {
                    Token::Note(n) => Some(n),
                    _ => None,
                })),
            ),
            |(order, note)| Message::Thx { order, note },
        )(i),
        Command::Mis => alt((
            map(group(int), |n| Message::Mis(Missing::Count(n))),
            map(groups(placed_unit), |u| Message::Mis(Missing::Units(u))),
        ))(i),
        Command::Gof => Ok((i, Message::Gof)),
        Command::Ord => map(order_report, Message::Ord)(i),
        Command::Drw => map(opt_group(group(many1(power))), |p| {
            Message::Drw(p.unwrap_or_default())
        })(i),
        Command::Hst => map(group(turn), Message::Hst)(i),
        Command::Ccd => map(
            pair(group(power), opt_group(group(turn))),
            |(power, turn)| Message::Ccd { power, turn },
        )(i),
        Command::Out => map(group(power), Message::Out)(i),
        Command::Adm => map(pair(group(text), group(text)), |(name, text)| {
            Message::Adm { name, text }
        })(i),
        Command::Slo => map(group(power), Message::Slo)(i),
        Command::Smr => map(
            pair(group(turn), groups(summary_entry)),
            |(turn, entries)| Message::Smr { turn, entries },
        )(i),
        Command::Off => Ok((i, Message::Off)),
        Command::Huh => map(group(balanced), Message::Huh)(i),
        Command::Prn => {
            // Content may be unbalanced: everything between the first `(` and a final `)`.
            match i {
                [Token::Bra, inner @ .., Token::Ket] => {
                    Ok((&i[i.len()..], Message::Prn(inner.to_vec())))
                }
                _ => fail(i),
            }
        }
        Command::Frm => map(
            tuple((group(power), group(many0(power)), group(balanced))),
            |(from, to, press)| Message::Frm { from, to, press },
        )(i),
        Command::Snd => map(balanced, Message::Snd)(i),
        Command::Lod => map(group(text), Message::Lod)(i),
        Command::Sve => map(group(text), Message::Sve)(i),
    }
}

fn message_exact(tokens: &[Token]) -> Result<Message, usize> {
    match message(tokens) {
        Ok(([], m)) => Ok(m),
        Ok((rest, _)) => Err(tokens.len() - rest.len()),
        Err(NomErr::Error(e)) | Err(NomErr::Failure(e)) => Err(tokens.len() - e.rest),
        Err(NomErr::Incomplete(_)) => Err(tokens.len()),
    }
}

/// Checks that brackets balance.
pub fn brackets_balanced(tokens: &[Token]) -> bool {
    let mut depth: i64 = 0;
    for t in tokens {
        match t {
            Token::Bra => depth += 1,
            Token::Ket => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Parses one complete message from its tokens.
pub fn parse_message(tokens: &[Token]) -> Result<Message, MessageError> {
    if tokens.is_empty() {
        return Err(MessageError::Empty);
    }
    // A PRN quotes an unbalanced message, so a well-formed one is exempt from the check; one
    // that is not well-formed is a bracket error like any other (a HUH quoting it would not
    // balance).
    let balanced = brackets_balanced(tokens);
    if tokens[0] != Token::Command(Command::Prn) && !balanced {
        return Err(MessageError::Unbalanced);
    }
    message_exact(tokens).map_err(|position| {
        if balanced {
            MessageError::Syntax { position }
        } else {
            MessageError::Unbalanced
        }
    })
}

/// Parses the tokens of one order (with its brackets), e.g. for THX handling.
pub fn parse_order(tokens: &[Token]) -> Result<Order, MessageError> {
    match order(tokens) {
        Ok(([], o)) => Ok(o),
        Ok((rest, _)) => Err(MessageError::Syntax {
            position: tokens.len() - rest.len(),
        }),
        Err(NomErr::Error(e)) | Err(NomErr::Failure(e)) => Err(MessageError::Syntax {
            position: tokens.len() - e.rest,
        }),
        Err(NomErr::Incomplete(_)) => Err(MessageError::Syntax {
            position: tokens.len(),
        }),
    }
}

// ---------------------------------------------------------------------------
// Writing

struct W(Vec<Token>);

impl W {
    fn t(&mut self, t: impl Into<TokenLike>) -> &mut Self {
        self.0.push(t.into().0);
        self
    }
    fn open(&mut self) -> &mut Self {
        self.0.push(Token::Bra);
        self
    }
    fn close(&mut self) -> &mut Self {
        self.0.push(Token::Ket);
        self
    }
    fn text(&mut self, s: &str) -> &mut Self {
        self.open();
        for c in s.chars() {
            let b = u8::try_from(u32::from(c)).unwrap_or(b'?');
            self.0.push(Token::Text(b));
        }
        self.close()
    }
    fn int(&mut self, v: i16) -> &mut Self {
        // Values from parsed tokens are always in range; clamp anything else.
        self.0.push(Token::Int(v.clamp(-8192, 8191)));
        self
    }
    fn loc(&mut self, l: Loc) -> &mut Self {
        match l {
            Loc::Prov(p) => self.t(p),
            Loc::Coast(p, c) => self.open().t(p).t(c).close(),
        }
    }
    fn turn(&mut self, t: Turn) -> &mut Self {
        self.open().t(t.season).int(t.year).close()
    }
    fn unit(&mut self, u: &Unit) -> &mut Self {
        self.open().t(u.power).t(u.kind).loc(u.loc).close()
    }
    fn order(&mut self, o: &Order) -> &mut Self {
        self.open();
        match o {
            Order::Hold(u) => self.unit(u).t(OrderToken::Hld),
            Order::Move(u, l) => self.unit(u).t(OrderToken::Mto).loc(*l),
            Order::SupportHold(u, v) => self.unit(u).t(OrderToken::Sup).unit(v),
            Order::SupportMove(u, v, p) => self
                .unit(u)
                .t(OrderToken::Sup)
                .unit(v)
                .t(OrderToken::Mto)
                .t(*p),
            Order::Convoy(u, v, p) => self
                .unit(u)
                .t(OrderToken::Cvy)
                .unit(v)
                .t(OrderToken::Cto)
                .t(*p),
            Order::ConvoyMove(u, p, via) => {
                self.unit(u)
                    .t(OrderToken::Cto)
                    .t(*p)
                    .t(OrderToken::Via)
                    .open();
                for s in via {
                    self.t(*s);
                }
                self.close()
            }
            Order::Retreat(u, l) => self.unit(u).t(OrderToken::Rto).loc(*l),
            Order::Disband(u) => self.unit(u).t(OrderToken::Dsb),
            Order::Build(u) => self.unit(u).t(OrderToken::Bld),
            Order::Remove(u) => self.unit(u).t(OrderToken::Rem),
            Order::Waive(p) => self.t(*p).t(OrderToken::Wve),
        };
        self.close()
    }
    fn placed(&mut self, u: &PlacedUnit) -> &mut Self {
        self.open().t(u.unit.power).t(u.unit.kind).loc(u.unit.loc);
        if let Some(r) = &u.retreats {
            self.t(Param::Mrt).open();
            for l in r {
                self.loc(*l);
            }
            self.close();
        }
        self.close()
    }
    fn centres(&mut self, g: &CentreGroup) -> &mut Self {
        self.open();
        match &g.owners {
            Owners::Unowned => self.t(Param::Uno),
            Owners::Power(p) => self.t(*p),
            Owners::Shared(ps) => {
                self.open();
                for p in ps {
                    self.t(*p);
                }
                self.close()
            }
        };
        for c in &g.centres {
            self.t(*c);
        }
        self.close()
    }
    fn nested(&mut self, m: &Parsed<Message>) -> &mut Self {
        self.open();
        match m {
            Parsed::Ok(m) => m.write(self),
            Parsed::Raw(t) => self.0.extend_from_slice(t),
        }
        self.close()
    }
    fn raw(&mut self, t: &[Token]) -> &mut Self {
        self.0.extend_from_slice(t);
        self
    }
}

/// Anything that converts to a token (helper for the writer).
struct TokenLike(Token);

macro_rules! token_like {
    ($($ty:ty => $var:expr),* $(,)?) => {
        $(impl From<$ty> for TokenLike { fn from(v: $ty) -> Self { TokenLike($var(v)) } })*
    };
}
token_like!(
    Token => |t| t,
    Command => Token::Command,
    OrderToken => Token::Order,
    Param => Token::Param,
    PowerToken => Token::Power,
    ProvinceToken => Token::Province,
    CoastToken => Token::Coast,
    UnitKind => Token::Unit,
    PhaseToken => Token::Phase,
    ThxNote => Token::Note,
    OrdResult => Token::Result,
);

impl Message {
    /// The tokens of this message.
    pub fn to_tokens(&self) -> Vec<Token> {
        let mut w = W(Vec::new());
        self.write(&mut w);
        w.0
    }

    /// Parses a message (see [`parse_message`]).
    pub fn from_tokens(tokens: &[Token]) -> Result<Message, MessageError> {
        parse_message(tokens)
    }

    fn write(&self, w: &mut W) {
        match self {
            // Joining and the map.
            Message::Nme { name, version } => w.t(Command::Nme).text(name).text(version),
            Message::Obs => w.t(Command::Obs),
            Message::Iam { power, passcode } => {
                w.t(Command::Iam).group(*power).int_group(*passcode)
            }
            Message::Map(name) => w.t(Command::Map).maybe(name.as_ref(), |w, n| w.text(n)),
            Message::Mdf(def) => w.t(Command::Mdf).maybe(def.as_deref(), W::map_def),
            Message::Hlo(h) => w.t(Command::Hlo).maybe(h.as_ref(), W::hello),
            // Replies to other messages.
            Message::Yes(m) => w.t(Command::Yes).nested(m),
            Message::Rej(m) => w.t(Command::Rej).nested(m),
            Message::Not(m) => w.t(Command::Not).nested(m),
            Message::Huh(t) => w.t(Command::Huh).open().raw(t).close(),
            Message::Prn(t) => w.t(Command::Prn).open().raw(t).close(),
            // The position, the clock and the history.
            Message::Sco(groups) => w.t(Command::Sco).each(groups, W::centres),
            Message::Now(p) => w.t(Command::Now).maybe(p.as_ref(), W::position),
            Message::Tme(s) => w.t(Command::Tme).maybe(*s, W::int_group),
            Message::Hst(t) => w.t(Command::Hst).turn(*t),
            // Orders and their results.
            Message::Sub { turn, orders } => w
                .t(Command::Sub)
                .maybe(*turn, W::turn)
                .each(orders, W::order),
            Message::Thx { order, note } => w.t(Command::Thx).order(order).group(*note),
            Message::Mis(m) => w.t(Command::Mis).missing(m),
            Message::Gof => w.t(Command::Gof),
            Message::Ord(r) => w.t(Command::Ord).maybe(r.as_ref(), W::report),
            // The powers' status and the end of the game.
            Message::Drw(ps) => w
                .t(Command::Drw)
                .maybe((!ps.is_empty()).then_some(ps), |w, ps| w.powers(ps)),
            Message::Ccd { power, turn } => w.t(Command::Ccd).group(*power).maybe(*turn, W::turn),
            Message::Out(p) => w.t(Command::Out).group(*p),
            Message::Slo(p) => w.t(Command::Slo).group(*p),
            Message::Smr { turn, entries } => {
                w.t(Command::Smr).turn(*turn).each(entries, W::summary)
            }
            Message::Off => w.t(Command::Off),
            // Press and administration.
            Message::Frm { from, to, press } => w
                .t(Command::Frm)
                .group(*from)
                .powers(to)
                .open()
                .raw(press)
                .close(),
            Message::Snd(t) => w.t(Command::Snd).raw(t),
            Message::Adm { name, text } => w.t(Command::Adm).text(name).text(text),
            Message::Lod(s) => w.t(Command::Lod).text(s),
            Message::Sve(s) => w.t(Command::Sve).text(s),
        };
    }
}

/// Writers of message bodies, and the combinators [`Message::write`] chains
/// them with.
impl W {
    /// `f(v)` if there is a `v`.
    fn maybe<T>(&mut self, v: Option<T>, f: impl FnOnce(&mut Self, T) -> &mut Self) -> &mut Self {
        match v {
            Some(v) => f(self, v),
            None => self,
        }
    }

    /// `f(item)` for each item.
    fn each<T>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut f: impl FnMut(&mut Self, T) -> &mut Self,
    ) -> &mut Self {
        for item in items {
            f(self, item);
        }
        self
    }

    /// One token in brackets: `(ENG)`.
    fn group(&mut self, t: impl Into<TokenLike>) -> &mut Self {
        self.open().t(t).close()
    }

    /// One number in brackets: `(1234)`.
    fn int_group(&mut self, v: i16) -> &mut Self {
        self.open().int(v).close()
    }

    /// Powers in brackets: `(ENG FRA)`.
    fn powers(&mut self, ps: &[PowerToken]) -> &mut Self {
        self.open().each(ps, |w, p| w.t(*p)).close()
    }

    /// An `MDF`'s body: `(powers) ((centre groups) (non-centres)) (adjacencies)`.
    fn map_def(&mut self, d: &MapDef) -> &mut Self {
        self.open();
        for p in &d.powers {
            self.t(*p);
        }
        self.close().open().open();
        for g in &d.centres {
            self.centres(g);
        }
        self.close().open();
        for p in &d.non_centres {
            self.t(*p);
        }
        self.close().close().open();
        for a in &d.adjacencies {
            self.open().t(a.province);
            for l in &a.lists {
                self.open();
                match l.unit {
                    AdjUnit::Army => self.t(UnitKind::Amy),
                    AdjUnit::Fleet => self.t(UnitKind::Flt),
                    AdjUnit::FleetCoast(c) => self.open().t(UnitKind::Flt).t(c).close(),
                };
                for to in &l.to {
                    self.loc(*to);
                }
                self.close();
            }
            self.close();
        }
        self.close()
    }

    /// An `HLO`'s body: `(power) (passcode) (variant)`.
    fn hello(&mut self, h: &Hello) -> &mut Self {
        self.group(h.power).int_group(h.passcode).open();
        for (p, v) in &h.variant {
            self.open().t(*p);
            if let Some(v) = v {
                self.int(*v);
            }
            self.close();
        }
        self.close()
    }

    /// A `NOW`'s body: the turn, then every unit.
    fn position(&mut self, p: &Position) -> &mut Self {
        self.turn(p.turn).each(&p.units, W::placed)
    }

    /// A `MIS`'s body: the units still to order, or the count of builds or removals.
    fn missing(&mut self, m: &Missing) -> &mut Self {
        match m {
            Missing::Units(us) => self.each(us, W::placed),
            Missing::Count(n) => self.int_group(*n),
        }
    }

    /// An `ORD`'s body: the turn, the order (kept raw if it did not parse), the results.
    fn report(&mut self, r: &OrderReport) -> &mut Self {
        self.turn(r.turn);
        match &r.order {
            Parsed::Ok(o) => self.order(o),
            Parsed::Raw(t) => self.open().raw(t).close(),
        };
        self.open();
        for res in &r.results {
            self.t(*res);
        }
        self.close()
    }

    /// One power's entry of an `SMR`: `(power ('name') ('version') centres [year])`.
    fn summary(&mut self, e: &SummaryEntry) -> &mut Self {
        self.open()
            .t(e.power)
            .text(&e.name)
            .text(&e.version)
            .int(e.centres);
        if let Some(y) = e.eliminated {
            self.int(y);
        }
        self.close()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daide::text::{format_tokens, parse_text};
    use crate::daide::token::TokenTable;

    fn msg(s: &str) -> Message {
        let t = TokenTable::standard();
        let toks = parse_text(s, &t).unwrap();
        parse_message(&toks).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn round(s: &str) {
        let t = TokenTable::standard();
        let m = msg(s);
        assert_eq!(format_tokens(&m.to_tokens(), &t), s, "{m:?}");
    }

    #[test]
    fn reference_examples_round_trip() {
        for s in [
            "SUB ((TUR AMY CON) MTO BUL)",
            "NME ('JIC') ('0.1')",
            "YES (NME ('JIC') ('0.1'))",
            "MAP ('standard')",
            "MAP",
            "MDF",
            "YES (MAP ('standard'))",
            "HLO (AUS) (2260) ((LVL 0))",
            "HLO (AUS) (-17) ((LVL 10) (MTL 1200) (RTL 60) (BTL 60) (AOA) (DSD))",
            "SUB ((AUS AMY BUD) HLD) ((AUS AMY VIE) HLD) ((AUS FLT TRI) HLD)",
            "SUB (SPR 1901) ((ENG FLT BAR) MTO (STP NCS))",
            "SUB ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP)",
            "SUB ((ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY)",
            "SUB ((ENG AMY YOR) CTO NWY VIA (NTH))",
            "SUB ((ENG AMY LVP) SUP (ENG FLT LON))",
            "SUB ((ITA FLT NAP) BLD) ((RUS FLT GOB) REM) (FRA WVE)",
            "SUB ((RUS FLT (STP SCS)) RTO BOT)"
                .replace("BOT", "GOB")
                .as_str(),
            "SUB ((AUS AMY SER) DSB)",
            "THX ((AUS AMY BUD) HLD) (MBV)",
            "MIS",
            "MIS (-2)",
            "MIS (AUS AMY SER MRT (ALB (BUL ECS)))",
            "GOF",
            "NOT (GOF)",
            "ORD (SPR 1901) ((AUS AMY BUD) HLD) (SUC)",
            "ORD (WIN 1901) (RUS WVE) (SUC)",
            "ORD (FAL 1901) ((AUS AMY BUD) MTO SER) (BNC RET)",
            "ORD (SPR 1901) ((ENG AMY LON) MTO VIA) (NSO)",
            "SCO (AUS BUD TRI VIE) (UNO BEL BUL)",
            "SCO",
            "NOW (SPR 1901) (AUS AMY BUD) (RUS FLT (STP SCS)) (TUR AMY SMY MRT (ARM SYR))",
            "NOW",
            "TME (0)",
            "TME",
            "DRW",
            "DRW (AUS ENG)",
            "NOT (DRW)",
            "HST (FAL 1905)",
            "CCD (ITA)",
            "CCD (ITA) (SPR 1902)",
            "NOT (CCD (ITA))",
            "OUT (AUS)",
            "ADM ('Server') ('hello there')",
            "SLO (TUR)",
            "SMR (SPR 1910) (AUS ('JIC') ('0.1') 18) (ENG ('x') ('1') 0 1905)",
            "OFF",
            "HUH (SUB ((AUS AMY BUD) ERR MTO MTO))",
            "PRN (SUB ((AUS AMY BUD) HLD)",
            "FRM (ENG) (FRA GER) (PRP (PCE (ENG FRA)))",
            "SND (ENG) (HUH (ERR PRP (PCE (ENG FRA))))",
            "OBS",
            "IAM (AUS) (2260)",
            "REJ (IAM (AUS) (2260))",
            "REJ (TME)",
            "SVE ('g1')",
            "LOD ('g1')",
            "MDF (AUS ENG) (((AUS BUD) ((AUS ENG) LON) (UNO BEL)) (BOH NTH)) ((BOH (AMY BUD)) (STP (AMY MOS) ((FLT NCS) BAR) ((FLT SCS) GOB BAL)) (NTH (FLT LON (BUL ECS))))",
        ] {
            round(s);
        }
    }

    #[test]
    fn typed_contents_are_right() {
        let t = TokenTable::standard();
        let m = msg("SUB ((TUR AMY CON) MTO BUL)");
        let Message::Sub { turn: None, orders } = m else {
            panic!("not a SUB")
        };
        assert_eq!(
            orders,
            vec![Order::Move(
                Unit {
                    power: t.power("TUR").unwrap(),
                    kind: UnitKind::Amy,
                    loc: Loc::Prov(t.province("CON").unwrap())
                },
                Loc::Prov(t.province("BUL").unwrap())
            )]
        );
        assert_eq!(msg("MIS (3)"), Message::Mis(Missing::Count(3)));
        assert_eq!(msg("MIS"), Message::Mis(Missing::Units(vec![])));
        let Message::Ord(Some(r)) = msg("ORD (SPR 1901) ((ENG AMY LON) MTO VIA) (NSO)") else {
            panic!()
        };
        assert!(matches!(r.order, Parsed::Raw(_)));
        let Message::Yes(inner) = msg("YES (MAP ('standard'))") else {
            panic!()
        };
        assert_eq!(*inner, Parsed::Ok(Message::Map(Some("standard".into()))));
    }

    #[test]
    fn a_bad_unbalanced_prn_is_answered_by_a_prn_that_parses_back() {
        let t = TokenTable::standard();
        let toks = parse_text("PRN ERR )", &t).unwrap();
        let e = parse_message(&toks).unwrap_err();
        assert_eq!(e, MessageError::Unbalanced);
        let reply = e.reply(&toks);
        assert_eq!(format_tokens(&reply.to_tokens(), &t), "PRN (PRN ERR))");
        assert_eq!(parse_message(&reply.to_tokens()), Ok(reply));
    }

    #[test]
    fn errors_map_to_prn_and_huh() {
        let t = TokenTable::standard();
        let toks = parse_text("SUB ((AUS AMY BUD) HLD", &t).unwrap();
        let e = parse_message(&toks).unwrap_err();
        assert_eq!(e, MessageError::Unbalanced);
        assert_eq!(
            format_tokens(&e.reply(&toks).to_tokens(), &t),
            "PRN (SUB ((AUS AMY BUD) HLD)"
        );
        let toks = parse_text("SUB ((AUS AMY BUD) MTO MTO)", &t).unwrap();
        let e = parse_message(&toks).unwrap_err();
        assert_eq!(e, MessageError::Syntax { position: 8 });
        assert_eq!(
            format_tokens(&e.reply(&toks).to_tokens(), &t),
            "HUH (SUB ((AUS AMY BUD) MTO ERR MTO))"
        );
        for bad in [
            "YES",
            "HLD",
            "SUB (AUS)",
            "NOW (SPR)",
            "GOF GOF",
            "TME (1) (2)",
            "PRN",
        ] {
            let toks = parse_text(bad, &t).unwrap();
            assert!(parse_message(&toks).is_err(), "{bad}");
        }
        assert_eq!(parse_message(&[]), Err(MessageError::Empty));
    }
}
