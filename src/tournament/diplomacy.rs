//! Diplomacy tournaments (`tablero diplomacy play`): complete games between
//! registered bots ([`crate::bots::make`]), played locally by direct calls
//! ([`crate::diplomacy::play::LocalGame`]) or over the real DAIDE protocol
//! (the embedded server and seven in-process clients on loopback TCP).
//!
//! Seat rotation: seat `s` plays power `(s + g) mod 7` in game `g`, so over
//! any multiple of 7 games every seat (and so every bot kind) plays every
//! power equally often. Game `g` draws every seed from `(seed, g)` only, and
//! games may run on several threads: the results are the same for a seed
//! whatever the number of jobs. Over the protocol the bots see the same
//! positions (and order units in a canonical, name-based order), so a seeded
//! game starts out identical to its local twin (tested to 1903); whole games
//! to 1930 still drift apart somewhere (known gap, not yet traced: possibly
//! where the server and the local runner end or adjust differently).
//!
//! Per bot kind (all its seats together): `games` (seat-games), `wins`
//! (solos), `draws` (games ended as a draw — by the year cap — with the seat
//! alive), `survived` (alive at the end without a win: draws plus survivors of
//! another power's solo), `eliminated`, `mean_centres` at the end,
//! `mean_win_year` (null without wins) and the Wilson 95 % interval of the
//! win rate. `wins + survived + eliminated = games`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;
use thiserror::Error;

use super::stats::wilson95;
use crate::bots::{self, BotError};
use crate::daide::client::{ClientConfig, run_client};
use crate::daide::server::{Ending, ServerConfig, run_game};
use crate::diplomacy::play::{LocalGame, Outcome};
use crate::diplomacy::{Map, Player, Power};

/// What to play.
#[derive(Debug, Clone)]
pub struct PlaySettings {
    /// One bot name per seat (as many seats as the map has powers).
    pub seats: Vec<String>,
    /// Number of games.
    pub games: usize,
    /// Base seed.
    pub seed: u64,
    /// Last year played; the game is a draw of the survivors after it.
    pub end_year: i16,
    /// Games played at once (threads).
    pub jobs: usize,
    /// Over the DAIDE protocol instead of direct calls.
    pub protocol: bool,
    /// Thinking time per bot per phase.
    pub think_time: Duration,
    /// The `[jic]` section for JIC seats.
    pub jic: crate::bots::jic::JicConfig,
}

impl PlaySettings {
    /// Settings for `seats` with defaults: 7 games, seed 0, 1930, one job, local.
    pub fn new(seats: Vec<String>) -> Self {
        PlaySettings {
            seats,
            games: 7,
            seed: 0,
            end_year: 1930,
            jobs: 1,
            protocol: false,
            think_time: Duration::from_secs(1),
            jic: crate::bots::jic::JicConfig::default(),
        }
    }
}

/// Tournament errors.
#[derive(Debug, Error)]
pub enum PlayError {
    /// A seat names an unknown bot.
    #[error(transparent)]
    Bot(#[from] BotError),
    /// Wrong number of seats.
    #[error("{got} seats given, the map has {want} powers")]
    SeatCount {
        /// Seats given.
        got: usize,
        /// Powers on the map.
        want: usize,
    },
    /// Bad settings.
    #[error("{0}")]
    Settings(String),
    /// A game failed.
    #[error("game {game}: {message}")]
    Game {
        /// Game index.
        game: usize,
        /// What went wrong.
        message: String,
    },
}

/// One seat's result in one game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatResult {
    /// Bot name.
    pub bot: String,
    /// Power played.
    pub power: String,
    /// Centres at the end.
    pub centres: usize,
    /// Won the game (solo).
    pub won: bool,
    /// Year of elimination.
    pub eliminated: Option<i16>,
}

/// One game's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameResult {
    /// Game index (0-based).
    pub game: usize,
    /// The game's seed.
    pub seed: u64,
    /// Per seat.
    pub seats: Vec<SeatResult>,
    /// The year of the solo, if one.
    pub solo_year: Option<i16>,
}

impl GameResult {
    /// One progress line.
    pub fn describe(&self, games: usize) -> String {
        let ending = match (self.seats.iter().find(|s| s.won), self.solo_year) {
            (Some(w), Some(y)) => format!("solo {} ({}) in {y}", w.power, w.bot),
            _ => "draw".to_string(),
        };
        let centres: Vec<String> = self
            .seats
            .iter()
            .map(|s| format!("{}={}:{}", s.power, s.bot, s.centres))
            .collect();
        format!(
            "game {}/{games}: {ending}; {}",
            self.game + 1,
            centres.join(" ")
        )
    }
}

/// Totals for one bot kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BotSummary {
    /// Bot name.
    pub bot: String,
    /// Seat-games played.
    pub games: usize,
    /// Solos.
    pub wins: usize,
    /// Drawn games survived.
    pub draws: usize,
    /// Alive at the end without a win.
    pub survived: usize,
    /// Eliminated.
    pub eliminated: usize,
    /// Mean centres at the end.
    pub mean_centres: f64,
    /// Mean year of the wins.
    pub mean_win_year: Option<f64>,
    /// Wilson 95 % interval of the win rate.
    pub win_rate_wilson95: [f64; 2],
}

/// The tournament's result (the JSON line of `tablero diplomacy play`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlaySummary {
    /// Per bot kind, in order of first seat.
    pub seats: Vec<BotSummary>,
    /// Base seed.
    pub seed: u64,
    /// Games played.
    pub games: usize,
    /// Games ended by a solo.
    pub solos: usize,
    /// Games ended as a draw.
    pub draws: usize,
    /// Last year played.
    pub end_year: i16,
    /// Seat list as given.
    pub seat_list: Vec<String>,
    /// Over the DAIDE protocol.
    pub protocol: bool,
    /// Threads used.
    pub jobs: usize,
}

/// SplitMix64 step: independent seeds from (seed, index).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `g`.
pub fn game_seed(seed: u64, g: usize) -> u64 {
    mix(seed ^ mix(g as u64))
}

/// The seed of seat `seat` in the game seeded `game_seed`.
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    mix(game_seed.wrapping_add(1 + seat as u64))
}

/// Plays the tournament; `progress` is called once per finished game (from
/// the worker threads, in completion order).
pub fn play(
    settings: &PlaySettings,
    progress: &(dyn Fn(&GameResult) + Sync),
) -> Result<PlaySummary, PlayError> {
    let map = Map::standard();
    let n = map.power_count();
    if settings.seats.len() != n {
        return Err(PlayError::SeatCount {
            got: settings.seats.len(),
            want: n,
        });
    }
    for s in &settings.seats {
        bots::make(s, 0)?;
    }
    if settings.jobs == 0 {
        return Err(PlayError::Settings("jobs must be at least 1".into()));
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<GameResult, PlayError>>>> =
        Mutex::new((0..settings.games).map(|_| None).collect());
    let failed = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.min(settings.games.max(1)) {
            scope.spawn(|| {
                loop {
                    if failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= settings.games {
                        return;
                    }
                    let r = play_one(settings, g);
                    match &r {
                        Ok(res) => progress(res),
                        Err(_) => failed.store(true, Ordering::Relaxed),
                    }
                    if let Ok(mut all) = results.lock() {
                        all[g] = Some(r);
                    }
                }
            });
        }
    });
    let all = results
        .into_inner()
        .map_err(|_| PlayError::Settings("a worker thread panicked".into()))?;
    let mut games = Vec::with_capacity(settings.games);
    for (g, r) in all.into_iter().enumerate() {
        match r {
            Some(Ok(res)) => games.push(res),
            Some(Err(e)) => return Err(e),
            None if failed.load(Ordering::Relaxed) => continue,
            None => {
                return Err(PlayError::Game {
                    game: g,
                    message: "not played".into(),
                });
            }
        }
    }
    Ok(summarize(settings, &games))
}

/// Plays game `g` of the tournament.
pub fn play_one(settings: &PlaySettings, g: usize) -> Result<GameResult, PlayError> {
    let map = Map::standard();
    let n = map.power_count();
    let seed = game_seed(settings.seed, g);
    // players[power] = the seat playing it.
    let seat_of = |power: usize| (power + n - g % n) % n;
    let err = |message: String| PlayError::Game { game: g, message };
    let mut players: Vec<Box<dyn Player>> = Vec::with_capacity(n);
    for power in 0..n {
        let s = seat_of(power);
        players.push(bots::make_with(
            &settings.seats[s],
            bot_seed(seed, s),
            &settings.jic,
        )?);
    }
    let power_name = |p: usize| map.power_name(Power(p as u8)).unwrap_or("???").to_string();
    let (centres, eliminated, winner) = if settings.protocol {
        over_protocol(settings, seed, players, &map).map_err(err)?
    } else {
        let local = LocalGame {
            end_year: settings.end_year,
            think_time: settings.think_time,
            ..LocalGame::default()
        };
        let r = local
            .play_standard(&mut players)
            .map_err(|e| err(e.to_string()))?;
        let winner = match r.outcome {
            Outcome::Solo { winner, year } => Some((winner.0 as usize, year)),
            Outcome::Draw { .. } => None,
        };
        (r.centres, r.eliminated, winner)
    };
    let mut seats = Vec::with_capacity(n);
    for s in 0..n {
        let power = (s + g) % n;
        seats.push(SeatResult {
            bot: settings.seats[s].clone(),
            power: power_name(power),
            centres: centres.get(power).copied().unwrap_or(0),
            won: winner.is_some_and(|(w, _)| w == power),
            eliminated: eliminated.get(power).copied().flatten(),
        });
    }
    Ok(GameResult {
        game: g,
        seed,
        seats,
        solo_year: winner.map(|(_, y)| y),
    })
}

type Ended = (Vec<usize>, Vec<Option<i16>>, Option<(usize, i16)>);

/// One game over loopback TCP: the embedded server and one client per power,
/// each asking for its power with a `POW:bot` name.
fn over_protocol(
    settings: &PlaySettings,
    seed: u64,
    players: Vec<Box<dyn Player>>,
    map: &Map,
) -> Result<Ended, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    let names: Vec<String> = (0..players.len())
        .map(|p| map.power_name(Power(p as u8)).unwrap_or("???").to_string())
        .collect();
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("bind: {e}"))?;
        let addr = listener.local_addr().map_err(|e| format!("bind: {e}"))?;
        let mut cfg = ServerConfig::standard(seed);
        cfg.end_year = Some(settings.end_year);
        let server = tokio::spawn(run_game(listener, cfg));
        let mut clients = Vec::new();
        for (i, player) in players.into_iter().enumerate() {
            let stream = tokio::net::TcpStream::connect(addr)
                .await
                .map_err(|e| format!("connect: {e}"))?;
            let config = ClientConfig {
                name: format!("{}:tablero", names[i]),
                think_time: settings.think_time,
                ..ClientConfig::default()
            };
            clients.push(tokio::spawn(run_client(stream, config, player)));
        }
        let host = server
            .await
            .map_err(|e| format!("server task: {e}"))?
            .map_err(|e| format!("server: {e}"))?;
        for c in clients {
            match c.await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => return Err(format!("client: {e}")),
                Err(e) => return Err(format!("client task: {e}")),
            }
        }
        let game = host.game();
        let n = game.map().power_count();
        let centres = (0..n).map(|p| game.centre_count(Power(p as u8))).collect();
        let mut eliminated = vec![None; n];
        for (p, y) in host.eliminations() {
            if let Some(e) = eliminated.get_mut(p.0 as usize) {
                *e = y;
            }
        }
        let winner = match host.ending() {
            Some(Ending::Solo(p)) => Some((p.0 as usize, game.phase().year)),
            _ => None,
        };
        Ok((centres, eliminated, winner))
    })
}

/// Totals per bot kind.
pub fn summarize(settings: &PlaySettings, games: &[GameResult]) -> PlaySummary {
    let mut kinds: Vec<String> = Vec::new();
    for s in &settings.seats {
        if !kinds.contains(s) {
            kinds.push(s.clone());
        }
    }
    let seats = kinds
        .iter()
        .map(|bot| {
            let rows: Vec<(&GameResult, &SeatResult)> = games
                .iter()
                .flat_map(|g| g.seats.iter().map(move |s| (g, s)))
                .filter(|(_, s)| &s.bot == bot)
                .collect();
            let n = rows.len();
            let wins = rows.iter().filter(|(_, s)| s.won).count();
            let eliminated = rows.iter().filter(|(_, s)| s.eliminated.is_some()).count();
            let survived = rows
                .iter()
                .filter(|(_, s)| !s.won && s.eliminated.is_none())
                .count();
            let draws = rows
                .iter()
                .filter(|(g, s)| g.solo_year.is_none() && s.eliminated.is_none())
                .count();
            let centres: usize = rows.iter().map(|(_, s)| s.centres).sum();
            let win_years: Vec<f64> = rows
                .iter()
                .filter(|(_, s)| s.won)
                .filter_map(|(g, _)| g.solo_year.map(f64::from))
                .collect();
            BotSummary {
                bot: bot.clone(),
                games: n,
                wins,
                draws,
                survived,
                eliminated,
                mean_centres: if n == 0 {
                    0.0
                } else {
                    centres as f64 / n as f64
                },
                mean_win_year: if win_years.is_empty() {
                    None
                } else {
                    Some(win_years.iter().sum::<f64>() / win_years.len() as f64)
                },
                win_rate_wilson95: wilson95(wins as f64, n as f64),
            }
        })
        .collect();
    let solos = games.iter().filter(|g| g.solo_year.is_some()).count();
    PlaySummary {
        seats,
        seed: settings.seed,
        games: games.len(),
        solos,
        draws: games.len() - solos,
        end_year: settings.end_year,
        seat_list: settings.seats.clone(),
        protocol: settings.protocol,
        jobs: settings.jobs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(s: &str) -> Vec<String> {
        s.split(',').map(str::to_string).collect()
    }

    #[test]
    fn rotation_gives_every_seat_every_power_once_in_seven_games() {
        let mut st = PlaySettings::new(seats(
            "dumbbot,holdbot,holdbot,holdbot,holdbot,holdbot,holdbot",
        ));
        st.end_year = 1901;
        let summary = play(&st, &|_| {}).unwrap();
        assert_eq!(summary.games, 7);
        assert_eq!(summary.seats.len(), 2);
        assert_eq!(summary.seats[0].games, 7);
        assert_eq!(summary.seats[1].games, 42);
        // Seat 0 played each power once.
        let mut powers: Vec<String> = (0..7)
            .map(|g| play_one(&st, g).unwrap().seats[0].power.clone())
            .collect();
        powers.sort();
        powers.dedup();
        assert_eq!(powers.len(), 7);
        for s in &summary.seats {
            assert_eq!(s.wins + s.survived + s.eliminated, s.games);
        }
    }

    #[test]
    fn results_do_not_depend_on_jobs() {
        let mut st = PlaySettings::new(seats(
            "dumbbot,randbot,dumbbot,holdbot,randbot,dumbbot,dumbbot",
        ));
        st.games = 4;
        st.end_year = 1904;
        st.seed = 11;
        let one = play(&st, &|_| {}).unwrap();
        st.jobs = 3;
        let three = play(&st, &|_| {}).unwrap();
        assert_eq!(one.seats, three.seats);
        st.seed = 12;
        let other = play(&st, &|_| {}).unwrap();
        assert_ne!(one.seats, other.seats, "the seed matters");
    }

    #[test]
    fn protocol_games_match_local_games() {
        let mut st = PlaySettings::new(seats(
            "dumbbot,randbot,dumbbot,holdbot,randbot,dumbbot,dumbbot",
        ));
        st.games = 1;
        st.end_year = 1903;
        st.seed = 5;
        let local = play_one(&st, 0).unwrap();
        st.protocol = true;
        let a = play_one(&st, 0).unwrap();
        assert_eq!(a, local, "same seed: the same game over DAIDE as locally");
        // Each seat got the power the rotation gave it (NME `POW:…`).
        let powers = |g: &GameResult| g.seats.iter().map(|s| s.power.clone()).collect::<Vec<_>>();
        assert_eq!(powers(&a), powers(&local));
        assert!(a.seats.iter().map(|s| s.centres).sum::<usize>() <= 34);
    }

    #[test]
    fn bad_seats_are_refused() {
        assert!(matches!(
            play(&PlaySettings::new(seats("dumbbot,holdbot")), &|_| {}),
            Err(PlayError::SeatCount { got: 2, want: 7 })
        ));
        assert!(matches!(
            play(&PlaySettings::new(seats("dumbbot,x,x,x,x,x,x")), &|_| {}),
            Err(PlayError::Bot(_))
        ));
    }

    #[test]
    fn wilson_and_means() {
        let st = PlaySettings::new(seats("a,b,b,b,b,b,b"));
        let mk = |won: bool, bot: &str, c| SeatResult {
            bot: bot.into(),
            power: "AUS".into(),
            centres: c,
            won,
            eliminated: None,
        };
        let g = GameResult {
            game: 0,
            seed: 0,
            seats: vec![mk(true, "a", 18), mk(false, "b", 2)],
            solo_year: Some(1910),
        };
        let s = summarize(&st, &[g]);
        assert_eq!(s.seats[0].wins, 1);
        assert_eq!(s.seats[0].mean_win_year, Some(1910.0));
        assert_eq!(s.seats[1].mean_win_year, None);
        assert_eq!(s.seats[1].survived, 1);
        assert_eq!(s.seats[1].draws, 0);
        assert_eq!(s.solos, 1);
    }
}
