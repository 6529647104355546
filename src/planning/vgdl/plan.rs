//! Planning a GVG-AI game state: translate, plan (embedded portfolio or Fast Downward), map
//! the plan to engine actions, add the NIL ticks transient sprites need, and validate the
//! result by replaying it in tablero's engine.

use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use super::{TranslateError, Translation, Translator};
use crate::gvgai::engine::{Action, GameState, Winner};
use crate::planning::fast_downward::{self, FdConfig, FdError};
use crate::planning::{PlanError, PlanOptions};

/// Which planner.
#[derive(Debug, Clone)]
pub enum Backend {
    /// The embedded portfolio (or one member, `PlanOptions::planner`).
    Embedded,
    FastDownward(FdConfig),
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum GamePlanError {
    #[error("{0}")]
    Translate(#[from] TranslateError),
    #[error("{0}")]
    Plan(#[from] PlanError),
    #[error("{0}")]
    FastDownward(#[from] FdError),
}

/// A plan for a game state, validated by replay.
#[derive(Debug, Clone, Serialize)]
pub struct GamePlan {
    /// Engine actions as `U D L R S N` letters (with the NILs a use waits and the trailing
    /// NILs).
    pub plan: String,
    /// Letters in `plan`.
    pub length: usize,
    /// Steps of the PDDL plan (moves, turns and uses).
    pub moves: usize,
    /// Wall time: translation, grounding and search.
    pub seconds: f64,
    pub translate_seconds: f64,
    pub planner: String,
    /// Proved shortest (in moves) by an optimal planner.
    pub optimal: bool,
    /// The plan wins when replayed in tablero's engine from the state.
    pub win_on_replay: bool,
    /// Nodes expanded (embedded planner).
    pub expanded: u64,
    #[serde(skip)]
    pub actions: Vec<Action>,
    #[serde(skip)]
    pub steps: Vec<String>,
}

/// Replays `actions` from `state`, then NILs (at most `pad`) while the game runs; returns the
/// NILs added and whether the game was won.
pub fn replay_with_padding(state: &GameState, actions: &[Action], pad: usize) -> (usize, bool) {
    let mut st = state.clone();
    for &a in actions {
        if st.is_over() {
            break;
        }
        st.advance(a);
    }
    let mut added = 0;
    while !st.is_over() && added < pad {
        st.advance(Action::Nil);
        added += 1;
    }
    (added, st.winner() == Winner::PlayerWins)
}

/// Translates and plans `state`.
pub fn plan_state(
    state: &GameState,
    name: &str,
    translator: &Translator,
    opts: &PlanOptions,
    backend: &Backend,
) -> Result<GamePlan, GamePlanError> {
    let start = Instant::now();
    let tr = translator.translate(state, name)?;
    let translate_seconds = start.elapsed().as_secs_f64();
    plan_translation(state, &tr, opts, backend, start, translate_seconds)
}

/// Plans an existing translation of `state`; `start` is when the caller's clock started.
pub fn plan_translation(
    state: &GameState,
    tr: &Translation,
    opts: &PlanOptions,
    backend: &Backend,
    start: Instant,
    translate_seconds: f64,
) -> Result<GamePlan, GamePlanError> {
    let (steps, planner, optimal, expanded) = match backend {
        Backend::Embedded => {
            let task = match crate::planning::ground::ground(&tr.domain, &tr.problem) {
                Ok(t) => t,
                Err(crate::planning::ground::GroundError::GoalUnreachable(_)) => {
                    return Err(PlanError::Unsolvable.into());
                }
                Err(e) => return Err(PlanError::from(e).into()),
            };
            let r = crate::planning::solve_task(task, opts, start)?;
            (r.plan, r.planner, r.optimal, r.expanded)
        }
        Backend::FastDownward(cfg) => {
            let left = opts
                .timeout
                .saturating_sub(start.elapsed())
                .max(Duration::from_secs(1));
            let r = fast_downward::solve(&tr.domain_text(), &tr.problem_text(), cfg, left)?;
            let name = if cfg.search.is_empty() {
                format!("fast-downward --alias {}", cfg.alias)
            } else {
                format!("fast-downward --search {}", cfg.search)
            };
            (r.steps, name, false, 0)
        }
    };
    let mut actions = tr.plan_actions(&steps)?;
    let moves = steps.len();
    let (pad, win) = replay_with_padding(state, &actions, tr.pad_nil);
    actions.extend(std::iter::repeat_n(Action::Nil, pad));
    let plan: String = actions.iter().map(|a| a.to_char()).collect();
    Ok(GamePlan {
        length: plan.len(),
        plan,
        moves,
        seconds: start.elapsed().as_secs_f64(),
        translate_seconds,
        planner,
        optimal,
        win_on_replay: win,
        expanded,
        actions,
        steps,
    })
}
