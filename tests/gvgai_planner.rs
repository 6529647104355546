//! The `planner` controller through the in-process game loop (`controllers::play`) and the
//! VGDL → PDDL translation on the puzzle games.
//!
//! Butterflies win rates (ignored by default, run in release):
//! `GVGAI_PLANNER_SEEDS=20 cargo test --release --test gvgai_planner -- --ignored --nocapture`
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use tablero::budget::Budget;
use tablero::controllers::make;
use tablero::gvgai::controllers::{ACT_TIME, Controller, ControllerSettings, play};
use tablero::gvgai::engine::{Action, Game, GameState};
use tablero::gvgai::games::shipped;
use tablero::planning::controller::PlannerController;
use tablero::planning::vgdl::{TranslateOptions, Translator};

/// CPU time of the calling thread in nanoseconds (Linux `/proc/thread-self/schedstat`).
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Wraps a controller and records the worst act in wall time and in CPU time of the game
/// thread (the deciding thread; the planner's own thread is not counted), so measurements
/// on a loaded machine can tell the controller's work from waiting for a core.
struct Timed {
    inner: Box<dyn Controller>,
    cpu_ms_max: f64,
    wall_ms: Vec<f64>,
}

impl Controller for Timed {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn init(&mut self, state: &GameState, budget: &Budget) {
        self.inner.init(state, budget);
    }
    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        let (t0, c0) = (Instant::now(), thread_cpu_ns());
        let a = self.inner.act(state, budget);
        if let (Some(c0), Some(c1)) = (c0, thread_cpu_ns()) {
            self.cpu_ms_max = self.cpu_ms_max.max(c1.saturating_sub(c0) as f64 / 1e6);
        }
        self.wall_ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        a
    }
}

#[test]
fn planner_controller_wins_deterministic_puzzles() {
    for (game, level) in [("sokoban", 1), ("realsokoban", 3), ("zenpuzzle", 3)] {
        let g = shipped(game).unwrap();
        let mut c = make("planner", &ControllerSettings::seeded(0)).unwrap();
        let r = play(&g, level, 0, c.as_mut(), ACT_TIME).unwrap();
        assert!(r.outcome.win, "{game} {level}: {r:?}");
        assert!(
            r.act_ms_max < 40.0,
            "{game} {level}: act took {} ms",
            r.act_ms_max
        );
    }
}

/// A goal to reach; level 0 walls the avatar off from it, level 1 does not.
const WALLED: &str = "BasicGame square_size=10
    SpriteSet
        floor > Immovable
        goal > Immovable
        avatar > MovingAvatar
        wall > Immovable
    LevelMapping
        g > floor goal
        A > floor avatar
        w > floor wall
        . > floor
    InteractionSet
        avatar wall > stepBack
        goal avatar > killSprite scoreChange=1
    TerminationSet
        SpriteCounter stype=goal limit=0 win=True
        Timeout limit=60 win=False
";

#[test]
fn planner_controller_hands_a_game_without_a_plan_to_iw() {
    let walled = "wwwwwww\nw.w...w\nwAw.g.w\nw.w...w\nwwwwwww";
    let open = "wwwwwww\nw.....w\nwA..g.w\nw.....w\nwwwwwww";
    let g = Game::from_texts("walled", WALLED, &[walled, open]).unwrap();
    // Level 0 translates, exactly: the controller hands it to iw because the model has no
    // plan, not because the translator refuses it.
    let s0 = g.start(0, 0).unwrap();
    let snapshot = TranslateOptions {
        snapshot: true,
        ..TranslateOptions::default()
    };
    let tr = Translator::new(&s0, snapshot).unwrap();
    assert!(tr.exact());
    tr.translate(&s0, "game").unwrap();
    // Level 0: the exact model proves there is no plan, and iw plays the game out in budget.
    let mut c = PlannerController::new();
    let r = play(&g, 0, 0, &mut c, ACT_TIME).unwrap();
    assert!(c.playing_iw());
    assert!(!r.outcome.win && r.outcome.ticks >= 60, "{r:?}");
    assert_eq!(r.overspent, 0, "{r:?}");
    // Level 1: the same rules with a path to the goal are planned and won.
    let mut c = PlannerController::new();
    let r = play(&g, 1, 0, &mut c, ACT_TIME).unwrap();
    assert!(!c.playing_iw());
    assert!(r.outcome.win, "{r:?}");
}

/// Plays NIL instead of the controller's choice on some acts, as GVG-AI does when an act
/// overruns its budget: the state then diverges from the plan's prediction, and the
/// controller must replan (also when its plan runs out without a win).
struct Overrun {
    inner: Box<dyn Controller>,
    act: usize,
    at: &'static [usize],
}

impl Controller for Overrun {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn init(&mut self, state: &GameState, budget: &Budget) {
        self.inner.init(state, budget);
    }
    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        let a = self.inner.act(state, budget);
        // Let ticks take some real time, as in a real game: the controller answers NIL at
        // once while its planner thread works, and `play` does not wait for the budget.
        std::thread::sleep(Duration::from_millis(5));
        self.act += 1;
        if self.at.contains(&self.act) {
            Action::Nil
        } else {
            a
        }
    }
}

#[test]
fn planner_controller_replans_after_overrun_acts() {
    let _ = tracing_subscriber::fmt().with_test_writer().try_init();
    for (game, level) in [("sokoban", 1), ("zenpuzzle", 3)] {
        let g = shipped(game).unwrap();
        let mut c = Overrun {
            inner: make("planner", &ControllerSettings::seeded(0)).unwrap(),
            act: 0,
            at: &[4, 6, 7, 20],
        };
        let r = play(&g, level, 0, &mut c, ACT_TIME).unwrap();
        assert!(r.outcome.win, "{game} {level}: {r:?}");
    }
}

#[test]
fn planner_controller_wins_butterflies_level_0() {
    let g = shipped("butterflies").unwrap();
    let mut c = make("planner", &ControllerSettings::seeded(0)).unwrap();
    let r = play(&g, 0, 7, c.as_mut(), ACT_TIME).unwrap();
    assert!(r.outcome.win, "{r:?}");
}

#[test]
#[ignore]
fn planner_controller_butterflies_win_rates() {
    let seeds: i64 = std::env::var("GVGAI_PLANNER_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let levels: Vec<usize> = std::env::var("GVGAI_PLANNER_LEVELS")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| (0..5).collect());
    let g = shipped("butterflies").unwrap();
    for level in levels {
        let mut wins = 0;
        let mut ticks = 0;
        let mut worst: f64 = 0.0;
        let mut cpu_worst: f64 = 0.0;
        let mut walls: Vec<f64> = Vec::new();
        let mut over40 = 0;
        for seed in 0..seeds {
            let mut c = Timed {
                inner: make("planner", &ControllerSettings::seeded(seed as u64)).unwrap(),
                cpu_ms_max: 0.0,
                wall_ms: Vec::new(),
            };
            let r = play(&g, level, seed, &mut c, Duration::from_millis(40)).unwrap();
            wins += r.outcome.win as i64;
            ticks += r.outcome.ticks as i64;
            worst = worst.max(r.act_ms_max);
            cpu_worst = cpu_worst.max(c.cpu_ms_max);
            over40 += r.overspent;
            walls.extend(c.wall_ms);
            if !r.outcome.win {
                println!("level {level} seed {seed}: lost {:?}", r.outcome);
            }
        }
        walls.sort_by(f64::total_cmp);
        let p99 = walls
            .get((walls.len() as f64 * 0.99) as usize)
            .copied()
            .unwrap_or(0.0);
        println!(
            "{{\"game\":\"butterflies\",\"level\":{level},\"seeds\":{seeds},\"wins\":{wins},\"mean_ticks\":{:.1},\"act_ms_max\":{worst:.1},\"act_ms_p99\":{p99:.1},\"acts_over_40ms\":{over40},\"act_cpu_ms_max\":{cpu_worst:.2}}}",
            ticks as f64 / seeds as f64
        );
    }
}
