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
//! Opponent model: each enemy unit holds with weight `U(hold)·1.5` or moves
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
//! fall, +700 per build that an open own home centre makes possible.

use rand::Rng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::time::Instant;

use super::agent::{Board, actions};
use crate::bots::DumbBot;
use crate::budget::{Budget, CancelFlag};
use crate::diplomacy::judge::{Rules, adjudicate_movement};
use crate::diplomacy::map::Map;
use crate::diplomacy::model::{Location, Order, Power, Province, Season, Unit, UnitType};
use crate::diplomacy::{GameView, Player};

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
/// [`sample_opponents`].
pub fn mixed_samples(
    view: &GameView,
    me: Power,
    n: usize,
    dumbbot_share: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Vec<Order>> {
    let is_dumb =
        |i: usize| ((i + 1) as f64 * dumbbot_share).floor() > (i as f64 * dumbbot_share).floor();
    let k = (0..n).filter(|i| !is_dumb(*i)).count();
    let mut model = sample_opponents(
        &view.map,
        me,
        view.phase.season,
        &view.units,
        &view.owners,
        k,
        rng,
    )
    .into_iter();
    let mut powers: Vec<Power> = view
        .units
        .iter()
        .map(|u| u.power)
        .filter(|p| *p != me)
        .collect();
    powers.sort();
    powers.dedup();
    let mut dumb = DumbBot::new(rng.r#gen());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        if is_dumb(i) {
            let mut orders = Vec::new();
            for p in &powers {
                let mut v = view.clone();
                v.me = Some(*p);
                let far = Budget::new(
                    Instant::now() + std::time::Duration::from_secs(3600),
                    CancelFlag::new(),
                );
                orders.extend(dumb.orders(&v, far));
            }
            out.push(orders);
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

/// Value of the position after a movement phase, for `me`.
pub fn evaluate(
    map: &Map,
    me: Power,
    season: Season,
    after: &[Unit],
    dislodged: &[Unit],
    owners: &HashMap<Province, Power>,
) -> i64 {
    let b = Board::from_parts(map, me, season, after, owners, 20);
    let mut v = 0i64;
    let mut fall_centres = 0usize;
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
                    v += 1000;
                    fall_centres += 1;
                }
            }
            _ => match occ {
                Some(u) if u.power == me => v += if own { 1000 } else { 800 },
                Some(_) => {
                    if own {
                        v += 200;
                    }
                }
                None => {
                    if own {
                        v += 1000;
                        if b.enemies_reaching(p) > 0 {
                            v -= 150;
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
        v += b.utility(u.kind, u.location) * 3 / 10;
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
                    evaluate(map, me, season, &out.units, &dis, owners)
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
    let targets: Vec<Location> = match unit.kind {
        UnitType::Army => map
            .army_neighbours(unit.location.province)
            .iter()
            .map(|p| Location::new(*p))
            .collect(),
        UnitType::Fleet => map.fleet_neighbours(unit.location).to_vec(),
    };
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
                    evaluate(map, me, season, &out.units, &dis, owners)
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
mod tests {
    use super::*;
    use crate::diplomacy::game::standard_opening;
    use crate::diplomacy::phases::initial_ownership;
    use rand::SeedableRng;

    /// An English army and fleet, the convoy tests' pieces.
    fn english_army_and_fleet(map: &Map, army_at: &str, fleet_at: &str) -> (Unit, Unit) {
        let eng = map.power("ENG").unwrap();
        let unit = |kind, at: &str| Unit {
            power: eng,
            kind,
            location: Location::new(map.province(at).unwrap()),
        };
        (
            unit(UnitType::Army, army_at),
            unit(UnitType::Fleet, fleet_at),
        )
    }

    #[test]
    fn convoys_to_any_coast_only_when_asked() {
        let map = Map::standard();
        let owners = initial_ownership(&map);
        let p = |n: &str| map.province(n).unwrap();
        let (army, fleet) = english_army_and_fleet(&map, "WAL", "ECH");
        let units = vec![army, fleet];
        let b = Board::from_parts(&map, army.power, Season::Spring, &units, &owners, 20);
        let base = [Order::Hold(army), Order::Hold(fleet)];
        let to_pic = |vs: &[Vec<Order>]| {
            vs.iter().any(|v| {
                v.iter().any(
                    |o| matches!(o, Order::Move { to, via: Some(_), .. } if to.province == p("PIC")),
                )
            })
        };
        assert!(!to_pic(&convoy_variants(&b, &base, false)));
        let any = convoy_variants(&b, &base, true);
        assert!(to_pic(&any));
        for v in &any {
            assert!(adjudicate_movement(&map, &units, v, Rules::default()).is_ok());
        }
    }

    #[test]
    fn consistency_rejects_own_bounces_and_swaps() {
        let map = Map::standard();
        let p = |n: &str| map.province(n).unwrap();
        let fra = map.power("FRA").unwrap();
        let a = |n: &str| Unit {
            power: fra,
            kind: UnitType::Army,
            location: Location::new(p(n)),
        };
        let mv = |u: Unit, n: &str| Order::Move {
            unit: u,
            to: Location::new(p(n)),
            via: None,
        };
        assert!(!consistent(&[mv(a("MAR"), "GAS"), mv(a("PAR"), "GAS")]));
        assert!(!consistent(&[mv(a("MAR"), "PAR"), Order::Hold(a("PAR"))]));
        assert!(!consistent(&[mv(a("BUR"), "PAR"), mv(a("PAR"), "BUR")]));
        assert!(consistent(&[mv(a("BUR"), "PAR"), mv(a("PAR"), "GAS")]));
    }

    #[test]
    fn samples_order_only_enemy_units_once() {
        let map = Map::standard();
        let units = standard_opening(&map);
        let owners = initial_ownership(&map);
        let tur = map.power("TUR").unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let s = sample_opponents(&map, tur, Season::Spring, &units, &owners, 5, &mut rng);
        assert_eq!(s.len(), 5);
        for orders in &s {
            assert_eq!(orders.len(), 19);
            assert!(orders.iter().all(|o| o.power() != tur));
        }
    }

    #[test]
    fn mixed_samples_take_the_dumbbot_share_and_are_seeded() {
        use crate::diplomacy::game::Game;
        use crate::diplomacy::model::Phase;
        let map = Map::standard();
        let units = standard_opening(&map);
        let g = Game::new(
            map.clone(),
            Phase {
                year: 1901,
                season: Season::Spring,
            },
            units,
            Rules::default(),
        )
        .unwrap();
        let tur = map.power("TUR").unwrap();
        let view = g.view(Some(tur));
        let draw = |share: f64, seed: u64| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            mixed_samples(&view, tur, 8, share, &mut rng)
        };
        for share in [0.0, 0.5, 1.0] {
            let s = draw(share, 3);
            assert_eq!(s.len(), 8);
            for orders in &s {
                assert_eq!(orders.len(), 19, "share {share}");
                assert!(orders.iter().all(|o| o.power() != tur));
            }
            assert_eq!(s, draw(share, 3), "seeded");
        }
        // The two opponent models give different samples.
        assert_ne!(draw(0.0, 3), draw(1.0, 3));
    }

    #[test]
    fn evaluation_prefers_taking_a_centre() {
        let map = Map::standard();
        let units = standard_opening(&map);
        let owners = initial_ownership(&map);
        let tur = map.power("TUR").unwrap();
        let base = evaluate(&map, tur, Season::Fall, &units, &[], &owners);
        let mut moved = units.clone();
        for u in moved.iter_mut() {
            if map.name(u.location.province) == "CON" {
                u.location = Location::new(map.province("BUL").unwrap());
            }
        }
        let more = evaluate(&map, tur, Season::Fall, &moved, &[], &owners);
        assert!(more > base + 500);
    }

    #[test]
    fn convoy_variant_is_legal_for_the_adjudicator() {
        let map = Map::standard();
        let owners = initial_ownership(&map);
        let p = |n: &str| map.province(n).unwrap();
        let (army, fleet) = english_army_and_fleet(&map, "YOR", "NTH");
        let units = vec![army, fleet];
        let b = Board::from_parts(&map, army.power, Season::Spring, &units, &owners, 20);
        let vs = convoy_variants(&b, &[Order::Hold(army), Order::Hold(fleet)], false);
        assert!(!vs.is_empty());
        let nwy = vs
            .iter()
            .find(|v| {
                v.iter()
                    .any(|o| matches!(o, Order::Move { to, .. } if to.province == p("NWY")))
            })
            .expect("a convoy to NWY");
        let out = adjudicate_movement(&map, &units, nwy, Rules::default()).unwrap();
        assert!(out.units.iter().any(|u| u.location.province == p("NWY")));
    }
}
