//! Bot tests: legal and complete order sets in every phase kind, determinism,
//! DumbBot's evaluation details, and DumbBot's strength against the baselines.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::*;
use crate::budget::{Budget, CancelFlag};
use crate::diplomacy::game::Game;
use crate::diplomacy::judge::Rules;
use crate::diplomacy::play::{LocalGame, Outcome};
use crate::diplomacy::validate::check_order;
use crate::diplomacy::{GameView, Order, PhaseKind, Power, Season};

/// What the checking wrapper saw.
#[derive(Debug, Default)]
struct Seen {
    /// (bot, phase kind) pairs: "move", "retreat", "build", "remove".
    kinds: HashSet<(String, &'static str)>,
    errors: Vec<String>,
}

/// Wraps a bot and checks every order set it gives.
struct Checked {
    name: String,
    inner: BoxedBot,
    seen: Arc<Mutex<Seen>>,
}

fn check_set(view: &GameView, me: Power, orders: &[Order]) -> Result<&'static str, String> {
    let phase = view.phase;
    let bad = |m: String| Err(format!("{phase} power {}: {m}", me.0));
    if let Some(o) = orders.iter().find(|o| o.power() != me) {
        return bad(format!("order for another power {o:?}"));
    }
    match phase.season.kind() {
        PhaseKind::Movement | PhaseKind::Retreat => {
            let movement = phase.season.kind() == PhaseKind::Movement;
            let mut want: Vec<_> = if movement {
                view.units
                    .iter()
                    .filter(|u| u.power == me)
                    .copied()
                    .collect()
            } else {
                view.dislodged
                    .iter()
                    .filter(|d| d.unit.power == me)
                    .map(|d| d.unit)
                    .collect()
            };
            let mut got: Vec<_> = orders.iter().filter_map(|o| o.unit().copied()).collect();
            want.sort();
            got.sort();
            if want != got {
                return bad(format!("ordered {got:?}, units {want:?}"));
            }
            for o in orders {
                if let Err(e) = check_order(view, me, o, 0) {
                    return bad(format!("{o:?} refused: {e:?}"));
                }
            }
            if !movement {
                let mut to: Vec<_> = orders
                    .iter()
                    .filter_map(|o| match o {
                        Order::Retreat { to, .. } => Some(to.province),
                        _ => None,
                    })
                    .collect();
                let n = to.len();
                to.sort();
                to.dedup();
                if n != to.len() {
                    return bad("two retreats to one province".into());
                }
            }
            Ok(if movement { "move" } else { "retreat" })
        }
        PhaseKind::Adjustment => {
            let delta = view.adjustment(me);
            if orders.len() != delta.unsigned_abs() as usize {
                return bad(format!("{} orders for delta {delta}", orders.len()));
            }
            let mut left = delta;
            let mut places = HashSet::new();
            for o in orders {
                if let Err(e) = check_order(view, me, o, left) {
                    return bad(format!("{o:?} refused: {e:?}"));
                }
                if let Some(u) = o.unit()
                    && !places.insert(u.location.province)
                {
                    return bad(format!("{o:?} repeats a province"));
                }
                left -= delta.signum();
            }
            Ok(if delta > 0 { "build" } else { "remove" })
        }
    }
}

impl Player for Checked {
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        let orders = self.inner.orders(view, budget);
        if let (Some(me), Ok(mut seen)) = (view.me, self.seen.lock()) {
            match check_set(view, me, &orders) {
                Ok(kind) => {
                    seen.kinds.insert((self.name.clone(), kind));
                }
                Err(e) => seen.errors.push(format!("{}: {e}", self.name)),
            }
        }
        orders
    }

    fn observe(&mut self, view: &GameView, orders: &[Order]) {
        self.inner.observe(view, orders)
    }

    fn position(&mut self, view: &GameView) {
        self.inner.position(view)
    }
}

fn checked_seats(names: &[&str], seed: u64, seen: &Arc<Mutex<Seen>>) -> Vec<Box<dyn Player>> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            Box::new(Checked {
                name: n.to_string(),
                inner: make(n, seed * 100 + i as u64).unwrap(),
                seen: Arc::clone(seen),
            }) as Box<dyn Player>
        })
        .collect()
}

fn quick(end_year: i16) -> LocalGame {
    LocalGame {
        end_year,
        think_time: Duration::from_millis(50),
        ..LocalGame::default()
    }
}

#[test]
fn registry_knows_the_baselines_and_refuses_others() {
    for n in BOT_NAMES {
        assert!(make(n, 1).is_ok(), "{n}");
    }
    assert!(make("DumbBot", 1).is_ok(), "case-insensitive");
    let e = make("albert", 1).err().unwrap();
    assert!(e.to_string().contains("albert") && e.to_string().contains("dumbbot"));
    assert!(!is_known("albert"));
}

#[test]
fn every_bot_gives_legal_complete_orders_in_every_phase_kind() {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let seats = [
        "dumbbot", "randbot", "holdbot", "dumbbot", "randbot", "dumbbot", "holdbot",
    ];
    let want: &[(&str, &str)] = &[
        ("dumbbot", "move"),
        ("dumbbot", "retreat"),
        ("dumbbot", "build"),
        ("dumbbot", "remove"),
        ("randbot", "move"),
        ("randbot", "retreat"),
        ("randbot", "build"),
        ("randbot", "remove"),
        ("holdbot", "move"),
        ("holdbot", "retreat"),
    ];
    for game in 0..12u64 {
        let mut names = seats.to_vec();
        names.rotate_left(game as usize % 7);
        let mut players = checked_seats(&names, game, &seen);
        quick(1912).play_standard(&mut players).unwrap();
        let s = seen.lock().unwrap();
        assert!(s.errors.is_empty(), "{:#?}", s.errors);
        if want
            .iter()
            .all(|(b, k)| s.kinds.contains(&(b.to_string(), *k)))
        {
            return;
        }
    }
    let s = seen.lock().unwrap();
    let missing: Vec<_> = want
        .iter()
        .filter(|(b, k)| !s.kinds.contains(&(b.to_string(), *k)))
        .collect();
    panic!("phase kinds never seen: {missing:?}");
}

fn start() -> Game {
    Game::standard(Rules::default())
}

fn budget() -> Budget {
    Budget::new(Instant::now() + Duration::from_secs(1), CancelFlag::new())
}

#[test]
fn bots_are_deterministic_for_a_seed() {
    let g = start();
    // JIC is deterministic under its count budgets (its time budget is not).
    let counted = jic::JicConfig {
        max_evaluations: 200,
        max_search_nodes: 10_000,
        opponent_samples: 4,
        ..jic::JicConfig::default()
    };
    let far = || Budget::new(Instant::now() + Duration::from_secs(60), CancelFlag::new());
    for name in BOT_NAMES {
        for p in 0..7u8 {
            let view = g.view(Some(Power(p)));
            let a = make_with(name, 9, &counted).unwrap().orders(&view, far());
            let b = make_with(name, 9, &counted).unwrap().orders(&view, far());
            assert_eq!(a, b, "{name}");
        }
    }
    // Different seeds vary DumbBot's opening somewhere.
    let differ = (0..7u8).any(|p| {
        let view = g.view(Some(Power(p)));
        (1..20).any(|s| {
            make("dumbbot", 0).unwrap().orders(&view, budget())
                != make("dumbbot", s).unwrap().orders(&view, budget())
        })
    });
    assert!(differ);
}

#[test]
fn observers_get_no_orders() {
    let g = start();
    for name in BOT_NAMES {
        assert!(
            make(name, 1)
                .unwrap()
                .orders(&g.view(None), budget())
                .is_empty()
        );
    }
}

#[test]
fn dumbbot_goes_for_neutral_centres() {
    // With the original +c² size, neutral centres (owned by the 12-centre
    // neutral "power", size 208) attract: Austria's army in Budapest heads for
    // Serbia (or Rumania) in most openings, and Russia's and Turkey's too.
    let g = start();
    let m = g.map().clone();
    let aus = m.power("AUS").unwrap();
    let neutral: Vec<_> = ["SER", "RUM", "GRE", "BUL"]
        .iter()
        .map(|n| m.province(n).unwrap())
        .collect();
    let mut hits = 0;
    for seed in 0..40 {
        let orders = make("dumbbot", seed)
            .unwrap()
            .orders(&g.view(Some(aus)), budget());
        assert_eq!(orders.len(), 3);
        if orders.iter().any(|o| {
            matches!(o, Order::Move { to, .. } if neutral.contains(&to.province))
                || matches!(o, Order::SupportMove { to, .. } if neutral.contains(to))
        }) {
            hits += 1;
        }
    }
    assert!(
        hits >= 30,
        "only {hits}/40 Austrian openings went for a neutral centre"
    );
}

#[test]
fn dumbbot_power_size_is_the_original_formula() {
    let g = start();
    let view = g.view(Some(Power(0)));
    let sizes = dumbbot_sizes(&view);
    // Seven powers with 3 (Russia 4) centres, 12 neutral.
    let rus = g.map().power("RUS").unwrap().0 as usize;
    for (i, s) in sizes.iter().enumerate().take(7) {
        assert_eq!(*s, if i == rus { 48 } else { 37 });
    }
    assert_eq!(sizes[7], 12 * 12 + 4 * 12 + 16);
}

fn dumbbot_sizes(view: &GameView) -> Vec<i64> {
    dumbbot::power_sizes_for_tests(view)
}

/// DumbBot against the baselines: one DumbBot seat, three RandBot and three
/// HoldBot seats, rotated over the powers; DumbBot ends with clearly more
/// centres per seat than either baseline.
#[test]
fn dumbbot_beats_randbot_and_holdbot() {
    let seats = [
        "dumbbot", "randbot", "holdbot", "randbot", "holdbot", "randbot", "holdbot",
    ];
    let mut centres = std::collections::HashMap::<&str, (usize, usize)>::new();
    let mut dumb_solos = 0;
    for game in 0..7usize {
        let mut names = seats.to_vec();
        names.rotate_right(game);
        let mut players: Vec<Box<dyn Player>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| make(n, (game * 7 + i) as u64).unwrap())
            .collect();
        let r = quick(1910).play_standard(&mut players).unwrap();
        for (i, n) in names.iter().enumerate() {
            let e = centres.entry(n).or_default();
            e.0 += r.centres[i];
            e.1 += 1;
        }
        if let Outcome::Solo { winner, .. } = r.outcome
            && names[winner.0 as usize] == "dumbbot"
        {
            dumb_solos += 1;
        }
    }
    let mean = |n: &str| {
        let (c, k) = centres[n];
        c as f64 / k as f64
    };
    let (d, r, h) = (mean("dumbbot"), mean("randbot"), mean("holdbot"));
    assert!(
        d > 2.0 * r && d > 2.0 * h,
        "dumbbot {d:.2} randbot {r:.2} holdbot {h:.2} centres per seat; {dumb_solos} solos"
    );
}

#[test]
fn every_bot_removes_and_builds_exactly_what_is_owed() {
    let g = start();
    let m = g.map().clone();
    let aus = m.power("AUS").unwrap();
    // Austria loses Trieste to Italy: one removal owed.
    let mut view = g.view(Some(aus));
    view.phase.season = Season::Winter;
    view.owners
        .insert(m.province("TRI").unwrap(), m.power("ITA").unwrap());
    // Italy gains it and has Naples empty: one build owed.
    let ita = m.power("ITA").unwrap();
    let mut ita_view = view.clone();
    ita_view.me = Some(ita);
    ita_view
        .units
        .retain(|u| u.location.province != m.province("NAP").unwrap());
    for name in BOT_NAMES {
        let mut bot = make(name, 3).unwrap();
        let orders = bot.orders(&view, budget());
        assert_eq!(check_set(&view, aus, &orders), Ok("remove"), "{name}");
        let orders = bot.orders(&ita_view, budget());
        assert_eq!(check_set(&ita_view, ita, &orders), Ok("build"), "{name}");
    }
}
