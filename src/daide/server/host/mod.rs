//! The sans-I/O game host: [`ServerGame`] turns connects, disconnects, client
//! messages and expired deadlines into [`Output`]s. This module holds its
//! state, the dispatch of client messages and the position reports (`SCO`,
//! `NOW`, `HLO`, `TME`); seats and joining, orders, and turn processing are in
//! the submodules.

mod orders;
mod seats;
#[cfg(test)]
mod tests;
mod turn;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{ClientId, Ending, Output, SeatStats, ServerConfig, ServerError};
use crate::daide::convert::{Names, turn_from_phase};
use crate::daide::message::{
    CentreGroup, Hello, MapDef, Message, Missing, Owners, Parsed, PlacedUnit, Position, Turn,
    parse_message,
};
use crate::daide::token::{Param, PowerToken, Token};
use crate::diplomacy::game::Game;
use crate::diplomacy::{Order, Power};

fn yes(m: Message) -> Message {
    Message::Yes(Box::new(Parsed::Ok(m)))
}

fn rej(m: Message) -> Message {
    Message::Rej(Box::new(Parsed::Ok(m)))
}

/// A power's seat: who plays it and what it has sent this turn.
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

/// What a connection is to the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Joining,
    Player(usize),
    Observer { accepted: bool },
}

/// One game hosted over DAIDE, sans I/O.
#[derive(Debug, Clone)]
pub struct ServerGame {
    cfg: ServerConfig,
    names: Names,
    /// The map definition every `MDF` query is answered with, built once (`None` when the
    /// map cannot be described in the table's names: queries are then rejected).
    mdf: Option<Arc<MapDef>>,
    game: Game,
    seats: Vec<Seat>,
    clients: HashMap<ClientId, Role>,
    started: bool,
    ending: Option<Ending>,
    last_ord: Vec<Message>,
    history: HashMap<Turn, Vec<Message>>,
    /// When the current phase's `NOW` went out.
    phase_started: Instant,
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
        let mdf = names.mdf(&cfg.map).ok().map(Arc::new);
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
            mdf,
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
            (_, Message::Mdf(None)) => match &self.mdf {
                Some(def) => send(&mut out, Message::Mdf(Some(Arc::clone(def)))),
                None => send(&mut out, rej(Message::Mdf(None))),
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

    fn current_turn(&self) -> Option<Turn> {
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

    /// The phase deadline, if the game has deadlines and is running.
    pub fn phase_deadline(&self) -> Option<Duration> {
        if self.started && self.ending.is_none() {
            self.cfg.deadline.map(|d| Duration::from_secs(d as u64))
        } else {
            None
        }
    }
}
