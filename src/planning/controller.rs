//! The `planner` GVG-AI controller: VGDL → PDDL → embedded planner, on a background thread.
//!
//! - Deterministic games (the translation is exact): plan at `init` within its budget and keep
//!   planning in the background if needed (answering NIL meanwhile, as the thesis does); then
//!   execute the plan, checking before every move that the game is where the plan's replay in
//!   the forward model was (the engine state's key), and replan on a divergence (an action
//!   replaced by NIL that changed nothing is played again). Acts spend their budget waiting
//!   for the background plan: the game does not wait between acts.
//! - Non-deterministic games (sprites frozen in the snapshot, e.g. Butterflies): every act
//!   sends the current state to the planner thread (which plans with a short deadline) and
//!   waits for the answer at most 15 ms; when the new plan is late, the next action of the
//!   previous plan is played (the thesis's proposed plan reuse), and a late answer whose first
//!   action is the one played is taken up at the next act. The game loop is never blocked
//!   past its budget.
//! - Games the translator refuses, and games whose exact model has no plan at all (the game
//!   needs what the model leaves out), are played by the `iw` controller instead.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use crate::budget::Budget;
use crate::gvgai::controllers::{Bfs, Controller};
use crate::gvgai::engine::{Action, GameState};
use crate::planning::vgdl::{TranslateError, TranslateOptions, Translator};
use crate::planning::{PlanError, PlanOptions, ground, solve_task};

/// Time the controller keeps for itself at the end of a budget.
const MARGIN: Duration = Duration::from_millis(8);
/// Search time of one background plan in a deterministic game.
const DETERMINISTIC_TIMEOUT: Duration = Duration::from_secs(120);
/// Search time of one replanning call in a non-deterministic game.
const REPLAN_TIMEOUT: Duration = Duration::from_millis(12);
/// Search time of a replanning call when there is no plan to reuse (at the start, or after
/// the plan ran out): the controller plays NIL until it answers.
const IDLE_REPLAN_TIMEOUT: Duration = Duration::from_millis(500);
/// The longest search time a long replanning request grows to.
const MAX_IDLE_REPLAN_TIMEOUT: Duration = Duration::from_secs(8);
/// The longest an act waits for the planner thread in a non-deterministic game. It is well
/// below the 40 ms budget: on a loaded machine the waiting thread can be woken late, and the
/// act must still return before GVG-AI's 50 ms disqualification.
const REPLAN_WAIT: Duration = Duration::from_millis(15);

struct Request {
    id: u64,
    state: GameState,
    timeout: Duration,
}

struct Planned {
    actions: Vec<Action>,
    /// Deterministic games: the engine state's key before each action, the plan replayed in
    /// the forward model from the state planned from (same length as `actions`); empty
    /// otherwise.
    keys: Vec<u64>,
}

struct Response {
    id: u64,
    result: Result<Planned, RequestError>,
}

/// Why a plan request gave no plan.
#[derive(Debug, thiserror::Error)]
enum RequestError {
    #[error(transparent)]
    Translate(#[from] TranslateError),
    #[error(transparent)]
    Ground(#[from] ground::GroundError),
    #[error(transparent)]
    Plan(#[from] PlanError),
}

fn plan_request(
    translator: &Translator,
    req: &Request,
    threads: usize,
) -> Result<Planned, RequestError> {
    // With sprites frozen, first a cautious model (cells next to a monster avoided), then the
    // plain one if the cautious one has no plan.
    if !translator.exact() {
        if let Ok(p) = plan_request_with(translator, req, threads, true) {
            return Ok(p);
        }
    }
    plan_request_with(translator, req, threads, false)
}

fn plan_request_with(
    translator: &Translator,
    req: &Request,
    threads: usize,
    avoid: bool,
) -> Result<Planned, RequestError> {
    let start = Instant::now();
    let tr = translator.translate_avoiding(&req.state, "game", avoid)?;
    let task = match ground::ground(&tr.domain, &tr.problem) {
        Ok(t) => t,
        Err(ground::GroundError::GoalUnreachable(_)) => {
            return Err(PlanError::Unsolvable.into());
        }
        Err(e) => return Err(e.into()),
    };
    let opts = PlanOptions {
        memory_limit: None,
        timeout: req.timeout,
        optimal: false,
        threads,
        anytime: false,
        planner: None,
    };
    let r = solve_task(task, &opts, start)?;
    let mut actions = Vec::new();
    for name in &r.plan {
        actions.extend(tr.step_actions(name)?);
    }
    actions.extend(std::iter::repeat_n(Action::Nil, tr.pad_nil));
    let keys = if translator.exact() {
        let mut st = req.state.clone();
        actions
            .iter()
            .map(|&a| {
                let k = st.key();
                st.advance(a);
                k
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Planned { actions, keys })
}

struct Active {
    exact: bool,
    tx: Sender<Request>,
    rx: Receiver<Response>,
    next_id: u64,
    /// Id of the request whose answer is awaited (deterministic games).
    waiting: Option<u64>,
    /// Remaining actions.
    plan: VecDeque<Action>,
    /// The engine state's key expected before each remaining action (deterministic games).
    keys: VecDeque<u64>,
    /// Deterministic games: a plan is being followed, its progress checked against `keys`.
    following: bool,
    replans: u64,
    /// The request sent at the last act and the action played then (replanning mode).
    last_played: Option<(u64, Action)>,
    /// A long request sent when there was no plan to reuse (replanning mode); only NIL has
    /// been played since, so its answer is taken whenever it comes.
    idle_request: Option<u64>,
    /// The search time of the next long request: doubled after each one that found nothing
    /// in time (large levels), back to [`IDLE_REPLAN_TIMEOUT`] after a plan.
    idle_timeout: Duration,
}

impl Active {
    fn request(&mut self, state: &GameState, timeout: Duration) -> u64 {
        self.next_id += 1;
        let _ = self.tx.send(Request {
            id: self.next_id,
            state: state.clone(),
            timeout,
        });
        self.next_id
    }

    fn install(&mut self, p: Planned) {
        self.plan = p.actions.into_iter().collect();
        self.keys = p.keys.into_iter().collect();
        self.following = true;
    }

    /// Waits for the answer to `id` until `until`; stale answers are dropped.
    fn wait_for(&mut self, id: u64, until: Instant) -> Option<Result<Planned, RequestError>> {
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(r) if r.id == id => return Some(r.result),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
    }

    /// Waits for the pending request `id` until `until`: its plan is installed, or its error
    /// logged; either way the request is no longer pending.
    fn await_plan(&mut self, id: u64, until: Instant) -> Awaited {
        match self.wait_for(id, until) {
            Some(Ok(p)) => {
                self.waiting = None;
                self.install(p);
                Awaited::Installed
            }
            Some(Err(e)) => {
                tracing::warn!("planner: {e}");
                self.waiting = None;
                Awaited::Failed(e)
            }
            None => Awaited::Pending,
        }
    }

    fn act_deterministic(&mut self, state: &GameState, budget: &Budget) -> Action {
        if let Some(id) = self.waiting {
            // The act's budget is spent waiting for the background plan: the game does not
            // wait between acts, so an act answered at once would give the planner no time.
            match self.await_plan(id, budget.deadline_less(MARGIN)) {
                Awaited::Installed => {}
                Awaited::Failed(_) => {
                    // Plan again from the next state (the error may be a deadline).
                    self.waiting = Some(self.request(state, DETERMINISTIC_TIMEOUT));
                    self.plan.clear();
                    self.following = false;
                    return Action::Nil;
                }
                Awaited::Pending => return Action::Nil,
            }
        }
        // Monitoring: the game must be where the plan's replay in the forward model was (an
        // engine key per step: cheap on large levels, where translating the state to compare
        // facts takes longer than an act). An action replaced by NIL that left the state as it
        // was is played again.
        if self.following {
            let key = state.key();
            if let Some(pos) = self.keys.iter().position(|&k| k == key) {
                self.plan.drain(..pos);
                self.keys.drain(..pos);
                if let Some(&a) = self.plan.front() {
                    return a;
                }
            }
            tracing::info!(
                "planner: the game left the plan (or it ended without a win); replanning"
            );
            self.replans += 1;
            self.plan.clear();
            self.keys.clear();
            self.following = false;
            let id = self.request(state, DETERMINISTIC_TIMEOUT);
            self.waiting = Some(id);
            let until =
                (Instant::now() + Duration::from_millis(15)).min(budget.deadline_less(MARGIN));
            return match self.await_plan(id, until) {
                Awaited::Installed => self.plan.front().copied().unwrap_or(Action::Nil),
                Awaited::Failed(_) => {
                    self.waiting = Some(self.request(state, DETERMINISTIC_TIMEOUT));
                    Action::Nil
                }
                Awaited::Pending => Action::Nil,
            };
        }
        self.plan.front().copied().unwrap_or(Action::Nil)
    }

    fn act_replanning(&mut self, state: &GameState, budget: &Budget) -> Action {
        // No plan to reuse: one long request, NIL until it answers (the avatar stays put).
        if let Some(id) = self.idle_request {
            let until = budget
                .deadline_less(MARGIN)
                .min(Instant::now() + REPLAN_WAIT);
            match self.wait_for(id, until) {
                Some(Ok(p)) => {
                    self.idle_request = None;
                    self.idle_timeout = IDLE_REPLAN_TIMEOUT;
                    self.install(p);
                    self.following = false;
                    self.replans += 1;
                    let a = self.plan.pop_front().unwrap_or(Action::Nil);
                    self.last_played = None;
                    return a;
                }
                Some(Err(e)) => {
                    // Too short for this game: the next long request gets twice the time.
                    tracing::debug!("planner: {e}");
                    self.idle_request = None;
                    self.idle_timeout = (self.idle_timeout * 2).min(MAX_IDLE_REPLAN_TIMEOUT);
                }
                None => return Action::Nil,
            }
        }
        // A late answer to the previous act's request whose first action is the one played
        // then: its remainder is a fresher plan than the one being followed.
        let mut late: Option<Planned> = None;
        while let Ok(r) = self.rx.try_recv() {
            if let (Ok(p), Some((id, played))) = (r.result, self.last_played) {
                if r.id == id && p.actions.first() == Some(&played) {
                    late = Some(p);
                }
            }
        }
        if let Some(mut p) = late {
            p.actions.remove(0);
            self.install(p);
            self.following = false;
            self.replans += 1;
        }
        let id = self.request(state, REPLAN_TIMEOUT);
        let until = budget
            .deadline_less(MARGIN)
            .min(Instant::now() + REPLAN_WAIT);
        if let Some(Ok(p)) = self.wait_for(id, until) {
            self.install(p);
            self.following = false;
            self.replans += 1;
        }
        let a = match self.plan.pop_front() {
            Some(a) => a,
            None => {
                // The short request sent above did not answer in time and there is nothing to
                // reuse: a longer one, waited for at the next acts.
                self.idle_request = Some(self.request(state, self.idle_timeout));
                Action::Nil
            }
        };
        self.last_played = Some((id, a));
        a
    }

    /// Plans during initialisation (a first plan to reuse in a non-deterministic game); false
    /// when an exact model has no plan at all.
    fn first_plan(&mut self, state: &GameState, budget: &Budget) -> bool {
        let exact = self.exact;
        let timeout = if exact {
            DETERMINISTIC_TIMEOUT
        } else {
            IDLE_REPLAN_TIMEOUT
        };
        let id = self.request(state, timeout);
        self.waiting = Some(id);
        let until = budget.deadline_less(Duration::from_millis(50));
        match self.await_plan(id, until) {
            Awaited::Installed => {}
            Awaited::Failed(e) => {
                if exact && matches!(e, RequestError::Plan(PlanError::Unsolvable)) {
                    return false;
                }
                if exact {
                    self.waiting = Some(self.request(state, DETERMINISTIC_TIMEOUT));
                }
            }
            Awaited::Pending => {
                if !exact {
                    self.idle_request = self.waiting.take();
                }
            }
        }
        true
    }
}

/// What waiting for a pending plan request gave.
enum Awaited {
    Installed,
    Failed(RequestError),
    /// No answer before the deadline; the request stays pending.
    Pending,
}

enum Mode {
    Uninit,
    Fallback(Box<dyn Controller>),
    Active(Box<Active>),
}

/// The planning controller (see the module documentation).
pub struct PlannerController {
    mode: Mode,
    threads: usize,
}

impl PlannerController {
    pub fn new() -> Self {
        PlannerController {
            mode: Mode::Uninit,
            threads: 1,
        }
    }

    /// Replanning calls so far (divergences in deterministic games).
    pub fn replans(&self) -> u64 {
        match &self.mode {
            Mode::Active(a) => a.replans,
            _ => 0,
        }
    }

    /// Whether the game is played by the `iw` controller instead of plans (see the module
    /// documentation).
    pub fn playing_iw(&self) -> bool {
        matches!(self.mode, Mode::Fallback(_))
    }

    fn start(&mut self, state: &GameState, budget: &Budget) {
        let snapshot = TranslateOptions {
            snapshot: true,
            ..TranslateOptions::default()
        };
        // A game whose level cannot be translated (not only its rules) is refused too.
        let translator =
            match Translator::new(state, snapshot).and_then(|t| match t.translate(state, "game") {
                Err(e @ TranslateError::NotTranslatable(_)) => Err(e),
                _ => Ok(t),
            }) {
                Ok(t) => Arc::new(t),
                Err(e) => {
                    tracing::warn!("planner: {e}; playing with the iw controller instead");
                    return self.fall_back(state, budget);
                }
            };
        let (tx, rx) = match spawn_planner(Arc::clone(&translator), self.threads) {
            Ok(channels) => channels,
            Err(e) => {
                tracing::error!("planner: cannot start the planning thread: {e}");
                return self.fall_back(state, budget);
            }
        };
        let exact = translator.exact();
        let mut a = Active {
            exact,
            tx,
            rx,
            next_id: 0,
            waiting: None,
            plan: VecDeque::new(),
            keys: VecDeque::new(),
            following: false,
            replans: 0,
            last_played: None,
            idle_request: None,
            idle_timeout: IDLE_REPLAN_TIMEOUT,
        };
        if a.first_plan(state, budget) {
            self.mode = Mode::Active(Box::new(a));
        } else {
            // An exact model without a plan: the game needs what the model leaves out
            // (Brainman's flying key), so planning again cannot help.
            tracing::warn!("planner: playing with the iw controller instead");
            self.fall_back(state, budget);
        }
    }

    /// Plays with the iw controller from here on.
    fn fall_back(&mut self, state: &GameState, budget: &Budget) {
        let mut c: Box<dyn Controller> = Box::new(Bfs::iw());
        c.init(state, budget);
        self.mode = Mode::Fallback(c);
    }
}

/// Starts the planning thread: it answers the newest request on its channel with a plan.
fn spawn_planner(
    tr: Arc<Translator>,
    threads: usize,
) -> std::io::Result<(Sender<Request>, Receiver<Response>)> {
    let (tx, req_rx) = channel::<Request>();
    let (resp_tx, rx) = channel::<Response>();
    std::thread::Builder::new()
        .name("gvgai-planner".into())
        .spawn(move || {
            while let Ok(mut req) = req_rx.recv() {
                // Only the newest request matters.
                while let Ok(newer) = req_rx.try_recv() {
                    req = newer;
                }
                let result = plan_request(&tr, &req, threads);
                if resp_tx.send(Response { id: req.id, result }).is_err() {
                    break;
                }
            }
        })?;
    Ok((tx, rx))
}

impl Default for PlannerController {
    fn default() -> Self {
        Self::new()
    }
}

impl Controller for PlannerController {
    fn name(&self) -> &'static str {
        "planner"
    }

    fn init(&mut self, state: &GameState, budget: &Budget) {
        self.start(state, budget);
    }

    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        if matches!(self.mode, Mode::Uninit) {
            // No init call (some adapters): start now, planning in the background.
            self.start(state, budget);
        }
        match &mut self.mode {
            Mode::Uninit => Action::Nil,
            Mode::Fallback(c) => c.act(state, budget),
            Mode::Active(a) => {
                if a.exact {
                    a.act_deterministic(state, budget)
                } else {
                    a.act_replanning(state, budget)
                }
            }
        }
    }
}
