//! Evolutionary content, after the evolutionary content thesis (Lapuente & Lázaro,
//! UCM 2017): a GA that evolves dungeons as room graphs ([`dungeon`]), GP that evolves NPC
//! behaviour as a two-tree state machine ([`npc`]), and the shared GA machinery ([`ga`]).
//! Game logic only; files are written by [`report`].

pub mod dungeon;
pub mod ga;
pub mod npc;
pub mod report;
pub mod run;
