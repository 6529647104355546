//! Opponent model check: how well DumbBot's policy explains each power.
//!
//! For every movement phase JIC keeps the position it was ordered in
//! ([`crate::diplomacy::Player::position`]), the orders the server reported
//! for it ([`crate::diplomacy::Player::observe`], DAIDE `ORD`) and the next
//! position, which shows where every unit ended
//! ([`crate::diplomacy::infer`]). For each other power it runs seeded
//! DumbBots in that power's place on the same position (`model_samples` for
//! reported orders, `model_samples_inferred` for inferred ones), and counts
//! per unit:
//!
//! - *reported* (the power's orders were reported): whether at least one
//!   sample gives the unit's order too (a unit left without orders holds);
//! - *inferred* (nothing of the power was reported, e.g. on the `diplomacy`
//!   1.1.2 server, which reports each power only its own orders): for each
//!   unit the positions show moving, whether at least one sample, adjudicated
//!   against the other powers' orders, moves it to the same province. The
//!   other powers' orders are our own reported ones and, for everyone else,
//!   the orders the positions show: a move where a unit moved, a hold where
//!   it stayed. Stays are not compared: a failed move, a support and a hold
//!   all look alike, and some sample explains nearly every stay of every
//!   power.
//!
//! A power with at least [`MIN_ORDERS`] units compared, whose matches reach
//! `model_match` of its reported and `model_match_inferred` of its inferred
//! comparisons, is *modelled*: its play is the one JIC samples. The spare
//! rule can be limited to the unmodelled powers (`spare_scope =
//! "unmodelled"`, `protocols/jic.md` §3).
//!
//! Measured on 28 games of 3 JIC vs 4 DumbBot to 1912 (`protocols/jic.md`
//! §3, `cargo run --release --example jic_model`): with reported orders and
//! 8 samples DumbBot seats match 0.73–1.00 of the time and JIC seats
//! 0.30–0.60; inferred, with 16 samples, 0.71–1.00 and 0.18–0.67.

use crate::bots::DumbBot;
use crate::diplomacy::infer::{Outcome, infer_outcomes};
use crate::diplomacy::judge::{Dislodgement, OrderResult, Rules, adjudicate_movement};
use crate::diplomacy::model::{Order, Phase, PhaseKind, Power, Province, Season, Unit};
use crate::diplomacy::{GameView, Map};

/// Units compared before a power may count as modelled.
pub const MIN_ORDERS: u32 = 8;

/// Movement phases kept for scoring at most (older ones are dropped).
const MAX_KEPT: usize = 4;

/// Units compared and units a DumbBot sample matched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Units compared.
    pub seen: u32,
    /// Units at least one sample matched.
    pub matched: u32,
}

impl Tally {
    /// The share matched, once anything was compared.
    pub fn share(&self) -> Option<f64> {
        (self.seen > 0).then(|| f64::from(self.matched) / f64::from(self.seen))
    }

    fn add(&mut self, hit: bool) {
        self.seen += 1;
        self.matched += u32::from(hit);
    }
}

/// What the model counted for one power.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PowerTally {
    /// Phases with the power's orders reported: orders compared.
    pub reported: Tally,
    /// Phases without: the units the positions show moving, compared with
    /// where the samples, adjudicated, move them.
    pub inferred: Tally,
    /// The outcome comparison on every phase, reported or not: what
    /// `inferred` would count on a server that reports no other power's
    /// orders (for calibration; not used in decisions).
    pub positions: Tally,
    /// Every phase: the power's units (`seen`) and those it moved or
    /// ordered to move (`matched`).
    pub activity: Tally,
}

/// One movement phase: the position it was ordered in, the orders reported
/// for it, and the position after it.
#[derive(Debug, Clone)]
struct Record {
    before: GameView,
    reported: Vec<Order>,
    after: Option<(Vec<Unit>, Vec<Dislodgement>)>,
}

/// Per power: how often DumbBot's policy explained its play.
#[derive(Debug, Clone, Default)]
pub struct OpponentModel {
    tallies: Vec<PowerTally>,
    open: Option<Record>,
    closed: Vec<Record>,
}

impl OpponentModel {
    /// The orders reported for a resolved movement phase (any subset of the
    /// powers), with the position they were given in.
    pub fn observe(&mut self, view: &GameView, orders: &[Order]) {
        if view.phase.season.kind() != PhaseKind::Movement {
            return;
        }
        match &mut self.open {
            Some(r) if r.before.phase == view.phase => r.reported = orders.to_vec(),
            _ => {
                let mut before = view.clone();
                before.me = None;
                self.open = Some(Record {
                    before,
                    reported: orders.to_vec(),
                    after: None,
                });
            }
        }
    }

    /// The position at the start of a phase: it closes the movement phase
    /// before it (when it directly follows it) and opens a new one.
    pub fn position(&mut self, view: &GameView) {
        if let Some(mut r) = self.open.take() {
            if r.before.phase == view.phase {
                self.open = Some(r);
                return;
            }
            if follows(r.before.phase, view.phase) {
                r.after = Some((view.units.clone(), view.dislodged.clone()));
                if self.closed.len() == MAX_KEPT {
                    self.closed.remove(0);
                }
                self.closed.push(r);
            }
        }
        if view.phase.season.kind() == PhaseKind::Movement {
            let mut before = view.clone();
            before.me = None;
            self.open = Some(Record {
                before,
                reported: Vec::new(),
                after: None,
            });
        }
    }

    /// Scores the closed movement phases for every power but `me` with
    /// seeded DumbBots (seeds from `seed`, the phase, the power and the
    /// sample's index): the first `samples` for reported orders, the first
    /// `inferred` for outcomes read from the positions.
    pub fn update(&mut self, me: Power, samples: usize, inferred: usize, seed: u64) {
        for r in std::mem::take(&mut self.closed) {
            self.score(&r, me, (samples, inferred), seed);
        }
    }

    fn score(&mut self, r: &Record, me: Power, (samples, inferred): (usize, usize), seed: u64) {
        let view = &r.before;
        let n = view.map.power_count();
        self.tallies.resize(n, PowerTally::default());
        let season = u64::from(view.phase.season == Season::Fall);
        let phase = (view.phase.year as u64) << 1 | season;
        let seen = r
            .after
            .as_ref()
            .map(|(units, dislodged)| Seen::new(view, r, me, units, dislodged));
        let mut bot = DumbBot::new(seed);
        for p in (0..n as u8).map(Power).filter(|p| *p != me) {
            let units: Vec<Unit> = view
                .units
                .iter()
                .filter(|u| u.power == p)
                .copied()
                .collect();
            if units.is_empty() {
                continue;
            }
            let all: Vec<Vec<Order>> = (0..samples.max(inferred) as u64)
                .map(|s| {
                    bot.reseed(seed ^ (phase << 16 | u64::from(p.0) << 8 | s));
                    bot.orders_as(view, p)
                })
                .collect();
            let reported = r.reported.iter().any(|o| o.power() == p);
            let tally = &mut self.tallies[p.0 as usize];
            let moving = |u: &Unit| match (reported, &seen) {
                (true, _) => r
                    .reported
                    .iter()
                    .any(|o| o.unit() == Some(u) && matches!(o, Order::Move { .. })),
                (false, Some(seen)) => matches!(seen.outcome(u), Some(Outcome::Moved(_))),
                (false, None) => false,
            };
            if reported || seen.is_some() {
                for u in &units {
                    tally.activity.add(moving(u));
                }
            }
            if reported {
                let given = &all[..samples];
                for u in &units {
                    let actual = r.reported.iter().find(|o| o.unit() == Some(u)).cloned();
                    let actual = actual.unwrap_or(Order::Hold(*u));
                    tally
                        .reported
                        .add(given.iter().any(|g| g.contains(&actual)));
                }
            }
            let mut given: Vec<&Vec<Order>> = Vec::new();
            for g in &all[..inferred] {
                if !given.contains(&g) {
                    given.push(g);
                }
            }
            let Some(seen) = &seen else { continue };
            // Only units the positions show moving are compared: a stay is
            // a hold, a support, a convoy or a failed move, and nearly every
            // power's stays are explained by some sample.
            let moved: Vec<(usize, Province)> = units
                .iter()
                .enumerate()
                .filter_map(|(i, u)| match seen.outcome(u) {
                    Some(Outcome::Moved(to)) => Some((i, to.province)),
                    _ => None,
                })
                .collect();
            if moved.is_empty() {
                continue;
            }
            let ends: Vec<Vec<Option<Outcome>>> =
                given.iter().map(|g| seen.replay(p, g, &units)).collect();
            for (i, to) in moved {
                let hit = ends
                    .iter()
                    .any(|e| matches!(e[i], Some(Outcome::Moved(x)) if x.province == to));
                tally.positions.add(hit);
                if !reported {
                    tally.inferred.add(hit);
                }
            }
        }
    }

    /// Whether `p`'s play matched DumbBot's on at least [`MIN_ORDERS`] units,
    /// at least `reported` of the time where its orders were reported and
    /// `inferred` of the time where they were inferred (the two pooled).
    pub fn modelled(&self, p: Power, reported: f64, inferred: f64) -> bool {
        let Some(t) = self.tallies.get(p.0 as usize) else {
            return false;
        };
        let seen = t.reported.seen + t.inferred.seen;
        let need = reported * f64::from(t.reported.seen) + inferred * f64::from(t.inferred.seen);
        seen >= MIN_ORDERS && f64::from(t.reported.matched + t.inferred.matched) >= need
    }

    /// Whether `p` kept every unit in place: none of at least
    /// [`MIN_ORDERS`] units observed was ordered (reported) or seen
    /// (inferred) to move. Such a power plays nothing like us.
    pub fn passive(&self, p: Power) -> bool {
        self.tallies
            .get(p.0 as usize)
            .is_some_and(|t| t.activity.seen >= MIN_ORDERS && t.activity.matched == 0)
    }

    /// What was counted for `p` so far.
    pub fn tally(&self, p: Power) -> PowerTally {
        self.tallies.get(p.0 as usize).copied().unwrap_or_default()
    }
}

/// Whether `after` is the first phase after the movement phase `before`
/// (its retreats, or the next phase when there were none), so that no
/// adjustment happened between them.
fn follows(before: Phase, after: Phase) -> bool {
    let mut next = before.next();
    while next.season.kind() != PhaseKind::Movement {
        next = next.next();
    }
    before < after && after <= next
}

/// One movement phase as the positions show it.
struct Seen<'a> {
    map: &'a Map,
    units: &'a [Unit],
    /// Per unit of `units`: where it ended.
    outcomes: Vec<Option<Outcome>>,
    /// Per unit of `units`: the order assumed for it in replays.
    orders: Vec<Order>,
}

impl<'a> Seen<'a> {
    fn new(
        view: &'a GameView,
        r: &Record,
        me: Power,
        after: &[Unit],
        dislodged: &[Dislodgement],
    ) -> Self {
        let outcomes = infer_outcomes(&view.map, &view.units, after, dislodged);
        let orders = view
            .units
            .iter()
            .zip(&outcomes)
            .map(|(u, o)| {
                let mine = (u.power == me)
                    .then(|| r.reported.iter().find(|x| x.unit() == Some(u)).cloned())
                    .flatten();
                mine.unwrap_or_else(|| o.unwrap_or(Outcome::Stayed).as_order(*u))
            })
            .collect();
        Seen {
            map: &view.map,
            units: &view.units,
            outcomes,
            orders,
        }
    }

    /// Where `u` ended, if the positions show it.
    fn outcome(&self, u: &Unit) -> Option<Outcome> {
        let i = self.units.iter().position(|x| x == u)?;
        self.outcomes[i]
    }

    /// Where each of `units` (power `p`'s) ends when `p` orders `sample` and
    /// every other unit follows its assumed order.
    fn replay(&self, p: Power, sample: &[Order], units: &[Unit]) -> Vec<Option<Outcome>> {
        let mut orders: Vec<Order> = self
            .orders
            .iter()
            .filter(|o| o.power() != p)
            .cloned()
            .collect();
        orders.extend(sample.iter().cloned());
        let Ok(out) = adjudicate_movement(self.map, self.units, &orders, Rules::default()) else {
            return vec![None; units.len()];
        };
        units
            .iter()
            .map(|u| {
                let r = out.result_at(u.location.province)?;
                Some(match (&r.order, r.result) {
                    (Order::Move { to, .. }, OrderResult::Success) => Outcome::Moved(*to),
                    _ => Outcome::Stayed,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::Game;

    /// Plays `years` of a game in which `policy` orders every power, and
    /// feeds each phase to a model kept for power 0: every position, and
    /// the orders of the powers in `reported` after each movement phase.
    fn watch(
        years: i16,
        reported: &[Power],
        mut policy: impl FnMut(&GameView) -> Vec<Order>,
    ) -> OpponentModel {
        let mut game = Game::standard(Rules::default());
        let mut model = OpponentModel::default();
        while game.phase().year < 1901 + years {
            model.position(&game.view(Some(Power(0))));
            model.update(Power(0), 8, 16, 1);
            let mut orders = Vec::new();
            for p in (0..7).map(Power) {
                let view = game.view(Some(p));
                if view.needs_orders(p) {
                    orders.extend(policy(&view).into_iter().filter(|o| o.power() == p));
                }
            }
            let shown: Vec<Order> = orders
                .iter()
                .filter(|o| reported.contains(&o.power()))
                .cloned()
                .collect();
            model.observe(&game.view(None), &shown);
            game.process(&orders).unwrap();
        }
        model.position(&game.view(Some(Power(0))));
        model.update(Power(0), 8, 16, 1);
        model
    }

    fn hold(view: &GameView) -> Vec<Order> {
        view.units
            .iter()
            .filter(|u| Some(u.power) == view.me)
            .map(|u| Order::Hold(*u))
            .collect()
    }

    #[test]
    fn dumbbots_are_modelled_and_holders_are_not() {
        let all: Vec<Power> = (0..7).map(Power).collect();
        for reported in [&all[..], &all[..1]] {
            let mut bots: Vec<DumbBot> = (0..7).map(|s| DumbBot::new(100 + s)).collect();
            let model = watch(5, reported, |view| {
                let me = view.me.unwrap_or(Power(0));
                bots[me.0 as usize].orders_as(view, me)
            });
            // From positions alone only moved units are compared: a power that moved fewer
            // than MIN_ORDERS units cannot be judged yet; every other one is modelled.
            let mut modelled = 0;
            for p in (1..7).map(Power) {
                let t = model.tally(p);
                let judged = reported.len() > 1 || t.inferred.seen >= MIN_ORDERS;
                if judged {
                    assert!(model.modelled(p, 0.7, 0.7), "{p:?} {t:?}");
                    modelled += 1;
                }
                assert!(!model.passive(p), "{p:?} {t:?}");
            }
            assert!(modelled >= 5, "{modelled} of 6 powers modelled");
            // Power 0 is us: never scored.
            assert!(!model.modelled(Power(0), 0.0, 0.0));
            let model = watch(3, reported, hold);
            for p in (1..7).map(Power) {
                assert!(!model.modelled(p, 0.7, 0.7), "{p:?} {:?}", model.tally(p));
                // Reported or seen, a holder is passive.
                assert!(model.passive(p), "{p:?} {:?}", model.tally(p));
                // Reported: seen, but not matched often enough. Positions
                // only: a holder never moves, so nothing is compared.
                let t = model.tally(p);
                if reported.len() > 1 {
                    assert!(t.reported.seen >= MIN_ORDERS, "{t:?}");
                } else {
                    assert_eq!(t.inferred.seen, 0, "{t:?}");
                }
            }
        }
    }

    #[test]
    fn positions_alone_model_dumbbots_and_not_jic_or_holders() {
        use crate::bots::jic::{JicBot, JicConfig};
        use crate::budget::{Budget, CancelFlag};
        use crate::diplomacy::Player;
        // Powers 2 and 4 play JIC, 5 holds, the others play DumbBot; only
        // our own orders are reported.
        let mut bots: Vec<DumbBot> = (0..7).map(|s| DumbBot::new(200 + s)).collect();
        let config = JicConfig {
            max_evaluations: 200,
            opponent_samples: 4,
            max_search_nodes: 5000,
            ..JicConfig::default()
        };
        let mut jics: Vec<JicBot> = (0..7).map(|s| JicBot::new(config.clone(), s)).collect();
        let model = watch(6, &[Power(0)], |view| {
            let me = view.me.unwrap_or(Power(0));
            let i = me.0 as usize;
            match me.0 {
                2 | 4 => {
                    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
                    jics[i].orders(view, Budget::new(deadline, CancelFlag::new()))
                }
                5 => hold(view),
                _ => bots[i].orders_as(view, me),
            }
        });
        let tallies: Vec<PowerTally> = (0..7).map(|p| model.tally(Power(p))).collect();
        for (p, t) in tallies.iter().enumerate().skip(1) {
            assert_eq!(t.reported, Tally::default());
            assert_eq!(t.inferred, t.positions);
            let modelled = model.modelled(Power(p as u8), 0.7, 0.7);
            match p {
                // JIC moves where no DumbBot would, often enough to be seen.
                2 | 4 => assert!(t.inferred.seen >= MIN_ORDERS && !modelled, "{tallies:?}"),
                // A holder shows no move at all.
                5 => assert!(t.inferred.seen == 0 && !modelled, "{tallies:?}"),
                // A DumbBot is modelled once it has moved often enough.
                _ => assert_eq!(modelled, t.inferred.seen >= MIN_ORDERS, "{tallies:?}"),
            }
        }
        // Only the holder is passive: JIC and DumbBot seats move.
        let passive: Vec<u8> = (1..7).filter(|p| model.passive(Power(*p))).collect();
        assert_eq!(passive, [5], "{tallies:?}");
        let dumbbots = [1, 3, 6]
            .iter()
            .filter(|p| model.modelled(Power(**p), 0.7, 0.7));
        assert!(dumbbots.count() >= 2, "{tallies:?}");
    }

    #[test]
    fn too_few_orders_model_nobody_and_stays_are_not_compared() {
        let mut model = OpponentModel::default();
        let mut game = Game::standard(Rules::default());
        model.position(&game.view(Some(Power(0))));
        let holds: Vec<Order> = game.units().iter().map(|u| Order::Hold(*u)).collect();
        // Every power's holds reported for Germany and beyond, nothing for
        // England, France (positions only).
        let shown: Vec<Order> = holds.iter().filter(|o| o.power().0 >= 3).cloned().collect();
        model.observe(&game.view(None), &shown);
        game.process(&holds).unwrap();
        model.position(&game.view(Some(Power(0))));
        model.update(Power(0), 8, 16, 1);
        // Three or four units each: below MIN_ORDERS, whatever the threshold.
        assert!((1..7).all(|p| !model.modelled(Power(p), 0.0, 0.0)));
        assert!((1..7).all(|p| !model.passive(Power(p))));
        for p in (1..7).map(Power) {
            let t = model.tally(p);
            assert_eq!(t.reported.seen >= 3, p.0 >= 3, "{p:?} {t:?}");
            // Nobody moved: the positions show nothing to compare.
            assert_eq!((t.inferred.seen, t.positions.seen), (0, 0));
        }
    }

    #[test]
    fn a_phase_is_scored_only_against_the_position_right_after_it() {
        let mut model = OpponentModel::default();
        let mut game = Game::standard(Rules::default());
        model.position(&game.view(Some(Power(0))));
        game.process(&[]).unwrap();
        game.process(&[]).unwrap();
        // Spring 1901 then spring 1902: a winter (builds) may lie between.
        model.position(&game.view(Some(Power(0))));
        model.update(Power(0), 8, 16, 1);
        assert!((1..7).all(|p| model.tally(Power(p)) == PowerTally::default()));
    }
}
