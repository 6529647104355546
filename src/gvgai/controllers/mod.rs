//! GVG-AI controllers: pick an action for a [`GameState`] within a [`Budget`], using the
//! forward model (copy + advance). Every controller is seeded.
//!
//! Implemented: `random`, `onestep` (one-step look-ahead), `mcts` (open-loop UCT with random
//! rollouts), `bfs` (breadth-first search for deterministic games), `iw` (IW(1), then BFS).
//! Planned (issue 6): rolling-horizon evolution.
//! [`play`] runs a whole game in-process with per-act budgets.

pub mod bfs;
pub mod mcts;

use std::str::FromStr;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::budget::{Budget, CancelFlag};
use crate::gvgai::engine::{Action, Game, GameState, Outcome, Winner};

pub use bfs::Bfs;
pub use mcts::{Mcts, MctsParams};

/// GVG-AI's time limits (single-player planning track).
pub const INIT_TIME: Duration = Duration::from_millis(1000);
pub const ACT_TIME: Duration = Duration::from_millis(40);

/// A game-playing controller.
pub trait Controller: Send {
    fn name(&self) -> &'static str;
    /// Called once before the first act (GVG-AI gives 1 s).
    fn init(&mut self, _state: &GameState, _budget: &Budget) {}
    /// Choose the avatar's action (GVG-AI gives 40 ms).
    fn act(&mut self, state: &GameState, budget: &Budget) -> Action;
}

/// The `--controller` choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControllerKind {
    Random,
    OneStep,
    Mcts,
    Bfs,
    Iw,
    /// VGDL → PDDL → planner (`crate::planning::controller`).
    Planner,
}

impl FromStr for ControllerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(ControllerKind::Random),
            "onestep" | "one-step" => Ok(ControllerKind::OneStep),
            "mcts" => Ok(ControllerKind::Mcts),
            "bfs" => Ok(ControllerKind::Bfs),
            "iw" => Ok(ControllerKind::Iw),
            "planner" => Ok(ControllerKind::Planner),
            other => Err(format!(
                "unknown controller \"{other}\" (random, onestep, mcts, bfs, iw, planner)"
            )),
        }
    }
}

/// Build a controller.
pub fn make(kind: ControllerKind, seed: u64) -> Box<dyn Controller> {
    match kind {
        ControllerKind::Random => Box::new(RandomController::new(seed)),
        ControllerKind::OneStep => Box::new(OneStep::new(seed)),
        ControllerKind::Mcts => Box::new(Mcts::new(seed, MctsParams::default())),
        ControllerKind::Bfs => Box::new(Bfs::new()),
        ControllerKind::Iw => Box::new(Bfs::iw()),
        ControllerKind::Planner => {
            let _ = seed;
            Box::new(crate::planning::controller::PlannerController::new())
        }
    }
}

/// Actions the controller may choose: the avatar's actions (NIL when it has none).
pub fn choices(state: &GameState) -> Vec<Action> {
    let a = state.available_actions();
    if a.is_empty() {
        vec![Action::Nil]
    } else {
        a.to_vec()
    }
}

/// The usual GVG-AI state value: score, with a large bonus for a win and malus for a loss.
pub fn value(state: &GameState) -> f64 {
    const HUGE: f64 = 10_000_000.0;
    match state.winner() {
        Winner::PlayerWins => state.score() + HUGE,
        Winner::PlayerLoses => state.score() - HUGE,
        Winner::NoWinner => state.score(),
    }
}

/// Uniformly random among the available actions (GVG-AI `sampleRandom`).
pub struct RandomController {
    rng: Xoshiro256PlusPlus,
}

impl RandomController {
    pub fn new(seed: u64) -> Self {
        RandomController {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Controller for RandomController {
    fn name(&self) -> &'static str {
        "random"
    }
    fn act(&mut self, state: &GameState, _budget: &Budget) -> Action {
        let c = choices(state);
        c[self.rng.gen_range(0..c.len())]
    }
}

/// Tries every action once and keeps the best resulting value, ties broken at random
/// (GVG-AI `sampleonesteplookahead`).
pub struct OneStep {
    rng: Xoshiro256PlusPlus,
}

impl OneStep {
    pub fn new(seed: u64) -> Self {
        OneStep {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Controller for OneStep {
    fn name(&self) -> &'static str {
        "onestep"
    }
    fn act(&mut self, state: &GameState, _budget: &Budget) -> Action {
        let mut best = f64::NEG_INFINITY;
        let mut best_actions = Vec::new();
        for a in choices(state) {
            let mut s = state.clone();
            s.reseed(self.rng.r#gen());
            s.advance(a);
            let v = value(&s);
            if v > best {
                best = v;
                best_actions.clear();
                best_actions.push(a);
            } else if v == best {
                best_actions.push(a);
            }
        }
        match best_actions.len() {
            0 => Action::Nil,
            n => best_actions[self.rng.gen_range(0..n)],
        }
    }
}

/// The result of [`play`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayResult {
    pub outcome: Outcome,
    /// Longest `act` call in milliseconds.
    pub act_ms_max: f64,
}

/// Play `level` of `game` to the end with `controller`, giving it GVG-AI's budgets
/// (`act_time` per action). An act that overruns its budget is played as NIL, as GVG-AI does
/// (GVG-AI would disqualify beyond 50 ms; `act_ms_max` reports the worst act).
pub fn play(
    game: &Game,
    level: usize,
    seed: i64,
    controller: &mut dyn Controller,
    act_time: Duration,
) -> Result<PlayResult, crate::gvgai::engine::EngineError> {
    let mut state = game.start(level, seed)?;
    let cancel = CancelFlag::new();
    controller.init(
        &state,
        &Budget::new(Instant::now() + INIT_TIME, cancel.clone()),
    );
    let mut act_ms_max: f64 = 0.0;
    while !state.is_over() {
        let start = Instant::now();
        let budget = Budget::new(start + act_time, cancel.clone());
        let mut action = controller.act(&state, &budget);
        let elapsed = start.elapsed();
        act_ms_max = act_ms_max.max(elapsed.as_secs_f64() * 1000.0);
        if elapsed > act_time {
            action = Action::Nil;
        }
        state.advance(action);
    }
    Ok(PlayResult {
        outcome: Outcome::of(&state),
        act_ms_max,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CORRIDOR: &str = "BasicGame square_size=10
    SpriteSet
        goal > Immovable
        trap > Immovable
    LevelMapping
        g > goal
        t > trap
    InteractionSet
        avatar wall > stepBack
        goal avatar > killSprite scoreChange=1
        avatar trap > killSprite
    TerminationSet
        SpriteCounter stype=goal win=True
        SpriteCounter stype=avatar win=False
        Timeout limit=200 win=False";

    fn corridor() -> Game {
        Game::from_texts(
            "corridor",
            CORRIDOR,
            &[
                "wwwwww\nwtAgww\nwwwwww\n",
                "wwwwwwwww\nwtA    gw\nwwwwwwwww\n",
            ],
        )
        .unwrap()
    }

    #[test]
    fn controller_names_parse() {
        assert_eq!("mcts".parse::<ControllerKind>(), Ok(ControllerKind::Mcts));
        assert_eq!("bfs".parse::<ControllerKind>(), Ok(ControllerKind::Bfs));
        assert!("alphazero".parse::<ControllerKind>().is_err());
    }

    #[test]
    fn one_step_takes_the_adjacent_goal_and_avoids_the_trap() {
        let game = corridor();
        let mut c = OneStep::new(1);
        let r = play(&game, 0, 1, &mut c, ACT_TIME).unwrap();
        assert_eq!(
            r.outcome,
            Outcome {
                win: true,
                score: 1.0,
                ticks: 0
            }
        );
    }

    #[test]
    fn random_plays_to_the_end() {
        let game = corridor();
        let mut c = RandomController::new(3);
        let r = play(&game, 1, 1, &mut c, ACT_TIME).unwrap();
        assert!(r.outcome.ticks <= 200);
    }

    #[test]
    fn mcts_finds_a_goal_beyond_its_one_step_horizon() {
        let game = corridor();
        let mut c = Mcts::new(5, MctsParams::default());
        let r = play(&game, 1, 1, &mut c, ACT_TIME).unwrap();
        assert!(r.outcome.win, "{r:?}");
        assert!(r.outcome.ticks < 30, "{r:?}");
    }
}
