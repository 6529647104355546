//! The dungeon `tablero evolve dungeon --seed 1 --generations 10 --population 20` writes,
//! played as a user would: the planner plans it (its rooms are joined by portals) and the plan
//! wins on replay, the `planner` and `dungeon-bfs` controllers win it within GVG-AI's
//! budgets, and a long play reports its progress on stderr.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

fn tablero() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tablero"))
}

/// The evolved dungeon with static guards (the level the GA's check plays) in `dir`.
fn evolve_static(dir: &Path) {
    let out = tablero()
        .args([
            "evolve",
            "dungeon",
            "--seed",
            "1",
            "--generations",
            "10",
            "--population",
            "20",
            "--npc",
            "static",
            "--out",
        ])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// The JSON line a command prints on stdout.
fn json(out: &std::process::Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

fn play(dir: &Path, controller: &str) -> serde_json::Value {
    let out = tablero()
        .args(["gvgai", "play", "--games-dir"])
        .arg(dir)
        .args(["--game", "evodungeon", "--controller", controller])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    json(&out)
}

#[test]
fn the_planner_plans_the_evolved_dungeon_through_its_portals() {
    let dir = tempfile::tempdir().unwrap();
    evolve_static(dir.path());
    let out = tablero()
        .args(["gvgai", "pddl", "--games-dir"])
        .arg(dir.path())
        .args(["--game", "evodungeon", "--out"])
        .arg(dir.path().join("pddl"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(json(&out)["exact"], true);
    let domain = std::fs::read_to_string(dir.path().join("pddl/domain.pddl")).unwrap();
    assert!(
        domain.contains("(warp ?"),
        "the portals are moves of the model"
    );
    let out = tablero()
        .args(["gvgai", "plan", "--games-dir"])
        .arg(dir.path())
        .args(["--game", "evodungeon", "--threads", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let r = json(&out);
    assert_eq!(r["win_on_replay"], true, "{r}");
    // The dungeon-bfs check wins in 95 ticks; a plan cannot be much longer.
    assert!(r["length"].as_u64().unwrap() < 150, "{r}");
}

#[test]
fn shipped_controllers_win_the_evolved_dungeon() {
    let dir = tempfile::tempdir().unwrap();
    evolve_static(dir.path());
    let bfs = play(dir.path(), "dungeon-bfs");
    assert_eq!(bfs["win"], true, "{bfs}");
    let planner = play(dir.path(), "planner");
    assert_eq!(planner["win"], true, "{planner}");
}

#[test]
fn long_plays_report_progress_on_stderr() {
    let out = tablero()
        .args([
            "gvgai",
            "play",
            "--game",
            "sokoban",
            "--controller",
            "random",
        ])
        .args(["--seed", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let ticks = json(&out)["ticks"].as_i64().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("tick ")).collect();
    assert_eq!(ticks, 2000, "random plays sokoban to the time limit");
    assert_eq!(lines.len(), 20, "{stderr}");
    assert!(
        lines[0].starts_with("tick 100: score ") && lines[0].ends_with("actions NIL"),
        "{}",
        lines[0]
    );
}
