//! Avatars steered by a heading (GVG-AI `LanderAvatar`, `SpaceshipAvatar`, `CarAvatar`,
//! `AimedAvatar`, `BirdAvatar`): LEFT and RIGHT turn the `rotation` by `angle_diff`, and a
//! thrust along the heading goes through the sprite's physics. The order of the passive
//! move, the shots, the turn and the thrust is the framework's, call by call.

use super::{GameState, SpriteRef};
use crate::gvgai::engine::rules::{Action, Rules};
use crate::gvgai::vgdl::{Dir, SpriteClass};

/// The unit vector at `angle` radians.
fn heading(angle: f64) -> Dir {
    Dir {
        x: angle.cos(),
        y: angle.sin(),
    }
}

impl GameState {
    /// One update of a steered avatar with `action` (already checked against its actions);
    /// false, with nothing done, for the other classes.
    #[inline(never)]
    pub(super) fn update_steered_avatar(
        &mut self,
        rules: &Rules,
        r: SpriteRef,
        action: Action,
    ) -> bool {
        use SpriteClass as C;
        let p = rules.props(r.ty);
        match p.class {
            Some(C::LanderAvatar | C::SpaceshipAvatar | C::CarAvatar) => {
                if p.continuous {
                    self.update_passive(r);
                }
                if p.class == Some(C::SpaceshipAvatar) && action == Action::Use {
                    // ShootAvatar's use after a still move, then the spaceship's own.
                    self.shoot_ahead(rules, r);
                    self.shoot_ahead(rules, r);
                }
                self.turn(r, action, p.angle_diff);
                self.thrust(rules, r, action);
            }
            Some(C::AimedAvatar) => self.update_aimed(rules, r, action),
            Some(C::BirdAvatar) => self.update_bird(rules, r, action),
            Some(C::PlatformerAvatar | C::WizardAvatar) => {
                self.update_platformer(rules, r, action);
            }
            _ => return false,
        }
        true
    }

    /// `aim` of the lander, spaceship and car: LEFT and RIGHT turn by `angle_diff`.
    fn turn(&mut self, r: SpriteRef, action: Action, angle_diff: f64) {
        let s = self.sprite_mut(r);
        match action {
            Action::Left => s.rotation -= angle_diff,
            Action::Right => s.rotation += angle_diff,
            _ => {}
        }
    }

    /// `move` of the lander (UP), the spaceship (UP, DOWN backwards) and the car (always, at
    /// speed 5, backwards after a DOWN until the next UP).
    fn thrust(&mut self, rules: &Rules, r: SpriteRef, action: Action) {
        let p = rules.props(r.ty);
        let rotation = self.sprite(r).rotation;
        let half_turn = 180f64.to_radians();
        if p.class == Some(SpriteClass::CarAvatar) {
            let s = self.sprite_mut(r);
            match action {
                Action::Up => s.reversing = false,
                Action::Down => s.reversing = true,
                _ => {}
            }
            let facing = if s.reversing { 1.0 } else { 0.0 };
            self.active_movement(r, heading(rotation + facing * half_turn), 5.0);
            return;
        }
        let dir = match action {
            Action::Up => heading(rotation),
            Action::Down if p.class == Some(SpriteClass::SpaceshipAvatar) => {
                heading(rotation + half_turn)
            }
            _ => return,
        };
        let speed = self.sprite(r).speed;
        self.active_movement(r, dir, speed);
    }

    /// `SpaceshipAvatar.shoot`: the first stype with ammunition, one cell ahead along the
    /// heading, flying along it.
    fn shoot_ahead(&mut self, rules: &Rules, r: SpriteRef) {
        let p = rules.props(r.ty);
        let Some(i) = self.armed_weapon(rules, r) else {
            return;
        };
        let (x, y, rotation) = {
            let s = self.sprite(r);
            (s.x, s.y, s.rotation)
        };
        let b = f64::from(self.block);
        let h = heading(rotation);
        let nx = (f64::from(x) + h.x * b) as i32;
        let ny = (f64::from(y) + h.y * b) as i32;
        let st = p.stype[i];
        if let Some(n) = self.add_sprite(st, nx, ny, false) {
            if rules.props(st).is_oriented {
                self.sprite_mut(n).orientation = h;
            }
            self.spend_ammo(rules, r, i);
            self.sprite_mut(n).from_avatar = true;
        }
    }

    /// `AimedAvatar`: it never moves; USE fires ahead (twice over, as the framework calls its
    /// use twice), then UP and DOWN turn the aim by `angle_diff`.
    fn update_aimed(&mut self, rules: &Rules, r: SpriteRef, action: Action) {
        let p = rules.props(r.ty);
        if action == Action::Use {
            self.shoot(rules, r);
            self.shoot(rules, r);
        }
        let angle = match action {
            Action::Up => -p.angle_diff,
            Action::Down => p.angle_diff,
            _ => 0.0,
        };
        let s = self.sprite_mut(r);
        let o = s.orientation;
        let (sin, cos) = (angle.sin(), angle.cos());
        s.orientation = Dir {
            x: o.x * cos - o.y * sin,
            y: o.x * sin + o.y * cos,
        };
        s.rotation = s.orientation.y.atan2(s.orientation.x);
    }

    /// `PlatformerAvatar`: runs LEFT and RIGHT (at half the force in the air); USE on the
    /// ground cancels the vertical speed, pushes up by `jump_strength` and lifts it 5 pixels.
    /// It is in the air again until a collision test finds ground under it.
    fn update_platformer(&mut self, rules: &Rules, r: SpriteRef, action: Action) {
        let p = rules.props(r.ty);
        if p.continuous {
            self.update_passive(r);
        }
        let dir = action.direction();
        if dir.x != 0.0 || dir.y != 0.0 {
            let run = if self.sprite(r).on_ground {
                dir
            } else {
                Dir {
                    x: dir.x / 2.0,
                    y: dir.y,
                }
            };
            let speed = self.sprite(r).speed;
            self.active_movement(r, run, speed);
        }
        if action == Action::Use && self.sprite(r).on_ground {
            self.jump(r, p.jump_strength, p.cooldown);
        }
        if p.class == Some(SpriteClass::WizardAvatar) {
            self.wizard_block(rules, r, action);
        }
        self.sprite_mut(r).on_ground = false;
    }

    /// WizardAvatar: UP, at least 5 ticks after the last block, pushes it down and drops a
    /// block of each `stype` ahead (1.2 cells along its facing); LEFT and RIGHT set the
    /// facing. `counter` holds the tick of the last block, `reversing` a left facing.
    fn wizard_block(&mut self, rules: &Rules, r: SpriteRef, action: Action) {
        let p = rules.props(r.ty);
        if action == Action::Up && self.sprite(r).counter + 5 <= self.tick {
            self.active_movement(r, Dir::DOWN, -1.0);
            let (x, y, left) = {
                let s = self.sprite(r);
                (s.x, s.y, s.reversing)
            };
            let fx = if left { -1.0 } else { 1.0 };
            let b = f64::from(self.block);
            for &st in &p.stype {
                let nx = (f64::from(x) + fx * b * 1.2) as i32;
                self.add_sprite(st, nx, y, false);
            }
            let tick = self.tick;
            self.sprite_mut(r).counter = tick;
        }
        match action {
            Action::Left => self.sprite_mut(r).reversing = true,
            Action::Right => self.sprite_mut(r).reversing = false,
            _ => {}
        }
    }

    /// GVG-AI `groundIntersects` of a ground-checking sprite `r` against `other`: once a
    /// solid sprite lies within 3 pixels below it while it falls, it stands on the ground.
    #[inline(never)]
    pub(super) fn check_ground(&mut self, r: SpriteRef, other: SpriteRef) {
        if self.sprite(r).on_ground || !self.rules.props(other.ty).solid {
            return;
        }
        let (a, b) = (self.rect(r), self.rect(other));
        let (s, o) = (self.sprite(r), self.sprite(other));
        let other_higher = o.ly > s.ly + a.h / 2;
        let going_down = s.y > s.ly;
        let below = crate::gvgai::engine::bounce::Rect { y: a.y + 3, ..a };
        let on_ground = below.intersects(b) && other_higher && going_down;
        self.sprite_mut(r).on_ground = on_ground;
    }

    /// `BirdAvatar`: drifts with its physics, pushed right while it flies mostly vertically;
    /// USE cancels its vertical speed and flaps up by `jump_strength`.
    fn update_bird(&mut self, rules: &Rules, r: SpriteRef, action: Action) {
        let p = rules.props(r.ty);
        if p.continuous {
            self.update_passive(r);
        }
        let speed = self.sprite(r).speed;
        self.active_movement(r, Dir::NONE, speed);
        let push = if self.sprite(r).orientation.x.abs() < 0.5 {
            Dir::RIGHT
        } else {
            Dir::NONE
        };
        if action == Action::Use {
            let s = self.sprite_mut(r);
            s.orientation.y = 0.0;
            let speed = s.speed;
            let flap = Dir {
                x: 0.0,
                y: -p.jump_strength,
            };
            self.active_movement(r, flap, speed);
        }
        let speed = self.sprite(r).speed;
        self.active_movement(r, push, speed);
        let s = self.sprite_mut(r);
        s.rotation = s.orientation.y.atan2(s.orientation.x);
    }
}
