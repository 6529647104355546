//! The s-expression layer of PDDL: a nom lexer that turns text into nested lists of symbols,
//! each remembering its byte offset for error messages.
//!
//! Tokens as Fast Downward's lexer reads them: `;` starts a comment to the end of the line,
//! `(` and `)` are tokens of their own, a symbol ends before `?` (`(at?x)` is `(at ?x)`),
//! `-` inside a name belongs to it (`red-block`; the type separator is a `-` standing
//! alone), and every symbol is lower-cased.

use super::PddlError;
use nom::branch::alt;
use nom::bytes::complete::{take_till, take_while};
use nom::character::complete::{char, multispace1, satisfy};
use nom::combinator::{recognize, value};
use nom::multi::many0_count;
use nom::sequence::pair;
use nom::{IResult, Parser};

/// The deepest list nesting accepted (the interpreter above recurses on nesting).
pub const MAX_DEPTH: usize = 500;

/// A parsed s-expression with the byte offset of its first character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SExpr {
    Symbol(String, usize),
    List(Vec<SExpr>, usize),
}

impl SExpr {
    pub fn offset(&self) -> usize {
        match self {
            SExpr::Symbol(_, o) | SExpr::List(_, o) => *o,
        }
    }
}

fn comment(input: &str) -> IResult<&str, ()> {
    value((), pair(char(';'), take_till(|c| c == '\n'))).parse(input)
}

fn skip_ws(input: &str) -> IResult<&str, usize> {
    many0_count(alt((value((), multispace1), comment))).parse(input)
}

fn symbol_char(c: char) -> bool {
    !c.is_whitespace() && c != '(' && c != ')' && c != ';'
}

/// One symbol: a first character (a `?` included), then everything up to a blank, a
/// parenthesis, a comment or the next `?`.
fn symbol(input: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(symbol_char),
        take_while(|c| symbol_char(c) && c != '?'),
    ))
    .parse(input)
}

/// Line and column (1-based) of a byte offset in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

pub fn error_at(text: &str, offset: usize, message: impl Into<String>) -> PddlError {
    let (line, column) = line_col(text, offset);
    PddlError {
        line,
        column,
        message: message.into(),
    }
}

/// Parses the whole text as exactly one s-expression list (comments and blanks around it).
pub fn parse_single(text: &str) -> Result<SExpr, PddlError> {
    let total = text.len();
    let off = |rest: &str| total - rest.len();
    let (mut rest, _) = skip_ws(text).map_err(|_| error_at(text, 0, "unreadable input"))?;
    // Explicit stack so deep nesting cannot overflow the call stack.
    let mut stack: Vec<(Vec<SExpr>, usize)> = Vec::new();
    let mut result: Option<SExpr> = None;
    loop {
        if rest.is_empty() {
            if let Some((_, open)) = stack.last() {
                return Err(error_at(text, *open, "unclosed '(' (missing ')')"));
            }
            break;
        }
        if result.is_some() && stack.is_empty() {
            return Err(error_at(
                text,
                off(rest),
                "unexpected text after the end of the definition",
            ));
        }
        let here = off(rest);
        if let Ok((r, _)) = char::<&str, nom::error::Error<&str>>('(').parse(rest) {
            if stack.len() >= MAX_DEPTH {
                return Err(error_at(
                    text,
                    here,
                    format!("lists nested deeper than {MAX_DEPTH}"),
                ));
            }
            stack.push((Vec::new(), here));
            rest = r;
        } else if let Ok((r, _)) = char::<&str, nom::error::Error<&str>>(')').parse(rest) {
            let Some((items, open)) = stack.pop() else {
                return Err(error_at(text, here, "unexpected ')'"));
            };
            let list = SExpr::List(items, open);
            match stack.last_mut() {
                Some((parent, _)) => parent.push(list),
                None => result = Some(list),
            }
            rest = r;
        } else {
            let (r, sym) =
                symbol(rest).map_err(|_| error_at(text, here, "unexpected character"))?;
            let Some((parent, _)) = stack.last_mut() else {
                return Err(error_at(
                    text,
                    here,
                    "expected '(' at the start of a definition",
                ));
            };
            parent.push(SExpr::Symbol(sym.to_ascii_lowercase(), here));
            rest = r;
        }
        let (r, _) = skip_ws(rest).map_err(|_| error_at(text, off(rest), "unreadable input"))?;
        rest = r;
    }
    result.ok_or_else(|| error_at(text, total, "empty input: expected '(define ...)'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_lists_and_comments() {
        let e = parse_single("; hi\n(a (B ?c) ; x\n d)").unwrap();
        let SExpr::List(items, 5) = e else {
            panic!("not a list at 5")
        };
        assert_eq!(items.len(), 3);
        assert_eq!(
            items[1],
            SExpr::List(
                vec![SExpr::Symbol("b".into(), 9), SExpr::Symbol("?c".into(), 11)],
                8
            )
        );
    }

    fn symbols(e: &SExpr) -> Vec<String> {
        match e {
            SExpr::Symbol(s, _) => vec![s.clone()],
            SExpr::List(items, _) => items.iter().flat_map(symbols).collect(),
        }
    }

    #[test]
    fn symbols_end_before_question_marks_and_comments() {
        let e = parse_single("(Aircraft?A ?x?y a-b?c - T;c\n?z)").unwrap();
        assert_eq!(
            symbols(&e),
            ["aircraft", "?a", "?x", "?y", "a-b", "?c", "-", "t", "?z"]
        );
        let e = parse_single("(p?a;x\n ?b)").unwrap();
        assert_eq!(symbols(&e), ["p", "?a", "?b"]);
        let SExpr::List(items, _) = parse_single("(at?x)").unwrap() else {
            panic!("not a list")
        };
        assert_eq!(items[1].offset(), 3);
    }

    #[test]
    fn errors_locate_problems() {
        let e = parse_single("(a\n  (b c)").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.message.contains("unclosed"));
        let e = parse_single("(a))").unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));
        let e = parse_single("(a) (b)").unwrap_err();
        assert!(e.message.contains("after the end"));
        assert!(parse_single("  ; only a comment\n").is_err());
        assert!(parse_single("abc").is_err());
        let deep = "(".repeat(100_000);
        assert!(
            parse_single(&deep)
                .unwrap_err()
                .message
                .contains("nested deeper")
        );
    }
}
