//! Diplomacy tournaments (`tablero diplomacy play`): complete games between
//! registered bots ([`crate::bots::make`]) and external DAIDE programs, played
//! over the real DAIDE protocol (the embedded server on loopback TCP, each
//! built-in bot an in-process client, each external seat its own process) or,
//! as a fast mode for built-in bots only, locally by direct calls
//! ([`crate::diplomacy::play::LocalGame`]).
//!
//! External seats: a seat name listed in [`PlaySettings::external`] starts
//! that command line with `{host}`, `{port}` and `{power}` replaced (e.g.
//! David Norman's AiClient bots take `-i{host} -p{port} -r{power}:0`, and
//! `-r` makes them ask for that power with an `NME ('POW:name')`). The
//! server's phase deadline bounds every phase, so a program that stops
//! answering costs its own orders, never the game.
//!
//! Seat rotation: seat `s` plays power `(s + g) mod 7` in game `g`, so over
//! any multiple of 7 games every seat (and so every bot kind) plays every
//! power equally often. Game `g` draws every seed from `(seed, g)` only, and
//! games may run on several threads: the results are the same for a seed
//! whatever the number of jobs. Over DAIDE the built-in bots see the same
//! positions and every power's orders (and order units in a canonical,
//! name-based order), so a seeded game over DAIDE is its local twin (tested
//! to 1930).
//!
//! Per bot kind (all its seats together): `games` (seat-games), `wins`
//! (solos), `draws` (games ended as a draw — by the year cap — with the seat
//! alive), `survived` (alive at the end without a win: draws plus survivors of
//! another power's solo), `eliminated`, `mean_centres` at the end,
//! `mean_win_year` (null without wins) and the Wilson 95 % interval of the
//! win rate. `wins + survived + eliminated = games`. Over DAIDE, `daide` adds
//! what the server saw of the seats' ordering ([`SeatStats`]: phases without
//! orders, refused orders and `SUB`s, time from `NOW` to the last `SUB`).

use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::centre_log::CentreLog;
use super::gtp_client::split_command;
use super::shard::Shard;
use super::stats::wilson95;
use crate::bots::{self, BotError};
use crate::daide::client::{ClientConfig, run_client};
use crate::daide::server::{Ending, SeatStats, ServerConfig, run_game};
use crate::diplomacy::play::{LocalGame, Outcome};
use crate::diplomacy::{Map, Phase, Player, Power};

/// How the games are played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// The embedded DAIDE server on loopback TCP, every seat a client.
    Daide,
    /// Direct calls in one thread per game (built-in bots only).
    Local,
}

/// What to play. Serialized, it is the run a records file names: every field the games
/// depend on, not the number of jobs nor which shard plays.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    #[serde(skip, default = "one")]
    pub jobs: usize,
    /// Over DAIDE or by direct calls.
    pub transport: Transport,
    /// The server's deadline per phase in seconds (DAIDE only; `None`: the
    /// server waits for every power).
    pub deadline: Option<u16>,
    /// Thinking time per built-in bot per phase (at most the deadline less
    /// the client's margin).
    pub think_time: Duration,
    /// The `[jic]` section for JIC seats.
    pub jic: crate::bots::jic::JicConfig,
    /// External seats: seat name → command line template.
    pub external: BTreeMap<String, String>,
    /// The games of the tournament this run plays (all of them by default).
    #[serde(skip)]
    pub shard: Shard,
}

/// The `kind` of `tablero diplomacy play` records.
pub const RECORDS_KIND: &str = "diplomacy play";

impl PlaySettings {
    /// Settings for `seats` with defaults: 7 games, seed 0, 1930, one job,
    /// local, no deadline, no external seats.
    pub fn new(seats: Vec<String>) -> Self {
        PlaySettings {
            seats,
            games: 7,
            seed: 0,
            end_year: 1930,
            jobs: 1,
            transport: Transport::Local,
            deadline: None,
            think_time: Duration::from_secs(1),
            jic: crate::bots::jic::JicConfig::default(),
            external: BTreeMap::new(),
            shard: Shard::WHOLE,
        }
    }

    /// Checks the seats against the map, the bot registry and the external programs.
    pub fn check(&self) -> Result<(), PlayError> {
        let want = Map::standard().power_count();
        if self.seats.len() != want {
            return Err(PlayError::SeatCount {
                got: self.seats.len(),
                want,
            });
        }
        if self.jobs == 0 {
            return Err(PlayError::Settings("jobs must be at least 1".into()));
        }
        for (name, command) in &self.external {
            if bots::make(name, 0).is_ok() {
                return Err(PlayError::Settings(format!(
                    "external seat {name:?} has a built-in bot's name"
                )));
            }
            if !command.contains("{port}") {
                return Err(PlayError::Settings(format!(
                    "external seat {name:?}: the command must contain {{port}}, got {command:?}"
                )));
            }
        }
        for s in &self.seats {
            if self.external.contains_key(s) {
                if self.transport == Transport::Local {
                    return Err(PlayError::Settings(format!(
                        "seat {s:?} is an external program: it plays over DAIDE only"
                    )));
                }
                if self.deadline.is_none() {
                    return Err(PlayError::Settings(format!(
                        "seat {s:?} is an external program: the server needs a deadline"
                    )));
                }
            } else {
                bots::make(s, 0)?;
            }
        }
        Ok(())
    }
}

/// One job.
fn one() -> usize {
    1
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// What the DAIDE server saw of the seat's ordering (over DAIDE only).
    pub daide: Option<SeatStats>,
}

/// One game's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// Game index (0-based).
    pub game: usize,
    /// The game's seed.
    pub seed: u64,
    /// Per seat.
    pub seats: Vec<SeatResult>,
    /// The year of the solo, if one.
    pub solo_year: Option<i16>,
    /// The last year played.
    pub last_year: i16,
    /// Wall time of the game in seconds.
    pub wall_seconds: f64,
    /// Centres per power (map order) at the end of each year, from 1900 (the start) to the
    /// last year played (not in the JSON line; `--svg` draws it).
    #[serde(skip)]
    pub centres_by_year: Vec<(i16, Vec<usize>)>,
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
    /// Over DAIDE: the server's figures of all its seats added up.
    pub daide: Option<SeatStats>,
    /// Over DAIDE: mean milliseconds from a phase's `NOW` to the seat's last `SUB`.
    pub order_ms_mean: Option<f64>,
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
    /// Over DAIDE or by direct calls.
    pub transport: Transport,
    /// The server's phase deadline in seconds, if any.
    pub deadline: Option<u16>,
    /// Wall seconds per game-year played, over all games (each game timed on its own thread).
    pub seconds_per_game_year: f64,
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

/// Plays the tournament (the games of `settings.shard`) and summarizes it; `progress` is
/// called once per finished game (from the worker threads, in completion order).
pub fn play(
    settings: &PlaySettings,
    progress: &(dyn Fn(&GameResult) + Sync),
) -> Result<PlaySummary, PlayError> {
    Ok(summarize(settings, &play_games(settings, progress)?))
}

/// Plays the games of `settings.shard` on `settings.jobs` threads; their results in game
/// order.
pub fn play_games(
    settings: &PlaySettings,
    progress: &(dyn Fn(&GameResult) + Sync),
) -> Result<Vec<GameResult>, PlayError> {
    settings.check()?;
    let indices: Vec<usize> = settings.shard.indices(settings.games).collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<GameResult, PlayError>>>> =
        Mutex::new(indices.iter().map(|_| None).collect());
    let failed = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.min(indices.len().max(1)) {
            scope.spawn(|| {
                loop {
                    if failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let slot = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&g) = indices.get(slot) else {
                        return;
                    };
                    let r = play_one(settings, g);
                    match &r {
                        Ok(res) => progress(res),
                        Err(_) => failed.store(true, Ordering::Relaxed),
                    }
                    if let Ok(mut all) = results.lock() {
                        all[slot] = Some(r);
                    }
                }
            });
        }
    });
    let all = results
        .into_inner()
        .map_err(|_| PlayError::Settings("a worker thread panicked".into()))?;
    let mut games = Vec::with_capacity(indices.len());
    for (&g, r) in indices.iter().zip(all) {
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
    Ok(games)
}

/// Who plays one power.
enum SeatPlayer {
    /// A built-in bot.
    Builtin(Box<dyn Player>),
    /// An external program: its command line template.
    External(String),
}

/// How one game ended, per power (indexed by power).
struct Ended {
    centres: Vec<usize>,
    eliminated: Vec<Option<i16>>,
    winner: Option<(usize, i16)>,
    last_year: i16,
    daide: Option<Vec<SeatStats>>,
    /// The first phase not played.
    final_phase: Phase,
}

/// Plays game `g` of the tournament.
pub fn play_one(settings: &PlaySettings, g: usize) -> Result<GameResult, PlayError> {
    let map = Map::standard();
    let n = map.power_count();
    let seed = game_seed(settings.seed, g);
    // players[power] = the seat playing it.
    let seat_of = |power: usize| (power + n - g % n) % n;
    let err = |message: String| PlayError::Game { game: g, message };
    let mut players: Vec<SeatPlayer> = Vec::with_capacity(n);
    let log = CentreLog::default();
    for power in 0..n {
        let s = seat_of(power);
        let name = &settings.seats[s];
        players.push(match settings.external.get(name) {
            Some(cmd) => SeatPlayer::External(cmd.clone()),
            None => SeatPlayer::Builtin(log.wrap(bots::make_with(
                name,
                bot_seed(seed, s),
                &settings.jic,
            )?)),
        });
    }
    let power_name = |p: usize| map.power_name(Power(p as u8)).unwrap_or("???").to_string();
    let started = Instant::now();
    let ended = match settings.transport {
        Transport::Daide => over_daide(settings, seed, players, &map).map_err(err)?,
        Transport::Local => locally(settings, players).map_err(err)?,
    };
    let mut seats = Vec::with_capacity(n);
    for s in 0..n {
        let power = (s + g) % n;
        seats.push(SeatResult {
            bot: settings.seats[s].clone(),
            power: power_name(power),
            centres: ended.centres.get(power).copied().unwrap_or(0),
            won: ended.winner.is_some_and(|(w, _)| w == power),
            eliminated: ended.eliminated.get(power).copied().flatten(),
            daide: ended.daide.as_ref().and_then(|d| d.get(power).copied()),
        });
    }
    Ok(GameResult {
        game: g,
        seed,
        seats,
        solo_year: ended.winner.map(|(_, y)| y),
        last_year: ended.last_year,
        wall_seconds: started.elapsed().as_secs_f64(),
        centres_by_year: log.history(ended.final_phase, &ended.centres),
    })
}

/// One game by direct calls.
fn locally(settings: &PlaySettings, players: Vec<SeatPlayer>) -> Result<Ended, String> {
    let mut bots: Vec<Box<dyn Player>> = Vec::with_capacity(players.len());
    for p in players {
        match p {
            SeatPlayer::Builtin(b) => bots.push(b),
            SeatPlayer::External(cmd) => {
                return Err(format!("{cmd:?} is an external program: DAIDE only"));
            }
        }
    }
    let local = LocalGame {
        end_year: settings.end_year,
        think_time: settings.think_time,
        ..LocalGame::default()
    };
    let r = local.play_standard(&mut bots).map_err(|e| e.to_string())?;
    let (winner, last_year) = match r.outcome {
        Outcome::Solo { winner, year } => (Some((winner.0 as usize, year)), year),
        Outcome::Draw { .. } => (None, settings.end_year),
    };
    Ok(Ended {
        centres: r.centres,
        eliminated: r.eliminated,
        winner,
        last_year,
        daide: None,
        final_phase: r.final_phase,
    })
}

/// Starts an external seat's program for `power` on the server at `addr`; the process is
/// killed when its handle is dropped.
fn start_program(
    template: &str,
    addr: std::net::SocketAddr,
    power: &str,
) -> Result<tokio::process::Child, String> {
    let cmd = template
        .replace("{host}", &addr.ip().to_string())
        .replace("{port}", &addr.port().to_string())
        .replace("{power}", power);
    let words = split_command(&cmd).map_err(|e| e.to_string())?;
    let (program, args) = words
        .split_first()
        .ok_or_else(|| format!("empty command line {template:?}"))?;
    tokio::process::Command::new(program)
        .args(args)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))
}

/// One game over loopback TCP: the embedded server, one in-process client per
/// built-in seat (asking for its power with a `POW:tablero` name) and one
/// process per external seat.
fn over_daide(
    settings: &PlaySettings,
    seed: u64,
    players: Vec<SeatPlayer>,
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
        cfg.deadline = settings.deadline;
        let server = tokio::spawn(run_game(listener, cfg));
        let mut clients = Vec::new();
        // External programs of this game, killed when dropped (`kill_on_drop`).
        let mut programs = Vec::new();
        for (i, player) in players.into_iter().enumerate() {
            let player = match player {
                SeatPlayer::External(template) => {
                    programs.push(start_program(&template, addr, &names[i])?);
                    continue;
                }
                SeatPlayer::Builtin(p) => p,
            };
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
        drop(programs);
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
        let mut daide = vec![SeatStats::default(); n];
        for (p, st) in host.seat_stats() {
            if let Some(d) = daide.get_mut(p.0 as usize) {
                *d = st;
            }
        }
        let year = game.phase().year;
        let (winner, last_year) = match host.ending() {
            Some(Ending::Solo(p)) => (Some((p.0 as usize, year)), year),
            _ => (None, year.min(settings.end_year)),
        };
        Ok(Ended {
            centres,
            eliminated,
            winner,
            last_year,
            daide: Some(daide),
            final_phase: game.phase(),
        })
    })
}

/// The tournament's statistics from its game results (in game order): what `tablero
/// diplomacy play` prints, and `tablero merge` from the records of its shards.
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
            let daide = rows
                .iter()
                .try_fold(SeatStats::default(), |mut acc, (_, s)| {
                    acc.add(s.daide.as_ref()?);
                    Some(acc)
                });
            let order_ms_mean = daide
                .filter(|d| d.phases_ordered() > 0)
                .map(|d| d.order_ms_total as f64 / f64::from(d.phases_ordered()));
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
                daide: daide.filter(|_| n > 0),
                order_ms_mean,
            }
        })
        .collect();
    let solos = games.iter().filter(|g| g.solo_year.is_some()).count();
    let years: f64 = games.iter().map(|g| f64::from(g.last_year - 1900)).sum();
    let wall: f64 = games.iter().map(|g| g.wall_seconds).sum();
    PlaySummary {
        seats,
        seed: settings.seed,
        games: games.len(),
        solos,
        draws: games.len() - solos,
        end_year: settings.end_year,
        seat_list: settings.seats.clone(),
        transport: settings.transport,
        deadline: settings.deadline,
        seconds_per_game_year: if years > 0.0 { wall / years } else { 0.0 },
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
        st.seed = 5;
        let local = play_one(&st, 0).unwrap();
        st.transport = Transport::Daide;
        let a = play_one(&st, 0).unwrap();
        let outcome = |g: &GameResult| {
            let seats: Vec<_> = g
                .seats
                .iter()
                .map(|s| {
                    (
                        s.bot.clone(),
                        s.power.clone(),
                        s.centres,
                        s.won,
                        s.eliminated,
                    )
                })
                .collect();
            (seats, g.solo_year, g.last_year)
        };
        assert_eq!(
            outcome(&a),
            outcome(&local),
            "same seed: the same game over DAIDE as locally"
        );
        // Every seat ordered in every phase it had to, and nothing was refused.
        for s in &a.seats {
            let d = s.daide.expect("server figures over DAIDE");
            assert!(d.phases_to_order > 0, "{s:?}");
            assert_eq!(d.phases_without_orders, 0, "{s:?}");
            assert_eq!(d.refused_orders + d.rejected_subs, 0, "{s:?}");
        }
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
            daide: None,
        };
        let g = GameResult {
            game: 0,
            seed: 0,
            seats: vec![mk(true, "a", 18), mk(false, "b", 2)],
            solo_year: Some(1910),
            last_year: 1910,
            wall_seconds: 5.0,
            centres_by_year: Vec::new(),
        };
        let s = summarize(&st, &[g]);
        assert_eq!(s.seats[0].wins, 1);
        assert_eq!(s.seats[0].mean_win_year, Some(1910.0));
        assert_eq!(s.seats[1].mean_win_year, None);
        assert_eq!(s.seats[1].survived, 1);
        assert_eq!(s.seats[1].draws, 0);
        assert_eq!(s.solos, 1);
        assert_eq!(s.seconds_per_game_year, 0.5);
        assert_eq!(s.seats[0].daide, None);
    }
}
