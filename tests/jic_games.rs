//! JIC end to end: bounded decision time with 17-unit positions, deadlock
//! repair over repeated bounces, short games against simple opponents, and
//! (ignored) the measurement harness for tournaments with seat rotation.
//!
//! Harness: `cargo test --release --test jic_games -- --ignored --nocapture
//! measure` with `JIC_SEATS="jic:3,dumbbot:4"` (names: jic, jic-thesis,
//! hold, random, and — once `bots::make` is merged — any registered bot),
//! `JIC_GAMES` (default 14), `JIC_END_YEAR` (default 1930), `JIC_THINK_MS`
//! (default 200).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tablero::bots::jic::{CoordinatorMode, JicBot, JicConfig, JicMode};
use tablero::budget::{Budget, CancelFlag};
use tablero::diplomacy::game::standard_opening;
use tablero::diplomacy::judge::Rules;
use tablero::diplomacy::play::{LocalGame, Outcome};
use tablero::diplomacy::validate::check_order;
use tablero::diplomacy::{
    Game, GameView, Location, Map, Order, Phase, PhaseKind, Player, Power, Season, Unit, UnitType,
};

fn budget(ms: u64) -> Budget {
    Budget::new(
        Instant::now() + Duration::from_millis(ms),
        CancelFlag::new(),
    )
}

/// A position where `power` has a unit on every province it can, up to 17.
fn big_position(map: &Map, power: Power, others: bool) -> Game {
    let mut units: Vec<Unit> = Vec::new();
    let mut owners = HashMap::new();
    let mut provinces: Vec<_> = map.provinces().map(|(p, _)| p).collect();
    // Centres first, so ownership is plausible.
    provinces.sort_by_key(|p| !map.info(*p).is_some_and(|i| i.supply_centre));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(power.0 as u64);
    for p in provinces {
        let info = map.info(p).unwrap();
        let kind = if info.kind == tablero::diplomacy::ProvinceKind::Sea {
            UnitType::Fleet
        } else if info.kind == tablero::diplomacy::ProvinceKind::Inland
            || info.kind == tablero::diplomacy::ProvinceKind::Bicoastal
            || rng.gen_bool(0.6)
        {
            UnitType::Army
        } else {
            UnitType::Fleet
        };
        let mine = units.iter().filter(|u| u.power == power).count();
        let owner = if mine < 17 {
            power
        } else if others && Power(((p.0 as usize) % 7) as u8) != power {
            Power(((p.0 as usize) % 7) as u8)
        } else {
            continue;
        };
        if owner != power && (rng.gen_bool(0.4) || units.len() >= 34) {
            continue;
        }
        units.push(Unit {
            power: owner,
            kind,
            location: Location::new(p),
        });
        if info.supply_centre {
            owners.insert(p, owner);
        }
    }
    Game::from_position(
        map.clone(),
        Phase {
            year: 1910,
            season: Season::Spring,
        },
        units,
        owners,
        Vec::new(),
        Rules::default(),
    )
    .unwrap()
}

#[test]
fn seventeen_units_decide_inside_the_budget() {
    let map = Map::standard();
    for (p, _) in map.powers().take(3) {
        let g = big_position(&map, p, true);
        let view = g.view(Some(p));
        let mine = g.units().iter().filter(|u| u.power == p).count();
        assert_eq!(mine, 17);
        for mode in [JicMode::Thesis, JicMode::Strong] {
            for ms in [50u64, 300] {
                let mut bot = default_bot(mode, 7);
                let t = Instant::now();
                let orders = bot.orders(&view, budget(ms));
                let took = t.elapsed();
                assert!(
                    took < Duration::from_millis(ms + 100),
                    "{mode:?} {ms} ms budget took {took:?}"
                );
                assert_eq!(orders.len(), 17, "{mode:?}");
                for o in &orders {
                    assert!(check_order(&view, p, o, 0).is_ok(), "{o:?}");
                }
                // The joint action never sends two own units into one province.
                let mut dests: Vec<_> = orders
                    .iter()
                    .filter_map(|o| match o {
                        Order::Move { to, .. } => Some(to.province),
                        _ => None,
                    })
                    .collect();
                let n = dests.len();
                dests.sort();
                dests.dedup();
                assert_eq!(n, dests.len());
                assert_ne!(bot.last_stats().mode, CoordinatorMode::FullSearch);
            }
        }
    }
}

/// A JIC bot with the default configuration in `mode`.
fn default_bot(mode: JicMode, seed: u64) -> JicBot {
    JicBot::new(
        JicConfig {
            mode,
            ..JicConfig::default()
        },
        seed,
    )
}

/// With a tiny phase budget (10 % of it is the decision deadline), every
/// decision — plan generation, coordinator, strong evaluation — stops at the
/// deadline and the order set is ready inside the phase budget, for 17-unit
/// positions in both modes. A wall-clock overrun is measured again (up to three
/// times, each with a new bot): the test machine may deschedule the thread for
/// longer than the budget's margin, but a bot that overruns its deadline does so
/// every time.
#[test]
fn tiny_budgets_are_kept() {
    let map = Map::standard();
    for (p, _) in map.powers() {
        let g = big_position(&map, p, true);
        let view = g.view(Some(p));
        for mode in [JicMode::Thesis, JicMode::Strong] {
            for ms in [30u64, 60] {
                let mut times = Vec::new();
                for _ in 0..3 {
                    let mut bot = default_bot(mode, 3);
                    let t = Instant::now();
                    let orders = bot.orders(&view, budget(ms));
                    let took = t.elapsed();
                    eprintln!("{mode:?} {ms} ms: {took:?}");
                    assert_eq!(orders.len(), 17, "{mode:?}");
                    for o in &orders {
                        assert!(check_order(&view, p, o, 0).is_ok(), "{o:?}");
                    }
                    times.push(took);
                    if took <= Duration::from_millis(ms) {
                        break;
                    }
                }
                assert!(
                    times.iter().any(|t| *t <= Duration::from_millis(ms)),
                    "{mode:?}: {ms} ms phase budget, decisions took {times:?}"
                );
            }
        }
    }
}

#[test]
fn repeated_bounces_trigger_deadlock_repair() {
    let map = Map::standard();
    let p = |n: &str| map.province(n).unwrap();
    let tur = map.power("TUR").unwrap();
    let eng = map.power("ENG").unwrap();
    let a = |pw, n: &str| Unit {
        power: pw,
        kind: UnitType::Army,
        location: Location::new(p(n)),
    };
    // Turkey's armies around BER (English army holding, supported).
    let units = vec![
        a(tur, "SIL"),
        a(tur, "MUN"),
        a(tur, "PRU"),
        a(tur, "BOH"),
        a(eng, "BER"),
        a(eng, "KIE"),
    ];
    let mut owners = HashMap::new();
    owners.insert(p("BER"), eng);
    owners.insert(p("KIE"), eng);
    owners.insert(p("MUN"), tur);
    let g = Game::from_position(
        map.clone(),
        Phase {
            year: 1926,
            season: Season::Spring,
        },
        units,
        owners,
        Vec::new(),
        Rules::default(),
    )
    .unwrap();
    let view = g.view(Some(tur));
    let mut bot = JicBot::new(JicConfig::thesis(), 3);
    let first = bot.orders(&view, budget(1000));
    assert_ne!(
        bot.last_stats().mode,
        CoordinatorMode::DeadlockRepair,
        "{first:?}"
    );
    // Same position again: the moves bounced.
    let second = bot.orders(&view, budget(1000));
    assert_eq!(
        first, second,
        "thesis JIC is deterministic for one position"
    );
    let third = bot.orders(&view, budget(1000));
    assert_eq!(
        bot.last_stats().mode,
        CoordinatorMode::DeadlockRepair,
        "{third:?}"
    );
    assert_ne!(second, third, "deadlock repair changes the action");
    for o in &third {
        assert!(check_order(&view, tur, o, 0).is_ok(), "{o:?}");
    }
}

fn hold() -> Box<dyn Player> {
    Box::new(|view: &GameView, _: Budget| {
        let Some(me) = view.me else { return Vec::new() };
        match view.phase.season.kind() {
            PhaseKind::Movement => view
                .units
                .iter()
                .filter(|u| u.power == me)
                .map(|u| Order::Hold(*u))
                .collect(),
            PhaseKind::Retreat => view
                .dislodged
                .iter()
                .filter(|d| d.unit.power == me)
                .map(|d| Order::Disband(d.unit))
                .collect(),
            PhaseKind::Adjustment => Vec::new(),
        }
    })
}

fn random(seed: u64) -> Box<dyn Player> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    Box::new(move |view: &GameView, _: Budget| {
        let Some(me) = view.me else { return Vec::new() };
        if view.phase.season.kind() != PhaseKind::Movement {
            return Vec::new();
        }
        view.units
            .iter()
            .filter(|u| u.power == me)
            .map(|u| {
                let to: Vec<Location> = match u.kind {
                    UnitType::Army => view
                        .map
                        .army_neighbours(u.location.province)
                        .iter()
                        .map(|p| Location::new(*p))
                        .collect(),
                    UnitType::Fleet => view.map.fleet_neighbours(u.location).to_vec(),
                };
                match to.choose(&mut rng) {
                    Some(t) => Order::Move {
                        unit: *u,
                        to: *t,
                        via: None,
                    },
                    None => Order::Hold(*u),
                }
            })
            .collect()
    })
}

/// Decision times of every JIC movement decision in the harness.
static TIMES: std::sync::Mutex<Vec<Duration>> = std::sync::Mutex::new(Vec::new());

/// Records the time of each movement-phase decision.
struct Timed(JicBot);

impl Player for Timed {
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        let t = Instant::now();
        let o = self.0.orders(view, budget);
        if view.phase.season.kind() == PhaseKind::Movement
            && let Ok(mut v) = TIMES.lock()
        {
            v.push(t.elapsed());
        }
        o
    }

    fn observe(&mut self, view: &GameView, orders: &[Order]) {
        self.0.observe(view, orders)
    }

    fn position(&mut self, view: &GameView) {
        self.0.position(view)
    }
}

/// JIC with count budgets (so games do not depend on machine load).
fn counted(mode: JicMode) -> JicConfig {
    JicConfig {
        mode,
        max_evaluations: 300,
        max_search_nodes: 20_000,
        opponent_samples: 6,
        ..JicConfig::default()
    }
}

fn make(name: &str, seed: u64) -> Box<dyn Player> {
    match name {
        "jic" => Box::new(Timed(JicBot::new(counted(JicMode::Strong), seed))),
        "jic-thesis" => Box::new(Timed(JicBot::new(counted(JicMode::Thesis), seed))),
        "hold" | "holdbot" => hold(),
        "random" | "randbot" => random(seed),
        other => tablero::bots::make(other, seed).unwrap_or_else(|e| panic!("{e}")),
    }
}

#[test]
fn jic_grows_against_holding_and_random_opponents() {
    let map = Map::standard();
    for (mode, seat) in [("jic", 6usize), ("jic-thesis", 2)] {
        let mut players: Vec<Box<dyn Player>> = (0..7)
            .map(|i| {
                if i == seat {
                    make(mode, 1)
                } else if i % 2 == 0 {
                    hold()
                } else {
                    random(i as u64)
                }
            })
            .collect();
        let g = LocalGame {
            end_year: 1906,
            think_time: Duration::from_secs(20),
            rules: Rules::default(),
        };
        let r = g.play_standard(&mut players).unwrap();
        let jic = r.centres[seat];
        assert!(
            jic >= 8,
            "{mode} as {} has {jic} centres in 1906: {:?}",
            map.power_name(Power(seat as u8)).unwrap(),
            r.centres
        );
    }
}

#[test]
fn count_budgets_make_games_reproducible() {
    let play = || {
        let mut players: Vec<Box<dyn Player>> = (0..7)
            .map(|i| -> Box<dyn Player> {
                if i % 3 == 0 {
                    Box::new(JicBot::new(counted(JicMode::Strong), 40 + i))
                } else {
                    tablero::bots::make("dumbbot", i).unwrap()
                }
            })
            .collect();
        LocalGame {
            end_year: 1904,
            think_time: Duration::from_secs(20),
            rules: Rules::default(),
        }
        .play_standard(&mut players)
        .unwrap()
    };
    let a = play();
    let b = play();
    assert_eq!(a, b);
    assert!(a.centres.iter().sum::<usize>() > 22, "centres taken: {a:?}");
}

/// Per bot kind: seats, solos, survived (not won), eliminated, centres, win years.
type Tally = (usize, usize, usize, usize, usize, Vec<i16>);

/// Wilson score interval (95 %).
fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let n = n as f64;
    let p = k as f64 / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

#[test]
#[ignore]
fn trace() {
    let seat: usize = std::env::var("JIC_SEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let name = std::env::var("JIC_BOT").unwrap_or_else(|_| "jic-thesis".into());
    let map = Map::standard();
    let mut game = Game::new(
        map.clone(),
        Phase {
            year: 1901,
            season: Season::Spring,
        },
        standard_opening(&map),
        Rules::default(),
    )
    .unwrap();
    let opp = std::env::var("JIC_OPP").ok();
    let mut players: Vec<Box<dyn Player>> = (0..7)
        .map(|i| match (&opp, i == seat) {
            (_, true) => make(&name, 1),
            (Some(o), false) => make(o, i as u64),
            (None, false) if i % 2 == 0 => hold(),
            (None, false) => random(i as u64),
        })
        .collect();
    let end: i16 = std::env::var("JIC_END_YEAR")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1906);

    let me = Power(seat as u8);
    while game.phase().year <= end && game.solo_winner().is_none() {
        let mut orders = Vec::new();
        for (i, pl) in players.iter_mut().enumerate() {
            let v = game.view(Some(Power(i as u8)));
            if v.needs_orders(Power(i as u8)) {
                let o = pl.orders(&v, budget(200));
                if i == seat {
                    let txt: Vec<String> = o.iter().map(|o| fmt(&map, o)).collect();
                    println!(
                        "{} [{}] {}",
                        game.phase(),
                        game.centre_count(me),
                        txt.join(", ")
                    );
                }
                orders.extend(o);
            }
        }
        game.process(&orders).unwrap();
    }
}

fn fmt(map: &Map, o: &Order) -> String {
    let n = |u: &Unit| {
        format!(
            "{}{}",
            if u.kind == UnitType::Army { "A " } else { "F " },
            map.name(u.location.province)
        )
    };
    match o {
        Order::Hold(u) => format!("{} H", n(u)),
        Order::Move { unit, to, via } => format!(
            "{}-{}{}",
            n(unit),
            map.name(to.province),
            if via.is_some() { " VIA" } else { "" }
        ),
        Order::SupportHold { unit, supported } => format!("{} S {}", n(unit), n(supported)),
        Order::SupportMove {
            unit,
            supported,
            to,
        } => format!("{} S {}-{}", n(unit), n(supported), map.name(*to)),
        Order::Convoy { unit, army, to } => format!("{} C {}-{}", n(unit), n(army), map.name(*to)),
        Order::Retreat { unit, to } => format!("{} R {}", n(unit), map.name(to.province)),
        Order::Disband(u) => format!("{} D", n(u)),
        Order::Build(u) => format!("B {}", n(u)),
        Order::Remove(u) => format!("R {}", n(u)),
        Order::Waive(_) => "W".into(),
    }
}

#[test]
#[ignore]
fn measure() {
    let seats = std::env::var("JIC_SEATS").unwrap_or_else(|_| "jic:3,hold:4".into());
    let games: usize = std::env::var("JIC_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(14);
    let end_year: i16 = std::env::var("JIC_END_YEAR")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1930);
    let think: u64 = std::env::var("JIC_THINK_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut names: Vec<String> = Vec::new();
    for part in seats.split(',') {
        let (n, k) = part.split_once(':').unwrap_or((part, "1"));
        for _ in 0..k.parse::<usize>().unwrap_or(1) {
            names.push(n.to_string());
        }
    }
    assert_eq!(names.len(), 7, "JIC_SEATS must fill 7 seats");
    let mut kinds: Vec<String> = names.clone();
    kinds.sort();
    kinds.dedup();
    let mut stats: HashMap<String, Tally> = HashMap::new();
    let mut draws = 0;
    let mut per_power_jic: Vec<(usize, usize)> = vec![(0, 0); 7];
    let t0 = Instant::now();
    for g in 0..games {
        // Seat rotation: game g shifts the assignment by g (mod 7), and a
        // second shuffle every 7 games varies the pattern.
        let mut order = names.clone();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64((g / 7) as u64);
        order.shuffle(&mut rng);
        order.rotate_left(g % 7);
        let mut players: Vec<Box<dyn Player>> = order
            .iter()
            .enumerate()
            .map(|(i, n)| make(n, (g * 7 + i) as u64))
            .collect();
        let lg = LocalGame {
            end_year,
            think_time: Duration::from_millis(think),
            rules: Rules::default(),
        };
        let r = lg.play_standard(&mut players).unwrap();
        let winner = match &r.outcome {
            Outcome::Solo { winner, year } => Some((*winner, *year)),
            Outcome::Draw { .. } => {
                draws += 1;
                None
            }
        };
        for (i, n) in order.iter().enumerate() {
            let e = stats.entry(n.clone()).or_default();
            e.0 += 1;
            e.4 += r.centres[i];
            let won = winner.is_some_and(|(w, _)| w.0 as usize == i);
            if won {
                e.1 += 1;
                e.5.push(winner.map(|w| w.1).unwrap_or(0));
            } else if r.eliminated[i].is_some() {
                e.3 += 1;
            } else {
                e.2 += 1;
            }
            if n.starts_with("jic") {
                per_power_jic[i].0 += 1;
                per_power_jic[i].1 += usize::from(won);
            }
        }
        eprintln!(
            "game {g}: {:?} {:?} centres {:?} ({:.0?})",
            order,
            r.outcome,
            r.centres,
            t0.elapsed()
        );
    }
    println!(
        "\n{games} games, seats {seats}, year cap {end_year}, think {think} ms, draws {draws}"
    );
    println!(
        "bot | seats | solo | solo% (95% Wilson) | game win% | survived% (of non-won) | eliminated | avg centres | avg win year"
    );
    for k in &kinds {
        let (s, w, sv, el, c, yrs) = &stats[k];
        let (lo, hi) = wilson(*w, *s);
        let seats_per_game = names.iter().filter(|n| *n == k).count();
        let game_wins = *w as f64 / games as f64;
        let (glo, ghi) = wilson(*w, games);
        let surv = *sv as f64 / (*s - *w).max(1) as f64;
        let avg_year = if yrs.is_empty() {
            0.0
        } else {
            yrs.iter().map(|y| *y as f64).sum::<f64>() / yrs.len() as f64
        };
        println!(
            "{k} | {s} | {w} | {:.1}% [{:.1}, {:.1}] | {:.1}% [{:.1}, {:.1}] ({} seats/game) | {:.1}% | {el} | {:.2} | {avg_year:.1}",
            100.0 * *w as f64 / *s as f64,
            100.0 * lo,
            100.0 * hi,
            100.0 * game_wins,
            100.0 * glo,
            100.0 * ghi,
            seats_per_game,
            100.0 * surv,
            *c as f64 / *s as f64
        );
    }
    let map = Map::standard();
    let line: Vec<String> = per_power_jic
        .iter()
        .enumerate()
        .map(|(i, (n, w))| format!("{} {w}/{n}", map.power_name(Power(i as u8)).unwrap_or("?")))
        .collect();
    println!("JIC wins per power: {}", line.join(", "));
    if let Ok(mut t) = TIMES.lock()
        && !t.is_empty()
    {
        t.sort();
        println!(
            "JIC movement decision time: median {:?}, p90 {:?}, max {:?} over {} decisions",
            t[t.len() / 2],
            t[t.len() * 9 / 10],
            t[t.len() - 1],
            t.len()
        );
    }
}
