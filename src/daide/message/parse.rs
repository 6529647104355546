//! The nom grammar from tokens to [`Message`]s: token-class parsers, bracketed groups, one
//! parser per message body, and the entry points that turn the farthest failure into a token
//! position.

use nom::branch::alt;
use nom::combinator::{cut, map, opt, peek};
use nom::error::{ErrorKind, ParseError};
use nom::multi::{many0, many1};
use nom::sequence::{delimited, pair, preceded, terminated, tuple};
use nom::{Err as NomErr, IResult};

use super::types::*;
use crate::daide::token::{
    CoastToken, Command, OrderToken, Param, PowerToken, ProvinceToken, Token, UnitKind,
};

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
