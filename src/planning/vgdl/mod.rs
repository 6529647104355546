//! VGDL → PDDL: translates a GVG-AI game state (its VGDL rules and the current level) into a
//! STRIPS domain and problem with negative preconditions (and derived predicates only for
//! goals with several win conditions or a non-zero limit), which our planner and Fast Downward
//! both read.
//!
//! The method is the thesis's (the interaction graph rooted at the avatar, one case per
//! branch, the four move actions, counters for SpriteCounter goals), generalised:
//! - cases are found by running tablero's engine on one-dimensional "chains" of cells (see
//!   [`cases`]), so every effect the engine knows is modelled exactly as the engine plays it,
//!   at any push depth (up to [`TranslateOptions::max_chain`] cells), including `transformTo`,
//!   `killSprite`, `spawn`, `undoAll` and `stepBack`;
//! - one PDDL action per case (`move`, a push, a push that kills, ...) over cell objects with
//!   directional adjacency `(adj ?d ?from ?to)`; cells nothing can ever enter (walls) are not
//!   objects;
//! - a counter `(count-X ?n)` per termination, changed by the case's exact count delta;
//! - Flicker types spawned by moves (Zen Puzzle's `isincenter`) are "transient": a flag
//!   `(calm-X)` says none was spawned by the last move, and the executor waits out their
//!   lifetime with NIL actions ([`Translation::pad_nil`]);
//! - losing conditions are avoided: moves that kill the avatar are left out, and counters of
//!   `win=False` terminations may not reach their limit (`(safe-X ?n)`);
//! - dead cells: for a sprite type the goal needs gone, cases that leave it where it can
//!   never be removed (a corner for a Sokoban box) are left out (`(live-X ?c)`);
//! - portals (`teleportToExit`) whose exit type has one sprite in the level are moves to the
//!   exit's cell (`(warp ?portal ?exit)`, see `warps`); with several exits the game picks one
//!   at random and the move is left out;
//! - stochastic or self-moving sprites (butterflies) are frozen where they are in the
//!   snapshot (`TranslateOptions::snapshot`): the model is then an approximation used for
//!   replanning.
//!
//! Anything else is refused with [`TranslateError::NotTranslatable`] naming the construct.
//!
//! The translation runs in named steps, one module each: `translator` analyses the game once
//! ([`Translator::new`], with the terminations as counters in `counters`); per state,
//! `snapshot` reads the cells, `analysis` finds their cases, `model` gathers the facts the
//! domain and problem share (dead cells in `dead_cells`, cells to avoid in `avoid`, portals
//! in `warps`), and
//! `domain`, `actions` and `problem` write the PDDL (names in `names`).

pub mod cases;
pub mod plan;

mod actions;
mod analysis;
mod avoid;
mod counters;
mod dead_cells;
mod domain;
mod model;
mod names;
mod problem;
mod snapshot;
mod translator;
mod warps;

use std::collections::BTreeMap;

use thiserror::Error;

use crate::gvgai::engine::{Action, GameState};
use crate::planning::pddl::{Domain, Problem};

pub use translator::Translator;

/// Why a game cannot be translated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TranslateError {
    #[error("not translatable: {0}")]
    NotTranslatable(String),
    #[error("the level has no avatar")]
    NoAvatar,
    #[error("the plan step {0:?} is not an action of the translation")]
    BadPlanStep(String),
}

fn not_translatable(s: impl Into<String>) -> TranslateError {
    TranslateError::NotTranslatable(s.into())
}

/// Options of the translation.
#[derive(Debug, Clone)]
pub struct TranslateOptions {
    /// Freeze stochastic and self-moving sprites where they are (replanning); otherwise they
    /// are "not translatable".
    pub snapshot: bool,
    /// Longest chain of cells simulated for one move (avatar cell included).
    pub max_chain: usize,
    /// Leave out moves that put a goal sprite on a dead cell.
    pub dead_cells: bool,
}

impl Default for TranslateOptions {
    fn default() -> Self {
        TranslateOptions {
            snapshot: false,
            max_chain: 6,
            dead_cells: true,
        }
    }
}

/// A translated game state.
#[derive(Debug, Clone)]
pub struct Translation {
    pub domain: Domain,
    pub problem: Problem,
    /// Moves left out of the model, and other remarks.
    pub warnings: Vec<String>,
    /// False when sprites were frozen (the model then only approximates the game).
    pub exact: bool,
    /// NIL actions the executor may need after the plan for transient sprites to expire.
    pub pad_nil: usize,
    /// Number of cases (PDDL actions).
    pub cases: usize,
    /// The engine actions of each PDDL action (by name).
    pub steps: BTreeMap<String, StepKind>,
}

/// What a PDDL action of the translation plays in the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// The move action of the direction in the first argument, then `wait` NIL ticks (until
    /// what it set in motion rests).
    Move { wait: usize },
    /// ACTION_USE, then `wait` NIL ticks (until the used sprite is gone).
    Use { wait: usize },
}

impl Translation {
    pub fn domain_text(&self) -> String {
        crate::planning::pddl::write_domain(&self.domain)
    }
    pub fn problem_text(&self) -> String {
        crate::planning::pddl::write_problem(&self.problem)
    }

    /// The engine actions of a ground plan step such as `(move right c1_2 c2_2)` or
    /// `(use_monsterquick1-gone up c1_2 c1_1)`: a move plays the direction in its first
    /// argument; a use plays ACTION_USE (letter `S`) and then its NIL ticks.
    pub fn step_actions(&self, step: &str) -> Result<Vec<Action>, TranslateError> {
        let bad = || TranslateError::BadPlanStep(step.to_string());
        let inner = step.trim().trim_start_matches('(').trim_end_matches(')');
        let name = inner.split_whitespace().next().ok_or_else(bad)?;
        match self.steps.get(&name.to_ascii_lowercase()) {
            Some(StepKind::Use { wait }) => {
                let mut v = vec![Action::Use];
                v.extend(std::iter::repeat_n(Action::Nil, *wait));
                Ok(v)
            }
            Some(StepKind::Move { wait }) => {
                let mut v = vec![step_action(step)?];
                v.extend(std::iter::repeat_n(Action::Nil, *wait));
                Ok(v)
            }
            None => Err(bad()),
        }
    }

    /// The engine actions of a plan (see [`Translation::step_actions`]).
    pub fn plan_actions(&self, plan: &[String]) -> Result<Vec<Action>, TranslateError> {
        let mut out = Vec::new();
        for s in plan {
            out.extend(self.step_actions(s)?);
        }
        Ok(out)
    }
}

/// The engine action of a ground plan step such as `(move right c1_2 c2_2)` (the first
/// argument of every generated action is its direction).
pub fn step_action(step: &str) -> Result<Action, TranslateError> {
    let bad = || TranslateError::BadPlanStep(step.to_string());
    let inner = step.trim().trim_start_matches('(').trim_end_matches(')');
    let dir = inner.split_whitespace().nth(1).ok_or_else(bad)?;
    match dir.to_ascii_lowercase().as_str() {
        "up" => Ok(Action::Up),
        "down" => Ok(Action::Down),
        "left" => Ok(Action::Left),
        "right" => Ok(Action::Right),
        _ => Err(bad()),
    }
}

/// Translates `state` (its game and current level) in one call.
pub fn translate(
    state: &GameState,
    name: &str,
    opts: TranslateOptions,
) -> Result<Translation, TranslateError> {
    Translator::new(state, opts)?.translate(state, name)
}

#[cfg(test)]
mod tests;
