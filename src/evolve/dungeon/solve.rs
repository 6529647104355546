//! The dungeon game's default playability check (`evolve.dungeon_check_controller =
//! "dungeon-bfs"`): a breadth-first search over the VGDL forward model that merges states
//! with the same avatar cell, orientation, type (with or without the key) and score, bounded
//! by a count of expansions (no wall clock, so the verdict does not depend on the machine's
//! load). A plan found is replayed on a fresh game with the same seed, and only a replay that
//! wins counts. The merge key is what makes it robust where IW(1) is not: IW(1)'s atoms
//! ignore the avatar's orientation, which this game's sword needs, and plain BFS on the full
//! state drowns in sword and portal states. Killing an enemy or opening a chest changes the
//! score, so a state that cleared a blocker is never merged with one that did not.

use std::collections::{HashSet, VecDeque};

use crate::gvgai::controllers::choices;
use crate::gvgai::engine::{Action, EngineError, Game, GameState, Winner};

/// The result of [`solve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// A plan was found and its replay won.
    pub win: bool,
    /// Ticks of the winning replay (0 without a win).
    pub ticks: i32,
    pub expansions: usize,
    /// The search ran out of states (no budget left unused would find a win).
    pub exhausted: bool,
    /// A plan was found (its replay may still fail; `win` is the replay's verdict).
    pub found: bool,
    /// The plan (`U D L R N S`), empty without a win.
    pub plan: String,
}

fn merge_key(s: &GameState) -> Option<(i32, i32, u8, u16, i64)> {
    let a = s.avatar()?;
    let (x, y) = s.cell_of(a);
    let o = a.orientation;
    let orient = match (o.x.signum() as i8, o.y.signum() as i8) {
        (0, -1) => 0,
        (1, 0) => 1,
        (0, 1) => 2,
        (-1, 0) => 3,
        _ => 4,
    };
    Some((x, y, orient, a.ty, (s.score() * 16.0).round() as i64))
}

/// Search `level` of `game` (seeded with `seed`) for a win within `max_expansions`.
pub fn solve(
    game: &Game,
    level: usize,
    seed: i64,
    max_expansions: usize,
) -> Result<Solution, EngineError> {
    let root = game.start(level, seed)?;
    let mut nodes: Vec<(u32, Action)> = vec![(0, Action::Nil)];
    let mut seen = HashSet::new();
    if let Some(k) = merge_key(&root) {
        seen.insert(k);
    }
    let mut queue = VecDeque::from([(0u32, root)]);
    let mut expansions = 0;
    let mut found = None;
    'search: while let Some((node, state)) = queue.pop_front() {
        if expansions >= max_expansions {
            break;
        }
        expansions += 1;
        for a in choices(&state) {
            let mut next = state.clone();
            next.advance(a);
            if next.winner() == Winner::PlayerWins {
                nodes.push((node, a));
                found = Some(nodes.len() as u32 - 1);
                break 'search;
            }
            if next.is_over() {
                continue;
            }
            let Some(k) = merge_key(&next) else { continue };
            if seen.insert(k) {
                nodes.push((node, a));
                queue.push_back((nodes.len() as u32 - 1, next));
            }
        }
    }
    let mut plan = Vec::new();
    if let Some(mut n) = found {
        while n != 0 {
            let (parent, a) = nodes[n as usize];
            plan.push(a);
            n = parent;
        }
        plan.reverse();
    }
    // Replay: only a plan that wins the real game counts.
    let mut st = game.start(level, seed)?;
    for &a in &plan {
        if st.is_over() {
            break;
        }
        st.advance(a);
    }
    let win = !plan.is_empty() && st.winner() == Winner::PlayerWins;
    Ok(Solution {
        exhausted: found.is_none() && queue.is_empty(),
        found: found.is_some(),
        win,
        ticks: if win { st.tick() } else { 0 },
        expansions,
        plan: if win {
            plan.iter().map(|a| a.to_char()).collect()
        } else {
            String::new()
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::dungeon::render::{render, tests::small};

    #[test]
    fn solves_a_rendered_dungeon_and_fails_without_budget() {
        let r = render(&small(), 4).unwrap();
        let g = Game::from_texts("evodungeon", &r.game, &[&r.level]).unwrap();
        let s = solve(&g, 0, 1, 100_000).unwrap();
        assert!(s.win, "{s:?}\n{}", r.level);
        assert_eq!(s.ticks as usize, s.plan.len());
        // Same seed, same result.
        assert_eq!(solve(&g, 0, 1, 100_000).unwrap(), s);
        assert!(s.found && !s.exhausted);
        let none = solve(&g, 0, 1, 3).unwrap();
        assert!(!none.win && none.plan.is_empty() && !none.exhausted);
    }
}
