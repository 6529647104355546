//! The nom grammar from tokens to [`Message`]s: token-class parsers, bracketed groups, one
//! parser per message body, and the entry points that turn the farthest failure into a token
//! position.

use nom::branch::alt;
use nom::combinator::{cut, map, opt, peek};
use nom::error::{ErrorKind, ParseError};
use nom::multi::{many0, many1};
use nom::sequence::{delimited, pair, preceded, terminated};
use nom::{Err as NomErr, IResult, Input, Needed, Parser};

use super::types::*;
use crate::daide::token::{
    CoastToken, Command, OrderToken, Param, PowerToken, ProvinceToken, Token, UnitKind,
};

/// The grammar's input: a token slice, as nom's [`Input`] (which nom implements only for
/// bytes and text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct In<'a>(&'a [Token]);

impl<'a> Input for In<'a> {
    type Item = Token;
    type Iter = std::iter::Copied<std::slice::Iter<'a, Token>>;
    type IterIndices = std::iter::Enumerate<Self::Iter>;

    fn input_len(&self) -> usize {
        self.0.len()
    }
    fn take(&self, index: usize) -> Self {
        self.take_split(index).1
    }
    fn take_from(&self, index: usize) -> Self {
        self.take_split(index).0
    }
    /// (suffix, prefix); an index past the end takes everything.
    fn take_split(&self, index: usize) -> (Self, Self) {
        let (prefix, suffix) = self.0.split_at(index.min(self.0.len()));
        (In(suffix), In(prefix))
    }
    fn position<P: Fn(Token) -> bool>(&self, predicate: P) -> Option<usize> {
        self.0.iter().position(|t| predicate(*t))
    }
    fn iter_elements(&self) -> Self::Iter {
        self.0.iter().copied()
    }
    fn iter_indices(&self) -> Self::IterIndices {
        self.iter_elements().enumerate()
    }
    fn slice_index(&self, count: usize) -> Result<usize, Needed> {
        match count.checked_sub(self.0.len()) {
            Some(missing) if missing > 0 => Err(Needed::new(missing)),
            _ => Ok(count),
        }
    }
}

/// Parser error remembering the farthest failure (fewest tokens left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PErr {
    rest: usize,
}

impl<'a> ParseError<In<'a>> for PErr {
    fn from_error_kind(input: In<'a>, _: ErrorKind) -> Self {
        PErr {
            rest: input.0.len(),
        }
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
    Err(NomErr::Error(PErr { rest: i.0.len() }))
}

fn next_map<T>(f: impl Fn(Token) -> Option<T>) -> impl Fn(In<'_>) -> PResult<'_, T> {
    move |i: In<'_>| match i.0.split_first() {
        Some((t, rest)) => match f(*t) {
            Some(v) => Ok((In(rest), v)),
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
    tok(Token::Bra).parse(i)
}

fn ket(i: In<'_>) -> PResult<'_, ()> {
    tok(Token::Ket).parse(i)
}

fn group<'a, T>(
    p: impl Parser<In<'a>, Output = T, Error = PErr>,
) -> impl Parser<In<'a>, Output = T, Error = PErr> {
    delimited(bra, p, ket)
}

/// Zero or more bracketed items; once a `(` is seen the item must parse.
fn groups<'a, T>(
    p: impl Parser<In<'a>, Output = T, Error = PErr>,
) -> impl Parser<In<'a>, Output = Vec<T>, Error = PErr> {
    many0(preceded(peek(bra), cut(p)))
}

/// An optional bracketed item; once a `(` is seen it must parse.
fn opt_group<'a, T>(
    p: impl Parser<In<'a>, Output = T, Error = PErr>,
) -> impl Parser<In<'a>, Output = Option<T>, Error = PErr> {
    opt(preceded(peek(bra), cut(p)))
}

fn power(i: In<'_>) -> PResult<'_, PowerToken> {
    next_map(|t| match t {
        Token::Power(p) => Some(p),
        _ => None,
    })
    .parse(i)
}

fn province(i: In<'_>) -> PResult<'_, ProvinceToken> {
    next_map(|t| match t {
        Token::Province(p) => Some(p),
        _ => None,
    })
    .parse(i)
}

fn coast(i: In<'_>) -> PResult<'_, CoastToken> {
    next_map(|t| match t {
        Token::Coast(c) => Some(c),
        _ => None,
    })
    .parse(i)
}

fn int(i: In<'_>) -> PResult<'_, i16> {
    next_map(|t| match t {
        Token::Int(v) => Some(v),
        _ => None,
    })
    .parse(i)
}

fn unit_kind(i: In<'_>) -> PResult<'_, UnitKind> {
    next_map(|t| match t {
        Token::Unit(u) => Some(u),
        _ => None,
    })
    .parse(i)
}

fn param(i: In<'_>) -> PResult<'_, Param> {
    next_map(|t| match t {
        Token::Param(p) => Some(p),
        _ => None,
    })
    .parse(i)
}

fn text(i: In<'_>) -> PResult<'_, String> {
    map(
        many0(next_map(|t| match t {
            Token::Text(b) => Some(b as char),
            _ => None,
        })),
        |cs| cs.into_iter().collect(),
    )
    .parse(i)
}

fn loc(i: In<'_>) -> PResult<'_, Loc> {
    alt((
        map(province, Loc::Prov),
        map(group(pair(province, coast)), |(p, c)| Loc::Coast(p, c)),
    ))
    .parse(i)
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
    )
    .parse(i)
}

fn unit_body(i: In<'_>) -> PResult<'_, Unit> {
    map((power, unit_kind, loc), |(power, kind, loc)| Unit {
        power,
        kind,
        loc,
    })
    .parse(i)
}

fn unit(i: In<'_>) -> PResult<'_, Unit> {
    group(unit_body).parse(i)
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
                    (
                        ord_tok(OrderToken::Cvy),
                        unit,
                        ord_tok(OrderToken::Cto),
                        province,
                    ),
                    move |(_, v, _, p)| Order::Convoy(u, v, p),
                ),
                map(
                    (
                        ord_tok(OrderToken::Cto),
                        province,
                        ord_tok(OrderToken::Via),
                        group(many1(province)),
                    ),
                    move |(_, p, _, via)| Order::ConvoyMove(u, p, via),
                ),
                map(preceded(ord_tok(OrderToken::Rto), loc), move |l| {
                    Order::Retreat(u, l)
                }),
                map(ord_tok(OrderToken::Dsb), move |_| Order::Disband(u)),
                map(ord_tok(OrderToken::Bld), move |_| Order::Build(u)),
                map(ord_tok(OrderToken::Rem), move |_| Order::Remove(u)),
            ))
            .parse(i)
        },
    ))
    .parse(i)
}

fn order(i: In<'_>) -> PResult<'_, Order> {
    group(order_body).parse(i)
}

/// A bracket-balanced run of tokens (stops before an unmatched `)`).
fn balanced(i: In<'_>) -> PResult<'_, Vec<Token>> {
    let mut depth = 0usize;
    let mut n = 0;
    for t in i.0 {
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
    let (rest, run) = i.take_split(n);
    Ok((rest, run.0.to_vec()))
}

/// `( message )` parsed if possible, raw otherwise.
fn nested(i: In<'_>) -> PResult<'_, Box<Parsed<Message>>> {
    map(group(balanced), |toks| {
        Box::new(match message_exact(&toks) {
            Ok(m) => Parsed::Ok(m),
            Err(_) => Parsed::Raw(toks),
        })
    })
    .parse(i)
}

fn placed_unit(i: In<'_>) -> PResult<'_, PlacedUnit> {
    map(
        group(pair(
            unit_body,
            opt(preceded(tok(Token::Param(Param::Mrt)), group(many0(loc)))),
        )),
        |(unit, retreats)| PlacedUnit { unit, retreats },
    )
    .parse(i)
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
    )
    .parse(i)
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
    )
    .parse(i)
}

fn map_def(i: In<'_>) -> PResult<'_, MapDef> {
    map(
        (
            group(many0(power)),
            group(pair(group(groups(centre_group)), group(many0(province)))),
            group(groups(group(pair(province, groups(adj_list))))),
        ),
        |(powers, (centres, non_centres), adj)| MapDef {
            powers,
            centres,
            non_centres,
            adjacencies: adj
                .into_iter()
                .map(|(province, lists)| ProvinceAdjacency { province, lists })
                .collect(),
        },
    )
    .parse(i)
}

fn hello(i: In<'_>) -> PResult<'_, Hello> {
    map(
        (
            group(power),
            group(int),
            group(groups(group(pair(param, opt(int))))),
        ),
        |(power, passcode, variant)| Hello {
            power,
            passcode,
            variant,
        },
    )
    .parse(i)
}

fn summary_entry(i: In<'_>) -> PResult<'_, SummaryEntry> {
    map(
        group((power, group(text), group(text), int, opt(int))),
        |(power, name, version, centres, eliminated)| SummaryEntry {
            power,
            name,
            version,
            centres,
            eliminated,
        },
    )
    .parse(i)
}

/// An `ORD`'s body, if any: `(turn) (order) (results)`; the order stays raw
/// when it does not parse.
fn order_report(i: In<'_>) -> PResult<'_, Option<OrderReport>> {
    map(
        opt_group((
            group(turn),
            group(balanced),
            group(many1(next_map(|t| match t {
                Token::Result(r) => Some(r),
                _ => None,
            }))),
        )),
        |r| {
            r.map(|(turn, toks, results)| {
                let mut wrapped = Vec::with_capacity(toks.len() + 2);
                wrapped.push(Token::Bra);
                wrapped.extend_from_slice(&toks);
                wrapped.push(Token::Ket);
                let order = match order(In(&wrapped)) {
                    Ok((In([]), o)) => Parsed::Ok(o),
                    _ => Parsed::Raw(toks),
                };
                OrderReport {
                    turn,
                    order,
                    results,
                }
            })
        },
    )
    .parse(i)
}

fn message(i: In<'_>) -> PResult<'_, Message> {
    let (rest, c) = next_map(|t| match t {
        Token::Command(c) => Some(c),
        _ => None,
    })
    .parse(i)?;
    let i = rest;
    match c {
        Command::Nme => map(pair(group(text), group(text)), |(name, version)| {
            Message::Nme { name, version }
        })
        .parse(i),
        Command::Obs => Ok((i, Message::Obs)),
        Command::Iam => map(pair(group(power), group(int)), |(power, passcode)| {
            Message::Iam { power, passcode }
        })
        .parse(i),
        Command::Map => map(opt_group(group(text)), Message::Map).parse(i),
        Command::Mdf => map(opt_group(map_def), |m| {
            Message::Mdf(m.map(std::sync::Arc::new))
        })
        .parse(i),
        Command::Yes => map(nested, Message::Yes).parse(i),
        Command::Rej => map(nested, Message::Rej).parse(i),
        Command::Not => map(nested, Message::Not).parse(i),
        Command::Hlo => map(opt_group(hello), Message::Hlo).parse(i),
        Command::Sco => map(groups(centre_group), Message::Sco).parse(i),
        Command::Now => map(opt_group(pair(group(turn), groups(placed_unit))), |p| {
            Message::Now(p.map(|(turn, units)| Position { turn, units }))
        })
        .parse(i),
        Command::Tme => map(opt_group(group(int)), Message::Tme).parse(i),
        Command::Sub => {
            // An optional turn comes first: `(SPR 1901)`; orders start `((` or `(POW WVE`.
            let (i, t) = opt(group(turn)).parse(i)?;
            map(groups(order), move |orders| Message::Sub {
                turn: t,
                orders,
            })
            .parse(i)
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
        )
        .parse(i),
        Command::Mis => alt((
            map(group(int), |n| Message::Mis(Missing::Count(n))),
            map(groups(placed_unit), |u| Message::Mis(Missing::Units(u))),
        ))
        .parse(i),
        Command::Gof => Ok((i, Message::Gof)),
        Command::Ord => map(order_report, Message::Ord).parse(i),
        Command::Drw => map(opt_group(group(many1(power))), |p| {
            Message::Drw(p.unwrap_or_default())
        })
        .parse(i),
        Command::Hst => map(group(turn), Message::Hst).parse(i),
        Command::Ccd => map(
            pair(group(power), opt_group(group(turn))),
            |(power, turn)| Message::Ccd { power, turn },
        )
        .parse(i),
        Command::Out => map(group(power), Message::Out).parse(i),
        Command::Adm => map(pair(group(text), group(text)), |(name, text)| {
            Message::Adm { name, text }
        })
        .parse(i),
        Command::Slo => map(group(power), Message::Slo).parse(i),
        Command::Smr => map(
            pair(group(turn), groups(summary_entry)),
            |(turn, entries)| Message::Smr { turn, entries },
        )
        .parse(i),
        Command::Off => Ok((i, Message::Off)),
        Command::Huh => map(group(balanced), Message::Huh).parse(i),
        Command::Prn => {
            // Content may be unbalanced: everything between the first `(` and a final `)`.
            match i.0 {
                [Token::Bra, inner @ .., Token::Ket] => Ok((In(&[]), Message::Prn(inner.to_vec()))),
                _ => fail(i),
            }
        }
        Command::Frm => map(
            (group(power), group(many0(power)), group(balanced)),
            |(from, to, press)| Message::Frm { from, to, press },
        )
        .parse(i),
        Command::Snd => map(balanced, Message::Snd).parse(i),
        Command::Lod => map(group(text), Message::Lod).parse(i),
        Command::Sve => map(group(text), Message::Sve).parse(i),
    }
}

fn message_exact(tokens: &[Token]) -> Result<Message, usize> {
    match message(In(tokens)) {
        Ok((In([]), m)) => Ok(m),
        Ok((rest, _)) => Err(tokens.len() - rest.0.len()),
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
    match order(In(tokens)) {
        Ok((In([]), o)) => Ok(o),
        Ok((rest, _)) => Err(MessageError::Syntax {
            position: tokens.len() - rest.0.len(),
        }),
        Err(NomErr::Error(e)) | Err(NomErr::Failure(e)) => Err(MessageError::Syntax {
            position: tokens.len() - e.rest,
        }),
        Err(NomErr::Incomplete(_)) => Err(MessageError::Syntax {
            position: tokens.len(),
        }),
    }
}
