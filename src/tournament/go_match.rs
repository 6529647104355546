//! `tablero match`: plays GTP engines against each other, like gogui-twogtp.
//!
//! tablero referees every move with its own rules (area scoring, positional superko, suicide
//! illegal): an illegal move, a time-out, a crash or a protocol error loses the game for the
//! engine that caused it and is reported. Finished games are scored by the referee engine when
//! one is given, else by asking both engines `final_score` (their answers are recorded and
//! compared), else by Tromp-Taylor counting.

use super::gtp_client::{ClientError, GtpClient};
use super::referee_clock::{ClockSpec, RefereeClock};
use super::shard::Shard;
use super::stats::wilson95;
use crate::go::game::{Game, KoRule, Rules, Scoring};
use crate::go::scoring::score;
use crate::go::{Color, Move};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A match. Serialized, it is the run a records file names: every field the games depend on,
/// not where SGF files go nor which shard plays.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchOptions {
    pub black: String,
    pub white: String,
    pub referee: Option<String>,
    pub size: usize,
    pub komi: f64,
    pub games: usize,
    /// Swap colours every other game.
    pub alternate: bool,
    /// Handicap stones for Black (0, or 2 up to `Game::max_fixed_handicap`), placed by
    /// `fixed_handicap` on both engines; White moves first.
    #[serde(default)]
    pub handicap: usize,
    /// The clock both engines play under, kept by the referee: `time_settings` at the start,
    /// `time_left` before every `genmove`, and a side whose time runs out (by more than `lag`)
    /// loses on time. Without one, every move may take up to a minute.
    pub clock: Option<ClockSpec>,
    /// Grace, in seconds, the referee forgives on every move (process and pipe delays).
    pub lag: f64,
    #[serde(skip)]
    pub sgf_dir: Option<PathBuf>,
    /// Moves after which a game is stopped and counted as it stands.
    pub max_moves: usize,
    /// The games of the match this run plays (all of them by default).
    #[serde(skip)]
    pub shard: Shard,
}

impl MatchOptions {
    pub fn new(black: &str, white: &str, size: usize, komi: f64, games: usize) -> MatchOptions {
        MatchOptions {
            black: black.into(),
            white: white.into(),
            referee: None,
            size,
            komi,
            games,
            alternate: false,
            handicap: 0,
            clock: None,
            lag: 2.0,
            sgf_dir: None,
            max_moves: 3 * size * size + 50,
            shard: Shard::WHOLE,
        }
    }
}

/// The `kind` of `tablero match` records.
pub const RECORDS_KIND: &str = "match";

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Score,
    Resign,
    IllegalMove,
    Timeout,
    EngineError,
    MoveCap,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    pub game: usize,
    /// Which engine (0 = --black, 1 = --white) played Black in this game.
    pub black_engine: usize,
    /// Winning engine index, None for a draw (jigo).
    pub winner: Option<usize>,
    pub reason: EndReason,
    /// The result as in SGF `RE`, e.g. `B+3.5`, `W+R`.
    pub result: String,
    pub moves: usize,
    /// `final_score` answers of the Black and White engines (when asked).
    pub engine_scores: [Option<String>; 2],
    pub referee_score: Option<String>,
    /// Fault description when the game ended by an engine fault.
    pub fault: Option<String>,
    /// Thinking seconds per engine (wall clock of genmove).
    pub seconds: [f64; 2],
    /// The longest single move per engine, wall clock.
    pub max_move_seconds: [f64; 2],
    pub genmoves: [usize; 2],
    /// Under a clock: seconds left at the end on Black's and White's clock.
    pub time_left_seconds: [Option<f64>; 2],
}

impl GameRecord {
    /// The record of game `game` before its first move.
    pub(crate) fn empty(game: usize, black_engine: usize) -> GameRecord {
        GameRecord {
            game,
            black_engine,
            winner: None,
            reason: EndReason::Score,
            result: String::new(),
            moves: 0,
            engine_scores: [None, None],
            referee_score: None,
            fault: None,
            seconds: [0.0; 2],
            max_move_seconds: [0.0; 2],
            genmoves: [0; 2],
            time_left_seconds: [None; 2],
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    pub command: String,
    pub wins: usize,
    pub losses: usize,
    pub draws: usize,
    pub win_rate: f64,
    pub wilson95: [f64; 2],
    pub seconds_per_move: f64,
    /// The longest single move over the match.
    pub max_move_seconds: f64,
    pub faults: usize,
    /// Games lost on time (a subset of `faults`).
    pub time_losses: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct MatchSummary {
    pub games: usize,
    pub size: usize,
    pub komi: f64,
    pub handicap: usize,
    pub engines: [EngineSummary; 2],
    pub average_moves: f64,
    /// Games where both engines answered `final_score` and agreed on it.
    pub score_agreements: usize,
    pub score_disagreements: usize,
    pub records: Vec<GameRecord>,
}

struct Seat {
    client: GtpClient,
    engine: usize,
}

fn result_string(winner: Option<Color>, margin: f64, reason: &EndReason) -> String {
    match (winner, reason) {
        (None, _) => "0".into(),
        (Some(c), EndReason::Resign) => format!("{}+R", c.letter()),
        (Some(c), EndReason::Timeout) => format!("{}+T", c.letter()),
        (Some(c), EndReason::IllegalMove | EndReason::EngineError) => {
            format!("{}+F", c.letter())
        }
        (Some(c), _) => format!("{}+{}", c.letter(), margin.abs()),
    }
}

/// Parses a `final_score` answer into Black's margin.
pub fn parse_score(s: &str) -> Option<f64> {
    let s = s.trim();
    if s == "0" {
        return Some(0.0);
    }
    let (c, rest) = s.split_once('+')?;
    let v: f64 = rest.parse().ok()?;
    match c.trim() {
        "B" | "b" => Some(v),
        "W" | "w" => Some(-v),
        _ => None,
    }
}

async fn setup(client: &mut GtpClient, opts: &MatchOptions) -> Result<(), ClientError> {
    let t = Duration::from_secs(30);
    client.send(&format!("boardsize {}", opts.size), t).await?;
    client.send("clear_board", t).await?;
    client.send(&format!("komi {}", opts.komi), t).await?;
    if opts.handicap > 0 {
        client
            .send(&format!("fixed_handicap {}", opts.handicap), t)
            .await?;
    }
    if let Some(clock) = opts.clock {
        // Engines without time control may refuse it; the referee's clock applies all the same.
        let _ = client.send(&clock.time_settings(), t).await;
    }
    Ok(())
}

/// Plays one game; `black_engine` says which of the two commands plays Black.
pub async fn play_game(opts: &MatchOptions, game_index: usize, black_engine: usize) -> GameRecord {
    // `{game}` in a command becomes the game number, e.g. `--set search.seed={game}`.
    let cmds = [&opts.black, &opts.white].map(|c| c.replace("{game}", &game_index.to_string()));
    let rules = Rules {
        scoring: Scoring::Area,
        ko: KoRule::Positional,
        komi: opts.komi,
    };
    let mut record = GameRecord::empty(game_index, black_engine);
    let mut game = match new_game(opts, rules) {
        Ok(g) => g,
        Err(e) => {
            record.reason = EndReason::EngineError;
            record.fault = Some(e.to_string());
            return record;
        }
    };
    // seats[0] plays Black, seats[1] White.
    let engines = [black_engine, 1 - black_engine];
    let mut seats = match start_seats(opts, &cmds, engines).await {
        Ok(seats) => seats,
        Err((color, err)) => return fault(record, color, EndReason::EngineError, err, &engines),
    };
    let mut clock = opts
        .clock
        .map(|spec| RefereeClock::new(spec, Duration::from_secs_f64(opts.lag)));
    let end = play_moves(opts, &mut game, &mut seats, clock.as_mut(), &mut record).await;
    record.moves = game.move_count();
    match end {
        LoopEnd::Fault(color, reason, err) => {
            finish_fault(record, color, reason, err, &engines, seats, &game, opts).await
        }
        LoopEnd::Illegal(color, word) => {
            record.fault = Some(format!("illegal or unreadable move {word:?}"));
            let winner = Some(color.opponent());
            let reason = EndReason::IllegalMove;
            finish(record, winner, 0.0, reason, &engines, seats, &game, opts).await
        }
        LoopEnd::Resigned(loser) => {
            let winner = Some(loser.opponent());
            let reason = EndReason::Resign;
            finish(record, winner, 0.0, reason, &engines, seats, &game, opts).await
        }
        LoopEnd::Scored(end) => {
            let margin = final_margin(&mut record, &mut seats, &game, opts).await;
            let winner = Color::winner_by_margin(margin);
            finish(record, winner, margin, end, &engines, seats, &game, opts).await
        }
    }
}

/// How the move loop of a game stopped.
enum LoopEnd {
    /// The game is to be scored: it is over, or the move cap (`EndReason::MoveCap`) is reached.
    Scored(EndReason),
    /// The colour resigned.
    Resigned(Color),
    /// The colour's engine sent an illegal or unreadable move (the text).
    Illegal(Color, String),
    /// The colour's engine failed.
    Fault(Color, EndReason, ClientError),
}

/// Alternates the seats' moves from the side to move, relaying each to the other engine,
/// until the game ends or an engine fails.
async fn play_moves(
    opts: &MatchOptions,
    game: &mut Game,
    seats: &mut [Seat],
    mut clock: Option<&mut RefereeClock>,
    record: &mut GameRecord,
) -> LoopEnd {
    let mut color = game.to_move();
    loop {
        if game.is_over() {
            return LoopEnd::Scored(EndReason::Score);
        }
        if game.move_count() >= opts.max_moves {
            return LoopEnd::Scored(EndReason::MoveCap);
        }
        let me = color.index();
        let answer = timed_genmove(&mut seats[me], color, clock.as_deref_mut(), record).await;
        let text = match answer {
            Ok(t) => t,
            Err(err) => {
                let reason = match err {
                    ClientError::Timeout { .. } => EndReason::Timeout,
                    _ => EndReason::EngineError,
                };
                return LoopEnd::Fault(color, reason, err);
            }
        };
        let word = text.trim();
        if word.eq_ignore_ascii_case("resign") {
            return LoopEnd::Resigned(color);
        }
        let mv = match Move::parse(word, opts.size) {
            Ok(m) if game.is_legal(color, m) => m,
            _ => return LoopEnd::Illegal(color, word.to_string()),
        };
        // Legal by tablero's rules, so game.play cannot fail here.
        if game.play(color, mv).is_err() {
            return LoopEnd::Scored(EndReason::Score);
        }
        let other = 1 - me;
        if let Err(err) = seats[other]
            .client
            .send(&format!("play {color} {mv}"), Duration::from_secs(30))
            .await
        {
            return LoopEnd::Fault(color.opponent(), EndReason::EngineError, err);
        }
        color = color.opponent();
    }
}

/// The referee's game: the board, its rules and the handicap stones.
fn new_game(opts: &MatchOptions, rules: Rules) -> Result<Game, String> {
    let mut game = Game::new(opts.size, rules).map_err(|e| e.to_string())?;
    if opts.handicap > 0 {
        let stones = Game::fixed_handicap_vertices(opts.size, opts.handicap).ok_or_else(|| {
            format!(
                "no fixed handicap of {} stones on {}x{}",
                opts.handicap, opts.size, opts.size
            )
        })?;
        game.set_handicap(&stones).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// Starts both engines (Black's first) and sets up their game; the colour of the first that
/// fails, with its error.
async fn start_seats(
    opts: &MatchOptions,
    cmds: &[String; 2],
    engines: [usize; 2],
) -> Result<Vec<Seat>, (Color, ClientError)> {
    let mut seats = Vec::with_capacity(2);
    for (i, &e) in engines.iter().enumerate() {
        let color = Color::BOTH[i];
        let name = format!("{}({})", if i == 0 { "black" } else { "white" }, e);
        let mut client = GtpClient::spawn(&name, &cmds[e]).map_err(|err| (color, err))?;
        setup(&mut client, opts).await.map_err(|err| (color, err))?;
        seats.push(Seat { client, engine: e });
    }
    Ok(seats)
}

/// The game's margin for Black (positive) or White: both engines are asked for their score,
/// then the referee; the referee decides, else the engines when they agree, else tablero's own
/// count with every stone alive.
async fn final_margin(
    record: &mut GameRecord,
    seats: &mut [Seat],
    game: &Game,
    opts: &MatchOptions,
) -> f64 {
    for (i, seat) in seats.iter_mut().enumerate() {
        record.engine_scores[i] = seat
            .client
            .send("final_score", Duration::from_secs(60))
            .await
            .ok();
    }
    let mut margin = score(game, &[]).margin();
    if let Some(r) = &opts.referee {
        record.referee_score = referee_score(r, game, opts).await;
    }
    let engine_margins: Vec<Option<f64>> = record
        .engine_scores
        .iter()
        .map(|s| s.as_deref().and_then(parse_score))
        .collect();
    if let Some(m) = record.referee_score.as_deref().and_then(parse_score) {
        margin = m;
    } else if let (Some(a), Some(b)) = (engine_margins[0], engine_margins[1]) {
        if a == b {
            margin = a;
        }
    }
    margin
}

/// Sends `genmove` to the side to move under the referee's clock (its `time_left` first) and
/// charges the wall time it took. A move slower than the time left (plus the grace) is a
/// [`ClientError::Timeout`], as is one the clock flags after the answer came.
async fn timed_genmove(
    seat: &mut Seat,
    color: Color,
    clock: Option<&mut RefereeClock>,
    record: &mut GameRecord,
) -> Result<String, ClientError> {
    let limit = match &clock {
        Some(c) => {
            // An engine without time control may refuse `time_left`; the clock still applies.
            let _ = seat
                .client
                .send(&c.time_left(color), Duration::from_secs(30))
                .await;
            c.move_limit(color)
        }
        None => UNTIMED_MOVE_LIMIT,
    };
    let command = format!("genmove {color}");
    let started = Instant::now();
    let answer = seat.client.send(&command, limit).await;
    let elapsed = started.elapsed();
    let e = seat.engine;
    record.seconds[e] += elapsed.as_secs_f64();
    record.max_move_seconds[e] = record.max_move_seconds[e].max(elapsed.as_secs_f64());
    record.genmoves[e] += 1;
    let text = answer?;
    if let Some(c) = clock {
        let flagged = c.charge(color, elapsed).is_err();
        record.time_left_seconds[color.index()] = Some(c.remaining_seconds(color));
        if flagged {
            return Err(ClientError::Timeout {
                name: format!("{color}({e})"),
                command,
                timeout: limit,
            });
        }
    }
    Ok(text)
}

/// How long a move may take when the match has no clock.
const UNTIMED_MOVE_LIMIT: Duration = Duration::from_secs(60);

fn fault(
    mut record: GameRecord,
    culprit: Color,
    reason: EndReason,
    err: ClientError,
    engines: &[usize; 2],
) -> GameRecord {
    record.fault = Some(err.to_string());
    record.winner = Some(engines[culprit.opponent().index()]);
    record.result = result_string(Some(culprit.opponent()), 0.0, &reason);
    record.reason = reason;
    record
}

#[allow(clippy::too_many_arguments)]
async fn finish_fault(
    mut record: GameRecord,
    culprit: Color,
    reason: EndReason,
    err: ClientError,
    engines: &[usize; 2],
    seats: Vec<Seat>,
    game: &Game,
    opts: &MatchOptions,
) -> GameRecord {
    record.fault = Some(err.to_string());
    finish(
        record,
        Some(culprit.opponent()),
        0.0,
        reason,
        engines,
        seats,
        game,
        opts,
    )
    .await
}

#[allow(clippy::too_many_arguments)]
async fn finish(
    mut record: GameRecord,
    winner: Option<Color>,
    margin: f64,
    reason: EndReason,
    engines: &[usize; 2],
    seats: Vec<Seat>,
    game: &Game,
    opts: &MatchOptions,
) -> GameRecord {
    record.winner = winner.map(|c| engines[c.index()]);
    record.result = result_string(winner, margin, &reason);
    record.reason = reason;
    for seat in seats {
        seat.client.quit().await;
    }
    if let Some(dir) = &opts.sgf_dir {
        let mut text = crate::go::sgf::save(game);
        // Add players and result to the root node.
        let extra = format!(
            "PB[{}]PW[{}]RE[{}]",
            sgf_escape(&[&opts.black, &opts.white][engines[0]].to_string()),
            sgf_escape(&[&opts.black, &opts.white][engines[1]].to_string()),
            record.result
        );
        if let Some(pos) = text.find("SZ[") {
            text.insert_str(pos, &extra);
        }
        let path = dir.join(format!("game-{:04}.sgf", record.game));
        if let Err(e) = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&path, text)) {
            tracing::warn!("cannot write {}: {e}", path.display());
        }
    }
    record
}

fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

async fn referee_score(cmd: &str, game: &Game, opts: &MatchOptions) -> Option<String> {
    let mut r = GtpClient::spawn("referee", cmd).ok()?;
    let t = Duration::from_secs(30);
    setup(&mut r, opts).await.ok()?;
    for (c, m) in game.history() {
        r.send(&format!("play {c} {m}"), t).await.ok()?;
    }
    let s = r.send("final_score", Duration::from_secs(120)).await.ok();
    r.quit().await;
    s
}

/// Plays the match (the games of `opts.shard`); `progress` gets one line per game (the result
/// and the tally). The records, in game order.
pub async fn play_games(opts: &MatchOptions, progress: &dyn Fn(&str)) -> Vec<GameRecord> {
    let mut records = Vec::with_capacity(opts.shard.count(opts.games));
    let mut wins = [0usize; 2];
    let mut draws = 0usize;
    for g in opts.shard.indices(opts.games) {
        let black_engine = if opts.alternate { g % 2 } else { 0 };
        let rec = play_game(opts, g, black_engine).await;
        match rec.winner {
            Some(w) => wins[w] += 1,
            None => draws += 1,
        }
        progress(&format!(
            "game {}/{}: black={} {} in {} moves{} (wins {} : {}, draws {})",
            g + 1,
            opts.games,
            rec.black_engine,
            rec.result,
            rec.moves,
            rec.fault
                .as_deref()
                .map(|f| format!(" [{f}]"))
                .unwrap_or_default(),
            wins[0],
            wins[1],
            draws
        ));
        records.push(rec);
    }
    records
}

/// Plays the match (the games of `opts.shard`) and summarizes it.
pub async fn run_match(opts: &MatchOptions, progress: &dyn Fn(&str)) -> MatchSummary {
    summarize(opts, play_games(opts, progress).await)
}

/// The match's statistics from its game records (in game order): what `tablero match`
/// prints, and `tablero merge` from the records of its shards.
pub fn summarize(opts: &MatchOptions, records: Vec<GameRecord>) -> MatchSummary {
    let n = records.len();
    let engine = |e: usize| {
        let wins = records.iter().filter(|r| r.winner == Some(e)).count();
        let draws = records.iter().filter(|r| r.winner.is_none()).count();
        let secs: f64 = records.iter().map(|r| r.seconds[e]).sum();
        let moves: usize = records.iter().map(|r| r.genmoves[e]).sum();
        let lost = |r: &&GameRecord| r.fault.is_some() && r.winner == Some(1 - e);
        let faults = records.iter().filter(lost).count();
        let time_losses = records
            .iter()
            .filter(lost)
            .filter(|r| r.reason == EndReason::Timeout)
            .count();
        let max_move_seconds = records
            .iter()
            .map(|r| r.max_move_seconds[e])
            .fold(0.0, f64::max);
        let score = wins as f64 + 0.5 * draws as f64;
        EngineSummary {
            command: if e == 0 {
                opts.black.clone()
            } else {
                opts.white.clone()
            },
            wins,
            losses: n - wins - draws,
            draws,
            win_rate: if n > 0 { score / n as f64 } else { 0.0 },
            wilson95: wilson95(score, n as f64),
            seconds_per_move: if moves > 0 { secs / moves as f64 } else { 0.0 },
            max_move_seconds,
            faults,
            time_losses,
        }
    };
    let (agree, disagree) = records.iter().fold((0, 0), |(a, d), r| {
        match (
            r.engine_scores[0].as_deref().and_then(parse_score),
            r.engine_scores[1].as_deref().and_then(parse_score),
        ) {
            (Some(x), Some(y)) if x == y => (a + 1, d),
            (Some(_), Some(_)) => (a, d + 1),
            _ => (a, d),
        }
    });
    MatchSummary {
        games: n,
        size: opts.size,
        komi: opts.komi,
        handicap: opts.handicap,
        engines: [engine(0), engine(1)],
        average_moves: if n > 0 {
            records.iter().map(|r| r.moves as f64).sum::<f64>() / n as f64
        } else {
            0.0
        },
        score_agreements: agree,
        score_disagreements: disagree,
        records,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_parse() {
        assert_eq!(parse_score("B+3.5"), Some(3.5));
        assert_eq!(parse_score("W+12"), Some(-12.0));
        assert_eq!(parse_score("0"), Some(0.0));
        assert_eq!(parse_score("W+R"), None);
        assert_eq!(parse_score("nonsense"), None);
    }
}
