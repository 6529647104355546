//! Helpers shared by the DAIDE integration tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod python;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tablero::budget::Budget;
use tablero::diplomacy::phases::buildable_kinds;
use tablero::diplomacy::{GameView, Order, Phase, PhaseKind, Player, Power, UnitType};

/// Observations of a game: per `Player::observe` call, the phase and the
/// powers whose orders came (`None` when the view was not an observer's).
#[allow(dead_code)] // benches/diplomacy_games.rs shares this module, not the watcher
pub type Seen = Arc<Mutex<Vec<(Option<Phase>, BTreeSet<Power>)>>>;

/// Plays as `inner` and records what it observes in `seen`.
#[allow(dead_code)] // benches/diplomacy_games.rs shares this module, not the watcher
pub struct Watcher {
    pub inner: Box<dyn Player>,
    pub seen: Seen,
}

impl Player for Watcher {
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        self.inner.orders(view, budget)
    }

    fn observe(&mut self, view: &GameView, orders: &[Order]) {
        let phase = view.me.is_none().then_some(view.phase);
        let powers = orders.iter().map(|o| o.power()).collect();
        if let Ok(mut s) = self.seen.lock() {
            s.push((phase, powers));
        }
        self.inner.observe(view, orders)
    }

    fn position(&mut self, view: &GameView) {
        self.inner.position(view)
    }
}

/// The movement-phase observations in `seen`; panics on a view that was not
/// an observer's.
#[allow(dead_code)] // benches/diplomacy_games.rs shares this module, not the watcher
pub fn movement_observations(seen: &Seen) -> Vec<(Phase, BTreeSet<Power>)> {
    let seen = seen.lock().expect("observations");
    seen.iter()
        .map(|(p, powers)| (p.expect("an observer's view"), powers.clone()))
        .filter(|(p, _)| p.season.kind() == PhaseKind::Movement)
        .collect()
}

/// A seeded random player: moves 70 % of its units to random neighbours,
/// retreats at random, builds in free home centres, removes the first units.
#[allow(dead_code)] // tests/daide_python_games.rs shares this module, not the random player
pub fn random_player(seed: u64) -> impl FnMut(&GameView, Budget) -> Vec<Order> + Send + 'static {
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
                    let to = map.move_targets(u.kind, u.location);
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

/// The DAIDE initial message: type 0, length 4, version 1, magic 0xDA10.
#[allow(dead_code)] // shared by the tests that speak raw DAIDE frames
pub const IM: [u8; 8] = [0, 0, 0, 4, 0, 1, 0xDA, 0x10];

/// Connects and sends `IM`; the stream if the server's representation message (type 1) comes
/// within `within`.
#[allow(dead_code)] // shared by the tests that speak raw DAIDE frames
pub fn connect_and_hello(addr: &str, within: std::time::Duration) -> Option<std::net::TcpStream> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.write_all(&IM).ok()?;
    s.set_read_timeout(Some(within)).ok()?;
    let mut header = [0u8; 4];
    s.read_exact(&mut header).ok()?;
    (header[0] == 1).then_some(s)
}
