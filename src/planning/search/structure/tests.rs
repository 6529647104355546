//! Tests of the structural bounds and walk compression on translated GVG-AI levels: the
//! bound never exceeds the true cost to the goal (computed by blind A*), never calls a
//! solvable state a dead end, and walk-compressed A* finds plans of the optimal cost.

use super::*;
use crate::gvgai::engine::Game;
use crate::gvgai::games::shipped;
use crate::planning::ground::ground;
use crate::planning::search::astar::{AStar, AdmissibleKind};
use crate::planning::search::{Bound, Shared, run_to_end};
use crate::planning::vgdl::{TranslateOptions, Translator};
use rand::{Rng, SeedableRng};
use std::sync::Arc;

const SOKOBAN_VGDL: &str = include_str!("../../../../data/gvgai/games/sokoban.txt");
const REALSOKOBAN_VGDL: &str = include_str!("../../../../data/gvgai/games/realsokoban.txt");
const ZEN_VGDL: &str = include_str!("../../../../data/gvgai/games/zenpuzzle.txt");

/// The grounded task of a level (None when the translation or grounding refuses it, e.g. an
/// unreachable goal).
fn level_task(name: &str, vgdl: &str, level: &str) -> Option<Task> {
    let g = Game::from_texts(name, vgdl, &[level]).ok()?;
    let st = g.start(0, 0).ok()?;
    let tr = Translator::new(&st, TranslateOptions::default()).ok()?;
    let t = tr.translate(&st, name).ok()?;
    ground(&t.domain, &t.problem).ok()
}

fn shipped_task(game: &str, level: usize) -> Task {
    let g = shipped(game).unwrap();
    let st = g.start(level, 0).unwrap();
    let tr = Translator::new(&st, TranslateOptions::default()).unwrap();
    let t = tr.translate(&st, game).unwrap();
    ground(&t.domain, &t.problem).unwrap()
}

/// Optimal cost from `s` by blind A* (breadth-first with unit costs).
fn true_cost(task: &Task, s: &State) -> Option<u64> {
    let mut t = task.clone();
    t.init = s.facts().collect();
    let sh = Shared::new(t);
    let mut e = AStar::new(sh.clone(), AdmissibleKind::Blind, Bound::default());
    run_to_end(&mut e, 2_000_000).map(|p| sh.task.plan_cost(&p))
}

/// A random small level: `kind` 0 Sokoban, 1 Real Sokoban, 2 Zen Puzzle.
fn random_level(rng: &mut impl Rng, kind: usize) -> String {
    let (h, w) = (rng.gen_range(4..=6), rng.gen_range(5..=7));
    let mut g = vec![vec!['.'; w]; h];
    if kind == 2 {
        // A garden of ground tiles with rocks, background around it.
        let (gh, gw) = (rng.gen_range(2..=3), rng.gen_range(2..=4));
        let (y0, x0) = (1, 2);
        for row in g.iter_mut().skip(y0).take(gh) {
            for c in row.iter_mut().skip(x0).take(gw) {
                *c = if rng.gen_bool(0.2) { 'r' } else { 'g' };
            }
        }
        let y = rng.gen_range(0..h);
        g[y][0] = 'A';
    } else {
        for (y, row) in g.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                if y == 0 || x == 0 || y == h - 1 || x == w - 1 || rng.gen_bool(0.12) {
                    *c = 'w';
                }
            }
        }
        let mut free: Vec<(usize, usize)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (y, x)))
            .filter(|&(y, x)| g[y][x] == '.')
            .collect();
        let (boxc, holec) = if kind == 0 { ('1', '0') } else { ('*', 'o') };
        let boxes = rng.gen_range(1..=2);
        let holes = rng.gen_range(1..=2);
        for ch in std::iter::once('A')
            .chain(std::iter::repeat_n(boxc, boxes))
            .chain(std::iter::repeat_n(holec, holes))
        {
            if free.is_empty() {
                break;
            }
            let i = rng.gen_range(0..free.len());
            let (y, x) = free.swap_remove(i);
            g[y][x] = ch;
        }
    }
    g.iter()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn random_tasks(n: usize, seed: u64) -> Vec<(String, Task)> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < 20 * n {
        tries += 1;
        let kind = tries % 3;
        let level = random_level(&mut rng, kind);
        let (name, vgdl) = [
            ("sokoban", SOKOBAN_VGDL),
            ("realsokoban", REALSOKOBAN_VGDL),
            ("zenpuzzle", ZEN_VGDL),
        ][kind];
        if let Some(t) = level_task(name, vgdl, &level) {
            out.push((format!("{name}:\n{level}"), t));
        }
    }
    out
}

#[test]
fn detects_the_structure_of_the_puzzle_levels() {
    for level in 0..5 {
        for (game, cover, tokens) in [
            ("sokoban", false, true),
            ("realsokoban", false, true),
            ("zenpuzzle", true, false),
        ] {
            let t = shipped_task(game, level);
            let b = StructureBound::detect(&t).unwrap_or_else(|| panic!("{game} {level}"));
            assert_eq!(b.kinds(), (cover, tokens), "{game} {level}");
            assert!(Walks::detect(&t).is_some(), "{game} {level}");
        }
    }
    // No agent: no structure.
    let ex = crate::planning::examples::all();
    let bw = ex.iter().find(|e| e.name.contains("sussman")).unwrap();
    let t = ground(
        &crate::planning::pddl::parse_domain(bw.domain).unwrap(),
        &crate::planning::pddl::parse_problem(&bw.problem).unwrap(),
    )
    .unwrap();
    assert!(StructureBound::detect(&t).is_none());
    assert!(Walks::detect(&t).is_none());
}

/// The structural bound against the true cost on every state of random walks from the start
/// of random small levels: never above it, and "dead end" only where no plan exists.
#[test]
fn structural_bound_is_admissible_and_prunes_only_dead_ends() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut checked = 0;
    let mut dead = 0;
    let mut positive = 0;
    for (name, task) in random_tasks(45, 11) {
        let Some(mut b) = StructureBound::detect(&task) else {
            panic!("no structure: {name}");
        };
        let sh = Shared::new(task.clone());
        let mut s = task.initial_state();
        let mut ops = Vec::new();
        for _ in 0..12 {
            let h = b.evaluate(&s);
            let hstar = true_cost(&task, &s);
            match (h, hstar) {
                (Some(h), Some(hs)) => {
                    assert!(h <= hs, "{name}\nbound {h} > true cost {hs}");
                    if h > 0 {
                        positive += 1;
                    }
                }
                (None, Some(hs)) => panic!("{name}\nsolvable state (cost {hs}) called dead"),
                (None, None) => dead += 1,
                (Some(_), None) => {}
            }
            checked += 1;
            sh.succ.applicable(&task, &s, &mut ops);
            if ops.is_empty() || task.is_goal(&s) {
                break;
            }
            s = task.apply(&s, ops[rng.gen_range(0..ops.len())]);
        }
    }
    eprintln!("checked {checked} dead {dead} positive {positive}");
    assert!(checked > 200, "{checked}");
    assert!(
        dead > 0 && positive > 100,
        "dead {dead} positive {positive}"
    );
}

/// A* with the bound and walk compression finds plans as short as blind A*'s.
#[test]
fn walk_compressed_astar_is_optimal_on_random_levels() {
    let mut solved = 0;
    for (name, task) in random_tasks(45, 23) {
        let blind = true_cost(&task, &task.initial_state());
        let sh: Arc<Shared> = Shared::new(task);
        let mut e = AStar::new(sh.clone(), AdmissibleKind::LmCut, Bound::default());
        assert!(e.compresses_walks(), "{name}");
        let plan = run_to_end(&mut e, 2_000_000);
        match (&plan, blind) {
            (Some(p), Some(c)) => {
                assert!(sh.task.validate(p).is_ok(), "{name}");
                assert_eq!(sh.task.plan_cost(p), c, "{name}");
                solved += 1;
            }
            (None, None) => {}
            _ => panic!("{name}\nA* {:?} blind {blind:?}", plan.map(|p| p.len())),
        }
    }
    eprintln!("solved {solved}");
    assert!(solved > 20, "{solved}");
}
