//! `tablero gtp` driven by the clients' own code paths:
//!
//! - `tests/sabaki/sabaki_analysis.js` runs Sabaki's GTP library (`@sabaki/gtp`, vendored in
//!   `../shared/peers/sabaki-gtp`, or `TABLERO_SABAKI_GTP`) under Node the way Sabaki 0.60
//!   does (sync, `analyze` and the other dialects stopped by `protocol_version`, 20 quick
//!   start/stop cycles, the genmove_analyze forms) and reads every analysis line by Sabaki
//!   0.60's rules;
//! - `tests/cgos/cgos_feed.py` plays a short game between two engines fed as the CGOS Python
//!   client feeds its engine (`kata-genmove_analyze <c> ownership true`, no interval) and
//!   converts each move's analysis to the JSON the CGOS server stores.
//!
//! Without Node or the library the Sabaki test says so and passes, except under CI (`CI`
//! set), where it fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::Command;

const ENGINE: [&str; 7] = [
    "gtp",
    "--set",
    "go.boardsize=9",
    "--set",
    "search.threads=1",
    "--set",
    "search.time_per_move=1",
];

fn sabaki_gtp_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TABLERO_SABAKI_GTP") {
        return Some(PathBuf::from(dir));
    }
    let vendored = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/peers/sabaki-gtp");
    vendored.join("src/main.js").exists().then_some(vendored)
}

fn node_available() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

/// Runs a client script; returns its JSON line after checking it succeeded.
fn run(mut command: Command) -> serde_json::Value {
    let out = command.output().expect("start the client script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    println!("{stdout}");
    let line = stdout.lines().last().expect("a JSON line");
    serde_json::from_str(line).expect("JSON line")
}

#[test]
fn sabaki_060_drives_analysis_and_reads_it_right() {
    let (Some(dir), true) = (sabaki_gtp_dir(), node_available()) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the Sabaki client test: it needs node and ../shared/peers/sabaki-gtp"
        );
        eprintln!("skipped: needs node and @sabaki/gtp (TABLERO_SABAKI_GTP)");
        return;
    };
    let mut command = Command::new("node");
    command
        .arg(script("sabaki/sabaki_analysis.js"))
        .arg(dir)
        .arg(env!("CARGO_BIN_EXE_tablero"))
        .args(ENGINE)
        .args(["--set", "gtp.analysis_min_visits=500"])
        .env("MIN_VISITS", "500");
    let report = run(command);
    assert_eq!(report["sabaki_gtp"], "ok");
    assert_eq!(report["cycles"]["count"], 20);
}

#[test]
fn cgos_client_gets_an_analysis_with_every_move() {
    let mut command = Command::new("python3");
    command
        .arg(script("cgos/cgos_feed.py"))
        .arg(env!("CARGO_BIN_EXE_tablero"))
        .args(ENGINE);
    let report = run(command);
    assert_eq!(report["cgos_feed"], "ok");
    assert!(report["moves"].as_array().is_some_and(|m| m.len() >= 10));
}
