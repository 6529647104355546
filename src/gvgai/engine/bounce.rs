//! The effects of continuous physics (GVG-AI `WallStop`, `WallBounce`, `WallReverse`,
//! `BounceDirection`, `KillIfSlow`, `KillIfFast`, `KillIfNotUpright`):
//! they read and write a sprite's velocity (`orientation` · `speed`) from the geometry of the
//! collision, on integer pixel rectangles, with the Java code's arithmetic.

use super::effects::EffectOutcome;
use super::state::{GameState, SpriteRef};
use crate::gvgai::vgdl::{Dir, EffectKind, TypeId};

/// An integer pixel rectangle (`java.awt.Rectangle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    fn center_x(self) -> f64 {
        f64::from(self.x) + f64::from(self.w) / 2.0
    }

    fn center_y(self) -> f64 {
        f64::from(self.y) + f64::from(self.h) / 2.0
    }

    /// `Rectangle.intersects`.
    pub(crate) fn intersects(self, o: Rect) -> bool {
        self.w > 0
            && self.h > 0
            && o.w > 0
            && o.h > 0
            && self.x < o.x + o.w
            && o.x < self.x + self.w
            && self.y < o.y + o.h
            && o.y < self.y + self.h
    }

    /// `Rectangle.intersection` (empty intersections have negative sizes).
    fn intersection(self, o: Rect) -> Rect {
        let x1 = self.x.max(o.x);
        let y1 = self.y.max(o.y);
        let x2 = (i64::from(self.x) + i64::from(self.w)).min(i64::from(o.x) + i64::from(o.w));
        let y2 = (i64::from(self.y) + i64::from(self.h)).min(i64::from(o.y) + i64::from(o.h));
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        Rect {
            x: x1,
            y: y1,
            w: clamp(x2 - i64::from(x1)),
            h: clamp(y2 - i64::from(y1)),
        }
    }
}

impl GameState {
    /// The width and height in pixels of sprites of type `t` (the cell scaled by `wMult`,
    /// `hMult`, truncated).
    pub(crate) fn dims(&self, t: TypeId) -> (i32, i32) {
        let p = self.rules.props(t);
        let b = f64::from(self.block);
        ((b * p.w_mult) as i32, (b * p.h_mult) as i32)
    }

    /// The sprite's rectangle now.
    pub(crate) fn rect(&self, r: SpriteRef) -> Rect {
        let s = self.sprite(r);
        let (w, h) = self.dims(r.ty);
        Rect {
            x: s.x,
            y: s.y,
            w,
            h,
        }
    }

    /// The sprite's rectangle at the start of the cycle (`lastrect`).
    fn last_rect(&self, r: SpriteRef) -> Rect {
        let s = self.sprite(r);
        Rect {
            x: s.lx,
            y: s.ly,
            ..self.rect(r)
        }
    }

    /// `VGDLSprite._velocity`.
    fn velocity(&self, r: SpriteRef) -> Dir {
        let s = self.sprite(r);
        if s.speed == 0.0 {
            Dir::NONE
        } else {
            Dir {
                x: s.orientation.x * s.speed,
                y: s.orientation.y * s.speed,
            }
        }
    }

    /// The pairwise effects of continuous physics; `None` for other effects.
    #[inline(never)]
    pub(crate) fn continuous_effect(
        &mut self,
        kind: &EffectKind,
        s1: SpriteRef,
        s2: SpriteRef,
    ) -> Option<EffectOutcome> {
        match kind {
            EffectKind::WallStop => self.wall_stop(s1, s2),
            EffectKind::WallBounce | EffectKind::WallReverse => {
                let reverse = matches!(kind, EffectKind::WallReverse);
                self.wall_bounce_batch(s1, &[s2], reverse);
            }
            EffectKind::BounceDirection { max_angle_deg } => {
                self.bounce_direction(s1, s2, *max_angle_deg)
            }
            EffectKind::KillIfSpeed { limspeed, fast } => {
                let rel = self.relative_speed(s1, s2);
                if (*fast && rel > *limspeed) || (!*fast && rel < *limspeed) {
                    self.kill(s1, false);
                }
            }
            EffectKind::KillIfNotUpright => {
                let tau = 2.0 * std::f64::consts::PI;
                let rotation = (self.sprite(s1).rotation + tau) % tau;
                if !(rotation < 5.0 && rotation > 4.4) {
                    self.kill(s1, false);
                }
            }
            _ => return None,
        }
        Some(EffectOutcome::default())
    }

    /// The speed `killIfSlow` and `killIfFast` compare: the moving sprite's speed if the
    /// other is static, else the length of the difference of their directions.
    fn relative_speed(&self, s1: SpriteRef, s2: SpriteRef) -> f64 {
        let (a, b) = (self.sprite(s1), self.sprite(s2));
        if self.rules.props(s1.ty).is_static {
            b.speed
        } else if self.rules.props(s2.ty).is_static {
            a.speed
        } else {
            let (x, y) = (
                a.orientation.x - b.orientation.x,
                a.orientation.y - b.orientation.y,
            );
            (x * x + y * y).sqrt()
        }
    }

    /// `WallStop`: flush against `s2` on the side `s1` came from, keeping only the velocity
    /// component along the wall.
    fn wall_stop(&mut self, s1: SpriteRef, s2: SpriteRef) {
        let (x, y) = self.pixel_perfect(s1, s2);
        let gravity = self.sprite(s1).gravity(self.rules.props(s1.ty).gravity);
        {
            let s = self.sprite_mut(s1);
            s.x = x;
            s.y = y;
        }
        let (a, b) = (self.rect(s1), self.rect(s2));
        let dx = (a.center_x() - b.center_x()).abs();
        let dy = (a.center_y() - b.center_y()).abs();
        let o = self.sprite(s1).orientation;
        let v = if dx > dy {
            Dir { x: 0.0, y: o.y }
        } else {
            Dir { x: o.x, y: 0.0 }
        };
        let mag = (v.x * v.x + v.y * v.y).sqrt();
        let s = self.sprite_mut(s1);
        s.orientation = v.normalised();
        s.speed *= mag;
        if s.speed < gravity {
            s.speed = gravity;
        }
    }

    /// `WallBounce.executeBatch` (with `reverse`, `WallReverse.executeBatch`): the sprites
    /// `s1` hit this cycle make one wall (two aligned ones merge, else the nearest counts);
    /// `s1` reflects off it (or turns back horizontally) and returns to where it started the
    /// cycle. Returns the number of sprites the bounce counted (the score factor).
    pub(crate) fn wall_bounce_batch(
        &mut self,
        s1: SpriteRef,
        hits: &[SpriteRef],
        reverse: bool,
    ) -> i32 {
        let (wall, n) = self.batch_wall(s1, hits);
        let (horizontal, vertical) = self.determine_collision(s1, wall);
        let gravity = self.sprite(s1).gravity(self.rules.props(s1.ty).gravity);
        let s = self.sprite_mut(s1);
        let o = s.orientation;
        s.orientation = if reverse {
            let v = Dir {
                x: if vertical { o.x } else { -o.x },
                y: 0.0,
            };
            s.speed *= (v.x * v.x + v.y * v.y).sqrt();
            if s.speed < gravity {
                s.speed = gravity;
            }
            v.normalised()
        } else if vertical {
            Dir { x: o.x, y: -o.y }
        } else if horizontal {
            Dir { x: -o.x, y: o.y }
        } else {
            Dir { x: -o.x, y: -o.y }
        };
        s.x = s.lx;
        s.y = s.ly;
        for &h in hits {
            let s = self.sprite_mut(h);
            s.x = s.lx;
            s.y = s.ly;
        }
        n
    }

    /// `Effect.sortBatch`: the wall a batch of hit sprites forms, and how many it counts.
    fn batch_wall(&self, s1: SpriteRef, hits: &[SpriteRef]) -> (Rect, i32) {
        if let [b1, b2] = hits {
            let (r1, r2) = (self.rect(*b1), self.rect(*b2));
            if r1.center_x() == r2.center_x() {
                let y = if r1.y < r2.y { r1.y } else { r2.y };
                return (
                    Rect {
                        y,
                        h: r1.h * 2,
                        ..r1
                    },
                    2,
                );
            }
            if r1.center_y() == r2.center_y() {
                let x = if r1.x < r2.x { r1.x } else { r2.x };
                return (
                    Rect {
                        x,
                        w: r1.w * 2,
                        ..r1
                    },
                    2,
                );
            }
        }
        if hits.len() == 1 {
            return (self.rect(hits[0]), 1);
        }
        (self.rect(self.nearest(s1, hits)), 1)
    }

    /// The first of `hits` nearest to `s1` by the centres of their last rectangles (a stable
    /// sort's first element).
    fn nearest(&self, s1: SpriteRef, hits: &[SpriteRef]) -> SpriteRef {
        let c = self.last_rect(s1);
        let dist = |r: SpriteRef| {
            let o = self.last_rect(r);
            let (dx, dy) = (c.center_x() - o.center_x(), c.center_y() - o.center_y());
            (dx * dx + dy * dy).sqrt()
        };
        let mut best = hits[0];
        let mut best_d = dist(best);
        for &h in &hits[1..] {
            let d = dist(h);
            if d < best_d {
                best = h;
                best_d = d;
            }
        }
        best
    }

    /// `Effect.determineCollision`: whether `s1` hit `wall` on a vertical side (horizontal
    /// bounce) and/or a horizontal side (vertical bounce).
    fn determine_collision(&self, s1: SpriteRef, wall: Rect) -> (bool, bool) {
        let a = self.rect(s1);
        let inter = a.intersection(wall);
        let mut horizontal = a.h == inter.h;
        let mut vertical = a.w == inter.w;
        if !horizontal && !vertical {
            let vel = self.velocity(s1);
            let last = self.last_rect(s1);
            let dist_x = if vel.x == 0.0 {
                f64::from(last.x - wall.x).abs()
            } else if vel.x > 0.0 {
                f64::from(last.x + a.w - wall.x).abs()
            } else {
                f64::from(wall.x + wall.w - last.x).abs()
            };
            let dist_y = if vel.y == 0.0 {
                f64::from(last.y - wall.y).abs()
            } else if vel.y > 0.0 {
                f64::from(last.y + a.h - wall.y).abs()
            } else {
                f64::from(last.y - (wall.y + wall.h)).abs()
            };
            let tx = (dist_x / vel.x).abs();
            let ty = (dist_y / vel.y).abs();
            horizontal = tx < ty;
            vertical = ty < tx;
        }
        (horizontal, vertical)
    }

    /// `BounceDirection`: leave the paddle `s2` at up to `max_angle_deg` from its normal,
    /// by where it was hit.
    fn bounce_direction(&mut self, s1: SpriteRef, s2: SpriteRef, max_angle_deg: f64) {
        let (a, b, last) = (self.rect(s1), self.rect(s2), self.last_rect(s1));
        let vel = self.velocity(s1);
        let dist_x = f64::from((last.x - (b.x + b.w)).abs().min((last.x + a.w - b.x).abs()));
        let dist_y = f64::from((last.y - (b.y + b.h)).abs().min((last.y + a.h - b.y).abs()));
        let tx = (dist_x / vel.x).abs();
        let ty = (dist_y / vel.y).abs();
        let (horizontal, vertical) = (tx < ty, ty < tx);
        let (pad, diff, travel) = if vertical {
            let travel = if a.center_y() < b.center_y() {
                1.0
            } else {
                -1.0
            };
            (f64::from(b.w), a.center_x() - b.center_x(), travel)
        } else if horizontal {
            let travel = if a.center_x() > b.center_x() {
                1.0
            } else {
                -1.0
            };
            (f64::from(b.h), b.center_y() - a.center_y(), travel)
        } else {
            let s = self.sprite_mut(s1);
            s.orientation.x = -s.orientation.x;
            return;
        };
        let mut rel = diff / (0.5 * pad);
        rel = if rel < 0.0 {
            rel.max(-1.0)
        } else {
            rel.min(1.0)
        };
        let angle = rel * max_angle_deg.to_radians();
        let d = if vertical {
            Dir {
                x: angle.sin(),
                y: -angle.cos() * travel,
            }
        } else {
            Dir {
                x: angle.cos() * travel,
                y: -angle.sin(),
            }
        };
        self.sprite_mut(s1).orientation = d.normalised();
    }
}
