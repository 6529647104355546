//! DumbBot, after David Norman's published algorithm (AiClient DumbBot,
//! release 8, 2002), written from its description: power size
//! `c² + 4c + 16` (the original +1 square coefficient), attack/defence values
//! per province, proximity spread over 10 levels, strength and competition,
//! seasonal destination values, a stochastic walk down the ranked
//! destinations, supports for own units, retreats, builds and removals.
//!
//! Faithful details kept on purpose:
//! - values live on "coasts": (province, army), (province, fleet) and
//!   (province, named coast); adjacency per coast; 64-bit integer arithmetic
//!   with truncating division;
//! - candidate lists are keyed by value, so equal values collapse (insertion
//!   keeps the first, the removal list keeps the last);
//! - ties therefore fall in the original's iteration order, which is DAIDE
//!   token order ([`Map::token_rank`]): adjacent coasts and retreat options
//!   by province token number, then army, fleet and named coasts (AiClient's
//!   `COAST_ID::operator<` over `std::set`); own units, dislodged units and
//!   open home centres by province token number (`std::set` of province
//!   numbers), the coasts of a build site in the same coast order;
//! - the walk moves to the next candidate when `rand%100 < 50` and
//!   `rand%100 >= (cur − next)·500/cur`;
//! - units are ordered in a random order (keys drawn in `0..32767`, MSVC's
//!   `RAND_MAX`, highest first); a unit whose target holds an unordered own
//!   unit is re-queued right after that unit (key − 1) — a key below zero
//!   stops the re-queueing;
//! - holds that could support a needy neighbour become supports ("wasted
//!   holds"); DumbBot never convoys.
//!
//! Deviations (guards only): the re-queue loop is capped (then the unit
//! holds), and a removal list emptied by collapsed keys falls back to the
//! lowest-valued units left, so the order set is always complete.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::util::{my_units, open_home_centres};
use crate::budget::Budget;
use crate::diplomacy::{
    Coast, GameView, Location, Map, Order, PhaseKind, Player, Power, Province, ProvinceKind,
    Season, Unit, UnitType,
};

/// Proximity levels.
const DEPTH: usize = 10;
/// Spring attack / defence weights of proximity[0] (also used in winter).
const SPRING_AD: (i64, i64) = (700, 300);
/// Fall attack / defence weights.
const FALL_AD: (i64, i64) = (600, 400);
/// Proximity weights of spring moves and retreats.
const SPRING_PROX: [i64; DEPTH] = [100, 1000, 30, 10, 6, 5, 4, 3, 2, 1];
/// Proximity weights of fall moves and retreats.
const FALL_PROX: [i64; DEPTH] = [1000, 100, 30, 10, 6, 5, 4, 3, 2, 1];
/// Proximity weights of builds and removals.
const WINTER_PROX: [i64; DEPTH] = [1000, 100, 30, 10, 6, 5, 4, 3, 2, 1];
/// Weight of own strength next to a province.
const STRENGTH_WEIGHT: i64 = 1000;
/// Weight of the strongest competitor next to a province.
const COMPETITION_WEIGHT: i64 = 1000;
/// Weight of the defence value in builds and removals.
const WINTER_DEFENCE_WEIGHT: i64 = 1000;
/// Percentage chance of considering the next-best candidate.
const PLAY_ALTERNATIVE: i64 = 50;
/// Scales how a close second keeps the walk going.
const ALTERNATIVE_DIFFERENCE_MODIFIER: i64 = 500;
/// Power size `A·c² + B·c + C` (David Norman's constants).
const SIZE: (i64, i64, i64) = (1, 4, 16);
/// Random unit-order keys are drawn in `0..RAND_MAX` (MSVC).
const RAND_MAX: i64 = 32767;
/// Guard on the movement re-queue loop.
const MAX_STEPS: usize = 100_000;

/// What a node is in its province. The derived order is the DAIDE token
/// order: army (`AMY`), fleet (`FLT`), then the coasts `NCS` … `NWC` in
/// [`Coast`]'s declaration order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Spot {
    Army,
    Fleet,
    Coast(Coast),
}

/// A "coast" in DumbBot's sense: where one kind of unit stands in a province.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Node {
    province: Province,
    spot: Spot,
}

impl Node {
    fn of(kind: UnitType, l: Location) -> Node {
        let spot = match (kind, l.coast) {
            (UnitType::Army, _) => Spot::Army,
            (UnitType::Fleet, None) => Spot::Fleet,
            (UnitType::Fleet, Some(c)) => Spot::Coast(c),
        };
        Node {
            province: l.province,
            spot,
        }
    }

    fn location(self) -> Location {
        match self.spot {
            Spot::Coast(c) => Location::with_coast(self.province, c),
            _ => Location::new(self.province),
        }
    }

    fn unit_type(self) -> UnitType {
        match self.spot {
            Spot::Army => UnitType::Army,
            _ => UnitType::Fleet,
        }
    }
}

/// The coast graph of one map, built once per map.
#[derive(Debug)]
struct Graph {
    map: Arc<Map>,
    nodes: Vec<Node>,
    index: HashMap<Node, usize>,
    /// Adjacent nodes of each node, in node order.
    adj: Vec<Vec<usize>>,
    /// Nodes of each province.
    province_nodes: Vec<Vec<usize>>,
    /// Provinces adjacent to each province through any of its nodes.
    adjacent_provinces: Vec<Vec<Province>>,
}

impl Graph {
    fn new(map: Arc<Map>) -> Graph {
        let mut nodes = Vec::new();
        for (p, info) in map.provinces() {
            let node = |spot| Node { province: p, spot };
            match info.kind {
                ProvinceKind::Inland => nodes.push(node(Spot::Army)),
                ProvinceKind::Sea => nodes.push(node(Spot::Fleet)),
                ProvinceKind::Coastal => {
                    nodes.push(node(Spot::Army));
                    nodes.push(node(Spot::Fleet));
                }
                ProvinceKind::Bicoastal => {
                    nodes.push(node(Spot::Army));
                    let mut coasts = info.coasts.clone();
                    coasts.sort();
                    nodes.extend(coasts.into_iter().map(|c| node(Spot::Coast(c))));
                }
            }
        }
        // The original's coast order (its `COAST_ID` ordering): provinces by
        // token number, then army, fleet and the named coasts in token order.
        nodes.sort_by_key(|n| (map.token_rank(n.province), n.spot));
        let index: HashMap<Node, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let mut adj = Vec::with_capacity(nodes.len());
        for n in &nodes {
            let mut list: Vec<usize> = match n.spot {
                Spot::Army => map
                    .army_neighbours(n.province)
                    .iter()
                    .filter_map(|p| {
                        index
                            .get(&Node {
                                province: *p,
                                spot: Spot::Army,
                            })
                            .copied()
                    })
                    .collect(),
                _ => map
                    .fleet_neighbours(n.location())
                    .iter()
                    .filter_map(|l| index.get(&Node::of(UnitType::Fleet, *l)).copied())
                    .collect(),
            };
            list.sort();
            list.dedup();
            adj.push(list);
        }
        let np = map.province_count();
        let mut province_nodes = vec![Vec::new(); np];
        let mut adjacent_provinces: Vec<Vec<Province>> = vec![Vec::new(); np];
        for (i, n) in nodes.iter().enumerate() {
            let p = n.province.0 as usize;
            if p < np {
                province_nodes[p].push(i);
                adjacent_provinces[p].extend(adj[i].iter().map(|j| nodes[*j].province));
            }
        }
        for list in &mut adjacent_provinces {
            list.sort();
            list.dedup();
        }
        Graph {
            map,
            nodes,
            index,
            adj,
            province_nodes,
            adjacent_provinces,
        }
    }

    fn node_of(&self, u: &Unit) -> Option<usize> {
        self.index.get(&Node::of(u.kind, u.location)).copied()
    }

    /// `me`'s units in token order of their provinces (the original keeps
    /// its units in a set of province numbers).
    fn my_units(&self, view: &GameView, me: Power) -> Vec<Unit> {
        let mut units = my_units(view, me);
        units.sort_by_key(|u| self.map.token_rank(u.location.province));
        units
    }
}

/// Everything DumbBot computes for one phase.
#[derive(Debug)]
struct Values {
    /// Destination value per node.
    value: Vec<i64>,
    /// Competition per province.
    competition: Vec<i64>,
}

/// Power sizes, indexed by power; the last entry is the neutral pseudo-power.
fn power_sizes(view: &GameView) -> Vec<i64> {
    let n = view.map.power_count();
    let mut count = vec![0i64; n + 1];
    for p in view.map.supply_centres() {
        let i = match view.owners.get(&p) {
            Some(o) if (o.0 as usize) < n => o.0 as usize,
            _ => n,
        };
        count[i] += 1;
    }
    let (a, b, c) = SIZE;
    count.iter().map(|x| a * x * x + b * x + c).collect()
}

fn evaluate(g: &Graph, view: &GameView, me: Power) -> Values {
    let season = view.phase.season;
    let (attack, defence) = centre_values(g, view, me);
    let prox = proximity(g, &attack, &defence, season);
    let (strength, competition) = strength_and_competition(g, view, me);
    let nn = g.nodes.len();
    let mut value = vec![0i64; nn];
    for (i, n) in g.nodes.iter().enumerate() {
        let pi = n.province.0 as usize;
        value[i] = match season.kind() {
            PhaseKind::Adjustment => {
                (0..DEPTH).map(|k| prox[k][i] * WINTER_PROX[k]).sum::<i64>()
                    + WINTER_DEFENCE_WEIGHT * defence[pi]
            }
            _ => {
                let w = match season {
                    Season::Fall | Season::Autumn => &FALL_PROX,
                    _ => &SPRING_PROX,
                };
                (0..DEPTH).map(|k| prox[k][i] * w[k]).sum::<i64>() + STRENGTH_WEIGHT * strength[pi]
                    - COMPETITION_WEIGHT * competition[pi]
            }
        };
    }
    Values { value, competition }
}

/// Attack and defence values per province: an enemy or neutral centre is worth its owner's
/// size to attack; an own centre is worth the size of the largest enemy able to move in.
fn centre_values(g: &Graph, view: &GameView, me: Power) -> (Vec<i64>, Vec<i64>) {
    let map = &g.map;
    let np = map.province_count();
    let n_powers = map.power_count();
    let size = power_sizes(view);
    let unit_at: HashMap<Province, &Unit> = view
        .units
        .iter()
        .map(|u| (u.location.province, u))
        .collect();

    let mut attack = vec![0i64; np];
    let mut defence = vec![0i64; np];
    for (p, info) in map.provinces() {
        if !info.supply_centre {
            continue;
        }
        let pi = p.0 as usize;
        match view.owners.get(&p) {
            Some(o) if *o == me => {
                // The largest enemy with a unit able to move in.
                let mut d = 0i64;
                for q in &g.adjacent_provinces[pi] {
                    let Some(u) = unit_at.get(q) else { continue };
                    let s = size.get(u.power.0 as usize).copied().unwrap_or(0);
                    if u.power == me || s <= d {
                        continue;
                    }
                    let reaches = g
                        .node_of(u)
                        .is_some_and(|ni| g.adj[ni].iter().any(|j| g.nodes[*j].province == p));
                    if reaches {
                        d = s;
                    }
                }
                defence[pi] = d;
            }
            owner => {
                let i = match owner {
                    Some(o) if (o.0 as usize) < n_powers => o.0 as usize,
                    _ => n_powers,
                };
                attack[pi] = size[i];
            }
        }
    }
    (attack, defence)
}

/// Proximity per node and depth: level 0 weighs attack and defence for the season, each
/// further level spreads the previous one over the neighbours (one coast per province).
fn proximity(g: &Graph, attack: &[i64], defence: &[i64], season: Season) -> Vec<Vec<i64>> {
    let (attack_w, defence_w) = match season {
        Season::Fall | Season::Autumn => FALL_AD,
        _ => SPRING_AD,
    };
    let nn = g.nodes.len();
    let mut prox = vec![vec![0i64; nn]; DEPTH];
    for (i, n) in g.nodes.iter().enumerate() {
        let pi = n.province.0 as usize;
        prox[0][i] = attack[pi] * attack_w + defence[pi] * defence_w;
    }
    for level in 1..DEPTH {
        let (done, rest) = prox.split_at_mut(level);
        let prev = &done[level - 1];
        let cur = &mut rest[0];
        for i in 0..nn {
            let mut sum = 0i64;
            let mut last: Option<(Province, i64)> = None;
            for &j in &g.adj[i] {
                let v = prev[j];
                let p = g.nodes[j].province;
                match last {
                    // Several coasts of one province: only the best counts.
                    Some((lp, lv)) if lp == p => {
                        if v > lv {
                            sum += v - lv;
                            last = Some((p, v));
                        }
                    }
                    _ => {
                        sum += v;
                        last = Some((p, v));
                    }
                }
            }
            cur[i] = (sum + prev[i]) / 5;
        }
    }
    prox
}

/// Per province: how many own units are next to it (strength) and the most units of any
/// one other power (competition).
fn strength_and_competition(g: &Graph, view: &GameView, me: Power) -> (Vec<i64>, Vec<i64>) {
    let np = g.map.province_count();
    let n_powers = g.map.power_count();
    // Units next to each province, per power (a unit counts for its own
    // province and once per adjacent coast).
    let mut count = vec![vec![0i64; n_powers]; np];
    for u in &view.units {
        let Some(ni) = g.node_of(u) else { continue };
        let pw = u.power.0 as usize;
        if pw >= n_powers {
            continue;
        }
        for &j in &g.adj[ni] {
            count[g.nodes[j].province.0 as usize][pw] += 1;
        }
        if let Some(row) = count.get_mut(u.location.province.0 as usize) {
            row[pw] += 1;
        }
    }
    let mut strength = vec![0i64; np];
    let mut competition = vec![0i64; np];
    for p in 0..np {
        for (pw, c) in count[p].iter().enumerate() {
            if pw == me.0 as usize {
                strength[p] = *c;
            } else if *c > competition[p] {
                competition[p] = *c;
            }
        }
    }
    (strength, competition)
}

/// Candidates keyed by value, best first, one per value.
#[derive(Debug)]
struct Ranked<T> {
    items: Vec<(i64, T)>,
}

impl<T: Copy> Ranked<T> {
    fn new() -> Self {
        Ranked { items: Vec::new() }
    }
    /// Inserts unless the value is taken (the first candidate keeps it).
    fn insert(&mut self, value: i64, item: T) {
        match self.items.binary_search_by(|(v, _)| value.cmp(v)) {
            Ok(_) => {}
            Err(pos) => self.items.insert(pos, (value, item)),
        }
    }
    /// Inserts, replacing a candidate with the same value (the last one keeps it).
    fn assign(&mut self, value: i64, item: T) {
        match self.items.binary_search_by(|(v, _)| value.cmp(v)) {
            Ok(pos) => self.items[pos] = (value, item),
            Err(pos) => self.items.insert(pos, (value, item)),
        }
    }
}

/// Draws in `0..n`.
fn rand_no(rng: &mut Xoshiro256PlusPlus, n: i64) -> i64 {
    rng.gen_range(0..n)
}

/// Whether the walk moves on from a candidate worth `cur` to one worth `next`.
fn take_next(rng: &mut Xoshiro256PlusPlus, cur: i64, next: i64) -> bool {
    let chance = if cur == 0 {
        0
    } else {
        (cur - next) * ALTERNATIVE_DIFFERENCE_MODIFIER / cur
    };
    rand_no(rng, 100) < PLAY_ALTERNATIVE && rand_no(rng, 100) >= chance
}

/// The stochastic walk from the best candidate down the list; returns an index.
fn walk_down<T>(rng: &mut Xoshiro256PlusPlus, items: &[(i64, T)]) -> usize {
    let mut cur = 0;
    while cur + 1 < items.len() && take_next(rng, items[cur].0, items[cur + 1].0) {
        cur += 1;
    }
    cur
}

/// A movement-phase decision, by province of the ordered unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    Hold,
    Move(usize),
    SupportHold(Province),
    SupportMove { from: Province, to: Province },
}

/// David Norman's DumbBot. Seeded.
#[derive(Debug)]
pub struct DumbBot {
    rng: Xoshiro256PlusPlus,
    graph: Option<Graph>,
}

impl DumbBot {
    /// A DumbBot drawing from `seed`.
    pub fn new(seed: u64) -> Self {
        DumbBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            graph: None,
        }
    }

    /// Restarts the random draws from `seed`, as [`DumbBot::new`] would,
    /// keeping the cached coast graph.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    /// DumbBot's orders for `me` in `view`, whoever `view.me` is (for
    /// sampling other powers' replies).
    pub fn orders_as(&mut self, view: &GameView, me: Power) -> Vec<Order> {
        // The coast graph is cached per map (taken out of self while the RNG is used).
        let graph = match self.graph.take() {
            Some(g) if Arc::ptr_eq(&g.map, &view.map) => g,
            _ => Graph::new(Arc::clone(&view.map)),
        };
        let values = evaluate(&graph, view, me);
        let orders = match view.phase.season.kind() {
            PhaseKind::Movement => movement(&mut self.rng, &graph, &values, view, me),
            PhaseKind::Retreat => retreats(&mut self.rng, &graph, &values, view, me),
            PhaseKind::Adjustment => {
                let delta = view.adjustment(me);
                if delta > 0 {
                    builds(&mut self.rng, &graph, &values, view, me, delta as usize)
                } else if delta < 0 {
                    removals(
                        &mut self.rng,
                        &graph,
                        &values,
                        view,
                        me,
                        delta.unsigned_abs() as usize,
                    )
                } else {
                    Vec::new()
                }
            }
        };
        self.graph = Some(graph);
        orders
    }

    /// Units in a random order: keys drawn in `0..RAND_MAX`, highest first
    /// (equal keys keep insertion order).
    fn random_queue(rng: &mut Xoshiro256PlusPlus, provinces: &[Province]) -> Vec<(i64, Province)> {
        let mut q: Vec<(i64, Province)> = Vec::new();
        for p in provinces {
            let key = rand_no(rng, RAND_MAX);
            queue_insert(&mut q, key, *p);
        }
        q
    }
}

/// Inserts into a queue sorted by key, highest first, after equal keys.
fn queue_insert(q: &mut Vec<(i64, Province)>, key: i64, p: Province) {
    let pos = q.iter().position(|(k, _)| *k < key).unwrap_or(q.len());
    q.insert(pos, (key, p));
}

impl Player for DumbBot {
    fn orders(&mut self, view: &GameView, _budget: Budget) -> Vec<Order> {
        match view.me {
            Some(me) => self.orders_as(view, me),
            None => Vec::new(),
        }
    }
}

fn movement(
    rng: &mut Xoshiro256PlusPlus,
    g: &Graph,
    vals: &Values,
    view: &GameView,
    me: Power,
) -> Vec<Order> {
    let mine = g.my_units(view, me);
    let by_prov: BTreeMap<Province, Unit> =
        mine.iter().map(|u| (u.location.province, *u)).collect();
    let provinces: Vec<Province> = mine.iter().map(|u| u.location.province).collect();
    let mut queue = DumbBot::random_queue(rng, &provinces);
    let mut decided: HashMap<Province, Decision> = HashMap::new();
    // Destination province → province of the own unit moving there.
    let mut moving: BTreeMap<Province, Province> = BTreeMap::new();
    let competition = |p: Province| vals.competition.get(p.0 as usize).copied().unwrap_or(0);
    let mut steps = 0usize;

    while let Some(&(_, prov)) = queue.first() {
        steps += 1;
        let Some(unit) = by_prov.get(&prov) else {
            queue.remove(0);
            continue;
        };
        let Some(own) = g.node_of(unit) else {
            decided.insert(prov, Decision::Hold);
            queue.remove(0);
            continue;
        };
        if steps > MAX_STEPS {
            decided.entry(prov).or_insert(Decision::Hold);
            queue.remove(0);
            continue;
        }
        let mut cands = ranked_targets(g, vals, own);

        loop {
            if cands.items.is_empty() {
                decided.insert(prov, Decision::Hold);
                break;
            }
            let idx = walk_down(rng, &cands.items);
            let target = cands.items[idx].1;
            let tp = g.nodes[target].province;
            if tp == prov {
                decided.insert(prov, Decision::Hold);
                break;
            }
            let mut ok = true;
            let mut removed = false;
            let mut to_move = true;
            if by_prov.contains_key(&tp) {
                match decided.get(&tp) {
                    None => {
                        // Wait for the unit there: re-queue right after it.
                        if requeue_behind(&mut queue, tp, prov) {
                            to_move = false;
                        }
                    }
                    Some(Decision::Move(_)) => {}
                    Some(_) => {
                        if competition(tp) > 1 {
                            decided.insert(prov, Decision::SupportHold(tp));
                            to_move = false;
                        } else {
                            ok = false;
                            cands.items.remove(idx);
                            removed = true;
                        }
                    }
                }
            }
            if let Some(&from) = moving.get(&tp) {
                if competition(tp) > 0 {
                    decided.insert(prov, Decision::SupportMove { from, to: tp });
                    to_move = false;
                } else {
                    ok = false;
                    if !removed {
                        cands.items.remove(idx);
                    }
                }
            }
            if ok && to_move {
                decided.insert(prov, Decision::Move(target));
                moving.insert(tp, prov);
            }
            if ok {
                break;
            }
        }
        queue.remove(0);
    }

    support_from_holds(g, vals, &mine, &by_prov, &moving, &mut decided);
    orders_of(g, &by_prov, &decided)
}

/// The nodes a unit at node `own` may target, by value; holding gets a bonus of one.
fn ranked_targets(g: &Graph, vals: &Values, own: usize) -> Ranked<usize> {
    let mut cands: Ranked<usize> = Ranked::new();
    for &j in &g.adj[own] {
        cands.insert(vals.value[j], j);
    }
    cands.insert(vals.value[own] + 1, own);
    cands
}

/// Re-queues `prov` right behind the last queued entry of `ahead`; false if `ahead` is not
/// queued with a non-negative key.
fn requeue_behind(queue: &mut Vec<(i64, Province)>, ahead: Province, prov: Province) -> bool {
    let key = queue
        .iter()
        .rev()
        .find(|(_, p)| *p == ahead)
        .map(|(k, _)| *k);
    match key {
        Some(k) if k >= 0 => {
            queue_insert(queue, k - 1, prov);
            true
        }
        _ => false,
    }
}

/// Wasted holds: a holding unit supports the most valuable needy neighbour instead (a move
/// into a contested province, or a unit holding where more than one enemy can strike).
fn support_from_holds(
    g: &Graph,
    vals: &Values,
    mine: &[Unit],
    by_prov: &BTreeMap<Province, Unit>,
    moving: &BTreeMap<Province, Province>,
    decided: &mut HashMap<Province, Decision>,
) {
    let competition = |p: Province| vals.competition.get(p.0 as usize).copied().unwrap_or(0);
    for unit in mine {
        let prov = &unit.location.province;
        if decided.get(prov) != Some(&Decision::Hold) {
            continue;
        }
        let Some(own) = g.node_of(unit) else { continue };
        let mut best = 0i64;
        let mut choice = None;
        for &j in &g.adj[own] {
            let p = g.nodes[j].province;
            let v = vals.value[j];
            if let Some(&from) = moving.get(&p) {
                if competition(p) > 0 && v > best {
                    best = v;
                    choice = Some(Decision::SupportMove { from, to: p });
                }
            } else if by_prov.contains_key(&p)
                && !matches!(decided.get(&p), Some(Decision::Move(_)))
                && competition(p) > 1
                && v > best
            {
                best = v;
                choice = Some(Decision::SupportHold(p));
            }
        }
        if let Some(d) = choice {
            decided.insert(*prov, d);
        }
    }
}

/// The orders of the decisions taken (a unit without one holds).
fn orders_of(
    g: &Graph,
    by_prov: &BTreeMap<Province, Unit>,
    decided: &HashMap<Province, Decision>,
) -> Vec<Order> {
    by_prov
        .iter()
        .map(|(prov, unit)| {
            let hold = Order::Hold(*unit);
            match decided.get(prov) {
                Some(Decision::Move(t)) => Order::Move {
                    unit: *unit,
                    to: g.nodes[*t].location(),
                    via: None,
                },
                Some(Decision::SupportHold(p)) => match by_prov.get(p) {
                    Some(s) => Order::SupportHold {
                        unit: *unit,
                        supported: *s,
                    },
                    None => hold,
                },
                Some(Decision::SupportMove { from, to }) => match by_prov.get(from) {
                    Some(s) => Order::SupportMove {
                        unit: *unit,
                        supported: *s,
                        to: *to,
                    },
                    None => hold,
                },
                _ => hold,
            }
        })
        .collect()
}

fn retreats(
    rng: &mut Xoshiro256PlusPlus,
    g: &Graph,
    vals: &Values,
    view: &GameView,
    me: Power,
) -> Vec<Order> {
    let mut mine: Vec<_> = view
        .dislodged
        .iter()
        .filter(|d| d.unit.power == me)
        .collect();
    mine.sort_by_key(|d| g.map.token_rank(d.unit.location.province));
    let provinces: Vec<Province> = mine.iter().map(|d| d.unit.location.province).collect();
    let mut queue = DumbBot::random_queue(rng, &provinces);
    let mut taken: Vec<Province> = Vec::new();
    let mut orders = Vec::new();
    while let Some(&(_, prov)) = queue.first() {
        queue.remove(0);
        let Some(d) = mine.iter().find(|d| d.unit.location.province == prov) else {
            continue;
        };
        // Retreat options in node order (the original's `COAST_SET`).
        let mut options: Vec<usize> = d
            .retreats
            .iter()
            .filter_map(|l| g.index.get(&Node::of(d.unit.kind, *l)).copied())
            .collect();
        options.sort_unstable();
        options.dedup();
        let mut cands: Ranked<usize> = Ranked::new();
        for j in options {
            cands.insert(vals.value[j], j);
        }
        let order = loop {
            if cands.items.is_empty() {
                break Order::Disband(d.unit);
            }
            let idx = walk_down(rng, &cands.items);
            let target = cands.items[idx].1;
            let tp = g.nodes[target].province;
            if taken.contains(&tp) {
                cands.items.remove(idx);
                continue;
            }
            taken.push(tp);
            break Order::Retreat {
                unit: d.unit,
                to: g.nodes[target].location(),
            };
        };
        orders.push(order);
    }
    orders
}

fn builds(
    rng: &mut Xoshiro256PlusPlus,
    g: &Graph,
    vals: &Values,
    view: &GameView,
    me: Power,
    count: usize,
) -> Vec<Order> {
    let mut open = open_home_centres(view, me);
    open.sort_by_key(|p| g.map.token_rank(*p));
    let mut cands: Ranked<usize> = Ranked::new();
    for p in open {
        for &i in g.province_nodes.get(p.0 as usize).into_iter().flatten() {
            cands.insert(vals.value[i], i);
        }
    }
    let mut orders = Vec::new();
    while !cands.items.is_empty() && orders.len() < count {
        let idx = walk_down(rng, &cands.items);
        let node = g.nodes[cands.items[idx].1];
        orders.push(Order::Build(Unit {
            power: me,
            kind: node.unit_type(),
            location: node.location(),
        }));
        cands
            .items
            .retain(|(_, i)| g.nodes[*i].province != node.province);
    }
    while orders.len() < count {
        orders.push(Order::Waive(me));
    }
    orders
}

fn removals(
    rng: &mut Xoshiro256PlusPlus,
    g: &Graph,
    vals: &Values,
    view: &GameView,
    me: Power,
    count: usize,
) -> Vec<Order> {
    let mine = g.my_units(view, me);
    let value_of = |u: &Unit| g.node_of(u).map(|i| vals.value[i]).unwrap_or(0);
    let mut cands: Ranked<Unit> = Ranked::new();
    for u in &mine {
        cands.assign(value_of(u), *u);
    }
    let mut removed: Vec<Unit> = Vec::new();
    while removed.len() < count && !cands.items.is_empty() {
        // Walk up from the lowest value.
        let mut cur = cands.items.len() - 1;
        while cur > 0 && take_next(rng, cands.items[cur].0, cands.items[cur - 1].0) {
            cur -= 1;
        }
        removed.push(cands.items.remove(cur).1);
    }
    // Guard: values that collapsed leave units out of the list.
    let mut rest: Vec<Unit> = mine.into_iter().filter(|u| !removed.contains(u)).collect();
    rest.sort_by_key(value_of);
    for u in rest {
        if removed.len() >= count {
            break;
        }
        removed.push(u);
    }
    removed.into_iter().map(Order::Remove).collect()
}

/// Power sizes as DumbBot computes them (tests only).
#[cfg(test)]
pub(crate) fn power_sizes_for_tests(view: &GameView) -> Vec<i64> {
    power_sizes(view)
}

#[cfg(test)]
mod tests;
