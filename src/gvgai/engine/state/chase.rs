//! Chasing NPCs: random moves, Chaser/Fleeing/LOSChaser targets, AlternateChaser, and the
//! path chasers with their memory and the precomputed path table.

use std::sync::Arc;

use super::{GameState, Sprite, SpriteRef};
use crate::gvgai::engine::path::PathTable;
use crate::gvgai::engine::rules::{Rules, TypeProps};
use crate::gvgai::vgdl::{Dir, Level, SpriteClass, TypeId};

/// Largest level (in cells) for which the all-pairs path table is built (4096² × 2 bytes),
/// unless the rules lower it.
pub const MAX_PATH_CELLS: usize = 4096;

/// A path chaser's target: (type, sprite id) and position.
type ChaseTarget = ((TypeId, u32), i32, i32);

/// What a path-chasing NPC remembers between updates (GVG-AI `PathAltChaser` fields).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChaseMemory {
    pub id: u32,
    /// Last target (type, sprite id) and its last known position (kept after it dies).
    pub target: Option<(TypeId, u32)>,
    pub tx: i32,
    pub ty: i32,
    pub last_known: Option<(i32, i32)>,
}

impl GameState {
    /// RandomNPC `getRandomMove`.
    pub(super) fn random_move(&mut self, r: SpriteRef) -> Dir {
        let cons = self.rules.props(r.ty).cons;
        let s = self.sprite(r);
        if s.counter < cons {
            let s = self.sprite_mut(r);
            s.counter += 1;
            s.prev_action
        } else {
            let act = Dir::BASE[self.rng.next_int_bounded(4) as usize];
            let s = self.sprite_mut(r);
            s.prev_action = act;
            s.counter = 0;
            act
        }
    }

    fn distance(a: &Sprite, bx: i32, by: i32) -> f64 {
        f64::from((a.y - by).abs() + (a.x - bx).abs())
    }

    /// Chaser `closestTargets`: the nearest sprites of `t` (ties kept, in group order).
    pub(super) fn closest_targets(&self, r: SpriteRef, t: TypeId) -> Vec<(i32, i32)> {
        let me = self.sprite(r);
        // LOSChaser: only targets in line of sight along the last random move, none before it.
        let los = self.rules.props(r.ty).class == Some(SpriteClass::LOSChaser);
        if los && me.prev_action.is_none() {
            return Vec::new();
        }
        let pa = me.prev_action;
        let direct = &self.groups[usize::from(t)];
        let mut best = f64::MAX;
        let mut out = Vec::new();
        let mut consider = |s: &Sprite| {
            if los {
                let sees = if pa == Dir::DOWN {
                    s.x == me.x && s.y >= me.y
                } else if pa == Dir::UP {
                    s.x == me.x && s.y <= me.y
                } else if pa == Dir::LEFT {
                    s.x <= me.x && s.y == me.y
                } else if pa == Dir::RIGHT {
                    s.x >= me.x && s.y == me.y
                } else {
                    false
                };
                if !sees {
                    return;
                }
            }
            keep_nearest(
                &mut best,
                &mut out,
                Self::distance(me, s.x, s.y),
                (s.x, s.y),
            );
        };
        if !direct.is_empty() {
            direct.iter().for_each(&mut consider);
        } else {
            for &st in &self.rules.props(t).subtypes {
                self.groups[usize::from(st)].iter().for_each(&mut consider);
            }
        }
        out
    }

    /// Chaser `movesToward`: directions (1-pixel probes) that reduce (or, fleeing, increase)
    /// the distance.
    fn moves_toward(
        &self,
        r: SpriteRef,
        target: (i32, i32),
        fleeing: bool,
        max_distance: f64,
        out: &mut Vec<Dir>,
    ) {
        let me = self.sprite(r);
        let d = Self::distance(me, target.0, target.1);
        if max_distance != -1.0 && d > max_distance {
            return;
        }
        for dir in Dir::BASE {
            let nx = me.x + dir.x as i32;
            let ny = me.y + dir.y as i32;
            let nd = f64::from((ny - target.1).abs() + (nx - target.0).abs());
            if (fleeing && d < nd) || (!fleeing && d > nd) {
                out.push(dir);
            }
        }
    }

    pub(super) fn update_chaser(
        &mut self,
        r: SpriteRef,
        target_type: Option<TypeId>,
        fleeing: bool,
        fallback_random_move: bool,
    ) {
        self.update_passive(r);
        let p = self.rules.props(r.ty);
        let (speed, max_distance) = (self.sprite(r).speed, p.max_distance);
        let mut actions = Vec::new();
        if let Some(t) = target_type {
            for target in self.closest_targets(r, t) {
                self.moves_toward(r, target, fleeing, max_distance, &mut actions);
            }
        }
        let act = if actions.is_empty() {
            if fallback_random_move {
                self.random_move(r)
            } else {
                Dir::BASE[self.rng.next_int_bounded(4) as usize]
            }
        } else {
            actions[self.rng.next_int_bounded(actions.len() as i32) as usize]
        };
        self.active_movement(r, act, speed);
    }

    /// GVG-AI builds its path finder at level start when the game declares `obs=`.
    pub(super) fn build_paths(&mut self, level: &Level) {
        let rules = Arc::clone(&self.rules);
        let uses_paths = rules.props.iter().any(|p| {
            matches!(
                p.class,
                Some(
                    SpriteClass::PathAltChaser
                        | SpriteClass::RandomPathAltChaser
                        | SpriteClass::PathChaser
                )
            )
        });
        let obs = &rules.desc.params.obs;
        if !uses_paths || obs.is_empty() {
            return;
        }
        let (w, h) = (level.width, level.height);
        if w * h > rules.max_path_cells {
            // The all-pairs table would be too large; path chasers then stand still.
            return;
        }
        let mut obstacle = vec![false; w * h];
        for g in &self.groups {
            for s in g.iter() {
                if obs.contains(&s.ty) {
                    let (cx, cy) = (s.x.div_euclid(self.block), s.y.div_euclid(self.block));
                    if cx >= 0 && cy >= 0 && (cx as usize) < w && (cy as usize) < h {
                        obstacle[cx as usize * h + cy as usize] = true;
                    }
                }
            }
        }
        let horizontal_only = self.available_actions().len() == 3;
        self.paths = Some(Arc::new(PathTable::new(w, h, &obstacle, horizontal_only)));
    }

    pub(super) fn path_step(&self, from: (i32, i32), to: (i32, i32)) -> Option<Dir> {
        let paths = self.paths.as_ref()?;
        let b = f64::from(self.block);
        let cell = |(x, y): (i32, i32)| ((f64::from(x) / b) as i64, (f64::from(y) / b) as i64);
        paths.first_step(cell(from), cell(to))
    }

    /// GVG-AI `PathChaser.update`: a step along the path to the nearest `stype` sprite, else
    /// a random move.
    pub(super) fn update_path_chaser(&mut self, p: &TypeProps, r: SpriteRef) {
        self.update_passive(r);
        let target = p
            .stype
            .first()
            .and_then(|&t| self.closest_targets(r, t).first().copied());
        let act = match target {
            Some(t) => {
                let (x, y) = (self.sprite(r).x, self.sprite(r).y);
                let step = self.path_step((x, y), t).unwrap_or(Dir::NONE);
                self.sprite_mut(r).counter = p.cons;
                step
            }
            None => self.random_move(r),
        };
        self.active_movement(r, act, self.sprite(r).speed);
    }

    /// GVG-AI `PathAltChaser.update` (its `fleeing` never becomes true there: it is not modelled).
    pub(super) fn update_path_alt_chaser(&mut self, rules: &Rules, r: SpriteRef) {
        self.update_passive(r);
        let (me_id, mx, my) = {
            let s = self.sprite(r);
            (s.id, s.x, s.y)
        };
        let slot = self.chase_slot(me_id);
        self.refresh_chase_target(slot);
        let mem = self.chase[slot];
        let reached = mem.target.is_some() && mem.tx == mx && mem.ty == my;
        let target = if mem.target.is_none() || reached {
            self.pick_path_target(rules, r)
        } else {
            mem.target.map(|t| (t, mem.tx, mem.ty))
        };
        let act = match target {
            Some(target) => self.path_chase_step(slot, (mx, my), target),
            None => Dir::BASE[self.rng.next_int_bounded(4) as usize],
        };
        self.active_movement(r, act, self.sprite(r).speed);
    }

    /// The index of the memory of path chaser `id`, created empty on its first update.
    fn chase_slot(&mut self, id: u32) -> usize {
        match self.chase.iter().position(|c| c.id == id) {
            Some(i) => i,
            None => {
                self.chase.push(ChaseMemory {
                    id,
                    target: None,
                    tx: 0,
                    ty: 0,
                    last_known: None,
                });
                self.chase.len() - 1
            }
        }
    }

    /// Refresh the remembered target's position while it lives.
    fn refresh_chase_target(&mut self, slot: usize) {
        if let Some((tt, tid)) = self.chase[slot].target {
            if let Some(t) = self.find_sprite(tt, tid) {
                let (x, y) = (t.x, t.y);
                self.chase[slot].tx = x;
                self.chase[slot].ty = y;
            }
        }
    }

    /// A new target for a path chaser: a random sprite of its first `stype1` type (with
    /// `randomTarget`), else the nearest; none while no `stype1`/`stype2` sprite exists.
    fn pick_path_target(&mut self, rules: &Rules, r: SpriteRef) -> Option<ChaseTarget> {
        let p = rules.props(r.ty);
        let num: usize = p
            .stype1
            .iter()
            .chain(p.stype2.iter())
            .map(|&t| self.count_all(t))
            .sum();
        let (true, Some(&tt)) = (num > 0, p.stype1.first()) else {
            return None;
        };
        let mut target = None;
        if p.random_target {
            // GVG-AI lists the type's own sprites, then those of every subtype (the type
            // itself included again), and draws one.
            let mut all: Vec<ChaseTarget> = Vec::new();
            let groups = std::iter::once(tt).chain(rules.props(tt).subtypes.iter().copied());
            for st in groups {
                for s in self.groups[usize::from(st)].iter() {
                    all.push(((st, s.id), s.x, s.y));
                }
            }
            if !all.is_empty() {
                let k = self.rng.next_int_bounded(all.len() as i32) as usize;
                target = Some(all[k]);
            }
        } else {
            let me = self.sprite(r);
            let mut best = f64::MAX;
            for &st in &rules.props(tt).subtypes {
                for s in self.groups[usize::from(st)].iter() {
                    let d = Self::distance(me, s.x, s.y);
                    if d < best {
                        best = d;
                        target = Some(((st, s.id), s.x, s.y));
                    }
                }
            }
        }
        target
    }

    /// Remember `target` and take the first step of the path from `from` to it (or, with no
    /// path, to the last position a path was found to); no step when neither has a path.
    fn path_chase_step(&mut self, slot: usize, from: (i32, i32), target: ChaseTarget) -> Dir {
        let (t, tx, ty) = target;
        let m = &mut self.chase[slot];
        m.target = Some(t);
        m.tx = tx;
        m.ty = ty;
        let mut step = self.path_step(from, (tx, ty));
        let last_known = self.chase[slot].last_known;
        match (step, last_known) {
            (None, Some(lk)) => step = self.path_step(from, lk),
            _ => self.chase[slot].last_known = Some((tx, ty)),
        }
        step.unwrap_or(Dir::NONE)
    }

    /// GVG-AI `AlternateChaser.update`: chase the nearest `stype1` sprite (GVG-AI never
    /// reaches its fleeing branch: both counts go to the chasing total).
    pub(super) fn update_alt_chaser(&mut self, rules: &Rules, r: SpriteRef) {
        self.update_passive(r);
        let p = rules.props(r.ty);
        let num: usize = p
            .stype1
            .iter()
            .chain(p.stype2.iter())
            .map(|&t| self.count_all(t))
            .sum();
        let mut targets: Vec<(i32, i32)> = Vec::new();
        if let (true, Some(&tt)) = (num > 0, p.stype1.first()) {
            // getSubSpritesGroup: the type's own group, then every subtype's (itself again).
            let me = self.sprite(r);
            let mut best = f64::MAX;
            let groups = std::iter::once(tt).chain(rules.props(tt).subtypes.iter().copied());
            for st in groups {
                for s in self.groups[usize::from(st)].iter() {
                    keep_nearest(
                        &mut best,
                        &mut targets,
                        Self::distance(me, s.x, s.y),
                        (s.x, s.y),
                    );
                }
            }
        }
        let mut actions = Vec::new();
        for t in targets {
            self.moves_toward(r, t, false, p.max_distance, &mut actions);
        }
        let act = if actions.is_empty() {
            Dir::BASE[self.rng.next_int_bounded(4) as usize]
        } else {
            actions[self.rng.next_int_bounded(actions.len() as i32) as usize]
        };
        self.active_movement(r, act, self.sprite(r).speed);
    }
}

/// Keeps the positions at the smallest distance seen so far (every one of them on a tie):
/// `at`, at distance `d`, replaces them if nearer and joins them if as near.
fn keep_nearest(best: &mut f64, nearest: &mut Vec<(i32, i32)>, d: f64, at: (i32, i32)) {
    if d < *best {
        *best = d;
        nearest.clear();
        nearest.push(at);
    } else if d == *best {
        nearest.push(at);
    }
}
