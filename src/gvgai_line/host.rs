//! tablero's engine as a learning-track game server for remote clients (`tablero gvgai
//! host`): the message flow of GVG-AI's `LearningMachine.runGames`.
//!
//! START; phase 1 plays the training levels in order (a client's END answer other than a
//! level number stops it); phase 2 plays the levels the client's END answers choose, until
//! it answers `END_TRAINING`/`END_VALIDATION` (or `max_games` is reached); then the
//! validation levels `validation_times` times; FINISH. Each level is INIT, one ACT per tick,
//! then END (or ABORT if the client aborted). The learning track's 10-pixel cells are used.
//! The observations carry the fields as GVG-AI's server fills them: `gameTick` 0 in the
//! session's first INIT and −1 in later ones (the Java game is reset between levels), the
//! cycle's tick in ACTs, the last cycle's tick (`ticks` of the result) in END/ABORT;
//! `isValidation` only in INIT. An abort plays out its cycle with the avatar standing still,
//! as `ACTION_ESCAPE` does in GVG-AI. A disqualification in training ends the session
//! without FINISH, as `LearningMachine.runGames` returns there.
//!
//! Replies (GVG-AI `SocketComm.commRecv`): a line whose id is not the expected one (stale or
//! "from the future"), a line without `#`, a blank, oversized or non-UTF-8 line is skipped
//! (logged, counted) and the server keeps waiting; a reply with the right id but an unknown
//! payload is NIL for an act and a random level after END. A closed connection or no valid
//! reply within `reply_timeout` ends the session.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::{FramedRead, FramedWrite};
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use super::LineError;
use super::codec::{Frame, LineCodec, RawLine};
use super::message::{NUM_TRAINING_LEVELS, Reply};
use super::observation::{Phase, Sso};
use crate::gvgai::engine::{Action, BlockSize, Game, GameState, Outcome};

/// How a host session runs.
#[derive(Debug, Clone)]
pub struct HostSettings {
    pub game: Arc<Game>,
    /// Phase-1 training levels, in order.
    pub training: Vec<usize>,
    /// Validation levels.
    pub validation: Vec<usize>,
    pub validation_times: usize,
    /// Most levels played in the whole session.
    pub max_games: usize,
    /// Seed of the games (game n uses seed + n) and of random level choices.
    pub seed: i64,
    pub reply_timeout: Duration,
    pub max_line_bytes: usize,
}

/// One level played.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HostGame {
    pub level: usize,
    pub validation: bool,
    pub win: bool,
    pub score: f64,
    pub ticks: i32,
    pub aborted: bool,
    /// Longest wait for an ACT reply.
    pub reply_ms_max: f64,
}

/// What a host session did.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct HostSummary {
    pub game: String,
    pub games: Vec<HostGame>,
    pub wins: usize,
    /// FINISH was sent.
    pub finished: bool,
    /// The client was disqualified (INIT_FAILED, or END_OVERSPENT after a level).
    pub disqualified: bool,
    /// Lines skipped (malformed, oversized, not UTF-8, an id from the future) and replies
    /// with an unknown payload (taken as NIL or a random level).
    pub bad_replies: usize,
    /// Replies with an old id, skipped.
    pub stale_replies: usize,
    pub error: Option<String>,
}

enum LevelEnd {
    Next(usize),
    FinishRound,
    Disqualified,
}

struct Conn<R, W> {
    input: FramedRead<R, LineCodec>,
    output: FramedWrite<W, LineCodec>,
    next_id: u64,
    timeout: Duration,
    max: usize,
    /// Levels whose INIT was sent (the Java game's tick is 0 before the first, −1 after).
    levels_started: usize,
    summary: HostSummary,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Conn<R, W> {
    async fn tell(&mut self, payload: String) -> Result<(), LineError> {
        let line = Frame::new(self.next_id, payload).to_line();
        self.next_id += 1;
        self.output.send(line).await?;
        Ok(())
    }

    /// Send one message and wait for the reply with its id; other lines are skipped.
    async fn ask(&mut self, payload: String) -> Result<String, LineError> {
        let id = self.next_id;
        self.tell(payload).await?;
        let deadline = tokio::time::Instant::now() + self.timeout;
        loop {
            let line = match tokio::time::timeout_at(deadline, self.input.next()).await {
                Err(_) => return Err(LineError::Timeout(self.timeout.as_secs_f64())),
                Ok(None) => return Err(LineError::Disconnected),
                Ok(Some(Err(e))) => return Err(e.into()),
                Ok(Some(Ok(l))) => l,
            };
            let line = match line {
                RawLine::Line(l) => l,
                RawLine::TooLong(len) => {
                    self.summary.bad_replies += 1;
                    warn!("{}; skipped", LineError::TooLong { len, max: self.max });
                    continue;
                }
                RawLine::NotUtf8 => {
                    self.summary.bad_replies += 1;
                    warn!("{}; skipped", LineError::NotUtf8);
                    continue;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            match Frame::parse_client(&line) {
                Err(e) => {
                    self.summary.bad_replies += 1;
                    warn!("{e}; skipped");
                }
                Ok(f) if f.id == id => return Ok(f.payload.trim().to_string()),
                Ok(f) if f.id < id => self.summary.stale_replies += 1,
                Ok(f) => {
                    self.summary.bad_replies += 1;
                    warn!(got = f.id, expected = id, "reply from the future; skipped");
                }
            }
        }
    }

    /// Count and log a reply whose payload means nothing at this point.
    fn unknown(&mut self, payload: &str) {
        self.summary.bad_replies += 1;
        warn!(
            "{}",
            LineError::UnknownReply(payload.chars().take(80).collect())
        );
    }
}

/// What a reply to an ACT does (GVG-AI `LearningPlayer.act` and `MovingAvatar`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ActReply {
    Play(Action),
    /// `ABORT`, `END_OVERSPENT`, `ACTION_ESCAPE`: the game is aborted.
    Abort,
    /// Not an action: NIL is played.
    Unknown,
}

fn act_reply(payload: &str) -> ActReply {
    if payload == "ABORT" || payload == "END_OVERSPENT" {
        return ActReply::Abort;
    }
    // `Types.ACTIONS.fromString` ignores case.
    match Reply::parse(&payload.to_ascii_uppercase()) {
        Ok(Reply::Action(a)) => ActReply::Play(a),
        Ok(Reply::Escape) => ActReply::Abort,
        _ => ActReply::Unknown,
    }
}

/// Serve one client connection as the game server.
pub async fn run_host<R, W>(
    reader: R,
    writer: W,
    settings: &HostSettings,
    cancel: CancellationToken,
) -> HostSummary
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let max = settings.max_line_bytes;
    let mut conn = Conn {
        input: FramedRead::new(reader, LineCodec::new(max)),
        output: FramedWrite::new(writer, LineCodec::new(max)),
        next_id: 0,
        timeout: settings.reply_timeout,
        max,
        levels_started: 0,
        summary: HostSummary {
            game: settings.game.name.clone(),
            ..HostSummary::default()
        },
    };
    let outcome = tokio::select! {
        r = host_session(&mut conn, settings) => r,
        () = cancel.cancelled() => Err(LineError::Cancelled),
    };
    let mut summary = conn.summary;
    if let Err(e) = outcome {
        summary.error = Some(e.to_string());
    }
    summary.wins = summary.games.iter().filter(|g| g.win).count();
    summary
}

async fn host_session<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(
    conn: &mut Conn<R, W>,
    settings: &HostSettings,
) -> Result<(), LineError> {
    let n_levels = settings.game.levels.len();
    for &l in settings.training.iter().chain(&settings.validation) {
        if l >= n_levels {
            return Err(LineError::Engine(
                crate::gvgai::engine::EngineError::NoLevel {
                    game: settings.game.name.clone(),
                    level: l,
                },
            ));
        }
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed as u64);
    let start = conn.ask("START".into()).await?;
    if !start.eq_ignore_ascii_case("START_DONE") {
        return Err(LineError::StartRefused(start.chars().take(80).collect()));
    }
    // Phase 1: the training levels in order.
    let mut last = LevelEnd::Next(0);
    for &level in &settings.training {
        if conn.summary.games.len() >= settings.max_games {
            break;
        }
        last = play_level(conn, settings, level, false, &mut rng).await?;
        if !matches!(last, LevelEnd::Next(_)) {
            break;
        }
    }
    if matches!(last, LevelEnd::Disqualified) {
        // `runGames` returns without FINISH; the connection closes.
        return Ok(());
    }
    // Phase 2: the levels the client chooses.
    while let LevelEnd::Next(level) = last {
        if conn.summary.games.len() >= settings.max_games || settings.training.is_empty() {
            break;
        }
        last = play_level(conn, settings, level.min(n_levels - 1), false, &mut rng).await?;
    }
    if matches!(last, LevelEnd::Disqualified) {
        return Ok(());
    }
    // Validation: a disqualification ends the round, the next round still plays.
    'validation: for _ in 0..settings.validation_times {
        for &level in &settings.validation {
            if conn.summary.games.len() >= settings.max_games {
                break 'validation;
            }
            if let LevelEnd::Disqualified =
                play_level(conn, settings, level, true, &mut rng).await?
            {
                break;
            }
        }
    }
    conn.tell("FINISH".into()).await?;
    conn.summary.finished = true;
    Ok(())
}

async fn play_level<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(
    conn: &mut Conn<R, W>,
    settings: &HostSettings,
    level: usize,
    validation: bool,
    rng: &mut Xoshiro256PlusPlus,
) -> Result<LevelEnd, LineError> {
    let seed = settings.seed.wrapping_add(conn.summary.games.len() as i64);
    let mut state = settings.game.start_with(level, seed, BlockSize::Learning)?;
    let mut init = Sso::from_state(&state, Phase::Init, validation);
    init.game_tick = Some(init_tick(conn.levels_started));
    conn.levels_started += 1;
    let answer = conn.ask(to_json(&init)?).await?;
    if answer == "INIT_FAILED" {
        info!(level, "client failed to initialise: disqualified");
        conn.summary.disqualified = true;
        return Ok(LevelEnd::Disqualified);
    }
    let mut aborted = false;
    let mut reply_ms_max: f64 = 0.0;
    while !state.is_over() {
        // Only INIT carries `isValidation` (GVG-AI sets it there alone).
        let obs = Sso::from_state(&state, Phase::Act, false);
        let sent = Instant::now();
        let answer = conn.ask(to_json(&obs)?).await?;
        reply_ms_max = reply_ms_max.max(sent.elapsed().as_secs_f64() * 1000.0);
        let action = match act_reply(&answer) {
            ActReply::Play(a) if a == Action::Nil || state.available_actions().contains(&a) => a,
            ActReply::Play(_) => Action::Nil,
            ActReply::Abort => {
                // GVG-AI ends the game but finishes the cycle; ESCAPE moves nothing.
                aborted = true;
                state.advance(Action::Nil);
                break;
            }
            ActReply::Unknown => {
                conn.unknown(&answer);
                Action::Nil
            }
        };
        state.advance(action);
    }
    let outcome = Outcome::of(&state);
    let phase = if aborted { Phase::Abort } else { Phase::End };
    let mut end = Sso::from_state(&state, phase, false);
    end.game_tick = Some(end_tick(&state));
    end.is_game_over = Some(true);
    if aborted {
        end.avatar_last_action = Some("ACTION_ESCAPE".into());
    }
    let game = HostGame {
        level,
        validation,
        win: outcome.win,
        score: outcome.score,
        ticks: outcome.ticks,
        aborted,
        reply_ms_max: (reply_ms_max * 10.0).round() / 10.0,
    };
    info!(
        level,
        validation,
        win = game.win,
        score = game.score,
        ticks = game.ticks,
        "level over"
    );
    conn.summary.games.push(game);
    let answer = conn.ask(to_json(&end)?).await?;
    Ok(match Reply::parse(&answer) {
        _ if answer.eq_ignore_ascii_case("END_OVERSPENT") => {
            conn.summary.disqualified = true;
            LevelEnd::Disqualified
        }
        Ok(Reply::Level(n)) if n <= NUM_TRAINING_LEVELS => LevelEnd::Next(n),
        Ok(Reply::EndTraining | Reply::EndValidation) => LevelEnd::FinishRound,
        _ => {
            conn.unknown(&answer);
            LevelEnd::Next(rng.gen_range(0..NUM_TRAINING_LEVELS))
        }
    })
}

/// `gameTick` of an INIT: the Java game's tick before its first level is 0; `Game.reset`
/// after every level sets −1, which the next level's INIT shows.
fn init_tick(levels_started: usize) -> i32 {
    if levels_started == 0 { 0 } else { -1 }
}

/// `gameTick` of an END/ABORT: the tick of the game's last cycle (GVG-AI's real game counts
/// cycles from 0; tablero's state counts advances).
fn end_tick(state: &GameState) -> i32 {
    state.tick() - 1
}

fn to_json(sso: &Sso) -> Result<String, LineError> {
    serde_json::to_string(sso).map_err(|e| LineError::BadObservation(e.to_string()))
}
