//! GVG-AI controllers: pick an action for a [`GameState`] within a [`Budget`], using the
//! forward model (copy + advance). Every controller is seeded.
//!
//! Implemented: `random`, `onestep` (one-step look-ahead), `mcts` (open-loop UCT with random
//! rollouts), `olets` (open-loop expectimax tree search), `rhea` (rolling-horizon evolution), `bfs` (breadth-first search for
//! deterministic games), `iw` (IW(1), then BFS). `crate::controllers::make` is the one
//! registry behind every `--controller`; [`play`] runs a whole game in-process with per-act
//! budgets.
//!
//! Budgets: GVG-AI gives 1 s to initialise and 40 ms per act, and disqualifies beyond 50 ms.
//! Every search controller reads the clock before each forward-model advance and stops
//! [`SAFETY_MARGIN`] before its deadline ([`Clock`]); memory growth that could take
//! milliseconds (BFS tables) is only done when enough time is left.

pub mod bfs;
pub mod goal;
pub mod mcts;
pub mod olets;
pub mod players;
pub mod rhea;

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::budget::{Budget, CancelFlag};
use crate::gvgai::engine::{Action, Game, GameState, Outcome, Winner};

pub use bfs::Bfs;
pub use mcts::{Mcts, MctsParams};
pub use olets::{Olets, OletsParams};
pub use players::{PlayersResult, play_players};
pub use rhea::{Rhea, RheaParams};

/// GVG-AI's time limits (single-player planning track).
pub const INIT_TIME: Duration = Duration::from_millis(1000);
pub const ACT_TIME: Duration = Duration::from_millis(40);
/// GVG-AI disqualifies a controller whose act takes longer than this.
pub const ACT_TIME_DISQ: Duration = Duration::from_millis(50);
/// Searches stop this long before their deadline, to answer in time on a loaded machine.
pub const SAFETY_MARGIN: Duration = Duration::from_millis(5);

/// A deadline with a safety margin, checked before every forward-model advance.
#[derive(Debug, Clone)]
pub struct Clock {
    stop: Instant,
    cancel: CancelFlag,
}

impl Clock {
    pub fn new(budget: &Budget, margin: Duration) -> Clock {
        Clock {
            stop: budget.deadline_less(margin),
            cancel: budget.cancel.clone(),
        }
    }

    /// True once the (margin-adjusted) deadline has passed or the search was cancelled.
    pub fn done(&self) -> bool {
        self.cancel.is_cancelled() || Instant::now() >= self.stop
    }

    /// Time left before the margin-adjusted deadline.
    pub fn remaining(&self) -> Duration {
        self.stop.saturating_duration_since(Instant::now())
    }
}

/// A game-playing controller.
pub trait Controller: Send {
    fn name(&self) -> &'static str;
    /// Called once before the first act (GVG-AI gives 1 s).
    fn init(&mut self, _state: &GameState, _budget: &Budget) {}
    /// Choose the avatar's action (GVG-AI gives 40 ms).
    fn act(&mut self, state: &GameState, budget: &Budget) -> Action;
    /// Whether the controller searches with the forward model (and so needs the game's rules).
    /// Where no forward model is available (a remote game tablero does not know), such a
    /// controller is replaced by `random`.
    fn needs_model(&self) -> bool {
        true
    }
}

/// How controllers are built: the seed and an optional count-based budget per act (MCTS
/// iterations, RHEA evaluations, BFS/IW expansions), for reproducible measurements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ControllerSettings {
    pub seed: u64,
    pub iterations: Option<usize>,
}

impl ControllerSettings {
    pub fn seeded(seed: u64) -> Self {
        ControllerSettings {
            seed,
            iterations: None,
        }
    }
}

/// `--controller` names no controller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ControllerError {
    #[error("unknown controller \"{name}\" (known: {known})")]
    Unknown { name: String, known: String },
    #[error("controller \"{name}\": {message}")]
    Invalid { name: String, message: String },
}

/// Apply a controller's `key=value` settings separated by commas (the `ARG` of
/// `--controller NAME:ARG`): every value must be a non-negative finite number, and `set`
/// applies one to a key of `keys` (or says why the value does not fit).
pub(crate) fn spec_settings(
    name: &str,
    spec: &str,
    keys: &[&str],
    mut set: impl FnMut(&str, f64) -> Result<(), String>,
) -> Result<(), ControllerError> {
    let bad = |message: String| ControllerError::Invalid {
        name: name.into(),
        message,
    };
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, val) = item
            .split_once('=')
            .ok_or_else(|| bad(format!("expected key=value, got {item:?}")))?;
        if !keys.contains(&key) {
            return Err(bad(format!(
                "unknown setting {key:?} ({})",
                keys.join(", ")
            )));
        }
        let x = val
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| bad(format!("{key}: not a non-negative number: {val:?}")))?;
        set(key, x).map_err(bad)?;
    }
    Ok(())
}

/// Actions the controller may choose: the avatar's actions (NIL when it has none); in a
/// multi-player game, those of the player the state is seen by ([`GameState::seated`]).
pub fn choices(state: &GameState) -> Vec<Action> {
    let a = state.available_actions_of(state.seated_player());
    if a.is_empty() {
        vec![Action::Nil]
    } else {
        a.to_vec()
    }
}

/// The usual GVG-AI state value: score, with a large bonus for a win and malus for a loss;
/// in a multi-player game, of the player the state is seen by ([`GameState::seated`]).
pub fn value(state: &GameState) -> f64 {
    const HUGE: f64 = 10_000_000.0;
    let p = state.seated_player();
    let score = state.score_of(p);
    match state.winner_of(p) {
        Winner::PlayerWins => score + HUGE,
        Winner::PlayerLoses => score - HUGE,
        Winner::NoWinner => score,
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
    fn needs_model(&self) -> bool {
        false
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
    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        let clock = Clock::new(budget, SAFETY_MARGIN);
        let mut best = f64::NEG_INFINITY;
        let mut best_actions = Vec::new();
        for a in choices(state) {
            if clock.done() {
                break;
            }
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
            0 => {
                let c = choices(state);
                c[self.rng.gen_range(0..c.len())]
            }
            n => best_actions[self.rng.gen_range(0..n)],
        }
    }
}

/// The result of [`play`].
#[derive(Debug, Clone, PartialEq)]
pub struct PlayResult {
    pub outcome: Outcome,
    /// Longest `act` call in milliseconds.
    pub act_ms_max: f64,
    /// The `init` call in milliseconds.
    pub init_ms: f64,
    /// Acts that took longer than the act budget (played as NIL).
    pub overspent: usize,
    /// Acts that took longer than GVG-AI's disqualification limit ([`ACT_TIME_DISQ`]).
    pub over_disq: usize,
    /// Longest CPU time of the deciding thread in one `act` ([`thread_cpu_ms`]; `None` where
    /// not available). On a loaded machine wall time exceeds it by the time the thread
    /// waited for a core.
    pub act_cpu_ms_max: Option<f64>,
    /// The actions played (`U D L R N S`), for `tablero gvgai replay --actions`.
    pub actions: String,
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
    play_observed(game, level, seed, controller, act_time, &mut |_, _| {})
}

/// [`play`], calling `observe` with the state after each tick and the action played (for
/// progress reports).
pub fn play_observed(
    game: &Game,
    level: usize,
    seed: i64,
    controller: &mut dyn Controller,
    act_time: Duration,
    observe: &mut dyn FnMut(&GameState, Action),
) -> Result<PlayResult, crate::gvgai::engine::EngineError> {
    let mut state = game.start(level, seed)?;
    let cancel = CancelFlag::new();
    let init_start = Instant::now();
    controller.init(&state, &Budget::new(init_start + INIT_TIME, cancel.clone()));
    let init_ms = init_start.elapsed().as_secs_f64() * 1000.0;
    let mut act_ms_max: f64 = 0.0;
    let mut act_cpu_ms_max: Option<f64> = None;
    let mut overspent = 0;
    let mut over_disq = 0;
    let mut actions = String::new();
    while !state.is_over() {
        let cpu_start = thread_cpu_ms();
        let start = Instant::now();
        let budget = Budget::new(start + act_time, cancel.clone());
        let mut action = controller.act(&state, &budget);
        let elapsed = start.elapsed();
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_ms()) {
            act_cpu_ms_max = Some(act_cpu_ms_max.unwrap_or(0.0).max(b - a));
        }
        act_ms_max = act_ms_max.max(elapsed.as_secs_f64() * 1000.0);
        if elapsed > ACT_TIME_DISQ {
            over_disq += 1;
        }
        if elapsed > act_time {
            action = Action::Nil;
            overspent += 1;
        }
        actions.push(action.to_char());
        state.advance(action);
        observe(&state, action);
    }
    Ok(PlayResult {
        outcome: Outcome::of(&state),
        act_ms_max,
        init_ms,
        overspent,
        over_disq,
        act_cpu_ms_max,
        actions,
    })
}

/// CPU time the calling thread has run, in milliseconds (`CLOCK_THREAD_CPUTIME_ID`); `None`
/// where that clock is not available.
#[cfg(unix)]
#[allow(unsafe_code)] // The one foreign call of the crate: the thread's CPU clock.
pub fn thread_cpu_ms() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` only writes the `timespec` it is given, which lives here.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6)
}

/// CPU time of the calling thread: not available on this platform.
#[cfg(not(unix))]
pub fn thread_cpu_ms() -> Option<f64> {
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A one-row corridor game (goal on the right, trap on the left), shared by the
    /// controllers' tests.
    pub(crate) const CORRIDOR: &str = "BasicGame square_size=10
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
        // A count-based budget, so that the machine's load does not change the result.
        let params = MctsParams {
            max_iterations: 500,
            ..MctsParams::default()
        };
        let mut c = Mcts::new(5, params);
        let r = play(&game, 1, 1, &mut c, Duration::from_secs(10)).unwrap();
        assert!(r.outcome.win, "{r:?}");
        assert!(r.outcome.ticks < 30, "{r:?}");
    }

    #[test]
    fn mcts_goal_distance_reaches_a_goal_far_beyond_the_rollouts() {
        // The goal is 30 cells away, rollouts are 3 steps: without the goal distance every
        // rollout that avoids the trap has the same value.
        let level = format!("{w}\nwtA{}gw\n{w}\n", " ".repeat(30), w = "w".repeat(35));
        let game = Game::from_texts("corridor", CORRIDOR, &[level.as_str()]).unwrap();
        let run = |goal_weight: f64| {
            let params = MctsParams {
                max_iterations: 100,
                rollout_depth: 3,
                goal_weight,
                ..MctsParams::default()
            };
            let mut c = Mcts::new(7, params);
            play(&game, 0, 1, &mut c, Duration::from_secs(10)).unwrap()
        };
        let with = run(1.0);
        assert!(with.outcome.win && with.outcome.ticks <= 35, "{with:?}");
        let without = run(0.0);
        assert!(
            !without.outcome.win || without.outcome.ticks > 60,
            "{without:?}"
        );
    }

    #[test]
    fn play_reports_thread_cpu_time() {
        let game = corridor();
        let mut c = Mcts::new(
            5,
            MctsParams {
                max_iterations: 200,
                ..MctsParams::default()
            },
        );
        let r = play(&game, 1, 1, &mut c, Duration::from_secs(10)).unwrap();
        if cfg!(unix) {
            let cpu = r.act_cpu_ms_max.unwrap();
            assert!(cpu > 0.0 && cpu <= r.act_ms_max + 0.1, "{r:?}");
        }
        assert_eq!(r.over_disq, 0, "{r:?}");
    }
}
