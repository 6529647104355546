//! The opponent model: samples of enemy orders from a seeded DumbBot and from the
//! utility-driven model, mixed by `dumbbot_sample_share` (see the parent module's doc).

use rand::Rng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::time::Instant;

use crate::bots::DumbBot;
use crate::bots::jic::agent::{Board, actions};
use crate::diplomacy::GameView;
use crate::diplomacy::map::Map;
use crate::diplomacy::model::{Location, Order, Power, Province, Season, Unit};

/// An enemy unit with its actions and their sampling weights.
pub(super) type WeightedUnit = (Unit, Vec<(Location, f64)>);

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
        per_power.insert(*pw, weighted_units(&b));
    }
    let position = Position {
        map,
        me,
        units,
        owners,
    };
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut orders = Vec::new();
        for pw in &powers {
            let picks = position.destinations(*pw, &per_power[pw], rng);
            position.add_orders(&picks, &mut orders, rng);
        }
        out.push(orders);
    }
    out
}

/// Each of the board's own units with its actions, weighted by the square of their utility
/// (holding counts half as much again).
fn weighted_units(b: &Board) -> Vec<WeightedUnit> {
    b.mine
        .iter()
        .map(|u| {
            let acts = actions(b, u)
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
        .collect()
}

/// The position the opponents are sampled in, seen by `me`.
struct Position<'a> {
    map: &'a Map,
    me: Power,
    units: &'a [Unit],
    owners: &'a HashMap<Province, Power>,
}

impl Position<'_> {
    /// Whether one of our units can reach `p`.
    fn we_reach(&self, p: Province) -> bool {
        self.units
            .iter()
            .any(|x| x.power == self.me && self.map.can_reach_province(x.kind, x.location, p))
    }

    /// Whether one of our units stands in `p`.
    fn occupied_by_me(&self, p: Province) -> bool {
        self.units
            .iter()
            .any(|u| u.power == self.me && u.location.province == p)
    }

    /// A destination for each of `pw`'s units (`list`), drawn by weight; two units never pick
    /// the same province (the later one holds).
    fn destinations(
        &self,
        pw: Power,
        list: &[WeightedUnit],
        rng: &mut Xoshiro256PlusPlus,
    ) -> Vec<(Unit, Location)> {
        let mut picks: Vec<(Unit, Location)> = Vec::new();
        for (u, acts) in list {
            // A unit on a centre its power owns, next to one of our
            // units, usually stays to defend it.
            let threatened = self.owners.get(&u.location.province) == Some(&pw)
                && self.we_reach(u.location.province);
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
        picks
    }

    /// The orders of one power's `picks`: moves, and holding units often support a
    /// threatened holding neighbour or an attack on one of our units instead.
    fn add_orders(
        &self,
        picks: &[(Unit, Location)],
        orders: &mut Vec<Order>,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let map = self.map;
        // Supports of attacks on our units.
        let attacks: Vec<(Unit, Province)> = picks
            .iter()
            .filter(|(u, d)| d.province != u.location.province && self.occupied_by_me(d.province))
            .map(|(u, d)| (*u, d.province))
            .collect();
        // Holding units next to one of our units, for support-holds.
        let threatened_holds: Vec<Unit> = picks
            .iter()
            .filter(|(u, d)| {
                d.province == u.location.province && self.we_reach(u.location.province)
            })
            .map(|(u, _)| *u)
            .collect();
        for (u, d) in picks {
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
}
