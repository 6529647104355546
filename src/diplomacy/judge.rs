//! Movement adjudication: tablero's orders and units in, typed results,
//! dislodgements with retreat options and the new unit positions out.
//!
//! The work is done by the `diplomacy` crate (0.2, MIT, carries the DATC v3
//! cases), wrapped here so that nothing outside this module sees its types.
//! Conversions this wrapper owns:
//! - names: the crate's map is built from our [`Map`] (DAIDE names), so
//!   region keys are our province names; coasts map as in [`Map`];
//! - support-to-move without coast (DAIDE `SUP … MTO prov`): the crate matches
//!   supports region-exactly, so the support takes the coast of the supported
//!   unit's own move into that province when there is one (DATC 6.B.7/8/15
//!   leave this to the caller);
//! - `CTO … VIA (…)`: becomes a move that must use a convoy; the named route
//!   is not enforced (the crate finds any route through convoying fleets);
//! - "no such order" (DAIDE NSO) for supports and convoys whose unit does
//!   something else is decided here, since the crate only says "not cut".
//!
//! Rule choices (DATC §4) are the crate's, selected with [`Rules`]; the
//! default is the edition its DATC suite runs against (1971 convoy rule: any
//! possible convoy route is used). Retreats and adjustments are adjudicated in
//! [`super::phases`].

use std::borrow::Cow;
use std::collections::HashMap;

use diplomacy_judge as dj;
use dj::ShortName;
use dj::judge::{
    AttackOutcome, ConvoyOutcome, HoldOutcome, IllegalOrder, OrderOutcome, Rulebook, SupportOutcome,
};
use dj::order::{ConvoyedMove, MainCommand, MoveCommand, SupportedOrder};
use thiserror::Error;

use super::map::Map;
use super::model::{Location, Order, Province, Unit, UnitType};

/// Which rulebook edition decides the DATC §4 issues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rules {
    /// 1971 rules (any convoy route is used); the crate's DATC reference.
    #[default]
    Edition1971,
    /// 1982/2000 rules (a convoy is used if ordered explicitly or by the
    /// army's own power).
    Edition1982,
    /// 2023 rules (as 1982; civil-disorder removals by owned centres).
    Edition2023,
    /// Diplomacy Player's Technical Guide (convoys only when explicit).
    Dptg,
}

impl Rules {
    fn rulebook(self) -> Rulebook {
        match self {
            Rules::Edition1971 => Rulebook::edition_1971(),
            Rules::Edition1982 => Rulebook::edition_1982(),
            Rules::Edition2023 => Rulebook::edition_2023(),
            Rules::Dptg => Rulebook::edition_dptg(),
        }
    }
}

/// Why an order was not even considered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IllegalReason {
    /// No such unit at that location.
    NoUnit,
    /// The unit belongs to another power.
    ForeignUnit,
    /// Replaced by a later order to the same unit.
    Duplicate,
    /// The destination cannot be reached (not adjacent, no convoy possible).
    Unreachable,
    /// A support the supporter cannot give (cannot reach the province).
    CantReach,
    /// A convoy by a fleet not at sea, or of a non-army.
    BadConvoy,
    /// A unit supporting itself.
    SupportsItself,
    /// Not a movement-phase order.
    WrongPhase,
}

/// The result of one movement-phase order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderResult {
    /// The order succeeded (a hold held, a move moved, a support was given,
    /// a convoy carried).
    Success,
    /// A move bounced (prevented, defended, head-to-head, friendly fire,
    /// move to self).
    Bounced,
    /// A support was cut.
    Cut,
    /// A convoy was disrupted, or a convoyed army found no route.
    Disrupted,
    /// A support or convoy for an order the unit did not give (DAIDE NSO).
    NoSuchOrder,
    /// The order was refused before adjudication; the unit's result is the
    /// separate (generated) hold that follows.
    Illegal(IllegalReason),
    /// The order was adjudicated but could not be carried out (a support that
    /// cannot reach, a self-support, a convoy by a fleet not at sea); the unit
    /// held. DAIDE reports this as FLD.
    Failed(IllegalReason),
}

/// One unit's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The order as adjudicated (a generated hold for units without a legal order).
    pub order: Order,
    /// Its result.
    pub result: OrderResult,
    /// Whether the unit was dislodged.
    pub dislodged: bool,
}

/// A dislodged unit and where it may retreat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dislodgement {
    /// The unit, at the location it was dislodged from.
    pub unit: Unit,
    /// The province the dislodging attack came from (unknown when the
    /// position comes from a server's NOW, which lists only the options).
    pub attacker_from: Option<Province>,
    /// Legal retreat locations (empty: must disband).
    pub retreats: Vec<Location>,
}

/// Everything a movement phase produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovementOutcome {
    /// One entry per submitted order that was illegal, then one per unit on the board.
    pub results: Vec<Resolved>,
    /// Units dislodged this phase.
    pub dislodged: Vec<Dislodgement>,
    /// Units still on the board after the moves (dislodged ones excluded).
    pub units: Vec<Unit>,
}

impl MovementOutcome {
    /// The result for the unit at `province`, from the order the adjudicator used.
    pub fn result_at(&self, province: Province) -> Option<&Resolved> {
        self.results.iter().rev().find(|r| {
            r.order
                .unit()
                .is_some_and(|u| u.location.province == province)
        })
    }
}

/// Adjudication input errors.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JudgeError {
    /// Two units in one province.
    #[error("two units in province {0}")]
    Crowded(String),
    /// A unit standing where its type cannot stand.
    #[error("unit cannot stand at {0}")]
    BadPosition(String),
}

fn nation(map: &Map, u: &Unit) -> dj::Nation {
    dj::Nation::from(map.power_name(u.power).unwrap_or("?"))
}

fn unit_type(k: UnitType) -> dj::UnitType {
    match k {
        UnitType::Army => dj::UnitType::Army,
        UnitType::Fleet => dj::UnitType::Fleet,
    }
}

type JOrder = dj::judge::MappedMainOrder;

/// Adjudicates one movement phase. Units without an order hold; orders for
/// units that are not on the board are reported illegal.
pub fn adjudicate_movement(
    map: &Map,
    units: &[Unit],
    orders: &[Order],
    rules: Rules,
) -> Result<MovementOutcome, JudgeError> {
    let phase = Submitted::new(map, units, orders)?;
    let Translated {
        early,
        jorders,
        back,
    } = phase.translate(orders);

    let start = start_positions(map, units);
    let submission = dj::judge::Submission::new(map.judge_map(), &start, jorders);
    let outcome = submission.adjudicate(rules.rulebook());
    let retreat_start = outcome.to_retreat_start();
    let (dislodged_at, retreats) = dislodgements(map, &retreat_start);

    let mut adjudicated: Vec<(&JOrder, &OrderOutcome<&JOrder>)> =
        outcome.all_orders_with_outcomes().collect();
    // Illegal orders first, then the orders that were adjudicated.
    adjudicated.sort_by_key(|(_, oc)| !matches!(oc, OrderOutcome::Illegal(_)));
    let mut results = early;
    let new_positions = phase.resolve(adjudicated, &back, &dislodged_at, &mut results);

    let (dislodged, after) = after_moves(units, &dislodged_at, retreats, &new_positions);
    Ok(MovementOutcome {
        results,
        dislodged,
        units: after,
    })
}

/// One phase's units and orders, indexed for translating orders to the
/// crate's form and for reading its verdicts back.
struct Submitted<'a> {
    map: &'a Map,
    /// The units on the board, by province.
    by_province: HashMap<Province, Unit>,
    /// Per order: whether it counts (DAIDE semantics: a later order for a unit
    /// replaces an earlier one).
    effective: Vec<bool>,
    /// Moves by province of origin (destination, by convoy), to resolve
    /// coast-less support targets and NSO.
    moves: HashMap<Province, (Location, bool)>,
}

/// Orders translated for the crate.
struct Translated {
    /// Orders refused before adjudication (replaced, or not movement orders).
    early: Vec<Resolved>,
    /// The orders the crate adjudicates.
    jorders: Vec<JOrder>,
    /// Each translated order's original (the first one, for equal translations).
    back: HashMap<JOrder, Order>,
}

impl<'a> Submitted<'a> {
    /// Indexes `units` (checking that each stands where it can, one per
    /// province) and `orders`.
    fn new(map: &'a Map, units: &[Unit], orders: &[Order]) -> Result<Self, JudgeError> {
        let mut by_province: HashMap<Province, Unit> = HashMap::new();
        for u in units {
            if !map.can_stand(u.kind, u.location) {
                return Err(JudgeError::BadPosition(
                    map.name(u.location.province).to_string(),
                ));
            }
            if by_province.insert(u.location.province, *u).is_some() {
                return Err(JudgeError::Crowded(
                    map.name(u.location.province).to_string(),
                ));
            }
        }
        let mut last_for: HashMap<Province, usize> = HashMap::new();
        for (i, o) in orders.iter().enumerate() {
            if let Some(u) = o.unit() {
                last_for.insert(u.location.province, i);
            }
        }
        let effective: Vec<bool> = orders
            .iter()
            .enumerate()
            .map(|(i, o)| {
                o.unit()
                    .is_none_or(|u| last_for.get(&u.location.province) == Some(&i))
            })
            .collect();
        let mut moves: HashMap<Province, (Location, bool)> = HashMap::new();
        for (i, o) in orders.iter().enumerate() {
            if let Order::Move { unit, to, via } = o
                && effective[i]
            {
                moves.insert(unit.location.province, (*to, via.is_some()));
            }
        }
        Ok(Submitted {
            map,
            by_province,
            effective,
            moves,
        })
    }

    /// The crate's orders for the effective movement orders; the others are
    /// refused as duplicates or wrong-phase orders.
    fn translate(&self, orders: &[Order]) -> Translated {
        let mut early: Vec<Resolved> = Vec::new();
        let mut jorders: Vec<JOrder> = Vec::new();
        let mut back: HashMap<JOrder, Order> = HashMap::new();
        let refused = |o: &Order, reason| Resolved {
            order: o.clone(),
            result: OrderResult::Illegal(reason),
            dislodged: false,
        };
        for (i, o) in orders.iter().enumerate() {
            if !self.effective[i] {
                early.push(refused(o, IllegalReason::Duplicate));
                continue;
            }
            let (Some(u), Some(command)) = (o.unit(), self.command(o)) else {
                early.push(refused(o, IllegalReason::WrongPhase));
                continue;
            };
            let jo = JOrder::new(
                nation(self.map, u),
                unit_type(u.kind),
                self.map.region_key(u.location),
                command,
            );
            back.entry(jo.clone()).or_insert_with(|| o.clone());
            jorders.push(jo);
        }
        Translated {
            early,
            jorders,
            back,
        }
    }

    /// The crate's command for a movement order (None for other orders).
    fn command(&self, o: &Order) -> Option<MainCommand<dj::geo::RegionKey>> {
        let rk = |l: Location| self.map.region_key(l);
        Some(match o {
            Order::Hold(_) => MainCommand::Hold,
            Order::Move { to, via, .. } => MainCommand::Move(if via.is_some() {
                MoveCommand::with_mandatory_convoy(rk(*to))
            } else {
                MoveCommand::new(rk(*to))
            }),
            Order::SupportHold { supported, .. } => MainCommand::Support(SupportedOrder::Hold(
                unit_type(supported.kind),
                rk(supported.location),
            )),
            Order::SupportMove { supported, to, .. } => {
                let dest = match self.moves.get(&supported.location.province) {
                    Some((l, _)) if l.province == *to => *l,
                    _ => Location::new(*to),
                };
                MainCommand::Support(SupportedOrder::Move(
                    unit_type(supported.kind),
                    rk(supported.location),
                    rk(dest),
                ))
            }
            Order::Convoy { army, to, .. } => {
                MainCommand::Convoy(ConvoyedMove::new(rk(army.location), rk(Location::new(*to))))
            }
            Order::Retreat { .. }
            | Order::Disband(_)
            | Order::Build(_)
            | Order::Remove(_)
            | Order::Waive(_) => return None,
        })
    }

    /// Appends one [`Resolved`] per adjudicated order (units without an order
    /// get their generated hold) to `results`; returns where the units that
    /// moved went, by province of origin.
    fn resolve(
        &self,
        adjudicated: Vec<(&JOrder, &OrderOutcome<&JOrder>)>,
        back: &HashMap<JOrder, Order>,
        dislodged_at: &HashMap<Province, Province>,
        results: &mut Vec<Resolved>,
    ) -> HashMap<Province, Location> {
        let mut new_positions: HashMap<Province, Location> = HashMap::new();
        for (jo, oc) in adjudicated {
            let Some(origin) = province_of(self.map, &jo.region) else {
                continue;
            };
            let order = match back.get(jo) {
                Some(o) => o.clone(),
                None => match self.by_province.get(&origin) {
                    Some(u) => Order::Hold(*u),
                    None => continue,
                },
            };
            let is_illegal = matches!(oc, OrderOutcome::Illegal(_));
            let dislodged = !is_illegal && dislodged_at.contains_key(&origin);
            let result = self.settle(&order, judge_result(oc), dislodged);
            if !is_illegal && let (Order::Move { to, .. }, OrderResult::Success) = (&order, result)
            {
                new_positions.insert(origin, *to);
            }
            results.push(Resolved {
                order,
                result,
                dislodged,
            });
        }
        new_positions
    }

    /// The crate's verdict `result` on `order`, corrected where tablero
    /// decides: self-support, a dislodged supporter's support (always cut),
    /// and supports and convoys of orders not given (NSO).
    fn settle(&self, order: &Order, result: OrderResult, dislodged: bool) -> OrderResult {
        match (order, result) {
            (_, r @ (OrderResult::Illegal(_) | OrderResult::Failed(_))) => r,
            (Order::SupportHold { unit, supported }, _)
                if unit.location.province == supported.location.province =>
            {
                OrderResult::Failed(IllegalReason::SupportsItself)
            }
            // A dislodged supporter's support is always cut.
            (Order::SupportHold { .. } | Order::SupportMove { .. }, OrderResult::Success)
                if dislodged =>
            {
                OrderResult::Cut
            }
            (Order::SupportHold { supported, .. }, r) => {
                if self.moves.contains_key(&supported.location.province)
                    || !self.by_province.contains_key(&supported.location.province)
                {
                    OrderResult::NoSuchOrder
                } else {
                    r
                }
            }
            (Order::SupportMove { supported, to, .. }, r) => {
                match self.moves.get(&supported.location.province) {
                    Some((l, _)) if l.province == *to => r,
                    _ => OrderResult::NoSuchOrder,
                }
            }
            (Order::Convoy { army, to, .. }, r) => match self.moves.get(&army.location.province) {
                Some((l, _)) if l.province == *to => r,
                _ => OrderResult::NoSuchOrder,
            },
            (_, r) => r,
        }
    }
}

/// The units as the crate places them at the start of the phase.
fn start_positions(
    map: &Map,
    units: &[Unit],
) -> Vec<dj::UnitPosition<'static, dj::geo::RegionKey>> {
    units
        .iter()
        .map(|u| {
            dj::UnitPosition::new(
                dj::Unit::new(Cow::Owned(nation(map, u)), unit_type(u.kind)),
                map.region_key(u.location),
            )
        })
        .collect()
}

fn province_of(map: &Map, k: &dj::geo::RegionKey) -> Option<Province> {
    map.province(&k.province().short_name())
}

fn location_of(map: &Map, k: &dj::geo::RegionKey) -> Option<Location> {
    province_of(map, k).map(|p| Location {
        province: p,
        coast: map.coast_from_judge(p, k.coast()),
    })
}

/// Dislodged units' provinces with the province each attack came from, and
/// each dislodged unit's retreat options (sorted).
fn dislodgements(
    map: &Map,
    retreat_start: &dj::judge::retreat::Start<'_>,
) -> (
    HashMap<Province, Province>,
    HashMap<Province, Vec<Location>>,
) {
    let mut dislodged_at: HashMap<Province, Province> = HashMap::new();
    for (victim, attacker) in retreat_start.dislodged() {
        if let (Some(v), Some(a)) = (
            province_of(map, &victim.region),
            province_of(map, &attacker.region),
        ) {
            dislodged_at.insert(v, a);
        }
    }
    let mut retreats: HashMap<Province, Vec<Location>> = HashMap::new();
    for (pos, dests) in retreat_start.retreat_destinations() {
        if let Some(p) = province_of(map, pos.region) {
            let mut v: Vec<Location> = dests
                .available()
                .into_iter()
                .filter_map(|k| location_of(map, k))
                .collect();
            v.sort();
            retreats.insert(p, v);
        }
    }
    (dislodged_at, retreats)
}

/// The crate's outcome of one order as a tablero result (before
/// [`Submitted::settle`]).
fn judge_result(oc: &OrderOutcome<&JOrder>) -> OrderResult {
    match oc {
        OrderOutcome::Illegal(i) => OrderResult::Illegal(match i {
            IllegalOrder::NoUnit => IllegalReason::NoUnit,
            IllegalOrder::ForeignUnit => IllegalReason::ForeignUnit,
            IllegalOrder::MultipleToSameUnit => IllegalReason::Duplicate,
            IllegalOrder::UnreachableDestination => IllegalReason::Unreachable,
        }),
        OrderOutcome::Hold(HoldOutcome::Succeeds | HoldOutcome::Dislodged(_)) => {
            OrderResult::Success
        }
        OrderOutcome::Move(AttackOutcome::Succeeds) => OrderResult::Success,
        OrderOutcome::Move(AttackOutcome::NoPath) => OrderResult::Disrupted,
        OrderOutcome::Move(_) => OrderResult::Bounced,
        OrderOutcome::Support(SupportOutcome::CantReach) => {
            OrderResult::Failed(IllegalReason::CantReach)
        }
        OrderOutcome::Support(SupportOutcome::CutBy(_)) => OrderResult::Cut,
        OrderOutcome::Support(SupportOutcome::SupportingSelf) => {
            OrderResult::Failed(IllegalReason::SupportsItself)
        }
        OrderOutcome::Support(SupportOutcome::NotDisrupted) => OrderResult::Success,
        OrderOutcome::Convoy(ConvoyOutcome::NotAtSea) => {
            OrderResult::Failed(IllegalReason::BadConvoy)
        }
        OrderOutcome::Convoy(ConvoyOutcome::Dislodged(_) | ConvoyOutcome::Paradox) => {
            OrderResult::Disrupted
        }
        OrderOutcome::Convoy(ConvoyOutcome::NotDisrupted) => OrderResult::Success,
    }
}

/// The dislodged units (with their retreat options) and the units still on
/// the board, moved where their moves succeeded.
fn after_moves(
    units: &[Unit],
    dislodged_at: &HashMap<Province, Province>,
    mut retreats: HashMap<Province, Vec<Location>>,
    new_positions: &HashMap<Province, Location>,
) -> (Vec<Dislodgement>, Vec<Unit>) {
    let mut dislodged: Vec<Dislodgement> = Vec::new();
    let mut after: Vec<Unit> = Vec::new();
    for u in units {
        let p = u.location.province;
        if let Some(&attacker_from) = dislodged_at.get(&p) {
            dislodged.push(Dislodgement {
                unit: *u,
                attacker_from: Some(attacker_from),
                retreats: retreats.remove(&p).unwrap_or_default(),
            });
        } else {
            let mut moved = *u;
            if let Some(to) = new_positions.get(&p) {
                moved.location = *to;
            }
            after.push(moved);
        }
    }
    (dislodged, after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::model::Power;

    fn setup() -> Map {
        Map::standard()
    }

    fn unit(m: &Map, power: &str, kind: UnitType, prov: &str) -> Unit {
        Unit {
            power: m.power(power).unwrap(),
            kind,
            location: Location::new(m.province(prov).unwrap()),
        }
    }

    #[test]
    fn simple_bounce_and_support() {
        let m = setup();
        let a = unit(&m, "GER", UnitType::Army, "BER");
        let b = unit(&m, "RUS", UnitType::Army, "WAR");
        let c = unit(&m, "RUS", UnitType::Army, "SIL");
        let pru = m.province("PRU").unwrap();
        let orders = vec![
            Order::Move {
                unit: a,
                to: Location::new(pru),
                via: None,
            },
            Order::Move {
                unit: b,
                to: Location::new(pru),
                via: None,
            },
        ];
        let out = adjudicate_movement(&m, &[a, b, c], &orders, Rules::default()).unwrap();
        assert_eq!(
            out.result_at(a.location.province).unwrap().result,
            OrderResult::Bounced
        );
        assert_eq!(
            out.result_at(b.location.province).unwrap().result,
            OrderResult::Bounced
        );
        assert_eq!(
            out.result_at(c.location.province).unwrap().result,
            OrderResult::Success
        );

        let orders = vec![
            Order::Move {
                unit: a,
                to: Location::new(pru),
                via: None,
            },
            Order::Move {
                unit: b,
                to: Location::new(pru),
                via: None,
            },
            Order::SupportMove {
                unit: c,
                supported: b,
                to: pru,
            },
        ];
        let out = adjudicate_movement(&m, &[a, b, c], &orders, Rules::default()).unwrap();
        assert_eq!(
            out.result_at(b.location.province).unwrap().result,
            OrderResult::Success
        );
        assert!(out.units.iter().any(|u| *u
            == Unit {
                location: Location::new(pru),
                ..b
            }));
    }

    #[test]
    fn dislodgement_lists_retreats_and_nso() {
        let m = setup();
        let p = |n| m.province(n).unwrap();
        let victim = unit(&m, "AUS", UnitType::Army, "GAL");
        let att = unit(&m, "RUS", UnitType::Army, "UKR");
        let sup = unit(&m, "RUS", UnitType::Army, "WAR");
        let other = unit(&m, "RUS", UnitType::Army, "MOS");
        let orders = vec![
            Order::Move {
                unit: att,
                to: Location::new(p("GAL")),
                via: None,
            },
            Order::SupportMove {
                unit: sup,
                supported: att,
                to: p("GAL"),
            },
            // Supports a hold by a unit that is moving: no such order.
            Order::SupportHold {
                unit: other,
                supported: att,
            },
        ];
        let out =
            adjudicate_movement(&m, &[victim, att, sup, other], &orders, Rules::default()).unwrap();
        assert_eq!(out.dislodged.len(), 1);
        let d = &out.dislodged[0];
        assert_eq!(d.unit, victim);
        assert_eq!(d.attacker_from, Some(p("UKR")));
        let names: Vec<_> = d.retreats.iter().map(|l| m.name(l.province)).collect();
        assert!(names.contains(&"BOH") && names.contains(&"BUD") && names.contains(&"VIE"));
        assert!(!names.contains(&"UKR") && !names.contains(&"WAR"));
        assert_eq!(
            out.result_at(p("MOS")).unwrap().result,
            OrderResult::NoSuchOrder
        );
        assert!(out.result_at(p("GAL")).unwrap().dislodged);
        assert_eq!(out.units.len(), 3);
    }

    #[test]
    fn illegal_orders_are_reported_and_units_hold() {
        let m = setup();
        let a = unit(&m, "FRA", UnitType::Army, "PAR");
        let ghost = unit(&m, "FRA", UnitType::Army, "BUR");
        let orders = vec![
            Order::Move {
                unit: a,
                to: Location::new(m.province("MAR").unwrap()),
                via: None,
            },
            Order::Hold(ghost),
            Order::Waive(Power(2)),
        ];
        let out = adjudicate_movement(&m, &[a], &orders, Rules::default()).unwrap();
        let illegal: Vec<_> = out
            .results
            .iter()
            .filter(|r| matches!(r.result, OrderResult::Illegal(_)))
            .collect();
        assert_eq!(illegal.len(), 3, "{:?}", out.results);
        assert_eq!(
            out.result_at(a.location.province).unwrap().order,
            Order::Hold(a)
        );
        assert_eq!(out.units, vec![a]);
    }

    #[test]
    fn bad_boards_are_errors_not_panics() {
        let m = setup();
        let a = unit(&m, "FRA", UnitType::Army, "PAR");
        assert!(matches!(
            adjudicate_movement(&m, &[a, a], &[], Rules::default()),
            Err(JudgeError::Crowded(_))
        ));
        let f = unit(&m, "FRA", UnitType::Fleet, "PAR");
        assert!(matches!(
            adjudicate_movement(&m, &[f], &[], Rules::default()),
            Err(JudgeError::BadPosition(_))
        ));
    }
}
