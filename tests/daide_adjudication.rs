//! Property tests of the adjudicator wrapper: arbitrary order sets (legal or
//! not: far moves, supports of absent units, armies "convoying", duplicate
//! orders, orders for other powers' units) on the standard opening and on
//! random positions never panic, and the result keeps the board invariants.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;

use proptest::prelude::*;
use tablero::diplomacy::game::standard_opening;
use tablero::diplomacy::judge::{Rules, adjudicate_movement};
use tablero::diplomacy::phases::adjudicate_retreats;
use tablero::diplomacy::{Coast, Location, Map, Order, Power, Province, Unit, UnitType};

fn any_location(map: &Map, i: usize, coast: u8) -> Location {
    let p = Province((i % map.province_count()) as u16);
    let coasts = &map.info(p).map(|x| x.coasts.clone()).unwrap_or_default();
    match coasts.get(coast as usize % 3) {
        Some(c) => Location::with_coast(p, *c),
        None if coast % 5 == 4 => Location::with_coast(p, Coast::North),
        None => Location::new(p),
    }
}

/// A random legal position: up to 34 units on distinct provinces they can stand on.
fn position(map: &Map, picks: &[(usize, u8, bool, u8)]) -> Vec<Unit> {
    let mut used = HashSet::new();
    let mut units = Vec::new();
    for &(i, power, fleet, coast) in picks {
        let kind = if fleet {
            UnitType::Fleet
        } else {
            UnitType::Army
        };
        let mut l = any_location(map, i, coast);
        if kind == UnitType::Army {
            l.coast = None;
        }
        if !map.can_stand(kind, l) || !used.insert(l.province) {
            continue;
        }
        units.push(Unit {
            power: Power(power % 7),
            kind,
            location: l,
        });
    }
    units
}

fn orders(map: &Map, units: &[Unit], picks: &[(usize, u8, usize, usize, u8)]) -> Vec<Order> {
    let mut out = Vec::new();
    for &(u, kind, a, b, coast) in picks {
        let Some(unit) = units.get(u % units.len().max(1)).copied() else {
            continue;
        };
        let other = units[a % units.len()];
        let to = any_location(map, b, coast);
        out.push(match kind % 7 {
            0 => Order::Hold(unit),
            1 | 2 => Order::Move {
                unit,
                to,
                via: None,
            },
            3 => Order::Move {
                unit,
                to,
                via: Some(vec![to.province]),
            },
            4 => Order::SupportHold {
                unit,
                supported: other,
            },
            5 => Order::SupportMove {
                unit,
                supported: other,
                to: to.province,
            },
            _ => Order::Convoy {
                unit,
                army: other,
                to: to.province,
            },
        });
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_orders_never_panic_and_keep_invariants(
        picks in prop::collection::vec((0usize..200, 0u8..7, any::<bool>(), 0u8..10), 0..34),
        order_picks in prop::collection::vec((0usize..40, 0u8..7, 0usize..40, 0usize..200, 0u8..10), 0..40),
        use_opening in any::<bool>(),
        rules in 0u8..4,
    ) {
        let map = Map::standard();
        let units = if use_opening { standard_opening(&map) } else { position(&map, &picks) };
        let orders = orders(&map, &units, &order_picks);
        let rules = [Rules::Edition1971, Rules::Edition1982, Rules::Edition2023, Rules::Dptg][rules as usize];
        let out = adjudicate_movement(&map, &units, &orders, rules).expect("valid position");
        // Units after the moves stand on distinct provinces.
        let mut seen = HashSet::new();
        for u in &out.units {
            prop_assert!(seen.insert(u.location.province), "two units in {}", map.name(u.location.province));
            prop_assert!(map.can_stand(u.kind, u.location));
        }
        prop_assert_eq!(out.units.len() + out.dislodged.len(), units.len());
        for d in &out.dislodged {
            for r in &d.retreats {
                prop_assert!(!seen.contains(&r.province), "retreat into an occupied province");
                prop_assert!(Some(r.province) != d.attacker_from, "retreat to the attacker's origin");
                prop_assert!(map.can_move(d.unit.kind, d.unit.location, *r));
            }
        }
        // Every unit has exactly one adjudicated (non-illegal) result.
        for u in &units {
            let n = out.results.iter().filter(|r| {
                r.order.unit() == Some(u) && !matches!(r.result, tablero::diplomacy::judge::OrderResult::Illegal(_))
            }).count();
            prop_assert_eq!(n, 1, "unit {:?}", u);
        }
        // Retreating everyone somewhere keeps the board consistent too.
        let retreat_orders: Vec<Order> = out.dislodged.iter().filter_map(|d| {
            d.retreats.first().map(|to| Order::Retreat { unit: d.unit, to: *to })
        }).collect();
        let r = adjudicate_retreats(&out.dislodged, &retreat_orders);
        for u in &r.retreated {
            prop_assert!(seen.insert(u.location.province), "retreat collision");
        }
    }
}
