//! Grid physics: sprite overlap, the level edge, GVG-AI `_updatePos`, active and passive
//! movement and the start-of-cycle bookkeeping.

use super::{GameState, POS_LIMIT, Sprite, SpriteRef};
use crate::gvgai::vgdl::Dir;

/// Movement result (GVG-AI `Types.MOVEMENT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Movement {
    Still,
    Rotate,
    Move,
}

impl GameState {
    pub(crate) fn intersects(&self, a: SpriteRef, b: SpriteRef) -> bool {
        if self.rules.sized {
            return self.intersects_sized(a, b);
        }
        let (sa, sb) = (self.sprite(a), self.sprite(b));
        let w = self.block;
        sa.x < sb.x + w && sb.x < sa.x + w && sa.y < sb.y + w && sb.y < sa.y + w
    }

    #[inline(never)]
    fn intersects_sized(&self, a: SpriteRef, b: SpriteRef) -> bool {
        self.rect(a).intersects(self.rect(b))
    }

    pub(super) fn at_edge(&self, s: &Sprite) -> bool {
        let (w, h) = if self.rules.sized {
            self.dims(s.ty)
        } else {
            (self.block, self.block)
        };
        !(s.x >= 0 && s.y >= 0 && s.x + w <= self.width && s.y + h <= self.height)
    }

    /// GVG-AI `_updatePos`.
    pub(crate) fn update_pos(&mut self, r: SpriteRef, dir: Dir, speed_px: i32) -> bool {
        let p = self.rules.props(r.ty);
        let mut sp = speed_px;
        if sp == 0 {
            sp = self.sprite(r).speed as i32;
            if sp == 0 {
                return false;
            }
        }
        let cooldown = p.cooldown;
        let s = self.sprite_mut(r);
        if cooldown <= s.lastmove && (dir.x.abs() + dir.y.abs() != 0.0) {
            // Clamped so that absurd speeds in a game file cannot overflow positions.
            let lim = i64::from(POS_LIMIT);
            s.x = (i64::from(s.x) + i64::from((dir.x * f64::from(sp)) as i32)).clamp(-lim, lim)
                as i32;
            s.y = (i64::from(s.y) + i64::from((dir.y * f64::from(sp)) as i32)).clamp(-lim, lim)
                as i32;
            s.lastmove = 0;
            return true;
        }
        false
    }

    /// GVG-AI `GridPhysics.activeMovement`.
    pub(crate) fn active_movement(&mut self, r: SpriteRef, dir: Dir, speed: f64) -> Movement {
        let p = self.rules.props(r.ty);
        if p.continuous {
            return self.continuous_active(r, dir, speed);
        }
        let own = self.sprite(r).speed;
        let speed = if speed == 0.0 {
            if own <= 0.0 { 1.0 } else { own }
        } else {
            speed
        };
        if speed != 0.0 && !dir.is_none() {
            if p.rotate_in_place && self.sprite(r).oriented {
                let s = self.sprite_mut(r);
                if s.orientation != dir {
                    s.orientation = dir;
                    return Movement::Rotate;
                }
            }
            let px = (speed * f64::from(self.block)) as i32;
            if self.update_pos(r, dir, px) {
                return Movement::Move;
            }
        }
        Movement::Still
    }

    /// GVG-AI `updatePassive` (`GridPhysics.passiveMovement`).
    pub(super) fn update_passive(&mut self, r: SpriteRef) {
        let p = self.rules.props(r.ty);
        if p.is_static {
            return;
        }
        let (is_oriented, speed, continuous) =
            (self.sprite(r).oriented, self.sprite(r).speed, p.continuous);
        let s = self.sprite_mut(r);
        if s.first_tick {
            s.first_tick = false;
            return;
        }
        if continuous {
            return self.continuous_passive(r);
        }
        let speed = if speed == -1.0 { 1.0 } else { speed };
        if speed != 0.0 && is_oriented {
            let dir = s.orientation;
            let px = (speed * f64::from(self.block)) as i32;
            self.update_pos(r, dir, px);
        }
    }

    pub(super) fn pre_movement(&mut self, r: SpriteRef) {
        self.sprite_mut(r).pre_movement();
    }
}
