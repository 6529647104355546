//! End to end over TCP: the embedded DAIDE server hosts a game for seven
//! tablero clients (random movers that retreat, build and remove), which play
//! to the year cap. Checks that every client ends cleanly, that the server
//! saw the game through, and that every client observed every power's orders
//! of each movement phase (`ORD` goes to everyone, `Player::observe`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod daide_common;

use std::time::Duration;

use daide_common::{Seen, Watcher, movement_observations, random_player};
use tablero::daide::client::{ClientConfig, run_client};
use tablero::daide::server::{Ending, ListenerLimits, ServerConfig, run_game, run_server};
use tablero::daide::token::TokenTable;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seven_clients_play_to_the_year_cap() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let mut cfg = ServerConfig::standard(7);
    cfg.end_year = Some(1903);
    let server = tokio::spawn(run_game(listener, cfg));
    let seen = Seen::default();
    let mut clients = Vec::new();
    for i in 0..7u64 {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let config = ClientConfig {
            name: format!("rand{i}"),
            version: "1".into(),
            think_time: Duration::from_millis(100),
            ..ClientConfig::default()
        };
        let player = Watcher {
            inner: Box::new(random_player(i)),
            seen: seen.clone(),
        };
        clients.push(tokio::spawn(run_client(stream, config, player)));
    }
    let host = tokio::time::timeout(Duration::from_secs(60), server)
        .await
        .expect("game finished in time")
        .expect("server task")
        .expect("server ok");
    match host.ending() {
        Some(Ending::Draw(p)) => assert!(!p.is_empty()),
        Some(Ending::Solo(_)) => {}
        None => panic!("no ending"),
    }
    assert!(host.game().phase().year >= 1904);
    for c in clients {
        let summary = tokio::time::timeout(Duration::from_secs(10), c)
            .await
            .expect("client finished")
            .expect("client task")
            .expect("client ok");
        assert!(summary.summary.is_some());
        assert!(summary.phases_ordered >= 6, "{}", summary.phases_ordered);
    }
    // 1901–1903: 6 movement phases, each seen by 7 clients with every
    // power's orders (nobody is eliminated that early among random movers).
    let movement = movement_observations(&seen);
    assert_eq!(movement.len(), 7 * 6, "{movement:?}");
    assert!(
        movement.iter().all(|(_, powers)| powers.len() == 7),
        "{movement:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_server_hosts_two_games_at_once() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let make = |n: u64| {
        let mut cfg = ServerConfig::standard(100 + n);
        cfg.end_year = Some(1902);
        cfg
    };
    let server = tokio::spawn(run_server(
        listener,
        TokenTable::standard(),
        make,
        ListenerLimits::default(),
        Some(2),
        std::future::pending(),
    ));
    let mut clients = Vec::new();
    for i in 0..14u64 {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let config = ClientConfig {
            name: format!("rand{i}"),
            version: "1".into(),
            think_time: Duration::from_millis(100),
            ..ClientConfig::default()
        };
        clients.push(tokio::spawn(run_client(stream, config, random_player(i))));
        // Let each client join before the next connects, so games fill in order.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let games = tokio::time::timeout(Duration::from_secs(60), server)
        .await
        .expect("games finished in time")
        .expect("server task")
        .expect("server ok");
    assert_eq!(games.len(), 2);
    for c in clients {
        let s = tokio::time::timeout(Duration::from_secs(10), c)
            .await
            .expect("client finished")
            .expect("client task")
            .expect("client ok");
        assert!(s.summary.is_some());
    }
}

/// An observer that has accepted the map only reads; it returns every message as text.
async fn observe(addr: std::net::SocketAddr) -> Vec<String> {
    use futures::{SinkExt, StreamExt};
    use tablero::daide::codec::{DaideCodec, Frame, Role};
    use tablero::daide::text::{format_tokens, parse_text};
    let table = TokenTable::standard();
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let mut framed = tokio_util::codec::Framed::new(stream, DaideCodec::for_role(Role::Client));
    let send = |s: &str| Frame::Dm(parse_text(s, &table).expect("message"));
    framed.send(Frame::im()).await.expect("IM");
    framed.send(send("OBS")).await.expect("OBS");
    let mut seen = Vec::new();
    while let Some(Ok(frame)) = framed.next().await {
        let Frame::Dm(tokens) = frame else { continue };
        let text = format_tokens(&tokens, &table);
        if text.starts_with("MAP (") {
            framed
                .send(send(&format!("YES ({text})")))
                .await
                .expect("YES");
        }
        seen.push(text);
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_observer_gets_every_turn_result_and_the_summary() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let mut cfg = ServerConfig::standard(11);
    cfg.end_year = Some(1902);
    let server = tokio::spawn(run_game(listener, cfg));
    let observer = tokio::spawn(observe(addr));
    tokio::time::sleep(Duration::from_millis(100)).await;
    for i in 0..7u64 {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let config = ClientConfig {
            name: format!("rand{i}"),
            version: "1".into(),
            think_time: Duration::from_millis(50),
            ..ClientConfig::default()
        };
        tokio::spawn(run_client(stream, config, random_player(20 + i)));
    }
    let host = tokio::time::timeout(Duration::from_secs(60), server)
        .await
        .expect("game finished in time")
        .expect("server task")
        .expect("server ok");
    let seen = tokio::time::timeout(Duration::from_secs(10), observer)
        .await
        .expect("observer closed")
        .expect("observer task");
    let count = |prefix: &str| seen.iter().filter(|m| m.starts_with(prefix)).count();
    // Every phase's position: SPR and FAL 1901 and 1902 plus the retreats and builds there
    // were (a winter always has one when centres changed hands).
    let turns: Vec<&str> = seen
        .iter()
        .filter(|m| m.starts_with("NOW ("))
        .map(|m| &m[5..13])
        .collect();
    for t in ["SPR 1901", "FAL 1901", "SPR 1902", "FAL 1902"] {
        assert!(turns.contains(&t), "no NOW for {t}: {turns:?}");
    }
    // Every movement phase's orders, one ORD per unit: 22 units in S1901.
    let ord = |t: &str| {
        seen.iter()
            .filter(|m| m.starts_with(&format!("ORD ({t})")))
            .count()
    };
    assert_eq!(ord("SPR 1901"), 22, "{seen:?}");
    for t in ["FAL 1901", "SPR 1902", "FAL 1902"] {
        assert!(ord(t) >= 18, "{t}: {} ORD", ord(t));
    }
    // Centre ownership at the start and after every fall, and the game summary at the end.
    assert!(count("SCO ") >= 3, "{} SCO", count("SCO "));
    assert_eq!(count("SMR "), 1, "{:?}", seen.last());
    assert!(host.ending().is_some());
}
