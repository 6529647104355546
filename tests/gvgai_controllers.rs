//! Controller evaluation (ignored by default; run in release):
//! `GVGAI_EVAL=butterflies:0 GVGAI_EVAL_SEEDS=5 GVGAI_EVAL_CONTROLLER=mcts [GVGAI_EVAL_ITERS=N]
//!  cargo test --release --test gvgai_controllers -- --ignored --nocapture`
//! prints one JSON line per game and a win rate. With `GVGAI_EVAL_ITERS` the controller gets a
//! count-based budget per act (iterations/evaluations/expansions) and a 10 s wall budget
//! instead of 40 ms, so results do not depend on the machine's load.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use tablero::controllers::make;
use tablero::gvgai::controllers::{ControllerSettings, play};
use tablero::gvgai::games::shipped;

#[test]
#[ignore]
fn evaluate_controller() {
    let spec = std::env::var("GVGAI_EVAL").unwrap_or_else(|_| "butterflies:0".into());
    let seeds: u64 = std::env::var("GVGAI_EVAL_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let first_seed: u64 = std::env::var("GVGAI_EVAL_FIRST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let iterations: Option<usize> = std::env::var("GVGAI_EVAL_ITERS")
        .ok()
        .and_then(|v| v.parse().ok());
    let controller = std::env::var("GVGAI_EVAL_CONTROLLER").unwrap_or_else(|_| "mcts".into());
    let act_time = if iterations.is_some() {
        Duration::from_secs(10)
    } else {
        Duration::from_millis(40)
    };
    for spec in spec.split(',') {
        let (name, level) = spec.split_once(':').unwrap();
        let level: usize = level.parse().unwrap();
        let game = shipped(name).unwrap();
        let mut wins = 0;
        for seed in first_seed..first_seed + seeds {
            let settings = ControllerSettings { seed, iterations };
            let mut c = make(&controller, &settings).unwrap();
            let r = play(&game, level, seed as i64, c.as_mut(), act_time).unwrap();
            if r.outcome.win {
                wins += 1;
            }
            println!(
                "{{\"game\":\"{name}\",\"level\":{level},\"controller\":\"{controller}\",\"seed\":{seed},\"win\":{},\"score\":{},\"ticks\":{},\"act_ms_max\":{:.1}}}",
                r.outcome.win, r.outcome.score, r.outcome.ticks, r.act_ms_max
            );
        }
        println!("{name} level {level} {controller}: {wins}/{seeds} wins");
    }
}
