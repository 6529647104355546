//! The NPC GP (`tablero evolve npc`): individuals of two trees (Patrol, Attack) forming a
//! two-state machine (the engine's NPC programs, `gvgai::npc`), evolved by [`gp`] against the
//! scenario suite of [`eval`] in tablero's native NPC game ([`sim`]); saved and loaded as
//! S-expressions ([`sexpr`]) and usable as a GVG-AI controller ([`controller`]).

pub mod controller;
pub mod eval;
pub mod gp;
pub mod sim;

pub use crate::gvgai::npc::{machine, primitives, sexpr, tree};

pub use tree::{Individual, Node};
