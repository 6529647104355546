//! Retreat and adjustment adjudication, and supply-centre ownership updates.
//!
//! These are tablero's own (the rules are short): the `diplomacy` crate's
//! retreat resolver is tied to the lifetime of a movement outcome and its
//! build resolver to its own world-state trait, neither of which fits a game
//! that stores positions between phases.
//!
//! Retreats: a retreat succeeds if its destination is one of the unit's
//! retreat options (from movement adjudication) and no other unit retreats
//! into the same province; otherwise the unit is disbanded. Units without an
//! order disband.
//!
//! Adjustments: a power with more centres than units may build up to the
//! difference (waives count) in its own, unoccupied home centres; one with
//! fewer removes the difference, and missing removals are chosen by civil
//! disorder: the unit farthest from the power's home centres (owned centres
//! under [`Rules::Edition2023`]) goes first, distance counted in provinces
//! crossed by any terrain; ties remove fleets before armies, then in
//! alphabetical order of province name.

use std::collections::{HashMap, HashSet, VecDeque};

use super::judge::{Dislodgement, Rules};
use super::map::Map;
use super::model::{Location, Order, Power, Province, ProvinceKind, Unit, UnitType};

/// Result of one retreat-phase order (or of a missing one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RetreatResult {
    /// The unit retreated.
    Moved,
    /// The unit was disbanded as ordered.
    Disbanded,
    /// Another unit retreated to the same province: both disbanded.
    Bounced,
    /// The destination was not a retreat option: disbanded.
    Invalid,
    /// No order for this unit: disbanded.
    NoOrder,
    /// The order names no dislodged unit (or repeats one): ignored.
    NoSuchUnit,
}

/// Retreat-phase outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetreatOutcome {
    /// One entry per order, then one per dislodged unit without an order
    /// (as a [`Order::Disband`]).
    pub results: Vec<(Order, RetreatResult)>,
    /// Units that retreated, at their new locations.
    pub retreated: Vec<Unit>,
}

/// Adjudicates a retreat phase.
pub fn adjudicate_retreats(dislodged: &[Dislodgement], orders: &[Order]) -> RetreatOutcome {
    let find = |u: &Unit| dislodged.iter().position(|d| d.unit == *u);
    let mut chosen: HashMap<usize, usize> = HashMap::new(); // dislodged index → order index
    let mut results: Vec<(Order, RetreatResult)> = Vec::with_capacity(orders.len());
    for (i, o) in orders.iter().enumerate() {
        let idx = match o {
            Order::Retreat { unit, .. } | Order::Disband(unit) => find(unit),
            _ => None,
        };
        match idx {
            Some(d) if !chosen.contains_key(&d) => {
                chosen.insert(d, i);
                results.push((o.clone(), RetreatResult::Disbanded)); // provisional
            }
            _ => results.push((o.clone(), RetreatResult::NoSuchUnit)),
        }
    }
    // Valid retreats by target province.
    let mut targets: HashMap<Province, Vec<usize>> = HashMap::new();
    for (&d, &i) in &chosen {
        if let Order::Retreat { to, .. } = &orders[i] {
            if dislodged[d].retreats.contains(to) {
                targets.entry(to.province).or_default().push(i);
            } else {
                results[i].1 = RetreatResult::Invalid;
            }
        }
    }
    let mut retreated = Vec::new();
    for (_, ids) in targets {
        let r = if ids.len() == 1 {
            RetreatResult::Moved
        } else {
            RetreatResult::Bounced
        };
        for i in ids {
            results[i].1 = r;
            if let (RetreatResult::Moved, Order::Retreat { unit, to }) = (r, &orders[i]) {
                retreated.push(Unit {
                    location: *to,
                    ..*unit
                });
            }
        }
    }
    for (d, dis) in dislodged.iter().enumerate() {
        if !chosen.contains_key(&d) {
            results.push((Order::Disband(dis.unit), RetreatResult::NoOrder));
        }
    }
    retreated.sort();
    RetreatOutcome { results, retreated }
}

/// Sets each occupied supply centre's owner to the occupying unit's power
/// (done after the fall retreats). `owners` maps centres to owners.
pub fn update_ownership(map: &Map, units: &[Unit], owners: &mut HashMap<Province, Power>) {
    for u in units {
        let p = u.location.province;
        if map.info(p).is_some_and(|i| i.supply_centre) {
            owners.insert(p, u.power);
        }
    }
}

/// Initial ownership: every home centre belongs to its (first) home power.
pub fn initial_ownership(map: &Map) -> HashMap<Province, Power> {
    map.provinces()
        .filter(|(_, i)| i.supply_centre)
        .filter_map(|(p, i)| i.home_of.first().map(|h| (p, *h)))
        .collect()
}

/// Why an adjustment order failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AdjustmentResult {
    /// Applied.
    Success,
    /// The power has no builds (or no removals) left.
    NoneLeft,
    /// Not an own, owned, unoccupied home centre, or a second build there.
    BadBuildSite,
    /// The unit type cannot stand there (fleet inland, army at sea, missing coast).
    BadTerrain,
    /// No such unit of that power to remove.
    NoSuchUnit,
    /// Not an adjustment order.
    WrongPhase,
}

/// Adjustment-phase outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjustmentOutcome {
    /// One entry per order.
    pub results: Vec<(Order, AdjustmentResult)>,
    /// Units removed by civil disorder.
    pub civil_disorder: Vec<Unit>,
    /// Builds waived because no order used them (per power, count).
    pub unused_builds: Vec<(Power, u32)>,
    /// The units after adjustments.
    pub units: Vec<Unit>,
}

/// What a power must do this adjustment phase: > 0 builds allowed, < 0 removals owed.
pub fn adjustment_delta(units: &[Unit], owners: &HashMap<Province, Power>, power: Power) -> i32 {
    let centres = owners.values().filter(|p| **p == power).count() as i32;
    let count = units.iter().filter(|u| u.power == power).count() as i32;
    centres - count
}

/// Distances (in provinces, any terrain) from every province to the nearest of `from`.
fn distances(map: &Map, from: &[Province]) -> Vec<u32> {
    let n = map.province_count();
    let mut dist = vec![u32::MAX; n];
    let mut q = VecDeque::new();
    for p in from {
        if let Some(d) = dist.get_mut(p.0 as usize) {
            *d = 0;
            q.push_back(*p);
        }
    }
    while let Some(p) = q.pop_front() {
        let d = dist[p.0 as usize];
        let mut next: Vec<Province> = map.army_neighbours(p).to_vec();
        let mut locs = vec![Location::new(p)];
        if let Some(info) = map.info(p) {
            locs.extend(info.coasts.iter().map(|c| Location::with_coast(p, *c)));
        }
        for l in locs {
            next.extend(map.fleet_neighbours(l).iter().map(|x| x.province));
        }
        for q2 in next {
            let slot = &mut dist[q2.0 as usize];
            if *slot == u32::MAX {
                *slot = d + 1;
                q.push_back(q2);
            }
        }
    }
    dist
}

/// Adjudicates an adjustment phase.
pub fn adjudicate_adjustments(
    map: &Map,
    units: &[Unit],
    owners: &HashMap<Province, Power>,
    orders: &[Order],
    rules: Rules,
) -> AdjustmentOutcome {
    let mut delta: HashMap<Power, i32> = map
        .powers()
        .map(|(p, _)| (p, adjustment_delta(units, owners, p)))
        .collect();
    let mut current: Vec<Unit> = units.to_vec();
    let results = apply_adjustment_orders(map, owners, orders, &mut delta, &mut current);
    // Civil disorder for removals still owed; unused builds are waived.
    let mut civil_disorder = Vec::new();
    let mut unused_builds = Vec::new();
    let mut powers: Vec<Power> = delta.keys().copied().collect();
    powers.sort();
    for power in powers {
        let d = delta.get(&power).copied().unwrap_or(0);
        if d > 0 {
            unused_builds.push((power, d as u32));
            continue;
        }
        if d == 0 {
            continue;
        }
        let mine = disband_order(map, owners, rules, &current, power);
        for u in mine.into_iter().take((-d) as usize) {
            if let Some(i) = current.iter().position(|x| *x == u) {
                current.remove(i);
                civil_disorder.push(u);
            }
        }
    }
    current.sort();
    AdjustmentOutcome {
        results,
        civil_disorder,
        unused_builds,
        units: current,
    }
}

/// The order in which `power`'s units in `current` leave in civil disorder: farthest from
/// its home centres (owned centres under the 2023 rules) first, then fleets, then by name.
fn disband_order(
    map: &Map,
    owners: &HashMap<Province, Power>,
    rules: Rules,
    current: &[Unit],
    power: Power,
) -> Vec<Unit> {
    let targets: Vec<Province> = match rules {
        Rules::Edition2023 => owners
            .iter()
            .filter(|(_, o)| **o == power)
            .map(|(p, _)| *p)
            .collect(),
        _ => map.home_centres(power).collect(),
    };
    let dist = distances(map, &targets);
    let mut mine: Vec<Unit> = current
        .iter()
        .filter(|u| u.power == power)
        .copied()
        .collect();
    mine.sort_by(|a, b| {
        let da = dist
            .get(a.location.province.0 as usize)
            .copied()
            .unwrap_or(u32::MAX);
        let db = dist
            .get(b.location.province.0 as usize)
            .copied()
            .unwrap_or(u32::MAX);
        db.cmp(&da)
            .then_with(|| (b.kind == UnitType::Fleet).cmp(&(a.kind == UnitType::Fleet)))
            .then_with(|| {
                map.name(a.location.province)
                    .cmp(map.name(b.location.province))
            })
    });
    mine
}

/// Applies the adjustment `orders` in turn against the builds (positive) or removals
/// (negative) each power has left in `delta`, building into and removing from `current`.
fn apply_adjustment_orders(
    map: &Map,
    owners: &HashMap<Province, Power>,
    orders: &[Order],
    delta: &mut HashMap<Power, i32>,
    current: &mut Vec<Unit>,
) -> Vec<(Order, AdjustmentResult)> {
    let mut built_in: HashSet<Province> = HashSet::new();
    let mut results = Vec::with_capacity(orders.len());
    for o in orders {
        let power = o.power();
        let left = delta.get(&power).copied().unwrap_or(0);
        let r = match o {
            Order::Build(u) => {
                let p = u.location.province;
                let info = map.info(p);
                let home_ok = info.is_some_and(|i| i.supply_centre && i.home_of.contains(&u.power));
                let occupied = current.iter().any(|x| x.location.province == p);
                if left <= 0 {
                    AdjustmentResult::NoneLeft
                } else if !home_ok
                    || owners.get(&p) != Some(&u.power)
                    || occupied
                    || built_in.contains(&p)
                {
                    AdjustmentResult::BadBuildSite
                } else if !map.can_stand(u.kind, u.location) {
                    AdjustmentResult::BadTerrain
                } else {
                    built_in.insert(p);
                    current.push(*u);
                    delta.insert(power, left - 1);
                    AdjustmentResult::Success
                }
            }
            Order::Waive(_) => {
                if left <= 0 {
                    AdjustmentResult::NoneLeft
                } else {
                    delta.insert(power, left - 1);
                    AdjustmentResult::Success
                }
            }
            Order::Remove(u) => {
                let pos = current.iter().position(|x| {
                    x.power == u.power
                        && x.kind == u.kind
                        && x.location.province == u.location.province
                });
                match pos {
                    _ if left >= 0 => AdjustmentResult::NoneLeft,
                    None => AdjustmentResult::NoSuchUnit,
                    Some(i) => {
                        current.remove(i);
                        delta.insert(power, left + 1);
                        AdjustmentResult::Success
                    }
                }
            }
            _ => AdjustmentResult::WrongPhase,
        };
        results.push((o.clone(), r));
    }
    results
}

/// Whether `kind` can be built at all in `p` (terrain only).
pub fn buildable_kinds(map: &Map, p: Province) -> Vec<Location> {
    match map.info(p).map(|i| i.kind) {
        Some(ProvinceKind::Bicoastal) => map
            .info(p)
            .map(|i| {
                i.coasts
                    .iter()
                    .map(|c| Location::with_coast(p, *c))
                    .collect()
            })
            .unwrap_or_default(),
        Some(_) => vec![Location::new(p)],
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::Coast;
    use crate::diplomacy::judge::{Rules, adjudicate_movement};

    fn m() -> Map {
        Map::standard()
    }

    fn u(m: &Map, s: &str) -> Unit {
        let w: Vec<&str> = s.split_whitespace().collect();
        let (prov, coast) = match w[2].split_once('/') {
            Some((p, "NC")) => (p, Some(Coast::North)),
            Some((p, "SC")) => (p, Some(Coast::South)),
            Some((p, _)) => (p, Some(Coast::East)),
            None => (w[2], None),
        };
        Unit {
            power: m.power(w[0]).unwrap(),
            kind: if w[1] == "A" {
                UnitType::Army
            } else {
                UnitType::Fleet
            },
            location: Location {
                province: m.province(prov).unwrap(),
                coast,
            },
        }
    }

    fn l(m: &Map, s: &str) -> Location {
        Location::new(m.province(s).unwrap())
    }

    /// DATC 6.H.7: two retreats to one province both disband.
    #[test]
    fn multiple_retreats_to_same_area_disband() {
        let m = m();
        let units = [
            "AUS A BUD",
            "AUS A TRI",
            "GER A MUN",
            "GER A SIL",
            "ITA A VIE",
            "ITA A BOH",
        ]
        .map(|s| u(&m, s));
        let orders = vec![
            Order::SupportMove {
                unit: units[0],
                supported: units[1],
                to: m.province("VIE").unwrap(),
            },
            Order::Move {
                unit: units[1],
                to: l(&m, "VIE"),
                via: None,
            },
            Order::SupportMove {
                unit: units[2],
                supported: units[3],
                to: m.province("BOH").unwrap(),
            },
            Order::Move {
                unit: units[3],
                to: l(&m, "BOH"),
                via: None,
            },
        ];
        let out = adjudicate_movement(&m, &units, &orders, Rules::default()).unwrap();
        assert_eq!(out.dislodged.len(), 2);
        let vie = out.dislodged.iter().find(|d| d.unit == units[4]).unwrap();
        // 6.H.5-like: not back to the attacker's origin; 6.H.6: not contested areas.
        assert!(!vie.retreats.contains(&l(&m, "TRI")));
        assert!(vie.retreats.contains(&l(&m, "TYR")));
        let r = adjudicate_retreats(
            &out.dislodged,
            &[
                Order::Retreat {
                    unit: units[4],
                    to: l(&m, "TYR"),
                },
                Order::Retreat {
                    unit: units[5],
                    to: l(&m, "TYR"),
                },
            ],
        );
        assert!(
            r.results
                .iter()
                .all(|(_, res)| *res == RetreatResult::Bounced)
        );
        assert!(r.retreated.is_empty());
    }

    #[test]
    fn retreat_validity_and_missing_orders() {
        let m = m();
        let victim = u(&m, "TUR F ANK");
        let d = vec![Dislodgement {
            unit: victim,
            attacker_from: m.province("BLA"),
            retreats: vec![l(&m, "ARM")],
        }];
        let r = adjudicate_retreats(
            &d,
            &[Order::Retreat {
                unit: victim,
                to: l(&m, "BLA"),
            }],
        );
        assert_eq!(r.results[0].1, RetreatResult::Invalid);
        let r = adjudicate_retreats(
            &d,
            &[Order::Retreat {
                unit: victim,
                to: l(&m, "ARM"),
            }],
        );
        assert_eq!(r.results[0].1, RetreatResult::Moved);
        assert_eq!(
            r.retreated,
            vec![Unit {
                location: l(&m, "ARM"),
                ..victim
            }]
        );
        let r = adjudicate_retreats(&d, &[]);
        assert_eq!(
            r.results,
            vec![(Order::Disband(victim), RetreatResult::NoOrder)]
        );
        let r = adjudicate_retreats(&d, &[Order::Hold(victim)]);
        assert_eq!(r.results[0].1, RetreatResult::NoSuchUnit);
    }

    /// DATC 6.I.1–6.I.7 (builds), 6.J.1–6.J.2 (removals).
    #[test]
    fn builds_and_removals() {
        let m = m();
        let ger = m.power("GER").unwrap();
        let mut owners = initial_ownership(&m);
        // 6.I.1: Germany has 3 centres (home) and 2 units elsewhere → 1 build.
        let units = vec![u(&m, "GER F DEN"), u(&m, "GER A RUH")];
        owners.insert(m.province("DEN").unwrap(), ger);
        // 4 centres, 2 units → 2 builds; the third build fails.
        let out = adjudicate_adjustments(
            &m,
            &units,
            &owners,
            &[
                Order::Build(u(&m, "GER A WAR")),
                Order::Build(u(&m, "GER A BER")),
                Order::Build(u(&m, "GER A BER")),
                Order::Build(u(&m, "GER F MUN")),
                Order::Build(u(&m, "GER F KIE")),
                Order::Build(u(&m, "GER A MUN")),
            ],
            Rules::default(),
        );
        let res: Vec<_> = out.results.iter().map(|(_, r)| *r).collect();
        assert_eq!(
            res,
            [
                AdjustmentResult::BadBuildSite, // not a home centre
                AdjustmentResult::Success,
                AdjustmentResult::BadBuildSite, // one build per centre
                AdjustmentResult::BadTerrain,   // fleet inland
                AdjustmentResult::Success,
                AdjustmentResult::NoneLeft,
            ]
        );
        // 6.I.4: both coasts must be empty; 6.B.14: a coast is needed.
        let rus = m.power("RUS").unwrap();
        let units = vec![u(&m, "RUS F STP/SC")];
        let owners = initial_ownership(&m);
        let out = adjudicate_adjustments(
            &m,
            &units,
            &owners,
            &[
                Order::Build(u(&m, "RUS F STP/NC")),
                Order::Build(u(&m, "RUS F SEV")),
            ],
            Rules::default(),
        );
        assert_eq!(out.results[0].1, AdjustmentResult::BadBuildSite);
        assert_eq!(out.results[1].1, AdjustmentResult::Success);
        assert!(out.unused_builds.contains(&(rus, 2)));
        let out = adjudicate_adjustments(
            &m,
            &[],
            &owners,
            &[Order::Build(Unit {
                location: l(&m, "STP"),
                ..u(&m, "RUS F SEV")
            })],
            Rules::default(),
        );
        assert_eq!(out.results[0].1, AdjustmentResult::BadTerrain);
        // 6.J.1: too many removes; 6.J.2 removing the same unit twice.
        let fra = m.power("FRA").unwrap();
        let mut owners = initial_ownership(&m);
        owners.insert(m.province("BRE").unwrap(), m.power("ENG").unwrap());
        owners.insert(m.province("MAR").unwrap(), m.power("ITA").unwrap());
        let units = vec![u(&m, "FRA A PIC"), u(&m, "FRA A PAR")];
        assert_eq!(adjustment_delta(&units, &owners, fra), -1);
        let out = adjudicate_adjustments(
            &m,
            &units,
            &owners,
            &[
                Order::Remove(u(&m, "FRA F GOL")),
                Order::Remove(u(&m, "FRA A PIC")),
                Order::Remove(u(&m, "FRA A PAR")),
                Order::Remove(u(&m, "FRA A PIC")),
            ],
            Rules::default(),
        );
        let res: Vec<_> = out.results.iter().map(|(_, r)| *r).collect();
        assert_eq!(
            res,
            [
                AdjustmentResult::NoSuchUnit,
                AdjustmentResult::Success,
                AdjustmentResult::NoneLeft,
                AdjustmentResult::NoneLeft,
            ]
        );
        assert_eq!(out.units, vec![u(&m, "FRA A PAR")]);
    }

    /// DATC 6.J.3, 6.J.4, 6.J.7 (2023 rules: distance to owned centres).
    #[test]
    fn civil_disorder_order() {
        let m = m();
        let mut owners = initial_ownership(&m);
        let ger = m.power("GER").unwrap();
        let eng = m.power("ENG").unwrap();
        let tur = m.power("TUR").unwrap();
        // 6.J.3: A PRU is farther from Russian homes than A LVN.
        owners.insert(m.province("WAR").unwrap(), ger);
        owners.insert(m.province("MOS").unwrap(), ger);
        owners.insert(m.province("SEV").unwrap(), tur);
        let units = vec![u(&m, "RUS A LVN"), u(&m, "RUS A PRU")];
        let out = adjudicate_adjustments(&m, &units, &owners, &[], Rules::Edition2023);
        assert_eq!(out.civil_disorder, vec![u(&m, "RUS A PRU")]);
        // 6.J.4: equal distance → alphabetical (LVN before UKR).
        let mut owners = initial_ownership(&m);
        owners.insert(m.province("STP").unwrap(), eng);
        owners.insert(m.province("WAR").unwrap(), ger);
        owners.insert(m.province("SEV").unwrap(), tur);
        let units = vec![u(&m, "RUS A UKR"), u(&m, "RUS A LVN")];
        let out = adjudicate_adjustments(&m, &units, &owners, &[], Rules::Edition2023);
        assert_eq!(out.civil_disorder, vec![u(&m, "RUS A LVN")]);
        // 6.J.7: fleets before armies at equal distance, then alphabetical.
        let mut owners = initial_ownership(&m);
        owners.insert(m.province("MOS").unwrap(), eng);
        owners.insert(m.province("SEV").unwrap(), tur);
        let units = vec![u(&m, "RUS A BOH"), u(&m, "RUS F SKA"), u(&m, "RUS F NTH")];
        let out = adjudicate_adjustments(&m, &units, &owners, &[], Rules::Edition2023);
        assert_eq!(out.civil_disorder, vec![u(&m, "RUS F NTH")]);
    }

    #[test]
    fn ownership_updates() {
        let m = m();
        let mut owners = initial_ownership(&m);
        assert_eq!(owners.len(), 22);
        let units = vec![u(&m, "RUS A RUM"), u(&m, "TUR A BUD"), u(&m, "TUR A GAL")];
        update_ownership(&m, &units, &mut owners);
        assert_eq!(owners.len(), 23);
        assert_eq!(owners[&m.province("BUD").unwrap()], m.power("TUR").unwrap());
        assert_eq!(buildable_kinds(&m, m.province("STP").unwrap()).len(), 2);
    }
}
