//! `--optimal` plans against breadth-first search over tablero's own VGDL engine: on levels
//! small enough for an exhaustive search of the game itself, the provably shortest PDDL plan
//! (with its trailing NIL ticks) must take exactly as many ticks as the fewest ticks in which
//! the engine can be won. A mismatch means the translation loses or invents moves.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{HashSet, VecDeque};
use std::time::Duration;

use tablero::gvgai::controllers::choices;
use tablero::gvgai::engine::{GameState, Winner};
use tablero::gvgai::games::shipped;
use tablero::planning::PlanOptions;
use tablero::planning::vgdl::plan::{Backend, plan_state};
use tablero::planning::vgdl::{TranslateOptions, Translator};

/// The fewest ticks in which `root` can be won (None: not within `max_states` states).
fn engine_bfs(root: &GameState, max_states: usize) -> Option<usize> {
    let mut seen = HashSet::new();
    seen.insert(root.key());
    let mut queue = VecDeque::from([(root.clone(), 0usize)]);
    while let Some((st, depth)) = queue.pop_front() {
        for a in choices(&st) {
            let mut next = st.clone();
            next.advance(a);
            if next.winner() == Winner::PlayerWins {
                return Some(depth + 1);
            }
            if next.is_over() || !seen.insert(next.key()) {
                continue;
            }
            if seen.len() > max_states {
                return None;
            }
            queue.push_back((next, depth + 1));
        }
    }
    None
}

fn optimal_ticks(game: &str, level: usize) -> (usize, bool) {
    let g = shipped(game).unwrap();
    let st = g.start(level, 0).unwrap();
    let tr = Translator::new(&st, TranslateOptions::default()).unwrap();
    let opts = PlanOptions {
        memory_limit: None,
        timeout: Duration::from_secs(60),
        optimal: true,
        threads: 1,
        anytime: false,
        planner: None,
    };
    let p = plan_state(&st, game, &tr, &opts, &Backend::Embedded)
        .unwrap_or_else(|e| panic!("{game} {level}: {e}"));
    assert!(p.optimal, "{game} {level}: not proved optimal");
    assert!(p.win_on_replay, "{game} {level}: {}", p.plan);
    (p.length, p.optimal)
}

#[test]
fn optimal_plans_match_engine_bfs_on_small_levels() {
    // Sokoban 4 (one push into a hole after a walk) and Real Sokoban 3 (a long corridor)
    // are the levels whose whole game graph is small.
    for (game, level) in [("sokoban", 4), ("realsokoban", 3)] {
        let g = shipped(game).unwrap();
        let st = g.start(level, 0).unwrap();
        let bfs = engine_bfs(&st, 300_000).unwrap_or_else(|| panic!("{game} {level}: BFS"));
        let (ticks, _) = optimal_ticks(game, level);
        assert_eq!(
            ticks, bfs,
            "{game} {level}: optimal plan {ticks} ticks, engine BFS {bfs}"
        );
    }
}

/// The larger levels (run in release: `cargo test --release --test planning_optimal --
/// --ignored --nocapture`); BFS over the engine is capped at one million states, and the
/// optimal planner runs where BFS finished.
#[test]
#[ignore]
fn optimal_plans_match_engine_bfs_where_it_fits() {
    for game in ["sokoban", "realsokoban", "zenpuzzle"] {
        for level in 0..5 {
            let g = shipped(game).unwrap();
            let st = g.start(level, 0).unwrap();
            let t = std::time::Instant::now();
            let bfs = engine_bfs(&st, 1_000_000);
            let bfs_s = t.elapsed().as_secs_f64();
            let Some(b) = bfs else {
                println!(
                    "{{\"game\":\"{game}\",\"level\":{level},\"bfs_ticks\":null,\"bfs_seconds\":{bfs_s:.1}}}"
                );
                continue;
            };
            let (ticks, _) = optimal_ticks(game, level);
            println!(
                "{{\"game\":\"{game}\",\"level\":{level},\"optimal_ticks\":{ticks},\"bfs_ticks\":{b},\"bfs_seconds\":{bfs_s:.1}}}"
            );
            assert_eq!(ticks, b, "{game} {level}");
        }
    }
}
