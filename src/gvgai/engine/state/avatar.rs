//! One update of the avatar, by class: ongoing avatars, moving and oriented avatars, and
//! shooting (ShootAvatar, FlakAvatar).

use super::{GameState, Movement, SpriteRef};
use crate::gvgai::engine::rules::{Action, Rules, SHOOT_ONLY, TypeProps};
use crate::gvgai::vgdl::{Dir, SpriteClass};

impl GameState {
    /// ShootAvatar `hasAmmo`: the first stype that has ammunition (or needs none).
    pub(super) fn armed_weapon(&self, rules: &Rules, r: SpriteRef) -> Option<usize> {
        (0..rules.props(r.ty).stype.len()).find(|&i| self.has_ammo(rules, r, i))
    }

    /// ShootAvatar `hasAmmo(i)`: weapon `i` needs no ammunition or has some.
    fn has_ammo(&self, rules: &Rules, r: SpriteRef, i: usize) -> bool {
        match rules.props(r.ty).ammo.get(i) {
            None => true,
            Some(&a) => self.sprite(r).amount(a) > 0,
        }
    }

    /// ShootAvatar `reduceAmmo` for weapon `i`.
    pub(super) fn spend_ammo(&mut self, rules: &Rules, r: SpriteRef, i: usize) {
        if let Some(&a) = rules.props(r.ty).ammo.get(i) {
            let s = self.sprite_mut(r);
            if s.resources.iter().any(|(t, _)| *t == a) {
                let v = s.amount(a).saturating_sub(1);
                s.set_amount(a, v);
            }
        }
    }

    /// ShootAvatar `updateUse`: fire the first stype that has ammunition, in front.
    pub(super) fn shoot(&mut self, rules: &Rules, r: SpriteRef) {
        if let Some(i) = self.armed_weapon(rules, r) {
            self.fire(rules, r, i);
        }
    }

    /// ShootOnlyAvatar `updateUse`: the action's index among LEFT, UP, RIGHT, DOWN and USE
    /// picks the stype, fired if it exists and has ammunition (or needs none).
    fn shoot_only(&mut self, rules: &Rules, r: SpriteRef, action: Action) {
        let Some(i) = SHOOT_ONLY.iter().position(|&a| a == action) else {
            return;
        };
        if i < rules.props(r.ty).stype.len() && self.has_ammo(rules, r, i) {
            self.fire(rules, r, i);
        }
    }

    /// ShootAvatar `shoot`: weapon `i`'s stype on the cell in front, facing the avatar's way.
    fn fire(&mut self, rules: &Rules, r: SpriteRef, i: usize) {
        let st = rules.props(r.ty).stype[i];
        let (x, y, dir) = {
            let s = self.sprite(r);
            (s.x, s.y, s.orientation.normalised())
        };
        let b = f64::from(self.block);
        let nx = (f64::from(x) + dir.x * b) as i32;
        let ny = (f64::from(y) + dir.y * b) as i32;
        if let Some(n) = self.add_sprite(st, nx, ny, false) {
            if rules.props(st).is_oriented {
                self.sprite_mut(n).orientation = dir;
            }
            self.spend_ammo(rules, r, i);
            self.sprite_mut(n).from_avatar = true;
        }
    }

    /// One update of the avatar with `action` (Nil if its class does not accept it).
    pub(super) fn update_avatar(&mut self, rules: &Rules, r: SpriteRef, action: Action) {
        use SpriteClass as C;
        let p = rules.props(r.ty);
        let action = if p.actions.contains(&action) {
            action
        } else {
            Action::Nil
        };
        self.last_action = action;
        let dir = action.direction();
        if self.update_ongoing_avatar(rules, r, action, dir)
            || self.update_steered_avatar(rules, r, action)
        {
            return;
        }
        if p.continuous {
            self.update_passive(r);
        }
        if p.class == Some(C::ShootOnlyAvatar) {
            self.shoot_only(rules, r, action);
            return;
        }
        let movement = self.active_movement(r, dir, self.sprite(r).speed);
        let class = p.class;
        if matches!(class, Some(C::OrientedAvatar | C::ShootAvatar))
            && movement == Movement::Move
            && !p.continuous
        {
            self.face_last_move(r);
        }
        if movement != Movement::Still || action != Action::Use {
            return;
        }
        match class {
            Some(C::ShootAvatar) => self.shoot(rules, r),
            Some(C::FlakAvatar) => self.flak(p, r),
            _ => {}
        }
    }

    /// The whole update of the avatars that keep moving on their own (MissileAvatar and the
    /// ongoing avatars); false, with nothing done, for the other classes.
    fn update_ongoing_avatar(
        &mut self,
        rules: &Rules,
        r: SpriteRef,
        action: Action,
        dir: Dir,
    ) -> bool {
        use SpriteClass as C;
        let p = rules.props(r.ty);
        match p.class {
            Some(C::MissileAvatar) => {
                self.update_passive(r);
            }
            Some(C::OngoingAvatar) => {
                if !dir.is_none() {
                    self.sprite_mut(r).orientation = dir;
                }
                self.update_passive(r);
            }
            Some(C::OngoingTurningAvatar) => {
                let o = self.sprite(r).orientation;
                if !dir.is_none() && dir.x * o.x + dir.y * o.y == 0.0 {
                    self.sprite_mut(r).orientation = dir;
                }
                self.update_passive(r);
                let (x, y, lx, ly) = {
                    let s = self.sprite(r);
                    (s.x, s.y, s.lx, s.ly)
                };
                let w = self.block;
                let overlap = x < lx + w && lx < x + w && y < ly + w && ly < y + w;
                if !overlap {
                    self.add_sprite(p.spawn_behind, lx, ly, false);
                }
            }
            Some(C::OngoingShootAvatar) => {
                if !dir.is_none() {
                    self.sprite_mut(r).orientation = dir;
                }
                self.update_passive(r);
                if dir.is_none() && action == Action::Use {
                    self.shoot(rules, r);
                }
            }
            _ => return false,
        }
        true
    }

    /// OrientedAvatar and ShootAvatar face the direction they just moved in.
    fn face_last_move(&mut self, r: SpriteRef) {
        let s = self.sprite_mut(r);
        let d = Dir {
            x: f64::from(s.x - s.lx),
            y: f64::from(s.y - s.ly),
        }
        .normalised();
        s.orientation = d;
    }

    /// FlakAvatar `updateUse`: with ammunition above `minAmmo` (or no ammunition type), fire
    /// the first stype on the avatar's cell and pay `ammoCost`.
    fn flak(&mut self, p: &TypeProps, r: SpriteRef) {
        let has_ammo = match p.ammo.first() {
            None => true,
            Some(&a) => {
                let s = self.sprite(r);
                s.resources.iter().any(|(t, _)| *t == a)
                    && if p.min_ammo > -1 {
                        s.amount(a) > p.min_ammo
                    } else {
                        s.amount(a) > 0
                    }
            }
        };
        if let (true, Some(&st)) = (has_ammo, p.stype.first()) {
            let (x, y) = (self.sprite(r).x, self.sprite(r).y);
            if let Some(n) = self.add_sprite(st, x, y, false) {
                if let Some(&a) = p.ammo.first() {
                    let s = self.sprite_mut(r);
                    let v = s.amount(a).saturating_sub(p.ammo_cost);
                    s.set_amount(a, v);
                }
                self.sprite_mut(n).from_avatar = true;
            }
        }
    }
}
