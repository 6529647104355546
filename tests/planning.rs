//! End-to-end planning on the five public GVG-AI Sokoban levels (grid encoding): every plan
//! is replayed in an independent grid simulator with GVG-AI's Sokoban rules (holes are
//! sinks, a push into a wall or box does nothing) and must clear the board.

use std::time::Duration;
use tablero::planning::{PlanOptions, examples, solve};

/// Replays ground action names on the ASCII map; returns the number of boxes left.
fn replay(map: &str, plan: &[String]) -> Result<usize, String> {
    let mut grid: Vec<Vec<u8>> = map
        .lines()
        .map(|l| l.trim().as_bytes().to_vec())
        .filter(|l| !l.is_empty())
        .collect();
    let mut pos = None;
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if *c == b'A' {
                pos = Some((x as i64, y as i64));
                *c = b'.';
            }
        }
    }
    let (mut ax, mut ay) = pos.ok_or("no avatar")?;
    let mut holes = std::collections::HashSet::new();
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if *c == b'0' {
                holes.insert((x as i64, y as i64));
                *c = b'.';
            }
        }
    }
    for (i, step) in plan.iter().enumerate() {
        let dir = step
            .split_whitespace()
            .nth(1)
            .ok_or(format!("step {i}: {step}"))?;
        let (dx, dy) = match dir {
            "up" => (0, -1),
            "down" => (0, 1),
            "left" => (-1, 0),
            "right" => (1, 0),
            d => return Err(format!("step {i}: bad direction {d}")),
        };
        let at = |g: &Vec<Vec<u8>>, x: i64, y: i64| {
            g.get(y as usize)
                .and_then(|r| r.get(x as usize))
                .copied()
                .unwrap_or(b'w')
        };
        let (nx, ny) = (ax + dx, ay + dy);
        match at(&grid, nx, ny) {
            b'w' => {
                return Err(format!(
                    "step {i}: {step} walks into a wall (a wasted tick)"
                ));
            }
            b'1' => {
                let (bx, by) = (nx + dx, ny + dy);
                match at(&grid, bx, by) {
                    b'w' | b'1' => {
                        return Err(format!("step {i}: {step} pushes into a blocked cell"));
                    }
                    _ => {
                        grid[ny as usize][nx as usize] = b'.';
                        if !holes.contains(&(bx, by)) {
                            grid[by as usize][bx as usize] = b'1';
                        }
                    }
                }
                if !step.starts_with("(push") {
                    return Err(format!("step {i}: {step} moved a box but is not a push"));
                }
            }
            _ => {
                if !step.starts_with("(move") {
                    return Err(format!("step {i}: {step} is a push with no box"));
                }
            }
        }
        ax = nx;
        ay = ny;
    }
    Ok(grid.iter().flatten().filter(|&&c| c == b'1').count())
}

#[test]
fn gvgai_sokoban_levels_are_solved_and_win_on_replay() {
    for (i, map) in examples::GVGAI_SOKOBAN_LEVELS.iter().enumerate() {
        let problem = examples::sokoban_problem(&format!("level{i}"), map);
        let opts = PlanOptions {
            timeout: Duration::from_secs(120),
            threads: 2,
            ..PlanOptions::default()
        };
        let r =
            solve(examples::SOKOBAN, &problem, &opts).unwrap_or_else(|e| panic!("level {i}: {e}"));
        let left = replay(map, &r.plan).unwrap_or_else(|e| panic!("level {i}: {e}"));
        assert_eq!(left, 0, "level {i}: {left} boxes left after {:?}", r.plan);
    }
}

#[test]
fn optimal_plans_on_small_sokoban_levels() {
    // Levels 3 and 4 are small enough for A* with LM-cut in a debug build.
    for (i, want) in [(3usize, None), (4, Some(8))] {
        let map = examples::GVGAI_SOKOBAN_LEVELS[i];
        let problem = examples::sokoban_problem(&format!("level{i}"), map);
        let opts = PlanOptions {
            timeout: Duration::from_secs(120),
            threads: 2,
            optimal: true,
            ..PlanOptions::default()
        };
        let r =
            solve(examples::SOKOBAN, &problem, &opts).unwrap_or_else(|e| panic!("level {i}: {e}"));
        assert!(r.optimal);
        assert_eq!(replay(map, &r.plan), Ok(0), "level {i}");
        if let Some(w) = want {
            assert_eq!(r.length, w, "level {i}");
        }
        let blind = PlanOptions {
            planner: Some("astar-blind".into()),
            ..opts
        };
        let b = solve(examples::SOKOBAN, &problem, &blind).unwrap();
        assert_eq!(
            b.length, r.length,
            "level {i}: LM-cut and breadth-first search disagree"
        );
    }
}

#[test]
fn replay_checker_rejects_bad_plans() {
    let map = examples::GVGAI_SOKOBAN_LEVELS[4];
    assert!(replay(map, &["(move up c6_2 c6_1)".into()]).is_ok_and(|left| left == 2));
    assert!(
        replay(
            map,
            &["(move right c6_2 c7_2)".into(), "(move right x y)".into()]
        )
        .is_err()
    );
    assert!(replay(map, &["(move left c6_2 c5_2)".into()]).is_err()); // a box is there
}
