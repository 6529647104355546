//! Orders: `SUB` checked order by order (`THX`), `NOT (…)` retractions,
//! what is still missing (`MIS`) and when a seat is ready for processing.

use std::time::Instant;

use super::{Seat, ServerGame, rej, yes};
use crate::daide::message::{Message, Missing, Order as DOrder, Parsed, PlacedUnit, Turn};
use crate::daide::server::{ClientId, Output};
use crate::daide::token::ThxNote;
use crate::diplomacy::validate::{OrderError, check_order};
use crate::diplomacy::{Order, PhaseKind};

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
    /// `SUB`: each order answered with `THX`, then `MIS`; a power in civil disorder is back.
    pub(super) fn submit(
        &mut self,
        id: ClientId,
        i: usize,
        turn: Option<Turn>,
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
    pub(super) fn retract(
        &mut self,
        id: ClientId,
        i: usize,
        inner: Parsed<Message>,
        out: &mut Vec<Output>,
    ) {
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

    pub(super) fn missing(&self, seat: &Seat) -> Message {
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

    pub(super) fn orders_complete(&self, seat: &Seat) -> bool {
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

    /// A seat is ready when it has nothing to order, has no connection, or
    /// has sent a `SUB` for this turn and then either `GOF` or a complete
    /// order set (without `NOT (GOF)`). A connected seat that must order and
    /// has sent no `SUB` this turn is never ready.
    pub(super) fn ready(&self, seat: &Seat) -> bool {
        let view = self.game.view(Some(seat.power));
        !view.needs_orders(seat.power)
            || seat.client.is_none()
            || (seat.submitted && (seat.gof || (!seat.not_gof && self.orders_complete(seat))))
    }
}
