//! The syntax of a VGDL game description: nom for the tokens of one line, and the
//! indentation tree that gives the block structure.
//!
//! Indentation follows GVG-AI: the indent of a line is the number of whitespace characters
//! before its first non-blank character (a tab counts as one), and `#` starts a comment.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::take_while1,
    character::complete::{char, space0},
    combinator::{all_consuming, map, opt},
    multi::many0,
    sequence::{preceded, separated_pair, terminated},
};

use super::VgdlError;

/// One token of a VGDL line.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Item<'a> {
    Word(&'a str),
    Param(&'a str, &'a str),
}

/// A tokenised line: `lhs [> rhs]`.
#[derive(Debug, Clone)]
pub(super) struct Tokens<'a> {
    pub(super) lhs: Vec<Item<'a>>,
    pub(super) rhs: Option<Vec<Item<'a>>>,
}

fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && c != '>' && c != '='
}

fn word(i: &str) -> IResult<&str, &str> {
    take_while1(is_word_char).parse(i)
}

fn value(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace() && c != '>').parse(i)
}

fn item(i: &str) -> IResult<&str, Item<'_>> {
    alt((
        map(separated_pair(word, char('='), value), |(k, v)| {
            Item::Param(k, v)
        }),
        map(word, Item::Word),
    ))
    .parse(i)
}

fn items(i: &str) -> IResult<&str, Vec<Item<'_>>> {
    many0(preceded(space0, item)).parse(i)
}

fn tokens_line(i: &str) -> IResult<&str, Tokens<'_>> {
    map(
        all_consuming(terminated(
            (items, opt(preceded((space0, char('>')), items))),
            space0,
        )),
        |(lhs, rhs)| Tokens { lhs, rhs },
    )
    .parse(i)
}

/// Tokenise the content of line `line`.
pub(super) fn tokenize(line: usize, content: &str) -> Result<Tokens<'_>, VgdlError> {
    tokens_line(content)
        .map(|(_, t)| t)
        .map_err(|_| VgdlError::Syntax {
            line,
            message: format!("cannot parse \"{content}\""),
        })
}

/// A node of the indentation tree.
#[derive(Debug)]
pub(super) struct Node<'a> {
    pub(super) line: usize,
    indent: usize,
    pub(super) content: &'a str,
    pub(super) children: Vec<usize>,
}

/// The nodes of the indentation tree and the index of its root, the one unindented line.
pub(super) fn build_tree(text: &str) -> Result<(Vec<Node<'_>>, usize), VgdlError> {
    let mut nodes: Vec<Node<'_>> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut root: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let no_comment = raw.split('#').next().unwrap_or("");
        let content = no_comment.trim();
        if content.is_empty() {
            continue;
        }
        let indent = no_comment.chars().take_while(|c| c.is_whitespace()).count();
        while let Some(&top) = stack.last() {
            if nodes[top].indent >= indent {
                stack.pop();
            } else {
                break;
            }
        }
        let id = nodes.len();
        nodes.push(Node {
            line,
            indent,
            content,
            children: Vec::new(),
        });
        match stack.last() {
            Some(&parent) => nodes[parent].children.push(id),
            None => {
                if root.is_some() {
                    return Err(VgdlError::Syntax {
                        line,
                        message: format!(
                            "\"{content}\" is outside the BasicGame block (not indented)"
                        ),
                    });
                }
                root = Some(id);
            }
        }
        stack.push(id);
    }
    let root = root.ok_or(VgdlError::Syntax {
        line: 0,
        message: "empty game description".into(),
    })?;
    Ok((nodes, root))
}

/// The `key=value` items of a line (`what` names the construct in errors): a bare word there
/// is a syntax error.
pub(super) fn params_of<'a>(
    items: &[Item<'a>],
    line: usize,
    what: &str,
) -> Result<Vec<(&'a str, &'a str)>, VgdlError> {
    items
        .iter()
        .map(|it| match it {
            Item::Param(k, v) => Ok((*k, *v)),
            Item::Word(w) => Err(VgdlError::Syntax {
                line,
                message: format!("unexpected word \"{w}\" in {what} (expected key=value)"),
            }),
        })
        .collect()
}
