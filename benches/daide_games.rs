//! Whole-game throughput: complete 7-player games with seeded random players
//! (a stand-in until DumbBot exists), played (a) by direct calls through
//! `LocalGame` and (b) over TCP loopback through the embedded DAIDE server and
//! seven DAIDE clients. Games per minute = 60 s / the reported time.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tablero::budget::Budget;
use tablero::daide::client::{ClientConfig, run_client};
use tablero::daide::server::{ServerConfig, run_game};
use tablero::diplomacy::phases::buildable_kinds;
use tablero::diplomacy::play::{LocalGame, Player};
use tablero::diplomacy::{GameView, Location, Order, PhaseKind, Unit, UnitType};

fn random_player(seed: u64) -> impl FnMut(&GameView, Budget) -> Vec<Order> + Send + 'static {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    move |view: &GameView, _| {
        let Some(me) = view.me else { return Vec::new() };
        let map = &view.map;
        match view.phase.season.kind() {
            PhaseKind::Movement => view
                .units
                .iter()
                .filter(|u| u.power == me)
                .map(|u| {
                    let to: Vec<Location> = match u.kind {
                        UnitType::Army => map
                            .army_neighbours(u.location.province)
                            .iter()
                            .map(|p| Location::new(*p))
                            .collect(),
                        UnitType::Fleet => map.fleet_neighbours(u.location).to_vec(),
                    };
                    match to.choose(&mut rng) {
                        Some(t) if rng.gen_bool(0.7) => Order::Move {
                            unit: *u,
                            to: *t,
                            via: None,
                        },
                        _ => Order::Hold(*u),
                    }
                })
                .collect(),
            PhaseKind::Retreat => view
                .dislodged
                .iter()
                .filter(|d| d.unit.power == me)
                .map(|d| match d.retreats.choose(&mut rng) {
                    Some(to) => Order::Retreat {
                        unit: d.unit,
                        to: *to,
                    },
                    None => Order::Disband(d.unit),
                })
                .collect(),
            PhaseKind::Adjustment => {
                let delta = view.adjustment(me);
                if delta < 0 {
                    view.units
                        .iter()
                        .filter(|u| u.power == me)
                        .take((-delta) as usize)
                        .map(|u| Order::Remove(*u))
                        .collect()
                } else {
                    map.home_centres(me)
                        .filter(|p| view.owners.get(p) == Some(&me))
                        .filter(|p| !view.units.iter().any(|u| u.location.province == *p))
                        .take(delta as usize)
                        .filter_map(|p| buildable_kinds(map, p).first().copied())
                        .map(|location| {
                            let kind = if map.can_stand(UnitType::Army, location) {
                                UnitType::Army
                            } else {
                                UnitType::Fleet
                            };
                            Order::Build(Unit {
                                power: me,
                                kind,
                                location,
                            })
                        })
                        .collect()
                }
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("diplomacy games");
    group.sample_size(10);
    let mut seed = 0u64;
    group.bench_function("local game to 1910, 7 random players", |b| {
        b.iter(|| {
            seed += 7;
            let mut players: Vec<Box<dyn Player>> = (0..7)
                .map(|i| Box::new(random_player(seed + i)) as Box<dyn Player>)
                .collect();
            let g = LocalGame {
                end_year: 1910,
                think_time: Duration::from_millis(10),
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
    group.bench_function("embedded server game to 1905, 7 TCP clients", |b| {
        b.iter(|| {
            seed += 7;
            rt.block_on(async {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind");
                let addr = listener.local_addr().expect("addr");
                let mut cfg = ServerConfig::standard(seed);
                cfg.end_year = Some(1905);
                let server = tokio::spawn(run_game(listener, cfg));
                let mut clients = Vec::new();
                for i in 0..7 {
                    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
                    let config = ClientConfig {
                        name: format!("r{i}"),
                        ..ClientConfig::default()
                    };
                    clients.push(tokio::spawn(run_client(
                        stream,
                        config,
                        random_player(seed + i),
                    )));
                }
                let host = server.await.expect("server task").expect("server ok");
                for c in clients {
                    let _ = c.await;
                }
                host.game().phase()
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
