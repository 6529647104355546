//! tablero's engine as a learning-track game server for remote clients (`tablero gvgai
//! host`): the message flow of GVG-AI's `LearningMachine.runGames`.
//!
//! START; phase 1 plays the training levels in order (a client's END answer other than a
//! level number stops it); phase 2 plays the levels the client's END answers choose, until
//! it answers `END_TRAINING`/`END_VALIDATION` (or `max_games` is reached); then the
//! validation levels `validation_times` times; FINISH. Each level is INIT, one ACT per tick,
//! then END (or ABORT if the client aborted). The learning track's 10-pixel cells are used.
//!
//! Replies: an id lower than expected is a stale answer and skipped; a higher id ("from the
//! future"), a malformed or oversized line or an unknown payload counts as no answer (NIL for
//! an act, a random level after END) and is logged, as in GVG-AI. A closed connection or no
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
use crate::gvgai::engine::{Action, BlockSize, Game, Outcome};

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
    /// Replies that were no answer: malformed or oversized lines, unknown payloads, ids from
    /// the future.
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
    summary: HostSummary,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Conn<R, W> {
    async fn tell(&mut self, payload: String) -> Result<(), LineError> {
        let line = Frame::new(self.next_id, payload).to_line();
        self.next_id += 1;
        self.output.send(line).await?;
        Ok(())
    }

    /// Send one message and wait for its reply payload (`None`: no valid answer).
    async fn ask(&mut self, payload: String) -> Result<Option<String>, LineError> {
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
                    warn!("{}", LineError::TooLong { len, max: self.max });
                    return Ok(None);
                }
                RawLine::NotUtf8 => {
                    self.summary.bad_replies += 1;
                    warn!("{}", LineError::NotUtf8);
                    return Ok(None);
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            match Frame::parse_client(&line) {
                Err(e) => {
                    self.summary.bad_replies += 1;
                    warn!("{e}");
                    return Ok(None);
                }
                Ok(f) if f.id == id => return Ok(Some(f.payload)),
                Ok(f) if f.id < id => {
                    self.summary.stale_replies += 1;
                    continue;
                }
                Ok(f) => {
                    self.summary.bad_replies += 1;
                    warn!(
                        got = f.id,
                        expected = id,
                        "reply from the future; taken as no answer"
                    );
                    return Ok(None);
                }
            }
        }
    }

    fn reply(&mut self, payload: Option<String>) -> Option<Reply> {
        let p = payload?;
        match Reply::parse(&p) {
            Ok(r) => Some(r),
            Err(e) => {
                self.summary.bad_replies += 1;
                warn!("{e}");
                None
            }
        }
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
    match conn.reply(start) {
        Some(Reply::StartDone) => {}
        other => {
            return Err(LineError::StartRefused(format!("{other:?}")));
        }
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
        conn.tell("FINISH".into()).await?;
        conn.summary.finished = true;
        return Ok(());
    }
    // Phase 2: the levels the client chooses.
    while let LevelEnd::Next(level) = last {
        if conn.summary.games.len() >= settings.max_games || settings.training.is_empty() {
            break;
        }
        last = play_level(conn, settings, level.min(n_levels - 1), false, &mut rng).await?;
    }
    // Validation.
    if !matches!(last, LevelEnd::Disqualified) {
        'validation: for _ in 0..settings.validation_times {
            for &level in &settings.validation {
                if conn.summary.games.len() >= settings.max_games {
                    break 'validation;
                }
                if let LevelEnd::Disqualified =
                    play_level(conn, settings, level, true, &mut rng).await?
                {
                    break 'validation;
                }
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
    let init = Sso::from_state(&state, Phase::Init, validation);
    let answer = conn.ask(to_json(&init)?).await?;
    if conn.reply(answer) == Some(Reply::InitFailed) {
        info!(level, "client failed to initialise: disqualified");
        return Ok(LevelEnd::Disqualified);
    }
    let mut aborted = false;
    let mut reply_ms_max: f64 = 0.0;
    while !state.is_over() {
        let obs = Sso::from_state(&state, Phase::Act, validation);
        let sent = Instant::now();
        let answer = conn.ask(to_json(&obs)?).await?;
        reply_ms_max = reply_ms_max.max(sent.elapsed().as_secs_f64() * 1000.0);
        let action = match conn.reply(answer) {
            Some(Reply::Action(a))
                if a == Action::Nil || state.available_actions().contains(&a) =>
            {
                a
            }
            Some(Reply::Escape | Reply::Abort | Reply::EndOverspent) => {
                aborted = true;
                break;
            }
            _ => Action::Nil,
        };
        state.advance(action);
    }
    let phase = if aborted { Phase::Abort } else { Phase::End };
    let end = Sso::from_state(&state, phase, validation);
    let outcome = Outcome::of(&state);
    let game = HostGame {
        level,
        validation,
        win: outcome.win && !aborted,
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
    let Some(p) = answer else {
        return Ok(LevelEnd::Disqualified);
    };
    Ok(match Reply::parse(&p) {
        Ok(Reply::Level(n)) if n <= NUM_TRAINING_LEVELS => LevelEnd::Next(n),
        Ok(Reply::EndTraining | Reply::EndValidation) => LevelEnd::FinishRound,
        Ok(Reply::EndOverspent) => LevelEnd::Disqualified,
        _ => LevelEnd::Next(rng.gen_range(0..NUM_TRAINING_LEVELS)),
    })
}

fn to_json(sso: &Sso) -> Result<String, LineError> {
    serde_json::to_string(sso).map_err(|e| LineError::BadObservation(e.to_string()))
}
