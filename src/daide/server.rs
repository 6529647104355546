//! Embedded DAIDE server: one game, level 0.
//!
//! [`ServerGame`] is the sans-I/O game host: client messages in,
//! [`Output`]s (messages per client, closes) out; [`ServerGame::deadline_expired`]
//! is called by the driver when a phase deadline passes. [`run_game`] drives one
//! game over a TCP listener (IM timer, RM, per-connection tasks, a game task).
//!
//! What it does:
//! - `NME` takes a free seat (powers assigned in a seeded random order; a
//!   name `POW:rest`, e.g. `TUR:dumbbot`, asks for that power, as the
//!   `diplomacy` server's power choice does — `REJ` if it is taken) →
//!   `YES (NME …)`, `MAP ('name')`; `OBS` → `YES (OBS)`, `MAP`; `IAM (POW)
//!   (passcode)` re-attaches a seat whose connection dropped
//!   (`NOT (CCD (POW))` is broadcast);
//! - `MDF`, `MAP`, `HLO`, `SCO`, `NOW`, `TME`, `MIS`, `ORD` queries are
//!   answered, and `HST (turn)` with that turn's `ORD`s, then the `SCO` (if
//!   one followed) and the `NOW` that followed;
//! - the game starts when every seat is taken and has accepted the map:
//!   `HLO` to each player, then `SCO`, `NOW`, `TME` (if deadlines) to all;
//! - `SUB`: each order is checked ([`crate::diplomacy::validate`]) and
//!   answered with `THX (order) (note)`; accepted orders replace earlier ones
//!   for the same unit; then `MIS` lists what is still missing. A `SUB` naming
//!   another turn is refused with `REJ`. `NOT (SUB)` / `NOT (SUB (order))`
//!   cancel;
//! - a phase is processed when every power that must order is ready, or
//!   when the deadline passes. Ready: nothing to order, no connection, or a
//!   `SUB` for this turn
//!   followed by `GOF`, or a complete order set without `NOT (GOF)`. A `GOF`
//!   before the seat's first `SUB` of the turn is answered `REJ (GOF)` and
//!   does not count: it was sent for an earlier turn (a turn processed on a
//!   seat's complete `SUB` moves on before the `GOF` the client sent after
//!   it is read). Then `ORD` for every unit of
//!   every power (unordered units hold, missing retreats disband, civil
//!   disorder removals and waives are reported), `SCO` after the fall and the
//!   adjustments, `NOW`, `TME`;
//! - a connected power that misses a deadline gets `CCD (POW) (turn)`
//!   broadcast, and `NOT (CCD (POW))` when it orders again;
//! - `OUT (POW)` on elimination; `SLO (POW)` at the solo threshold; a draw
//!   (`DRW`) when every surviving power has sent `DRW` this phase, or when
//!   the year cap is passed; then `SMR` and `OFF`;
//! - press (`SND`) is refused with `REJ` (level 0); malformed messages get
//!   `HUH`/`PRN`; unexpected ones `REJ`.

use std::collections::HashMap;

use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

use super::convert::{Names, turn_from_phase};
use super::message::{
    CentreGroup, Hello, Message, Missing, Order as DOrder, OrderReport, Owners, Parsed, PlacedUnit,
    Position, SummaryEntry, parse_message,
};
use super::token::{OrdResult, Param, PowerToken, ThxNote, Token, TokenTable};
use crate::diplomacy::game::{Game, PhaseReport};
use crate::diplomacy::judge::{OrderResult, Rules};
use crate::diplomacy::phases::{AdjustmentResult, RetreatResult};
use crate::diplomacy::validate::{OrderError, check_order};
use crate::diplomacy::{Map, Order, Phase, PhaseKind, Power, Season, Unit};

fn yes(m: Message) -> Message {
    Message::Yes(Box::new(Parsed::Ok(m)))
}

fn rej(m: Message) -> Message {
    Message::Rej(Box::new(Parsed::Ok(m)))
}

/// A connection's id, chosen by the driver.
pub type ClientId = u64;

/// What the host asks the driver to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Send a message to a client.
    Send(ClientId, Message),
    /// Close a client's connection (after the messages before it).
    Close(ClientId),
}

/// Game settings.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The map.
    pub map: Arc<Map>,
    /// Its name in `MAP ('…')`.
    pub map_name: String,
    /// The representation table (standard: an empty RM is sent).
    pub table: TokenTable,
    /// The starting position.
    pub opening: Vec<Unit>,
    /// The first phase.
    pub start: Phase,
    /// Seconds per phase (MTL = RTL = BTL); None: no deadlines.
    pub deadline: Option<u16>,
    /// Last year played; the game ends in a draw of the survivors after it.
    pub end_year: Option<i16>,
    /// Seed for power assignment and passcodes.
    pub seed: u64,
    /// Adjudication rules.
    pub rules: Rules,
}

impl ServerConfig {
    /// The standard game.
    pub fn standard(seed: u64) -> ServerConfig {
        let map = Map::standard();
        let opening = crate::diplomacy::game::standard_opening(&map);
        ServerConfig {
            map: Arc::new(map),
            map_name: "standard".into(),
            table: TokenTable::standard(),
            opening,
            start: Phase {
                year: 1901,
                season: Season::Spring,
            },
            deadline: None,
            end_year: None,
            seed,
            rules: Rules::default(),
        }
    }
}

/// Server setup errors.
#[derive(Debug, Error)]
pub enum ServerError {
    /// The opening position is invalid for the map.
    #[error("invalid opening position: {0}")]
    Opening(String),
    /// A power or province of the map has no token in the table.
    #[error("map and table disagree: {0}")]
    Names(String),
    /// Socket error.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

#[derive(Debug, Clone)]
struct Seat {
    power: Power,
    token: PowerToken,
    client: Option<ClientId>,
    name: String,
    version: String,
    passcode: i16,
    accepted_map: bool,
    orders: Vec<Order>,
    /// A `SUB` for the current turn has come from this seat (even one whose
    /// orders were all refused). Only then does a `GOF` count: a `GOF` that
    /// precedes the seat's first `SUB` of a turn was sent for an earlier turn
    /// (clients send `SUB` then `GOF`, and a turn processed on the `SUB`
    /// moves on before that `GOF` is read) or carries no orders at all.
    submitted: bool,
    gof: bool,
    not_gof: bool,
    drw: bool,
    out_year: Option<i16>,
    /// In civil disorder after missing a deadline (NMR), until it orders again.
    nmr: bool,
    /// When its last `SUB` of the current turn arrived.
    last_sub: Option<Instant>,
    stats: SeatStats,
}

/// What the server saw of one seat's ordering over a game: a tournament organiser's check
/// that every bot's orders reached the adjudicator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SeatStats {
    /// Phases processed in which the power had orders to give.
    pub phases_to_order: u32,
    /// Of those, phases processed without any `SUB` from it for that turn (a missed
    /// deadline, a dropped connection, or a turn that moved on before its orders came).
    pub phases_without_orders: u32,
    /// Orders answered with a `THX` note other than `MBV` (the unit then holds, disbands or
    /// the build is waived).
    pub refused_orders: u32,
    /// `SUB`s refused for naming another turn (`REJ (SUB …)`).
    pub rejected_subs: u32,
    /// Over the phases it ordered: milliseconds from the phase's `NOW` to its last `SUB`.
    pub order_ms_total: u64,
    /// The longest of those times, in milliseconds.
    pub order_ms_max: u64,
}

impl SeatStats {
    /// Phases in which the power had orders to give and sent them.
    pub fn phases_ordered(&self) -> u32 {
        self.phases_to_order - self.phases_without_orders
    }

    /// Adds another game's figures to these.
    pub fn add(&mut self, other: &SeatStats) {
        self.phases_to_order += other.phases_to_order;
        self.phases_without_orders += other.phases_without_orders;
        self.refused_orders += other.refused_orders;
        self.rejected_subs += other.rejected_subs;
        self.order_ms_total += other.order_ms_total;
        self.order_ms_max = self.order_ms_max.max(other.order_ms_max);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Joining,
    Player(usize),
    Observer { accepted: bool },
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A solo by this power.
    Solo(Power),
    /// A draw among the survivors (agreed or by the year cap).
    Draw(Vec<Power>),
}

/// One game hosted over DAIDE, sans I/O.
#[derive(Debug, Clone)]
pub struct ServerGame {
    cfg: ServerConfig,
    names: Names,
    game: Game,
    seats: Vec<Seat>,
    clients: HashMap<ClientId, Role>,
    started: bool,
    ending: Option<Ending>,
    last_ord: Vec<Message>,
    history: HashMap<super::message::Turn, Vec<Message>>,
    /// When the current phase's `NOW` went out.
    phase_started: Instant,
}

fn thx_note(e: OrderError) -> ThxNote {
    match e {
        OrderError::NoSuchUnit => ThxNote::Nsu,
        OrderError::NotYourUnit => ThxNote::Nyu,
        OrderError::NoSuchArmy => ThxNote::Nsa,
        OrderError::NoSuchFleet => ThxNote::Nsf,
        OrderError::NotAtSea => ThxNote::Nas,
        OrderError::NotAdjacent => ThxNote::Far,
        OrderError::NoCoast => ThxNote::Cst,
        OrderError::WrongSeason => ThxNote::Nrs,
        OrderError::NoRetreatNeeded => ThxNote::Nrn,
        OrderError::InvalidRetreat => ThxNote::Nvr,
        OrderError::NotSupplyCentre => ThxNote::Nsc,
        OrderError::NotHomeCentre => ThxNote::Hsc,
        OrderError::NotYourCentre => ThxNote::Ysc,
        OrderError::CentreOccupied => ThxNote::Esc,
        OrderError::NoMoreBuilds => ThxNote::Nmb,
        OrderError::NoMoreRemovals => ThxNote::Nmr,
    }
}

impl ServerGame {
    /// A new game waiting for players.
    pub fn new(cfg: ServerConfig) -> Result<ServerGame, ServerError> {
        let game = Game::new(
            (*cfg.map).clone(),
            cfg.start,
            cfg.opening.clone(),
            cfg.rules,
        )
        .map_err(|e| ServerError::Opening(e.to_string()))?;
        let names = Names::new(&cfg.table, &cfg.map);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
        let mut powers: Vec<Power> = cfg.map.powers().map(|(p, _)| p).collect();
        powers.shuffle(&mut rng);
        let mut seats = Vec::new();
        for power in powers {
            let token = names
                .power_token(power)
                .map_err(|e| ServerError::Names(e.to_string()))?;
            seats.push(Seat {
                power,
                token,
                client: None,
                name: String::new(),
                version: String::new(),
                passcode: rand::Rng::gen_range(&mut rng, 1..8000),
                accepted_map: false,
                orders: Vec::new(),
                submitted: false,
                gof: false,
                not_gof: false,
                drw: false,
                out_year: None,
                nmr: false,
                last_sub: None,
                stats: SeatStats::default(),
            });
        }
        Ok(ServerGame {
            cfg,
            names,
            game,
            seats,
            clients: HashMap::new(),
            started: false,
            ending: None,
            last_ord: Vec::new(),
            history: HashMap::new(),
            phase_started: Instant::now(),
        })
    }

    /// Whether the game has started.
    pub fn started(&self) -> bool {
        self.started
    }
    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }
    /// The game state.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.cfg
    }
    /// The player names per power, once joined.
    pub fn players(&self) -> Vec<(Power, String)> {
        self.seats
            .iter()
            .map(|s| (s.power, s.name.clone()))
            .collect()
    }

    /// Each power's ordering statistics so far (seat order).
    pub fn seat_stats(&self) -> Vec<(Power, SeatStats)> {
        self.seats.iter().map(|s| (s.power, s.stats)).collect()
    }

    /// The year each power was eliminated in, if it was (seat order).
    pub fn eliminations(&self) -> Vec<(Power, Option<i16>)> {
        self.seats.iter().map(|s| (s.power, s.out_year)).collect()
    }

    /// A new connection (after its IM/RM handshake).
    pub fn connect(&mut self, id: ClientId) {
        self.clients.insert(id, Role::Joining);
    }

    /// A connection went away.
    pub fn disconnect(&mut self, id: ClientId) -> Vec<Output> {
        let mut out = Vec::new();
        if let Some(Role::Player(i)) = self.clients.remove(&id) {
            let seat = &mut self.seats[i];
            seat.client = None;
            if !self.started {
                seat.name.clear();
                seat.accepted_map = false;
            } else if self.ending.is_none() {
                let m = Message::Ccd {
                    power: seat.token,
                    turn: None,
                };
                self.broadcast(&mut out, m);
                self.maybe_process(&mut out);
            }
        }
        out
    }

    fn broadcast(&self, out: &mut Vec<Output>, m: Message) {
        let mut ids: Vec<ClientId> = self
            .clients
            .iter()
            .filter(|(_, r)| matches!(r, Role::Player(_) | Role::Observer { accepted: true }))
            .map(|(id, _)| *id)
            .collect();
        ids.sort();
        for id in ids {
            out.push(Output::Send(id, m.clone()));
        }
    }

    fn current_turn(&self) -> Option<super::message::Turn> {
        turn_from_phase(self.game.phase()).ok()
    }

    fn sco(&self) -> Message {
        let mut groups: Vec<CentreGroup> = Vec::new();
        for s in &self.seats {
            let mut centres: Vec<_> = self
                .game
                .owners()
                .iter()
                .filter(|(_, p)| **p == s.power)
                .filter_map(|(c, _)| self.names.province_token(*c).ok())
                .collect();
            centres.sort();
            if !centres.is_empty() {
                groups.push(CentreGroup {
                    owners: Owners::Power(s.token),
                    centres,
                });
            }
        }
        let mut uno: Vec<_> = self
            .cfg
            .map
            .supply_centres()
            .filter(|c| !self.game.owners().contains_key(c))
            .filter_map(|c| self.names.province_token(c).ok())
            .collect();
        uno.sort();
        if !uno.is_empty() {
            groups.push(CentreGroup {
                owners: Owners::Unowned,
                centres: uno,
            });
        }
        groups.sort_by_key(|g| match &g.owners {
            Owners::Power(p) => p.0 as u16,
            _ => u16::MAX,
        });
        Message::Sco(groups)
    }

    fn now(&self) -> Message {
        let Some(turn) = self.current_turn() else {
            return Message::Now(None);
        };
        let mut units: Vec<PlacedUnit> = self
            .game
            .units()
            .iter()
            .filter_map(|u| self.names.daide_unit(u).ok())
            .map(|unit| PlacedUnit {
                unit,
                retreats: None,
            })
            .collect();
        for d in self.game.dislodged() {
            if let Ok(unit) = self.names.daide_unit(&d.unit) {
                units.push(PlacedUnit {
                    unit,
                    retreats: Some(
                        d.retreats
                            .iter()
                            .filter_map(|l| self.names.loc(*l).ok())
                            .collect(),
                    ),
                });
            }
        }
        Message::Now(Some(Position { turn, units }))
    }

    fn hlo(&self, seat: &Seat) -> Message {
        let mut variant = vec![(Param::Lvl, Some(0))];
        if let Some(d) = self.cfg.deadline {
            let d = d.min(8191) as i16;
            variant.push((Param::Mtl, Some(d)));
            variant.push((Param::Rtl, Some(d)));
            variant.push((Param::Btl, Some(d)));
        }
        Message::Hlo(Some(Hello {
            power: seat.token,
            passcode: seat.passcode,
            variant,
        }))
    }

    fn tme(&self) -> Option<Message> {
        self.cfg
            .deadline
            .map(|d| Message::Tme(Some(d.min(8191) as i16)))
    }

    fn missing(&self, seat: &Seat) -> Message {
        let view = self.game.view(Some(seat.power));
        match view.phase.season.kind() {
            PhaseKind::Adjustment => {
                let delta = self.game.adjustment(seat.power);
                let left = delta.signum() * (delta.abs() - seat.orders.len() as i32).max(0);
                // DAIDE: MIS (n) with n > 0 removals owed, n < 0 builds available.
                if left == 0 {
                    Message::Mis(Missing::Units(Vec::new()))
                } else {
                    Message::Mis(Missing::Count((-left) as i16))
                }
            }
            PhaseKind::Movement => {
                let units = view
                    .units
                    .iter()
                    .filter(|u| u.power == seat.power)
                    .filter(|u| !seat.orders.iter().any(|o| o.unit() == Some(u)))
                    .filter_map(|u| self.names.daide_unit(u).ok())
                    .map(|unit| PlacedUnit {
                        unit,
                        retreats: None,
                    })
                    .collect();
                Message::Mis(Missing::Units(units))
            }
            PhaseKind::Retreat => {
                let units = view
                    .dislodged
                    .iter()
                    .filter(|d| d.unit.power == seat.power)
                    .filter(|d| !seat.orders.iter().any(|o| o.unit() == Some(&d.unit)))
                    .filter_map(|d| {
                        Some(PlacedUnit {
                            unit: self.names.daide_unit(&d.unit).ok()?,
                            retreats: Some(
                                d.retreats
                                    .iter()
                                    .filter_map(|l| self.names.loc(*l).ok())
                                    .collect(),
                            ),
                        })
                    })
                    .collect();
                Message::Mis(Missing::Units(units))
            }
        }
    }

    fn orders_complete(&self, seat: &Seat) -> bool {
        let view = self.game.view(Some(seat.power));
        match view.phase.season.kind() {
            PhaseKind::Movement => view
                .units
                .iter()
                .filter(|u| u.power == seat.power)
                .all(|u| seat.orders.iter().any(|o| o.unit() == Some(u))),
            PhaseKind::Retreat => view
                .dislodged
                .iter()
                .filter(|d| d.unit.power == seat.power)
                .all(|d| seat.orders.iter().any(|o| o.unit() == Some(&d.unit))),
            PhaseKind::Adjustment => {
                seat.orders.len() as i32 >= self.game.adjustment(seat.power).abs()
            }
        }
    }

    /// Handles one DM from a client.
    pub fn handle(&mut self, id: ClientId, tokens: &[Token]) -> Vec<Output> {
        let mut out = Vec::new();
        let msg = match parse_message(tokens) {
            Ok(m) => m,
            Err(e) => {
                out.push(Output::Send(id, e.reply(tokens)));
                return out;
            }
        };
        let Some(&role) = self.clients.get(&id) else {
            return out;
        };
        let send = |out: &mut Vec<Output>, m: Message| out.push(Output::Send(id, m));
        let map_name = || Message::Map(Some(self.cfg.map_name.clone()));
        match (role, msg) {
            (Role::Joining, m @ Message::Nme { .. }) => self.join_by_name(id, m, &mut out),
            (Role::Joining, Message::Obs) => {
                self.clients.insert(id, Role::Observer { accepted: false });
                send(&mut out, yes(Message::Obs));
                send(&mut out, map_name());
            }
            (Role::Joining, Message::Iam { power, passcode }) => {
                self.rejoin(id, power, passcode, &mut out)
            }
            (Role::Joining, m) => send(&mut out, rej(m)),
            (_, Message::Mdf(None)) => match self.names.mdf(&self.cfg.map) {
                Ok(def) => send(&mut out, Message::Mdf(Some(Box::new(def)))),
                Err(_) => send(&mut out, rej(Message::Mdf(None))),
            },
            (_, Message::Map(None)) => send(&mut out, map_name()),
            (role, Message::Yes(inner)) if matches!(*inner, Parsed::Ok(Message::Map(_))) => {
                self.map_accepted(id, role, &mut out)
            }
            (role, Message::Rej(inner)) if matches!(*inner, Parsed::Ok(Message::Map(_))) => {
                self.map_refused(id, role, &mut out)
            }
            (Role::Player(i), Message::Hlo(None)) if self.started => {
                send(&mut out, self.hlo(&self.seats[i]))
            }
            (_, Message::Sco(g)) if g.is_empty() && self.started => send(&mut out, self.sco()),
            (_, Message::Now(None)) if self.started => send(&mut out, self.now()),
            (_, Message::Tme(None)) => send(
                &mut out,
                self.tme().unwrap_or_else(|| rej(Message::Tme(None))),
            ),
            (_, Message::Hst(turn)) if self.started => match self.history.get(&turn) {
                Some(msgs) => out.extend(msgs.iter().map(|m| Output::Send(id, m.clone()))),
                None => send(&mut out, rej(Message::Hst(turn))),
            },
            (_, Message::Ord(None)) if self.started => {
                out.extend(self.last_ord.iter().map(|m| Output::Send(id, m.clone())))
            }
            (Role::Player(i), Message::Mis(Missing::Units(u))) if u.is_empty() && self.started => {
                send(&mut out, self.missing(&self.seats[i]))
            }
            (Role::Player(i), Message::Sub { turn, orders })
                if self.started && self.ending.is_none() =>
            {
                self.submit(id, i, turn, orders, &mut out)
            }
            (Role::Player(i), Message::Not(inner)) if self.started => {
                self.retract(id, i, *inner, &mut out)
            }
            (Role::Player(i), Message::Gof) if self.started => {
                if self.seats[i].submitted {
                    self.seats[i].gof = true;
                    self.seats[i].not_gof = false;
                    send(&mut out, yes(Message::Gof));
                    self.maybe_process(&mut out);
                } else {
                    // Sent for an earlier turn, or without orders: never counts.
                    send(&mut out, rej(Message::Gof));
                }
            }
            (Role::Player(i), Message::Drw(p))
                if p.is_empty() && self.started && self.ending.is_none() =>
            {
                self.seats[i].drw = true;
                send(&mut out, yes(Message::Drw(p)));
                self.maybe_draw(&mut out);
            }
            (_, Message::Huh(_) | Message::Prn(_)) => {}
            (_, m) => send(&mut out, rej(m)),
        }
        out
    }

    /// `NME` from a joining client: a free seat (the named power's, for a name `POW:rest`, as
    /// in the `diplomacy` server) before the game starts, else `REJ`.
    fn join_by_name(&mut self, id: ClientId, m: Message, out: &mut Vec<Output>) {
        let Message::Nme { name, version } = &m else {
            return;
        };
        let open = |s: &Seat| s.client.is_none() && s.name.is_empty();
        let wanted = name
            .split_once(':')
            .and_then(|(pw, _)| self.cfg.map.power(&pw.to_ascii_uppercase()));
        let free = match wanted {
            Some(pw) => self.seats.iter().position(|s| s.power == pw && open(s)),
            None => self.seats.iter().position(open),
        };
        match free {
            Some(i) if !self.started && self.ending.is_none() => {
                self.seats[i].name = name.clone();
                self.seats[i].version = version.clone();
                self.seats[i].client = Some(id);
                self.clients.insert(id, Role::Player(i));
                out.push(Output::Send(id, yes(m)));
                let map = Message::Map(Some(self.cfg.map_name.clone()));
                out.push(Output::Send(id, map));
            }
            _ => out.push(Output::Send(id, rej(m))),
        }
    }

    /// `IAM`: a dropped player takes its seat back with its passcode.
    fn rejoin(&mut self, id: ClientId, power: PowerToken, passcode: i16, out: &mut Vec<Output>) {
        let seat = self.seats.iter().position(|s| {
            s.token == power && s.passcode == passcode && s.client.is_none() && !s.name.is_empty()
        });
        match seat {
            Some(i) if self.ending.is_none() => {
                self.seats[i].client = Some(id);
                self.clients.insert(id, Role::Player(i));
                out.push(Output::Send(id, yes(Message::Iam { power, passcode })));
                if self.started {
                    let m = Message::Not(Box::new(Parsed::Ok(Message::Ccd { power, turn: None })));
                    self.broadcast(out, m);
                }
            }
            _ => out.push(Output::Send(id, rej(Message::Iam { power, passcode }))),
        }
    }

    /// `YES (MAP …)`: the game starts when every seat has accepted; a late observer or a
    /// rejoining player catches up.
    fn map_accepted(&mut self, id: ClientId, role: Role, out: &mut Vec<Output>) {
        match role {
            Role::Player(i) => self.seats[i].accepted_map = true,
            Role::Observer { .. } => {
                self.clients.insert(id, Role::Observer { accepted: true });
            }
            Role::Joining => {}
        }
        if !self.started {
            self.try_start(out);
            return;
        }
        if let Role::Player(i) = role {
            out.push(Output::Send(id, self.hlo(&self.seats[i])));
        }
        out.push(Output::Send(id, self.sco()));
        out.push(Output::Send(id, self.now()));
    }

    /// `REJ (MAP …)`: the client leaves (its seat opens again before the game starts).
    fn map_refused(&mut self, id: ClientId, role: Role, out: &mut Vec<Output>) {
        if let Role::Player(i) = role {
            self.seats[i].client = None;
            if !self.started {
                self.seats[i].name.clear();
            }
        }
        self.clients.remove(&id);
        out.push(Output::Send(id, Message::Off));
        out.push(Output::Close(id));
    }

    /// `SUB`: each order answered with `THX`, then `MIS`; a power in civil disorder is back.
    fn submit(
        &mut self,
        id: ClientId,
        i: usize,
        turn: Option<super::message::Turn>,
        orders: Vec<DOrder>,
        out: &mut Vec<Output>,
    ) {
        if let Some(t) = turn
            && Some(t) != self.current_turn()
        {
            self.seats[i].stats.rejected_subs += 1;
            out.push(Output::Send(id, rej(Message::Sub { turn, orders })));
            return;
        }
        self.seats[i].submitted = true;
        self.seats[i].last_sub = Some(Instant::now());
        for o in orders {
            let note = self.accept_order(i, &o);
            if note != ThxNote::Mbv {
                self.seats[i].stats.refused_orders += 1;
            }
            out.push(Output::Send(id, Message::Thx { order: o, note }));
        }
        out.push(Output::Send(id, self.missing(&self.seats[i])));
        if self.seats[i].nmr {
            self.seats[i].nmr = false;
            let power = self.seats[i].token;
            let m = Message::Not(Box::new(Parsed::Ok(Message::Ccd { power, turn: None })));
            self.broadcast(out, m);
        }
        self.maybe_process(out);
    }

    /// `NOT (SUB …)`, `NOT (GOF)`, `NOT (DRW)`: take back orders, readiness or a draw vote.
    fn retract(&mut self, id: ClientId, i: usize, inner: Parsed<Message>, out: &mut Vec<Output>) {
        let not = |m: Message| yes(Message::Not(Box::new(Parsed::Ok(m))));
        let reply = match inner {
            Parsed::Ok(Message::Sub { orders, .. }) => {
                if orders.is_empty() {
                    self.seats[i].orders.clear();
                }
                for o in &orders {
                    if let Ok(m) = self.names.order(o) {
                        self.seats[i].orders.retain(|x| *x != m);
                    }
                }
                not(Message::Sub { turn: None, orders })
            }
            Parsed::Ok(Message::Gof) => {
                self.seats[i].gof = false;
                self.seats[i].not_gof = true;
                not(Message::Gof)
            }
            Parsed::Ok(Message::Drw(p)) if p.is_empty() => {
                self.seats[i].drw = false;
                not(Message::Drw(p))
            }
            other => rej(Message::Not(Box::new(other))),
        };
        out.push(Output::Send(id, reply));
    }

    fn accept_order(&mut self, seat: usize, o: &DOrder) -> ThxNote {
        let Ok(model) = self.names.order(o) else {
            return ThxNote::Nsu;
        };
        let power = self.seats[seat].power;
        let view = self.game.view(Some(power));
        // Orders already standing for other units count against the adjustment.
        let standing = &self.seats[seat].orders;
        let delta = self.game.adjustment(power);
        let same_unit = |x: &Order| x.unit().is_some() && x.unit() == model.unit();
        let used = standing.iter().filter(|x| !same_unit(x)).count() as i32;
        let left = if delta > 0 {
            delta - used
        } else if delta < 0 {
            delta + used
        } else {
            0
        };
        match check_order(&view, power, &model, left) {
            Ok(()) => {
                let orders = &mut self.seats[seat].orders;
                if model.unit().is_some() {
                    orders.retain(|x| !same_unit(x));
                }
                orders.push(model);
                ThxNote::Mbv
            }
            Err(e) => thx_note(e),
        }
    }

    fn try_start(&mut self, out: &mut Vec<Output>) {
        if self.started
            || !self
                .seats
                .iter()
                .all(|s| s.client.is_some() && s.accepted_map)
        {
            return;
        }
        self.started = true;
        for s in &self.seats {
            if let Some(c) = s.client {
                out.push(Output::Send(c, self.hlo(s)));
            }
        }
        self.broadcast(out, self.sco());
        self.broadcast(out, self.now());
        self.phase_started = Instant::now();
        if let Some(t) = self.tme() {
            self.broadcast(out, t);
        }
    }

    /// A seat is ready when it has nothing to order, has no connection, or
    /// has sent a `SUB` for this turn and then either `GOF` or a complete
    /// order set (without `NOT (GOF)`). A connected seat that must order and
    /// has sent no `SUB` this turn is never ready.
    fn ready(&self, seat: &Seat) -> bool {
        let view = self.game.view(Some(seat.power));
        !view.needs_orders(seat.power)
            || seat.client.is_none()
            || (seat.submitted && (seat.gof || (!seat.not_gof && self.orders_complete(seat))))
    }

    fn maybe_process(&mut self, out: &mut Vec<Output>) {
        if self.started && self.ending.is_none() && self.seats.iter().all(|s| self.ready(s)) {
            self.process(out);
        }
    }

    /// The phase deadline passed: process with the orders in hand.
    /// Connected powers that have not finished ordering are in civil disorder
    /// (NMR): `CCD (POW) (turn)` is broadcast, and `NOT (CCD (POW))` once
    /// they submit orders again.
    pub fn deadline_expired(&mut self) -> Vec<Output> {
        let mut out = Vec::new();
        if self.started && self.ending.is_none() {
            let turn = self.current_turn();
            for i in 0..self.seats.len() {
                let seat = &self.seats[i];
                let view = self.game.view(Some(seat.power));
                let missed = seat.client.is_some()
                    && view.needs_orders(seat.power)
                    && !seat.gof
                    && !self.orders_complete(seat);
                if missed && !seat.nmr {
                    self.seats[i].nmr = true;
                    let m = Message::Ccd {
                        power: self.seats[i].token,
                        turn,
                    };
                    self.broadcast(&mut out, m);
                }
            }
            self.process(&mut out);
        }
        out
    }

    fn maybe_draw(&mut self, out: &mut Vec<Output>) {
        let survivors: Vec<&Seat> = self.seats.iter().filter(|s| s.out_year.is_none()).collect();
        if !survivors.is_empty() && survivors.iter().all(|s| s.drw) {
            let powers = survivors.iter().map(|s| s.power).collect();
            self.finish(out, Ending::Draw(powers));
        }
    }

    fn finish(&mut self, out: &mut Vec<Output>, ending: Ending) {
        match &ending {
            Ending::Solo(p) => {
                if let Ok(t) = self.names.power_token(*p) {
                    self.broadcast(out, Message::Slo(t));
                }
            }
            Ending::Draw(_) => self.broadcast(out, Message::Drw(Vec::new())),
        }
        self.ending = Some(ending);
        if let Some(turn) = self.current_turn() {
            let entries = self
                .seats
                .iter()
                .map(|s| SummaryEntry {
                    power: s.token,
                    name: s.name.clone(),
                    version: s.version.clone(),
                    centres: self.game.centre_count(s.power) as i16,
                    eliminated: s.out_year,
                })
                .collect();
            self.broadcast(out, Message::Smr { turn, entries });
        }
        self.broadcast(out, Message::Off);
        let mut ids: Vec<ClientId> = self.clients.keys().copied().collect();
        ids.sort();
        for id in ids {
            out.push(Output::Close(id));
        }
    }

    fn ord(
        &self,
        turn: super::message::Turn,
        order: &Order,
        results: Vec<OrdResult>,
    ) -> Option<Message> {
        let o = self.names.daide_order(order).ok()?;
        Some(Message::Ord(Some(OrderReport {
            turn,
            order: Parsed::Ok(o),
            results,
        })))
    }

    fn process(&mut self, out: &mut Vec<Output>) {
        let Some(turn) = self.current_turn() else {
            return;
        };
        let orders: Vec<Order> = self
            .seats
            .iter()
            .flat_map(|s| s.orders.iter().cloned())
            .collect();
        let leaving = self.game.phase();
        let started = self.phase_started;
        for seat in &mut self.seats {
            if self.game.view(Some(seat.power)).needs_orders(seat.power) {
                seat.stats.phases_to_order += 1;
                seat.stats.phases_without_orders += u32::from(!seat.submitted);
                if let (true, Some(t)) = (seat.submitted, seat.last_sub) {
                    let ms = t.saturating_duration_since(started).as_millis() as u64;
                    seat.stats.order_ms_total += ms;
                    seat.stats.order_ms_max = seat.stats.order_ms_max.max(ms);
                }
            }
        }
        let report = match self.game.process(&orders) {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(target: "daide::server", "adjudication failed: {e}");
                return;
            }
        };
        let mut ords = Vec::new();
        match &report {
            PhaseReport::Movement(m) => {
                for r in &m.results {
                    let mut res = match r.result {
                        OrderResult::Success => vec![OrdResult::Suc],
                        OrderResult::Bounced => vec![OrdResult::Bnc],
                        OrderResult::Cut => vec![OrdResult::Cut],
                        OrderResult::Disrupted => vec![OrdResult::Dsr],
                        OrderResult::NoSuchOrder => vec![OrdResult::Nso],
                        OrderResult::Failed(_) => vec![OrdResult::Fld],
                        // Refused orders: the unit's generated hold is reported instead.
                        OrderResult::Illegal(_) => continue,
                    };
                    if r.dislodged {
                        res.push(OrdResult::Ret);
                    }
                    ords.extend(self.ord(turn, &r.order, res));
                }
            }
            PhaseReport::Retreat(r) => {
                for (o, res) in &r.results {
                    let res = match res {
                        RetreatResult::Moved
                        | RetreatResult::Disbanded
                        | RetreatResult::NoOrder => OrdResult::Suc,
                        RetreatResult::Bounced | RetreatResult::Invalid => OrdResult::Bnc,
                        RetreatResult::NoSuchUnit => continue,
                    };
                    ords.extend(self.ord(turn, o, vec![res]));
                }
            }
            PhaseReport::Adjustment(a) => {
                for (o, res) in &a.results {
                    if *res == AdjustmentResult::Success {
                        ords.extend(self.ord(turn, o, vec![OrdResult::Suc]));
                    }
                }
                for u in &a.civil_disorder {
                    ords.extend(self.ord(turn, &Order::Remove(*u), vec![OrdResult::Suc]));
                }
                for (p, n) in &a.unused_builds {
                    for _ in 0..*n {
                        ords.extend(self.ord(turn, &Order::Waive(*p), vec![OrdResult::Suc]));
                    }
                }
            }
        }
        for m in &ords {
            self.broadcast(out, m.clone());
        }
        let mut hist = ords.clone();
        self.last_ord = ords;
        for s in &mut self.seats {
            s.submitted = false;
            s.last_sub = None;
            s.orders.clear();
            s.gof = false;
            s.not_gof = false;
            s.drw = false;
        }
        // Ownership may have changed once the fall is over.
        let now = self.game.phase();
        let fall_done = matches!(leaving.season, Season::Fall | Season::Autumn)
            && matches!(now.season, Season::Winter | Season::Spring);
        if fall_done || leaving.season == Season::Winter {
            self.broadcast(out, self.sco());
            hist.push(self.sco());
        }
        let year = leaving.year;
        for i in 0..self.seats.len() {
            if self.seats[i].out_year.is_none() && self.game.is_eliminated(self.seats[i].power) {
                self.seats[i].out_year = Some(year);
                self.broadcast(out, Message::Out(self.seats[i].token));
            }
        }
        let now_msg = self.now();
        hist.push(now_msg.clone());
        self.history.insert(turn, hist);
        if let Some(p) = self.game.solo_winner() {
            self.finish(out, Ending::Solo(p));
            return;
        }
        if let Some(cap) = self.cfg.end_year
            && now.year > cap
        {
            let powers = self
                .seats
                .iter()
                .filter(|s| s.out_year.is_none())
                .map(|s| s.power)
                .collect();
            self.finish(out, Ending::Draw(powers));
            return;
        }
        self.broadcast(out, now_msg);
        self.phase_started = Instant::now();
        if let Some(t) = self.tme() {
            self.broadcast(out, t);
        }
    }

    /// The phase deadline, if the game has deadlines and is running.
    pub fn phase_deadline(&self) -> Option<Duration> {
        if self.started && self.ending.is_none() {
            self.cfg.deadline.map(|d| Duration::from_secs(d as u64))
        } else {
            None
        }
    }
}

// ---------------------------------------------------------------------------
// Async driver

use futures::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

use super::codec::{DaideCodec, ErrorCode, Frame, Role as CodecRole};

/// How long a new connection may take to send its IM.
pub const IM_TIMEOUT: Duration = Duration::from_secs(30);

enum Event {
    Connected(ClientId, mpsc::UnboundedSender<Output>),
    Dm(ClientId, Vec<Token>),
    Gone(ClientId),
}

async fn connection<S>(
    stream: S,
    id: ClientId,
    table: TokenTable,
    events: mpsc::UnboundedSender<Event>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut framed = Framed::new(stream, DaideCodec::for_role(CodecRole::Server));
    let first = tokio::time::timeout(IM_TIMEOUT, framed.next()).await;
    match first {
        Err(_) => {
            let _ = framed.send(Frame::Em(ErrorCode::ImTimeout)).await;
            return;
        }
        Ok(Some(Ok(Frame::Im { .. }))) => {}
        Ok(Some(Err(e))) => {
            if let Some(code) = e.em_code() {
                let _ = framed.send(Frame::Em(code)).await;
            }
            return;
        }
        Ok(_) => return,
    }
    if framed.send(Frame::Rm(table)).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel();
    if events.send(Event::Connected(id, tx)).is_err() {
        return;
    }
    loop {
        tokio::select! {
            frame = framed.next() => match frame {
                Some(Ok(Frame::Dm(t))) => {
                    // If the game task is gone, keep going: its last messages
                    // are still queued in `rx`, which then ends.
                    let _ = events.send(Event::Dm(id, t));
                }
                Some(Ok(Frame::Fm)) | Some(Ok(Frame::Em(_))) | None => break,
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    if let Some(code) = e.em_code() {
                        let _ = framed.send(Frame::Em(code)).await;
                    }
                    break;
                }
            },
            cmd = rx.recv() => match cmd {
                Some(Output::Send(_, m)) => {
                    if framed.send(Frame::Dm(m.to_tokens())).await.is_err() { break; }
                }
                Some(Output::Close(_)) | None => {
                    // Graceful close: FIN first, then drain what the client
                    // still sends (its FM), so that unread input does not
                    // turn the close into a reset that loses our last messages.
                    let _ = tokio::io::AsyncWriteExt::shutdown(framed.get_mut()).await;
                    let _ = tokio::time::timeout(Duration::from_secs(2), async {
                        while let Some(Ok(_)) = framed.next().await {}
                    })
                    .await;
                    break;
                }
            }
        }
    }
    let _ = events.send(Event::Gone(id));
}

type GameId = u64;

struct Hosted {
    host: ServerGame,
    deadline: Option<tokio::time::Instant>,
    seen: Option<(Phase, bool)>,
}

/// Routes connections to games: new connections join the game being formed;
/// once it starts, the next connection opens a new one.
struct Hub {
    make: Box<dyn FnMut(GameId) -> ServerConfig + Send>,
    games: HashMap<GameId, Hosted>,
    forming: Option<GameId>,
    next_game: GameId,
    client_game: HashMap<ClientId, GameId>,
    finished: Vec<ServerGame>,
    /// At most this many games are ever opened.
    limit: Option<u64>,
    /// Told of every game as it ends.
    on_finish: Box<dyn FnMut(GameRecord) + Send>,
}

impl Hub {
    fn new(make: Box<dyn FnMut(GameId) -> ServerConfig + Send>, limit: Option<u64>) -> Hub {
        Hub {
            limit,
            make,
            games: HashMap::new(),
            forming: None,
            next_game: 0,
            client_game: HashMap::new(),
            finished: Vec::new(),
            on_finish: Box::new(|_| {}),
        }
    }

    fn connect(&mut self, id: ClientId) -> Result<(), ServerError> {
        let gid = match self.forming {
            Some(g) if self.games.get(&g).is_some_and(|h| !h.host.started()) => g,
            // No more games may open: join the last one (which refuses NME once started).
            _ if self.limit.is_some_and(|l| self.next_game >= l) => {
                match self
                    .next_game
                    .checked_sub(1)
                    .filter(|g| self.games.contains_key(g))
                {
                    Some(g) => g,
                    None => return Ok(()),
                }
            }
            _ => {
                let g = self.next_game;
                self.next_game += 1;
                let host = ServerGame::new((self.make)(g))?;
                self.games.insert(
                    g,
                    Hosted {
                        host,
                        deadline: None,
                        seen: None,
                    },
                );
                self.forming = Some(g);
                g
            }
        };
        self.client_game.insert(id, gid);
        if let Some(h) = self.games.get_mut(&gid) {
            h.host.connect(id);
        }
        Ok(())
    }

    fn with_game(
        &mut self,
        id: ClientId,
        f: impl FnOnce(&mut ServerGame) -> Vec<Output>,
    ) -> Vec<Output> {
        let Some(&gid) = self.client_game.get(&id) else {
            return Vec::new();
        };
        let out = match self.games.get_mut(&gid) {
            Some(h) => f(&mut h.host),
            None => Vec::new(),
        };
        self.after(gid);
        out
    }

    fn after(&mut self, gid: GameId) {
        let Some(h) = self.games.get_mut(&gid) else {
            return;
        };
        let key = (h.host.game().phase(), h.host.started());
        if h.seen != Some(key) {
            if key.1 && !h.seen.is_some_and(|(_, started)| started) {
                tracing::info!(target: "daide::server", game = gid, "game started");
            }
            h.seen = Some(key);
            h.deadline = h
                .host
                .phase_deadline()
                .map(|d| tokio::time::Instant::now() + d);
        }
        if h.host.ending().is_some()
            && let Some(done) = self.games.remove(&gid)
        {
            self.client_game.retain(|_, g| *g != gid);
            if self.forming == Some(gid) {
                self.forming = None;
            }
            let record = GameRecord::new(gid, &done.host);
            tracing::info!(
                target: "daide::server",
                game = record.game,
                phase = %record.phase,
                ending = %record.ending,
                centres = %record.centres_text(),
                "game over"
            );
            (self.on_finish)(record);
            self.finished.push(done.host);
        }
    }

    fn next_deadline(&self) -> Option<(tokio::time::Instant, GameId)> {
        self.games
            .iter()
            .filter_map(|(g, h)| h.deadline.map(|d| (d, *g)))
            .min()
    }

    fn expire(&mut self, gid: GameId) -> Vec<Output> {
        let out = match self.games.get_mut(&gid) {
            Some(h) => {
                h.deadline = None;
                h.host.deadline_expired()
            }
            None => Vec::new(),
        };
        self.after(gid);
        out
    }
}

/// Limits of the embedded server's listener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListenerLimits {
    /// Connections served at once (players, observers and ones that have not sent `IM` yet).
    /// One more is accepted only when one of them has closed; later clients wait in the
    /// kernel's listen queue.
    pub max_connections: usize,
}

impl Default for ListenerLimits {
    fn default() -> Self {
        ListenerLimits {
            max_connections: 64,
        }
    }
}

/// Accepts connections while fewer than `max_connections` are open, retrying failed accepts
/// (out of file descriptors) with a backoff; each connection reports to `events`.
async fn accept_loop(
    listener: TcpListener,
    table: TokenTable,
    limits: ListenerLimits,
    events: mpsc::UnboundedSender<Event>,
) {
    let open = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let mut next_id: ClientId = 1;
    loop {
        let Ok(slot) = open.clone().acquire_owned().await else {
            return;
        };
        let (stream, _) = crate::net::accept(&listener).await;
        let _ = stream.set_nodelay(true);
        let id = next_id;
        next_id += 1;
        let (table, events) = (table.clone(), events.clone());
        tokio::spawn(async move {
            connection(stream, id, table, events).await;
            drop(slot);
        });
    }
}

/// One finished game, as the server logs it and `tablero diplomacy server --results` writes it
/// (one JSON line per game).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GameRecord {
    /// The game's number on this server, from 0 in the order games opened.
    pub game: u64,
    /// The seed of its power assignment and passcodes.
    pub seed: u64,
    /// The phase it ended in: the first one not played, e.g. `S1903M` for a game that
    /// ended by the year cap after 1902.
    pub phase: String,
    /// When it ended, in seconds since the Unix epoch.
    pub ended: u64,
    /// `solo` or `draw`.
    pub ending: String,
    /// The power that won a solo.
    pub winner: Option<String>,
    /// Every power: its player's name and its centres at the end.
    pub powers: Vec<PowerRecord>,
}

/// A power's line in a [`GameRecord`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PowerRecord {
    /// The power, e.g. `AUS`.
    pub power: String,
    /// The name its player sent in `NME` (empty if nobody took it).
    pub name: String,
    /// Supply centres owned at the end.
    pub centres: usize,
}

impl GameRecord {
    /// The record of `host`, game number `game`.
    pub fn new(game: u64, host: &ServerGame) -> GameRecord {
        let map = host.game().map();
        let power_name = |p: Power| map.power_name(p).unwrap_or("?").to_string();
        let (ending, winner) = match host.ending() {
            Some(Ending::Solo(p)) => ("solo", Some(power_name(*p))),
            _ => ("draw", None),
        };
        let mut powers: Vec<PowerRecord> = host
            .players()
            .into_iter()
            .map(|(p, name)| PowerRecord {
                power: power_name(p),
                name,
                centres: host.game().centre_count(p),
            })
            .collect();
        powers.sort_by(|a, b| a.power.cmp(&b.power));
        GameRecord {
            game,
            seed: host.config().seed,
            phase: host.game().phase().to_string(),
            ended: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            ending: ending.into(),
            winner,
            powers,
        }
    }

    /// `AUS=5 ENG=4 …`, for logs.
    pub fn centres_text(&self) -> String {
        let parts: Vec<String> = self
            .powers
            .iter()
            .map(|p| format!("{}={}", p.power, p.centres))
            .collect();
        parts.join(" ")
    }
}

async fn run_hub(
    listener: TcpListener,
    table: TokenTable,
    mut hub: Hub,
    limits: ListenerLimits,
    max_games: Option<usize>,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<Vec<ServerGame>, ServerError> {
    let (events_tx, mut events) = mpsc::unbounded_channel::<Event>();
    let acceptor = tokio::spawn(accept_loop(listener, table, limits, events_tx.clone()));
    drop(events_tx);
    tokio::pin!(shutdown);
    let mut senders: HashMap<ClientId, mpsc::UnboundedSender<Output>> = HashMap::new();
    loop {
        let next = hub.next_deadline();
        let out = tokio::select! {
            ev = events.recv() => match ev {
                Some(Event::Connected(id, tx)) => {
                    senders.insert(id, tx);
                    hub.connect(id)?;
                    Vec::new()
                }
                Some(Event::Dm(id, t)) => hub.with_game(id, |g| g.handle(id, &t)),
                Some(Event::Gone(id)) => {
                    senders.remove(&id);
                    let out = hub.with_game(id, |g| g.disconnect(id));
                    hub.client_game.remove(&id);
                    out
                }
                None => break,
            },
            gid = async {
                match next {
                    Some((d, g)) => {
                        tokio::time::sleep_until(d).await;
                        g
                    }
                    None => std::future::pending::<GameId>().await,
                }
            } => hub.expire(gid),
            _ = &mut shutdown => break,
        };
        for o in out {
            let id = match &o {
                Output::Send(id, _) | Output::Close(id) => *id,
            };
            if let Some(tx) = senders.get(&id) {
                let _ = tx.send(o);
            }
        }
        if max_games.is_some_and(|n| hub.finished.len() >= n) {
            break;
        }
    }
    acceptor.abort();
    Ok(hub.finished)
}

/// Hosts one game on `listener` until it ends; returns the final host state.
pub async fn run_game(listener: TcpListener, cfg: ServerConfig) -> Result<ServerGame, ServerError> {
    let table = cfg.table.clone();
    let mut once = Some(cfg);
    let make = Box::new(move |_| match once.take() {
        Some(c) => c,
        // Only reached if a second game were opened, which max_games prevents.
        None => ServerConfig::standard(0),
    });
    let hub = Hub::new(make, Some(1));
    let limits = ListenerLimits::default();
    let mut done = run_hub(
        listener,
        table,
        hub,
        limits,
        Some(1),
        std::future::pending(),
    )
    .await?;
    done.pop().ok_or_else(|| {
        ServerError::Io(std::io::Error::other(
            "server stopped before the game ended",
        ))
    })
}

/// Hosts games on `listener` until `shutdown` resolves: connections join the
/// game being formed; once it starts, the next connection opens a new game
/// (`make(n)` gives the configuration of game `n`; all games must share the
/// representation table of `table`). With `max_games`, it stops once that
/// many games have finished (and opens no more). Returns the finished games.
pub async fn run_server(
    listener: TcpListener,
    table: TokenTable,
    make: impl FnMut(u64) -> ServerConfig + Send + 'static,
    limits: ListenerLimits,
    max_games: Option<usize>,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<Vec<ServerGame>, ServerError> {
    run_server_with(
        listener,
        table,
        make,
        limits,
        max_games,
        shutdown,
        |_: GameRecord| {},
    )
    .await
}

/// [`run_server`], calling `on_finish` with each game's record as it ends (before the next
/// event is handled, so a record written there is on disk before the server goes on).
pub async fn run_server_with(
    listener: TcpListener,
    table: TokenTable,
    make: impl FnMut(u64) -> ServerConfig + Send + 'static,
    limits: ListenerLimits,
    max_games: Option<usize>,
    shutdown: impl std::future::Future<Output = ()>,
    on_finish: impl FnMut(GameRecord) + Send + 'static,
) -> Result<Vec<ServerGame>, ServerError> {
    let mut hub = Hub::new(Box::new(make), max_games.map(|n| n as u64));
    hub.on_finish = Box::new(on_finish);
    run_hub(listener, table, hub, limits, max_games, shutdown).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(m: &Message) -> String {
        m.to_text(&TokenTable::standard())
    }

    fn msg(s: &str) -> Vec<Token> {
        super::super::text::parse_text(s, &TokenTable::standard()).unwrap()
    }

    fn sent_to(out: &[Output], id: ClientId) -> Vec<String> {
        out.iter()
            .filter_map(|o| match o {
                Output::Send(i, m) if *i == id => Some(text(m)),
                _ => None,
            })
            .collect()
    }

    /// Seven players join and accept the map.
    fn full_game(cfg: ServerConfig) -> (ServerGame, Vec<String>) {
        let mut g = ServerGame::new(cfg).unwrap();
        let mut last = Vec::new();
        for id in 1..=7 {
            g.connect(id);
            let out = g.handle(id, &msg(&format!("NME ('bot{id}') ('1')")));
            assert_eq!(
                sent_to(&out, id),
                [
                    format!("YES (NME ('bot{id}') ('1'))"),
                    "MAP ('standard')".to_string()
                ]
            );
            let out = g.handle(id, &msg("MDF"));
            assert!(sent_to(&out, id)[0].starts_with("MDF (AUS ENG FRA GER ITA RUS TUR)"));
            let out = g.handle(id, &msg("YES (MAP ('standard'))"));
            last = sent_to(&out, 1);
        }
        (g, last)
    }

    /// `SUB` with a hold for every unit of the power played by `id`.
    fn holds(g: &ServerGame, id: ClientId) -> String {
        let seat = g.seats.iter().find(|s| s.client == Some(id)).unwrap();
        let map = &g.config().map;
        let pw = map.power_name(seat.power).unwrap().to_string();
        let orders: Vec<String> = g
            .game()
            .units()
            .iter()
            .filter(|u| u.power == seat.power)
            .map(|u| {
                let kind = if u.kind == crate::diplomacy::UnitType::Army {
                    "AMY"
                } else {
                    "FLT"
                };
                let prov = map.name(u.location.province);
                let at = match u.location.coast {
                    Some(_) => format!("({prov} SCS)"),
                    None => prov.to_string(),
                };
                format!("(({pw} {kind} {at}) HLD)")
            })
            .collect();
        format!("SUB {}", orders.join(" "))
    }

    /// The client playing `power`.
    fn client_of(g: &ServerGame, power: &str) -> ClientId {
        let p = g.config().map.power(power).unwrap();
        g.seats
            .iter()
            .find(|s| s.power == p)
            .unwrap()
            .client
            .unwrap()
    }

    #[test]
    fn a_gof_trailing_the_last_sub_does_not_leak_into_the_next_phase() {
        let (mut g, _) = full_game(ServerConfig::standard(2));
        for id in 1..=6 {
            g.handle(id, &msg(&holds(&g, id)));
            g.handle(id, &msg("GOF"));
        }
        g.handle(7, &msg(&holds(&g, 7)));
        assert_eq!(g.game().phase().to_string(), "F1901M");
        // Seat 7's GOF for the spring arrives now: refused, it counts for nothing.
        let out = g.handle(7, &msg("GOF"));
        assert_eq!(sent_to(&out, 7), ["REJ (GOF)"]);
        for id in 1..=6 {
            g.handle(id, &msg(&holds(&g, id)));
            g.handle(id, &msg("GOF"));
        }
        assert_eq!(
            g.game().phase().to_string(),
            "F1901M",
            "seat 7 has not ordered"
        );
        g.handle(7, &msg(&holds(&g, 7)));
        assert_eq!(g.game().phase().to_string(), "S1902M");
    }

    /// Issue 20's reproduction: AUS's `GOF` for F1901 arrives two turns
    /// late, after a winter in which AUS had nothing to order.
    #[test]
    fn a_stale_gof_never_readies_a_power_that_has_not_ordered() {
        let (mut g, _) = full_game(ServerConfig::standard(2));
        let aus = client_of(&g, "AUS");
        let ger = client_of(&g, "GER");
        let others: Vec<ClientId> = (1..=7).filter(|id| *id != aus).collect();
        for id in 1..=7 {
            let sub = if id == ger {
                "SUB ((GER FLT KIE) MTO DEN) ((GER AMY BER) HLD) ((GER AMY MUN) HLD)".to_string()
            } else {
                holds(&g, id)
            };
            g.handle(id, &msg(&sub));
            g.handle(id, &msg("GOF"));
        }
        assert_eq!(g.game().phase().to_string(), "F1901M");
        // F1901: all hold; AUS submits last, its complete SUB processes the turn.
        for &id in &others {
            g.handle(id, &msg(&holds(&g, id)));
            g.handle(id, &msg("GOF"));
        }
        g.handle(aus, &msg(&holds(&g, aus)));
        assert_eq!(g.game().phase().to_string(), "W1901A");
        // W1901: only GER builds, at once.
        g.handle(ger, &msg("SUB ((GER AMY KIE) BLD)"));
        assert_eq!(g.game().phase().to_string(), "S1902M");
        // AUS's GOF sent after its F1901 SUB arrives only now.
        assert_eq!(sent_to(&g.handle(aus, &msg("GOF")), aus), ["REJ (GOF)"]);
        for &id in &others {
            g.handle(id, &msg(&holds(&g, id)));
            g.handle(id, &msg("GOF"));
        }
        assert_eq!(
            g.game().phase().to_string(),
            "S1902M",
            "AUS, connected and with units, has sent nothing for S1902"
        );
        let out = g.handle(aus, &msg(&holds(&g, aus)));
        assert!(
            sent_to(&out, aus)
                .iter()
                .any(|m| m.starts_with("NOW (FAL 1902)"))
        );
    }

    #[test]
    fn a_gof_counts_only_after_a_sub_of_the_same_turn() {
        let (mut g, _) = full_game(ServerConfig::standard(7));
        // GOF alone: refused, not ready.
        for id in 1..=7 {
            assert_eq!(sent_to(&g.handle(id, &msg("GOF")), id), ["REJ (GOF)"]);
        }
        assert_eq!(g.game().phase().to_string(), "S1901M");
        // An incomplete SUB, then GOF: ready (the rest holds).
        for id in 1..=7 {
            let sub = holds(&g, id);
            let first = sub.split(") (").next().unwrap().to_string() + ")";
            g.handle(id, &msg(&first));
            assert_eq!(sent_to(&g.handle(id, &msg("GOF")), id)[0], "YES (GOF)");
        }
        assert_eq!(g.game().phase().to_string(), "F1901M");
        // A complete SUB with NOT (GOF) waits for the GOF.
        for id in 1..=7 {
            g.handle(id, &msg("NOT (GOF)"));
            g.handle(id, &msg(&holds(&g, id)));
        }
        assert_eq!(g.game().phase().to_string(), "F1901M");
        g.handle(1, &msg("GOF"));
        assert_eq!(g.game().phase().to_string(), "F1901M");
        for id in 2..=7 {
            g.handle(id, &msg("GOF"));
        }
        assert_eq!(g.game().phase().to_string(), "S1902M");
    }

    #[test]
    fn a_name_prefix_chooses_the_power() {
        let mut g = ServerGame::new(ServerConfig::standard(5)).unwrap();
        g.connect(1);
        let out = g.handle(1, &msg("NME ('TUR:dumbbot') ('1')"));
        assert_eq!(sent_to(&out, 1)[0], "YES (NME ('TUR:dumbbot') ('1'))");
        let tur = g.config().map.power("TUR").unwrap();
        assert!(g.players().contains(&(tur, "TUR:dumbbot".to_string())));
        g.connect(2);
        let out = g.handle(2, &msg("NME ('tur:other') ('1')"));
        assert_eq!(sent_to(&out, 2), ["REJ (NME ('tur:other') ('1'))"]);
        // An unknown prefix is just a name.
        let out = g.handle(2, &msg("NME ('XYZ:other') ('1')"));
        assert!(sent_to(&out, 2)[0].starts_with("YES"));
    }

    #[test]
    fn game_starts_when_seven_accept_and_refuses_an_eighth() {
        let (mut g, first) = full_game(ServerConfig::standard(1));
        assert!(g.started());
        assert!(first[0].starts_with("HLO ("), "{first:?}");
        assert!(first[1].starts_with("SCO (AUS BUD VIE TRI)"), "{first:?}");
        assert!(first[2].starts_with("NOW (SPR 1901)"), "{first:?}");
        g.connect(8);
        let out = g.handle(8, &msg("NME ('late') ('1')"));
        assert_eq!(sent_to(&out, 8), ["REJ (NME ('late') ('1'))"]);
    }

    #[test]
    fn orders_thx_mis_and_processing() {
        let (mut g, _) = full_game(ServerConfig::standard(2));
        // Find which client plays AUS.
        let aus = g.config().map.power("AUS").unwrap();
        let i = g.seats.iter().position(|s| s.power == aus).unwrap();
        let id = g.seats[i].client.unwrap();
        let out = g.handle(
            id,
            &msg("SUB ((AUS AMY BUD) MTO SER) ((AUS AMY VIE) MTO SEV) ((AUS FLT TRI) MTO VEN)"),
        );
        assert_eq!(
            sent_to(&out, id),
            [
                "THX ((AUS AMY BUD) MTO SER) (MBV)",
                "THX ((AUS AMY VIE) MTO SEV) (FAR)",
                "THX ((AUS FLT TRI) MTO VEN) (MBV)",
                "MIS (AUS AMY VIE)",
            ]
        );
        let out = g.handle(id, &msg("SUB (FAL 1901) ((AUS AMY VIE) HLD)"));
        assert!(sent_to(&out, id)[0].starts_with("REJ (SUB (FAL 1901)"));
        let out = g.handle(id, &msg("SUB ((AUS AMY VIE) HLD)"));
        assert_eq!(sent_to(&out, id), ["THX ((AUS AMY VIE) HLD) (MBV)", "MIS"]);
        // Everyone else submits holds and says GOF: the phase is processed.
        let mut out = Vec::new();
        for s in 0..7 {
            if s != i {
                let c = g.seats[s].client.unwrap();
                // Complete: the last one processes the phase.
                out = g.handle(c, &msg(&holds(&g, c)));
            }
        }
        let to_aus = sent_to(&out, id);
        assert!(
            to_aus.contains(&"ORD (SPR 1901) ((AUS AMY BUD) MTO SER) (SUC)".to_string()),
            "{to_aus:?}"
        );
        assert!(
            to_aus.contains(&"ORD (SPR 1901) ((ITA AMY VEN) HLD) (SUC)".to_string()),
            "{to_aus:?}"
        );
        assert!(to_aus.contains(&"ORD (SPR 1901) ((AUS FLT TRI) MTO VEN) (BNC)".to_string()));
        assert_eq!(to_aus.iter().filter(|s| s.starts_with("ORD")).count(), 22);
        assert!(to_aus.last().unwrap().starts_with("NOW (FAL 1901)"));
        let hst = sent_to(&g.handle(id, &msg("HST (SPR 1901)")), id);
        assert_eq!(hst.len(), 23);
        assert!(hst[22].starts_with("NOW (FAL 1901)"));
        let hst = sent_to(&g.handle(id, &msg("HST (SPR 1900)")), id);
        assert_eq!(hst, ["REJ (HST (SPR 1900))"]);
    }

    #[test]
    fn disconnects_draws_and_year_cap() {
        let mut cfg = ServerConfig::standard(3);
        cfg.end_year = Some(1901);
        let (mut g, _) = full_game(cfg);
        // One player drops: CCD to the others; it no longer blocks processing.
        let out = g.disconnect(7);
        assert!(sent_to(&out, 1).iter().any(|s| s.starts_with("CCD (")));
        for id in 1..=6 {
            g.handle(id, &msg(&holds(&g, id)));
            g.handle(id, &msg("GOF"));
        }
        assert_eq!(g.game().phase().to_string(), "F1901M");
        let mut out = Vec::new();
        for id in 1..=6 {
            out = g.handle(id, &msg(&holds(&g, id)));
        }
        // Year cap 1901: after the fall the game ends in a draw.
        let to1 = sent_to(&out, 1);
        assert!(to1.contains(&"DRW".to_string()), "{to1:?}");
        assert!(to1.iter().any(|s| s.starts_with("SMR (")));
        assert_eq!(to1.last().unwrap(), "OFF");
        assert!(matches!(g.ending(), Some(Ending::Draw(p)) if p.len() == 7));
    }

    #[test]
    fn a_dropped_player_rejoins_with_iam() {
        let (mut g, _) = full_game(ServerConfig::standard(5));
        let seat = g
            .seats
            .iter()
            .find(|s| s.client == Some(7))
            .unwrap()
            .clone();
        let power = text(&Message::Out(seat.token)).replace("OUT ", "");
        g.disconnect(7);
        g.connect(8);
        let wrong = g.handle(8, &msg(&format!("IAM {power} ({})", seat.passcode + 1)));
        assert!(sent_to(&wrong, 8)[0].starts_with("REJ (IAM"));
        g.connect(9);
        let out = g.handle(9, &msg(&format!("IAM {power} ({})", seat.passcode)));
        assert!(sent_to(&out, 9)[0].starts_with("YES (IAM"));
        assert!(sent_to(&out, 1).iter().any(|m| m.starts_with("NOT (CCD")));
        assert_eq!(sent_to(&g.handle(9, &msg("MAP")), 9), ["MAP ('standard')"]);
        let out = g.handle(9, &msg("YES (MAP ('standard'))"));
        let got = sent_to(&out, 9);
        assert!(
            got[0].starts_with("HLO ") && got[1].starts_with("SCO ") && got[2].starts_with("NOW "),
            "{got:?}"
        );
    }

    #[test]
    fn observers_follow_the_game_once_they_accept_the_map() {
        let (mut g, _) = full_game(ServerConfig::standard(6));
        g.connect(20);
        assert_eq!(
            sent_to(&g.handle(20, &msg("OBS")), 20),
            ["YES (OBS)", "MAP ('standard')"]
        );
        // Not yet accepted: no game traffic.
        let out = g.handle(1, &msg(&holds(&g, 1)));
        assert!(sent_to(&out, 20).is_empty());
        let got = sent_to(&g.handle(20, &msg("YES (MAP ('standard'))")), 20);
        assert!(
            got[0].starts_with("SCO ") && got[1].starts_with("NOW "),
            "{got:?}"
        );
        let mut out = Vec::new();
        for id in 2..=7 {
            out = g.handle(id, &msg(&holds(&g, id)));
        }
        assert!(
            sent_to(&out, 20)
                .iter()
                .any(|m| m.starts_with("NOW (FAL 1901)"))
        );
        // Observers cannot order.
        assert!(sent_to(&g.handle(20, &msg("GOF")), 20)[0].starts_with("REJ"));
    }

    #[test]
    fn seat_stats_count_refusals_wrong_turns_and_phases_without_orders() {
        let mut cfg = ServerConfig::standard(9);
        cfg.deadline = Some(10);
        let (mut g, _) = full_game(cfg);
        // Seat 1: one refused order (a move too far), one SUB for another turn.
        let power = {
            let seat = g.seats.iter().find(|s| s.client == Some(1)).unwrap();
            g.config().map.power_name(seat.power).unwrap().to_string()
        };
        let far = format!("SUB (({power} AMY ALB) MTO MOS)");
        assert!(sent_to(&g.handle(1, &msg(&far)), 1)[0].starts_with("THX"));
        let wrong = format!("SUB (FAL 1905) (({power} AMY ALB) HLD)");
        assert!(sent_to(&g.handle(1, &msg(&wrong)), 1)[0].starts_with("REJ (SUB"));
        g.handle(1, &msg(&holds(&g, 1)));
        // Seats 2-6 order; seat 7 sends nothing and the deadline passes.
        for id in 2..=6 {
            g.handle(id, &msg(&holds(&g, id)));
        }
        g.deadline_expired();
        let stats: Vec<SeatStats> = g.seat_stats().into_iter().map(|(_, s)| s).collect();
        let of = |id: ClientId| {
            let i = g.seats.iter().position(|s| s.client == Some(id)).unwrap();
            stats[i]
        };
        assert_eq!(of(1).refused_orders, 1, "{stats:?}");
        assert_eq!(of(1).rejected_subs, 1, "{stats:?}");
        assert_eq!(of(1).phases_without_orders, 0);
        assert_eq!(of(7).phases_without_orders, 1, "{stats:?}");
        assert!(stats.iter().all(|s| s.phases_to_order == 1), "{stats:?}");
    }

    #[test]
    fn missing_a_deadline_is_civil_disorder() {
        let mut cfg = ServerConfig::standard(8);
        cfg.deadline = Some(10);
        let (mut g, first) = full_game(cfg);
        assert!(first.iter().any(|m| m == "TME (10)"), "{first:?}");
        for id in 1..=6 {
            g.handle(id, &msg(&holds(&g, id)));
            g.handle(id, &msg("GOF"));
        }
        let out = g.deadline_expired();
        let to1 = sent_to(&out, 1);
        assert!(
            to1.iter()
                .any(|m| m.starts_with("CCD (") && m.ends_with("(SPR 1901)")),
            "{to1:?}"
        );
        assert!(to1.iter().any(|m| m.starts_with("NOW (FAL 1901)")));
        let seat7 = g
            .seats
            .iter()
            .find(|s| s.client == Some(7))
            .unwrap()
            .clone();
        let power = text(&Message::Out(seat7.token)).replace("OUT ", "");
        let out = g.handle(7, &msg("MIS"));
        assert!(!sent_to(&out, 7).is_empty());
        let hold = g
            .game()
            .units()
            .iter()
            .find(|u| u.power == seat7.power)
            .copied()
            .unwrap();
        let names = Names::new(&TokenTable::standard(), g.game().map());
        let order = Message::Sub {
            turn: None,
            orders: vec![names.daide_order(&Order::Hold(hold)).unwrap()],
        };
        let out = g.handle(7, &order.to_tokens());
        assert!(
            sent_to(&out, 1).contains(&format!("NOT (CCD {power})")),
            "{:?}",
            sent_to(&out, 1)
        );
    }

    #[test]
    fn agreed_draw_and_rejections() {
        let (mut g, _) = full_game(ServerConfig::standard(4));
        let out = g.handle(1, &msg("SND (FRA) (PRP (PCE (AUS FRA)))"));
        assert!(sent_to(&out, 1)[0].starts_with("REJ (SND"));
        let out = g.handle(1, &msg("SUB ((AUS AMY"));
        assert!(sent_to(&out, 1)[0].starts_with("PRN ("));
        let out = g.handle(1, &msg("TME"));
        assert_eq!(sent_to(&out, 1), ["REJ (TME)"]);
        let mut out = Vec::new();
        for id in 1..=7 {
            out = g.handle(id, &msg("DRW"));
        }
        assert!(sent_to(&out, 3).contains(&"DRW".to_string()));
        assert!(g.ending().is_some());
    }
}
