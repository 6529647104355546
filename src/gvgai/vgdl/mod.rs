//! VGDL: the game-description language of GVG-AI. This module owns parsing game descriptions
//! ([`parse_game`]) and level files ([`parse_level`]) into a typed model ([`model`]).
//! Errors name the line and the problem; a class, effect, termination, physics type or game
//! class GVG-AI's framework defines but tablero does not implement is
//! [`VgdlError::Unsupported`], with its name and line. [`coverage`] lists every name and its
//! status; `protocols/vgdl-coverage.md` is the table, checked against it by a test.
//!
//! Inside, `syntax` tokenises lines and builds the indentation tree, `params` reads typed
//! `key=value` parameters, `space` rewrites a `GameSpace` game with its parameter values, and
//! `sprites`, `interactions` and `terminations` resolve their sections for `parse`.

pub mod coverage;
mod interactions;
pub mod level;
pub mod model;
mod params;
pub mod parse;
mod space;
mod sprites;
mod syntax;
mod terminations;

pub use coverage::Construct;
pub use level::{Level, parse_level};
pub use model::*;
pub use parse::parse_game;

/// A VGDL game or level file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VgdlError {
    /// The text does not have the shape VGDL requires.
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    /// Well-formed, but refers to something unknown or inconsistent.
    #[error("line {line}: {message}")]
    Semantic { line: usize, message: String },
    /// Names a construct GVG-AI's framework defines that tablero does not implement.
    #[error(
        "line {line}: unsupported {what} \"{name}\" (GVG-AI defines it; tablero does not implement it)"
    )]
    Unsupported {
        what: Construct,
        name: String,
        line: usize,
    },
    /// A level file problem.
    #[error("level line {line}: {message}")]
    Level { line: usize, message: String },
}
