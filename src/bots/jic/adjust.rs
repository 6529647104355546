//! Retreats and adjustments, which the thesis does not describe (tablero's
//! choices, see `protocols/jic.md`):
//! - retreat: the option with the highest thesis utility (in the fall
//!   retreat, own or unowned centres first, since ownership changes right
//!   after, except a centre the spare rule prices down: one that would leave
//!   its owner under `spare_centres`), never two own units into one
//!   province; DSB when there is none;
//! - builds: sites (own, unoccupied, owned home centres) by the highest
//!   utility of the best unit there; army or fleet by the best next-phase
//!   utility on each graph (thesis mode), capped in strong mode so fleets
//!   stay ≤ `fleet_share_cap` of the units while an army can be built (the
//!   all-fleet England dead end); explicit coasts; WVE only when no site is left;
//! - removals: the unit whose best action has the lowest utility, the one
//!   farthest from the front on ties.

use super::agent::{Board, actions};
use super::strong::Spare;
use crate::diplomacy::judge::Dislodgement;
use crate::diplomacy::model::{Location, Order, Season, Unit, UnitType};
use crate::diplomacy::phases::buildable_kinds;

/// Best next-phase utility of a unit of `kind` at `l`.
fn best_next(board: &Board, kind: UnitType, l: Location) -> i64 {
    let u = Unit {
        power: board.me,
        kind,
        location: l,
    };
    actions(board, &u)
        .into_iter()
        .map(|d| board.utility(kind, d))
        .max()
        .unwrap_or(0)
}

/// Retreat orders for the own dislodged units, with the phase's spare rule.
pub fn retreats(board: &Board, dislodged: &[Dislodgement], spare: &Spare) -> Vec<Order> {
    let mut taken = Vec::new();
    let mut out = Vec::new();
    let autumn = board.season == Season::Autumn;
    for d in dislodged.iter().filter(|d| d.unit.power == board.me) {
        let best = d
            .retreats
            .iter()
            .filter(|l| !taken.contains(&l.province))
            .max_by_key(|l| {
                let mut v = board.utility(d.unit.kind, **l);
                let owner = board.owner_of(l.province);
                if autumn && board.is_centre(l.province) && owner != Some(board.me) {
                    // It changes hands right after: priced as a take.
                    v += spare.take(&mut spare.counter(), 1000, owner);
                }
                v
            })
            .copied();
        match best {
            Some(to) => {
                taken.push(to.province);
                out.push(Order::Retreat { unit: d.unit, to });
            }
            None => out.push(Order::Disband(d.unit)),
        }
    }
    out
}

/// Build orders for `n` builds; `fleet_cap` = most fleets as a share of
/// units (None: thesis choice by utility only).
pub fn builds(board: &Board, n: usize, fleet_cap: Option<f64>) -> Vec<Order> {
    let mut sites: Vec<_> = board
        .map
        .home_centres(board.me)
        .filter(|p| board.owner_of(*p) == Some(board.me) && board.unit_at(*p).is_none())
        .collect();
    let mut out = Vec::new();
    let mut fleets = board
        .mine
        .iter()
        .filter(|u| u.kind == UnitType::Fleet)
        .count();
    let mut total = board.mine.len();
    for _ in 0..n {
        // Best (site, location, kind) by next-phase utility.
        let mut best: Option<(i64, Location, UnitType, usize)> = None;
        for (si, p) in sites.iter().enumerate() {
            let mut cands: Vec<(Location, UnitType)> = Vec::new();
            if board.map.can_stand(UnitType::Army, Location::new(*p)) {
                cands.push((Location::new(*p), UnitType::Army));
            }
            for l in buildable_kinds(board.map, *p) {
                if board.map.can_stand(UnitType::Fleet, l) {
                    cands.push((l, UnitType::Fleet));
                }
            }
            let army_possible = cands.iter().any(|c| c.1 == UnitType::Army);
            for (l, k) in cands {
                let mut v = best_next(board, k, l);
                if let Some(cap) = fleet_cap
                    && k == UnitType::Fleet
                    && army_possible
                    && (fleets + 1) as f64 > cap * (total + 1) as f64
                {
                    v -= 100_000;
                }
                if best.is_none_or(|b| v > b.0) {
                    best = Some((v, l, k, si));
                }
            }
        }
        match best {
            Some((_, l, k, si)) => {
                sites.remove(si);
                if k == UnitType::Fleet {
                    fleets += 1;
                }
                total += 1;
                out.push(Order::Build(Unit {
                    power: board.me,
                    kind: k,
                    location: l,
                }));
            }
            None => out.push(Order::Waive(board.me)),
        }
    }
    out
}

/// Removal orders for `n` removals.
pub fn removals(board: &Board, n: usize) -> Vec<Order> {
    let mut keyed: Vec<(i64, u32, Unit)> = board
        .mine
        .iter()
        .map(|u| {
            (
                best_next(board, u.kind, u.location),
                board.front_distance(u.kind, u.location, None),
                *u,
            )
        })
        .collect();
    // Lowest value first; farther from the front first on ties.
    keyed.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    keyed
        .into_iter()
        .take(n)
        .map(|(_, _, u)| Order::Remove(u))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::game::standard_opening;
    use crate::diplomacy::map::Map;
    use crate::diplomacy::phases::initial_ownership;

    #[test]
    fn fall_retreat_spares_a_last_centre() {
        let map = Map::standard();
        let p = |n: &str| map.province(n).unwrap();
        let rus = map.power("RUS").unwrap();
        // Austria is down to Vienna; a Russian army dislodged from Galicia
        // may retreat to Vienna or Ukraine.
        let mut owners = initial_ownership(&map);
        owners.remove(&p("TRI"));
        owners.remove(&p("BUD"));
        let army = Unit {
            power: rus,
            kind: UnitType::Army,
            location: Location::new(p("GAL")),
        };
        let d = Dislodgement {
            unit: army,
            attacker_from: None,
            retreats: vec![Location::new(p("VIE")), Location::new(p("UKR"))],
        };
        let b = Board::from_parts(&map, rus, Season::Autumn, &[army], &owners, 20);
        let to = |rule| {
            let spare = Spare::new(rule, &map, &owners);
            match retreats(&b, std::slice::from_ref(&d), &spare)[..] {
                [Order::Retreat { to, .. }] => map.name(to.province).to_string(),
                ref other => panic!("{other:?}"),
            }
        };
        assert_eq!(to((0, 1.0)), "VIE");
        assert_eq!(to((2, -1.0)), "UKR");
        // With Trieste and Budapest back, Vienna is not Austria's last: taken.
        let full = initial_ownership(&map);
        let b = Board::from_parts(&map, rus, Season::Autumn, &[army], &full, 20);
        let spare = Spare::new((2, -1.0), &map, &full);
        assert!(matches!(
            retreats(&b, std::slice::from_ref(&d), &spare)[..],
            [Order::Retreat { to, .. }] if to.province == p("VIE")
        ));
    }

    #[test]
    fn england_builds_are_not_all_fleets_in_strong_mode() {
        let map = Map::standard();
        let eng = map.power("ENG").unwrap();
        let owners = initial_ownership(&map);
        // England with only fleets at sea and three open home centres.
        let units: Vec<Unit> = ["NTH", "ECH", "NWG"]
            .iter()
            .map(|n| Unit {
                power: eng,
                kind: UnitType::Fleet,
                location: Location::new(map.province(n).unwrap()),
            })
            .collect();
        let b = Board::from_parts(&map, eng, Season::Winter, &units, &owners, 20);
        let strong = builds(&b, 3, Some(0.5));
        let armies = strong
            .iter()
            .filter(|o| matches!(o, Order::Build(u) if u.kind == UnitType::Army))
            .count();
        assert!(armies >= 2, "{strong:?}");
        let thesis = builds(&b, 3, None);
        assert_eq!(thesis.len(), 3);
        // Every build is on a distinct own home centre.
        let mut provs: Vec<_> = thesis
            .iter()
            .filter_map(|o| match o {
                Order::Build(u) => Some(u.location.province),
                _ => None,
            })
            .collect();
        provs.sort();
        provs.dedup();
        assert_eq!(provs.len(), 3);
    }

    #[test]
    fn builds_waive_without_sites_and_removals_pick_n() {
        let map = Map::standard();
        let units = standard_opening(&map);
        let owners = initial_ownership(&map);
        let tur = map.power("TUR").unwrap();
        let b = Board::from_parts(&map, tur, Season::Winter, &units, &owners, 20);
        assert_eq!(
            builds(&b, 2, Some(0.5)),
            vec![Order::Waive(tur), Order::Waive(tur)]
        );
        let r = removals(&b, 2);
        assert_eq!(r.len(), 2);
        assert!(
            r.iter()
                .all(|o| matches!(o, Order::Remove(u) if u.power == tur))
        );
    }

    #[test]
    fn bicoastal_builds_name_a_coast() {
        let map = Map::standard();
        let rus = map.power("RUS").unwrap();
        let owners = initial_ownership(&map);
        let b = Board::from_parts(&map, rus, Season::Winter, &[], &owners, 20);
        for o in builds(&b, 4, None) {
            if let Order::Build(u) = o
                && u.kind == UnitType::Fleet
                && map.name(u.location.province) == "STP"
            {
                assert!(u.location.coast.is_some());
            }
        }
    }
}
