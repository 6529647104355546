//! GVG-AI: VGDL games and their forward model (issue 6).
//!
//! - [`vgdl`]: the VGDL parser (game descriptions and levels) into a typed model. Errors name
//!   the line and the problem; GVG-AI constructs not implemented yet are reported as
//!   "unsupported ..." (see `vgdl::model::UNSUPPORTED_CLASSES` and the effect list in
//!   `vgdl::parse`).
//! - [`engine`]: the grid-physics forward model. [`engine::Game`] loads a game and its levels,
//!   [`engine::GameState`] is a running game (`Clone` = forward-model copy,
//!   `advance(Action)`), [`engine::replay`] replays a `UDLRNS` action string and returns an
//!   [`engine::Outcome`] `{win, score, ticks}`.
//!
//! The game files shipped in `data/gvgai/games/` come from GAIGResearch/GVGAI
//! (GPL-3.0-or-later); see `data/gvgai/README.md`.
//!
//! # Fidelity
//! The engine follows GVG-AI's `Game`/`ForwardModel` cycle (avatar first, then other sprites
//! in reverse sprite order; timed, EOS and pairwise effects with per-effect re-scans; removal;
//! terminations in declaration order; loss at tick 2000; a win with score ≤ 0 reported as 1)
//! and draws from a `java.util.Random`-compatible generator, so a seeded game matches the Java
//! framework run with the same seed. `tests/gvgai_java_diff.rs` (ignored by default; needs a
//! GVG-AI build, see its header) compares per-tick traces (tick, score, avatar position) and
//! final results with the Java engine: all 22 shipped games agree on random action strings
//! for all five levels.
//!
//! Ticks: `GameState::tick()` counts cycles played (the Java forward model's `getGameTick()`);
//! `Outcome::ticks` is the Java game's final `getGameTick()` (cycles − 1; 2000 at the cap).
//! The block size defaults to GVG-AI's (`square_size`, else `800 / max(w, h)`); the learning
//! track's 10 px is `BlockSize::Learning`. Movement of `speed < 1` sprites depends on it.
//!
//! # Status (issue 6, work in progress)
//! Done: parser; engine for every sprite class, effect and termination used by the 22 shipped
//! games; seeded Java-compatible RNG; GVG-AI's path finder (pacman); `replay`; criterion bench
//! `gvgai_forward`.
//! Not done: controllers (random, one-step, MCTS, RHEA, BFS/IW), the line-based socket adapter
//! and JSON observations, CLI wiring (`tablero gvgai play|replay|connect|host`).
//! Known differences from GVG-AI:
//! - `AlternateChaser`/`RandomAltChaser` (not in the shipped games) chase greedily; GVG-AI's
//!   target choice among several `stype1` types uses an unseeded generator (tablero takes the
//!   first), and its `fleeing` branch is unreachable there.
//! - Level characters missing from the LevelMapping are an error (GVG-AI warns and ignores).
//! - Levels over 4096 cells get no path table (path chasers stand still).
//! - ParameterSet (game spaces), TIME interactions, continuous physics and the classes and
//!   effects listed as unsupported are refused with a clear error.

pub mod engine;
pub mod vgdl;
