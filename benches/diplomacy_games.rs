//! Whole-game throughput: complete 7-player games played (a) by direct calls
//! through `LocalGame` and (b) over TCP loopback through the embedded DAIDE
//! server with seven DAIDE clients. Two line-ups: seeded random movers (the
//! integration tests' player: they move, retreat, build and remove) to 1910,
//! and seven DumbBots to the 1930 year cap. Games per minute = 60 s / the
//! reported time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/daide_common/mod.rs"]
mod daide_common;

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tablero::bots;
use tablero::daide::client::{ClientConfig, run_client};
use tablero::daide::server::{ServerConfig, run_game};
use tablero::diplomacy::Phase;
use tablero::diplomacy::play::{LocalGame, Player};

/// One of the two line-ups.
#[derive(Clone, Copy)]
struct LineUp {
    label: &'static str,
    end_year: i16,
    think_ms: u64,
    player: fn(u64) -> Box<dyn Player>,
}

const LINE_UPS: [LineUp; 2] = [
    LineUp {
        label: "7 random movers, to 1910",
        end_year: 1910,
        think_ms: 10,
        player: |seed| Box::new(daide_common::random_player(seed)),
    },
    LineUp {
        label: "7 DumbBots, to 1930",
        end_year: 1930,
        think_ms: 100,
        player: |seed| bots::make("dumbbot", seed).expect("registered"),
    },
];

fn local_game(line_up: LineUp, seed: u64) {
    let mut players: Vec<Box<dyn Player>> = (0..7).map(|i| (line_up.player)(seed + i)).collect();
    let g = LocalGame {
        end_year: line_up.end_year,
        think_time: Duration::from_millis(line_up.think_ms),
        ..LocalGame::default()
    };
    g.play_standard(&mut players).expect("game plays");
}

async fn server_game(line_up: LineUp, seed: u64) -> Phase {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let mut cfg = ServerConfig::standard(seed);
    cfg.end_year = Some(line_up.end_year);
    let server = tokio::spawn(run_game(listener, cfg));
    let mut clients = Vec::new();
    for i in 0..7 {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let config = ClientConfig {
            name: format!("player{i}"),
            ..ClientConfig::default()
        };
        clients.push(tokio::spawn(run_client(
            stream,
            config,
            (line_up.player)(seed + i),
        )));
    }
    let host = server.await.expect("server task").expect("server ok");
    for c in clients {
        let _ = c.await;
    }
    host.game().phase()
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("diplomacy games");
    group.sample_size(10);
    let mut seed = 0u64;
    for line_up in LINE_UPS {
        group.bench_function(format!("local game, {}", line_up.label), |b| {
            b.iter(|| {
                seed += 7;
                local_game(line_up, seed)
            })
        });
        group.bench_function(
            format!("embedded server game, TCP clients, {}", line_up.label),
            |b| {
                b.iter(|| {
                    seed += 7;
                    rt.block_on(server_game(line_up, seed))
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
