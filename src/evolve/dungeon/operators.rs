//! Dungeon variation operators: graph crossover by index cuts (single and multi-point, each
//! parent with its own cut indices, plus a few random A–B edges so crossover does not only
//! lose edges), and the edge, node and room (key-marker) mutations and their combination.
//! Every operator returns valid genomes (see [`Dungeon::check`]).

use rand::Rng;
use rand::seq::SliceRandom;

use super::genome::{Dungeon, InitParams};

/// How the combined mutation applies the three mutations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Combined {
    /// Pick one of edge, node and room mutation uniformly (tablero's default).
    One,
    /// Apply all three in turn.
    All,
}

/// Parameters of the operators.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OperatorParams {
    /// Cut points per parent: 1 = single-point crossover.
    pub cuts: usize,
    /// Random new edges between A-nodes and B-nodes after a crossover (inclusive range).
    pub cross_edges_min: usize,
    pub cross_edges_max: usize,
    pub combined: Combined,
}

/// Cut indices for a parent of `n` rooms: `k` distinct sorted values in [1, n−2]; piece i is
/// the index range ending at the i-th cut (inclusive).
fn cuts<R: Rng>(n: usize, k: usize, rng: &mut R) -> Vec<usize> {
    let mut all: Vec<usize> = (1..=n.saturating_sub(2)).collect();
    all.shuffle(rng);
    all.truncate(k);
    all.sort_unstable();
    all
}

fn pieces(n: usize, cuts: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut lo = 0;
    for &c in cuts {
        out.push(lo..c + 1);
        lo = c + 1;
    }
    out.push(lo..n);
    out
}

/// Build a child from alternating pieces; `first` supplies the even pieces.
fn child<R: Rng>(
    first: &Dungeon,
    pf: &[std::ops::Range<usize>],
    second: &Dungeon,
    ps: &[std::ops::Range<usize>],
    p: &OperatorParams,
    rng: &mut R,
) -> Dungeon {
    let mut map_f = vec![usize::MAX; first.len()];
    let mut map_s = vec![usize::MAX; second.len()];
    let mut rooms = Vec::new();
    for i in 0..pf.len().max(ps.len()) {
        let (src, map, range) = if i % 2 == 0 {
            (first, &mut map_f, pf.get(i))
        } else {
            (second, &mut map_s, ps.get(i))
        };
        if let Some(r) = range {
            for v in r.clone() {
                map[v] = rooms.len();
                rooms.push(src.rooms[v]);
            }
        }
    }
    let mut d = Dungeon {
        rooms,
        edges: Vec::new(),
        start: None,
        key: None,
        end: None,
    };
    for (src, map) in [(first, &map_f), (second, &map_s)] {
        for &(a, b) in &src.edges {
            if map[a] != usize::MAX && map[b] != usize::MAX {
                d.edges.push((map[a], map[b]));
            }
        }
    }
    d.normalise_edges();
    let fa: Vec<usize> = map_f.iter().copied().filter(|&x| x != usize::MAX).collect();
    let sb: Vec<usize> = map_s.iter().copied().filter(|&x| x != usize::MAX).collect();
    if !fa.is_empty() && !sb.is_empty() {
        let k = rng.gen_range(p.cross_edges_min..=p.cross_edges_max.max(p.cross_edges_min));
        for _ in 0..k {
            let a = fa[rng.gen_range(0..fa.len())];
            let b = sb[rng.gen_range(0..sb.len())];
            d.add_edge(a, b);
        }
    }
    let pick = |m: Option<usize>, n: Option<usize>| {
        m.and_then(|i| (map_f[i] != usize::MAX).then_some(map_f[i]))
            .or_else(|| n.and_then(|i| (map_s[i] != usize::MAX).then_some(map_s[i])))
    };
    d.start = pick(first.start, second.start);
    d.key = pick(first.key, second.key);
    d.end = pick(first.end, second.end);
    d.repair_markers(rng);
    d
}

/// Graph crossover with `p.cuts` cut points per parent (each parent its own indices, so the
/// children can differ in size). Parents too small to cut are returned unchanged.
pub fn crossover<R: Rng>(
    a: &Dungeon,
    b: &Dungeon,
    p: &OperatorParams,
    rng: &mut R,
) -> (Dungeon, Dungeon) {
    let k = p
        .cuts
        .max(1)
        .min(a.len().saturating_sub(2))
        .min(b.len().saturating_sub(2));
    if k == 0 {
        return (a.clone(), b.clone());
    }
    let pa = pieces(a.len(), &cuts(a.len(), k, rng));
    let pb = pieces(b.len(), &cuts(b.len(), k, rng));
    let c1 = child(a, &pa, b, &pb, p, rng);
    let c2 = child(b, &pb, a, &pa, p, rng);
    (c1, c2)
}

/// Add or delete a random edge, 50 % / 50 % (add when there is none to delete, delete when
/// the graph is complete).
pub fn mutate_edge<R: Rng>(d: &mut Dungeon, rng: &mut R) {
    let n = d.len();
    let complete = d.edges.len() >= n * (n - 1) / 2;
    let add = !complete && (d.edges.is_empty() || rng.gen_bool(0.5));
    if add {
        loop {
            let a = rng.gen_range(0..n);
            let b = rng.gen_range(0..n);
            if d.add_edge(a, b) {
                break;
            }
        }
    } else if !d.edges.is_empty() {
        let i = rng.gen_range(0..d.edges.len());
        d.edges.remove(i);
    }
}

/// Add a random room (with one edge to a random existing room) or delete a random room
/// (never below 3 rooms), 50 % / 50 %. A deleted key room's marker moves to a random free
/// room.
pub fn mutate_node<R: Rng>(d: &mut Dungeon, init: &InitParams, rng: &mut R) {
    let n = d.len();
    if n <= 3 || rng.gen_bool(0.5) {
        let r = init.random_room(rng);
        let other = rng.gen_range(0..n);
        d.rooms.push(r);
        d.add_edge(n, other);
    } else {
        let v = rng.gen_range(0..n);
        d.rooms.remove(v);
        let shift = |x: usize| if x > v { x - 1 } else { x };
        d.edges = d
            .edges
            .iter()
            .filter(|(a, b)| *a != v && *b != v)
            .map(|&(a, b)| (shift(a), shift(b)))
            .collect();
        d.normalise_edges();
        let fix = |m: Option<usize>| m.and_then(|i| (i != v).then(|| shift(i)));
        d.start = fix(d.start);
        d.key = fix(d.key);
        d.end = fix(d.end);
        d.repair_markers(rng);
    }
}

/// Move one of the three key-room markers to a random room holding no marker.
pub fn mutate_room<R: Rng>(d: &mut Dungeon, rng: &mut R) {
    let n = d.len();
    let taken = [d.start, d.key, d.end];
    let free: Vec<usize> = (0..n).filter(|i| !taken.contains(&Some(*i))).collect();
    if free.is_empty() {
        return;
    }
    let to = Some(free[rng.gen_range(0..free.len())]);
    match rng.gen_range(0..3) {
        0 => d.start = to,
        1 => d.key = to,
        _ => d.end = to,
    }
}

/// The combined mutation.
pub fn mutate<R: Rng>(d: &mut Dungeon, init: &InitParams, p: &OperatorParams, rng: &mut R) {
    match p.combined {
        Combined::One => match rng.gen_range(0..3) {
            0 => mutate_edge(d, rng),
            1 => mutate_node(d, init, rng),
            _ => mutate_room(d, rng),
        },
        Combined::All => {
            mutate_edge(d, rng);
            mutate_node(d, init, rng);
            mutate_room(d, rng);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn init() -> InitParams {
        InitParams {
            rooms_min: 3,
            rooms_max: 40,
            edge_factor: 1.2,
            room_side_min: 4,
            room_side_max: 12,
            enemies_max: 3,
            chests_max: 2,
        }
    }

    fn ops(cuts: usize, combined: Combined) -> OperatorParams {
        OperatorParams {
            cuts,
            cross_edges_min: 1,
            cross_edges_max: 3,
            combined,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn operators_keep_genomes_valid(seed in any::<u64>(), cuts in 1usize..4, all in any::<bool>()) {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let p = ops(cuts, if all { Combined::All } else { Combined::One });
            let mut a = Dungeon::random(&init(), &mut rng);
            let mut b = Dungeon::random(&init(), &mut rng);
            for _ in 0..20 {
                let (c, d) = crossover(&a, &b, &p, &mut rng);
                prop_assert!(c.check().is_ok(), "{:?}", c.check());
                prop_assert!(d.check().is_ok(), "{:?}", d.check());
                prop_assert!(c.len() >= 3 && d.len() >= 3);
                prop_assert_eq!(c.len() + d.len(), a.len() + b.len());
                a = c;
                b = d;
                mutate(&mut a, &init(), &p, &mut rng);
                mutate_edge(&mut b, &mut rng);
                mutate_node(&mut b, &init(), &mut rng);
                mutate_room(&mut b, &mut rng);
                prop_assert!(a.check().is_ok(), "{:?}", a.check());
                prop_assert!(b.check().is_ok(), "{:?}", b.check());
            }
        }
    }

    #[test]
    fn single_point_children_are_a_low_plus_b_high() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let a = Dungeon::random(&init(), &mut rng);
        let b = Dungeon::random(&init(), &mut rng);
        let (c, _) = crossover(&a, &b, &ops(1, Combined::One), &mut rng);
        // The child starts with a prefix of A's rooms (at least 2) and ends with a suffix
        // of B's rooms (at least 1).
        let pre = c
            .rooms
            .iter()
            .zip(&a.rooms)
            .take_while(|(x, y)| x == y)
            .count();
        let suf = c
            .rooms
            .iter()
            .rev()
            .zip(b.rooms.iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        assert!(pre >= 2 && suf >= 1 && pre + suf >= c.len(), "{pre} {suf}");
    }

    #[test]
    fn edge_mutation_adds_or_deletes_one() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let mut d = Dungeon::random(&init(), &mut rng);
        let (mut adds, mut dels) = (0, 0);
        for _ in 0..400 {
            let before = d.edges.len();
            mutate_edge(&mut d, &mut rng);
            match d.edges.len() as i64 - before as i64 {
                1 => adds += 1,
                -1 => dels += 1,
                x => panic!("changed by {x}"),
            }
        }
        assert!(adds > 150 && dels > 150, "{adds} {dels}");
    }

    #[test]
    fn room_mutation_moves_exactly_one_marker() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut d = Dungeon::random(&init(), &mut rng);
        for _ in 0..100 {
            let before = d.markers();
            mutate_room(&mut d, &mut rng);
            let changed = before
                .iter()
                .zip(d.markers())
                .filter(|(x, y)| **x != *y)
                .count();
            assert_eq!(changed, 1);
            d.check().unwrap();
        }
    }
}
