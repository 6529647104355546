//! Controller evaluation (ignored by default; run in release):
//! `GVGAI_EVAL=butterflies:0 GVGAI_EVAL_SEEDS=5 cargo test --release --test gvgai_controllers -- --ignored --nocapture`
//! prints one JSON-like line per game and a win rate.

use std::time::Duration;

use tablero::gvgai::controllers::{ControllerKind, make, play};
use tablero::gvgai::games::shipped;

#[test]
#[ignore]
fn evaluate_controller() {
    let spec = std::env::var("GVGAI_EVAL").unwrap_or_else(|_| "butterflies:0".into());
    let seeds: u64 = std::env::var("GVGAI_EVAL_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let kind: ControllerKind = std::env::var("GVGAI_EVAL_CONTROLLER")
        .unwrap_or_else(|_| "mcts".into())
        .parse()
        .unwrap();
    let (name, level) = spec.split_once(':').unwrap();
    let level: usize = level.parse().unwrap();
    let game = shipped(name).unwrap();
    let mut wins = 0;
    for seed in 0..seeds {
        let mut c = make(kind.clone(), seed);
        let r = play(
            &game,
            level,
            seed as i64,
            c.as_mut(),
            Duration::from_millis(40),
        )
        .unwrap();
        if r.outcome.win {
            wins += 1;
        }
        println!(
            "{{\"game\":\"{name}\",\"level\":{level},\"seed\":{seed},\"win\":{},\"score\":{},\"ticks\":{},\"act_ms_max\":{:.1}}}",
            r.outcome.win, r.outcome.score, r.outcome.ticks, r.act_ms_max
        );
    }
    println!("{name} level {level}: {wins}/{seeds} wins");
}
