//! The dungeon genome: an undirected room graph (nodes = rooms with width, height, enemy and
//! chest counts; edges = connections) with the start, key and end room markers. Graph
//! queries (adjacency, BFS distances, connected components, induced subgraphs), random
//! initialisation and the invariant check every operator must keep.

use std::collections::VecDeque;

use rand::Rng;
use serde::{Deserialize, Serialize};

/// One room (a node).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Room {
    pub width: u32,
    pub height: u32,
    pub enemies: u32,
    pub chests: u32,
}

/// A room graph. A valid genome has all three markers, on distinct nodes; a connected
/// component extracted from a genome may lack some of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dungeon {
    pub rooms: Vec<Room>,
    /// Undirected edges `(a, b)` with `a < b`, sorted, no duplicates.
    pub edges: Vec<(usize, usize)>,
    pub start: Option<usize>,
    pub key: Option<usize>,
    pub end: Option<usize>,
}

/// The ranges random rooms and graphs are drawn from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InitParams {
    pub rooms_min: usize,
    pub rooms_max: usize,
    /// Edges drawn per room (`round(edge_factor · n)` distinct random pairs).
    pub edge_factor: f64,
    pub room_side_min: u32,
    pub room_side_max: u32,
    pub enemies_max: u32,
    pub chests_max: u32,
}

impl InitParams {
    pub fn random_room<R: Rng>(&self, rng: &mut R) -> Room {
        let lo = self.room_side_min.min(self.room_side_max);
        let hi = self.room_side_max.max(lo);
        Room {
            width: rng.gen_range(lo..=hi),
            height: rng.gen_range(lo..=hi),
            enemies: rng.gen_range(0..=self.enemies_max),
            chests: rng.gen_range(0..=self.chests_max),
        }
    }
}

impl Dungeon {
    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// Sort and deduplicate the edges, dropping self-loops and out-of-range ends.
    pub fn normalise_edges(&mut self) {
        let n = self.rooms.len();
        for e in &mut self.edges {
            if e.0 > e.1 {
                *e = (e.1, e.0);
            }
        }
        self.edges.retain(|&(a, b)| a != b && b < n);
        self.edges.sort_unstable();
        self.edges.dedup();
    }

    pub fn has_edge(&self, a: usize, b: usize) -> bool {
        let e = if a < b { (a, b) } else { (b, a) };
        self.edges.binary_search(&e).is_ok()
    }

    /// Add an edge (kept sorted); false if it is a self-loop or already there.
    pub fn add_edge(&mut self, a: usize, b: usize) -> bool {
        if a == b || a >= self.len() || b >= self.len() {
            return false;
        }
        let e = if a < b { (a, b) } else { (b, a) };
        match self.edges.binary_search(&e) {
            Ok(_) => false,
            Err(i) => {
                self.edges.insert(i, e);
                true
            }
        }
    }

    pub fn adjacency(&self) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); self.rooms.len()];
        for &(a, b) in &self.edges {
            adj[a].push(b);
            adj[b].push(a);
        }
        adj
    }

    pub fn markers(&self) -> [Option<usize>; 3] {
        [self.start, self.key, self.end]
    }

    /// The genome invariants: no self-loops or duplicate edges, ends in range, all three
    /// markers present, in range and distinct.
    pub fn check(&self) -> Result<(), String> {
        let n = self.rooms.len();
        for w in self.edges.windows(2) {
            if w[0] >= w[1] {
                return Err(format!("edges not sorted/unique at {:?}", w));
            }
        }
        for &(a, b) in &self.edges {
            if a >= b || b >= n {
                return Err(format!("bad edge ({a}, {b}) with {n} rooms"));
            }
        }
        let m = self.markers();
        let mut ids = Vec::new();
        for (name, x) in ["start", "key", "end"].iter().zip(m) {
            match x {
                Some(i) if i < n => ids.push(i),
                Some(i) => return Err(format!("{name} room {i} out of range ({n} rooms)")),
                None => return Err(format!("{name} room missing")),
            }
        }
        if ids[0] == ids[1] || ids[1] == ids[2] || ids[0] == ids[2] {
            return Err(format!("key rooms not distinct: {ids:?}"));
        }
        Ok(())
    }

    /// A random graph: n rooms, `round(edge_factor · n)` random distinct edges (it may be
    /// disconnected), markers on three distinct random rooms.
    pub fn random<R: Rng>(p: &InitParams, rng: &mut R) -> Dungeon {
        let lo = p.rooms_min.max(3);
        let hi = p.rooms_max.max(lo);
        let n = rng.gen_range(lo..=hi);
        let rooms = (0..n).map(|_| p.random_room(rng)).collect();
        let mut d = Dungeon {
            rooms,
            edges: Vec::new(),
            start: None,
            key: None,
            end: None,
        };
        let max_edges = n * (n - 1) / 2;
        let want = ((p.edge_factor * n as f64).round() as usize).min(max_edges);
        while d.edges.len() < want {
            let a = rng.gen_range(0..n);
            let b = rng.gen_range(0..n);
            d.add_edge(a, b);
        }
        d.repair_markers(rng);
        d
    }

    /// Put missing, out-of-range or colliding markers on random free rooms (needs ≥ 3 rooms).
    pub fn repair_markers<R: Rng>(&mut self, rng: &mut R) {
        let n = self.rooms.len();
        let mut taken: Vec<usize> = Vec::new();
        let mut fixed = [self.start, self.key, self.end];
        for m in fixed.iter_mut() {
            match *m {
                Some(i) if i < n && !taken.contains(&i) => taken.push(i),
                _ => *m = None,
            }
        }
        for m in fixed.iter_mut() {
            if m.is_none() && taken.len() < n {
                let free: Vec<usize> = (0..n).filter(|i| !taken.contains(i)).collect();
                let i = free[rng.gen_range(0..free.len())];
                taken.push(i);
                *m = Some(i);
            }
        }
        [self.start, self.key, self.end] = fixed;
    }

    /// BFS distances (in edges) from `src`; `usize::MAX` when unreachable.
    pub fn distances(adj: &[Vec<usize>], src: usize) -> Vec<usize> {
        let mut d = vec![usize::MAX; adj.len()];
        let mut q = VecDeque::new();
        d[src] = 0;
        q.push_back(src);
        while let Some(u) = q.pop_front() {
            for &v in &adj[u] {
                if d[v] == usize::MAX {
                    d[v] = d[u] + 1;
                    q.push_back(v);
                }
            }
        }
        d
    }

    /// Connected components, each sorted, in order of their smallest node.
    pub fn components(&self) -> Vec<Vec<usize>> {
        let adj = self.adjacency();
        let mut comp = vec![usize::MAX; self.len()];
        let mut out = Vec::new();
        for s in 0..self.len() {
            if comp[s] != usize::MAX {
                continue;
            }
            let id = out.len();
            let mut nodes = vec![s];
            comp[s] = id;
            let mut i = 0;
            while i < nodes.len() {
                let u = nodes[i];
                i += 1;
                for &v in &adj[u] {
                    if comp[v] == usize::MAX {
                        comp[v] = id;
                        nodes.push(v);
                    }
                }
            }
            nodes.sort_unstable();
            out.push(nodes);
        }
        out
    }

    /// The subgraph induced by `nodes` (sorted), renumbered 0.. in that order; markers
    /// outside it become `None`.
    pub fn induced(&self, nodes: &[usize]) -> Dungeon {
        let mut map = vec![usize::MAX; self.len()];
        for (i, &v) in nodes.iter().enumerate() {
            map[v] = i;
        }
        let m = |x: Option<usize>| x.and_then(|i| (map[i] != usize::MAX).then_some(map[i]));
        let mut d = Dungeon {
            rooms: nodes.iter().map(|&v| self.rooms[v]).collect(),
            edges: self
                .edges
                .iter()
                .filter(|(a, b)| map[*a] != usize::MAX && map[*b] != usize::MAX)
                .map(|(a, b)| (map[*a], map[*b]))
                .collect(),
            start: m(self.start),
            key: m(self.key),
            end: m(self.end),
        };
        d.normalise_edges();
        d
    }

    pub fn mean_degree(&self) -> f64 {
        if self.is_empty() {
            0.0
        } else {
            2.0 * self.edges.len() as f64 / self.len() as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    pub fn params() -> InitParams {
        InitParams {
            rooms_min: 15,
            rooms_max: 40,
            edge_factor: 1.2,
            room_side_min: 4,
            room_side_max: 12,
            enemies_max: 3,
            chests_max: 2,
        }
    }

    #[test]
    fn random_genomes_are_valid() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..200 {
            let d = Dungeon::random(&params(), &mut rng);
            d.check().unwrap();
            assert!((15..=40).contains(&d.len()));
            assert_eq!(d.edges.len(), (1.2 * d.len() as f64).round() as usize);
        }
    }

    #[test]
    fn components_and_induced() {
        let r = Room {
            width: 4,
            height: 4,
            enemies: 0,
            chests: 0,
        };
        let d = Dungeon {
            rooms: vec![r; 5],
            edges: vec![(0, 3), (1, 4)],
            start: Some(0),
            key: Some(3),
            end: Some(4),
        };
        assert_eq!(d.components(), vec![vec![0, 3], vec![1, 4], vec![2]]);
        let c = d.induced(&[1, 4]);
        assert_eq!(c.edges, vec![(0, 1)]);
        assert_eq!((c.start, c.key, c.end), (None, None, Some(1)));
    }
}
