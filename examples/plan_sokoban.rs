//! Plans the five GVG-AI Sokoban levels (grid encoding) and prints length and times.
//! Usage: `cargo run --release --example plan_sokoban -- [planner|portfolio] [threads] [timeout_s] [sat|any|opt]`
use std::time::Duration;
use tablero::planning::{PlanOptions, examples, solve};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let planner = args.get(1).cloned().filter(|s| s != "portfolio");
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let timeout: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let optimal = args.get(4).is_some_and(|s| s == "opt");
    let anytime = args.get(4).is_some_and(|s| s == "any");
    for (i, lvl) in examples::GVGAI_SOKOBAN_LEVELS.iter().enumerate() {
        let p = examples::sokoban_problem(&format!("l{i}"), lvl);
        let o = PlanOptions {
            memory_limit: None,
            timeout: Duration::from_secs(timeout),
            optimal,
            threads,
            anytime,
            planner: planner.clone(),
        };
        match solve(examples::SOKOBAN, &p, &o) {
            Ok(r) => println!(
                "level {i}: len {} found {:.3}s total {:.3}s by {} expanded {} optimal {}",
                r.length, r.found_seconds, r.seconds, r.planner, r.expanded, r.optimal
            ),
            Err(e) => println!("level {i}: {e}"),
        }
    }
}
