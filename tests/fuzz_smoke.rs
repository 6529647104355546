//! The fuzz targets (tests/fuzz) build and run: every target for a few seconds from its kept
//! corpus, through the same `tests/fuzz/run` a long fuzzing run uses. Each must execute inputs,
//! reach coverage and find no crash, timeout or out-of-memory. The long runs are a benchmark:
//! `tests/fuzz/run --seconds 3600` (see tests/fuzz/README.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

/// Seconds each target fuzzes.
const SMOKE_SECONDS: &str = "3";
/// Fuzz targets there are at least (GTP: line grammar and engine; DAIDE: frames, tokens, text).
const MIN_TARGETS: usize = 12;

#[test]
fn every_fuzz_target_builds_and_runs_without_a_crash() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    let listed = Command::new(dir.join("run"))
        .arg("--list")
        .output()
        .unwrap();
    assert!(listed.status.success());
    let targets: Vec<String> = String::from_utf8(listed.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert!(targets.len() >= MIN_TARGETS, "targets: {targets:?}");
    for target in &targets {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains(&format!("path = \"fuzz_targets/{target}.rs\"")),
            "{target} is not a [[bin]] of tests/fuzz/Cargo.toml"
        );
        let seeds = std::fs::read_dir(dir.join("corpus").join(target)).map_or(0, |d| d.count());
        assert!(seeds > 0, "{target} has no kept seed corpus");
    }

    // Its own output folder, apart from the default `out` that a long run may be using.
    let out = std::env::temp_dir().join(format!("tablero-fuzz-smoke-{}", std::process::id()));
    let run = Command::new(dir.join("run"))
        .args(["--seconds", SMOKE_SECONDS, "--jobs", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let tail: String = stderr.lines().rev().take(40).collect::<Vec<_>>().join("\n");
    assert!(run.status.success(), "{stdout}\n{tail}");
    let json = stdout.lines().last().unwrap_or_default();
    let report: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(report["ok"], true, "{json}");
    for target in &targets {
        let row = &report["targets"][target];
        assert!(row["executions"].as_u64().unwrap() > 0, "{target}: {row}");
        assert!(row["cov"].as_u64().unwrap() > 50, "{target}: {row}");
        assert_eq!(row["crashes"].as_u64(), Some(0), "{target}: {row}");
    }
    println!("{stdout}");
    std::fs::remove_dir_all(&out).unwrap();
}
