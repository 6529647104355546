//! Readable S-expressions for evolved individuals, with a versioned primitive table:
//!
//! ```text
//! ; comments run to the end of the line
//! (npc v1
//!   (patrol (ProgN2 (SiBloqueado GirarDerecha Avanzar) (SiJugador CambiarEstado Avanzar)))
//!   (attack (SiJugadorEnRango Atacar Acercar)))
//! ```
//!
//! Terminals are bare names, `Bloquear` takes its N: `(Bloquear 2)`; functions are lists.
//! The parser (nom) rejects malformed input with the line, column and problem, including
//! primitives not allowed in a tree and wrong arities. Nesting is limited to 64 levels.

use nom::branch::alt;
use nom::bytes::complete::{take_till, take_while1};
use nom::character::complete::{char, multispace1};
use nom::combinator::{recognize, value};
use nom::multi::many0;
use nom::sequence::pair;
use nom::{IResult, Parser as _};

use super::primitives::{Prim, TreeKind};
use super::tree::{Individual, Node};

/// Version tag written and accepted.
pub const VERSION: &str = "v1";
const MAX_NESTING: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct SexprError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Sx<'a> {
    Atom(&'a str, usize),
    List(Vec<Sx<'a>>, usize),
}

impl Sx<'_> {
    fn offset(&self) -> usize {
        match self {
            Sx::Atom(_, o) | Sx::List(_, o) => *o,
        }
    }
}

fn skip(i: &str) -> IResult<&str, ()> {
    value(
        (),
        many0(alt((
            value((), multispace1),
            value((), pair(char(';'), take_till(|c| c == '\n'))),
        ))),
    )
    .parse(i)
}

fn atom(i: &str) -> IResult<&str, &str> {
    recognize(take_while1(|c: char| {
        c.is_ascii_alphanumeric() || c == '_' || c == '-'
    }))
    .parse(i)
}

struct Parser<'a> {
    src: &'a str,
}

impl<'a> Parser<'a> {
    fn err(&self, offset: usize, message: impl Into<String>) -> SexprError {
        let before = &self.src[..offset.min(self.src.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        SexprError {
            line,
            column,
            message: message.into(),
        }
    }

    fn off(&self, rest: &str) -> usize {
        self.src.len() - rest.len()
    }

    fn expr(&self, i: &'a str, depth: usize) -> Result<(&'a str, Sx<'a>), SexprError> {
        let i = skip(i).map(|(r, _)| r).unwrap_or(i);
        let at = self.off(i);
        if depth > MAX_NESTING {
            return Err(self.err(at, format!("nested deeper than {MAX_NESTING} levels")));
        }
        if let Some(mut rest) = i.strip_prefix('(') {
            let mut items = Vec::new();
            loop {
                rest = skip(rest).map(|(r, _)| r).unwrap_or(rest);
                if let Some(r) = rest.strip_prefix(')') {
                    return Ok((r, Sx::List(items, at)));
                }
                if rest.is_empty() {
                    return Err(self.err(at, "unclosed '('"));
                }
                let (r, x) = self.expr(rest, depth + 1)?;
                items.push(x);
                rest = r;
            }
        }
        match atom(i) {
            Ok((rest, a)) => Ok((rest, Sx::Atom(a, at))),
            Err(_) => match i.chars().next() {
                None => Err(self.err(at, "unexpected end of input")),
                Some(')') => Err(self.err(at, "unexpected ')'")),
                Some(c) => Err(self.err(at, format!("unexpected character {c:?}"))),
            },
        }
    }

    fn prim(&self, name: &str, at: usize) -> Result<Prim, SexprError> {
        Prim::ALL
            .iter()
            .find(|p| p.name() == name && !matches!(p, Prim::Bloquear(_)))
            .copied()
            .ok_or_else(|| self.err(at, format!("unknown primitive \"{name}\"")))
    }

    fn node(&self, x: &Sx<'a>, kind: TreeKind) -> Result<Node, SexprError> {
        let at = x.offset();
        let node = match x {
            Sx::Atom(name, _) => {
                if *name == "Bloquear" {
                    return Err(self.err(at, "Bloquear needs its N: (Bloquear 1|2|3)"));
                }
                let p = self.prim(name, at)?;
                if p.arity() != 0 {
                    return Err(self.err(
                        at,
                        format!("{name} is a function of {} children", p.arity()),
                    ));
                }
                Node::leaf(p)
            }
            Sx::List(items, _) => {
                let Some(Sx::Atom(head, hat)) = items.first() else {
                    return Err(self.err(at, "a list must start with a primitive name"));
                };
                if *head == "Bloquear" {
                    let n = match items.get(1..) {
                        Some([Sx::Atom(n, _)]) => n.parse::<u8>().ok(),
                        _ => None,
                    };
                    match n {
                        Some(n @ 1..=3) => Node::leaf(Prim::Bloquear(n)),
                        _ => return Err(self.err(at, "Bloquear takes one N in 1..3")),
                    }
                } else {
                    let p = self.prim(head, *hat)?;
                    let args = &items[1..];
                    if p.arity() != args.len() {
                        return Err(self.err(
                            at,
                            format!("{head} takes {} children, got {}", p.arity(), args.len()),
                        ));
                    }
                    let children = args
                        .iter()
                        .map(|c| self.node(c, kind))
                        .collect::<Result<Vec<_>, _>>()?;
                    Node::new(p, children)
                }
            }
        };
        if !kind.allows(node.prim) {
            return Err(self.err(
                at,
                format!(
                    "{} is not allowed in the {} tree",
                    node.prim.name(),
                    kind.name()
                ),
            ));
        }
        Ok(node)
    }
}

/// Parse one tree of `kind` (e.g. `(SiBloqueado GirarDerecha Avanzar)`).
pub fn parse_tree(text: &str, kind: TreeKind) -> Result<Node, SexprError> {
    let p = Parser { src: text };
    let (rest, x) = p.expr(text, 0)?;
    let rest = skip(rest).map(|(r, _)| r).unwrap_or(rest);
    if !rest.is_empty() {
        return Err(p.err(p.off(rest), "unexpected text after the tree"));
    }
    p.node(&x, kind)
}

/// Parse an individual file.
pub fn parse_individual(text: &str) -> Result<Individual, SexprError> {
    let p = Parser { src: text };
    let (rest, x) = p.expr(text, 0)?;
    let rest = skip(rest).map(|(r, _)| r).unwrap_or(rest);
    if !rest.is_empty() {
        return Err(p.err(p.off(rest), "unexpected text after (npc ...)"));
    }
    let Sx::List(items, at) = &x else {
        return Err(p.err(0, "expected (npc v1 (patrol ...) (attack ...))"));
    };
    match items.first() {
        Some(Sx::Atom("npc", _)) => {}
        _ => return Err(p.err(*at, "expected (npc v1 (patrol ...) (attack ...))")),
    }
    match items.get(1) {
        Some(Sx::Atom(v, _)) if *v == VERSION => {}
        Some(other) => {
            return Err(p.err(
                other.offset(),
                format!("unsupported version (this tablero reads {VERSION})"),
            ));
        }
        None => return Err(p.err(*at, "missing version")),
    }
    let mut patrol = None;
    let mut attack = None;
    for item in &items[2..] {
        let Sx::List(parts, pat) = item else {
            return Err(p.err(item.offset(), "expected (patrol tree) or (attack tree)"));
        };
        let (kind, slot) = match parts.first() {
            Some(Sx::Atom("patrol", _)) => (TreeKind::Patrol, &mut patrol),
            Some(Sx::Atom("attack", _)) => (TreeKind::Attack, &mut attack),
            _ => return Err(p.err(*pat, "expected (patrol tree) or (attack tree)")),
        };
        if slot.is_some() {
            return Err(p.err(*pat, format!("{} tree given twice", kind.name())));
        }
        let [_, t] = parts.as_slice() else {
            return Err(p.err(
                *pat,
                format!("({} ...) holds exactly one tree", kind.name()),
            ));
        };
        *slot = Some(p.node(t, kind)?);
    }
    match (patrol, attack) {
        (Some(patrol), Some(attack)) => Ok(Individual { patrol, attack }),
        (None, _) => Err(p.err(*at, "missing (patrol ...)")),
        (_, None) => Err(p.err(*at, "missing (attack ...)")),
    }
}

/// Write a tree.
pub fn tree_to_string(n: &Node) -> String {
    let mut s = String::new();
    write_node(n, &mut s);
    s
}

fn write_node(n: &Node, s: &mut String) {
    match n.prim {
        Prim::Bloquear(k) => s.push_str(&format!("(Bloquear {k})")),
        p if p.arity() == 0 => s.push_str(p.name()),
        p => {
            s.push('(');
            s.push_str(p.name());
            for c in &n.children {
                s.push(' ');
                write_node(c, s);
            }
            s.push(')');
        }
    }
}

/// Write an individual (the canonical form, also hashed by the fitness cache).
pub fn to_string(ind: &Individual) -> String {
    format!(
        "(npc {VERSION}\n  (patrol {})\n  (attack {}))\n",
        tree_to_string(&ind.patrol),
        tree_to_string(&ind.attack)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "; thesis Fig. 5.1 as Patrol\n(npc v1\n  (patrol (ProgN2 (SiBloqueado GirarDerecha Avanzar) (SiJugador CambiarEstado Avanzar)))\n  (attack (SiJugadorEnRango (Bloquear 2) Acercar)))\n";

    #[test]
    fn parses_and_round_trips() {
        let ind = parse_individual(EXAMPLE).unwrap();
        assert_eq!(ind.patrol.size(), 7);
        assert_eq!(ind.attack.children[0].prim, Prim::Bloquear(2));
        let s = to_string(&ind);
        assert_eq!(parse_individual(&s).unwrap(), ind);
        assert_eq!(to_string(&parse_individual(&s).unwrap()), s);
    }

    fn err(text: &str) -> SexprError {
        parse_individual(text).unwrap_err()
    }

    #[test]
    fn errors_name_the_problem_and_place() {
        let e = err("(npc v1\n  (patrol Atacar)\n  (attack Curar))");
        assert_eq!((e.line, e.column), (2, 11));
        assert!(e.message.contains("not allowed in the patrol tree"), "{e}");
        let e = err("(npc v1 (patrol (ProgN2 Avanzar)) (attack Curar))");
        assert!(e.message.contains("takes 2 children, got 1"), "{e}");
        let e = err("(npc v1 (patrol Avanzar) (attack Curar)");
        assert!(e.message.contains("unclosed"), "{e}");
        let e = err("(npc v2 (patrol Avanzar) (attack Curar))");
        assert!(e.message.contains("version"), "{e}");
        let e = err("(npc v1 (patrol Avanzar))");
        assert!(e.message.contains("missing (attack"), "{e}");
        let e = err("(npc v1 (patrol Saltar) (attack Curar))");
        assert!(e.message.contains("unknown primitive \"Saltar\""), "{e}");
        let e = err("(npc v1 (patrol Avanzar) (attack (Bloquear 7)))");
        assert!(e.message.contains("1..3"), "{e}");
        let e = err("(npc v1 (patrol Avanzar) (attack Curar)) x");
        assert!(e.message.contains("after"), "{e}");
        let deep = format!("{}{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(err(&deep).message.contains("nested deeper"));
        assert!(err("").message.contains("end of input"));
        assert!(
            err("(npc v1 (patrol Avanzar) (attack Curar) \u{1F600})")
                .message
                .contains("unexpected character")
        );
    }
}
