//! The README's commands run as written, so the README cannot drift from the binary.
//!
//! Convention (stated in README.md, section "Set-up"):
//! - a fenced block opened with ```` ```sh ```` is a runnable example: this test runs it, in a
//!   fresh temporary directory, with `bash -euo pipefail`, the freshly built `tablero` first on
//!   `PATH`, and checks that it exits with status 0 within [`BLOCK_TIMEOUT`] and prints
//!   something (stdout or stderr). README examples therefore use small budgets (a few games, a few
//!   generations, short years) and clean up what they start in the background (`kill %1`,
//!   `wait`).
//! - a block opened with ```` ```shell ```` is shown but not run: it needs what a test cannot
//!   do or have (building tablero itself, `.ci/run`, Docker).
//! - ```` ```toml ```` and other blocks are not commands.
//!
//! Each block runs in its own process group, which the test kills when the block ends or times
//! out, so a background server it started never outlives it. The blocks use the README's
//! fixed ports (6790, 8080, 8090, 16713); they run one after the other.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest time one README block may run.
const BLOCK_TIMEOUT: Duration = Duration::from_secs(240);

/// The README may not grow past this many lines (it is a user guide; results live in
/// `docs/results/`).
const MAX_README_LINES: usize = 300;

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    std::fs::read_to_string(&path).unwrap()
}

/// The bodies of the fenced blocks whose opening fence is exactly "```" + `info`, each with
/// the line number (1-based) of its opening fence.
fn blocks(text: &str, info: &str) -> Vec<(usize, String)> {
    let wanted = format!("```{info}");
    let mut out = Vec::new();
    // None: outside a block; Some(None): inside a block of another kind; Some(Some(..)):
    // inside a wanted block.
    let mut state: Option<Option<(usize, String)>> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_end();
        match state.as_mut() {
            None if fence.starts_with("```") => {
                state = Some((fence == wanted).then(|| (i + 1, String::new())));
            }
            None => {}
            Some(_) if fence == "```" => {
                if let Some(Some(block)) = state.take() {
                    out.push(block);
                }
            }
            Some(Some((_, body))) => {
                body.push_str(line);
                body.push('\n');
            }
            Some(None) => {}
        }
    }
    out
}

/// Kills the whole process group `pgid` (the block's shell and everything it started).
fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status();
}

/// Runs one block; returns (exit success, stdout, stderr) or an error after the timeout.
fn run_block(body: &str, bin_dir: &Path) -> Result<(bool, String, String), String> {
    let dir = tempfile::tempdir().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("bash")
        .args(["-euo", "pipefail", "-c", body])
        .current_dir(dir.path())
        .env("PATH", path)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let pgid = child.id();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > BLOCK_TIMEOUT {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // Background processes the block left hold the pipes open: end them too.
    kill_group(pgid);
    let _ = child.wait();
    let out = out_reader.join().unwrap();
    let err = err_reader.join().unwrap();
    match status {
        Some(s) => Ok((s.success(), out, err)),
        None => Err(format!(
            "timed out after {BLOCK_TIMEOUT:?}\nstdout:\n{out}\nstderr (tail):\n{}",
            tail(&err)
        )),
    }
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

#[test]
fn readme_is_a_short_guide() {
    let text = readme();
    let lines = text.lines().count();
    assert!(
        lines <= MAX_README_LINES,
        "README.md has {lines} lines (at most {MAX_README_LINES}; measurements go to docs/results/)"
    );
    for link in [
        "docs/results/go.md",
        "docs/results/diplomacy.md",
        "docs/results/gvgai.md",
        "docs/results/planning.md",
        "docs/results/evolution.md",
        "docs/results/docker.md",
    ] {
        assert!(text.contains(link), "README.md does not link {link}");
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(link);
        assert!(file.is_file(), "{link} is linked but missing");
    }
}

#[test]
fn block_extraction_follows_the_convention() {
    let text = "a\n```sh\necho one\n```\n```shell\necho two\n```\n```toml\nx = 1\n```\n```sh\necho three\necho four\n```\n";
    let got = blocks(text, "sh");
    assert_eq!(
        got,
        vec![
            (2, "echo one\n".to_string()),
            (11, "echo three\necho four\n".to_string())
        ]
    );
    assert_eq!(blocks(text, "shell"), vec![(5, "echo two\n".to_string())]);
}

#[test]
fn every_sh_block_of_the_readme_runs() {
    let text = readme();
    let runnable = blocks(&text, "sh");
    assert!(
        runnable.len() >= 8,
        "expected the README's quick starts as ```sh blocks, found {}",
        runnable.len()
    );
    let bin = Path::new(env!("CARGO_BIN_EXE_tablero"));
    let bin_dir = bin.parent().unwrap();
    let mut failures = Vec::new();
    for (line, body) in &runnable {
        assert!(
            body.contains("tablero "),
            "README.md:{line}: a ```sh block that does not run tablero"
        );
        let start = Instant::now();
        match run_block(body, bin_dir) {
            Ok((true, out, err)) if !(out.trim().is_empty() && err.trim().is_empty()) => {
                eprintln!("README.md:{line}: ok in {:.1?}", start.elapsed());
            }
            Ok((ok, out, err)) => failures.push(format!(
                "README.md:{line}: {}\n{body}stdout:\n{out}\nstderr (tail):\n{}",
                if ok { "printed nothing" } else { "failed" },
                tail(&err)
            )),
            Err(e) => failures.push(format!("README.md:{line}: {e}\n{body}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
