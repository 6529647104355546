//! Differential test against the GVG-AI Java framework (ignored by default).
//!
//! Build GVG-AI (GAIGResearch/GVGAI `src/`, plus its `gson-2.6.2.jar`) and
//! `tests/gvgai_java/Driver.java` into one class path, then run
//! `GVGAI_JAVA_CP=<classpath> cargo test --test gvgai_java_diff -- --ignored --nocapture`.
//! Optional: `GVGAI_DIFF_GAMES=sokoban,butterflies`, `GVGAI_DIFF_RUNS=3`, `GVGAI_DIFF_DIR=<games dir>`, `GVGAI_DIFF_LEVELS=1`.
//! For every game, level and random action string the per-tick trace (tick, score, avatar
//! position) and the final result must be identical.

use std::path::PathBuf;
use std::process::Command;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tablero::gvgai::engine::{Action, Game, Outcome};

fn games_dir() -> PathBuf {
    match std::env::var("GVGAI_DIFF_DIR") {
        Ok(d) => PathBuf::from(d),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/games"),
    }
}

fn our_trace(game: &Game, level: usize, seed: i64, actions: &[Action]) -> String {
    let mut st = game.start(level, seed).unwrap();
    let mut out = String::new();
    let mut i = 0;
    while !st.is_over() {
        let (x, y) = st.avatar().map(|a| (a.x, a.y)).unwrap_or((-1, -1));
        out.push_str(&format!("{} {:?} {} {}\n", st.tick(), st.score(), x, y));
        st.advance(actions.get(i).copied().unwrap_or(Action::Nil));
        i += 1;
    }
    let o = Outcome::of(&st);
    out.push_str(&format!("END {} {:?} {}\n", o.win, o.score, o.ticks));
    out
}

#[test]
#[ignore]
fn engine_matches_gvgai_java() {
    let Ok(cp) = std::env::var("GVGAI_JAVA_CP") else {
        eprintln!("GVGAI_JAVA_CP not set: skipping");
        return;
    };
    let runs: u64 = std::env::var("GVGAI_DIFF_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let filter: Option<Vec<String>> = std::env::var("GVGAI_DIFF_GAMES")
        .ok()
        .map(|v| v.split(',').map(str::to_string).collect());
    let mut names: Vec<String> = std::fs::read_dir(games_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt") && !n.contains("_lvl"))
        .map(|n| n.trim_end_matches(".txt").to_string())
        .collect();
    names.sort();
    let mut mismatches = Vec::new();
    for name in names {
        if filter.as_ref().is_some_and(|f| !f.contains(&name)) {
            continue;
        }
        let game = match Game::load(&games_dir(), &name) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{name}: skipped ({e})");
                continue;
            }
        };
        let levels: usize = std::env::var("GVGAI_DIFF_LEVELS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(game.levels.len());
        for level in 0..game.levels.len().min(levels) {
            for run in 0..runs {
                let seed = (level as u64 * 1000 + run) as i64;
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed as u64 + 17);
                let actions: Vec<Action> = (0..400)
                    .map(|_| Action::ALL[rng.gen_range(0..Action::ALL.len())])
                    .collect();
                let s: String = actions.iter().map(|a| a.to_char()).collect();
                let out = Command::new("java")
                    .args(["-cp", &cp, "Driver"])
                    .arg(games_dir().join(format!("{name}.txt")))
                    .arg(games_dir().join(format!("{name}_lvl{level}.txt")))
                    .arg(seed.to_string())
                    .arg(&s)
                    .output()
                    .unwrap();
                let java: String = String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .filter(|l| l.starts_with("END ") || l.split(' ').count() == 4)
                    .map(|l| format!("{l}\n"))
                    .collect();
                let ours = our_trace(&game, level, seed, &actions);
                if java != ours {
                    let first = java
                        .lines()
                        .zip(ours.lines())
                        .position(|(a, b)| a != b)
                        .unwrap_or(java.lines().count().min(ours.lines().count()));
                    let j = java.lines().nth(first).unwrap_or("<none>");
                    let o = ours.lines().nth(first).unwrap_or("<none>");
                    let line = format!(
                        "{name} lvl{level} seed {seed}: line {first}: java \"{j}\" ours \"{o}\""
                    );
                    eprintln!("{line}");
                    mismatches.push(line);
                } else {
                    eprintln!(
                        "{name} lvl{level} seed {seed}: ok ({})",
                        ours.lines().last().unwrap_or("")
                    );
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Record the Java engine's results as `data/gvgai/java_golden.txt` (checked by
/// `tests/gvgai_golden.rs` without Java). Run with `GVGAI_JAVA_CP=... cargo test --test
/// gvgai_java_diff write_golden -- --ignored`.
#[test]
#[ignore]
fn write_golden() {
    let Ok(cp) = std::env::var("GVGAI_JAVA_CP") else {
        eprintln!("GVGAI_JAVA_CP not set: skipping");
        return;
    };
    let mut names: Vec<String> = std::fs::read_dir(games_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt") && !n.contains("_lvl"))
        .map(|n| n.trim_end_matches(".txt").to_string())
        .collect();
    names.sort();
    let mut out = String::from(
        "# Results of the GVG-AI Java engine (GAIGResearch/GVGAI e58ff65) for fixed seeds and action strings.\n\
         # game level seed actions win score tick trace-fnv1a (trace: \"tick score x y\" per act)\n",
    );
    for name in names {
        for level in 0..5 {
            let seed = 100 + level as i64;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed as u64 * 31 + 5);
            // Sticky random actions: repeat each choice a few ticks so games last longer.
            let mut actions = Vec::new();
            while actions.len() < 600 {
                let a = Action::ALL[rng.gen_range(0..Action::ALL.len())];
                for _ in 0..rng.gen_range(1..5) {
                    actions.push(a);
                }
            }
            let s: String = actions.iter().map(|a| a.to_char()).collect();
            let o = Command::new("java")
                .args(["-cp", &cp, "Driver"])
                .arg(games_dir().join(format!("{name}.txt")))
                .arg(games_dir().join(format!("{name}_lvl{level}.txt")))
                .arg(seed.to_string())
                .arg(&s)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&o.stdout).to_string();
            let trace: String = stdout
                .lines()
                .filter(|l| l.split(' ').count() == 4 && !l.starts_with("END "))
                .map(|l| format!("{l}\n"))
                .collect();
            let end = stdout
                .lines()
                .find(|l| l.starts_with("END "))
                .expect("java printed END");
            let end = end.trim_start_matches("END ");
            out.push_str(&format!(
                "{name} {level} {seed} {s} {end} {:016x}\n",
                fnv1a(&trace)
            ));
        }
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/java_golden.txt");
    std::fs::write(path, out).unwrap();
}
