//! `tablero serve` (the real binary) hosting the embedded DAIDE server beside GTP and GVG-AI
//! (`[diplomacy.server]`): seven bot seats play a game to the year cap while a GTP client is
//! answered, the game's record reaches the results file, `tablero probe` checks both
//! listeners, and SIGTERM stops everything (a forming game and a client that never sent its
//! IM included) within the grace period; `diplomacy.server.max_connections` makes the surplus
//! wait rather than be refused.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

mod daide_common;
mod serve_common;
use daide_common::{IM, connect_and_hello};
use serve_common::{Client, DAIDE_ENABLED, Serve};

use tablero::daemon::CancellationToken;
use tablero::daemon::dipbot::{Backoff, BotSeat, run_seat};

const PATIENCE: Duration = Duration::from_secs(20);
/// `server.shutdown_grace` of these daemons, in seconds.
const GRACE: f64 = 3.0;

/// `tablero serve` with the DAIDE server enabled, every listener on a free loopback port, a
/// `GRACE`-second grace period and `sets` overrides.
fn serve(sets: &[&str]) -> Serve {
    let grace = format!("server.shutdown_grace={GRACE}");
    let mut all = vec![DAIDE_ENABLED, grace.as_str()];
    all.extend_from_slice(sets);
    serve_common::serve(&all)
}

/// Sends `lines` to the GTP listener and reads one response per line.
fn gtp_session(addr: &str, lines: &[&str]) -> Vec<String> {
    let mut c = Client::connect(addr);
    lines
        .iter()
        .map(|l| c.ask(l, PATIENCE).unwrap_or_default())
        .collect()
}

/// True once the peer has closed the stream (EOF or reset) within `within`.
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    let t0 = Instant::now();
    let mut buf = [0u8; 1024];
    while t0.elapsed() < within {
        s.set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => {}
        }
    }
    false
}

fn seat(server: &str, i: u64) -> BotSeat {
    BotSeat {
        server: server.to_string(),
        bot: "dumbbot".into(),
        name: format!("seat{i}"),
        power: None,
        seed: i,
        think_time: Duration::from_millis(100),
        jic: Default::default(),
    }
}

fn sigterm(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn serve_hosts_a_daide_game_beside_gtp_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let results_set = format!("diplomacy.server.results={}", results.display());
    let mut srv = serve(&["diplomacy.server.end_year=1902", &results_set]);

    // Seven bot seats play one game on the daemon's DAIDE listener...
    let rt = tokio::runtime::Runtime::new().unwrap();
    let cancel = CancellationToken::new();
    let backoff = Backoff {
        initial: Duration::from_millis(50),
        max: Duration::from_millis(400),
    };
    let seats: Vec<_> = (0..7u64)
        .map(|i| {
            let seat = seat(&srv.daide, i);
            let cancel = cancel.clone();
            rt.spawn(async move { run_seat(&seat, backoff, false, cancel).await })
        })
        .collect();
    // ...while a GTP client on the same daemon is answered.
    let answers = gtp_session(&srv.gtp, &["name", "boardsize 9", "genmove b", "quit"]);
    assert!(answers.iter().all(|a| a.starts_with('=')), "{answers:?}");
    assert_eq!(answers[0], "= tablero");
    for s in seats {
        let report = rt
            .block_on(async { tokio::time::timeout(Duration::from_secs(120), s).await })
            .expect("the game ends within 2 minutes")
            .unwrap()
            .expect("seat ok");
        assert_eq!(report.games, 1, "{report:?}");
    }

    // The record was on disk as the game ended.
    let text = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    let record: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(record["phase"], "S1903M", "{record}");
    let powers = record["powers"].as_array().unwrap();
    assert_eq!(powers.len(), 7);
    assert!(
        powers
            .iter()
            .all(|p| p["name"].as_str().unwrap().starts_with("seat")),
        "{record}"
    );

    // The healthcheck reaches both listeners.
    let probe = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["probe", "--gtp", &srv.gtp, "--tcp", &srv.daide])
        .output()
        .unwrap();
    assert!(
        probe.status.success(),
        "{}",
        String::from_utf8_lossy(&probe.stderr)
    );

    // At shutdown a player of a game still forming and a client that never sent its IM are
    // closed, the listener too, and the daemon exits within the grace period.
    let mut forming = connect_and_hello(&srv.daide, PATIENCE).expect("RM");
    let mut silent = TcpStream::connect(&srv.daide).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let t0 = Instant::now();
    sigterm(&srv.child);
    let status = loop {
        if let Some(status) = srv.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            t0.elapsed() < Duration::from_secs_f64(GRACE + 3.0),
            "tablero serve did not exit within the grace period"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert!(
        closed_within(&mut forming, PATIENCE),
        "forming game's player"
    );
    assert!(closed_within(&mut silent, PATIENCE), "client without IM");
    assert!(
        TcpStream::connect(&srv.daide).is_err(),
        "the DAIDE listener is closed"
    );
    cancel.cancel();
}

#[test]
fn daide_connections_beyond_the_limit_wait_for_a_free_slot() {
    let srv = serve(&["diplomacy.server.max_connections=2"]);
    let a = connect_and_hello(&srv.daide, PATIENCE).expect("first served");
    let _b = connect_and_hello(&srv.daide, PATIENCE).expect("second served");
    // The third is accepted by the kernel but not served while two are open.
    let mut c = TcpStream::connect(&srv.daide).expect("connect");
    c.write_all(&IM).expect("write IM");
    c.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let mut header = [0u8; 4];
    assert!(
        c.read_exact(&mut header).is_err(),
        "a third client was served"
    );
    // The limit is the DAIDE listener's own: GTP still answers.
    assert_eq!(gtp_session(&srv.gtp, &["name"]), ["= tablero"]);
    drop(a);
    c.set_read_timeout(Some(PATIENCE)).unwrap();
    c.read_exact(&mut header).expect("served once a slot freed");
    assert_eq!(header[0], 1, "RM");
}
