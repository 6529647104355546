//! The `planner` controller through the in-process game loop (`controllers::play`) and the
//! VGDL → PDDL translation on the puzzle games.
//!
//! Butterflies win rates (ignored by default, run in release):
//! `GVGAI_PLANNER_SEEDS=20 cargo test --release --test gvgai_planner -- --ignored --nocapture`

use std::time::Duration;

use tablero::gvgai::controllers::{ACT_TIME, ControllerSettings, make, play};
use tablero::gvgai::games::shipped;

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
        for seed in 0..seeds {
            let mut c = make("planner", &ControllerSettings::seeded(seed as u64)).unwrap();
            let r = play(&g, level, seed, c.as_mut(), Duration::from_millis(40)).unwrap();
            wins += r.outcome.win as i64;
            ticks += r.outcome.ticks as i64;
            worst = worst.max(r.act_ms_max);
            if !r.outcome.win {
                println!("level {level} seed {seed}: lost {:?}", r.outcome);
            }
        }
        println!(
            "{{\"game\":\"butterflies\",\"level\":{level},\"seeds\":{seeds},\"wins\":{wins},\"mean_ticks\":{:.1},\"act_ms_max\":{worst:.1}}}",
            ticks as f64 / seeds as f64
        );
    }
}
