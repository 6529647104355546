//! The position value the strong mode maximises: centres, dislodgements, unit utilities and
//! the optional shaping terms (front pull, survival of small powers, the spare rule, solo).

use std::collections::HashMap;

use crate::bots::jic::agent::Board;
use crate::diplomacy::map::Map;
use crate::diplomacy::model::{Location, Order, Power, Province, Season, Unit, UnitType};

use super::search::consistent;

/// Longest distance the front pull counts: farther units weigh as this far.
pub const PULL_CAP: u32 = 8;

/// The front pull: per unit type, the distance in moves from every province
/// to the nearest supply centre `me` does not own (multi-source breadth-first
/// search). Armies may cross sea provinces, one move each (a convoy chain),
/// so an army on an island is as far as the sea route. An own unit more than
/// one move from such a centre costs `per_step` hundredths per extra move in
/// [`evaluate`]: units that have nothing to do near them march to the front
/// instead of holding in the rear.
#[derive(Debug, Clone)]
pub struct FrontPull {
    army: Vec<u32>,
    fleet: Vec<u32>,
    per_step: i64,
}

impl FrontPull {
    /// Distances for `me` under `owners`; `per_step` 0 disables the pull.
    pub fn new(map: &Map, me: Power, owners: &HashMap<Province, Power>, per_step: i64) -> Self {
        let n = map.province_count();
        let locations = |p: Province| -> Vec<Location> {
            match map.info(p) {
                Some(i) if !i.coasts.is_empty() => i
                    .coasts
                    .iter()
                    .map(|c| Location::with_coast(p, *c))
                    .collect(),
                _ => vec![Location::new(p)],
            }
        };
        let is_sea = |p: Province| {
            map.info(p)
                .is_some_and(|i| i.kind == crate::diplomacy::ProvinceKind::Sea)
        };
        let fleet_nb = |p: Province| -> Vec<Province> {
            let mut v: Vec<Province> = locations(p)
                .into_iter()
                .flat_map(|l| map.fleet_neighbours(l).iter().map(|x| x.province))
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let army_nb = |p: Province| -> Vec<Province> {
            if is_sea(p) {
                return fleet_nb(p);
            }
            let mut v = map.army_neighbours(p).to_vec();
            v.extend(fleet_nb(p).into_iter().filter(|q| is_sea(*q)));
            v
        };
        let targets: Vec<Province> = map
            .supply_centres()
            .filter(|p| owners.get(p) != Some(&me))
            .collect();
        let bfs = |nb: &dyn Fn(Province) -> Vec<Province>| -> Vec<u32> {
            let mut d = vec![u32::MAX; n];
            let mut queue = std::collections::VecDeque::new();
            for t in &targets {
                if let Some(x) = d.get_mut(t.0 as usize) {
                    *x = 0;
                    queue.push_back(*t);
                }
            }
            while let Some(p) = queue.pop_front() {
                let dp = d[p.0 as usize];
                for q in nb(p) {
                    if let Some(x) = d.get_mut(q.0 as usize)
                        && *x == u32::MAX
                    {
                        *x = dp + 1;
                        queue.push_back(q);
                    }
                }
            }
            d
        };
        FrontPull {
            army: bfs(&army_nb),
            fleet: bfs(&fleet_nb),
            per_step,
        }
    }

    /// Moves from `p` to the nearest centre `me` does not own, for `kind`
    /// (at most [`PULL_CAP`]).
    pub fn distance(&self, kind: UnitType, p: Province) -> u32 {
        let d = match kind {
            UnitType::Army => &self.army,
            UnitType::Fleet => &self.fleet,
        };
        d.get(p.0 as usize)
            .copied()
            .unwrap_or(u32::MAX)
            .min(PULL_CAP)
    }

    /// The evaluation's cost of an own unit standing at `u`'s location.
    pub fn cost(&self, u: &Unit) -> i64 {
        self.per_step * i64::from(self.distance(u.kind, u.location.province).saturating_sub(1))
    }

    /// `base` with every holding own unit that stands two or more moves from
    /// the front moved one step closer (to the neighbour with the smallest
    /// distance that no other own order uses); `None` when nothing moves.
    pub fn advance(&self, map: &Map, base: &[Order]) -> Option<Vec<Order>> {
        if self.per_step == 0 {
            return None;
        }
        let mut out = base.to_vec();
        let mut moved = false;
        for i in 0..out.len() {
            let Order::Hold(u) = out[i] else {
                continue;
            };
            let here = self.distance(u.kind, u.location.province);
            if here < 2 {
                continue;
            }
            let options = map.move_targets(u.kind, u.location);
            let mut best: Option<(u32, Location)> = None;
            for to in options {
                let d = self.distance(u.kind, to.province);
                if d >= here || best.is_some_and(|b| b.0 <= d) {
                    continue;
                }
                let mut trial = out.clone();
                trial[i] = Order::Move {
                    unit: u,
                    to,
                    via: None,
                };
                if consistent(&trial) {
                    best = Some((d, to));
                }
            }
            if let Some((_, to)) = best {
                out[i] = Order::Move {
                    unit: u,
                    to,
                    via: None,
                };
                moved = true;
            }
        }
        moved.then_some(out)
    }
}

/// The optional shaping terms of [`evaluate`] (config `jic.front_pull`,
/// `jic.survival_centres`, `jic.survival_value`).
#[derive(Debug, Clone)]
pub struct Shaping {
    /// Rear units march to the front.
    pub pull: FrontPull,
    /// Below this many centres held, every missing centre costs `survival_value` more.
    pub survival_centres: usize,
    /// Hundredths per centre under `survival_centres`: a small power values its
    /// last centres above their linear worth and defends them.
    pub survival_value: i64,
    /// The spare rule.
    pub spare: Spare,
    /// Added in the fall when we reach a solo.
    pub solo_value: i64,
}

impl Shaping {
    /// Shaping from its terms.
    pub fn new(pull: FrontPull, survival: (usize, i64), spare: Spare, solo_value: i64) -> Self {
        Shaping {
            pull,
            survival_centres: survival.0,
            survival_value: survival.1,
            spare,
            solo_value,
        }
    }

    /// The survival penalty for holding `centres` centres.
    pub fn survival_cost(&self, centres: usize) -> i64 {
        self.survival_value * self.survival_centres.saturating_sub(centres) as i64
    }
}

/// The spare rule (`jic.spare_centres`, `jic.spare_value`) for the centre
/// counts of one phase: centres taken from a power beyond the point where it
/// would hold fewer than `spare_centres` keep only `spare_value` of their
/// worth. Used by the evaluation, the spared candidates and fall retreats.
#[derive(Debug, Clone)]
pub struct Spare {
    /// Per power index, how many of its centres may be taken at full worth
    /// (its centres minus `spare_centres`; empty = the rule is off).
    allowance: Vec<usize>,
    /// Share of its worth that a centre beyond the allowance keeps.
    value: f64,
}

impl Spare {
    /// The rule off: every centre at full worth.
    pub fn off() -> Self {
        Spare {
            allowance: Vec::new(),
            value: 1.0,
        }
    }

    /// The rule of (`spare_centres`, `spare_value`) for the centre counts
    /// of `owners`; off when `spare_centres` is 0.
    pub fn new(
        (centres, value): (usize, f64),
        map: &Map,
        owners: &HashMap<Province, Power>,
    ) -> Self {
        if centres == 0 {
            return Spare::off();
        }
        let allowance = (0..map.power_count())
            .map(|p| {
                let held = owners.values().filter(|o| o.0 as usize == p).count();
                held.saturating_sub(centres)
            })
            .collect();
        Spare { allowance, value }
    }

    /// Takes the powers `exempt` answers true for out of the rule: their
    /// centres keep their full worth.
    pub fn exempt(&mut self, exempt: impl Fn(Power) -> bool) {
        for (i, a) in self.allowance.iter_mut().enumerate() {
            if exempt(Power(i as u8)) {
                *a = usize::MAX;
            }
        }
    }

    /// Take counters per former owner for one position (empty, so never
    /// allocated, when the rule is off).
    pub fn counter(&self) -> Vec<usize> {
        vec![0; self.allowance.len()]
    }

    /// Counts a centre taken from `from` in `taken`; true when it lies
    /// beyond its owner's allowance. Neutral centres never do.
    pub(super) fn count(&self, taken: &mut [usize], from: Option<Power>) -> bool {
        let Some(i) = from.map(|p| p.0 as usize) else {
            return false;
        };
        match (taken.get_mut(i), self.allowance.get(i)) {
            (Some(k), Some(&allowed)) => {
                *k += 1;
                *k > allowed
            }
            _ => false,
        }
    }

    /// `worth` of a centre taken from `from`, counted in `taken`:
    /// discounted beyond its owner's allowance.
    pub fn take(&self, taken: &mut [usize], worth: i64, from: Option<Power>) -> i64 {
        if self.count(taken, from) {
            (worth as f64 * self.value).round() as i64
        } else {
            worth
        }
    }

    /// `orders` without the moves that would take a centre the spare rule
    /// prices down (one beyond its owner's allowance): those units hold, as
    /// do the units supporting or convoying them and any own unit whose move
    /// then ends on a holding one. `None` when the rule is off or nothing
    /// changes. The candidate the search may lack: candidates built from
    /// the coordinator's choice tend to share its takes, and hill climbing
    /// changes one unit at a time while its budget lasts.
    pub fn spared(
        &self,
        owners: &HashMap<Province, Power>,
        orders: &[Order],
    ) -> Option<Vec<Order>> {
        if self.value >= 1.0 {
            return None;
        }
        let mut taken = self.counter();
        let mut held: Vec<Unit> = Vec::new();
        for o in orders {
            if let Order::Move { unit, to, .. } = o
                && let Some(&from) = owners.get(&to.province)
                && from != unit.power
                && self.count(&mut taken, Some(from))
            {
                held.push(*unit);
            }
        }
        if held.is_empty() {
            return None;
        }
        let mut out = orders.to_vec();
        while !held.is_empty() {
            for o in out.iter_mut() {
                let stop = match o {
                    Order::Move { unit, .. } => held.contains(unit),
                    Order::SupportMove { supported, .. } => held.contains(supported),
                    Order::Convoy { army, .. } => held.contains(army),
                    _ => false,
                };
                if stop && let Some(u) = o.unit() {
                    *o = Order::Hold(*u);
                }
            }
            // Moves that now end on a unit that stays.
            held = out
                .iter()
                .filter_map(|o| match o {
                    Order::Move { unit, to, .. }
                        if out.iter().any(|h| {
                            !matches!(h, Order::Move { .. })
                                && h.unit().is_some_and(|u| u.location.province == to.province)
                        }) =>
                    {
                        Some(*unit)
                    }
                    _ => None,
                })
                .collect();
        }
        Some(out)
    }
}

/// Value of the position after a movement phase, for `me`.
pub fn evaluate(
    map: &Map,
    me: Power,
    season: Season,
    after: &[Unit],
    dislodged: &[Unit],
    owners: &HashMap<Province, Power>,
    shaping: &Shaping,
) -> i64 {
    let b = Board::from_parts(map, me, season, after, owners, 20);
    let mut v = 0i64;
    let mut fall_centres = 0usize;
    let mut held = 0usize;
    // Centres taken per former owner, for the spare rule.
    let mut taken = shaping.spare.counter();
    let mut take = |worth: i64, from: Option<Power>| shaping.spare.take(&mut taken, worth, from);
    for p in map.supply_centres() {
        let occ = b.unit_at(p);
        let own = b.owner_of(p) == Some(me);
        match season {
            Season::Fall => {
                let mine = match occ {
                    Some(u) => u.power == me,
                    None => own,
                };
                if mine {
                    v += if own { 1000 } else { take(1000, b.owner_of(p)) };
                    fall_centres += 1;
                }
            }
            _ => match occ {
                Some(u) if u.power == me => {
                    v += if own { 1000 } else { take(800, b.owner_of(p)) };
                    held += usize::from(own);
                }
                Some(_) => {
                    if own {
                        v += 200;
                    }
                }
                None => {
                    if own {
                        v += 1000;
                        let threat = b.enemies_reaching(p);
                        if threat > 0 {
                            v -= 150;
                        }
                        // For survival, an empty centre counts as held only
                        // if we can answer every enemy that reaches it.
                        if b.allies_reaching(p, p) >= threat {
                            held += 1;
                        }
                    }
                }
            },
        }
    }
    for d in dislodged {
        if d.power == me {
            v -= 600;
        } else {
            v += 150;
        }
    }
    for u in after.iter().filter(|u| u.power == me) {
        v += b.utility(u.kind, u.location) * 3 / 10 - shaping.pull.cost(u);
    }
    v -= shaping.survival_cost(if season == Season::Fall {
        fall_centres
    } else {
        held
    });
    if season == Season::Fall && fall_centres >= map.solo_threshold() {
        v += shaping.solo_value;
    }
    if season == Season::Fall {
        // Builds need open home centres: reward leaving them free.
        let units = after.iter().filter(|u| u.power == me).count();
        let builds = fall_centres.saturating_sub(units);
        let open = map
            .home_centres(me)
            .filter(|p| b.unit_at(*p).is_none() && b.owner_of(*p) == Some(me))
            .count();
        v += 700 * builds.min(open) as i64;
    }
    v
}
