//! The shipped 19×19 Go tactics suite and `tablero bench tactics` on a few of its positions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/go/tactics/tactics-19.txt"
);

#[test]
fn the_shipped_suite_loads_with_legal_answers_in_every_category() {
    let text = std::fs::read_to_string(SUITE).unwrap();
    // `parse` checks every position: legal setup, target on a stone, every answer legal.
    let suite = tablero::go::tactics_suite::parse(&text).unwrap();
    assert_eq!(suite.size, 19);
    assert!(suite.problems.len() >= 30, "{}", suite.problems.len());
    let categories: std::collections::BTreeSet<&str> =
        suite.problems.iter().map(|p| p.category.as_str()).collect();
    assert!(categories.len() >= 3, "{categories:?}");
    let mut ids: Vec<&str> = suite.problems.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), suite.problems.len(), "ids must be unique");
}

#[test]
fn bench_tactics_reports_every_category_and_budget() {
    let out = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .env_remove("RUST_LOG")
        .args(["bench", "tactics", "--file", SUITE, "--limit", "3"])
        .args(["--seconds", "0.05", "--seconds", "0.1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout:?}");
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(json["positions"], 3);
    let rows = json["rows"].as_array().unwrap();
    let all: Vec<&serde_json::Value> = rows.iter().filter(|r| r["category"] == "all").collect();
    assert_eq!(all.len(), 2, "{json}");
    for r in all {
        assert_eq!(r["total"], 3);
        assert!(r["mean_playouts"].as_f64().unwrap() > 0.0, "{json}");
    }
    assert!(stderr.contains("| all | 0.05 |"), "{stderr}");

    let bad = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["bench", "tactics", "--file", "/nonexistent/suite.txt"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(bad.stdout.is_empty());
}
