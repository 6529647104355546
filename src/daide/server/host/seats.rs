//! Seats: taking one (`NME`, `IAM`), accepting or refusing the map, the
//! start of the game once every seat is ready, and dropped connections.

use std::time::Instant;

use super::{Role, Seat, ServerGame, rej, yes};
use crate::daide::message::{Message, Parsed};
use crate::daide::server::{ClientId, Output};
use crate::daide::token::PowerToken;

impl ServerGame {
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

    /// `NME` from a joining client: a free seat (the named power's, for a name `POW:rest`, as
    /// in the `diplomacy` server) before the game starts, else `REJ`.
    pub(super) fn join_by_name(&mut self, id: ClientId, m: Message, out: &mut Vec<Output>) {
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
    pub(super) fn rejoin(
        &mut self,
        id: ClientId,
        power: PowerToken,
        passcode: i16,
        out: &mut Vec<Output>,
    ) {
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
    pub(super) fn map_accepted(&mut self, id: ClientId, role: Role, out: &mut Vec<Output>) {
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
    pub(super) fn map_refused(&mut self, id: ClientId, role: Role, out: &mut Vec<Output>) {
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
}
