//! Tests of the Diplomacy map: the standard map against the crate, and errors of bad definitions.

use super::*;
use dj::ShortName;

#[test]
fn standard_map_facts() {
    let m = Map::standard();
    assert_eq!(m.province_count(), 75);
    assert_eq!(m.power_count(), 7);
    assert_eq!(m.supply_centres().count(), 34);
    let kinds = |k| m.provinces().filter(|(_, i)| i.kind == k).count();
    assert_eq!(kinds(ProvinceKind::Sea), 19);
    assert_eq!(kinds(ProvinceKind::Inland), 14);
    assert_eq!(kinds(ProvinceKind::Coastal), 39);
    assert_eq!(kinds(ProvinceKind::Bicoastal), 3);
    let homes: usize = m.powers().map(|(p, _)| m.home_centres(p).count()).sum();
    assert_eq!(homes, 22);
    let rus = m.power("RUS").unwrap();
    let mut names: Vec<_> = m.home_centres(rus).map(|p| m.name(p)).collect();
    names.sort();
    assert_eq!(names, ["MOS", "SEV", "STP", "WAR"]);
    let stp = m.province("STP").unwrap();
    assert_eq!(m.info(stp).unwrap().coasts, [Coast::North, Coast::South]);
    let bul = m.province("BUL").unwrap();
    assert_eq!(m.info(bul).unwrap().coasts, [Coast::East, Coast::South]);
    for n in ["GOB", "ECH", "GOL"] {
        assert!(m.province(n).is_some(), "{n}");
    }
}

#[test]
fn standard_adjacency_spot_checks() {
    let m = Map::standard();
    let p = |n| m.province(n).unwrap();
    let l = |n| Location::new(p(n));
    // Armies.
    assert!(m.can_move(UnitType::Army, l("PAR"), l("BUR")));
    assert!(!m.can_move(UnitType::Army, l("PAR"), l("MAR")));
    assert!(m.can_move(UnitType::Army, l("GAS"), l("MAR")));
    // Fleets: coast-specific.
    let spa_nc = Location::with_coast(p("SPA"), Coast::North);
    let spa_sc = Location::with_coast(p("SPA"), Coast::South);
    assert!(m.can_move(UnitType::Fleet, l("MAO"), spa_nc));
    assert!(m.can_move(UnitType::Fleet, l("MAO"), spa_sc));
    assert!(m.can_move(UnitType::Fleet, l("GOL"), spa_sc));
    assert!(!m.can_move(UnitType::Fleet, l("GOL"), spa_nc));
    assert!(!m.can_move(UnitType::Fleet, l("GAS"), l("MAR")));
    assert!(m.can_move(UnitType::Fleet, l("KIE"), l("BER")));
    assert!(m.can_move(
        UnitType::Fleet,
        Location::with_coast(p("STP"), Coast::South),
        l("GOB")
    ));
    assert!(m.can_move(
        UnitType::Fleet,
        Location::with_coast(p("STP"), Coast::North),
        l("BAR")
    ));
    assert!(!m.can_move(
        UnitType::Fleet,
        Location::with_coast(p("STP"), Coast::North),
        l("GOB")
    ));
    assert!(m.can_reach_province(UnitType::Fleet, l("GOL"), p("SPA")));
    // Symmetry of every adjacency.
    for (a, _) in m.provinces() {
        for &b in m.army_neighbours(a) {
            assert!(m.army_neighbours(b).contains(&a));
        }
    }
    assert!(m.can_stand(UnitType::Fleet, spa_nc));
    assert!(!m.can_stand(UnitType::Fleet, l("SPA")));
    assert!(!m.can_stand(UnitType::Army, l("NTH")));
}

/// Our standard map against the `diplomacy` crate's: ours contains all of
/// its adjacencies, and the extra ones are exactly the borders the crate's
/// 0.2.0 data lacks although the standard board has them (which is why
/// tablero never uses the crate's standard map, only its adjudicator).
#[test]
fn standard_map_agrees_with_the_crate_except_its_eleven_missing_borders() {
    let m = Map::standard();
    let src = dj::geo::standard_map();
    let rename = |s: &str| match s.to_ascii_uppercase().as_str() {
        "BOT" => "GOB".to_string(),
        "ENG" => "ECH".to_string(),
        "LYO" => "GOL".to_string(),
        other => other.to_string(),
    };
    let coast = |c: Option<dj::geo::Coast>| match c {
        None => "",
        Some(dj::geo::Coast::North) => "/NC",
        Some(dj::geo::Coast::South) => "/SC",
        Some(dj::geo::Coast::East) => "/EC",
        Some(dj::geo::Coast::West) => "/WC",
    };
    let mut theirs_army = BTreeSet::new();
    let mut theirs_fleet = BTreeSet::new();
    for r in src.regions() {
        let k = dj::geo::RegionKey::from(r);
        for b in src.borders_containing(&k) {
            let Some(o) = b.dest_from(&k) else { continue };
            let a = rename(&k.province().short_name());
            let z = rename(&o.province().short_name());
            if a == "SWI" || z == "SWI" {
                continue;
            }
            if b.terrain() != dj::geo::Terrain::Sea {
                theirs_army.insert((a.clone().min(z.clone()), a.clone().max(z.clone())));
            }
            if b.terrain() != dj::geo::Terrain::Land {
                let x = format!("{a}{}", coast(k.coast()));
                let y = format!("{z}{}", coast(o.coast()));
                theirs_fleet.insert((x.clone().min(y.clone()), x.max(y)));
            }
        }
    }
    let mut ours_army = BTreeSet::new();
    let mut ours_fleet = BTreeSet::new();
    let lname = |l: Location| {
        format!(
            "{}{}",
            m.name(l.province),
            l.coast
                .map(|c| format!("/{}", c.abbrev()))
                .unwrap_or_default()
        )
    };
    for (p, _) in m.provinces() {
        for &q in m.army_neighbours(p) {
            let (a, z) = (m.name(p).to_string(), m.name(q).to_string());
            ours_army.insert((a.clone().min(z.clone()), a.max(z)));
        }
    }
    for (l, ns) in &m.fleet {
        for n in ns {
            let (x, y) = (lname(*l), lname(*n));
            ours_fleet.insert((x.clone().min(y.clone()), x.max(y)));
        }
    }
    let missing_army: Vec<_> = theirs_army.difference(&ours_army).collect();
    let missing_fleet: Vec<_> = theirs_fleet.difference(&ours_fleet).collect();
    assert!(missing_army.is_empty(), "{missing_army:?}");
    assert!(missing_fleet.is_empty(), "{missing_fleet:?}");
    let extra_army: Vec<_> = ours_army.difference(&theirs_army).collect();
    let extra_fleet: Vec<_> = ours_fleet.difference(&theirs_fleet).collect();
    let show = |v: Vec<&(String, String)>| {
        v.iter()
            .map(|(a, b)| format!("{a}-{b}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(show(extra_army), "GAL-UKR LVN-WAR NWY-STP");
    assert_eq!(
        show(extra_fleet),
        "CON-SMY FIN-GOB GOB-LVN GOB-STP/SC GOB-SWE MAO-SPA/SC NWY-STP/NC TUS-TYS"
    );
}

#[test]
fn standard_text_lists_are_symmetric() {
    // Every list in the built-in text is mirrored by the neighbour's list:
    // a typo would show up as a one-way entry.
    let top = read_sx(STANDARD_MAP_TEXT).unwrap();
    let Sx::List(adjs) = &top[3] else { panic!() };
    let mut directed = BTreeSet::new();
    for e in adjs {
        let Sx::List(items) = e else { panic!() };
        let Sx::Atom(p) = &items[0] else { panic!() };
        for l in &items[1..] {
            let Sx::List(l) = l else { panic!() };
            let (unit, c) = match &l[0] {
                Sx::Atom(u) => (u.clone(), String::new()),
                Sx::List(fc) => match (&fc[0], &fc[1]) {
                    (Sx::Atom(u), Sx::Atom(c)) => (u.clone(), c.clone()),
                    _ => panic!(),
                },
            };
            for to in &l[1..] {
                let (q, qc) = match to {
                    Sx::Atom(q) => (q.clone(), String::new()),
                    Sx::List(pc) => match (&pc[0], &pc[1]) {
                        (Sx::Atom(q), Sx::Atom(qc)) => (q.clone(), qc.clone()),
                        _ => panic!(),
                    },
                };
                directed.insert((unit.clone(), p.clone(), c.clone(), q, qc));
            }
        }
    }
    for (u, p, c, q, qc) in &directed {
        assert!(
            directed.contains(&(u.clone(), q.clone(), qc.clone(), p.clone(), c.clone())),
            "{u} {p}/{c} -> {q}/{qc} is one-way"
        );
    }
    assert_eq!(directed.len() % 2, 0);
}

#[test]
fn definition_errors_are_reported() {
    for bad in [
        "(",
        ")",
        "(A) (B)",
        "MDF (AUS) (((AUS XXX)) ()) ((YYY (AMY XXX)))",
        "(AUS) (() ()) ((X (FOO)))",
        "#",
    ] {
        assert!(Map::parse_definition(bad).is_err(), "{bad}");
    }
    let deep = "(".repeat(100) + &")".repeat(100);
    assert!(Map::parse_definition(&deep).is_err());
}

#[test]
fn builder_rejects_bad_maps() {
    let mut b = MapBuilder::new();
    let s = b.province("SEA", ProvinceKind::Sea, false).unwrap();
    let i = b.province("INL", ProvinceKind::Inland, false).unwrap();
    assert!(b.province("SEA", ProvinceKind::Sea, false).is_err());
    b.army_adjacent(s, i);
    assert!(matches!(b.build(), Err(MapError::BadAdjacency { .. })));

    let mut b = MapBuilder::new();
    let s = b.province("SEA", ProvinceKind::Sea, false).unwrap();
    let c = b.province("BIC", ProvinceKind::Bicoastal, false).unwrap();
    b.fleet_adjacent(Location::new(s), Location::new(c));
    assert!(matches!(b.build(), Err(MapError::BadCoast(_))));
}

#[test]
fn five_coast_provinces_are_refused_and_odd_coasts_relabelled() {
    let mut b = MapBuilder::new();
    let c = b.province("BIC", ProvinceKind::Bicoastal, false).unwrap();
    let s1 = b.province("SA1", ProvinceKind::Sea, false).unwrap();
    let s2 = b.province("SA2", ProvinceKind::Sea, false).unwrap();
    b.fleet_adjacent(Location::with_coast(c, Coast::NorthEast), Location::new(s1));
    b.fleet_adjacent(Location::with_coast(c, Coast::SouthWest), Location::new(s2));
    let m = b.build().unwrap();
    let ne = m.judge_coast(Location::with_coast(c, Coast::NorthEast));
    let sw = m.judge_coast(Location::with_coast(c, Coast::SouthWest));
    assert!(ne.is_some() && sw.is_some() && ne != sw);
    assert_eq!(m.coast_from_judge(c, ne), Some(Coast::NorthEast));
}
