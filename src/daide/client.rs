//! DAIDE client session: a player bot's side of the protocol.
//!
//! [`ClientSession`] is a sans-I/O state machine: server messages in,
//! [`ClientEvent`]s out (messages to send, "orders needed" with a
//! [`GameView`], results, game end). [`run_client`] drives it over any
//! `AsyncRead + AsyncWrite` transport (TCP, in-memory duplex in tests) with a
//! [`Player`] computing orders on a blocking thread.
//!
//! Behaviour (level 0, no press):
//! - `NME` on connect; on `MAP` it always asks for the `MDF` (never assumes
//!   the standard map), builds the map and answers `YES (MAP …)`, or
//!   `REJ (MAP …)` if the MDF is not a valid map;
//! - `HLO` sets the power, passcode and variant; `SCO`/`NOW` update the view;
//!   when the power has something to order, [`ClientEvent::OrdersNeeded`];
//! - orders go out as **one complete `SUB` followed by `GOF`** (works with
//!   servers where a SUB replaces the whole order set and that wait for GOF);
//!   the player's set is completed (holds, disbands, waives, removals when
//!   none is given), so a bare `GOF` is never relied on;
//! - a `GOF` the server has not answered (`YES`/`REJ (GOF)`) when the `NOW`
//!   of a turn with something to order arrives is retracted with
//!   `NOT (GOF)` before that turn's `SUB`, so readiness never leaks into a
//!   turn the power has orders for; a set of waives goes without `GOF`
//!   (`protocols/daide.md`, "Turn readiness");
//! - a `THX` other than `MBV` replaces that order with a hold / disband / is
//!   dropped (builds become waives); after the `MIS` that ends the THX batch
//!   the corrected set is sent again, once;
//! - `FRM` press is answered as a no-press bot must:
//!   `SND (POW) (HUH (ERR …))` and `SND (POW) (TRY ())`;
//! - a malformed server message is answered with `HUH`/`PRN`; a `HUH`/`PRN`
//!   from the server about our message is only reported (no reply loops);
//! - `SLO`/`DRW`/`SMR`/`OFF` end the game.
//!
//! Reconnection: a dropped connection ends [`run_client`] with
//! [`ClientError::Dropped`] carrying the power and passcode (and what the run
//! saw up to the drop); a supervisor
//! reconnects with [`run_client_with`] and [`Join::Rejoin`] (IAM, then the
//! map again); an `IAM` with no answer at all within
//! [`ClientConfig::rejoin_timeout`] (default [`REJOIN_ANSWER_TIMEOUT`]) ends the run as [`ClientError::Refused`], so the
//! supervisor falls back to `NME`. Not yet: deadline-driven early submission beyond the budget
//! given to the player.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::Framed;

use super::codec::{DaideCodec, ErrorCode, Frame, FrameError, Role};
use super::convert::{Names, map_from_mdf, phase_from_turn, turn_from_phase};
use super::message::{
    CentreGroup, MapDef, Message, Missing, OrderReport, Owners, Parsed, PlacedUnit, Position,
    parse_message,
};
use super::token::{Param, PowerToken, PressName, PressToken, ThxNote, Token, TokenTable};
use crate::budget::{Budget, CancelFlag};
use crate::diplomacy::judge::Dislodgement;
use crate::diplomacy::{GameView, Map, Order, Phase, PhaseKind, Power};

pub use crate::diplomacy::Player;

/// Client settings.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Name sent in NME.
    pub name: String,
    /// Version sent in NME.
    pub version: String,
    /// Thinking time when the server sets no deadline.
    pub think_time: Duration,
    /// Safety margin kept before a server deadline.
    pub margin: Duration,
    /// How long a rejoining client waits for any answer to its `IAM`.
    pub rejoin_timeout: Duration,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            name: "tablero".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            think_time: Duration::from_secs(5),
            margin: Duration::from_secs(2),
            rejoin_timeout: REJOIN_ANSWER_TIMEOUT,
        }
    }
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// A power soloed.
    Solo(PowerToken),
    /// The game was drawn.
    Draw,
}

/// What the session asks its driver to do or tells it.
#[derive(Debug, Clone)]
pub enum ClientEvent {
    /// Send this message.
    Send(Message),
    /// The player must order for this view; answer with [`ClientSession::submit`].
    OrdersNeeded(GameView),
    /// The server gave a deadline (seconds) for the current phase.
    Deadline(i16),
    /// One order result of the phase just resolved.
    OrderResult(OrderReport),
    /// Every order the server reported (`ORD`) for the phase just
    /// resolved, with the position it started from (`me` = `None`); sent
    /// before the `SCO`/`NOW` that follows is applied. For
    /// [`Player::observe`].
    Observed(GameView, Vec<Order>),
    /// The position of a new phase (every `NOW`, whether or not the player
    /// has anything to order; `me` is the player's power), before the
    /// phase's [`ClientEvent::OrdersNeeded`]. For [`Player::position`].
    Position(GameView),
    /// The game ended.
    GameOver(GameEnd),
    /// The final summary (SMR).
    Summary(Message),
    /// The server said OFF: close the connection.
    Off,
    /// The server refused to let us join (REJ to NME / IAM).
    Refused(Message),
    /// Something worth logging (ADM, CCD, OUT, HUH/PRN about our message, …).
    Notice(String),
    /// The server refused one of our orders (`THX` with a note other than `MBV`; the text).
    OrderRefused(String),
    /// The server refused a `SUB` of ours (`REJ (SUB …)`, e.g. for a turn that has passed).
    SubRejected(String),
}

/// Where the session is in the game's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientState {
    /// Nothing sent yet.
    Start,
    /// NME sent, waiting for MAP.
    Joining,
    /// MDF requested.
    MapRequested,
    /// Map accepted, waiting for HLO.
    Waiting,
    /// Playing.
    Playing,
    /// The game ended (SLO/DRW/SMR seen).
    Over,
    /// OFF received.
    Closed,
}

/// Most `ORD` orders kept for one phase (a standard game has at most 34
/// units; a repeated order is kept once).
const MAX_OBSERVED: usize = 256;

/// The sans-I/O client state machine.
#[derive(Debug)]
pub struct ClientSession {
    config: ClientConfig,
    state: ClientState,
    table: TokenTable,
    map_name: Option<String>,
    map: Option<Arc<Map>>,
    names: Option<Names>,
    me: Option<PowerToken>,
    passcode: Option<i16>,
    variant: Vec<(Param, Option<i16>)>,
    owners: HashMap<crate::diplomacy::Province, Power>,
    view: Option<GameView>,
    deadline: Option<i16>,
    submitted: Vec<Order>,
    resubmit: bool,
    /// Orders reported by `ORD` for the phase of `view`.
    seen: Vec<Order>,
    /// `GOF`s sent that the server has not answered (`YES`/`REJ (GOF)`) yet.
    unanswered_gofs: u32,
    /// Answers still to come for `GOF`s already retracted with `NOT (GOF)`.
    stale_answers: u32,
    /// `NOT (GOF)` was sent in this turn: a `GOF` must follow its `SUB`, whatever it holds.
    retracted: bool,
}

impl ClientSession {
    /// A new session.
    pub fn new(config: ClientConfig) -> Self {
        ClientSession {
            config,
            state: ClientState::Start,
            table: TokenTable::standard(),
            map_name: None,
            map: None,
            names: None,
            me: None,
            passcode: None,
            variant: Vec::new(),
            owners: HashMap::new(),
            view: None,
            deadline: None,
            submitted: Vec::new(),
            resubmit: false,
            seen: Vec::new(),
            unanswered_gofs: 0,
            stale_answers: 0,
            retracted: false,
        }
    }

    /// The current state.
    pub fn state(&self) -> ClientState {
        self.state
    }
    /// The power played, once HLO arrived.
    pub fn power(&self) -> Option<PowerToken> {
        self.me
    }
    /// The HLO passcode (for IAM).
    pub fn passcode(&self) -> Option<i16> {
        self.passcode
    }
    /// HLO variant options.
    pub fn variant(&self) -> &[(Param, Option<i16>)] {
        &self.variant
    }
    /// The representation table in use.
    pub fn table(&self) -> &TokenTable {
        &self.table
    }
    /// The latest view.
    pub fn view(&self) -> Option<&GameView> {
        self.view.as_ref()
    }
    /// The deadline of the current phase in seconds, if the server gave one.
    pub fn deadline(&self) -> Option<i16> {
        self.deadline
    }
    /// The session's configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Installs the table from the server's RM.
    pub fn set_table(&mut self, table: TokenTable) {
        self.table = table;
    }

    /// The first message: NME.
    pub fn start(&mut self) -> Vec<ClientEvent> {
        self.state = ClientState::Joining;
        vec![ClientEvent::Send(Message::Nme {
            name: self.config.name.clone(),
            version: self.config.version.clone(),
        })]
    }

    /// The first message of a rejoin after a dropped connection:
    /// `IAM (POW) (passcode)`. On `YES (IAM …)` the session asks for the map
    /// again (`MAP`, then `MDF`), after which the server resends the game.
    pub fn start_rejoin(&mut self, power: PowerToken, passcode: i16) -> Vec<ClientEvent> {
        self.state = ClientState::Joining;
        self.me = Some(power);
        self.passcode = Some(passcode);
        vec![ClientEvent::Send(Message::Iam { power, passcode })]
    }

    /// The IAM message to rejoin after a dropped connection, once HLO arrived.
    pub fn rejoin(&self) -> Option<Message> {
        Some(Message::Iam {
            power: self.me?,
            passcode: self.passcode?,
        })
    }

    /// Keeps an `ORD` order of the current view's phase.
    fn note_order(&mut self, r: &OrderReport) {
        let (Some(view), Some(names), Parsed::Ok(o)) = (&self.view, &self.names, &r.order) else {
            return;
        };
        if phase_from_turn(r.turn) == view.phase
            && self.seen.len() < MAX_OBSERVED
            && let Ok(order) = names.order(o)
            && !self.seen.contains(&order)
        {
            self.seen.push(order);
        }
    }

    /// The observation of the phase just resolved, once its `ORD`s are in.
    fn take_observed(&mut self) -> Option<ClientEvent> {
        if self.seen.is_empty() {
            return None;
        }
        let orders = std::mem::take(&mut self.seen);
        let mut view = self.view.clone()?;
        view.me = None;
        Some(ClientEvent::Observed(view, orders))
    }

    /// Handles one DM's tokens.
    pub fn handle_tokens(&mut self, tokens: &[Token]) -> Vec<ClientEvent> {
        match parse_message(tokens) {
            Ok(m) => self.handle(m),
            Err(e) => vec![
                ClientEvent::Notice(format!("malformed server message: {e}")),
                ClientEvent::Send(e.reply(tokens)),
            ],
        }
    }

    /// Handles one server message.
    pub fn handle(&mut self, msg: Message) -> Vec<ClientEvent> {
        let mut out = Vec::new();
        match msg {
            Message::Map(Some(name)) => {
                self.map_name = Some(name);
                self.state = ClientState::MapRequested;
                out.push(ClientEvent::Send(Message::Mdf(None)));
            }
            Message::Mdf(Some(def)) => self.on_mdf(&def, &mut out),
            Message::Yes(inner) if matches!(*inner, Parsed::Ok(Message::Iam { .. })) => {
                out.push(ClientEvent::Send(Message::Map(None)));
            }
            Message::Hlo(Some(h)) => {
                self.me = Some(h.power);
                self.passcode = Some(h.passcode);
                self.variant = h.variant;
                self.state = ClientState::Playing;
            }
            Message::Sco(groups) if !groups.is_empty() => {
                out.extend(self.take_observed());
                self.on_sco(groups);
            }
            Message::Now(Some(pos)) => self.on_now(&pos, &mut out),
            Message::Tme(Some(s)) => {
                self.deadline = Some(s);
                out.push(ClientEvent::Deadline(s));
            }
            Message::Thx { order, note } if note != ThxNote::Mbv => {
                let text = Message::Thx {
                    order: order.clone(),
                    note,
                }
                .to_text(&self.table);
                out.push(ClientEvent::OrderRefused(text));
                self.replace_refused(&order);
            }
            Message::Mis(Missing::Units(_) | Missing::Count(_)) if self.resubmit => {
                self.resubmit = false;
                out.extend(self.send_orders());
            }
            Message::Ord(Some(r)) => {
                self.note_order(&r);
                out.push(ClientEvent::OrderResult(r));
            }
            Message::Slo(p) => {
                self.state = ClientState::Over;
                out.push(ClientEvent::GameOver(GameEnd::Solo(p)));
            }
            Message::Drw(ps) if ps.is_empty() => {
                self.state = ClientState::Over;
                out.push(ClientEvent::GameOver(GameEnd::Draw));
            }
            m @ Message::Smr { .. } => {
                self.state = ClientState::Over;
                out.push(ClientEvent::Summary(m));
            }
            Message::Off => {
                self.state = ClientState::Closed;
                out.push(ClientEvent::Off);
            }
            Message::Yes(inner) | Message::Rej(inner)
                if matches!(*inner, Parsed::Ok(Message::Gof)) =>
            {
                if self.stale_answers > 0 {
                    self.stale_answers -= 1;
                } else {
                    self.unanswered_gofs = self.unanswered_gofs.saturating_sub(1);
                }
            }
            Message::Rej(inner) => match *inner {
                Parsed::Ok(m @ (Message::Nme { .. } | Message::Iam { .. })) => {
                    out.push(ClientEvent::Refused(m));
                }
                Parsed::Ok(m @ Message::Sub { .. }) => {
                    out.push(ClientEvent::SubRejected(m.to_text(&self.table)));
                }
                other => out.push(ClientEvent::Notice(format!("rejected: {other:?}"))),
            },
            Message::Frm { from, press, .. } => {
                out.extend(no_press_reply(from, &press).map(ClientEvent::Send));
            }
            Message::Huh(t) => out.push(ClientEvent::Notice(format!(
                "server could not parse our message: {}",
                super::text::format_tokens(&t, &self.table)
            ))),
            Message::Prn(t) => out.push(ClientEvent::Notice(format!(
                "server saw unbalanced brackets: {}",
                super::text::format_tokens(&t, &self.table)
            ))),
            Message::Adm { name, text } => {
                out.push(ClientEvent::Notice(format!("ADM {name}: {text}")))
            }
            m @ (Message::Ccd { .. } | Message::Out(_) | Message::Not(_)) => {
                out.push(ClientEvent::Notice(m.to_text(&self.table)))
            }
            // Acknowledgements and anything a server should not send: nothing to do.
            _ => {}
        }
        out
    }

    /// `MDF`: the map is built from it and accepted (`YES (MAP …)`), or refused if unusable.
    fn on_mdf(&mut self, def: &MapDef, out: &mut Vec<ClientEvent>) {
        let answer = Message::Map(Some(self.map_name.clone().unwrap_or_default()));
        match map_from_mdf(def, &self.table) {
            Ok(map) => {
                self.names = Some(Names::new(&self.table, &map));
                self.map = Some(Arc::new(map));
                if self.state != ClientState::Playing {
                    self.state = ClientState::Waiting;
                }
                out.push(ClientEvent::Send(Message::Yes(Box::new(Parsed::Ok(
                    answer,
                )))));
            }
            Err(e) => {
                out.push(ClientEvent::Notice(format!("unusable MDF: {e}")));
                out.push(ClientEvent::Send(Message::Rej(Box::new(Parsed::Ok(
                    answer,
                )))));
            }
        }
    }

    /// `SCO`: the centre owners, also in the current view.
    fn on_sco(&mut self, groups: Vec<CentreGroup>) {
        let Some(names) = &self.names else {
            return;
        };
        self.owners.clear();
        for g in groups {
            if let Owners::Power(p) = g.owners
                && let Ok(pw) = names.power(p)
            {
                for c in g.centres {
                    if let Ok(prov) = names.province(c) {
                        self.owners.insert(prov, pw);
                    }
                }
            }
        }
        if let Some(v) = &mut self.view {
            v.owners = self.owners.clone();
        }
    }

    /// `NOW`: a new phase; the player sees the position, and is asked for orders if it has
    /// any to give (after retracting a `GOF` left from the phase before).
    fn on_now(&mut self, pos: &Position, out: &mut Vec<ClientEvent>) {
        out.extend(self.take_observed());
        self.deadline = None;
        self.submitted.clear();
        self.resubmit = false;
        self.retracted = false;
        let view = match self.build_view(phase_from_turn(pos.turn), &pos.units) {
            Ok(view) => view,
            Err(e) => return out.push(ClientEvent::Notice(format!("cannot use NOW: {e}"))),
        };
        let me = self
            .me
            .and_then(|p| self.names.as_ref().and_then(|n| n.power(p).ok()));
        let needed = me.is_some_and(|p| view.needs_orders(p));
        if needed {
            out.extend(self.retract_stale_gof());
        }
        self.view = Some(view.clone());
        out.push(ClientEvent::Position(view.clone()));
        if needed {
            out.push(ClientEvent::OrdersNeeded(view));
        }
    }

    fn build_view(&self, phase: Phase, units: &[PlacedUnit]) -> Result<GameView, String> {
        let names = self.names.as_ref().ok_or("no map yet")?;
        let map = self.map.clone().ok_or("no map yet")?;
        let mut on_board = Vec::new();
        let mut dislodged = Vec::new();
        for pu in units {
            let unit = names.unit(&pu.unit).map_err(|e| e.to_string())?;
            match &pu.retreats {
                None => on_board.push(unit),
                Some(opts) => dislodged.push(Dislodgement {
                    unit,
                    attacker_from: None,
                    retreats: opts
                        .iter()
                        .filter_map(|l| names.location(*l).ok())
                        .collect(),
                }),
            }
        }
        let me = self.me.and_then(|p| names.power(p).ok());
        Ok(GameView {
            map,
            me,
            phase,
            units: on_board,
            dislodged,
            owners: self.owners.clone(),
        })
    }

    fn replace_refused(&mut self, refused: &super::message::Order) {
        let Some(names) = &self.names else { return };
        let Ok(model) = names.order(refused) else {
            return;
        };
        let Some(i) = self.submitted.iter().position(|o| *o == model) else {
            return;
        };
        let kind = self.view.as_ref().map(|v| v.phase.season.kind());
        let replacement = match (&model, kind) {
            (Order::Hold(_), _) | (Order::Disband(_), _) | (Order::Waive(_), _) => None,
            (Order::Build(u), _) => Some(Order::Waive(u.power)),
            (Order::Remove(_), _) => None,
            (o, Some(PhaseKind::Retreat)) => o.unit().map(|u| Order::Disband(*u)),
            (o, _) => o.unit().map(|u| Order::Hold(*u)),
        };
        match replacement {
            Some(r) => self.submitted[i] = r,
            None => {
                self.submitted.remove(i);
            }
        }
        self.resubmit = true;
    }

    fn send_orders(&mut self) -> Vec<ClientEvent> {
        let Some(names) = &self.names else {
            return vec![ClientEvent::Notice("orders before the map".into())];
        };
        let mut out = Vec::new();
        let mut orders = Vec::with_capacity(self.submitted.len());
        for o in &self.submitted {
            match names.daide_order(o) {
                Ok(d) => orders.push(d),
                Err(e) => out.push(ClientEvent::Notice(format!("order dropped: {e}"))),
            }
        }
        if !orders.is_empty() {
            // The turn is named so that orders which reach the server after it has moved on
            // (a resubmission racing another power's GOF) are refused there, not applied to
            // the next phase: `diplomacy` 1.1.2 even drops the connection on a waive read
            // in a movement phase.
            let turn = self
                .view
                .as_ref()
                .and_then(|v| turn_from_phase(v.phase).ok());
            out.push(ClientEvent::Send(Message::Sub { turn, orders }));
        }
        // A power that can only waive is not waited for by every server (the `diplomacy`
        // 1.1.2 server processes the winter without it): its `GOF` could reach the next
        // turn. Its complete `SUB` is all a server that waits for it needs, unless it was told
        // `NOT (GOF)` in this turn: then it waits for a `GOF`.
        let waive_only = self.submitted.iter().all(|o| matches!(o, Order::Waive(_)));
        if !waive_only || self.retracted {
            out.push(ClientEvent::Send(Message::Gof));
            self.unanswered_gofs = self.unanswered_gofs.saturating_add(1);
        }
        out
    }

    /// A `NOW` of a turn with something to order arrived while `GOF`s are
    /// unanswered: they may have been read after the server moved on (or
    /// their answers overtaken by the `NOW`), and a server that takes them
    /// would count them for this turn. `NOT (GOF)`, which follows them on the
    /// connection, cancels them wherever they land; this turn's `SUB` and
    /// `GOF` come after it. Never sent for a turn with nothing to order: no
    /// `GOF` would follow it, and a server that waits for every power's
    /// `GOF` would wait forever.
    fn retract_stale_gof(&mut self) -> Option<ClientEvent> {
        if self.unanswered_gofs == 0 {
            return None;
        }
        self.stale_answers = self.stale_answers.saturating_add(self.unanswered_gofs);
        self.unanswered_gofs = 0;
        self.retracted = true;
        Some(ClientEvent::Send(Message::Not(Box::new(Parsed::Ok(
            Message::Gof,
        )))))
    }

    /// Completes the player's orders so that a `SUB` always goes out: own
    /// units without an order hold (movement) or disband (retreats), unused
    /// builds are waived, and when no removal was given the first units of
    /// the position are removed.
    fn complete(view: &GameView, mut orders: Vec<Order>) -> Vec<Order> {
        let Some(me) = view.me else {
            return orders;
        };
        let unordered = |orders: &[Order], u: &crate::diplomacy::Unit| {
            !orders.iter().any(|o| o.unit() == Some(u))
        };
        match view.phase.season.kind() {
            PhaseKind::Movement => {
                for u in view.units.iter().filter(|u| u.power == me) {
                    if unordered(&orders, u) {
                        orders.push(Order::Hold(*u));
                    }
                }
            }
            PhaseKind::Retreat => {
                for d in view.dislodged.iter().filter(|d| d.unit.power == me) {
                    if unordered(&orders, &d.unit) {
                        orders.push(Order::Disband(d.unit));
                    }
                }
            }
            PhaseKind::Adjustment => {
                let delta = view.adjustment(me);
                let given = orders.len() as i32;
                if delta > 0 {
                    orders.extend((given..delta).map(|_| Order::Waive(me)));
                } else if delta < 0 && orders.is_empty() {
                    let own = view.units.iter().filter(|u| u.power == me);
                    orders.extend(
                        own.take(delta.unsigned_abs() as usize)
                            .map(|u| Order::Remove(*u)),
                    );
                }
            }
        }
        orders
    }

    /// Submits the player's orders for `phase` (ignored if the game has moved on).
    pub fn submit(&mut self, phase: Phase, orders: Vec<Order>) -> Vec<ClientEvent> {
        let view = match &self.view {
            Some(v) if v.phase == phase => v,
            _ => {
                return vec![ClientEvent::Notice(format!(
                    "late orders for {phase} dropped"
                ))];
            }
        };
        self.submitted = Self::complete(view, orders);
        self.resubmit = false;
        self.send_orders()
    }

    /// The budget for thinking about the current phase.
    ///
    /// The phase's time limit is the `TME` received since the last `NOW`, or
    /// else the HLO limit for the phase kind (MTL / RTL / BTL), which is known
    /// as soon as the NOW arrives (a TME follows it in a separate message).
    /// Zero means no deadline; then the player gets `think_time`. With a
    /// deadline the player gets it minus `margin`, and never more than
    /// `think_time`.
    pub fn budget(&self, cancel: CancelFlag) -> Budget {
        let from_hlo = || {
            let kind = self.view.as_ref()?.phase.season.kind();
            let param = match kind {
                PhaseKind::Movement => Param::Mtl,
                PhaseKind::Retreat => Param::Rtl,
                PhaseKind::Adjustment => Param::Btl,
            };
            self.variant
                .iter()
                .find(|(p, _)| *p == param)
                .and_then(|(_, v)| *v)
        };
        let think = match self.deadline.or_else(from_hlo) {
            Some(s) if s > 0 => Duration::from_secs(s as u64)
                .saturating_sub(self.config.margin)
                .min(self.config.think_time),
            _ => self.config.think_time,
        };
        Budget::new(Instant::now() + think, cancel)
    }
}

/// Client driver errors.
#[derive(Debug, Error)]
pub enum ClientError {
    /// Framing or socket error.
    #[error("frame error: {0}")]
    Frame(#[from] FrameError),
    /// The server sent an EM.
    #[error("server error message {0:?}")]
    ServerError(ErrorCode),
    /// The connection closed before OFF; `rejoin` holds the power and
    /// passcode to come back with IAM (see [`Join::Rejoin`]), once known.
    #[error("connection closed")]
    Dropped {
        /// Power and passcode from HLO.
        rejoin: Option<(PowerToken, i16)>,
        /// What the run saw up to the drop (phases ordered, refusals).
        seen: Box<ClientSummary>,
    },
    /// The server refused us.
    #[error("refused: {0}")]
    Refused(String),
    /// The player thread failed.
    #[error("player failed: {0}")]
    Player(String),
}

/// What a finished client run saw.
#[derive(Debug, Clone, Default)]
pub struct ClientSummary {
    /// How the game ended, if it did.
    pub end: Option<GameEnd>,
    /// The SMR, if received.
    pub summary: Option<Message>,
    /// Number of phases the player ordered.
    pub phases_ordered: usize,
    /// Orders the server refused (`THX` notes other than `MBV`).
    pub refused_orders: usize,
    /// `SUB`s the server refused (`REJ (SUB …)`).
    pub rejected_subs: usize,
}

/// The error ending a run on `e`: [`ClientError::Dropped`] when the
/// connection is gone (reset, broken pipe, cut inside a frame), as when the
/// stream ends, so that a supervisor can rejoin the seat.
fn lost(e: FrameError, session: &ClientSession, summary: &ClientSummary) -> ClientError {
    use std::io::ErrorKind;
    let gone = matches!(&e, FrameError::Io(io) if matches!(
        io.kind(),
        ErrorKind::BrokenPipe
            | ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::UnexpectedEof
    ));
    if gone {
        ClientError::Dropped {
            rejoin: session.power().zip(session.passcode()),
            seen: Box::new(summary.clone()),
        }
    } else {
        e.into()
    }
}

/// How a client joins a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    /// `NME ('name') ('version')`: a new seat.
    Name,
    /// `IAM (POW) (passcode)`: back to a seat after a dropped connection.
    Rejoin {
        /// The power from HLO.
        power: PowerToken,
        /// The passcode from HLO.
        passcode: i16,
    },
}

/// How long a rejoining client waits by default for any answer to its `IAM`.
pub const REJOIN_ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// What a no-press bot answers to press from `from`: `HUH` of the press with `ERR` in front,
/// then `TRY ()` (no press tokens understood).
fn no_press_reply(from: PowerToken, press: &[Token]) -> [Message; 2] {
    let wrap = |inner: Vec<Token>| {
        let mut t = vec![Token::Bra, Token::Power(from), Token::Ket, Token::Bra];
        t.extend(inner);
        t.push(Token::Ket);
        t
    };
    let mut huh = vec![
        Token::Command(super::token::Command::Huh),
        Token::Bra,
        Token::Param(Param::Err),
    ];
    huh.extend(press.iter().copied());
    huh.push(Token::Ket);
    let try_none = vec![
        Token::Press(PressToken(PressName::Try.value())),
        Token::Bra,
        Token::Ket,
    ];
    [Message::Snd(wrap(huh)), Message::Snd(wrap(try_none))]
}

/// Plays one game over `io`: IM/RM handshake, then the session, until OFF,
/// FM, EM or end of stream.
pub async fn run_client<T, P>(
    io: T,
    config: ClientConfig,
    player: P,
) -> Result<ClientSummary, ClientError>
where
    T: AsyncRead + AsyncWrite + Unpin,
    P: Player,
{
    run_client_with(io, config, player, Join::Name).await
}

/// [`run_client`] with a choice of how to join.
pub async fn run_client_with<T, P>(
    io: T,
    config: ClientConfig,
    player: P,
    join: Join,
) -> Result<ClientSummary, ClientError>
where
    T: AsyncRead + AsyncWrite + Unpin,
    P: Player,
{
    let rejoin_timeout = config.rejoin_timeout;
    let mut framed = Framed::new(io, DaideCodec::for_role(Role::Client));
    framed.send(Frame::im()).await?;
    let mut session = ClientSession::new(config);
    let mut player = Some(player);
    let mut summary = ClientSummary::default();
    let mut pending: Vec<ClientEvent> = Vec::new();
    // Some servers never answer IAM (`diplomacy` 1.1.2 crashes on it): give up
    // on a rejoin that gets no message at all in time.
    let mut awaiting_rejoin = matches!(join, Join::Rejoin { .. });
    loop {
        let next = if awaiting_rejoin {
            match tokio::time::timeout(rejoin_timeout, framed.next()).await {
                Ok(n) => n,
                Err(_) => return Err(ClientError::Refused("no answer to IAM".into())),
            }
        } else {
            framed.next().await
        };
        if matches!(next, Some(Ok(Frame::Dm(_)))) {
            awaiting_rejoin = false;
        }
        let frame = match next {
            Some(Ok(f)) => f,
            Some(Err(e)) => {
                if let Some(code) = e.em_code() {
                    let _ = framed.send(Frame::Em(code)).await;
                }
                return Err(lost(e, &session, &summary));
            }
            None => {
                return if session.state() == ClientState::Closed
                    || session.state() == ClientState::Over
                {
                    Ok(summary)
                } else {
                    Err(ClientError::Dropped {
                        rejoin: session.power().zip(session.passcode()),
                        seen: Box::new(summary),
                    })
                };
            }
        };
        match frame {
            Frame::Rm(table) => {
                session.set_table(table);
                pending.extend(match join {
                    Join::Name => session.start(),
                    Join::Rejoin { power, passcode } => session.start_rejoin(power, passcode),
                });
            }
            Frame::Dm(tokens) => {
                tracing::debug!(target: "daide::wire", "<- {}", crate::daide::text::format_tokens(&tokens, session.table()));
                pending.extend(session.handle_tokens(&tokens))
            }
            Frame::Fm => return Ok(summary),
            Frame::Em(code) => return Err(ClientError::ServerError(code)),
            Frame::Im { .. } => {}
        }
        if let Some(end) = handle_events(
            &mut framed,
            &mut session,
            &mut player,
            &mut summary,
            &mut pending,
        )
        .await
        {
            return end;
        }
    }
}

/// Carries out the session's events (sends, the player's orders, the end of the game) until
/// none is pending; `Some` ends the session with its result.
async fn handle_events<T, P>(
    framed: &mut Framed<T, DaideCodec>,
    session: &mut ClientSession,
    player: &mut Option<P>,
    summary: &mut ClientSummary,
    pending: &mut Vec<ClientEvent>,
) -> Option<Result<ClientSummary, ClientError>>
where
    T: AsyncRead + AsyncWrite + Unpin,
    P: Player,
{
    while !pending.is_empty() {
        let events = std::mem::take(pending);
        for ev in events {
            match ev {
                ClientEvent::Send(m) => {
                    tracing::debug!(target: "daide::wire", "-> {}", m.to_text(session.table()));
                    if let Err(e) = framed.send(Frame::Dm(m.to_tokens())).await {
                        return Some(Err(lost(e, session, summary)));
                    }
                }
                ClientEvent::OrdersNeeded(view) => {
                    let budget = session.budget(CancelFlag::new());
                    let Some(mut p) = player.take() else {
                        return Some(Err(ClientError::Player("player lost".into())));
                    };
                    let phase = view.phase;
                    let thought = tokio::task::spawn_blocking(move || {
                        let orders = p.orders(&view, budget);
                        (p, orders)
                    })
                    .await;
                    let (p, orders) = match thought {
                        Ok(done) => done,
                        Err(e) => return Some(Err(ClientError::Player(e.to_string()))),
                    };
                    *player = Some(p);
                    summary.phases_ordered += 1;
                    pending.extend(session.submit(phase, orders));
                }
                ClientEvent::GameOver(end) => summary.end = Some(end),
                ClientEvent::Summary(m) => summary.summary = Some(m),
                ClientEvent::Off => {
                    let _ = framed.send(Frame::Fm).await;
                    return Some(Ok(std::mem::take(summary)));
                }
                ClientEvent::Refused(m) => {
                    let _ = framed.send(Frame::Fm).await;
                    return Some(Err(ClientError::Refused(m.to_text(session.table()))));
                }
                ClientEvent::Notice(n) => tracing::info!(target: "daide::client", "{n}"),
                ClientEvent::OrderRefused(t) => {
                    summary.refused_orders += 1;
                    tracing::warn!(target: "daide::client", "order refused: {t}");
                }
                ClientEvent::SubRejected(t) => {
                    summary.rejected_subs += 1;
                    tracing::warn!(target: "daide::client", "rejected: {t}");
                }
                ClientEvent::Observed(view, orders) => {
                    if let Some(p) = player.as_mut() {
                        p.observe(&view, &orders);
                    }
                }
                ClientEvent::Position(view) => {
                    if let Some(p) = player.as_mut() {
                        p.position(&view);
                    }
                }
                ClientEvent::Deadline(_) | ClientEvent::OrderResult(_) => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
