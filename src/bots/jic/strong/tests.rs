//! Tests of the strong JIC mode: convoys, consistency of joint orders, opponent samples, front pull and advances.

use super::*;
use crate::bots::jic::agent::Board;
use crate::diplomacy::game::standard_opening;
use crate::diplomacy::judge::{Rules, adjudicate_movement};
use crate::diplomacy::map::Map;
use crate::diplomacy::model::{Location, Order, Power, Province, Season, Unit, UnitType};
use crate::diplomacy::phases::initial_ownership;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::time::Instant;

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
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        mixed_samples(&view, tur, 8, share, far, &mut rng)
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
fn front_pull_measures_moves_to_the_nearest_foreign_centre() {
    let map = Map::standard();
    let owners = initial_ownership(&map);
    let p = |n: &str| map.province(n).unwrap();
    let eng = map.power("ENG").unwrap();
    let pull = FrontPull::new(&map, eng, &owners, 50);
    // Armies cross the sea: YOR -> NTH -> (neutral) NWY/HOL/BEL/DEN.
    assert_eq!(pull.distance(UnitType::Army, p("YOR")), 2);
    assert_eq!(pull.distance(UnitType::Army, p("NWY")), 0);
    assert_eq!(pull.distance(UnitType::Fleet, p("NTH")), 1);
    // Inland provinces are out of a fleet's reach: capped.
    assert_eq!(pull.distance(UnitType::Fleet, p("BUR")), PULL_CAP);
    // When England owns everything near, the island is far from the front.
    let mut all = owners.clone();
    for n in [
        "NWY", "SWE", "DEN", "HOL", "BEL", "BRE", "KIE", "PAR", "POR", "SPA",
    ] {
        all.insert(p(n), eng);
    }
    let far = FrontPull::new(&map, eng, &all, 50);
    assert!(far.distance(UnitType::Army, p("CLY")) >= 3);
    let army = Unit {
        power: eng,
        kind: UnitType::Army,
        location: Location::new(p("CLY")),
    };
    let d = i64::from(far.distance(UnitType::Army, p("CLY")));
    assert_eq!(far.cost(&army), 50 * (d - 1));
    assert_eq!(FrontPull::new(&map, eng, &all, 0).cost(&army), 0);
}

#[test]
fn advance_moves_rear_holds_toward_the_front() {
    let map = Map::standard();
    let p = |n: &str| map.province(n).unwrap();
    let rus = map.power("RUS").unwrap();
    let mut owners = initial_ownership(&map);
    for n in ["SWE", "NWY", "RUM", "FIN"] {
        owners.insert(p(n), rus);
    }
    let unit = |kind, at: &str| Unit {
        power: rus,
        kind,
        location: Location::new(p(at)),
    };
    let rear = unit(UnitType::Army, "NWY");
    let front = unit(UnitType::Army, "GAL");
    let base = vec![Order::Hold(rear), Order::Hold(front)];
    let pull = FrontPull::new(&map, rus, &owners, 50);
    let here = pull.distance(UnitType::Army, p("NWY"));
    assert!(here >= 2, "NWY is {here} from the front");
    let v = pull.advance(&map, &base).expect("the rear army advances");
    let Order::Move {
        unit: mover, to, ..
    } = &v[0]
    else {
        panic!("expected a move, got {:?}", v[0]);
    };
    assert_eq!(*mover, rear);
    assert!(pull.distance(UnitType::Army, to.province) < here);
    // GAL is next to VIE and BUD: it keeps its hold.
    assert!(pull.distance(UnitType::Army, p("GAL")) < 2);
    assert_eq!(v[1], Order::Hold(front));
    assert!(consistent(&v));
    assert!(
        FrontPull::new(&map, rus, &owners, 0)
            .advance(&map, &base)
            .is_none()
    );
    // The evaluation rewards the step forward.
    let value = |at: &str, pull: &FrontPull| {
        let units = [unit(UnitType::Army, at), front];
        evaluate(
            &map,
            rus,
            Season::Spring,
            &units,
            &[],
            &owners,
            &shaping(pull),
        )
    };
    let to_name = map.name(to.province).to_string();
    let off = FrontPull::new(&map, rus, &owners, 0);
    let (moved, stayed) = (value(&to_name, &pull), value("NWY", &pull));
    let (moved0, stayed0) = (value(&to_name, &off), value("NWY", &off));
    assert!(moved - stayed > moved0 - stayed0);
}

/// `units` with the unit in `from` standing in `to` instead.
fn relocated(map: &Map, units: &[Unit], from: &str, to: &str) -> Vec<Unit> {
    let mut out = units.to_vec();
    for u in out.iter_mut() {
        if map.name(u.location.province) == from {
            u.location = Location::new(map.province(to).unwrap());
        }
    }
    out
}

fn shaping(pull: &FrontPull) -> Shaping {
    Shaping {
        pull: pull.clone(),
        survival_centres: 0,
        survival_value: 0,
        spare: Spare::off(),
        solo_value: 0,
    }
}

#[test]
fn dumbbot_samples_stop_at_the_deadline() {
    use crate::diplomacy::game::Game;
    let g = Game::standard(Rules::default());
    let tur = g.map().power("TUR").unwrap();
    let view = g.view(Some(tur));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let past = Instant::now();
    let far = past + std::time::Duration::from_secs(3600);
    for share in [1.0, 0.5] {
        // Past the deadline the utility model stands in for DumbBot.
        let cut = mixed_samples(&view, tur, 6, share, past, &mut rng);
        assert_eq!(cut.len(), 6, "share {share}");
        assert!(cut.iter().all(|s| s.iter().all(|o| o.power() != tur)));
    }
    let mut a = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut b = Xoshiro256PlusPlus::seed_from_u64(2);
    assert_ne!(
        mixed_samples(&view, tur, 6, 1.0, past, &mut a),
        mixed_samples(&view, tur, 6, 1.0, far, &mut b),
        "cut samples come from the other model"
    );
}

#[test]
fn evaluation_prefers_taking_a_centre() {
    let map = Map::standard();
    let units = standard_opening(&map);
    let owners = initial_ownership(&map);
    let tur = map.power("TUR").unwrap();
    let plain = shaping(&FrontPull::new(&map, tur, &owners, 0));
    let base = evaluate(&map, tur, Season::Fall, &units, &[], &owners, &plain);
    let moved = relocated(&map, &units, "CON", "BUL");
    let more = evaluate(&map, tur, Season::Fall, &moved, &[], &owners, &plain);
    assert!(more > base + 500);
}

#[test]
fn survival_term_makes_the_last_centres_dearer() {
    let map = Map::standard();
    let units = standard_opening(&map);
    let owners = initial_ownership(&map);
    let tur = map.power("TUR").unwrap();
    let plain = shaping(&FrontPull::new(&map, tur, &owners, 0));
    let careful = Shaping {
        survival_centres: 4,
        survival_value: 700,
        ..plain.clone()
    };
    // A Russian fleet takes Ankara in the fall: 3 Turkish centres become 2.
    let mut lost = units.clone();
    lost.retain(|u| map.name(u.location.province) != "ANK");
    let lost = relocated(&map, &lost, "SEV", "ANK");
    let drop = |sh: &Shaping| {
        evaluate(&map, tur, Season::Fall, &units, &[], &owners, sh)
            - evaluate(&map, tur, Season::Fall, &lost, &[], &owners, sh)
    };
    assert!(drop(&plain) >= 1000);
    assert_eq!(drop(&careful), drop(&plain) + 700);
    // Spring: an empty own centre that an enemy reaches and no own unit
    // can answer is not held. Smyrna is empty (its army gone, Constantinople's
    // in Bulgaria); a Russian army arrives in Armenia.
    let mut calm = relocated(&map, &units, "CON", "BUL");
    calm.retain(|u| map.name(u.location.province) != "SMY");
    let threatened = relocated(&map, &calm, "MOS", "ARM");
    let spring = |sh: &Shaping| {
        evaluate(&map, tur, Season::Spring, &calm, &[], &owners, sh)
            - evaluate(&map, tur, Season::Spring, &threatened, &[], &owners, sh)
    };
    assert_eq!(spring(&careful), spring(&plain) + 700);
    // With many centres the term is silent.
    assert_eq!(careful.survival_cost(4), 0);
    assert_eq!(careful.survival_cost(1), 2100);
}

#[test]
fn spare_rule_leaves_the_last_centre_of_a_power_alone() {
    let map = Map::standard();
    let mut owners = initial_ownership(&map);
    let (tur, rus) = (map.power("TUR").unwrap(), map.power("RUS").unwrap());
    // Russia is down to Sevastopol; a Turkish fleet stands in it in the fall.
    for c in ["MOS", "WAR", "STP"] {
        owners.remove(&map.province(c).unwrap());
    }
    let mut units = standard_opening(&map);
    units.retain(|u| u.power != rus);
    let after = relocated(&map, &units, "ANK", "SEV");
    let off = shaping(&FrontPull::new(&map, tur, &owners, 0));
    let spare = |owners: &HashMap<Province, Power>| {
        Shaping::new(
            FrontPull::new(&map, tur, owners, 0),
            (0, 0),
            Spare::new((1, 0.25), &map, owners),
            0,
        )
    };
    let gain = |sh: &Shaping, owners: &HashMap<Province, Power>| {
        evaluate(&map, tur, Season::Fall, &after, &[], owners, sh)
            - evaluate(&map, tur, Season::Fall, &units, &[], owners, sh)
    };
    // The last centre keeps a quarter of its worth.
    assert_eq!(gain(&off, &owners) - gain(&spare(&owners), &owners), 750);
    // With its other centres back, Sevastopol is not Russia's last: full worth.
    let full = initial_ownership(&map);
    assert_eq!(gain(&off, &full), gain(&spare(&full), &full));
    // A power exempt from the rule (a modelled one) is not spared.
    let mut exempt = spare(&owners);
    exempt.spare.exempt(|p| p == rus);
    assert_eq!(gain(&off, &owners), gain(&exempt, &owners));
    // Neutral centres are never spared.
    let mut neutral = owners.clone();
    neutral.remove(&map.province("SEV").unwrap());
    assert_eq!(gain(&off, &neutral), gain(&spare(&neutral), &neutral));
}

#[test]
fn spared_candidate_drops_the_take_with_its_supports() {
    let map = Map::standard();
    let p = |n: &str| map.province(n).unwrap();
    let (tur, rus) = (map.power("TUR").unwrap(), map.power("RUS").unwrap());
    let unit = |kind, at: &str| Unit {
        power: tur,
        kind,
        location: Location::new(p(at)),
    };
    let (ank, arm, con) = (
        unit(UnitType::Fleet, "ANK"),
        unit(UnitType::Army, "ARM"),
        unit(UnitType::Army, "CON"),
    );
    let mv = |u: Unit, to: &str| Order::Move {
        unit: u,
        to: Location::new(p(to)),
        via: None,
    };
    // Ankara takes Sevastopol with Armenia's support; Constantinople follows into Ankara.
    let orders = vec![
        mv(ank, "SEV"),
        Order::SupportMove {
            unit: arm,
            supported: ank,
            to: p("SEV"),
        },
        mv(con, "ANK"),
    ];
    let full = initial_ownership(&map);
    let mut last = full.clone();
    for c in ["MOS", "WAR", "STP"] {
        last.remove(&p(c));
    }
    let sh =
        |spare: (usize, f64), owners: &HashMap<Province, Power>| Spare::new(spare, &map, owners);
    // Sevastopol is Russia's last centre: every unit of the attack holds.
    let spared = sh((2, -1.0), &last).spared(&last, &orders).unwrap();
    assert_eq!(
        spared,
        vec![Order::Hold(ank), Order::Hold(arm), Order::Hold(con)]
    );
    assert!(consistent(&spared));
    assert_eq!(last.get(&p("SEV")), Some(&rus));
    // Russia with four centres, or the rule off: nothing to spare.
    assert_eq!(sh((2, -1.0), &full).spared(&full, &orders), None);
    assert_eq!(sh((0, 1.0), &last).spared(&last, &orders), None);
}

#[test]
fn solo_value_counts_only_for_a_solo() {
    let map = Map::standard();
    let tur = map.power("TUR").unwrap();
    let sev = map.province("SEV").unwrap();
    let mut units = standard_opening(&map);
    units.retain(|u| u.power == tur);
    let after = relocated(&map, &units, "ANK", "SEV");
    // Turkey owns `n` centres other than Sevastopol and takes it in the fall.
    let owned = |n: usize| -> HashMap<Province, Power> {
        let homes: Vec<Province> = map.home_centres(tur).collect();
        let others = map
            .supply_centres()
            .filter(|p| *p != sev && !homes.contains(p));
        homes
            .iter()
            .copied()
            .chain(others.take(n - homes.len()))
            .map(|p| (p, tur))
            .collect()
    };
    let gain = |owners: &HashMap<Province, Power>, solo: i64| {
        let sh = Shaping::new(
            FrontPull::new(&map, tur, owners, 0),
            (0, 0),
            Spare::off(),
            solo,
        );
        evaluate(&map, tur, Season::Fall, &after, &[], owners, &sh)
            - evaluate(&map, tur, Season::Fall, &units, &[], owners, &sh)
    };
    let (seventeen, sixteen) = (owned(17), owned(16));
    assert_eq!(seventeen.len(), 17);
    assert_eq!(gain(&seventeen, 5000) - gain(&seventeen, 0), 5000);
    assert_eq!(gain(&sixteen, 5000), gain(&sixteen, 0));
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
