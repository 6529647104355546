//! Continuous physics (GVG-AI `ContinuousPhysics`, `physicstype=CONT`): a sprite's
//! `orientation` is the unit vector of its velocity and `speed` its magnitude in pixels per
//! cycle. Passive movement translates the integer pixel rectangle by the truncated velocity,
//! then applies gravity and friction; active movement adds a force (the action, divided by the
//! mass) to the velocity. Doubles and casts follow the Java code operation by operation, so
//! runs stay identical to the framework's at every tick.

use super::{GameState, Movement, SpriteRef};
use crate::gvgai::vgdl::Dir;

/// The velocity `force / mass + orientation · speed` as a unit direction and a magnitude
/// (GVG-AI divides by the mass cast to `float`).
fn accelerate(force: Dir, mass: f64, orientation: Dir, speed: f64) -> (Dir, f64) {
    let m = f64::from(mass as f32);
    let v = Dir {
        x: force.x / m + orientation.x * speed,
        y: force.y / m + orientation.y * speed,
    };
    let mag = (v.x * v.x + v.y * v.y).sqrt();
    (v.normalised(), mag)
}

impl GameState {
    /// `ContinuousPhysics.passiveMovement` (after the first-tick skip): move by the velocity,
    /// fall by `gravity · mass`, then slow down by `friction`.
    #[inline(never)]
    pub(super) fn continuous_passive(&mut self, r: SpriteRef) {
        let p = self.rules.props(r.ty);
        let (mass, friction) = (p.mass, p.friction);
        let s = self.sprite(r);
        let gravity = s.gravity(p.gravity);
        if s.speed == 0.0 {
            return;
        }
        let (dir, speed, on_ground) = (s.orientation, s.speed, s.on_ground);
        self.update_pos(r, dir, speed as i32);
        if gravity > 0.0 && mass > 0.0 && !on_ground {
            let pull = Dir {
                x: 0.0,
                y: gravity * mass,
            };
            self.continuous_active(r, pull, 0.0);
        }
        self.sprite_mut(r).speed *= 1.0 - friction;
    }

    /// `ContinuousPhysics.activeMovement`: the action is a force added to the velocity
    /// (`speed` 0 or -1 stands for the sprite's own speed).
    #[inline(never)]
    pub(crate) fn continuous_active(&mut self, r: SpriteRef, force: Dir, speed: f64) -> Movement {
        let p = self.rules.props(r.ty);
        let (mass, max_speed) = (p.mass, p.max_speed);
        let s = self.sprite_mut(r);
        let speed = if speed == 0.0 || speed == -1.0 {
            s.speed
        } else {
            speed
        };
        let (dir, mut mag) = accelerate(force, mass, s.orientation, speed);
        if max_speed != -1.0 {
            mag = mag.min(max_speed);
        }
        s.orientation = dir;
        s.speed = mag;
        if force.is_none() {
            Movement::Still
        } else {
            Movement::Move
        }
    }
}
