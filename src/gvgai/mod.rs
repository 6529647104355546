//! GVG-AI: VGDL games and their forward model.
//!
//! - [`vgdl`]: the VGDL parser (game descriptions and levels) into a typed model. Errors name
//!   the line and the problem; a GVG-AI construct tablero does not implement is
//!   `VgdlError::Unsupported` with its name and line (`vgdl::coverage` lists every name and
//!   its status; the table is `protocols/vgdl-coverage.md`).
//! - [`controllers`]: seeded controllers (`random`, `onestep`, `mcts`, `rhea`, `bfs`, `iw`)
//!   behind a `Controller` trait with GVG-AI's budgets, and [`controllers::play`] for a whole
//!   game. Every controller by name, with the planner and evolved ones defined above this
//!   core: `crate::controllers::make`. The learning track's line protocol: `crate::gvgai_line`.
//! - [`games`]: the shipped games, embedded.
//! - [`engine`]: the grid-physics forward model. [`engine::Game`] loads a game and its levels,
//!   [`engine::GameState`] is a running game (`Clone` = forward-model copy,
//!   `advance(Action)`; multi-player games: `advance_joint(&[Action])`, `score_of(p)`,
//!   `winner_of(p)`, `available_actions_of(p)`, and `seated(p, Opponent, seed)` for a search
//!   playing one player), [`engine::replay`] replays a `UDLRNS` action string and returns an
//!   [`engine::Outcome`] `{win, score, ticks}`.
//!
//! The game files in `data/gvgai/games/` come from GAIGResearch/GVGAI (GPL-3.0-or-later); see
//! `data/gvgai/README.md`.
//!
//! # Fidelity
//! The engine follows GVG-AI's `Game`/`ForwardModel` cycle (avatar first, then other sprites
//! in reverse sprite order; timed, EOS and pairwise effects with per-effect re-scans; removal;
//! terminations in declaration order; loss at tick 2000; a win with score ≤ 0 reported as 1)
//! and draws from a `java.util.Random`-compatible generator, so a seeded game matches the Java
//! framework run with the same seed. GVG-AI's path finder (uniform-cost search with
//! `PriorityQueue` tie-breaking) is reproduced for path-chasing NPCs.
//!
//! Checked against the Java engine (GAIGResearch/GVGAI e58ff65):
//! - `tests/gvgai_golden.rs` (always run): 110 recorded Java runs (22 shipped games × 5
//!   levels, seeded, fixed action strings) must give the same win, score, ticks and per-tick
//!   trace (tick, score, avatar position).
//! - `tests/gvgai_corpus.rs` (always run): the framework's whole corpus, single-player and
//!   two-player (`data/gvgai/corpus`), every game × level × 3 seeds, 300 seeded random
//!   actions per player: every
//!   tick's full state (every sprite's type, position, orientation, speed, health, resources,
//!   `lastmove`, time to live, flicker/spawner/random-NPC counters; every player's score and
//!   winner) must equal
//!   the Java framework's recorded trace. The games not loaded yet are listed there.
//!
//! Ticks: `GameState::tick()` counts cycles played (the Java forward model's `getGameTick()`);
//! `Outcome::ticks` is the Java game's final `getGameTick()` (cycles − 1; 2000 at the cap).
//! The block size defaults to GVG-AI's (`square_size`, else `800 / max(w, h)`); the learning
//! track's 10 px is `BlockSize::Learning`. Movement of `speed < 1` sprites depends on it.
//!
//! # What is implemented
//! Parser; engine with every sprite class, effect and termination used by the 22 shipped
//! games and most of GVG-AI's grid-physics ontology (see `SpriteClass`, `EffectKind`,
//! `TerminationKind`); TIME effects and `addTimer`; seeded Java-compatible RNG; path finder;
//! observation categories; `replay`; copy-on-write sprite groups (walls and floors are shared
//! between copies); criterion bench `gvgai_forward` and `tablero gvgai bench`. Forward-model
//! speed (copy + advance steps): 2.5 M/s on sokoban 0 and 0.65 M/s on butterflies 0 per CPU
//! second (`tablero gvgai bench`, 2026-11-30; wall-clock rates on the shared 2-core machine
//! at load 19 were 0.47 M/s and 0.16 M/s); the Java forward model, measured the same way on
//! the same machine, did 0.21 M/s and 0.05 M/s of wall time.
//! Controllers (in multi-player games, one per player: `controllers::play_players`): random,
//! one-step look-ahead, open-loop MCTS, rolling-horizon evolution, BFS
//! and IW(1)→BFS for deterministic games (the search persists across acts, merging states by
//! `GameState::key`), all reading the clock before every forward-model advance
//! (`tests/gvgai_budget.rs`). The line protocol: `crate::gvgai_line`, `protocols/gvgai-line.md`.
//! Measurements: `docs/results/gvgai.md`.
//! Known differences from GVG-AI:
//! - With several `stype1` types, GVG-AI's alternate and path chasers pick the target type
//!   with an unseeded generator; tablero takes the first.
//! - Level characters missing from the LevelMapping are an error (GVG-AI warns and ignores).
//! - Unknown sprite/effect parameters are ignored like in GVG-AI and listed in
//!   `GameDescription::warnings`.
//! - Levels over 4096 cells get no path table (path chasers stand still).
//! - ParameterSet (game spaces), continuous physics and the other names `vgdl::coverage`
//!   lists as unsupported are refused with `VgdlError::Unsupported`.

pub mod controllers;
pub mod engine;
pub mod games;
pub mod npc;
pub mod vgdl;
