//! End to end over TCP: the embedded DAIDE server hosts a game for seven
//! tablero clients (random movers that retreat, build and remove), which play
//! to the year cap. Checks that every client ends cleanly and that the server
//! saw the game through.

use std::time::Duration;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tablero::budget::Budget;
use tablero::daide::client::{ClientConfig, run_client};
use tablero::daide::server::{Ending, ServerConfig, run_game};
use tablero::diplomacy::phases::buildable_kinds;
use tablero::diplomacy::{GameView, Location, Order, PhaseKind, UnitType};

fn random_player(seed: u64) -> impl FnMut(&GameView, Budget) -> Vec<Order> + Send + 'static {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    move |view: &GameView, _budget: Budget| {
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
                    let mut orders = Vec::new();
                    let free: Vec<_> = map
                        .home_centres(me)
                        .filter(|p| view.owners.get(p) == Some(&me))
                        .filter(|p| !view.units.iter().any(|u| u.location.province == *p))
                        .collect();
                    for p in free.into_iter().take(delta as usize) {
                        let loc = buildable_kinds(map, p)[0];
                        let kind = if map.can_stand(UnitType::Army, loc) {
                            UnitType::Army
                        } else {
                            UnitType::Fleet
                        };
                        orders.push(Order::Build(tablero::diplomacy::Unit {
                            power: me,
                            kind,
                            location: loc,
                        }));
                    }
                    while (orders.len() as i32) < delta {
                        orders.push(Order::Waive(me));
                    }
                    orders
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seven_clients_play_to_the_year_cap() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let mut cfg = ServerConfig::standard(7);
    cfg.end_year = Some(1903);
    let server = tokio::spawn(run_game(listener, cfg));
    let mut clients = Vec::new();
    for i in 0..7u64 {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let config = ClientConfig {
            name: format!("rand{i}"),
            version: "1".into(),
            think_time: Duration::from_millis(100),
            ..ClientConfig::default()
        };
        clients.push(tokio::spawn(run_client(stream, config, random_player(i))));
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
}
