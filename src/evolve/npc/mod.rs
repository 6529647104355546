//! The NPC GP (`tablero evolve npc`): individuals of two trees (Patrol, Attack) forming a
//! two-state machine ([`tree`], [`primitives`], [`machine`]), evolved by [`gp`] against the
//! scenario suite of [`eval`] in tablero's native NPC game ([`sim`]); saved and loaded as
//! S-expressions ([`sexpr`]) and usable as a GVG-AI controller ([`controller`]).

pub mod controller;
pub mod eval;
pub mod gp;
pub mod machine;
pub mod primitives;
pub mod sexpr;
pub mod sim;
pub mod tree;

pub use tree::{Individual, Node};
