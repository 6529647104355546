//! Strong mode: candidate joint orders (from the coordinator, one-unit
//! deviations, convoy variants) are played with the adjudicator against
//! sampled opponent orders and scored by the resulting position; the best
//! mean wins. Samples are shared by all candidates (common random numbers)
//! and evaluated round by round, so stopping at the deadline is always fair.
//! The chosen candidate is then improved by hill climbing ([`improve`]): one
//! own unit's order at a time is replaced by the alternative (hold, any move,
//! any support of an own order) with the best total over the same samples,
//! keeping the coordinator's constraints ([`consistent`]), until no change
//! helps or the deadline comes.
//!
//! Opponent model (default `dumbbot_sample_share = 1`):
//! every enemy power ordered by a seeded DumbBot, one seed per sample
//! ([`mixed_samples`]). The utility-driven model, for the rest of the
//! share: each enemy unit holds with weight `U(hold)·1.5` or moves
//! with weight `U(dest)` (thesis utilities from its owner's point of view,
//! squared); a unit whose pick collides with a same-power pick holds; each
//! enemy unit standing on a centre its power owns next to one of our units
//! holds with probability 0.6 before that; a holding enemy unit then
//! supports, with probability 0.5 each, a same-power holding unit next to
//! one of ours, or a same-power move into a province one of our units
//! stands in.
//!
//! Position value (from our side, hundredths): centres we will own (fall:
//! after the ownership update; spring: owned and not occupied by an enemy,
//! plus others we occupy at 0.8) ×1000, dislodged own units −600, dislodged
//! enemy units +150, own centres left empty next to an enemy −150 (spring
//! only), plus 0.3 × the thesis utility of every own unit's position; in the
//! fall, +700 per build that an open own home centre makes possible; with
//! `front_pull` > 0, minus that much per move an own unit stands beyond one
//! move from the nearest centre we do not own ([`FrontPull`]; off by default);
//! minus `survival_value` per centre held below `survival_centres` (fall: the
//! centres we will own; spring: own centres we stand on, and empty own
//! centres where our units reaching them are at least the enemies reaching
//! them), so a small power defends its last centres ([`Shaping`]); with
//! `spare_centres` > 0, a centre taken from a power beyond leaving it that
//! many is worth `spare_value` of its price (negative: it costs; by default
//! only for the powers DumbBot's policy does not explain, [`super::model`]),
//! and a fall position that gives a solo earns `solo_value`.

use rand::Rng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::time::Instant;

use super::agent::{Board, actions};
use crate::bots::DumbBot;
use crate::diplomacy::GameView;
use crate::diplomacy::judge::{Rules, adjudicate_movement};
use crate::diplomacy::map::Map;
use crate::diplomacy::model::{Location, Order, Power, Province, Season, Unit, UnitType};

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

/// An enemy unit with its actions and their sampling weights.
type WeightedUnit = (Unit, Vec<(Location, f64)>);

/// `n` samples of opponent orders, a share `dumbbot_share` of them (spread
/// evenly, so a deadline that cuts the rounds short keeps the mix) from a
/// seeded DumbBot ordering every enemy power, the rest from
/// [`sample_opponents`]. Anytime: DumbBot is called power by power while
/// `deadline` has not passed; a DumbBot sample the deadline cuts, and every
/// later one, is replaced by a sample of the cheap utility model, so the
/// list always has `n` samples and the overrun is at most one power's
/// DumbBot call.
pub fn mixed_samples(
    view: &GameView,
    me: Power,
    n: usize,
    dumbbot_share: f64,
    deadline: Instant,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Vec<Order>> {
    let is_dumb =
        |i: usize| ((i + 1) as f64 * dumbbot_share).floor() > (i as f64 * dumbbot_share).floor();
    let k = (0..n).filter(|i| !is_dumb(*i)).count();
    let model_samples = |k: usize, rng: &mut Xoshiro256PlusPlus| {
        sample_opponents(
            &view.map,
            me,
            view.phase.season,
            &view.units,
            &view.owners,
            k,
            rng,
        )
    };
    let mut model = model_samples(k, rng).into_iter();
    let mut powers: Vec<Power> = view
        .units
        .iter()
        .map(|u| u.power)
        .filter(|p| *p != me)
        .collect();
    powers.sort();
    powers.dedup();
    let mut dumb = DumbBot::new(rng.r#gen());
    // Drawn only once the deadline cuts a DumbBot sample (never under count
    // budgets with a far deadline, so those games do not change).
    let mut fallback: Option<std::vec::IntoIter<Vec<Order>>> = None;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        if is_dumb(i) {
            let mut orders = Vec::new();
            let mut cut = fallback.is_some();
            for p in &powers {
                if cut || Instant::now() >= deadline {
                    cut = true;
                    break;
                }
                orders.extend(dumb.orders_as(view, *p));
            }
            if !cut {
                out.push(orders);
                continue;
            }
            let f = fallback.get_or_insert_with(|| model_samples(n - i, rng).into_iter());
            if let Some(s) = f.next() {
                out.push(s);
            }
        } else if let Some(s) = model.next() {
            out.push(s);
        }
    }
    out
}

/// Samples of opponent orders for one movement phase.
pub fn sample_opponents(
    map: &Map,
    me: Power,
    season: Season,
    units: &[Unit],
    owners: &HashMap<Province, Power>,
    n: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Vec<Order>> {
    // Precompute each enemy unit's weighted actions.
    let mut per_power: HashMap<Power, Vec<WeightedUnit>> = HashMap::new();
    let mut powers: Vec<Power> = units.iter().map(|u| u.power).filter(|p| *p != me).collect();
    powers.sort();
    powers.dedup();
    for pw in &powers {
        let b = Board::from_parts(map, *pw, season, units, owners, 20);
        let list = b
            .mine
            .iter()
            .map(|u| {
                let acts = actions(&b, u)
                    .into_iter()
                    .map(|d| {
                        let v = b.utility(u.kind, d) as f64;
                        let w = if d.province == u.location.province {
                            v * 1.5
                        } else {
                            v
                        };
                        (d, w * w)
                    })
                    .collect();
                (*u, acts)
            })
            .collect();
        per_power.insert(*pw, list);
    }
    let occupied_by_me = |p: Province| {
        units
            .iter()
            .any(|u| u.power == me && u.location.province == p)
    };
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut orders = Vec::new();
        for pw in &powers {
            let list = &per_power[pw];
            let mut picks: Vec<(Unit, Location)> = Vec::new();
            for (u, acts) in list {
                // A unit on a centre its power owns, next to one of our
                // units, usually stays to defend it.
                let threatened = owners.get(&u.location.province) == Some(pw)
                    && units.iter().any(|x| {
                        x.power == me
                            && map.can_reach_province(x.kind, x.location, u.location.province)
                    });
                let dest = if threatened && rng.gen_bool(0.6) {
                    u.location
                } else {
                    acts.choose_weighted(rng, |a| a.1)
                        .map(|a| a.0)
                        .unwrap_or(u.location)
                };
                let clash = picks.iter().any(|(_, d)| d.province == dest.province);
                picks.push((*u, if clash { u.location } else { dest }));
            }
            // Supports of attacks on our units.
            let attacks: Vec<(Unit, Province)> = picks
                .iter()
                .filter(|(u, d)| d.province != u.location.province && occupied_by_me(d.province))
                .map(|(u, d)| (*u, d.province))
                .collect();
            // Holding units next to one of our units, for support-holds.
            let threatened_holds: Vec<Unit> = picks
                .iter()
                .filter(|(u, d)| {
                    d.province == u.location.province
                        && units.iter().any(|x| {
                            x.power == me
                                && map.can_reach_province(x.kind, x.location, u.location.province)
                        })
                })
                .map(|(u, _)| *u)
                .collect();
            for (u, d) in &picks {
                let moving = d.province != u.location.province;
                if !moving
                    && rng.gen_bool(0.5)
                    && let Some(h) = threatened_holds.iter().find(|h| {
                        *h != u && map.can_reach_province(u.kind, u.location, h.location.province)
                    })
                {
                    orders.push(Order::SupportHold {
                        unit: *u,
                        supported: *h,
                    });
                    continue;
                }
                if !moving && !attacks.is_empty() && rng.gen_bool(0.5) {
                    if let Some((a, to)) = attacks
                        .iter()
                        .find(|(a, to)| a != u && map.can_reach_province(u.kind, u.location, *to))
                    {
                        orders.push(Order::SupportMove {
                            unit: *u,
                            supported: *a,
                            to: *to,
                        });
                        continue;
                    }
                }
                if moving {
                    orders.push(Order::Move {
                        unit: *u,
                        to: *d,
                        via: None,
                    });
                } else {
                    orders.push(Order::Hold(*u));
                }
            }
        }
        out.push(orders);
    }
    out
}

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
    fn count(&self, taken: &mut [usize], from: Option<Power>) -> bool {
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

#[cfg(test)]
mod tests;
