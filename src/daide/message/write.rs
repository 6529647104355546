//! Writing [`Message`]s back to tokens: a small token writer with one method per message
//! part, chained by [`Message::to_tokens`].

use super::parse::parse_message;
use super::types::*;
use crate::daide::token::{
    CoastToken, Command, OrdResult, OrderToken, Param, PhaseToken, PowerToken, ProvinceToken,
    ThxNote, Token, UnitKind,
};

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
