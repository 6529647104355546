//! The `tablero` binary: version, configuration errors (exit 2, message on stderr, nothing on
//! stdout), and `tablero serve` listening and shutting down cleanly on SIGTERM and SIGINT.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn tablero() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tablero"));
    cmd.env_remove("RUST_LOG");
    cmd
}

#[test]
fn version_names_the_crate_version() {
    let out = tablero().arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("tablero {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn config_errors_exit_2_with_the_key_on_stderr() {
    let cases: &[(&[&str], &str)] = &[
        (&["gtp", "--set", "go.boardsize=1"], "go.boardsize"),
        (
            &["serve", "--set", "search.uct=1"],
            "unknown config key \"search.uct\"",
        ),
        (&["gtp", "--set", "nonsense"], "section.key=value"),
        (
            &["serve", "--config", "/nonexistent/tablero.toml"],
            "/nonexistent/tablero.toml",
        ),
        (
            &["serve", "--set", "server.gtp_listen=localhost"],
            "server.gtp_listen",
        ),
    ];
    for (args, needle) in cases {
        let out = tablero().args(*args).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: stderr {stderr:?} lacks {needle:?}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: stdout must stay clean");
    }
}

#[test]
fn shipped_config_file_is_accepted() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/tablero.toml");
    // Bind a free port so the test never collides with a running daemon.
    let mut child = spawn_serve(&["--config", path]);
    let addr = wait_listening(&mut child);
    assert!(addr.starts_with("127.0.0.1:"));
    stop(child, "TERM");
}

#[test]
fn serve_exits_0_on_sigterm_and_sigint() {
    for signal in ["TERM", "INT"] {
        let mut child = spawn_serve(&[]);
        let addr = wait_listening(&mut child);
        // A connected client does not keep the daemon from stopping.
        let _client = TcpStream::connect(&addr).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        stop(child, signal);
    }
}

fn spawn_serve(extra: &[&str]) -> Child {
    tablero()
        .arg("serve")
        .args(extra)
        .args([
            "--set",
            "server.gtp_listen=127.0.0.1:0",
            "--set",
            "server.shutdown_grace=1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Reads stderr until the daemon logs its address; the rest of stderr is drained in a thread.
fn wait_listening(child: &mut Child) -> String {
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("GTP listening on ").nth(1) {
                let _ = tx.send(
                    rest.split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                );
            }
        }
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(addr) => addr,
        Err(_) => {
            let _ = child.kill();
            panic!("tablero serve did not report its address");
        }
    }
}

fn stop(mut child: Child, signal: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert_eq!(status.code(), Some(0), "SIG{signal}: exit {status:?}");
            let mut out = String::new();
            std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
            assert!(out.is_empty(), "serve wrote to stdout: {out:?}");
            return;
        }
        if t0.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("tablero serve did not exit after SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
