//! Bot seats (the `[[diplomacy.bots]]` of `tablero serve`) against the
//! embedded DAIDE server: seven DumbBot seats join a game; the server is shut
//! down (mid-game) and restarted on the same port; the seats reconnect with
//! backoff (IAM refused by the new server → a fresh NME) and play a complete
//! game there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use tablero::daemon::CancellationToken;
use tablero::daemon::dipbot::{Backoff, BotSeat, run_seat};
use tablero::daide::server::{ListenerLimits, ServerConfig, run_server};
use tablero::daide::token::TokenTable;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_reconnect_after_a_server_restart_and_play_a_game() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    // Server A: long games, stopped after a moment (mid-game).
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let first = tokio::spawn(run_server(
        listener,
        TokenTable::standard(),
        |n| {
            let mut c = ServerConfig::standard(n);
            c.end_year = Some(1950);
            c
        },
        ListenerLimits::default(),
        None,
        async move {
            let _ = stop_rx.await;
        },
    ));
    let cancel = CancellationToken::new();
    let backoff = Backoff {
        initial: Duration::from_millis(50),
        max: Duration::from_millis(400),
    };
    let mut seats = Vec::new();
    for i in 0..7u64 {
        let seat = BotSeat {
            server: addr.to_string(),
            bot: "dumbbot".into(),
            name: format!("seat{i}"),
            power: None,
            seed: i,
            think_time: Duration::from_millis(100),
            jic: Default::default(),
        };
        let cancel = cancel.clone();
        seats.push(tokio::spawn(async move {
            run_seat(&seat, backoff, true, cancel).await
        }));
    }
    tokio::time::sleep(Duration::from_millis(700)).await;
    // Stop server A: whatever game the seats are in (in a debug build the
    // first game is still running; an optimised build may be in a later one)
    // is cut short and every seat loses its connection.
    let _ = stop_tx.send(());
    first.await.unwrap().unwrap();
    // The port is free again; the seats are retrying meanwhile.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
    let second = tokio::time::timeout(
        Duration::from_secs(120),
        run_server(
            listener,
            TokenTable::standard(),
            |n| {
                let mut c = ServerConfig::standard(100 + n);
                c.end_year = Some(1902);
                c
            },
            ListenerLimits::default(),
            Some(1),
            std::future::pending(),
        ),
    )
    .await
    .expect("a game on the restarted server within 2 minutes")
    .unwrap();
    assert_eq!(second.len(), 1);
    let players = second[0].players();
    assert_eq!(players.len(), 7);
    assert!(
        players.iter().all(|(_, n)| n.starts_with("seat")),
        "{players:?}"
    );
    assert!(second[0].ending().is_some());
    // Let the seats read SMR and OFF, then stop them.
    tokio::time::sleep(Duration::from_millis(500)).await;
    cancel.cancel();
    let (mut connections, mut games) = (0, 0);
    for s in seats {
        let r = s.await.unwrap().unwrap();
        connections += r.connections;
        games += r.games;
    }
    assert!(games >= 1, "the seats saw the game end");
    assert!(connections >= 14, "every seat connected to both servers");
}
