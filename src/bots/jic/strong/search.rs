//! The candidate search: convoy variants, the choice of the best candidate over shared
//! opponent samples within the evaluation budget, and hill climbing one own unit at a time.

use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::time::Instant;

use crate::bots::jic::agent::Board;
use crate::diplomacy::judge::{Rules, adjudicate_movement};
use crate::diplomacy::map::Map;
use crate::diplomacy::model::{Location, Order, Power, Province, Season, Unit, UnitType};

use super::value::{Shaping, evaluate};

/// What the adjudicated evaluation may still spend: adjudicator runs (the
/// count budget, `u64::MAX` when unlimited) and time.
#[derive(Debug, Clone, Copy)]
pub struct EvalBudget {
    /// Adjudicator runs left.
    pub left: u64,
    /// Stop at this instant.
    pub deadline: Instant,
}

impl EvalBudget {
    /// `max` runs (0 = unlimited) until `deadline`.
    pub fn new(max: u64, deadline: Instant) -> Self {
        EvalBudget {
            left: if max == 0 { u64::MAX } else { max },
            deadline,
        }
    }

    /// Takes `n` runs if they are left and the deadline has not passed.
    pub fn take(&mut self, n: usize) -> bool {
        let n = n as u64;
        if self.left < n || Instant::now() >= self.deadline {
            return false;
        }
        self.left -= n;
        true
    }
}

/// Convoy variants of `base`: an own army on a coast carried by one own
/// fleet at sea to a coastal province it cannot walk to, when the
/// destination is a centre we do not own, or (with `any_coast`) any coastal
/// province where the army's utility beats its current one (the two best
/// per army and fleet) — armies built on an island or a peninsula reach
/// the inland centres that fleets cannot take.
pub fn convoy_variants(board: &Board, base: &[Order], any_coast: bool) -> Vec<Vec<Order>> {
    let map = board.map;
    let mut out = Vec::new();
    let dest_of = |o: &Order| match o {
        Order::Move { to, .. } => Some(to.province),
        _ => None,
    };
    for army in board.mine.iter().filter(|u| u.kind == UnitType::Army) {
        for fleet in board.mine.iter().filter(|u| u.kind == UnitType::Fleet) {
            let sea = map
                .info(fleet.location.province)
                .is_some_and(|i| i.kind == crate::diplomacy::ProvinceKind::Sea);
            if !sea
                || !map.can_reach_province(UnitType::Fleet, fleet.location, army.location.province)
            {
                continue;
            }
            let here = board.utility(UnitType::Army, army.location);
            let mut dests: Vec<(bool, i64, Province)> = Vec::new();
            for l in map.fleet_neighbours(fleet.location) {
                let x = l.province;
                if x == army.location.province
                    || map.army_neighbours(army.location.province).contains(&x)
                    || !map.can_stand(UnitType::Army, Location::new(x))
                    || board.own_at(x)
                    || base.iter().any(|o| dest_of(o) == Some(x))
                    || dests.iter().any(|d| d.2 == x)
                {
                    continue;
                }
                let target = board.is_centre(x) && board.owner_of(x) != Some(board.me);
                let u = board.utility(UnitType::Army, Location::new(x));
                if target || (any_coast && u > here) {
                    dests.push((target, u, x));
                }
            }
            if any_coast {
                // Best first: centres by utility, then the two best other coasts.
                dests.sort_by_key(|d| std::cmp::Reverse((d.0, d.1)));
                let centres = dests.iter().filter(|d| d.0).count();
                dests.truncate(centres + 2);
            }
            for (_, _, x) in dests {
                let mut v: Vec<Order> = base
                    .iter()
                    .filter(|o| o.unit().is_some_and(|u| u != army && u != fleet))
                    // Drop orders that depend on the two units' old orders.
                    .filter(|o| match o {
                        Order::SupportMove { supported, .. }
                        | Order::SupportHold { supported, .. } => {
                            supported != army && supported != fleet
                        }
                        _ => true,
                    })
                    .cloned()
                    .collect();
                // Nobody may move into the army's origin unless it leaves (it does).
                v.push(Order::Move {
                    unit: *army,
                    to: Location::new(x),
                    via: Some(vec![fleet.location.province]),
                });
                v.push(Order::Convoy {
                    unit: *fleet,
                    army: *army,
                    to: x,
                });
                // The fleet stays: a unit that moved into its province must hold.
                for o in v.iter_mut() {
                    if let Order::Move {
                        unit,
                        to,
                        via: None,
                    } = o
                        && to.province == fleet.location.province
                    {
                        *o = Order::Hold(*unit);
                    }
                }
                out.push(v);
            }
        }
    }
    out
}

/// Picks the candidate with the best mean position value over the samples.
/// Returns the index of the chosen candidate and the rounds completed.
#[allow(clippy::too_many_arguments)]
pub fn choose(
    map: &Map,
    me: Power,
    season: Season,
    units: &[Unit],
    owners: &HashMap<Province, Power>,
    candidates: &[Vec<Order>],
    samples: &[Vec<Order>],
    budget: &mut EvalBudget,
    shaping: &Shaping,
) -> (usize, usize) {
    let mut totals = vec![0i64; candidates.len()];
    let mut rounds = 0;
    'outer: for s in samples {
        if !budget.take(candidates.len()) {
            break;
        }
        let mut row = Vec::with_capacity(candidates.len());
        for c in candidates {
            if Instant::now() >= budget.deadline {
                break 'outer;
            }
            let mut all = c.clone();
            all.extend(s.iter().cloned());
            let v = match adjudicate_movement(map, units, &all, Rules::default()) {
                Ok(out) => {
                    let dis: Vec<Unit> = out.dislodged.iter().map(|d| d.unit).collect();
                    evaluate(map, me, season, &out.units, &dis, owners, shaping)
                }
                Err(_) => i64::MIN / 4,
            };
            row.push(v);
        }
        for (t, v) in totals.iter_mut().zip(row) {
            *t += v;
        }
        rounds += 1;
    }
    if rounds == 0 {
        return (0, 0);
    }
    let best = totals
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i)
        .unwrap_or(0);
    (best, rounds)
}

/// The orders one own unit may take instead of its current one: hold, a
/// move to every adjacent location, a support-hold of an adjacent own unit
/// that does not move, a support of an own move it can reach.
pub fn alternatives(map: &Map, unit: &Unit, current: &[Order]) -> Vec<Order> {
    let mut out = vec![Order::Hold(*unit)];
    let targets = map.move_targets(unit.kind, unit.location);
    out.extend(targets.into_iter().map(|to| Order::Move {
        unit: *unit,
        to,
        via: None,
    }));
    for o in current {
        match o {
            Order::Move { unit: v, to, .. }
                if v != unit
                    && to.province != unit.location.province
                    && map.can_reach_province(unit.kind, unit.location, to.province) =>
            {
                out.push(Order::SupportMove {
                    unit: *unit,
                    supported: *v,
                    to: to.province,
                });
            }
            Order::Hold(v)
            | Order::SupportHold { unit: v, .. }
            | Order::SupportMove { unit: v, .. }
                if v != unit
                    && map.can_reach_province(unit.kind, unit.location, v.location.province) =>
            {
                out.push(Order::SupportHold {
                    unit: *unit,
                    supported: *v,
                });
            }
            _ => {}
        }
    }
    out
}

/// The coordinator's constraints on a full own order set: no two own units
/// into one province, none into a province an own unit stays in, no swaps.
pub fn consistent(orders: &[Order]) -> bool {
    let mut dests: Vec<(Province, Province)> = Vec::new();
    let mut staying: Vec<Province> = Vec::new();
    for o in orders {
        match o {
            Order::Move { unit, to, .. } => dests.push((unit.location.province, to.province)),
            other => {
                if let Some(u) = other.unit() {
                    staying.push(u.location.province);
                }
            }
        }
    }
    for (i, (from, to)) in dests.iter().enumerate() {
        if staying.contains(to) {
            return false;
        }
        for (from2, to2) in &dests[i + 1..] {
            if to == to2 || (to == from2 && to2 == from) {
                return false;
            }
        }
    }
    true
}

/// Hill climbing with the adjudicator: starting from `start`, replaces one
/// own unit's order at a time by the alternative with the best total value
/// over `samples`, while that improves and time remains. Returns the orders
/// and the number of evaluations.
#[allow(clippy::too_many_arguments)]
pub fn improve(
    map: &Map,
    me: Power,
    season: Season,
    units: &[Unit],
    owners: &HashMap<Province, Power>,
    start: Vec<Order>,
    samples: &[Vec<Order>],
    budget: &mut EvalBudget,
    shaping: &Shaping,
    rng: &mut Xoshiro256PlusPlus,
) -> (Vec<Order>, usize) {
    let mut value = |orders: &[Order]| -> Option<i64> {
        if !budget.take(samples.len()) {
            return None;
        }
        let mut t = 0;
        for s in samples {
            if Instant::now() >= budget.deadline {
                return None;
            }
            let mut all = orders.to_vec();
            all.extend(s.iter().cloned());
            t += match adjudicate_movement(map, units, &all, Rules::default()) {
                Ok(out) => {
                    let dis: Vec<Unit> = out.dislodged.iter().map(|d| d.unit).collect();
                    evaluate(map, me, season, &out.units, &dis, owners, shaping)
                }
                Err(_) => i64::MIN / 4,
            };
        }
        Some(t)
    };
    let mut evals = 0;
    let mut cur = start;
    let Some(mut cur_v) = value(&cur) else {
        return (cur, evals);
    };
    let mut mine: Vec<Unit> = units.iter().filter(|u| u.power == me).copied().collect();
    loop {
        let mut improved = false;
        mine.shuffle(rng);
        for u in &mine {
            let Some(idx) = cur.iter().position(|o| o.unit() == Some(u)) else {
                continue;
            };
            for alt in alternatives(map, u, &cur) {
                if alt == cur[idx] {
                    continue;
                }
                let mut next = cur.clone();
                next[idx] = alt;
                if !consistent(&next) {
                    continue;
                }
                evals += 1;
                match value(&next) {
                    Some(v) if v > cur_v => {
                        cur = next;
                        cur_v = v;
                        improved = true;
                    }
                    Some(_) => {}
                    None => return (cur, evals),
                }
            }
        }
        if !improved {
            return (cur, evals);
        }
    }
}
