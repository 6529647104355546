//! A smoke match against Pachi 12.90 (built without its DCNN by
//! `../shared/peers/build-pachi.sh`; `.ci/run` builds it and sets `TABLERO_PACHI`, the
//! binary's path) through `tablero match` under the referee's clock, so that the match
//! harness, its GTP clock and a real engine's time control cannot drift apart unnoticed.
//!
//! Without `TABLERO_PACHI` the test says so and passes, except under CI (`CI` set), where it
//! fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

#[test]
fn one_clocked_game_against_pachi() {
    let Ok(pachi) = std::env::var("TABLERO_PACHI") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the Pachi smoke match: .ci/run sets TABLERO_PACHI"
        );
        eprintln!("skipped: set TABLERO_PACHI to a Pachi binary (../shared/peers/build-pachi.sh)");
        return;
    };
    let data_dir = Path::new(&pachi)
        .parent()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let tablero = env!("CARGO_BIN_EXE_tablero");
    let me = format!(
        "{tablero} gtp --set go.boardsize=9 --set search.threads=1 --set search.playouts=3000"
    );
    // Pachi without `-t` plays by the GTP clock the referee sends. Without its spatial
    // pattern file it runs with --nopatterns (weaker, same protocol).
    let patterns = if Path::new(&data_dir).join("patterns_mm.spat").exists() {
        ""
    } else {
        eprintln!("note: {data_dir}/patterns_mm.spat is missing: Pachi runs with --nopatterns");
        "--nopatterns "
    };
    let them = format!("env DATA_DIR={data_dir} {pachi} {patterns}threads=1");
    let out = Command::new(tablero)
        .args(["match", "--black", &me, "--white", &them])
        .args([
            "--size", "9", "--komi", "7", "--games", "1", "--clock", "40",
        ])
        .args(["--lag", "1", "--records"])
        .output()
        .expect("run tablero match");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tablero match failed: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().expect("a JSON line");
    let summary: serde_json::Value = serde_json::from_str(line).expect("JSON summary");
    let record = &summary["records"][0];
    assert!(
        record["fault"].is_null(),
        "the game ended by a fault: {record}\n{stderr}"
    );
    assert!(record["moves"].as_u64().unwrap_or(0) >= 10, "{record}");
    for side in 0..2 {
        let left = record["time_left_seconds"][side].as_f64();
        assert!(
            left.is_some_and(|t| (0.0..=40.0).contains(&t)),
            "clock of side {side} not kept: {record}"
        );
        assert!(
            record["genmoves"][side].as_u64().unwrap_or(0) >= 5,
            "{record}"
        );
    }
    // Pachi spent some of its clock, and never more than it had.
    let pachi_used = record["seconds"][1].as_f64().unwrap_or(0.0);
    assert!(
        pachi_used > 0.5 && pachi_used < 41.0,
        "Pachi used {pachi_used} s"
    );
}
