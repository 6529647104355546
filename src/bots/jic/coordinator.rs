//! The JIC coordinator (thesis §4.3): combines the unit agents' plans into one
//! joint action. Four modes: exhaustive search (≤ `full_search_max_units`
//! units), search partitioned by plan type (partitions of ≤
//! `partition_max_units` units, solved in plan-type order, earlier partitions
//! fixed as context), greedy with conflict repair (the anytime incumbent and
//! the fallback), and deadlock repair (see [`super::JicBot`]).
//!
//! Support generation: a unit's plan may be replaced by a support of another
//! unit's move or hold (in the search, a unit may support any unit ordered
//! before it; units are ordered by decreasing value so supporters come late;
//! a final pass tries every support swap). Constraints: no two own units
//! into one province; no own unit into a province of an own unit that stays;
//! no swap of two own units; supports only where the supporter can reach and
//! only of an order in the combination.
//!
//! Coordinated utility (tablero's formula; the thesis's is lost):
//! `J = Σ_orders 2^(10 − type)·[U·p(1,e) + min(cap, U·(p(s,e) − p(1,e)))]`,
//! where `U` is the plan utility, `type` its plan type (so goal-serving plans
//! outweigh "no plan" actions: a plain sum of `U` makes every unit sit on its
//! home centre, whose V = 2 beats the V = 1 of the provinces around it; the
//! doubling per priority level is the "96" reading of the worked example's
//! type score; with the same plan rules it won 37.5 % of 280 games of 3
//! thesis JIC against 4 DumbBot, a linear `11 − type` weight 30.0 % of 140); the fallback hold
//! (not a thesis plan) counts 0,
//! `s` = 1 + supports received, `e` = the plan's enemy count and `p(s,e)` = 1
//! if `s > e`, else `s/(2e)` (a success estimate); supporting units
//! contribute only through the orders they support. Ties: the plan-type
//! score `Σ 2^(10 − type)` (a support counts as the supported type).

use std::time::Instant;

use super::agent::Plan;
use crate::diplomacy::map::Map;
use crate::diplomacy::model::{Order, Province};

/// What one unit does in a joint action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Its plan with this index.
    Plan(usize),
    /// Support the order of the unit with this index.
    Support(usize),
}

/// Parameters of one search.
#[derive(Debug, Clone, Copy)]
pub struct SearchParams {
    /// Support gain cap (hundredths).
    pub support_gain_cap: i64,
    /// How many of the best complete combinations to keep.
    pub keep: usize,
    /// Stop at this instant.
    pub deadline: Instant,
    /// Stop after the first complete combination (greedy).
    pub first_only: bool,
    /// Stop after this many nodes (count budget; `u64::MAX` = none).
    pub max_nodes: u64,
}

/// p(s, e) in thousandths.
pub fn success(s: u32, e: u32) -> i64 {
    if s > e {
        1000
    } else {
        500 * s as i64 / e.max(1) as i64
    }
}

/// Weight of a plan type in the coordinated utility and the plan-type
/// score: `2^(10 − type)` (the worked example's printed type score 96 is
/// Σ 2^(10 − id) over its ids 4, 6, 6).
pub fn type_weight(plan_type: u8) -> i64 {
    1 << (10 - plan_type.clamp(1, 10))
}

/// Value of one order with `s` = 1 + supports.
fn order_value(plan: &Plan, s: u32, cap: i64) -> i64 {
    if plan.fallback {
        return 0;
    }
    let base = plan.utility * success(1, plan.enemies) / 1000;
    let full = plan.utility * success(s, plan.enemies) / 1000;
    let w = type_weight(plan.plan_type);
    w * (base + (full - base).clamp(0, cap))
}

/// Upper bound of a plan's value (all its allies support it).
fn plan_bound(plan: &Plan, cap: i64) -> i64 {
    order_value(plan, 1 + plan.allies, cap)
}

/// Coordinated utility and plan-type score of a (partial) joint action.
pub fn score(plans: &[Vec<Plan>], assign: &[Option<Choice>], cap: i64) -> (i64, i64) {
    let mut supports = vec![0u32; assign.len()];
    for c in assign.iter().flatten() {
        if let Choice::Support(j) = c
            && let Some(s) = supports.get_mut(*j)
        {
            *s += 1;
        }
    }
    let mut j = 0;
    let mut t = 0;
    for (i, c) in assign.iter().enumerate() {
        match c {
            Some(Choice::Plan(k)) => {
                let p = &plans[i][*k];
                j += order_value(p, 1 + supports[i], cap);
                t += type_weight(p.plan_type);
            }
            Some(Choice::Support(x)) => {
                if let Some(Choice::Plan(k)) = assign.get(*x).copied().flatten() {
                    t += type_weight(plans[*x][k].plan_type);
                }
            }
            None => {}
        }
    }
    (j, t)
}

/// Where unit `i` ends up under choice `c` (its own province unless it moves).
fn end_province(plans: &[Vec<Plan>], i: usize, c: Choice) -> Province {
    match c {
        Choice::Plan(k) => plans[i][k].dest.province,
        Choice::Support(_) => plans[i][0].unit.location.province,
    }
}

fn origin(plans: &[Vec<Plan>], i: usize) -> Province {
    plans[i][0].unit.location.province
}

/// Whether unit `i` may take `c` given the assigned units (constraints),
/// where units marked `stays` keep their province whatever happens.
pub fn valid(
    map: &Map,
    plans: &[Vec<Plan>],
    assign: &[Option<Choice>],
    stays: &[bool],
    i: usize,
    c: Choice,
) -> bool {
    let here = origin(plans, i);
    let end = end_province(plans, i, c);
    let mv = end != here;
    if let Choice::Support(x) = c {
        let Some(Choice::Plan(k)) = assign.get(x).copied().flatten() else {
            return false;
        };
        if x == i {
            return false;
        }
        let target = plans[x][k].dest.province;
        let u = plans[i][0].unit;
        if target == here || !map.can_reach_province(u.kind, u.location, target) {
            return false;
        }
    }
    for (j, cj) in assign.iter().enumerate() {
        if j == i {
            continue;
        }
        let oj = origin(plans, j);
        match cj {
            Some(cj) => {
                let ej = end_province(plans, j, *cj);
                let mj = ej != oj;
                if mv && ej == end {
                    return false; // two units into one province
                }
                if mv && end == oj && !mj {
                    return false; // into a staying own unit
                }
                if !mv && mj && ej == here {
                    return false; // someone moves into us and we stay
                }
                if mv && mj && end == oj && ej == here {
                    return false; // swap
                }
            }
            None => {
                if stays.get(j).copied().unwrap_or(false) && mv && end == oj {
                    return false;
                }
            }
        }
    }
    true
}

/// Result of a search: the best joint actions found, best first.
#[derive(Debug, Clone, Default)]
pub struct SearchResult {
    /// (J, type score, assignment), best first.
    pub best: Vec<(i64, i64, Vec<Option<Choice>>)>,
    /// Nodes visited.
    pub nodes: u64,
    /// Whether the search ran to completion.
    pub complete: bool,
}

struct Dfs<'a> {
    map: &'a Map,
    plans: &'a [Vec<Plan>],
    stays: &'a [bool],
    order: Vec<usize>,
    bounds: Vec<i64>, // max bound per unit
    params: SearchParams,
    result: SearchResult,
    stop: bool,
}

impl Dfs<'_> {
    fn threshold(&self) -> Option<(i64, i64)> {
        if self.result.best.len() >= self.params.keep.max(1) {
            self.result.best.last().map(|(j, t, _)| (*j, *t))
        } else {
            None
        }
    }

    fn run(&mut self, assign: &mut Vec<Option<Choice>>, depth: usize, partial_bound: i64) {
        if self.stop {
            return;
        }
        self.result.nodes += 1;
        if self.result.nodes >= self.params.max_nodes
            || (self.result.nodes % 32 == 0 && Instant::now() >= self.params.deadline)
        {
            self.stop = true;
            return;
        }
        let rest: i64 = self.order[depth..].iter().map(|&i| self.bounds[i]).sum();
        if let Some((j, _)) = self.threshold()
            && partial_bound + rest < j
        {
            return;
        }
        if depth == self.order.len() {
            let (j, t) = score(self.plans, assign, self.params.support_gain_cap);
            let better = self.threshold().is_none_or(|th| (j, t) > th);
            if better && !self.result.best.iter().any(|(_, _, a)| a == assign) {
                self.result.best.push((j, t, assign.clone()));
                self.result
                    .best
                    .sort_by_key(|b| std::cmp::Reverse((b.0, b.1)));
                self.result.best.truncate(self.params.keep.max(1));
            }
            if self.params.first_only {
                self.stop = true;
            }
            return;
        }
        let i = self.order[depth];
        let n_plans = self.plans[i].len();
        for k in 0..n_plans {
            let c = Choice::Plan(k);
            if valid(self.map, self.plans, assign, self.stays, i, c) {
                assign[i] = Some(c);
                let b = plan_bound(&self.plans[i][k], self.params.support_gain_cap);
                self.run(assign, depth + 1, partial_bound + b);
                assign[i] = None;
                if self.stop {
                    return;
                }
            }
        }
        // Supports of units already assigned whose order can still gain.
        let mut received = vec![0u32; assign.len()];
        for c in assign.iter().flatten() {
            if let Choice::Support(x) = c {
                received[*x] += 1;
            }
        }
        for x in 0..assign.len() {
            let Some(Choice::Plan(k)) = assign[x] else {
                continue;
            };
            if 1 + received[x] > self.plans[x][k].enemies {
                continue; // the support would gain nothing
            }
            let c = Choice::Support(x);
            if valid(self.map, self.plans, assign, self.stays, i, c) {
                assign[i] = Some(c);
                self.run(assign, depth + 1, partial_bound);
                assign[i] = None;
                if self.stop {
                    return;
                }
            }
        }
    }
}

/// Searches the combinations of the plans of the units in `scope`, with the
/// choices in `fixed` as context (units neither in scope nor fixed stay).
pub fn search(
    map: &Map,
    plans: &[Vec<Plan>],
    scope: &[usize],
    fixed: &[Option<Choice>],
    params: SearchParams,
) -> SearchResult {
    let cap = params.support_gain_cap;
    let bounds: Vec<i64> = plans
        .iter()
        .map(|ps| {
            ps.iter()
                .map(|p| plan_bound(p, cap))
                .max()
                .unwrap_or(0)
                .max(0)
        })
        .collect();
    let mut order = scope.to_vec();
    order.sort_by(|a, b| bounds[*b].cmp(&bounds[*a]).then(a.cmp(b)));
    let stays: Vec<bool> = (0..plans.len())
        .map(|i| fixed[i].is_none() && !scope.contains(&i))
        .collect();
    let fixed_bound: i64 = fixed
        .iter()
        .enumerate()
        .map(|(i, c)| match c {
            Some(Choice::Plan(k)) => plan_bound(&plans[i][*k], cap),
            _ => 0,
        })
        .sum();
    let mut dfs = Dfs {
        map,
        plans,
        stays: &stays,
        order,
        bounds,
        params,
        result: SearchResult::default(),
        stop: false,
    };
    let mut assign = fixed.to_vec();
    dfs.run(&mut assign, 0, fixed_bound);
    dfs.result.complete = !dfs.stop || params.first_only;
    dfs.result
}

/// Whether every assigned choice satisfies the constraints.
pub fn all_valid(map: &Map, plans: &[Vec<Plan>], assign: &mut [Option<Choice>]) -> bool {
    let none = vec![false; plans.len()];
    for i in 0..assign.len() {
        let Some(c) = assign[i] else { continue };
        assign[i] = None;
        let ok = valid(map, plans, assign, &none, i, c);
        assign[i] = Some(c);
        if !ok {
            return false;
        }
    }
    true
}

/// Improves a complete joint action by single changes of one unit's choice
/// (to a support or another plan) while (J, type score) rises.
pub fn improve(
    map: &Map,
    plans: &[Vec<Plan>],
    assign: &mut [Option<Choice>],
    movable: &[usize],
    cap: i64,
    deadline: Instant,
) {
    loop {
        let current = score(plans, assign, cap);
        let mut best: Option<((i64, i64), usize, Choice)> = None;
        for &i in movable {
            if Instant::now() >= deadline {
                return;
            }
            let old = assign[i];
            let options = (0..assign.len())
                .map(Choice::Support)
                .chain((0..plans[i].len()).map(Choice::Plan));
            for c in options {
                if Some(c) == old {
                    continue;
                }
                assign[i] = Some(c);
                let s = score(plans, assign, cap);
                if s > current
                    && best.is_none_or(|(b, _, _)| s > b)
                    && all_valid(map, plans, assign)
                {
                    best = Some((s, i, c));
                }
                assign[i] = old;
            }
        }
        match best {
            Some((_, i, c)) => assign[i] = Some(c),
            None => return,
        }
    }
}

/// Orders of a joint action (units without a choice hold).
pub fn to_orders(plans: &[Vec<Plan>], assign: &[Option<Choice>]) -> Vec<Order> {
    let mut out = Vec::with_capacity(plans.len());
    for (i, ps) in plans.iter().enumerate() {
        let Some(first) = ps.first() else { continue };
        let unit = first.unit;
        let o = match assign.get(i).copied().flatten() {
            Some(Choice::Plan(k)) => ps[k].order(),
            Some(Choice::Support(x)) => match assign.get(x).copied().flatten() {
                Some(Choice::Plan(k)) => {
                    let sp = &plans[x][k];
                    if sp.is_hold() {
                        Order::SupportHold {
                            unit,
                            supported: sp.unit,
                        }
                    } else {
                        Order::SupportMove {
                            unit,
                            supported: sp.unit,
                            to: sp.dest.province,
                        }
                    }
                }
                _ => Order::Hold(unit),
            },
            None => Order::Hold(unit),
        };
        out.push(o);
    }
    out
}

/// Partitions for mode 2: units grouped by their primary plan type (the
/// lowest type id among their plans), in type order, chunks of ≤ `max`.
pub fn partitions(plans: &[Vec<Plan>], max: usize) -> Vec<Vec<usize>> {
    let mut by_type: Vec<(u8, usize)> = plans
        .iter()
        .enumerate()
        .map(|(i, ps)| {
            let t = ps
                .iter()
                .filter(|p| !p.fallback)
                .map(|p| p.plan_type)
                .min()
                .unwrap_or(10);
            (t, i)
        })
        .collect();
    by_type.sort();
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut last_type = None;
    for (t, i) in by_type {
        let start_new = last_type != Some(t) || out.last().is_none_or(|v| v.len() >= max.max(1));
        if start_new {
            out.push(Vec::new());
        }
        if let Some(v) = out.last_mut() {
            v.push(i);
        }
        last_type = Some(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::jic::agent::{Board, all_plans};
    use crate::diplomacy::game::standard_opening;
    use crate::diplomacy::model::Season;
    use crate::diplomacy::phases::initial_ownership;
    use std::time::Duration;

    fn params(keep: usize) -> SearchParams {
        SearchParams {
            support_gain_cap: 500,
            keep,
            deadline: Instant::now() + Duration::from_secs(5),
            first_only: false,
            max_nodes: u64::MAX,
        }
    }

    #[test]
    fn success_estimate() {
        assert_eq!(success(1, 0), 1000);
        assert_eq!(success(1, 1), 500);
        assert_eq!(success(2, 1), 1000);
        assert_eq!(success(1, 2), 250);
    }

    /// `power`'s plans (at most 2 no-plan actions) in the standard opening position.
    fn opening_plans(map: &Map, power: crate::diplomacy::Power, season: Season) -> Vec<Vec<Plan>> {
        let units = standard_opening(map);
        let owners = initial_ownership(map);
        let b = Board::from_parts(map, power, season, &units, &owners, 20);
        all_plans(&b, 2)
    }

    #[test]
    fn turkey_opening_search_respects_constraints() {
        let map = Map::standard();
        let plans = opening_plans(&map, map.power("TUR").unwrap(), Season::Spring);
        let scope: Vec<usize> = (0..plans.len()).collect();
        let r = search(&map, &plans, &scope, &vec![None; plans.len()], params(20));
        assert!(r.complete);
        assert!(!r.best.is_empty());
        for (_, _, a) in &r.best {
            let orders = to_orders(&plans, a);
            let mut dests: Vec<Province> = orders
                .iter()
                .filter_map(|o| match o {
                    Order::Move { to, .. } => Some(to.province),
                    _ => None,
                })
                .collect();
            let n = dests.len();
            dests.sort();
            dests.dedup();
            assert_eq!(n, dests.len(), "two own units into one province");
            // Exhaustive: J of the first is the max over the kept ones.
        }
        let (j0, _, a0) = &r.best[0];
        assert!(r.best.iter().all(|(j, _, _)| j <= j0));
        let orders = to_orders(&plans, a0);
        let names: Vec<String> = orders
            .iter()
            .map(|o| match o {
                Order::Move { unit, to, .. } => {
                    format!(
                        "{}-{}",
                        map.name(unit.location.province),
                        map.name(to.province)
                    )
                }
                other => format!("{other:?}"),
            })
            .collect();
        assert!(names.contains(&"CON-BUL".to_string()), "{names:?}");
    }

    #[test]
    fn worked_example_type_score_is_96() {
        // C3 of thesis §4.4: CON→BUL (type 4), SMY→ARM (6), ANK S SMY→ARM
        // (counts as 6): Σ 2^(10 − id) = 64 + 16 + 16 = 96, as printed.
        let map = Map::standard();
        let plans = opening_plans(&map, map.power("TUR").unwrap(), Season::Spring);
        let idx = |from: &str| {
            plans
                .iter()
                .position(|ps| map.name(ps[0].unit.location.province) == from)
                .unwrap()
        };
        let to = |i: usize, dest: &str| {
            plans[i]
                .iter()
                .position(|p| map.name(p.dest.province) == dest)
                .unwrap()
        };
        let (con, smy, ank) = (idx("CON"), idx("SMY"), idx("ANK"));
        let mut c3 = vec![None; plans.len()];
        c3[con] = Some(Choice::Plan(to(con, "BUL")));
        c3[smy] = Some(Choice::Plan(to(smy, "ARM")));
        c3[ank] = Some(Choice::Support(smy));
        assert!(all_valid(&map, &plans, &mut c3));
        assert_eq!(score(&plans, &c3, 500).1, 96);
        // C2 (two own units into ARM) breaks the constraints.
        let mut c2 = c3.clone();
        c2[ank] = Some(Choice::Plan(to(ank, "ARM")));
        assert!(!all_valid(&map, &plans, &mut c2));
        // The search's choice is C1 or C3 (both keep CON→BUL, SMY→ARM).
        let scope: Vec<usize> = (0..plans.len()).collect();
        let r = search(&map, &plans, &scope, &vec![None; plans.len()], params(1));
        let best = &r.best[0].2;
        assert_eq!(best[con], c3[con]);
        assert_eq!(best[smy], c3[smy]);
    }

    #[test]
    fn exhaustive_equals_brute_force_on_small_cases() {
        // Brute force over all plan combinations (no supports) never beats the
        // search's best, which also considers supports.
        let map = Map::standard();
        for (pw, _) in map.powers() {
            let plans = opening_plans(&map, pw, Season::Fall);
            let n = plans.len();
            let scope: Vec<usize> = (0..n).collect();
            let r = search(&map, &plans, &scope, &vec![None; n], params(1));
            let best = r.best[0].0;
            let mut idx = vec![0usize; n];
            let none = vec![false; n];
            loop {
                let mut assign: Vec<Option<Choice>> = vec![None; n];
                let mut ok = true;
                for i in 0..n {
                    if valid(&map, &plans, &assign, &none, i, Choice::Plan(idx[i])) {
                        assign[i] = Some(Choice::Plan(idx[i]));
                    } else {
                        ok = false;
                        break;
                    }
                }
                if ok {
                    assert!(score(&plans, &assign, 500).0 <= best);
                }
                let mut d = 0;
                loop {
                    if d == n {
                        break;
                    }
                    idx[d] += 1;
                    if idx[d] < plans[d].len() {
                        break;
                    }
                    idx[d] = 0;
                    d += 1;
                }
                if d == n {
                    break;
                }
            }
        }
    }

    #[test]
    fn partitions_are_by_type_and_capped() {
        let map = Map::standard();
        let plans = opening_plans(&map, map.power("RUS").unwrap(), Season::Spring);
        let parts = partitions(&plans, 1);
        assert_eq!(parts.len(), plans.len());
        let parts = partitions(&plans, 8);
        let total: usize = parts.iter().map(Vec::len).sum();
        assert_eq!(total, plans.len());
    }
}
