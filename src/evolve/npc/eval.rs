//! Fitness evaluation of NPC individuals: the scenario suite (the thesis's empty map with
//! one player position plus 5 designed maps × 5 player positions = 26 episodes), scripted
//! players rotating random → aggressive → defensive over the scenarios, NPC placements drawn
//! once per run from the seed (so fitness is a pure function of the individual), the mean of
//! the per-scenario gated evaluations, and population evaluation in parallel over threads
//! with a cache keyed by the hash of the individual's S-expression.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::sexpr;
use super::sim::{Arena, Brain, EpisodeStats, PLAYER_KINDS, PlayerKind, Pos, SimParams, episode};
use super::tree::Individual;

/// The evaluation maps: map 0 is empty; maps 1–5 mark five player positions `1`–`5`.
pub const MAPS: [&[&str]; 6] = [
    &[
        "############",
        "#..........#",
        "#..........#",
        "#..........#",
        "#..........#",
        "#.....1....#",
        "#..........#",
        "#..........#",
        "#..........#",
        "############",
    ],
    &[
        "##############",
        "#1.....#.....#",
        "#......#..2..#",
        "#..##.....#..#",
        "#..#......#..#",
        "#.....3......#",
        "#..#......#..#",
        "#..##..#..##.#",
        "#4.....#....5#",
        "##############",
    ],
    &[
        "##############",
        "#......#.....#",
        "#.1....#...2.#",
        "#......#.....#",
        "###.#######.##",
        "#......3.....#",
        "#.4..........#",
        "#.....##...5.#",
        "##############",
    ],
    &[
        "############",
        "#1...#.....#",
        "#.##.#.###.#",
        "#.#..2...#.#",
        "#.#.####.#.#",
        "#...#..3...#",
        "###.#.####.#",
        "#4.......#5#",
        "############",
    ],
    &[
        "################",
        "#1.............#",
        "#..#..#..#..#..#",
        "#.......2......#",
        "#..#..#..#..#..#",
        "#.3..........4.#",
        "#..#..#..#..#..#",
        "#.......5......#",
        "################",
    ],
    &[
        "##########",
        "#1.......#",
        "#.######.#",
        "#.#....#.#",
        "#.#.23.#.#",
        "#.#....#.#",
        "#.##.###.#",
        "#4......5#",
        "##########",
    ],
];

/// One evaluation episode's setup.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub map: usize,
    pub player_start: Pos,
    pub npc_start: (Pos, u8),
    pub player: PlayerKind,
    pub seed: u64,
}

/// The maps and scenarios of a run.
#[derive(Debug, Clone)]
pub struct Suite {
    pub arenas: Vec<Arena>,
    pub scenarios: Vec<Scenario>,
    pub params: SimParams,
}

impl Suite {
    /// The thesis's suite with NPC placements drawn from `seed` (a free cell at distance
    /// ≥ 3 from the player, random facing).
    pub fn thesis(params: SimParams, seed: u64) -> Suite {
        let arenas: Vec<Arena> = MAPS.iter().map(|m| Arena::from_rows(m)).collect();
        Suite::over(arenas, params, seed)
    }

    /// A suite on arbitrary arenas (every player start of each arena).
    pub fn over(arenas: Vec<Arena>, params: SimParams, seed: u64) -> Suite {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut scenarios = Vec::new();
        for (m, a) in arenas.iter().enumerate() {
            let free = a.free_cells();
            for &ps in &a.player_starts {
                let far: Vec<Pos> = free
                    .iter()
                    .copied()
                    .filter(|&c| (c.0 - ps.0).abs() + (c.1 - ps.1).abs() >= 3)
                    .collect();
                let pool = if far.is_empty() { &free } else { &far };
                if pool.is_empty() {
                    continue;
                }
                let npc = pool[rng.gen_range(0..pool.len())];
                let k = scenarios.len();
                scenarios.push(Scenario {
                    map: m,
                    player_start: ps,
                    npc_start: (npc, rng.gen_range(0..4)),
                    player: PLAYER_KINDS[k % PLAYER_KINDS.len()],
                    seed: rng.r#gen(),
                });
            }
        }
        Suite {
            arenas,
            scenarios,
            params,
        }
    }

    pub fn run(&self, s: &Scenario, brain: Brain) -> EpisodeStats {
        episode(
            &self.arenas[s.map],
            s.npc_start,
            s.player_start,
            s.player,
            brain,
            &self.params,
            s.seed,
        )
    }

    /// The thesis's fitness: the mean over scenarios of the gated evaluation.
    pub fn fitness(&self, ind: &Individual) -> f64 {
        if self.scenarios.is_empty() {
            return 0.0;
        }
        let sum: f64 = self
            .scenarios
            .iter()
            .map(|s| self.run(s, Brain::Evolved(ind)).evaluation())
            .sum();
        sum / self.scenarios.len() as f64
    }
}

/// Cache key: hash of the canonical S-expression.
pub fn key(ind: &Individual) -> u64 {
    let mut h = DefaultHasher::new();
    sexpr::to_string(ind).hash(&mut h);
    h.finish()
}

/// How a population is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalMode {
    /// Worker threads (1 = sequential).
    pub threads: usize,
    /// Reuse the fitness of individuals seen before (by S-expression hash).
    pub cache: bool,
}

/// Evaluation counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvalCount {
    pub evaluated: usize,
    pub cached: usize,
}

/// Evaluate a population; `cache` persists across generations.
pub fn evaluate(
    suite: &Suite,
    pop: &[Individual],
    mode: EvalMode,
    cache: &mut HashMap<u64, f64>,
    count: &mut EvalCount,
) -> Vec<f64> {
    let keys: Vec<u64> = pop.iter().map(key).collect();
    // Individuals to evaluate: first occurrence of each missing key (or all without cache).
    let mut todo: Vec<usize> = Vec::new();
    if mode.cache {
        let mut queued = std::collections::HashSet::new();
        for (i, k) in keys.iter().enumerate() {
            if !cache.contains_key(k) && queued.insert(*k) {
                todo.push(i);
            }
        }
    } else {
        todo = (0..pop.len()).collect();
    }
    count.evaluated += todo.len();
    count.cached += pop.len() - todo.len();
    let results: Vec<(usize, f64)> = if mode.threads <= 1 || todo.len() <= 1 {
        todo.iter().map(|&i| (i, suite.fitness(&pop[i]))).collect()
    } else {
        let next = AtomicUsize::new(0);
        let out = Mutex::new(Vec::with_capacity(todo.len()));
        std::thread::scope(|s| {
            for _ in 0..mode.threads.min(todo.len()) {
                s.spawn(|| {
                    let mut local = Vec::new();
                    loop {
                        let j = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&i) = todo.get(j) else { break };
                        local.push((i, suite.fitness(&pop[i])));
                    }
                    if let Ok(mut o) = out.lock() {
                        o.extend(local);
                    }
                });
            }
        });
        out.into_inner().unwrap_or_default()
    };
    if !mode.cache {
        let mut f = vec![0.0; pop.len()];
        for (i, v) in results {
            f[i] = v;
        }
        return f;
    }
    for (i, v) in results {
        cache.insert(keys[i], v);
    }
    keys.iter()
        .map(|k| cache.get(k).copied().unwrap_or(0.0))
        .collect()
}

/// The rooms of a rendered dungeon level as arenas (the dungeon game's combat rooms): each
/// room with its wall ring, the player starting at the room's centre. Rooms smaller than
/// `min_cells` interior cells are skipped.
pub fn dungeon_rooms(
    level: &str,
    rooms: &[crate::evolve::dungeon::render::Rect],
    min_cells: usize,
) -> Vec<Arena> {
    let grid: Vec<Vec<char>> = level.lines().map(|l| l.chars().collect()).collect();
    let mut out = Vec::new();
    for r in rooms {
        if r.w * r.h < min_cells || r.x == 0 || r.y == 0 {
            continue;
        }
        let mut rows = Vec::new();
        for y in r.y - 1..=r.y + r.h {
            let mut row = String::new();
            for x in r.x - 1..=r.x + r.w {
                let c = grid.get(y).and_then(|l| l.get(x)).copied().unwrap_or('w');
                let inside = x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
                let centre = x == r.x + r.w / 2 && y == r.y + r.h / 2;
                row.push(if !inside || c == 'w' {
                    'w'
                } else if centre {
                    '1'
                } else {
                    '.'
                });
            }
            rows.push(row);
        }
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        out.push(Arena::from_rows(&refs));
    }
    out
}

/// Damage dealt to the scripted players over every scenario of a suite.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Damage {
    pub episodes: usize,
    pub wounds: u64,
    pub kills: usize,
    pub npc_deaths: usize,
}

impl Damage {
    pub fn mean_wounds(&self) -> f64 {
        self.wounds as f64 / self.episodes.max(1) as f64
    }
}

/// Play every scenario of `suite` with `brain`.
pub fn damage(suite: &Suite, brain: Brain) -> Damage {
    let mut d = Damage::default();
    for s in &suite.scenarios {
        let st = suite.run(s, brain);
        d.episodes += 1;
        d.wounds += u64::from(st.wounds);
        d.kills += usize::from(st.player_killed);
        d.npc_deaths += usize::from(st.npc_killed);
    }
    d
}
