//! The `tablero` binary: version, configuration errors (exit 2, message on stderr, nothing on
//! stdout), and `tablero serve` listening and shutting down cleanly on SIGTERM and SIGINT.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `cmd`, checks that it succeeded (showing its stderr if not) and returns its stdout.
fn success_stdout(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

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
        // GTP clocks are whole seconds: a referee clock of 0.25 s cannot be announced.
        (
            &[
                "match",
                "--black",
                "a",
                "--white",
                "b",
                "--think-time",
                "0.25",
            ],
            "whole seconds",
        ),
        (
            &["match", "--black", "a", "--white", "b", "--clock", "60.5"],
            "whole seconds",
        ),
    ];
    for (args, needle) in cases {
        usage_error(args, needle);
    }
}

/// Runs `tablero args`, which must fail with the usage exit code (2), name `needle` on stderr
/// and print nothing on stdout; its stderr.
fn usage_error(args: &[&str], needle: &str) -> String {
    let out = tablero().args(args).stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(needle),
        "{args:?}: stderr {stderr:?} lacks {needle:?}"
    );
    assert!(out.stdout.is_empty(), "{args:?}: stdout must stay clean");
    stderr
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
    let stdout = success_stdout(tablero().args([
        "bench",
        "playouts",
        "--size",
        "5",
        "--seconds",
        "0.2",
        "--seed",
        "7",
    ]));
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
        &["diplomacy", "server", "--end-year", "1800"],
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
    let addr = closed_port();
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let mut server = spawn_quiet(
        tablero()
            .args([
                "diplomacy",
                "server",
                "--listen",
                &addr,
                "--end-year",
                "1902",
            ])
            .arg("--results")
            .arg(&results),
    );
    wait_accepting(&addr);
    let powers = ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"];
    let bots: Vec<Child> = powers
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let bot = if i % 2 == 0 { "dumbbot" } else { "randbot" };
            let name = format!("b{i}");
            spawn_quiet(
                tablero()
                    .args(["diplomacy", "bot", "--server", &addr, "--bot", bot])
                    .args(["--name", &name, "--power", p, "--think-time", "1"]),
            )
        })
        .collect();
    for mut b in bots {
        let Some(status) = wait_exit(&mut b, Duration::from_secs(60)) else {
            let _ = b.kill();
            let _ = server.kill();
            panic!("a bot did not finish its game");
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

/// `cmd` started with stdin, stdout and stderr null.
fn spawn_quiet(cmd: &mut Command) -> Child {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The exit status of `child` once it has exited, `None` if it runs longer than `limit`.
fn wait_exit(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if t0.elapsed() > limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
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
        .args([
            "probe",
            "--gtp",
            &gtp,
            "--tcp",
            &dead,
            "--reply-timeout",
            "2",
        ])
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
        .args(["probe", "--gtp", &silent_addr, "--reply-timeout", "1"])
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

/// One flag as `tablero … --help` shows it.
#[derive(Debug)]
struct HelpFlag {
    /// The subcommand and the flag, e.g. "tablero gvgai play --act-ms <MS>".
    name: String,
    /// The flag's spelling and value, e.g. "--act-ms <MS>".
    flag: String,
    /// Its description, every line of it joined.
    description: String,
    /// The usage line names it outside `[OPTIONS]`.
    required: bool,
}

/// The flags of `tablero PATH... --help`. Short help puts the description after the flag, long
/// help on the lines below it.
fn help_flags(path: &[String]) -> Vec<HelpFlag> {
    let out = tablero().args(path).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let usage = text
        .lines()
        .find(|l| l.starts_with("Usage:"))
        .unwrap_or_default()
        .to_string();
    let Some(options) = text.split("Options:\n").nth(1) else {
        return Vec::new();
    };
    let mut flags: Vec<HelpFlag> = Vec::new();
    for line in options.lines() {
        if line.trim().is_empty() || !line.starts_with(' ') {
            break;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with('-') && !line.starts_with("          ") {
            let (flag, inline) = trimmed.split_once("  ").unwrap_or((trimmed, ""));
            let long = flag
                .split_whitespace()
                .find(|w| w.starts_with("--"))
                .unwrap_or(flag);
            flags.push(HelpFlag {
                name: format!("tablero {} {flag}", path.join(" ")),
                flag: flag.to_string(),
                description: inline.trim().to_string(),
                required: usage
                    .split_whitespace()
                    .any(|w| w == long.trim_end_matches(',')),
            });
        } else if let Some(last) = flags.last_mut() {
            last.description.push(' ');
            last.description.push_str(trimmed);
            last.description = last.description.trim().to_string();
        }
    }
    flags
}

/// Every flag of every subcommand, found by walking the help texts.
fn all_help_flags() -> Vec<HelpFlag> {
    let all = subcommands(&[]);
    assert!(all.len() > 15, "{all:?}");
    all.iter().flat_map(|path| help_flags(path)).collect()
}

/// Every flag of every subcommand says what it does in `--help` (a default alone is not a
/// description).
#[test]
fn every_flag_of_every_subcommand_is_described() {
    let flags = all_help_flags();
    assert!(
        flags
            .iter()
            .any(|f| f.name == "tablero gvgai connect --act-ms <MS>"),
        "{flags:?}"
    );
    let bare: Vec<&str> = flags
        .iter()
        .filter(|f| f.description.is_empty() || f.description.starts_with("[default"))
        .map(|f| f.name.as_str())
        .collect();
    assert!(
        bare.is_empty(),
        "flags without a description:\n{}",
        bare.join("\n")
    );
}

/// Every optional flag that takes a value says what it is when the flag is not given.
#[test]
fn every_optional_flag_shows_its_default() {
    let flags = all_help_flags();
    let missing: Vec<&str> = flags
        .iter()
        .filter(|f| f.flag.contains('<') && !f.required)
        .filter(|f| !f.description.contains("(repeatable)"))
        .filter(|f| !f.description.to_lowercase().contains("default"))
        .map(|f| f.name.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "flags whose help shows no default:\n{}",
        missing.join("\n")
    );
}

/// The built-in value of config key `key` ("section.key"), as a TOML value.
fn config_default(key: &str) -> Option<toml::Value> {
    let defaults = toml::Value::try_from(tablero::config::Config::default()).unwrap();
    if !key.contains('.') {
        return None;
    }
    key.split('.')
        .try_fold(&defaults, |table, name| table.get(name))
        .cloned()
}

/// A default that comes from the configuration shows the key and its built-in value,
/// `[default: 40 (config gvgai.act_ms)]`, and that value is the configuration's.
#[test]
fn defaults_from_the_configuration_show_their_built_in_value() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for f in all_help_flags() {
        let text = &f.description;
        for (i, _) in text.match_indices("(config ") {
            let key: String = text[i + "(config ".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
                .collect();
            let Some(start) = text[..i].rfind("[default: ") else {
                wrong.push(format!("{}: (config {key}) outside [default: …]", f.name));
                continue;
            };
            let shown = text[start + "[default: ".len()..i].trim();
            let agrees = match config_default(&key) {
                None => false,
                Some(toml::Value::String(v)) => v.is_empty() || v == shown,
                Some(toml::Value::Integer(v)) => shown.parse::<f64>().ok() == Some(v as f64),
                Some(toml::Value::Float(v)) => shown.parse::<f64>().ok() == Some(v),
                Some(v) => v.to_string() == shown,
            };
            checked += 1;
            if !agrees {
                wrong.push(format!(
                    "{}: shows {shown:?} for {key}, built in: {:?}",
                    f.name,
                    config_default(&key)
                ));
            }
        }
        // "default: section.key" without the value is what these tests forbid.
        for (i, _) in text.to_lowercase().match_indices("default: ") {
            let rest = &text[i + "default: ".len()..];
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
                .collect();
            if word.contains('.')
                && word.parse::<f64>().is_err()
                && config_default(&word).is_some()
                && rest[word.len()..].starts_with([')', ']'])
            {
                wrong.push(format!(
                    "{}: default {word} shown without its value",
                    f.name
                ));
            }
        }
    }
    assert!(checked >= 15, "only {checked} configuration defaults found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Runs `tablero ARGS`; (exit code, stderr).
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = tablero().args(args).stdin(Stdio::null()).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Renamed flags keep their old spelling as a hidden alias: both reach the same check.
#[test]
fn old_flag_spellings_still_work_and_are_hidden() {
    let cases: &[(&[&str], &str, &str, &str)] = &[
        (
            &["match", "--black", "a", "--white", "b"],
            "--time",
            "--think-time",
            "--think-time must be > 0",
        ),
        (
            &["probe", "--tcp", "127.0.0.1:1"],
            "--timeout",
            "--reply-timeout",
            "--reply-timeout must be a number of seconds > 0",
        ),
    ];
    for (args, old, new, needle) in cases {
        for flag in [old, new] {
            let mut all = args.to_vec();
            all.extend([*flag, "0"]);
            let (code, stderr) = run(&all);
            assert_eq!(code, Some(2), "{all:?}: {stderr}");
            assert!(stderr.contains(needle), "{all:?}: {stderr}");
        }
        let help = tablero().args(&args[..1]).arg("--help").output().unwrap();
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(help.contains(&format!("{new} <")), "{help}");
        assert!(
            !help.contains(&format!("{old} <")),
            "{old} is shown: {help}"
        );
    }
    // gvgai connect --addr is --server: both reach the controller check.
    for flag in ["--addr", "--server"] {
        let all = [
            "gvgai",
            "connect",
            flag,
            "127.0.0.1:1",
            "--controller",
            "nope",
        ];
        let (code, stderr) = run(&all);
        assert_eq!(code, Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains("unknown controller"), "{all:?}: {stderr}");
    }
}

/// The subcommands that read the configuration take `--config` and `--set`, and a bad value
/// stops them with the key named.
#[test]
fn config_flags_on_every_subcommand_that_reads_configuration() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["diplomacy", "server", "--set", "diplomacy.seed=x"],
            "diplomacy.seed",
        ),
        (
            &[
                "gvgai",
                "play",
                "--game",
                "sokoban",
                "--set",
                "gvgai.act_ms=fast",
            ],
            "gvgai.act_ms",
        ),
        (
            &[
                "gvgai",
                "replay",
                "--game",
                "sokoban",
                "--actions",
                "L",
                "--set",
                "gvgai.seed=x",
            ],
            "gvgai.seed",
        ),
        (
            &["gvgai", "connect", "--set", "gvgai.init_ms=-1"],
            "gvgai.init_ms",
        ),
        (
            &[
                "gvgai",
                "host",
                "--game",
                "sokoban",
                "--set",
                "gvgai.reply_timeout=x",
            ],
            "gvgai.reply_timeout",
        ),
        (
            &["gvgai", "bench", "--set", "gvgai.max_line_bytes=x"],
            "gvgai.max_line_bytes",
        ),
        (
            &[
                "gvgai",
                "pddl",
                "--game",
                "sokoban",
                "--out",
                "x",
                "--set",
                "gvgai.nope=1",
            ],
            "gvgai.nope",
        ),
        (
            &[
                "match",
                "--black",
                "a",
                "--white",
                "b",
                "--set",
                "go.boardsize=1",
            ],
            "go.boardsize",
        ),
        (
            &["bench", "playouts", "--set", "search.uct=1"],
            "search.uct",
        ),
        (
            &["bench", "playouts", "--config", "/nonexistent/t.toml"],
            "/nonexistent/t.toml",
        ),
    ];
    for (args, key) in cases {
        let stderr = usage_error(args, key);
        assert!(
            !stderr.contains("unexpected argument"),
            "{args:?}: {stderr}"
        );
    }
}

/// The `[gvgai]` section gives the gvgai subcommands their defaults; a flag wins over it.
#[test]
fn gvgai_subcommands_use_the_gvgai_section() {
    let play = |extra: &[&str]| {
        let out = tablero()
            .args(["gvgai", "play", "--game", "sokoban", "--iterations", "5"])
            .args(extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{extra:?}: {out:?}");
        serde_json::from_str::<serde_json::Value>(stdout.trim()).unwrap()
    };
    assert_eq!(play(&[])["controller"], "olets");
    let configured = play(&["--set", "gvgai.controller=random"]);
    assert_eq!(configured["controller"], "random");
    let flag = play(&[
        "--set",
        "gvgai.controller=random",
        "--controller",
        "onestep",
    ]);
    assert_eq!(flag["controller"], "onestep");
    // gvgai.games_dir is where games are looked for; --games-dir wins over it.
    let (code, stderr) = run(&[
        "gvgai",
        "replay",
        "--game",
        "sokoban",
        "--actions",
        "L",
        "--set",
        "gvgai.games_dir=/nonexistent/games",
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("/nonexistent/games"), "{stderr}");
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/data/gvgai/games");
    let (code, stderr) = run(&[
        "gvgai",
        "replay",
        "--game",
        "sokoban",
        "--actions",
        "L",
        "--set",
        "gvgai.games_dir=/nonexistent/games",
        "--games-dir",
        games,
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    // gvgai.game names the hosted game when --game does not.
    let (code, stderr) = run(&["gvgai", "host", "--set", "gvgai.game=no_such_game"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no_such_game"), "{stderr}");
    let (code, stderr) = run(&["gvgai", "host"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--game"), "{stderr}");
}

/// A lone bot says on stderr that it waits for the server to start the game.
#[test]
fn a_lone_diplomacy_bot_says_it_waits_for_the_game() {
    let addr = closed_port();
    let server = tablero()
        .args(["diplomacy", "server", "--listen", &addr])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_accepting(&addr);
    let mut bot = tablero()
        .args(["diplomacy", "bot", "--server", &addr, "--bot", "holdbot"])
        .args(["--set", "log.level=error"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = bot.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut seen = Vec::new();
    let found = loop {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(line) if line.contains("waiting for the server to start the game") => break true,
            Ok(line) => seen.push(line),
            Err(_) => break false,
        }
    };
    let _ = bot.kill();
    let _ = bot.wait();
    stop_child(server);
    assert!(found, "no waiting line; stderr: {seen:?}");
    assert!(seen.is_empty(), "log.level=error, yet: {seen:?}");
}

/// Waits (up to 20 s) until something accepts connections on `addr`.
fn wait_accepting(addr: &str) {
    let t0 = Instant::now();
    while TcpStream::connect(addr).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "server did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `tablero diplomacy server` takes its settings from `[diplomacy.server]`, a flag wins over
/// the key of its name, and `max_games` ends the server after that many games.
#[test]
fn diplomacy_server_reads_its_config_section() {
    let addr = closed_port();
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("games.jsonl");
    let config = dir.path().join("server.toml");
    std::fs::write(
        &config,
        format!(
            "[diplomacy.server]\nlisten = \"{addr}\"\nend_year = 1901\nmax_games = 1\n\
             results = {:?}\n",
            results.display().to_string()
        ),
    )
    .unwrap();
    let mut server = spawn_quiet(
        tablero()
            .args(["diplomacy", "server", "--end-year", "1902", "--config"])
            .arg(&config),
    );
    wait_accepting(&addr);
    let bots: Vec<Child> = (0..7)
        .map(|_| {
            spawn_quiet(tablero().args(["diplomacy", "bot", "--server", &addr, "--bot", "holdbot"]))
        })
        .collect();
    // max_games = 1: the server exits by itself once the game is over.
    let Some(status) = wait_exit(&mut server, Duration::from_secs(60)) else {
        let _ = server.kill();
        panic!("the server did not stop after max_games");
    };
    for mut b in bots {
        let _ = b.kill();
        let _ = b.wait();
    }
    assert_eq!(status.code(), Some(0));
    let text = std::fs::read_to_string(&results).unwrap();
    let record: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert_eq!(
        record["phase"], "S1903M",
        "--end-year 1902 wins over 1901: {record}"
    );
}

/// `tablero go-train`: trains on a folder of SGF records, writes the table with the command in
/// its header, prints the report as one JSON line; `--evaluate` scores a table on every game;
/// an empty folder is a usage error.
#[test]
fn go_train_writes_a_table_with_its_command() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir_all(games.join("sub")).unwrap();
    let moves = ["ee", "cc", "gc", "cg", "gg", "ec", "ce", "eg", "dd", "fd"];
    for (i, shift) in [0usize, 3, 5, 7].iter().enumerate() {
        let mut sgf = String::from("(;FF[4]GM[1]SZ[9]KM[7]");
        for (j, m) in moves
            .iter()
            .cycle()
            .skip(*shift)
            .take(moves.len())
            .enumerate()
        {
            sgf.push_str(&format!(";{}[{m}]", if j % 2 == 0 { 'B' } else { 'W' }));
        }
        sgf.push(')');
        let folder = if i % 2 == 0 {
            games.clone()
        } else {
            games.join("sub")
        };
        std::fs::write(folder.join(format!("g{i}.sgf")), sgf).unwrap();
    }
    let table = dir.path().join("table.txt");
    let stdout = success_stdout(
        tablero()
            .args(["go-train", "--sgf-dir"])
            .arg(&games)
            .arg("--out")
            .arg(&table)
            .args([
                "--seed",
                "3",
                "--held-out",
                "0.25",
                "--iterations",
                "2",
                "--min-count",
                "1",
            ]),
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["training_games"], 3);
    assert_eq!(report["held_out_games"], 1);
    assert_eq!(report["held_out"][0]["size"], 9);
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(
        text.contains("# command: tablero go-train --sgf-dir"),
        "{text}"
    );
    assert!(text.contains("--seed 3"));
    assert!(text.lines().any(|l| l.starts_with("pat3 0x")));
    // --evaluate ranks every move of every game (4 games of 10 moves) with the table.
    let stdout = success_stdout(
        tablero()
            .args(["go-train", "--sgf-dir"])
            .arg(&games)
            .arg("--evaluate")
            .arg(&table),
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["games"], 4);
    assert_eq!(report["held_out"][0]["positions"], 40);
    let top5 = report["held_out"][0]["mm"]["top5"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&top5), "{stdout}");
    std::fs::write(dir.path().join("bad.txt"), "pat3 zz 1\n").unwrap();
    let (code, stderr) = run(&[
        "go-train",
        "--sgf-dir",
        games.to_str().unwrap(),
        "--evaluate",
        dir.path().join("bad.txt").to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("bad.txt"), "{stderr}");
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, stderr) = run(&[
        "go-train",
        "--sgf-dir",
        empty.to_str().unwrap(),
        "--out",
        table.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no loadable .sgf files"), "{stderr}");
}

/// `gvgai play` on a two-player game: one controller per player, both players' results.
#[test]
fn gvgai_play_runs_a_two_player_game_with_two_controllers() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/gvgai/corpus/2player");
    let out = tablero()
        .args([
            "gvgai",
            "play",
            "--games-dir",
            dir,
            "--game",
            "tron",
            "--controller",
            "mcts",
            "--controller2",
            "onestep",
            "--iterations",
            "50",
            "--seed",
            "3",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["controllers"], serde_json::json!(["mcts", "onestep"]));
    assert_eq!(v["wins"].as_array().unwrap().len(), 2);
    assert_eq!(v["scores"].as_array().unwrap().len(), 2);
    let acts = v["actions"].as_array().unwrap();
    assert_eq!(
        acts[0].as_str().unwrap().len(),
        acts[1].as_str().unwrap().len()
    );
    assert!(v["ticks"].as_i64().unwrap() < 2000);
}
