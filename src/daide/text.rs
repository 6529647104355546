//! The DAIDE text form of token sequences, for logs and tests:
//! `SUB ((TUR AMY CON) MTO BUL)`.
//!
//! Names are 3-letter tokens (case-insensitive on input; power and province
//! names come from the [`TokenTable`]); `(` and `)` are brackets (`BRA`/`KET`
//! are accepted too); integers are decimal, optionally negative; text is
//! quoted with `'` (a quote inside is doubled: `'it''s'`); any token can be
//! written as `#XXXX` (4 hex digits), which is how tokens without a name
//! (undefined press values, non-printable text bytes, powers or provinces the
//! table lacks) are printed. Printing is canonical, so text → tokens → text is
//! the identity on printed text.

use thiserror::Error;

use super::message::{Message, MessageError, parse_message};
use super::token::{CAT_TEXT, Token, TokenError, TokenTable};

/// Errors in the text form.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TextError {
    /// A word that names no token.
    #[error("unknown token name {word:?} at byte {at}")]
    UnknownName {
        /// The word.
        word: String,
        /// Byte offset.
        at: usize,
    },
    /// A character that starts no token.
    #[error("unexpected character {ch:?} at byte {at}")]
    Unexpected {
        /// The character.
        ch: char,
        /// Byte offset.
        at: usize,
    },
    /// A quote never closed.
    #[error("unterminated text starting at byte {0}")]
    Unterminated(usize),
    /// A non-Latin-1 character inside quotes.
    #[error("character {ch:?} at byte {at} cannot be a text token")]
    NotByte {
        /// The character.
        ch: char,
        /// Byte offset.
        at: usize,
    },
    /// A bad number or hex token.
    #[error("bad token literal at byte {at}: {source}")]
    Literal {
        /// Byte offset.
        at: usize,
        /// Why.
        source: TokenError,
    },
    /// A malformed number or hex literal.
    #[error("malformed literal {0:?}")]
    Malformed(String),
    /// The tokens are not a valid message.
    #[error("not a message: {0}")]
    Message(#[from] MessageError),
}

fn printable(b: u8) -> bool {
    (0x20..=0x7E).contains(&b)
}

/// Prints tokens in the canonical text form.
pub fn format_tokens(tokens: &[Token], table: &TokenTable) -> String {
    let mut out = String::new();
    let mut prev: Option<Token> = None;
    let mut in_text = false;
    for &t in tokens {
        let is_text = matches!(t, Token::Text(b) if printable(b));
        if in_text && !is_text {
            out.push('\'');
            in_text = false;
        }
        if !(in_text && is_text) {
            let space = match prev {
                None | Some(Token::Bra) => false,
                Some(_) => t != Token::Ket,
            };
            if space {
                out.push(' ');
            }
        }
        match t {
            Token::Bra => out.push('('),
            Token::Ket => out.push(')'),
            Token::Int(v) => out.push_str(&v.to_string()),
            Token::Text(b) if printable(b) => {
                if !in_text {
                    out.push('\'');
                    in_text = true;
                }
                if b == b'\'' {
                    out.push_str("''");
                } else {
                    out.push(b as char);
                }
            }
            other => match table.name_of(other) {
                Some(n) => out.push_str(&n),
                None => out.push_str(&format!("#{:04X}", other.code())),
            },
        }
        prev = Some(t);
    }
    if in_text {
        out.push('\'');
    }
    out
}

/// Parses the text form into tokens (power/province names via `table`).
pub fn parse_text(s: &str, table: &TokenTable) -> Result<Vec<Token>, TextError> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'(' => {
                out.push(Token::Bra);
                i += 1;
            }
            b')' => {
                out.push(Token::Ket);
                i += 1;
            }
            b'\'' => {
                let start = i;
                i += 1;
                let mut closed = false;
                let rest = &s[i..];
                let mut chars = rest.char_indices().peekable();
                while let Some((off, ch)) = chars.next() {
                    if ch == '\'' {
                        if let Some(&(_, '\'')) = chars.peek() {
                            chars.next();
                            out.push(Token::Text(b'\''));
                            continue;
                        }
                        i += off + 1;
                        closed = true;
                        break;
                    }
                    let byte = u8::try_from(u32::from(ch))
                        .map_err(|_| TextError::NotByte { ch, at: i + off })?;
                    out.push(Token::Text(byte));
                }
                if !closed {
                    return Err(TextError::Unterminated(start));
                }
            }
            b'#' => {
                let lit = s
                    .get(i + 1..i + 5)
                    .ok_or_else(|| TextError::Malformed(s[i..].to_string()))?;
                let code = u16::from_str_radix(lit, 16)
                    .ok()
                    .filter(|_| lit.bytes().all(|x| x.is_ascii_hexdigit()))
                    .ok_or_else(|| TextError::Malformed(format!("#{lit}")))?;
                let t = Token::from_code(code)
                    .map_err(|source| TextError::Literal { at: i, source })?;
                if code >> 8 != CAT_TEXT as u16 {
                    table
                        .check(t)
                        .map_err(|source| TextError::Literal { at: i, source })?;
                }
                out.push(t);
                i += 5;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let lit = &s[start..i];
                let v: i32 = lit
                    .parse()
                    .map_err(|_| TextError::Malformed(lit.to_string()))?;
                out.push(Token::int(v).map_err(|source| TextError::Literal { at: start, source })?);
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let word = &s[start..i];
                out.push(
                    table
                        .token_by_name(word)
                        .ok_or_else(|| TextError::UnknownName {
                            word: word.to_string(),
                            at: start,
                        })?,
                );
            }
            _ => {
                let ch = s[i..].chars().next().unwrap_or('?');
                return Err(TextError::Unexpected { ch, at: i });
            }
        }
    }
    Ok(out)
}

impl Message {
    /// The canonical text form.
    pub fn to_text(&self, table: &TokenTable) -> String {
        format_tokens(&self.to_tokens(), table)
    }

    /// Parses the text form.
    pub fn from_text(s: &str, table: &TokenTable) -> Result<Message, TextError> {
        Ok(parse_message(&parse_text(s, table)?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_tokens_and_escapes() {
        let t = TokenTable::standard();
        let toks = parse_text("NME ('it''s') ('v1')", &t).unwrap();
        assert_eq!(toks[2], Token::Text(b'i'));
        assert_eq!(format_tokens(&toks, &t), "NME ('it''s') ('v1')");
        let toks = vec![Token::Bra, Token::Text(0), Token::Text(b'a'), Token::Ket];
        let s = format_tokens(&toks, &t);
        assert_eq!(s, "(#4B00 'a')");
        assert_eq!(parse_text(&s, &t).unwrap(), toks);
        assert_eq!(
            parse_text("bra KET", &t).unwrap(),
            vec![Token::Bra, Token::Ket]
        );
        assert_eq!(
            parse_text("-8192 8191", &t).unwrap(),
            vec![Token::Int(-8192), Token::Int(8191)]
        );
    }

    #[test]
    fn text_errors() {
        let t = TokenTable::standard();
        assert!(matches!(
            parse_text("XYZ", &t),
            Err(TextError::UnknownName { .. })
        ));
        assert!(matches!(
            parse_text("'abc", &t),
            Err(TextError::Unterminated(0))
        ));
        assert!(matches!(
            parse_text("8192", &t),
            Err(TextError::Literal { .. })
        ));
        assert!(matches!(
            parse_text("#41", &t),
            Err(TextError::Malformed(_))
        ));
        assert!(matches!(
            parse_text("#4C00", &t),
            Err(TextError::Literal { .. })
        ));
        assert!(matches!(
            parse_text("#4107", &t),
            Err(TextError::Literal { .. })
        ));
        assert!(matches!(
            parse_text("[", &t),
            Err(TextError::Unexpected { .. })
        ));
        assert!(parse_text("'é'", &t).is_ok());
        assert!(matches!(
            parse_text("'€'", &t),
            Err(TextError::NotByte { .. })
        ));
        assert!(matches!(parse_text("-", &t), Err(TextError::Malformed(_))));
        assert!(Message::from_text("SUB (", &t).is_err());
    }
}
