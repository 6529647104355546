//! The `tablero` binary: version, configuration errors (exit 2, message on stderr, nothing on
//! stdout), and `tablero serve` listening and shutting down cleanly on SIGTERM and SIGINT.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

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

#[test]
fn rust_log_overrides_log_level() {
    let mut cmd = tablero();
    cmd.env("RUST_LOG", "info");
    let mut child = spawn(cmd, &["--set", "log.level=error"]);
    // The address line is logged at info: it appears only because RUST_LOG wins.
    wait_listening(&mut child);
    stop(child, "TERM");
}

#[test]
fn gtp_stdout_carries_only_protocol_even_at_trace_level() {
    use std::io::Write;
    let mut child = tablero()
        .args(["gtp", "--set", "log.level=trace"])
        .env("RUST_LOG", "trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The engine may already have ended (and closed stdin): a write error is fine.
    let _ = child.stdin.take().unwrap().write_all(b"1 name\n2 quit\n");
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // `name` and `quit` have one-line answers: every stdout line is a response or the blank
    // line that ends one.
    for line in stdout.lines() {
        assert!(
            line.is_empty() || line.starts_with('=') || line.starts_with('?'),
            "non-GTP line on stdout: {line:?}"
        );
    }
    assert!(!out.stderr.is_empty(), "the trace log goes to stderr");
}

fn spawn_serve(extra: &[&str]) -> Child {
    spawn(tablero(), extra)
}

fn spawn(mut cmd: Command, extra: &[&str]) -> Child {
    cmd.arg("serve")
        .args(extra)
        .args([
            "--set",
            "server.gtp_listen=127.0.0.1:0",
            "--set",
            "gvgai.listen=127.0.0.1:0",
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

#[test]
fn bench_playouts_prints_one_json_line() {
    let out = tablero()
        .args([
            "bench",
            "playouts",
            "--size",
            "5",
            "--seconds",
            "0.2",
            "--seed",
            "7",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout:?}");
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(json["size"], 5);
    assert_eq!(json["seed"], 7);
    assert!(
        json["playouts_per_second"].as_f64().unwrap() > 0.0,
        "{json}"
    );

    for bad in [["--size", "1"], ["--seconds", "0"], ["--threads", "0"]] {
        let out = tablero()
            .args(["bench", "playouts"])
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn diplomacy_play_prints_progress_and_one_json_line() {
    let out = tablero()
        .args([
            "diplomacy",
            "play",
            "--seats",
            "dumbbot,randbot,holdbot,dumbbot,randbot,holdbot,dumbbot",
            "--games",
            "3",
            "--end-year",
            "1903",
            "--jobs",
            "2",
            "--seed",
            "4",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("game ")).count(),
        3,
        "{stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    let seats = v["seats"].as_array().unwrap();
    let bots: Vec<&str> = seats.iter().map(|s| s["bot"].as_str().unwrap()).collect();
    assert_eq!(bots, ["dumbbot", "randbot", "holdbot"]);
    assert_eq!(seats[0]["games"], 9);
    assert_eq!(v["seed"], 4);
    assert_eq!(v["games"], 3);
    assert!(seats[0]["win_rate_wilson95"].as_array().unwrap().len() == 2);
}

#[test]
fn diplomacy_bad_arguments_exit_2() {
    let cases: &[&[&str]] = &[
        &["diplomacy", "play", "--seats", "dumbbot,holdbot"],
        &["diplomacy", "play", "--seats", "dumbbot,a,a,a,a,a,a"],
        &[
            "diplomacy",
            "play",
            "--seats",
            "dumbbot,dumbbot,dumbbot,dumbbot,dumbbot,dumbbot,dumbbot",
            "--jobs",
            "0",
        ],
        &["diplomacy", "play", "--games", "x", "--seats", "dumbbot"],
        &[
            "diplomacy",
            "bot",
            "--server",
            "127.0.0.1:1",
            "--bot",
            "albert",
        ],
        &["diplomacy", "bot", "--server", "nohost", "--bot", "dumbbot"],
        &[
            "diplomacy",
            "bot",
            "--server",
            "127.0.0.1:1",
            "--bot",
            "dumbbot",
            "--power",
            "TURKEY",
        ],
        &["diplomacy", "server", "--listen", "localhost"],
        &["diplomacy", "server", "--deadline", "0"],
    ];
    for args in cases {
        let out = tablero().args(*args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn diplomacy_server_and_seven_bots_play_a_game() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let mut server = tablero()
        .args([
            "diplomacy",
            "server",
            "--listen",
            &addr,
            "--end-year",
            "1902",
        ])
        .arg("--results")
        .arg(&results)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while TcpStream::connect(&addr).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "server did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let powers = ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"];
    let bots: Vec<Child> = powers
        .iter()
        .enumerate()
        .map(|(i, p)| {
            tablero()
                .args(["diplomacy", "bot", "--server", &addr, "--bot"])
                .arg(if i % 2 == 0 { "dumbbot" } else { "randbot" })
                .args([
                    "--name",
                    &format!("b{i}"),
                    "--power",
                    p,
                    "--think-time",
                    "1",
                ])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut b in bots {
        let t0 = Instant::now();
        let status = loop {
            if let Some(s) = b.try_wait().unwrap() {
                break s;
            }
            if t0.elapsed() > Duration::from_secs(60) {
                let _ = b.kill();
                let _ = server.kill();
                panic!("a bot did not finish its game");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(status.code(), Some(0));
    }
    stop_child(server);
    // The finished game, one JSON line in the results file.
    let text = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    let record: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(record["game"], 0);
    assert_eq!(record["phase"], "S1903M", "{record}");
    assert_eq!(record["ending"], "draw", "{record}");
    let mut names: Vec<String> = record["powers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{}={}",
                p["power"].as_str().unwrap(),
                p["name"].as_str().unwrap()
            )
        })
        .collect();
    names.sort();
    let expected: Vec<String> = powers
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{p}={p}:b{i}"))
        .collect();
    assert_eq!(names, expected);
}

/// A listener on a free port of 127.0.0.1 that answers each connection's first line with
/// `reply(line)` (then closes); returns its address.
fn fake_listener(reply: fn(&str) -> String) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let _ = std::io::Write::write_all(&mut &stream, reply(line.trim()).as_bytes());
        }
    });
    addr
}

/// A port of 127.0.0.1 that nothing listens on.
fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

#[test]
fn probe_passes_answering_listeners_and_names_the_first_that_fails() {
    let gtp = fake_listener(|l| match l {
        "name" => "= fake engine\n\n".into(),
        _ => "? unknown command\n\n".into(),
    });
    let gvgai = fake_listener(|l| match l {
        "0#START" => "0#START_DONE#JSON\n".into(),
        _ => "0#START_FAILED\n".into(),
    });
    let out = tablero()
        .args(["probe", "--gtp", &gtp, "--gvgai", &gvgai, "--tcp", &gtp])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("gtp {gtp}: = fake engine")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("gvgai {gvgai}: 0#START_DONE")),
        "{stdout}"
    );
    // A GVG-AI listener is no GTP engine, and the other way round.
    for (flag, addr) in [("--gtp", &gvgai), ("--gvgai", &gtp)] {
        let out = tablero().args(["probe", flag, addr]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{flag} {addr}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("probe failed: {addr}: expected")),
            "{stderr}"
        );
    }
    let dead = closed_port();
    let out = tablero()
        .args(["probe", "--gtp", &gtp, "--tcp", &dead, "--timeout", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{dead}: cannot connect")),
        "{stderr}"
    );
    // A listener that accepts but never answers fails at the timeout.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_addr = silent.local_addr().unwrap().to_string();
    let t0 = Instant::now();
    let out = tablero()
        .args(["probe", "--gtp", &silent_addr, "--timeout", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(t0.elapsed() < Duration::from_secs(5));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no answer within the timeout"));
    drop(silent);
    let out = tablero().arg("probe").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "no listener given is a usage error"
    );
}

fn stop_child(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("tablero diplomacy server did not exit on SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The subcommands of `tablero SUBCOMMAND... --help`, found by walking the help texts.
fn subcommands(path: &[String]) -> Vec<Vec<String>> {
    let out = tablero().args(path).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut found = vec![path.to_vec()];
    let Some(list) = text.split("Commands:\n").nth(1) else {
        return found;
    };
    for line in list.lines() {
        if !line.starts_with("  ") || line.starts_with("   ") {
            break;
        }
        let name = line.split_whitespace().next().unwrap_or("");
        if name.is_empty() || name == "help" {
            continue;
        }
        let mut next = path.to_vec();
        next.push(name.to_string());
        found.extend(subcommands(&next));
    }
    found
}

/// Every flag of every subcommand says what it does in `--help` (a default alone is not a
/// description).
#[test]
fn every_flag_of_every_subcommand_is_described() {
    let all = subcommands(&[]);
    assert!(all.len() > 15, "{all:?}");
    let mut bare = Vec::new();
    for path in &all {
        let out = tablero().args(path).arg("--help").output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let Some(options) = text.split("Options:\n").nth(1) else {
            continue;
        };
        let lines: Vec<&str> = options.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let flag = line.trim_start();
            if !flag.starts_with('-') || line.starts_with("          ") {
                continue;
            }
            // Short help puts the description after the flag, long help on the next line.
            let inline = flag.split_once("  ").map_or("", |(_, d)| d.trim());
            let description = if inline.is_empty() {
                lines.get(i + 1).map_or("", |l| l.trim())
            } else {
                inline
            };
            if description.is_empty() || description.starts_with("[default") {
                bare.push(format!("tablero {} {flag}", path.join(" ")));
            }
        }
    }
    assert!(
        bare.is_empty(),
        "flags without a description:\n{}",
        bare.join("\n")
    );
}
