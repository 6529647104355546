//! The thesis's dungeon fitness, term by term, per connected component (CC):
//!
//! ```text
//! Maximised = DistanciaSalasClave + Dispersion(chests) + Dispersion(enemies) + RatioSalas
//! Minimised = 0.4 · NumeroSalas + MediaGrado
//! Fitness(CC) = Maximised − Minimised;  Fitness(graph) = max over CCs
//! ```
//!
//! - DistanciaSalasClave = d(start, key) + d(key, end) by BFS, scored only when the CC holds
//!   all three key rooms (else 0).
//! - Dispersion(e) = (1/n_e) Σ_i Σ_k d(i,k)/(n_e − 1) over the n_e elements of type e
//!   (0 for n_e ≤ 1; d = 0 inside one room).
//! - RatioSalas = mean(width)/mean(height) − 1.
//! - MediaGrado = Σ degree / n.
//!
//! tablero additions (off by default): `rooms_weight` (0.4 in the thesis) and a penalty
//! `window_penalty · (rooms outside [window_min, window_max])`.

use serde::Serialize;

use super::genome::Dungeon;

/// Weights of the fitness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitnessParams {
    pub rooms_weight: f64,
    pub window_min: usize,
    pub window_max: usize,
    pub window_penalty: f64,
}

impl Default for FitnessParams {
    fn default() -> Self {
        FitnessParams {
            rooms_weight: 0.4,
            window_min: 15,
            window_max: 30,
            window_penalty: 0.0,
        }
    }
}

/// The terms of one CC.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Terms {
    pub key_distance: f64,
    pub rooms: usize,
    pub mean_degree: f64,
    pub chest_dispersion: f64,
    pub enemy_dispersion: f64,
    pub room_ratio: f64,
    pub window_penalty: f64,
    pub fitness: f64,
}

/// All-pairs BFS distances of a connected graph (`usize::MAX` when unreachable).
fn all_pairs(d: &Dungeon) -> Vec<Vec<usize>> {
    let adj = d.adjacency();
    (0..d.len()).map(|s| Dungeon::distances(&adj, s)).collect()
}

/// Dispersion of elements placed `counts[r]` per room.
pub fn dispersion(dist: &[Vec<usize>], counts: &[u32]) -> f64 {
    let n: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    if n <= 1 {
        return 0.0;
    }
    let mut sum = 0.0;
    for (r, &cr) in counts.iter().enumerate() {
        if cr == 0 {
            continue;
        }
        for (s, &cs) in counts.iter().enumerate() {
            if cs == 0 || r == s {
                continue;
            }
            let d = dist[r][s];
            if d != usize::MAX {
                sum += f64::from(cr) * f64::from(cs) * d as f64;
            }
        }
    }
    let n = n as f64;
    sum / (n - 1.0) / n
}

/// The fitness of a graph taken as one component (call it on a CC).
pub fn component_terms(cc: &Dungeon, p: &FitnessParams) -> Terms {
    let n = cc.len();
    let dist = all_pairs(cc);
    let key_distance = match (cc.start, cc.key, cc.end) {
        (Some(s), Some(k), Some(e)) => {
            let a = dist[s][k];
            let b = dist[k][e];
            if a == usize::MAX || b == usize::MAX {
                0.0
            } else {
                (a + b) as f64
            }
        }
        _ => 0.0,
    };
    let chests: Vec<u32> = cc.rooms.iter().map(|r| r.chests).collect();
    let enemies: Vec<u32> = cc.rooms.iter().map(|r| r.enemies).collect();
    let chest_dispersion = dispersion(&dist, &chests);
    let enemy_dispersion = dispersion(&dist, &enemies);
    let (sw, sh) = cc.rooms.iter().fold((0u64, 0u64), |(w, h), r| {
        (w + u64::from(r.width), h + u64::from(r.height))
    });
    let room_ratio = if sh == 0 {
        0.0
    } else {
        sw as f64 / sh as f64 - 1.0
    };
    let mean_degree = cc.mean_degree();
    let outside = if n < p.window_min {
        p.window_min - n
    } else {
        n.saturating_sub(p.window_max)
    };
    let window_penalty = p.window_penalty * outside as f64;
    let fitness = key_distance + chest_dispersion + enemy_dispersion + room_ratio
        - (p.rooms_weight * n as f64 + mean_degree)
        - window_penalty;
    Terms {
        key_distance,
        rooms: n,
        mean_degree,
        chest_dispersion,
        enemy_dispersion,
        room_ratio,
        window_penalty,
        fitness,
    }
}

/// The fitness of a graph: its best CC (index into `components()`, its terms).
pub fn evaluate(d: &Dungeon, p: &FitnessParams) -> (usize, Terms) {
    let comps = d.components();
    let mut best: Option<(usize, Terms)> = None;
    for (i, c) in comps.iter().enumerate() {
        let t = component_terms(&d.induced(c), p);
        if best.is_none_or(|(_, b)| t.fitness > b.fitness) {
            best = Some((i, t));
        }
    }
    best.unwrap_or((
        0,
        Terms {
            key_distance: 0.0,
            rooms: 0,
            mean_degree: 0.0,
            chest_dispersion: 0.0,
            enemy_dispersion: 0.0,
            room_ratio: 0.0,
            window_penalty: 0.0,
            fitness: 0.0,
        },
    ))
}

/// The dungeon actually used: the best CC, renumbered.
pub fn best_component(d: &Dungeon, p: &FitnessParams) -> (Dungeon, Terms) {
    let (i, t) = evaluate(d, p);
    let comps = d.components();
    match comps.get(i) {
        Some(c) => (d.induced(c), t),
        None => (d.clone(), t),
    }
}

#[cfg(test)]
mod tests {
    use super::super::genome::Room;
    use super::*;

    fn room(width: u32, height: u32, enemies: u32, chests: u32) -> Room {
        Room {
            width,
            height,
            enemies,
            chests,
        }
    }

    /// The reference's illustrative golden test (evolution.md §1.2).
    pub fn golden() -> Dungeon {
        Dungeon {
            rooms: vec![
                room(8, 6, 0, 1),
                room(6, 6, 0, 0),
                room(10, 5, 2, 0),
                room(7, 7, 0, 1),
                room(6, 8, 1, 0),
            ],
            edges: vec![(0, 1), (1, 2), (1, 4), (2, 3)],
            start: Some(0),
            key: Some(3),
            end: Some(4),
        }
    }

    #[test]
    fn golden_terms() {
        let t = component_terms(&golden(), &FitnessParams::default());
        assert_eq!(t.key_distance, 6.0);
        assert_eq!(t.rooms, 5);
        assert!((t.mean_degree - 1.6).abs() < 1e-12);
        assert!((t.chest_dispersion - 3.0).abs() < 1e-12);
        assert!((t.enemy_dispersion - 4.0 / 3.0).abs() < 1e-12);
        assert!((t.room_ratio - 0.15625).abs() < 1e-12);
        assert!((t.fitness - 6.889_583_333_333_333).abs() < 1e-9, "{t:?}");
    }

    #[test]
    fn graph_fitness_is_best_component() {
        // Golden graph plus a disconnected pair with no key rooms: the golden CC wins.
        let mut d = golden();
        d.rooms.push(room(4, 4, 0, 0));
        d.rooms.push(room(4, 4, 0, 0));
        d.edges.push((5, 6));
        let (i, t) = evaluate(&d, &FitnessParams::default());
        assert_eq!(i, 0);
        assert!((t.fitness - 6.889_583_333_333_333).abs() < 1e-9);
        let (cc, _) = best_component(&d, &FitnessParams::default());
        assert_eq!(cc, golden());
    }

    #[test]
    fn distance_needs_all_three_key_rooms() {
        let mut d = golden();
        d.end = None;
        let t = component_terms(&d, &FitnessParams::default());
        assert_eq!(t.key_distance, 0.0);
        assert!((t.fitness - (6.889_583_333_333_333 - 6.0)).abs() < 1e-9);
    }

    #[test]
    fn portrait_rooms_make_the_ratio_negative_and_single_elements_do_not_disperse() {
        let d = Dungeon {
            rooms: vec![room(4, 8, 1, 0), room(4, 8, 0, 0)],
            edges: vec![(0, 1)],
            start: None,
            key: None,
            end: None,
        };
        let t = component_terms(&d, &FitnessParams::default());
        assert_eq!(t.room_ratio, -0.5);
        assert_eq!(t.enemy_dispersion, 0.0);
        assert_eq!(t.chest_dispersion, 0.0);
        assert!((t.fitness - (-0.5 - 0.8 - 1.0)).abs() < 1e-12);
    }

    #[test]
    fn window_penalty_counts_rooms_outside() {
        let p = FitnessParams {
            window_penalty: 1.0,
            ..FitnessParams::default()
        };
        let t = component_terms(&golden(), &p);
        assert_eq!(t.window_penalty, 10.0);
    }
}
