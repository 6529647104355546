//! One update of a non-avatar sprite, dispatched on its class: time to live, Flicker,
//! Spreader, spawners, random NPCs and missiles (chasers in `chase`, `EvolvedNPC` in
//! [`crate::gvgai::engine::scripted`]).

use std::sync::Arc;

use super::{GameState, SpriteRef};
use crate::gvgai::engine::rules::{Rules, TypeProps};
use crate::gvgai::vgdl::{Dir, SpriteClass, TypeId};

impl GameState {
    /// One update of a non-avatar sprite, by its class (avatar classes do nothing here).
    pub(super) fn update_sprite(&mut self, rules: &Rules, r: SpriteRef) {
        use SpriteClass as C;
        let p = rules.props(r.ty);
        let Some(class) = p.class else { return };
        match class {
            C::Immovable
            | C::Passive
            | C::Door
            | C::Resource
            | C::Conveyor
            | C::Portal
            | C::Missile => self.base_update(r),
            C::Flicker | C::OrientedFlicker => self.update_flicker(r),
            C::Spreader => self.update_spreader(p, r),
            C::RandomNPC | C::RandomInertial => {
                self.update_passive(r);
                let act = self.random_move(r);
                self.active_movement(r, act, self.sprite(r).speed);
            }
            C::Chaser | C::Fleeing | C::LOSChaser => {
                self.update_chaser(r, p.stype.first().copied(), p.fleeing, true);
            }
            C::PathAltChaser => self.update_path_alt_chaser(rules, r),
            C::RandomPathAltChaser => {
                if !self.epsilon_random_step(r, p.epsilon) {
                    self.update_path_alt_chaser(rules, r);
                }
            }
            C::AlternateChaser => self.update_alt_chaser(rules, r),
            C::RandomAltChaser => {
                if !self.epsilon_random_step(r, p.epsilon) {
                    self.update_alt_chaser(rules, r);
                }
            }
            C::SpawnPoint | C::Bomber => {
                let own = self.own_spawn(r);
                self.update_spawner(rules, r, own);
            }
            C::SpawnPointMultiSprite => self.update_multi_spawner(p, r),
            C::PathChaser => self.update_path_chaser(p, r),
            C::RandomBomber => {
                let act = Dir::BASE[self.rng.next_int_bounded(4) as usize];
                self.active_movement(r, act, self.sprite(r).speed);
                let own = self.own_spawn(r);
                self.update_spawner(rules, r, own);
            }
            C::BomberRandomMissile => {
                let spawns = self.sprite(r).spawns.clone();
                let missiles = spawns.as_deref().unwrap_or(&p.stype_missile);
                let k = self.rng.next_int_bounded(missiles.len() as i32) as usize;
                let t = missiles.get(k).copied();
                self.update_spawner(rules, r, t);
            }
            C::RandomMissile => {
                if self.sprite(r).orientation == Dir::NIL {
                    let d = Dir::BASE[self.rng.next_int_bounded(4) as usize];
                    self.sprite_mut(r).orientation = d;
                }
                self.update_passive(r);
            }
            C::EvolvedNPC => self.update_scripted(rules, r),
            C::MovingAvatar
            | C::HorizontalAvatar
            | C::VerticalAvatar
            | C::OrientedAvatar
            | C::ShootAvatar
            | C::ShootOnlyAvatar
            | C::FlakAvatar
            | C::MissileAvatar
            | C::OngoingAvatar
            | C::OngoingTurningAvatar
            | C::OngoingShootAvatar
            | C::NullAvatar
            | C::LanderAvatar
            | C::SpaceshipAvatar
            | C::CarAvatar
            | C::AimedAvatar
            | C::BirdAvatar
            | C::PlatformerAvatar
            | C::WizardAvatar => {}
            C::Walker => self.update_walker(r),
            C::WalkerJumper => self.update_walker_jumper(rules, r),
        }
    }

    /// GVG-AI `VGDLSprite.update`: passive movement, then the `timeToLive` countdown.
    fn base_update(&mut self, r: SpriteRef) {
        self.update_passive(r);
        let s = self.sprite_mut(r);
        if s.ttl > -1 {
            if s.ttl > 0 {
                s.ttl -= 1;
            } else {
                self.kill(r, false);
            }
        }
    }

    fn update_flicker(&mut self, r: SpriteRef) {
        self.base_update(r);
        let limit = self.rules.props(r.ty).limit;
        if self.sprite(r).age > limit {
            self.kill(r, false);
        }
        self.sprite_mut(r).age += 1;
    }

    /// Spreader: a Flicker that, at age 2, creates its `stype` (else its own type) in each
    /// neighbouring cell with probability `spreadprob`.
    fn update_spreader(&mut self, p: &TypeProps, r: SpriteRef) {
        self.update_flicker(r);
        if self.sprite(r).age == 2 {
            let new_type = p.stype.first().copied().unwrap_or(r.ty);
            let (lx, ly) = (self.sprite(r).lx, self.sprite(r).ly);
            for u in Dir::BASE {
                if self.rng.next_double() < p.spread_prob {
                    let x = (f64::from(lx) + u.x * f64::from(self.block)) as i32;
                    let y = (f64::from(ly) + u.y * f64::from(self.block)) as i32;
                    self.add_sprite(new_type, x, y, false);
                }
            }
        }
    }

    /// The random branch of RandomPathAltChaser and RandomAltChaser: with probability
    /// `epsilon` the sprite moves in a random direction this cycle (and true is returned).
    fn epsilon_random_step(&mut self, r: SpriteRef, epsilon: f64) -> bool {
        let roll = self.rng.next_double();
        if roll < epsilon {
            self.update_passive(r);
            let act = Dir::BASE[self.rng.next_int_bounded(4) as usize];
            self.active_movement(r, act, self.sprite(r).speed);
            return true;
        }
        false
    }

    /// The type a SpawnPoint, Bomber or RandomBomber produces once `updateSpawnType` set it.
    fn own_spawn(&self, r: SpriteRef) -> Option<TypeId> {
        self.sprite(r)
            .spawns
            .as_deref()
            .and_then(|s| s.first().copied())
    }

    /// GVG-AI `UpdateSpawnType`: every spawner of `spawn_point` or its subtypes produces `to`
    /// from now on; a BomberRandomMissile replaces only the entry `from` of its list (if it
    /// has it). Sprites of other classes are left alone.
    pub(crate) fn update_spawn_type(
        &mut self,
        rules: &Rules,
        spawn_point: TypeId,
        from: TypeId,
        to: TypeId,
    ) {
        use SpriteClass as C;
        for &st in &rules.props(spawn_point).subtypes {
            let p = rules.props(st);
            match p.class {
                Some(C::SpawnPoint | C::Bomber | C::RandomBomber) => {
                    let one: Arc<[TypeId]> = Arc::from([to]);
                    for s in self.group_mut(st).iter_mut() {
                        s.spawns = Some(Arc::clone(&one));
                    }
                }
                Some(C::BomberRandomMissile) => {
                    for s in self.group_mut(st).iter_mut() {
                        let mut list = s.spawns.as_deref().unwrap_or(&p.stype_missile).to_vec();
                        if let Some(e) = list.iter_mut().find(|e| **e == from) {
                            *e = to;
                        }
                        s.spawns = Some(list.into());
                    }
                }
                _ => {}
            }
        }
    }

    /// SpawnPoint and the bombers: spawn `spawn` (else the first `stype`) when due.
    fn update_spawner(&mut self, rules: &Rules, r: SpriteRef, spawn: Option<TypeId>) {
        let p = rules.props(r.ty);
        if self.spawn_due(p, r) {
            if let Some(st) = spawn.or(p.stype.first().copied()) {
                self.spawn_child(p, r, st);
            }
        }
        self.finish_spawner(p, r);
    }

    /// SpawnPointMultiSprite: spawn one sprite of every `stypes` type when due.
    fn update_multi_spawner(&mut self, p: &TypeProps, r: SpriteRef) {
        if self.spawn_due(p, r) {
            for &st in &p.stypes {
                self.spawn_child(p, r, st);
            }
        }
        self.finish_spawner(p, r);
    }

    /// Whether a spawner produces this cycle: every `cooldown` ticks counted from its first
    /// update, with probability `prob` (the roll is drawn every cycle).
    fn spawn_due(&mut self, p: &TypeProps, r: SpriteRef) -> bool {
        let tick = self.tick;
        if self.sprite(r).start == -1 {
            self.sprite_mut(r).start = tick;
        }
        let roll = self.rng.next_float();
        let start = self.sprite(r).start;
        // The roll first: it is usually the one that fails, and it spares a division.
        f64::from(roll) < p.prob && (start + tick) % p.cooldown == 0
    }

    /// Create a sprite of `st` on spawner `r` and count it; it faces the spawner's
    /// `spawnorientation`, else keeps its own orientation, else takes the spawner's.
    fn spawn_child(&mut self, p: &TypeProps, r: SpriteRef, st: TypeId) {
        let (x, y, orientation) = {
            let s = self.sprite(r);
            (s.x, s.y, s.orientation)
        };
        if let Some(n) = self.add_sprite(st, x, y, false) {
            self.sprite_mut(r).counter += 1;
            let ns = self.sprite_mut(n);
            if !p.spawn_orientation.is_none() {
                ns.orientation = p.spawn_orientation;
            } else if ns.orientation.is_none() {
                ns.orientation = orientation;
            }
        }
    }

    /// The end of a spawner's update: its base update, then death once it has made `total`.
    fn finish_spawner(&mut self, p: &TypeProps, r: SpriteRef) {
        self.base_update(r);
        if p.total > 0 && self.sprite(r).counter >= p.total {
            self.kill(r, false);
        }
    }
}
