//! GVG-AI: VGDL games and their forward model (issue 6).
//!
//! - [`vgdl`]: the VGDL parser (game descriptions and levels) into a typed model.
//! - [`engine`]: the grid-physics forward model reproducing the GVG-AI Java framework tick for
//!   tick, with cheap `Clone` and `advance(action)`.
//!
//! The game files shipped in `data/gvgai/games/` come from GAIGResearch/GVGAI
//! (GPL-3.0-or-later); see `data/gvgai/README.md`.
//!
//! # Status (issue 6, work in progress)
//! Done: parser, engine for every class/effect/termination used by the 22 shipped games,
//! Java-compatible seeded RNG, `replay`.
//! Not done: controllers, the line-based socket adapter, CLI wiring (`tablero gvgai ...`).
//! Known approximations: `PathAltChaser`/`RandomPathAltChaser` (pacman ghosts) chase greedily
//! instead of by A* paths, and GVG-AI's own implementation draws from an unseeded generator
//! there, so pacman can never match the Java engine tick for tick.

pub mod engine;
pub mod vgdl;
