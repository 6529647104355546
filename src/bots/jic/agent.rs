//! JIC unit agents (thesis §4.2): the local game of one unit, its actions
//! (hold + a move to each adjacent province on its own graph), their
//! geographic utility `U = 100·(V(dest) + Σ W(adj))` with the thesis's value
//! tables, ally/enemy counts, plan types 1–7 and 10, and the front-line
//! distance search (Algorithm 2, corrected).
//!
//! Utilities are integers in hundredths (the ×100 of the thesis), so the
//! Spring 1901 Turkey test vector (SMY→ARM 251, ANK→BLA 351, ANK→ARM 226) is
//! exact.

use std::collections::HashSet;

use crate::diplomacy::GameView;
use crate::diplomacy::map::Map;
use crate::diplomacy::model::{Location, Order, Power, Province, Season, Unit, UnitType};

/// Plan type ids of the thesis (lower = higher priority).
pub mod plan_type {
    /// Recover a home centre.
    pub const RECOVER_HOME: u8 = 1;
    /// Recover / keep an own centre in the fall.
    pub const RECOVER_FALL: u8 = 2;
    /// Obtain a centre in the fall.
    pub const OBTAIN: u8 = 3;
    /// Move toward (into) an unowned centre in the spring.
    pub const TOWARD: u8 = 4;
    /// Unblock a unit surrounded by own units.
    pub const UNBLOCK: u8 = 5;
    /// Move to the front line.
    pub const FRONT: u8 = 6;
    /// Attack an adjacent enemy.
    pub const ATTACK: u8 = 7;
    /// No plan.
    pub const NO_PLAN: u8 = 10;
}

/// One power's view of the board, indexed by province.
#[derive(Debug, Clone)]
pub struct Board<'a> {
    /// The map.
    pub map: &'a Map,
    /// The power this board is evaluated for.
    pub me: Power,
    /// Season being ordered.
    pub season: Season,
    /// Unit in each province.
    pub occupant: Vec<Option<Unit>>,
    /// Owner of each supply centre.
    pub owner: Vec<Option<Power>>,
    /// The power's own units.
    pub mine: Vec<Unit>,
    /// Front-distance depth cap.
    pub depth_cap: u32,
}

impl<'a> Board<'a> {
    /// The board of `me` in `view`.
    pub fn new(view: &'a GameView, me: Power, depth_cap: u32) -> Self {
        Self::from_parts(
            &view.map,
            me,
            view.phase.season,
            &view.units,
            &view.owners,
            depth_cap,
        )
    }

    /// The board from its parts.
    pub fn from_parts(
        map: &'a Map,
        me: Power,
        season: Season,
        units: &[Unit],
        owners: &std::collections::HashMap<Province, Power>,
        depth_cap: u32,
    ) -> Self {
        let n = map.province_count();
        let mut occupant = vec![None; n];
        for u in units {
            if let Some(slot) = occupant.get_mut(u.location.province.0 as usize) {
                *slot = Some(*u);
            }
        }
        let mut owner = vec![None; n];
        for (p, w) in owners {
            if let Some(slot) = owner.get_mut(p.0 as usize) {
                *slot = Some(*w);
            }
        }
        let mine = units.iter().filter(|u| u.power == me).copied().collect();
        Board {
            map,
            me,
            season,
            occupant,
            owner,
            mine,
            depth_cap,
        }
    }

    /// The unit in `p`.
    pub fn unit_at(&self, p: Province) -> Option<Unit> {
        self.occupant.get(p.0 as usize).copied().flatten()
    }

    /// Owner of `p` (centres only).
    pub fn owner_of(&self, p: Province) -> Option<Power> {
        self.owner.get(p.0 as usize).copied().flatten()
    }

    /// Whether `p` is a supply centre.
    pub fn is_centre(&self, p: Province) -> bool {
        self.map.info(p).is_some_and(|i| i.supply_centre)
    }

    /// Whether `p` is a home centre of `power`.
    pub fn is_home_of(&self, p: Province, power: Power) -> bool {
        self.map.info(p).is_some_and(|i| i.home_of.contains(&power))
    }

    /// Whether an enemy unit stands in `p`.
    pub fn enemy_at(&self, p: Province) -> bool {
        self.unit_at(p).is_some_and(|u| u.power != self.me)
    }

    /// Whether an own unit stands in `p`.
    pub fn own_at(&self, p: Province) -> bool {
        self.unit_at(p).is_some_and(|u| u.power == self.me)
    }

    /// Cuadro 3: destination value V(dest), in hundredths.
    pub fn dest_value(&self, p: Province) -> i64 {
        if !self.is_centre(p) {
            return 100;
        }
        match self.owner_of(p) {
            None => 250,
            Some(o) if o != self.me && self.is_home_of(p, o) => 250,
            Some(_) => 200,
        }
    }

    /// Cuadro 4: neighbour weight W(p), in hundredths.
    pub fn neighbour_weight(&self, p: Province) -> i64 {
        if !self.is_centre(p) {
            return 1;
        }
        match self.owner_of(p) {
            None => 50,
            Some(o) if o == self.me => 25,
            Some(_) => 100,
        }
    }

    /// Provinces adjacent to `l` on `kind`'s graph, each once.
    pub fn neighbours(&self, kind: UnitType, l: Location) -> Vec<Province> {
        let mut v: Vec<Province> = match kind {
            UnitType::Army => self.map.army_neighbours(l.province).to_vec(),
            UnitType::Fleet => self
                .map
                .fleet_neighbours(l)
                .iter()
                .map(|x| x.province)
                .collect(),
        };
        v.sort();
        v.dedup();
        v
    }

    /// Thesis utility of a unit of `kind` standing at (moving to) `dest`:
    /// V(dest) + Σ W over dest's neighbours on the unit's graph (the origin
    /// included, each province once), in hundredths.
    pub fn utility(&self, kind: UnitType, dest: Location) -> i64 {
        self.dest_value(dest.province)
            + self
                .neighbours(kind, dest)
                .iter()
                .map(|p| self.neighbour_weight(*p))
                .sum::<i64>()
    }

    /// Units of powers other than `me` that can move into `p`, plus an
    /// enemy standing in `p` (the defender).
    pub fn enemies_reaching(&self, p: Province) -> u32 {
        let mut n = 0;
        for u in self.occupant.iter().flatten() {
            if u.power == self.me {
                continue;
            }
            if u.location.province == p || self.map.can_reach_province(u.kind, u.location, p) {
                n += 1;
            }
        }
        n
    }

    /// Own units other than the one in `except` that can move or support into `p`.
    pub fn allies_reaching(&self, p: Province, except: Province) -> u32 {
        self.mine
            .iter()
            .filter(|u| {
                u.location.province != except
                    && u.location.province != p
                    && self.map.can_reach_province(u.kind, u.location, p)
            })
            .count() as u32
    }

    /// Algorithm 2 (corrected): phases from `from` to the nearest enemy unit
    /// on `kind`'s graph (0 = an enemy is adjacent), bounded by the depth cap,
    /// with a visited set, not expanding through provinces holding own units;
    /// the province `ignore` (the unit's own origin) counts as empty.
    pub fn front_distance(&self, kind: UnitType, from: Location, ignore: Option<Province>) -> u32 {
        let mut visited: HashSet<Province> = HashSet::new();
        visited.insert(from.province);
        let step = |l: Location| self.map.move_targets(kind, l);
        let mut frontier = step(from);
        let mut depth = 0;
        while depth < self.depth_cap && !frontier.is_empty() {
            let mut next = Vec::new();
            for l in frontier {
                if !visited.insert(l.province) {
                    continue;
                }
                let here = if Some(l.province) == ignore {
                    None
                } else {
                    self.unit_at(l.province)
                };
                match here {
                    Some(u) if u.power != self.me => return depth,
                    Some(_) => {}
                    None => next.extend(step(l)),
                }
            }
            frontier = next;
            depth += 1;
        }
        self.depth_cap
    }
}

/// One candidate action of a unit, scored (a "plan" of the thesis).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The unit.
    pub unit: Unit,
    /// Where it ends up if the action succeeds (its own location for a hold).
    pub dest: Location,
    /// Thesis utility (hundredths).
    pub utility: i64,
    /// Plan type id (1–7, 10).
    pub plan_type: u8,
    /// Enemy units able to reach `dest` (plus an enemy defender there).
    pub enemies: u32,
    /// Own units able to reach or support into `dest`.
    pub allies: u32,
    /// Added only so that every unit can always hold (not a thesis plan).
    pub fallback: bool,
}

impl Plan {
    /// Whether the action is a hold.
    pub fn is_hold(&self) -> bool {
        self.dest.province == self.unit.location.province
    }

    /// The order.
    pub fn order(&self) -> Order {
        if self.is_hold() {
            Order::Hold(self.unit)
        } else {
            Order::Move {
                unit: self.unit,
                to: self.dest,
                via: None,
            }
        }
    }
}

/// The actions of `unit`: hold, then a move to each adjacent province (for a
/// fleet reaching two coasts of one province, the coast with the higher
/// utility).
pub fn actions(board: &Board, unit: &Unit) -> Vec<Location> {
    let mut out = vec![unit.location];
    match unit.kind {
        UnitType::Army => out.extend(
            board
                .map
                .army_neighbours(unit.location.province)
                .iter()
                .map(|p| Location::new(*p)),
        ),
        UnitType::Fleet => {
            for l in board.map.fleet_neighbours(unit.location) {
                match out.iter_mut().find(|x| x.province == l.province) {
                    Some(x) => {
                        if board.utility(UnitType::Fleet, *l) > board.utility(UnitType::Fleet, *x) {
                            *x = *l;
                        }
                    }
                    None => out.push(*l),
                }
            }
        }
    }
    out
}

/// Plan type of `unit` taking the action to `dest` (the lowest applicable id).
pub fn classify(board: &Board, unit: &Unit, dest: Location, surrounded: bool) -> u8 {
    use plan_type::*;
    let p = dest.province;
    let hold = p == unit.location.province;
    let centre = board.is_centre(p);
    let owner = board.owner_of(p);
    let fall = board.season == Season::Fall;
    let spring = board.season == Season::Spring;
    if centre && board.is_home_of(p, board.me) && owner != Some(board.me) {
        return RECOVER_HOME;
    }
    if fall && centre && owner == Some(board.me) {
        // Retake an own centre an enemy stands on, or keep one an enemy can reach.
        // "Prevent losing an SC that an enemy occupies in the FAL phase".
        if board.enemy_at(p) {
            return RECOVER_FALL;
        }
    }
    if fall && centre && owner != Some(board.me) {
        return OBTAIN;
    }
    if spring && centre && owner != Some(board.me) && !hold {
        return TOWARD;
    }
    if hold {
        return NO_PLAN;
    }
    if surrounded {
        return UNBLOCK;
    }
    let here = board.front_distance(unit.kind, unit.location, None);
    let there = board.front_distance(unit.kind, dest, Some(unit.location.province));
    if board.enemy_at(p) {
        return ATTACK;
    }
    // "Does not increase" read as progress: a lateral move at equal distance
    // would make home units rotate between own centres; every type-6 move
    // of the worked example (SMY→ARM, ANK→BLA, ANK→ARM: 1 → 0) decreases it.
    if there < here {
        return FRONT;
    }
    NO_PLAN
}

/// The plans of one unit agent, best utility first: every typed action plus
/// at most `max_no_plan` "no plan" actions; the hold is appended as a
/// fallback when it is not among them (so every unit can always hold).
pub fn unit_plans(board: &Board, unit: &Unit, max_no_plan: usize) -> Vec<Plan> {
    let acts = actions(board, unit);
    let surrounded = acts.iter().skip(1).all(|l| board.own_at(l.province));
    let mut typed = Vec::new();
    let mut untyped = Vec::new();
    for dest in acts {
        // Cuadro 10: moves into a province an own unit holds are not
        // plans (only type 5 weighs them, for a surrounded unit).
        if !surrounded && dest.province != unit.location.province && board.own_at(dest.province) {
            continue;
        }
        let plan = Plan {
            unit: *unit,
            dest,
            utility: board.utility(unit.kind, dest),
            plan_type: classify(board, unit, dest, surrounded),
            enemies: board.enemies_reaching(dest.province),
            allies: board.allies_reaching(dest.province, unit.location.province),
            fallback: false,
        };
        if plan.plan_type == plan_type::NO_PLAN {
            untyped.push(plan);
        } else {
            typed.push(plan);
        }
    }
    untyped.sort_by_key(|p| std::cmp::Reverse(p.utility));
    // Cuadro 10 lists only typed plans (1 × 1 × 2 combinations): "no plan"
    // actions are proposed only by a unit without any typed plan.
    if !typed.is_empty() {
        untyped.clear();
    }
    untyped.truncate(max_no_plan);
    typed.extend(untyped);
    typed.sort_by(|a, b| {
        b.utility
            .cmp(&a.utility)
            .then(a.plan_type.cmp(&b.plan_type))
    });
    if !typed.iter().any(Plan::is_hold) {
        typed.push(Plan {
            unit: *unit,
            dest: unit.location,
            utility: board.utility(unit.kind, unit.location),
            plan_type: plan_type::NO_PLAN,
            enemies: board.enemies_reaching(unit.location.province),
            allies: board.allies_reaching(unit.location.province, unit.location.province),
            fallback: true,
        });
    }
    typed
}

/// The hold of `unit` as its only plan (the fallback).
pub fn hold_only(board: &Board, unit: &Unit) -> Vec<Plan> {
    vec![Plan {
        unit: *unit,
        dest: unit.location,
        utility: board.utility(unit.kind, unit.location),
        plan_type: plan_type::NO_PLAN,
        enemies: 0,
        allies: 0,
        fallback: true,
    }]
}

/// Plans of all own units; type-5 (unblock) utilities are weighted by the
/// share of the blocking neighbour's plans that leave its province.
pub fn all_plans(board: &Board, max_no_plan: usize) -> Vec<Vec<Plan>> {
    all_plans_until(board, max_no_plan, None)
}

/// [`all_plans`], anytime: units reached after `deadline` get only their
/// hold (so a valid joint action is always ready in time).
pub fn all_plans_until(
    board: &Board,
    max_no_plan: usize,
    deadline: Option<std::time::Instant>,
) -> Vec<Vec<Plan>> {
    let mut all: Vec<Vec<Plan>> = board
        .mine
        .iter()
        .map(|u| {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                hold_only(board, u)
            } else {
                unit_plans(board, u, max_no_plan)
            }
        })
        .collect();
    let leave_share: Vec<(Province, i64, i64)> = all
        .iter()
        .filter_map(|ps| {
            let u = ps.first()?.unit;
            let leaving = ps.iter().filter(|p| !p.is_hold()).count() as i64;
            Some((u.location.province, leaving, ps.len() as i64))
        })
        .collect();
    for ps in &mut all {
        for p in ps.iter_mut() {
            if p.plan_type == plan_type::UNBLOCK
                && let Some((_, l, n)) = leave_share.iter().find(|(q, _, _)| *q == p.dest.province)
                && *n > 0
            {
                p.utility = p.utility * l / n;
            }
        }
        ps.sort_by(|a, b| {
            a.fallback
                .cmp(&b.fallback)
                .then(b.utility.cmp(&a.utility))
                .then(a.plan_type.cmp(&b.plan_type))
        });
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::game::standard_opening;
    use crate::diplomacy::phases::initial_ownership;

    fn turkey_board(map: &Map) -> Board<'_> {
        let units = standard_opening(map);
        let owners = initial_ownership(map);
        let tur = map.power("TUR").unwrap();
        Board::from_parts(map, tur, Season::Spring, &units, &owners, 20)
    }

    fn find(plans: &[Plan], to: &str, map: &Map) -> Plan {
        plans
            .iter()
            .find(|p| map.name(p.dest.province) == to)
            .unwrap_or_else(|| panic!("no plan to {to}"))
            .clone()
    }

    #[test]
    fn thesis_test_vector_turkey_spring_1901() {
        let map = Map::standard();
        let b = turkey_board(&map);
        let unit = |n: &str| {
            *b.mine
                .iter()
                .find(|u| map.name(u.location.province) == n)
                .unwrap()
        };
        let smy = unit_plans(&b, &unit("SMY"), 7);
        let ank = unit_plans(&b, &unit("ANK"), 7);
        let con = unit_plans(&b, &unit("CON"), 7);
        let smy_arm = find(&smy, "ARM", &map);
        let ank_bla = find(&ank, "BLA", &map);
        let ank_arm = find(&ank, "ARM", &map);
        let con_bul = find(&con, "BUL", &map);
        assert_eq!(smy_arm.utility, 251);
        assert_eq!(ank_bla.utility, 351);
        assert_eq!(ank_arm.utility, 226);
        // 425 under the formula (the thesis prints 351, a copy error).
        assert_eq!(con_bul.utility, 425);
        // Cuadro 10: enemies / allies / plan types.
        assert_eq!(
            (smy_arm.enemies, smy_arm.allies, smy_arm.plan_type),
            (1, 1, 6)
        );
        assert_eq!(
            (ank_bla.enemies, ank_bla.allies, ank_bla.plan_type),
            (1, 0, 6)
        );
        assert_eq!(
            (ank_arm.enemies, ank_arm.allies, ank_arm.plan_type),
            (1, 1, 6)
        );
        assert_eq!(
            (con_bul.enemies, con_bul.allies, con_bul.plan_type),
            (0, 0, 4)
        );
    }

    #[test]
    fn plan_base_is_cuadro_10() {
        // Cuadro 10: CON proposes only → BUL, SMY only → ARM, ANK → BLA and
        // → ARM (no "no plan" actions when a unit has typed plans; no moves
        // into provinces own units hold); the hold is only the fallback.
        let map = Map::standard();
        let b = turkey_board(&map);
        let all = all_plans(&b, 2);
        let mut base: Vec<(String, Vec<String>)> = all
            .iter()
            .map(|ps| {
                let from = map.name(ps[0].unit.location.province).to_string();
                let mut to: Vec<String> = ps
                    .iter()
                    .filter(|p| !p.fallback)
                    .map(|p| map.name(p.dest.province).to_string())
                    .collect();
                to.sort();
                assert!(ps.iter().any(|p| p.fallback && p.is_hold()), "{from}");
                (from, to)
            })
            .collect();
        base.sort();
        let want = |f: &str, t: &[&str]| (f.to_string(), t.iter().map(|x| x.to_string()).collect());
        assert_eq!(
            base,
            vec![
                want("ANK", &["ARM", "BLA"]),
                want("CON", &["BUL"]),
                want("SMY", &["ARM"]),
            ]
        );
    }

    #[test]
    fn front_distance_is_bounded_and_blocked_by_own_units() {
        let map = Map::standard();
        let b = turkey_board(&map);
        let smy = *b
            .mine
            .iter()
            .find(|u| map.name(u.location.province) == "SMY")
            .unwrap();
        assert_eq!(b.front_distance(UnitType::Army, smy.location, None), 1);
        let arm = Location::new(map.province("ARM").unwrap());
        assert_eq!(
            b.front_distance(UnitType::Army, arm, Some(smy.location.province)),
            0
        );
        // A board with no enemies at all hits the cap.
        let lonely = Board {
            occupant: b
                .occupant
                .iter()
                .map(|o| o.filter(|u| u.power == b.me))
                .collect(),
            depth_cap: 7,
            ..b.clone()
        };
        assert_eq!(lonely.front_distance(UnitType::Army, smy.location, None), 7);
    }

    #[test]
    fn no_plan_actions_are_capped_and_hold_is_always_there() {
        let map = Map::standard();
        let b = turkey_board(&map);
        for u in &b.mine {
            for cap in 0..3 {
                let plans = unit_plans(&b, u, cap);
                let untyped = plans
                    .iter()
                    .filter(|p| p.plan_type == plan_type::NO_PLAN && !p.fallback)
                    .count();
                assert!(untyped <= cap);
                assert!(plans.iter().any(Plan::is_hold));
            }
        }
    }

    #[test]
    fn fall_types_obtain_and_defend() {
        let map = Map::standard();
        let mut units = standard_opening(&map);
        let p = |n: &str| map.province(n).unwrap();
        let tur = map.power("TUR").unwrap();
        for u in units.iter_mut() {
            if map.name(u.location.province) == "CON" {
                u.location = Location::new(p("BUL"));
            }
        }
        let owners = initial_ownership(&map);
        let b = Board::from_parts(&map, tur, Season::Fall, &units, &owners, 20);
        let bul = *b
            .mine
            .iter()
            .find(|u| u.location.province == p("BUL"))
            .unwrap();
        let plans = unit_plans(&b, &bul, 2);
        let hold = plans.iter().find(|x| x.is_hold()).unwrap();
        assert_eq!(hold.plan_type, plan_type::OBTAIN);
        // SEV (Russian fleet) can reach ARM but not ANK; ANK is a home centre
        // the Russian fleet in SEV cannot reach, SMY neither: no type 2 holds.
        let ank = *b
            .mine
            .iter()
            .find(|u| u.location.province == p("ANK"))
            .unwrap();
        let plans = unit_plans(&b, &ank, 2);
        assert!(plans.iter().all(|x| x.plan_type != plan_type::RECOVER_HOME));
    }
}
