//! A goal-distance heuristic for search controllers on games won by removing sprites: the
//! winning `SpriteCounter`/`MultiSpriteCounter` terminations name the sprite types that must
//! disappear (butterflies, boxes, unwalked ground); [`GoalDistance`] holds, for the state it
//! was built from, the grid distance from every cell to the nearest such sprite, walking
//! around the static sprites the avatar cannot enter (those it `stepBack`s or `undoAll`s
//! from). Open-loop MCTS uses it to value rollouts that end without a change of score, so
//! that a target beyond the rollout horizon still draws the avatar (as in GVG-AI MCTS
//! variants with a distance term in the state evaluation).

use std::collections::VecDeque;

use crate::gvgai::engine::GameState;
use crate::gvgai::vgdl::{EffectKind, Other, TerminationKind, TypeId};

/// Distances (in cells) from every cell to the nearest target sprite.
#[derive(Debug, Clone)]
pub struct GoalDistance {
    width: i32,
    height: i32,
    dist: Vec<u32>,
    /// Largest finite distance (at least 1); unreachable cells count as this.
    max: u32,
}

const FAR: u32 = u32::MAX;

impl GoalDistance {
    /// The distance map for `state`, or `None` if the game has no winning sprite-count goal,
    /// no target is left or there is no avatar.
    pub fn new(state: &GameState) -> Option<GoalDistance> {
        let avatar = state.avatar()?;
        let rules = state.rules();
        let desc = &rules.desc;
        let mut targets: Vec<TypeId> = Vec::new();
        for t in desc.terminations.iter().filter(|t| t.win) {
            let types: &[TypeId] = match &t.kind {
                TerminationKind::SpriteCounter { stype, .. } => std::slice::from_ref(stype),
                TerminationKind::MultiSpriteCounter {
                    stypes, min: false, ..
                } => stypes,
                _ => continue,
            };
            for &ty in types {
                targets.extend(rules.props(ty).subtypes.iter().copied());
            }
        }
        // Static types the avatar bounces off.
        let avatar_ty = avatar.ty;
        let mut blocked_types: Vec<TypeId> = Vec::new();
        for i in &desc.interactions {
            let Other::Sprite(other) = i.other else {
                continue;
            };
            if !matches!(
                i.effect.kind,
                EffectKind::StepBack { .. } | EffectKind::UndoAll { .. }
            ) || !rules.props(i.first).subtypes.contains(&avatar_ty)
            {
                continue;
            }
            for &o in &rules.props(other).subtypes {
                if rules.props(o).is_static && !targets.contains(&o) {
                    blocked_types.push(o);
                }
            }
        }
        let (width, height) = state.grid_size();
        if width <= 0 || height <= 0 {
            return None;
        }
        let cells = (width * height) as usize;
        let index = |(x, y): (i32, i32)| -> Option<usize> {
            (x >= 0 && y >= 0 && x < width && y < height).then(|| (y * width + x) as usize)
        };
        let mut blocked = vec![false; cells];
        for &t in &blocked_types {
            for s in state
                .sprites_of(t)
                .iter()
                .filter(|s| !s.killed && !s.disabled)
            {
                if let Some(i) = index(state.cell_of(s)) {
                    blocked[i] = true;
                }
            }
        }
        let mut dist = vec![FAR; cells];
        let mut queue = VecDeque::new();
        for &t in &targets {
            for s in state
                .sprites_of(t)
                .iter()
                .filter(|s| !s.killed && !s.disabled)
            {
                if let Some(i) = index(state.cell_of(s)) {
                    if dist[i] == FAR {
                        dist[i] = 0;
                        queue.push_back(i);
                    }
                }
            }
        }
        if queue.is_empty() {
            return None;
        }
        let mut max = 1;
        while let Some(i) = queue.pop_front() {
            let (x, y) = ((i as i32) % width, (i as i32) / width);
            let d = dist[i] + 1;
            for n in [(x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)] {
                if let Some(j) = index(n) {
                    if dist[j] == FAR && !blocked[j] {
                        dist[j] = d;
                        max = max.max(d);
                        queue.push_back(j);
                    }
                }
            }
        }
        Some(GoalDistance {
            width,
            height,
            dist,
            max,
        })
    }

    /// Distance of the avatar of `state` to the nearest target, in [0, 1] (1: unreachable or
    /// no avatar).
    pub fn normalised(&self, state: &GameState) -> f64 {
        let Some((x, y)) = state.avatar_cell() else {
            return 1.0;
        };
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return 1.0;
        }
        let d = self.dist[(y * self.width + x) as usize];
        if d == FAR {
            1.0
        } else {
            f64::from(d) / f64::from(self.max)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gvgai::games::shipped;

    #[test]
    fn butterflies_level_4_distance_goes_through_the_gap() {
        let game = shipped("butterflies").unwrap();
        let st = game.start(4, 0).unwrap();
        let g = GoalDistance::new(&st).unwrap();
        // The avatar (10, 1) is above a wall with one gap at (13, 5); the nearest butterfly
        // below it, at (12, 7), is 3 + 4 + 3 = 10 steps away, only through the gap.
        let d = |x: i32, y: i32| g.dist[(y * g.width + x) as usize];
        assert_eq!(d(13, 5), 3);
        assert_eq!(d(10, 4), 7);
        assert_eq!(d(10, 1), 10);
        assert_eq!(d(0, 0), FAR, "walls are not entered");
        assert!(g.normalised(&st) > 0.0 && g.normalised(&st) < 1.0);
    }

    #[test]
    fn zenpuzzle_targets_ground_and_avoids_rocks() {
        let game = shipped("zenpuzzle").unwrap();
        let st = game.start(0, 0).unwrap();
        let g = GoalDistance::new(&st).unwrap();
        let d = |x: i32, y: i32| g.dist[(y * g.width + x) as usize];
        assert_eq!(d(3, 3), 0, "ground is a target");
        assert_eq!(d(1, 6), 2, "the avatar is two cells from the ground");
        assert_eq!(d(5, 6), FAR, "rock is blocked");
    }
}
