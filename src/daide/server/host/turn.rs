//! Turn processing: adjudicating a phase once every seat is ready or the
//! deadline passes, reporting it (`ORD`, `SCO`, `OUT`, `NOW`, `TME`), and
//! the end of the game (solo, draw, year cap: `SLO`/`DRW`, `SMR`, `OFF`).

use std::time::Instant;

use super::{Seat, ServerGame};
use crate::daide::message::{Message, OrderReport, Parsed, SummaryEntry, Turn};
use crate::daide::server::{ClientId, Ending, Output};
use crate::daide::token::OrdResult;
use crate::diplomacy::game::PhaseReport;
use crate::diplomacy::judge::OrderResult;
use crate::diplomacy::phases::{AdjustmentResult, RetreatResult};
use crate::diplomacy::{Order, Phase, Season};

impl ServerGame {
    pub(super) fn maybe_process(&mut self, out: &mut Vec<Output>) {
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

    pub(super) fn maybe_draw(&mut self, out: &mut Vec<Output>) {
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

    fn ord(&self, turn: Turn, order: &Order, results: Vec<OrdResult>) -> Option<Message> {
        let o = self.names.daide_order(order).ok()?;
        Some(Message::Ord(Some(OrderReport {
            turn,
            order: Parsed::Ok(o),
            results,
        })))
    }

    /// Adjudicates the phase with the orders in hand and reports it: `ORD` for every unit,
    /// `SCO` after the fall and the adjustments, `OUT` for eliminated powers, then either the
    /// end of the game or the next phase's `NOW` and `TME`.
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
        self.count_ordering();
        let report = match self.game.process(&orders) {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(target: "daide::server", "adjudication failed: {e}");
                return;
            }
        };
        let ords = self.ord_reports(turn, &report);
        for m in &ords {
            self.broadcast(out, m.clone());
        }
        let mut hist = ords.clone();
        self.last_ord = ords;
        self.clear_turn();
        self.announce_centres_and_eliminations(out, leaving, &mut hist);
        let now_msg = self.now();
        hist.push(now_msg.clone());
        self.history.insert(turn, hist);
        if self.game_over(out) {
            return;
        }
        self.broadcast(out, now_msg);
        self.phase_started = Instant::now();
        if let Some(t) = self.tme() {
            self.broadcast(out, t);
        }
    }

    /// Each seat's [`SeatStats`](crate::daide::server::SeatStats) for the phase about to be
    /// processed: whether it had to order, whether it did, and how long its orders took.
    fn count_ordering(&mut self) {
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
    }

    /// The `ORD` messages of a processed phase, in the adjudicator's order.
    fn ord_reports(&self, turn: Turn, report: &PhaseReport) -> Vec<Message> {
        let mut ords = Vec::new();
        match report {
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
        ords
    }

    /// Forgets every seat's orders, readiness and draw vote for the next phase.
    fn clear_turn(&mut self) {
        for s in &mut self.seats {
            s.submitted = false;
            s.last_sub = None;
            s.orders.clear();
            s.gof = false;
            s.not_gof = false;
            s.drw = false;
        }
    }

    /// `SCO` once the fall or the adjustments are over (ownership may have changed), then
    /// `OUT` for each power eliminated in the phase just `leaving`; the `SCO` goes into the
    /// turn's history `hist`.
    fn announce_centres_and_eliminations(
        &mut self,
        out: &mut Vec<Output>,
        leaving: Phase,
        hist: &mut Vec<Message>,
    ) {
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
    }

    /// Ends the game after a processed phase on a solo, or in a draw of the survivors once
    /// the year cap is passed; whether it ended.
    fn game_over(&mut self, out: &mut Vec<Output>) -> bool {
        if let Some(p) = self.game.solo_winner() {
            self.finish(out, Ending::Solo(p));
            return true;
        }
        if let Some(cap) = self.cfg.end_year
            && self.game.phase().year > cap
        {
            let powers = self
                .seats
                .iter()
                .filter(|s| s.out_year.is_none())
                .map(|s| s.power)
                .collect();
            self.finish(out, Ending::Draw(powers));
            return true;
        }
        false
    }
}
