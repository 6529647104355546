//! Replays one game of a `tablero diplomacy play` tournament and prints, per
//! phase, the centre counts, the orders of the seats named in `--watch` and
//! every centre that changed hands (for analysing JIC's losses).
//!
//! ```sh
//! cargo run --release --example jic_trace -- \
//!     --seats jic-thesis,dumbbot,jic-thesis,dumbbot,jic-thesis,dumbbot,dumbbot \
//!     --game 6 [--seed 0] [--end-year 1930] [--set jic.key=value ...] [--watch jic-thesis]
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use tablero::bots;
use tablero::budget::{Budget, CancelFlag};
use tablero::config::Config;
use tablero::diplomacy::game::Game;
use tablero::diplomacy::judge::Rules;
use tablero::diplomacy::map::Map;
use tablero::diplomacy::model::{Order, Power};
use tablero::tournament::diplomacy::{bot_seed, game_seed};

fn loc(map: &Map, l: tablero::diplomacy::model::Location) -> String {
    let mut s = map.name(l.province).to_string();
    if let Some(c) = l.coast {
        s.push_str(&format!("/{c:?}"));
    }
    s
}

fn show(map: &Map, o: &Order) -> String {
    let u = |u: &tablero::diplomacy::model::Unit| {
        let k = match u.kind {
            tablero::diplomacy::model::UnitType::Army => "A",
            tablero::diplomacy::model::UnitType::Fleet => "F",
        };
        format!("{k} {}", loc(map, u.location))
    };
    match o {
        Order::Hold(x) => format!("{} H", u(x)),
        Order::Move { unit, to, via } => format!(
            "{}-{}{}",
            u(unit),
            loc(map, *to),
            if via.is_some() { " VIA" } else { "" }
        ),
        Order::SupportHold { unit, supported } => format!("{} S {}", u(unit), u(supported)),
        Order::SupportMove {
            unit,
            supported,
            to,
        } => format!("{} S {}-{}", u(unit), u(supported), map.name(*to)),
        Order::Convoy { unit, army, to } => {
            format!("{} C {}-{}", u(unit), u(army), map.name(*to))
        }
        Order::Retreat { unit, to } => format!("{} R {}", u(unit), loc(map, *to)),
        Order::Disband(x) => format!("{} D", u(x)),
        Order::Build(x) => format!("build {}", u(x)),
        Order::Remove(x) => format!("remove {}", u(x)),
        Order::Waive(_) => "waive".to_string(),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seats = String::new();
    let mut g = 0usize;
    let mut seed = 0u64;
    let mut end_year = 1930i16;
    let mut watch: Vec<String> = Vec::new();
    let mut sets: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--seats" => seats = v,
            "--game" => g = v.parse()?,
            "--seed" => seed = v.parse()?,
            "--end-year" => end_year = v.parse()?,
            "--watch" => watch.push(v.to_ascii_lowercase()),
            "--set" => sets.push(v),
            other => return Err(format!("unknown argument {other}").into()),
        }
        i += 2;
    }
    let config = Config::load(None, &sets)?;
    let seats: Vec<String> = seats.split(',').map(|s| s.trim().to_string()).collect();
    if watch.is_empty() {
        watch = seats
            .iter()
            .filter(|s| s.starts_with("jic"))
            .cloned()
            .collect();
    }
    let map = Map::standard();
    let n = map.power_count();
    if seats.len() != n {
        return Err("seven seats needed".into());
    }
    let gs = game_seed(seed, g);
    let seat_of = |power: usize| (power + n - g % n) % n;
    let mut players = Vec::new();
    for power in 0..n {
        let s = seat_of(power);
        players.push(bots::make_with(&seats[s], bot_seed(gs, s), &config.jic)?);
    }
    let mut game = Game::standard(Rules::default());
    loop {
        let phase = game.phase();
        if game.solo_winner().is_some() || phase.year > end_year {
            break;
        }
        let counts: Vec<String> = (0..n)
            .map(|p| {
                format!(
                    "{}({}):{}",
                    map.power_name(Power(p as u8)).unwrap_or("?"),
                    seats[seat_of(p)],
                    game.centre_count(Power(p as u8))
                )
            })
            .collect();
        println!("== {phase} {}", counts.join(" "));
        let mut orders = Vec::new();
        for (p, player) in players.iter_mut().enumerate() {
            let me = Power(p as u8);
            let view = game.view(Some(me));
            player.position(&view);
            if !view.needs_orders(me) {
                continue;
            }
            let budget = Budget::new(Instant::now() + Duration::from_secs(60), CancelFlag::new());
            let os: Vec<Order> = player
                .orders(&view, budget)
                .into_iter()
                .filter(|o| o.power() == me)
                .collect();
            if watch.contains(&seats[seat_of(p)].to_ascii_lowercase()) {
                let list: Vec<String> = os.iter().map(|o| show(&map, o)).collect();
                println!(
                    "  {}: {}",
                    map.power_name(me).unwrap_or("?"),
                    list.join(", ")
                );
            }
            orders.extend(os);
        }
        let seen = game.view(None);
        for player in players.iter_mut() {
            player.observe(&seen, &orders);
        }
        let before = game.owners().clone();
        game.process(&orders)?;
        let who = |p: Option<&Power>| {
            p.map_or("neutral".to_string(), |p| {
                let name = map.power_name(*p).unwrap_or("?");
                format!("{name}({})", seats[seat_of(p.0 as usize)])
            })
        };
        let mut moved: Vec<String> = game
            .owners()
            .iter()
            .filter(|(c, p)| before.get(c) != Some(p))
            .map(|(c, p)| format!("{} {}->{}", map.name(*c), who(before.get(c)), who(Some(p))))
            .collect();
        moved.sort();
        if !moved.is_empty() {
            println!("  centres: {}", moved.join(", "));
        }
    }
    let counts: Vec<String> = (0..n)
        .map(|p| {
            format!(
                "{}:{}",
                map.power_name(Power(p as u8)).unwrap_or("?"),
                game.centre_count(Power(p as u8))
            )
        })
        .collect();
    println!("end {} {}", game.phase(), counts.join(" "));
    Ok(())
}
