//! The game of Go: colours, vertices, moves, the board, rules, scoring and the MCTS player.
//!
//! Everything here is pure (no I/O, no clocks but a passed-in deadline); protocols live in `gtp`.

pub mod board;
pub mod clock;
pub mod game;
pub mod scoring;
pub mod search;
pub mod sgf;
pub mod tactics_suite;

use std::fmt;
use std::str::FromStr;

/// Smallest and largest board sizes tablero plays (GTP allows 2..=25).
pub const MIN_SIZE: usize = 2;
pub const MAX_SIZE: usize = 25;

/// GTP column letters: `A`..`Z` without `I`.
pub const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// 0 for Black, 1 for White.
    pub fn index(self) -> usize {
        self as usize
    }
    /// `B` or `W`, as in SGF and `final_score`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
    /// The winner of a game that Black won by `margin` points (negative: White; 0: a draw).
    pub fn winner_by_margin(margin: f64) -> Option<Color> {
        if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("invalid color: {0:?}")]
    Color(String),
    #[error("invalid vertex: {0:?}")]
    Vertex(String),
}

impl FromStr for Color {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseError::Color(s.to_string())),
        }
    }
}

/// A point on the board: column 0 is `A`, row 0 is the bottom row (`1` in GTP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    col: u8,
    row: u8,
}

impl Vertex {
    /// A vertex; callers keep `col, row < MAX_SIZE`.
    pub const fn new(col: usize, row: usize) -> Vertex {
        assert!(col < MAX_SIZE && row < MAX_SIZE);
        Vertex {
            col: col as u8,
            row: row as u8,
        }
    }
    pub fn col(self) -> usize {
        self.col as usize
    }
    pub fn row(self) -> usize {
        self.row as usize
    }
    /// True if the vertex lies on a board of `size`.
    pub fn on_board(self, size: usize) -> bool {
        self.col() < size && self.row() < size
    }
    /// Parses a GTP vertex (`D4`, `t19`; not `pass`), checking it against `size`.
    pub fn parse(s: &str, size: usize) -> Result<Vertex, ParseError> {
        let err = || ParseError::Vertex(s.to_string());
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(err)?;
        let col = COLUMN_LETTERS
            .iter()
            .position(|&c| c == letter.to_ascii_uppercase())
            .ok_or_else(err)?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(err());
        }
        let row: usize = std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or_else(err)?;
        if row == 0 || row > size || col >= size {
            return Err(err());
        }
        Ok(Vertex::new(col, row - 1))
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            COLUMN_LETTERS[self.col()] as char,
            self.row() + 1
        )
    }
}

/// A move: a stone on a vertex or a pass. Resignation is a protocol matter, not a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(Vertex),
}

impl Move {
    /// Parses `pass` or a GTP vertex on a board of `size`.
    pub fn parse(s: &str, size: usize) -> Result<Move, ParseError> {
        if s.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            Vertex::parse(s, size).map(Move::Play)
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Play(v) => v.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_skip_i_and_check_size() {
        assert_eq!(Vertex::parse("J1", 19).unwrap(), Vertex::new(8, 0));
        assert_eq!(Vertex::parse("t19", 19).unwrap(), Vertex::new(18, 18));
        assert_eq!(Vertex::parse("Z25", 25).unwrap().to_string(), "Z25");
        assert!(Vertex::parse("I5", 19).is_err());
        assert!(Vertex::parse("A10", 9).is_err());
        assert!(Vertex::parse("K1", 9).is_err());
        assert!(Vertex::parse("A0", 9).is_err());
        assert!(Vertex::parse("A", 9).is_err());
        assert!(Vertex::parse("", 9).is_err());
        assert!(Vertex::parse("A+1", 9).is_err());
        assert_eq!(Move::parse("PASS", 9).unwrap(), Move::Pass);
        assert_eq!("W".parse::<Color>().unwrap(), Color::White);
        assert!("red".parse::<Color>().is_err());
    }
}
