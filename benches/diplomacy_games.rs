//! Complete 7-DumbBot games (to the 1930 year cap, or a solo): by direct calls
//! (`LocalGame`) and over TCP loopback through the embedded DAIDE server with
//! seven DAIDE clients. Games per minute = 60 s / the reported time.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tablero::bots;
use tablero::daide::client::{ClientConfig, run_client};
use tablero::daide::server::{ServerConfig, run_game};
use tablero::diplomacy::play::{LocalGame, Player};

const END_YEAR: i16 = 1930;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("dumbbot games");
    group.sample_size(10);
    let mut seed = 0u64;
    group.bench_function("local game, 7 DumbBots, to 1930", |b| {
        b.iter(|| {
            seed += 7;
            let mut players: Vec<Box<dyn Player>> = (0..7)
                .map(|i| bots::make("dumbbot", seed + i).expect("registered"))
                .collect();
            let g = LocalGame {
                end_year: END_YEAR,
                think_time: Duration::from_millis(100),
                ..LocalGame::default()
            };
            g.play_standard(&mut players).expect("game plays")
        })
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    group.bench_function(
        "embedded server game, 7 DumbBot TCP clients, to 1930",
        |b| {
            b.iter(|| {
                seed += 7;
                rt.block_on(async {
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                        .await
                        .expect("bind");
                    let addr = listener.local_addr().expect("addr");
                    let mut cfg = ServerConfig::standard(seed);
                    cfg.end_year = Some(END_YEAR);
                    let server = tokio::spawn(run_game(listener, cfg));
                    let mut clients = Vec::new();
                    for i in 0..7 {
                        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
                        let config = ClientConfig {
                            name: format!("dumbbot{i}"),
                            ..ClientConfig::default()
                        };
                        let bot = bots::make("dumbbot", seed + i).expect("registered");
                        clients.push(tokio::spawn(run_client(stream, config, bot)));
                    }
                    let host = server.await.expect("server task").expect("server ok");
                    for c in clients {
                        let _ = c.await;
                    }
                    host.game().phase()
                })
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
