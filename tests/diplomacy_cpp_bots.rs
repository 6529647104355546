//! One game of tablero's JIC against six of David Norman's original C++ DumbBots (AiClient,
//! built by `../shared/peers/build-dumbbot.sh`; `.ci/run` builds them and sets
//! `TABLERO_AICLIENT_DIR`), each bot its own process speaking DAIDE over TCP to tablero's
//! embedded server, to the end of 1905. Every phase in which JIC had orders to give must have
//! been processed with a `SUB` from it for that turn, and none of its orders or submissions
//! refused: the turn handling between a fast C++ client and tablero's client and server holds.
//!
//! Without `TABLERO_AICLIENT_DIR` the test says so and passes, except under CI (`CI` set),
//! where it fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tablero::daide::server::{Ending, ServerConfig, run_game};

/// Child processes killed when dropped.
struct Kids(Vec<Child>);

impl Drop for Kids {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jic_against_six_cpp_dumbbots_has_every_order_set_adjudicated() {
    let Some(dir) = std::env::var_os("TABLERO_AICLIENT_DIR").map(PathBuf::from) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the C++ DumbBot game: .ci/run sets TABLERO_AICLIENT_DIR"
        );
        eprintln!("skipped: set TABLERO_AICLIENT_DIR (../shared/peers/build-dumbbot.sh DIR)");
        return;
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let mut cfg = ServerConfig::standard(3);
    cfg.end_year = Some(1905);
    // A generous deadline: a bot that misses it shows up as a phase without its orders.
    cfg.deadline = Some(60);
    let server = tokio::spawn(run_game(listener, cfg));
    let mut kids = Kids(Vec::new());
    let jic = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["diplomacy", "bot", "--bot", "jic", "--name", "jic"])
        .args(["--server", &format!("127.0.0.1:{port}")])
        .args(["--think-time", "1", "--seed", "1"])
        .stdout(Stdio::null())
        .spawn()
        .expect("start tablero diplomacy bot");
    kids.0.push(jic);
    for _ in 0..6 {
        let bot = Command::new(dir.join("dumbbot"))
            .args(["-i127.0.0.1", &format!("-p{port}")])
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the C++ dumbbot");
        kids.0.push(bot);
    }
    let host = tokio::time::timeout(Duration::from_secs(600), server)
        .await
        .expect("the game ended within 10 minutes")
        .expect("server task")
        .expect("server ok");
    let players = host.players();
    let stats = host.seat_stats();
    for ((power, name), (_, s)) in players.iter().zip(&stats) {
        println!("{power:?} {name}: {s:?}");
    }
    let phase = host.game().phase();
    match host.ending() {
        Some(Ending::Solo(_)) => {}
        Some(Ending::Draw(_)) => assert!(phase.year > 1905, "ended in {phase:?}"),
        None => panic!("no ending"),
    }
    let jic_seat = players
        .iter()
        .position(|(_, name)| name == "jic")
        .expect("JIC had a seat");
    let s = stats[jic_seat].1;
    assert!(s.phases_to_order >= 8, "{s:?}");
    assert_eq!(s.phases_without_orders, 0, "JIC's orders missing: {s:?}");
    assert_eq!(s.refused_orders, 0, "JIC's orders refused: {s:?}");
    assert_eq!(s.rejected_subs, 0, "JIC's SUBs refused: {s:?}");
}
