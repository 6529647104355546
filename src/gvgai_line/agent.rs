//! tablero as a learning-track client: answers a game server's START, INIT, ACT and END
//! messages with a controller (`tablero gvgai connect`, and each connection to the `[gvgai]`
//! listener of `tablero serve`).
//!
//! The async side only moves lines; the controller lives on its own thread (`Worker`). At
//! every INIT a fresh controller is built (seeded per game). Its forward model is the named
//! game's rules with the state rebuilt from each observation; when the observation shows
//! exactly what the model predicted after the previous action, the predicted state (with its
//! hidden counters) is kept instead, and otherwise the sprites it predicted right keep their
//! hidden state. Without a game, or when an observation cannot be
//! rebuilt, the controller is replaced by a seeded random choice among the observation's
//! actions. Every ACT is answered within the act budget: if the controller has not answered
//! by then, it is cancelled and `ACTION_NIL` is sent.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio_util::codec::{FramedRead, FramedWrite};
use tokio_util::sync::CancellationToken;
use tracing::{debug, info, warn};

use super::LineError;
use super::codec::{Frame, LineCodec, ObsType, RawLine};
use super::message::{NUM_TRAINING_LEVELS, Reply, ServerMessage};
use super::observation::{GameWinner, Phase, Sso};
use crate::budget::{Budget, CancelFlag};
use crate::controllers::make;
use crate::gvgai::controllers::{ACT_TIME_DISQ, Controller, ControllerSettings};
use crate::gvgai::engine::{Action, Game, GameState};

/// How an agent session plays.
#[derive(Debug, Clone)]
pub struct AgentSettings {
    /// A `--controller` spec.
    pub controller: String,
    pub seed: u64,
    /// Count-based budget per act (see [`ControllerSettings`]).
    pub iterations: Option<usize>,
    /// The game whose rules give the controller its forward model.
    pub game: Option<Arc<Game>>,
    pub act_time: Duration,
    pub init_time: Duration,
    pub max_line_bytes: usize,
}

/// One level as the agent saw it end.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentGame {
    pub validation: bool,
    pub win: bool,
    pub aborted: bool,
    pub score: f64,
    pub ticks: i32,
    pub acts: usize,
    /// Longest time from an ACT line's arrival to the reply being written.
    pub act_ms_max: f64,
    /// Acts answered NIL because the controller missed the budget.
    pub late_acts: usize,
    /// Acts answered with the forward model (the rest: random fallback).
    pub model_acts: usize,
}

/// What an agent session did.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentSummary {
    pub controller: String,
    pub game: Option<String>,
    pub games: Vec<AgentGame>,
    pub wins: usize,
    /// FINISH was received.
    pub finished: bool,
    pub act_ms_max: f64,
    /// Server lines that could not be understood (answered with an `ERROR` payload).
    pub bad_messages: usize,
    pub error: Option<String>,
}

enum Job {
    Init {
        sso: Box<Sso>,
        game_index: u64,
        budget: Budget,
        seq: u64,
    },
    Act {
        sso: Box<Sso>,
        budget: Budget,
        seq: u64,
    },
    End,
}

struct Done {
    seq: u64,
    action: Action,
    model: bool,
}

/// The controller thread.
struct Worker {
    settings: AgentSettings,
    controller: Option<Box<dyn Controller>>,
    predicted: Option<GameState>,
    rng: Xoshiro256PlusPlus,
}

impl Worker {
    fn model(&mut self, sso: &Sso) -> Option<GameState> {
        let game = self.settings.game.as_ref()?;
        let obs = match sso.to_observed() {
            Ok(o) => o,
            Err(e) => {
                warn!("cannot rebuild the game from the observation: {e}");
                return None;
            }
        };
        let rules = Arc::clone(&game.rules);
        let rebuilt = match self.predicted.take() {
            Some(mut p) if p.shows(&obs) => {
                p.tick = obs.tick.max(0);
                return Some(p);
            }
            Some(p) => GameState::from_observed_after(rules, &obs, self.rng.r#gen(), &p),
            None => GameState::from_observed(rules, &obs, self.rng.r#gen()),
        };
        match rebuilt {
            Ok(s) => Some(s),
            Err(e) => {
                warn!("cannot rebuild the game from the observation: {e}");
                None
            }
        }
    }

    fn random(&mut self, sso: &Sso) -> Action {
        let acts = sso.actions();
        if acts.is_empty() {
            Action::Nil
        } else {
            acts[self.rng.gen_range(0..acts.len())]
        }
    }

    fn run(mut self, jobs: std::sync::mpsc::Receiver<Job>, done: mpsc::UnboundedSender<Done>) {
        while let Ok(job) = jobs.recv() {
            match job {
                Job::Init {
                    sso,
                    game_index,
                    budget,
                    seq,
                } => {
                    self.predicted = None;
                    let settings = ControllerSettings {
                        seed: self.settings.seed.wrapping_add(game_index),
                        iterations: self.settings.iterations,
                    };
                    self.controller = make(&self.settings.controller, &settings).ok();
                    let state = self.model(&sso);
                    if let (Some(c), Some(s)) = (self.controller.as_mut(), state.as_ref()) {
                        c.init(s, &budget);
                    }
                    let _ = done.send(Done {
                        seq,
                        action: Action::Nil,
                        model: state.is_some(),
                    });
                }
                Job::Act { sso, budget, seq } => {
                    let needs_model = self.controller.as_ref().is_none_or(|c| c.needs_model());
                    let state = if needs_model || self.settings.game.is_some() {
                        self.model(&sso)
                    } else {
                        None
                    };
                    let (action, model) = match (self.controller.as_mut(), state.as_ref()) {
                        (Some(c), Some(s)) => {
                            let a = c.act(s, &budget);
                            // An action the remote avatar does not offer is played as NIL.
                            let offered = sso.actions();
                            if a == Action::Nil || offered.contains(&a) || offered.is_empty() {
                                (a, true)
                            } else {
                                (Action::Nil, true)
                            }
                        }
                        _ => (self.random(&sso), false),
                    };
                    let _ = done.send(Done { seq, action, model });
                    self.predicted = state.map(|mut s| {
                        s.advance(action);
                        s
                    });
                }
                Job::End => {
                    self.predicted = None;
                    self.controller = None;
                }
            }
        }
    }
}

/// Serve one learning-track connection as the client side, until FINISH, the peer closing,
/// a fatal protocol error or `cancel`.
pub async fn run_agent<R, W>(
    reader: R,
    writer: W,
    settings: &AgentSettings,
    cancel: CancellationToken,
) -> AgentSummary
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut summary = AgentSummary {
        controller: settings.controller.clone(),
        game: settings.game.as_ref().map(|g| g.name.clone()),
        games: Vec::new(),
        wins: 0,
        finished: false,
        act_ms_max: 0.0,
        bad_messages: 0,
        error: None,
    };
    if let Err(e) = make(&settings.controller, &ControllerSettings::seeded(0)) {
        summary.error = Some(e.to_string());
        return summary;
    }
    if settings.game.is_none()
        && make(&settings.controller, &ControllerSettings::seeded(0)).is_ok_and(|c| c.needs_model())
    {
        warn!(
            controller = %settings.controller,
            "no game given (--game): no forward model; playing random moves instead"
        );
    }
    let (job_tx, job_rx) = std::sync::mpsc::channel::<Job>();
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<Done>();
    let worker = Worker {
        settings: settings.clone(),
        controller: None,
        predicted: None,
        rng: Xoshiro256PlusPlus::seed_from_u64(settings.seed ^ 0x9e37_79b9_7f4a_7c15),
    };
    let spawned = std::thread::Builder::new()
        .name("gvgai-controller".into())
        .spawn(move || worker.run(job_rx, done_tx));
    if let Err(e) = spawned {
        summary.error = Some(format!("cannot start the controller thread: {e}"));
        return summary;
    }
    let result = session(
        reader,
        writer,
        settings,
        &cancel,
        &job_tx,
        &mut done_rx,
        &mut summary,
    )
    .await;
    drop(job_tx);
    if let Err(e) = result {
        summary.error = Some(e.to_string());
    }
    summary.wins = summary.games.iter().filter(|g| g.win).count();
    summary.act_ms_max = summary
        .games
        .iter()
        .map(|g| g.act_ms_max)
        .fold(0.0, f64::max);
    summary
}

/// The current level's counters.
#[derive(Default)]
struct Level {
    acts: usize,
    act_ms_max: f64,
    late: usize,
    model_acts: usize,
}

/// Reads server messages until FINISH (or an error), answering each.
async fn session<R, W>(
    reader: R,
    writer: W,
    settings: &AgentSettings,
    cancel: &CancellationToken,
    jobs: &std::sync::mpsc::Sender<Job>,
    done: &mut mpsc::UnboundedReceiver<Done>,
    summary: &mut AgentSummary,
) -> Result<(), LineError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let max = settings.max_line_bytes;
    let mut input = FramedRead::new(reader, LineCodec::new(max));
    let mut session = Session {
        settings,
        jobs,
        done,
        summary,
        output: FramedWrite::new(writer, LineCodec::new(max)),
        expected_id: None,
        seq: 0,
        game_index: 0,
        training_ends: 0,
        level: Level::default(),
        validation: false,
        // Answer before GVG-AI's disqualification limit even if the controller is late.
        grace: (ACT_TIME_DISQ.saturating_sub(settings.act_time) / 2).min(Duration::from_millis(5)),
    };
    loop {
        let line = tokio::select! {
            biased;
            () = cancel.cancelled() => return Err(LineError::Cancelled),
            line = input.next() => line,
        };
        let arrived = Instant::now();
        let line = match line {
            None => return Err(LineError::Disconnected),
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(RawLine::TooLong(len))) => return Err(LineError::TooLong { len, max }),
            Some(Ok(RawLine::NotUtf8)) => return Err(LineError::NotUtf8),
            Some(Ok(RawLine::Line(l))) => l,
        };
        if line.trim().is_empty() {
            continue;
        }
        let frame = Frame::parse_server(&line)?;
        session.check_id(frame.id);
        if session.answer(&frame, arrived).await?.is_break() {
            return Ok(());
        }
    }
}

/// One connection's state between server messages.
struct Session<'a, W> {
    settings: &'a AgentSettings,
    jobs: &'a std::sync::mpsc::Sender<Job>,
    done: &'a mut mpsc::UnboundedReceiver<Done>,
    summary: &'a mut AgentSummary,
    output: FramedWrite<W, LineCodec>,
    /// The id the next server message should carry.
    expected_id: Option<u64>,
    /// The number of the last job given to the worker.
    seq: u64,
    /// Levels initialised so far (seeds each level's controller).
    game_index: u64,
    /// Training levels ended so far.
    training_ends: usize,
    level: Level,
    /// Whether the current level is a validation level (GVG-AI sets it in INIT only).
    validation: bool,
    /// How long past the act budget a late controller is waited for.
    grace: Duration,
}

impl<W: AsyncWrite + Unpin> Session<'_, W> {
    /// Warns when a server message id is out of order.
    fn check_id(&mut self, id: u64) {
        if let Some(e) = self.expected_id {
            if id != e {
                warn!(got = id, expected = e, "server message id out of order");
            }
        }
        self.expected_id = Some(id.wrapping_add(1));
    }

    /// Writes the reply to message `id`.
    async fn reply(&mut self, id: u64, payload: String) -> Result<(), LineError> {
        let line = Frame::new(id, payload)
            .with_obs_type(ObsType::Json)
            .to_line();
        self.output.send(line).await?;
        Ok(())
    }

    /// Answers one server message; breaks at FINISH.
    async fn answer(
        &mut self,
        frame: &Frame,
        arrived: Instant,
    ) -> Result<ControlFlow<()>, LineError> {
        let msg = match ServerMessage::parse(&frame.payload) {
            Ok(m) => m,
            Err(e) => {
                self.summary.bad_messages += 1;
                warn!("cannot understand the server: {e}");
                let text = e.to_string().replace(['#', '\n', '\r'], " ");
                self.reply(frame.id, format!("ERROR {text}")).await?;
                return Ok(ControlFlow::Continue(()));
            }
        };
        match msg {
            ServerMessage::Start => {
                self.reply(frame.id, Reply::StartDone.as_payload()).await?;
            }
            ServerMessage::Finish => {
                self.summary.finished = true;
                return Ok(ControlFlow::Break(()));
            }
            ServerMessage::Observation(sso) => match sso.phase {
                Some(Phase::Init) => self.init(frame.id, sso, arrived).await?,
                Some(Phase::Act) => self.act(frame.id, sso, arrived).await?,
                Some(phase @ (Phase::End | Phase::Abort)) => {
                    self.end(frame.id, &sso, phase).await?
                }
                Some(Phase::Start) | None => {
                    self.summary.bad_messages += 1;
                    debug!("observation without an INIT/ACT/END/ABORT phase");
                    let payload = "ERROR observation without a phase".into();
                    self.reply(frame.id, payload).await?;
                }
            },
        }
        Ok(ControlFlow::Continue(()))
    }

    /// INIT: a new level; the worker builds its controller within the init budget.
    async fn init(&mut self, id: u64, sso: Box<Sso>, arrived: Instant) -> Result<(), LineError> {
        self.level = Level::default();
        self.validation = sso.is_validation.unwrap_or(false);
        self.seq += 1;
        let budget = Budget::new(arrived + self.settings.init_time, CancelFlag::new());
        let cancel_init = budget.cancel.clone();
        let _ = self.jobs.send(Job::Init {
            sso,
            game_index: self.game_index,
            budget,
            seq: self.seq,
        });
        self.game_index += 1;
        let wait = self.settings.init_time + Duration::from_millis(50);
        if wait_for(self.done, self.seq, arrived + wait)
            .await
            .is_none()
        {
            cancel_init.cancel();
            warn!("controller initialisation overran its budget");
        }
        self.reply(id, Reply::InitDone.as_payload()).await
    }

    /// ACT: the controller's action, or `ACTION_NIL` if it is late.
    async fn act(&mut self, id: u64, sso: Box<Sso>, arrived: Instant) -> Result<(), LineError> {
        self.seq += 1;
        let budget = Budget::new(arrived + self.settings.act_time, CancelFlag::new());
        let cancel_act = budget.cancel.clone();
        let _ = self.jobs.send(Job::Act {
            sso,
            budget,
            seq: self.seq,
        });
        let deadline = arrived + self.settings.act_time + self.grace;
        let action = match wait_for(self.done, self.seq, deadline).await {
            Some(d) => {
                self.level.model_acts += usize::from(d.model);
                d.action
            }
            None => {
                cancel_act.cancel();
                self.level.late += 1;
                Action::Nil
            }
        };
        self.reply(id, Reply::Action(action).as_payload()).await?;
        self.level.acts += 1;
        self.level.act_ms_max = self
            .level
            .act_ms_max
            .max(arrived.elapsed().as_secs_f64() * 1000.0);
        Ok(())
    }

    /// END or ABORT: the level's record, then the next level to play.
    async fn end(&mut self, id: u64, sso: &Sso, phase: Phase) -> Result<(), LineError> {
        let _ = self.jobs.send(Job::End);
        let validation = self.validation || sso.is_validation.unwrap_or(false);
        let level = &self.level;
        let g = AgentGame {
            validation,
            win: sso.game_winner == Some(GameWinner::PlayerWins),
            aborted: phase == Phase::Abort,
            score: sso.game_score.unwrap_or(0.0),
            ticks: sso.game_tick.unwrap_or(0),
            acts: level.acts,
            act_ms_max: (level.act_ms_max * 10.0).round() / 10.0,
            late_acts: level.late,
            model_acts: level.model_acts,
        };
        info!(
            win = g.win,
            score = g.score,
            ticks = g.ticks,
            validation,
            act_ms_max = g.act_ms_max,
            "level over"
        );
        self.summary.games.push(g);
        self.level = Level::default();
        // Play the training levels in order, then end training.
        let next = if validation {
            Reply::EndValidation
        } else {
            self.training_ends += 1;
            if self.training_ends < NUM_TRAINING_LEVELS {
                Reply::Level(self.training_ends)
            } else {
                Reply::EndTraining
            }
        };
        self.reply(id, next.as_payload()).await
    }
}

/// Wait for the worker's answer to job `seq` until `deadline` (older answers are dropped).
async fn wait_for(
    done: &mut mpsc::UnboundedReceiver<Done>,
    seq: u64,
    deadline: Instant,
) -> Option<Done> {
    let deadline = tokio::time::Instant::from_std(deadline);
    loop {
        match tokio::time::timeout_at(deadline, done.recv()).await {
            Ok(Some(d)) if d.seq == seq => return Some(d),
            Ok(Some(_)) => continue,
            Ok(None) | Err(_) => return None,
        }
    }
}
