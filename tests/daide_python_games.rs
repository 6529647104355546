//! Tournament games on the `diplomacy` 1.1.2 (PyPI) server: tablero's bots as DAIDE clients
//! of the Python server, seats rotated over the powers as in `tablero diplomacy play`, the
//! same summary (wins with Wilson intervals, survival, mean centres). The turn handling on
//! that server is checked by `tests/daide_interop.rs`. A benchmark, not part of the ordinary
//! suite:
//!
//! ```sh
//! export TABLERO_DIPLOMACY_PYTHON=$(bash tests/daide_interop/setup.sh /tmp/dipvenv)
//! PY_GAMES=28 PY_JOBS=2 cargo test --release --test daide_python_games -- --ignored --nocapture
//! ```
//!
//! `PY_SEATS` (default `jic,dumbbot,jic,dumbbot,jic,dumbbot,dumbbot`), `PY_END_YEAR` (1930),
//! `PY_SEED` (0), `PY_FIRST` (the first game's index, 0: to replay one game of a run) and `PY_SET` (config overrides separated by spaces; default the README's
//! count budgets for JIC) change the setting. That server sets no deadline here, so every
//! client thinks for at most its `think_time` (5 s) per phase.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod daide_common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use daide_common::python::PythonServer;
use tablero::config::Config;
use tablero::daide::client::{ClientConfig, run_client};
use tablero::tournament::diplomacy::{
    GameResult, PlaySettings, SeatResult, Transport, bot_seed, game_seed, summarize,
};

const POWERS: [&str; 7] = ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"];

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_string())
}

/// One game on a fresh Python server: the result, or why it failed.
async fn one_game(
    python: String,
    settings: Arc<PlaySettings>,
    g: usize,
) -> Result<GameResult, String> {
    let started = Instant::now();
    let mut server = PythonServer::start(&python, settings.end_year as u32).await;
    let seed = game_seed(settings.seed, g);
    let mut clients = Vec::new();
    for (power, name) in POWERS.iter().enumerate() {
        let s = (power + 7 - g % 7) % 7;
        let player = tablero::bots::make_with(&settings.seats[s], bot_seed(seed, s), &settings.jic)
            .map_err(|e| e.to_string())?;
        let stream = server.connect().await;
        let config = ClientConfig {
            name: format!("{name}:{}", settings.seats[s]),
            think_time: settings.think_time,
            ..ClientConfig::default()
        };
        clients.push(tokio::spawn(run_client(stream, config, player)));
    }
    let mut phase = String::from("the start");
    // A phase that lasts longer than every client's think time many times over is a stall.
    let stall = settings.think_time * 24;
    let result = loop {
        let line = tokio::time::timeout(stall, server.lines.next_line()).await;
        let Ok(Ok(Some(l))) = line else {
            let _ = server.child.kill().await;
            for c in &clients {
                c.abort();
            }
            return Err(match line {
                Err(_) => format!("the python server stalled at {phase}"),
                Ok(_) => format!("the python server ended at {phase} without a result"),
            });
        };
        if let Some(p) = l.strip_prefix("PHASE ") {
            phase = p.to_string();
        }
        if let Some(json) = l.strip_prefix("RESULT ") {
            break json.to_string();
        }
    };
    let per_power: BTreeMap<String, BTreeMap<String, usize>> =
        serde_json::from_str(&result).map_err(|e| format!("{e}: {result}"))?;
    let _ = server.child.kill().await;
    // The server is gone mid-game (the year cap is the harness's): the clients stop on EOF.
    for c in clients {
        c.abort();
    }
    let winner = per_power
        .iter()
        .find(|(_, v)| v.get("centres").copied().unwrap_or(0) >= 18)
        .map(|(k, _)| k.clone());
    let seats = (0..7)
        .map(|s| {
            let power = POWERS[(s + g) % 7];
            let of = |k: &str| per_power.get(power).and_then(|v| v.get(k)).copied();
            let centres = of("centres").unwrap_or(0);
            let gone = centres == 0 && of("units").unwrap_or(0) == 0;
            SeatResult {
                bot: settings.seats[s].clone(),
                power: power.to_string(),
                centres,
                won: winner.as_deref() == Some(power),
                // The server reports no year of elimination; the last year stands for it.
                eliminated: gone.then_some(settings.end_year),
                daide: None,
            }
        })
        .collect();
    Ok(GameResult {
        game: g,
        seed,
        seats,
        solo_year: winner.map(|_| settings.end_year),
        last_year: settings.end_year,
        wall_seconds: started.elapsed().as_secs_f64(),
        centres_by_year: Vec::new(),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a tournament on the Python server: minutes per game"]
async fn python_server_tournament() {
    let python = std::env::var("TABLERO_DIPLOMACY_PYTHON")
        .expect("set TABLERO_DIPLOMACY_PYTHON (tests/daide_interop/setup.sh)");
    let seats: Vec<String> = env_or("PY_SEATS", "jic,dumbbot,jic,dumbbot,jic,dumbbot,dumbbot")
        .split(',')
        .map(str::to_string)
        .collect();
    let sets = env_or(
        "PY_SET",
        "jic.max_evaluations=400 jic.opponent_samples=6 jic.max_search_nodes=20000",
    );
    let overrides: Vec<String> = sets.split_whitespace().map(str::to_string).collect();
    let config = Config::load(None, &overrides).expect("config");
    let mut settings = PlaySettings::new(seats);
    settings.games = env_or("PY_GAMES", "14").parse().expect("PY_GAMES");
    settings.jobs = env_or("PY_JOBS", "1").parse().expect("PY_JOBS");
    settings.seed = env_or("PY_SEED", "0").parse().expect("PY_SEED");
    settings.end_year = env_or("PY_END_YEAR", "1930").parse().expect("PY_END_YEAR");
    settings.transport = Transport::Daide;
    settings.think_time = Duration::from_secs(5);
    settings.jic = config.jic.clone();
    settings.check().expect("settings");
    let settings = Arc::new(settings);
    let gate = Arc::new(tokio::sync::Semaphore::new(settings.jobs.max(1)));
    let mut tasks = Vec::new();
    let first: usize = env_or("PY_FIRST", "0").parse().expect("PY_FIRST");
    for g in first..first + settings.games {
        let (python, settings, gate) = (python.clone(), settings.clone(), gate.clone());
        tasks.push(tokio::spawn(async move {
            let _slot = gate.acquire().await.expect("gate");
            let r = one_game(python, settings.clone(), g).await;
            match &r {
                Ok(res) => eprintln!("{}", res.describe(settings.games)),
                Err(e) => eprintln!("game {}: {e}", g + 1),
            }
            r
        }));
    }
    let mut games = Vec::new();
    let mut failed = Vec::new();
    for t in tasks {
        match t.await.expect("task") {
            Ok(g) => games.push(g),
            Err(e) => failed.push(e),
        }
    }
    let summary = summarize(&settings, &games);
    println!("{}", serde_json::to_string(&summary).expect("json"));
    assert!(
        failed.is_empty(),
        "{} games failed: {failed:?}",
        failed.len()
    );
}
