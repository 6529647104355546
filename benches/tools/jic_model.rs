//! Calibrates JIC's opponent model: plays local games of a `tablero
//! diplomacy play` tournament (same seeds and seat rotation) and prints, for
//! every other seat each JIC seat watched, the share of its units a DumbBot
//! sample explained: with every power's orders reported (`reported`), and
//! from the positions alone (`positions`: where the units ended, what a
//! server that reports no other power's orders shows). One line per seat
//! name and rule: seats scored, min, mean, max; then every seat's shares.
//!
//! ```sh
//! cargo run --release --example jic_model -- \
//!     --seats jic,jic,jic,dumbbot,dumbbot,dumbbot,dumbbot --games 14 --end-year 1910 \
//!     [--seed 0] [--jobs 2] [--set jic.key=value ...]
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tablero::bots;
use tablero::bots::jic::JicBot;
use tablero::bots::jic::model::Tally;
use tablero::budget::Budget;
use tablero::config::Config;
use tablero::diplomacy::map::Map;
use tablero::diplomacy::model::{Order, Power};
use tablero::diplomacy::play::LocalGame;
use tablero::diplomacy::{GameView, Player};
use tablero::tournament::diplomacy::{bot_seed, game_seed};

/// A JIC seat the caller can read after the game.
struct Shared(Arc<Mutex<JicBot>>);

impl Player for Shared {
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        self.0
            .lock()
            .map(|mut b| b.orders(view, budget))
            .unwrap_or_default()
    }
    fn observe(&mut self, view: &GameView, orders: &[Order]) {
        if let Ok(mut b) = self.0.lock() {
            b.observe(view, orders);
        }
    }
    fn position(&mut self, view: &GameView) {
        if let Ok(mut b) = self.0.lock() {
            b.position(view);
        }
    }
}

/// One watched seat: its name, and its reported and positions tallies.
type Row = (String, Tally, Tally);

fn play(config: &Config, seats: &[String], seed: u64, g: usize, end_year: i16) -> Vec<Row> {
    let n = seats.len();
    let gs = game_seed(seed, g);
    let seat_of = |power: usize| (power + n - g % n) % n;
    let mut players: Vec<Box<dyn Player>> = Vec::new();
    let mut jics: Vec<(usize, Arc<Mutex<JicBot>>)> = Vec::new();
    for power in 0..n {
        let s = seat_of(power);
        let name = seats[s].as_str();
        if name == "jic" {
            let bot = Arc::new(Mutex::new(JicBot::new(config.jic.clone(), bot_seed(gs, s))));
            jics.push((power, bot.clone()));
            players.push(Box::new(Shared(bot)));
        } else if let Ok(bot) = bots::make_with(name, bot_seed(gs, s), &config.jic) {
            players.push(bot);
        }
    }
    let local = LocalGame {
        end_year,
        think_time: Duration::from_secs(60),
        ..LocalGame::default()
    };
    if let Err(e) = local.play_standard(&mut players) {
        eprintln!("game {g}: {e}");
        return Vec::new();
    }
    let mut rows = Vec::new();
    for (me, bot) in &jics {
        let Ok(bot) = bot.lock() else { continue };
        for q in (0..n).filter(|q| q != me) {
            let t = bot.opponent_model().tally(Power(q as u8));
            rows.push((seats[seat_of(q)].clone(), t.reported, t.positions));
        }
    }
    rows
}

fn summary(label: &str, shares: &[f64]) -> String {
    if shares.is_empty() {
        return format!("{label}: none");
    }
    let min = shares.iter().copied().fold(f64::INFINITY, f64::min);
    let max = shares.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    format!(
        "{label}: n={} min={min:.2} mean={mean:.2} max={max:.2}",
        shares.len()
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seats = "jic,jic,jic,dumbbot,dumbbot,dumbbot,dumbbot".to_string();
    let (mut games, mut seed, mut end_year, mut jobs) = (14usize, 0u64, 1910i16, 2usize);
    let mut sets: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--seats" => seats = v,
            "--games" => games = v.parse()?,
            "--seed" => seed = v.parse()?,
            "--end-year" => end_year = v.parse()?,
            "--jobs" => jobs = v.parse()?,
            "--set" => sets.push(v),
            other => return Err(format!("unknown argument {other}").into()),
        }
        i += 2;
    }
    let config = Config::load(None, &sets)?;
    let seats: Vec<String> = seats.split(',').map(|s| s.trim().to_string()).collect();
    if seats.len() != Map::standard().power_count() {
        return Err("seven seats needed".into());
    }
    let next = Arc::new(Mutex::new(0usize));
    let rows = Arc::new(Mutex::new(Vec::new()));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let (next, rows, config, seats) = (&next, &rows, &config, &seats);
            scope.spawn(move || {
                loop {
                    let g = match next.lock() {
                        Ok(mut n) if *n < games => {
                            *n += 1;
                            *n - 1
                        }
                        _ => return,
                    };
                    let r = play(config, seats, seed, g, end_year);
                    eprintln!("game {g} done");
                    if let Ok(mut all) = rows.lock() {
                        all.extend(r);
                    }
                }
            });
        }
    });
    let rows = rows.lock().map(|r| r.clone()).unwrap_or_default();
    let mut names: Vec<&String> = rows.iter().map(|r| &r.0).collect();
    names.sort();
    names.dedup();
    let min_seen = tablero::bots::jic::model::MIN_ORDERS;
    for name in names {
        let mine: Vec<&Row> = rows.iter().filter(|r| &r.0 == name).collect();
        let share = |t: &Tally| (t.seen >= min_seen).then(|| t.share()).flatten();
        let reported: Vec<f64> = mine.iter().filter_map(|r| share(&r.1)).collect();
        let positions: Vec<f64> = mine.iter().filter_map(|r| share(&r.2)).collect();
        println!("{}", summary(&format!("{name} reported"), &reported));
        println!("{}", summary(&format!("{name} positions"), &positions));
        let mut sorted = positions.clone();
        sorted.sort_by(f64::total_cmp);
        let list: Vec<String> = sorted.iter().map(|s| format!("{s:.2}")).collect();
        println!("  {name} positions sorted: {}", list.join(" "));
    }
    Ok(())
}
