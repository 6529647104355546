//! Continuous-physics walkers (GVG-AI `Walker`, `WalkerJumper`): they fall with gravity until
//! a collision test finds solid ground under them, and walk left or right at `max_speed`.

use super::{GameState, SpriteRef};
use crate::gvgai::engine::rules::Rules;
use crate::gvgai::vgdl::Dir;

impl GameState {
    /// `Walker.update`: after the passive move, a walker that did not move sideways turns to
    /// face straight along the way it faces (a random way if it faces neither) and walks on
    /// that way; its speed is then `max_speed`.
    #[inline(never)]
    pub(super) fn update_walker(&mut self, r: SpriteRef) {
        self.update_passive(r);
        let max_speed = self.rules.props(r.ty).max_speed;
        let s = self.sprite(r);
        if s.x == s.lx {
            let ox = s.orientation.x;
            // Neither way: a random one of [-1, 1].
            let d = if ox != 0.0 {
                ox.signum()
            } else {
                [-1.0, 1.0][self.rng.next_int_bounded(2) as usize]
            };
            let dir = Dir { x: d, y: 0.0 };
            self.sprite_mut(r).orientation = dir;
            self.active_movement(r, dir, max_speed);
        }
        let s = self.sprite_mut(r);
        s.speed = max_speed;
        s.on_ground = false;
    }

    /// `WalkerJumper.update`: on the ground it may jump (GVG-AI draws the chance from an
    /// unseeded generator; here from the game's), else it keeps accelerating the way it goes.
    #[inline(never)]
    pub(super) fn update_walker_jumper(&mut self, rules: &Rules, r: SpriteRef) {
        self.update_passive(r);
        let p = rules.props(r.ty);
        let on_ground = self.sprite(r).on_ground;
        if on_ground && JUMP_PROBABILITY > self.rng.next_double() {
            self.jump(r, p.jump_strength, p.cooldown);
        } else {
            let (o, speed) = (self.sprite(r).orientation, self.sprite(r).speed);
            self.active_movement(r, o, speed);
        }
        self.sprite_mut(r).on_ground = false;
    }
}

impl GameState {
    /// A jump: the vertical speed is cancelled, `strength` pushes up, and the sprite is
    /// lifted 5 pixels at once.
    pub(super) fn jump(&mut self, r: SpriteRef, strength: f64, cooldown: i32) {
        let s = self.sprite_mut(r);
        s.orientation.y = 0.0;
        let speed = s.speed;
        self.active_movement(
            r,
            Dir {
                x: 0.0,
                y: -strength,
            },
            speed,
        );
        self.sprite_mut(r).lastmove = cooldown;
        self.update_pos(r, Dir::UP, 5);
    }
}

/// WalkerJumper's default `probability` of a jump per tick on the ground.
const JUMP_PROBABILITY: f64 = 0.1;
