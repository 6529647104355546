//! Tests of DumbBot: the walk and queue of destinations, coasts, and ties broken in token order.

use super::*;

#[test]
fn walk_keys_collapse_and_order() {
    let mut r: Ranked<u8> = Ranked::new();
    r.insert(5, 1);
    r.insert(9, 2);
    r.insert(5, 3);
    assert_eq!(r.items, vec![(9, 2), (5, 1)]);
    r.assign(5, 4);
    assert_eq!(r.items, vec![(9, 2), (5, 4)]);
}

#[test]
fn walk_stops_on_a_clear_best() {
    // (100 − 10)·500/100 = 450 ≥ any rand%100: never moves on.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for _ in 0..200 {
        assert_eq!(walk_down(&mut rng, &[(100, ()), (10, ())]), 0);
    }
    // Equal-ish values: about half the time it moves on.
    let moved = (0..2000)
        .filter(|_| walk_down(&mut rng, &[(1000, ()), (999, ())]) == 1)
        .count();
    assert!((800..1200).contains(&moved), "{moved}");
}

#[test]
fn queue_keeps_highest_first_and_requeues_after_equal_keys() {
    let mut q = Vec::new();
    queue_insert(&mut q, 5, Province(1));
    queue_insert(&mut q, 9, Province(2));
    queue_insert(&mut q, 5, Province(3));
    queue_insert(&mut q, 4, Province(4));
    let order: Vec<u16> = q.iter().map(|(_, p)| p.0).collect();
    assert_eq!(order, vec![2, 1, 3, 4]);
}

#[test]
fn bicoastal_nodes_and_max_over_coasts() {
    let map = Arc::new(Map::standard());
    let g = Graph::new(Arc::clone(&map));
    let spa = map.province("SPA").unwrap();
    let spots: Vec<Spot> = g.province_nodes[spa.0 as usize]
        .iter()
        .map(|i| g.nodes[*i].spot)
        .collect();
    assert_eq!(
        spots,
        vec![
            Spot::Army,
            Spot::Coast(Coast::North),
            Spot::Coast(Coast::South)
        ]
    );
    // MAO's fleet node touches both Spanish coasts, listed consecutively.
    let mao = g.index[&Node {
        province: map.province("MAO").unwrap(),
        spot: Spot::Fleet,
    }];
    let spa_adj: Vec<_> = g.adj[mao]
        .iter()
        .filter(|j| g.nodes[**j].province == spa)
        .collect();
    assert_eq!(spa_adj.len(), 2);
}

/// A view of the standard map for England: home centres owned as at the
/// start, the given English armies, nothing else on the board.
fn english_armies(season: Season, at: &[&str]) -> (GameView, Power) {
    let map = Arc::new(Map::standard());
    let eng = map.power("ENG").unwrap();
    let owners = (0..map.power_count())
        .flat_map(|i| {
            let pw = Power(i as u8);
            map.home_centres(pw)
                .map(move |p| (p, pw))
                .collect::<Vec<_>>()
        })
        .collect();
    let units = at
        .iter()
        .map(|n| Unit {
            power: eng,
            kind: UnitType::Army,
            location: Location::new(map.province(n).unwrap()),
        })
        .collect();
    let view = GameView {
        map,
        me: Some(eng),
        phase: crate::diplomacy::Phase { year: 1901, season },
        units,
        dislodged: Vec::new(),
        owners,
    };
    (view, eng)
}

#[test]
fn nodes_follow_the_daide_token_order() {
    let map = Arc::new(Map::standard());
    let g = Graph::new(Arc::clone(&map));
    let wal = g.index[&Node {
        province: map.province("WAL").unwrap(),
        spot: Spot::Army,
    }];
    let names: Vec<&str> = g.adj[wal]
        .iter()
        .map(|j| map.name(g.nodes[*j].province))
        .collect();
    // Token numbers: YOR 0x2F, LON 0x3A, LVP 0x3B (alphabetically LON first).
    assert_eq!(names, vec!["YOR", "LON", "LVP"]);
}

#[test]
fn movement_tie_keeps_the_first_destination_in_token_order() {
    // A lone English A WAL: the island's army nodes see no centre worth
    // taking, so LON, LVP and YOR are all worth 1000 (one own unit next to
    // each) and holding 1001. The original keeps YOR, the first of the
    // three in token order, and moves there half the time.
    let (view, eng) = english_armies(Season::Spring, &["WAL"]);
    let g = Graph::new(Arc::clone(&view.map));
    let vals = evaluate(&g, &view, eng);
    let value = |n: &str| {
        let p = view.map.province(n).unwrap();
        vals.value[g.index[&Node {
            province: p,
            spot: Spot::Army,
        }]]
    };
    assert_eq!(
        (value("LON"), value("LVP"), value("YOR")),
        (1000, 1000, 1000)
    );
    assert_eq!(value("WAL"), 1000);
    let mut to_yor = 0;
    for seed in 0..200 {
        let orders = DumbBot::new(seed).orders_as(&view, eng);
        match orders.as_slice() {
            [Order::Hold(_)] => {}
            [Order::Move { to, .. }] if view.map.name(to.province) == "YOR" => to_yor += 1,
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    assert!((70..130).contains(&to_yor), "{to_yor}");
}

#[test]
fn removal_tie_keeps_the_last_unit_in_token_order() {
    // Four English armies on the island, three centres: every army is
    // worth 0 in winter, the removal list keeps the last unit assigned to
    // that value, and the original assigns in province token order
    // (CLY 0x24, WAL 0x2E, YOR 0x2F, LON 0x3A): A LON is removed.
    let (view, eng) = english_armies(Season::Winter, &["LON", "CLY", "WAL", "YOR"]);
    for seed in 0..20 {
        let orders = DumbBot::new(seed).orders_as(&view, eng);
        match orders.as_slice() {
            [Order::Remove(u)] => assert_eq!(view.map.name(u.location.province), "LON"),
            other => panic!("seed {seed}: {other:?}"),
        }
    }
}
