//! The effects of the InteractionSet, applied to the first sprite of a collision (and for some,
//! to the second). Semantics follow GVG-AI's `ontology/effects`.

use super::rules::Rules;
use super::state::{GameState, Sprite, SpriteRef, Timer};
use crate::gvgai::vgdl::{Dir, EffectKind, SpeedMode, TypeId};

/// What an execution changed besides the game: GVG-AI keeps `applyScore` on the effect
/// object (so it persists), `subtractHealthPoints` swaps its score when it kills, and
/// `transformIfCount` counts `counter` or `counterElse` by the branch it took.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct EffectOutcome {
    pub apply_score: Option<bool>,
    pub score_override: Option<i32>,
    /// Whether `counter` and `counterElse` count this time (else the effect's `count=` and
    /// `countElse=`).
    pub counted: Option<(bool, bool)>,
}

impl EffectOutcome {
    fn apply(a: bool) -> Self {
        EffectOutcome {
            apply_score: Some(a),
            ..EffectOutcome::default()
        }
    }
}

impl GameState {
    fn last_direction(&self, r: SpriteRef) -> Dir {
        let s = self.sprite(r);
        Dir {
            x: f64::from(s.x - s.lx),
            y: f64::from(s.y - s.ly),
        }
    }

    /// GVG-AI `TransformTo.transformTo`.
    fn transform_into(
        &mut self,
        new: Option<SpriteRef>,
        s1: SpriteRef,
        s2: Option<SpriteRef>,
        kill_second: bool,
        force_orientation: bool,
        rules: &Rules,
    ) {
        let Some(n) = new else { return };
        let old = self.sprite(s1).clone();
        {
            let ns = self.sprite_mut(n);
            if force_orientation || (ns.oriented && old.oriented && ns.orientation.is_none()) {
                ns.orientation = old.orientation;
            }
        }
        let transformed = self.inherit(rules, n, s1.ty, &old);
        self.sprite_mut(n).health = old.health;
        self.kill(s1, transformed);
        if let (true, Some(s2)) = (kill_second, s2) {
            self.kill(s2, true);
        }
    }

    /// TransformToSingleton `setSpriteFields`.
    fn singleton_fields(&mut self, n: SpriteRef, old: SpriteRef, rules: &Rules) {
        let o = self.sprite(old).clone();
        {
            let ns = self.sprite_mut(n);
            if ns.oriented && o.oriented {
                ns.orientation = o.orientation;
            }
        }
        let transformed = self.inherit(rules, n, old.ty, &o);
        self.kill(old, transformed);
    }

    /// What a transformed sprite `n` takes over from `old` (of type `old_ty`): its last
    /// position, its resources and, from an avatar, the avatar role. False when an avatar
    /// became a non-avatar (the old one then dies as killed, not transformed).
    fn inherit(&mut self, rules: &Rules, n: SpriteRef, old_ty: TypeId, old: &Sprite) -> bool {
        let ns = self.sprite_mut(n);
        ns.lx = old.lx;
        ns.ly = old.ly;
        for &(res, v) in &old.resources {
            ns.modify(res, v);
        }
        if !rules.props(old_ty).is_avatar {
            return true;
        }
        if !rules.props(n.ty).is_avatar {
            return false;
        }
        let id = self.sprite(n).id;
        let player = self.player_of_avatar(old.id);
        self.set_avatar_of(player, n.ty, id);
        true
    }

    /// StepBack with `pixelPerfect`: stop flush against `s2` on the side it came from.
    pub(crate) fn pixel_perfect(&self, s1: SpriteRef, s2: SpriteRef) -> (i32, i32) {
        let (a, b) = (self.rect(s1), self.rect(s2));
        let s = self.sprite(s1);
        let v = Dir {
            x: f64::from(a.x - s.lx),
            y: f64::from(a.y - s.ly),
        }
        .normalised();
        if v == Dir::DOWN {
            (a.x, a.y - ((a.y + a.h) - b.y))
        } else if v == Dir::RIGHT {
            (a.x - ((a.x + a.w) - b.x), a.y)
        } else if v == Dir::UP {
            (a.x, b.y + b.h)
        } else if v == Dir::LEFT {
            (b.x + b.w, a.y)
        } else {
            (s.lx, s.ly)
        }
    }

    /// Apply one effect. `e` is the top-level effect index (`usize::MAX` for timer delegates).
    pub(crate) fn run_effect(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        e: usize,
        s1: Option<SpriteRef>,
        s2: Option<SpriteRef>,
    ) -> EffectOutcome {
        if let Some(outcome) = self.type_wide_effect(rules, kind, s1, s2) {
            return outcome;
        }
        let Some(s1) = s1 else {
            return EffectOutcome::default();
        };
        let unary = self
            .unary_motion(rules, kind, s1, s2)
            .or_else(|| self.unary_kill(rules, kind, s1, s2))
            .or_else(|| self.unary_spawn(rules, kind, e, s1, s2))
            .or_else(|| self.unary_health(rules, kind, s1, s2))
            .or_else(|| self.unary_registration(kind, e, s1));
        if let Some(outcome) = unary {
            return outcome;
        }
        // Effects that need the second sprite.
        let Some(s2) = s2 else {
            return EffectOutcome::default();
        };
        self.binary_motion(rules, kind, e, s1, s2)
            .or_else(|| self.continuous_effect(kind, s1, s2))
            .or_else(|| self.binary_kill(kind, s1, s2))
            .or_else(|| self.binary_spawn(rules, kind, e, s2))
            .or_else(|| self.binary_transform(rules, kind, s1, s2))
            .or_else(|| self.binary_resource(rules, kind, s1, s2))
            .unwrap_or_default()
    }

    /// Effects that can act without a first sprite: on every sprite of a type, or
    /// (subtractHealthPoints with `stype`) on the first sprite of a type. `None` for others.
    fn type_wide_effect(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        s1: Option<SpriteRef>,
        s2: Option<SpriteRef>,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        let none = EffectOutcome::default();
        match kind {
            E::TransformToAll {
                stype,
                stype_to,
                kill_second,
                force_orientation,
            } => {
                let n = self.groups[usize::from(*stype)].len();
                for i in 0..n {
                    let s = SpriteRef {
                        ty: *stype,
                        idx: i as u32,
                    };
                    let (x, y) = (self.sprite(s).x, self.sprite(s).y);
                    let new = self.add_sprite(*stype_to, x, y, true);
                    self.transform_into(new, s, s2, *kill_second, *force_orientation, rules);
                }
            }
            E::UpdateSpawnType { stype, spawn_point } => {
                if let Some(s2) = s2 {
                    self.update_spawn_type(rules, *spawn_point, s2.ty, *stype);
                }
            }
            E::SpeedForAll { stype, value, mode } => {
                for &st in &rules.props(*stype).subtypes {
                    for sp in self.group_mut(st).iter_mut() {
                        sp.speed = match mode {
                            SpeedMode::Set => *value,
                            SpeedMode::Increase => sp.speed + value,
                            SpeedMode::Decrease => (sp.speed - value).max(0.0),
                        };
                    }
                }
            }
            E::KillAll { stype } => {
                for i in 0..self.groups[usize::from(*stype)].len() {
                    self.kill(
                        SpriteRef {
                            ty: *stype,
                            idx: i as u32,
                        },
                        false,
                    );
                }
            }
            E::SubtractHealthPoints {
                value,
                limit,
                stype,
                score_if_killed,
            } => {
                let mut target = s1;
                if let Some(t) = stype {
                    for &st in &rules.props(*t).subtypes {
                        if !self.groups[usize::from(st)].is_empty() {
                            target = Some(SpriteRef { ty: st, idx: 0 });
                        }
                    }
                }
                let Some(s) = target else { return Some(none) };
                if stype.is_none() && self.npc_blocks(s, s2) {
                    return Some(none);
                }
                let h = &mut self.sprite_mut(s).health;
                *h = h.saturating_sub(*value);
                if self.sprite(s).health <= *limit {
                    self.kill(s, false);
                    return Some(EffectOutcome {
                        score_override: Some(*score_if_killed),
                        ..EffectOutcome::default()
                    });
                }
            }
            _ => return None,
        }
        Some(none)
    }

    /// Effects that move, turn or slow the first sprite (or undo every move).
    fn unary_motion(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        s1: SpriteRef,
        s2: Option<SpriteRef>,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::StepBack { pixel_perfect } => {
                let (x, y) = match (pixel_perfect, s2) {
                    (true, Some(s2)) => self.pixel_perfect(s1, s2),
                    _ => (self.sprite(s1).lx, self.sprite(s1).ly),
                };
                let s = self.sprite_mut(s1);
                s.x = x;
                s.y = y;
            }
            E::UndoAll { not_types } => {
                for &t in &rules.desc.sprite_order {
                    if not_types.contains(&t) {
                        continue;
                    }
                    if self.groups[usize::from(t)]
                        .iter()
                        .any(|s| s.x != s.lx || s.y != s.ly)
                    {
                        for s in self.group_mut(t).iter_mut() {
                            s.x = s.lx;
                            s.y = s.ly;
                        }
                    }
                }
            }
            E::ReverseDirection => {
                let s = self.sprite_mut(s1);
                s.orientation = s.orientation.reversed();
            }
            E::TurnAround => {
                let p = rules.props(s1.ty);
                {
                    let s = self.sprite_mut(s1);
                    s.x = s.lx;
                    s.y = s.ly;
                    s.lastmove = p.cooldown;
                }
                self.active_movement(s1, Dir::DOWN, self.sprite(s1).speed);
                self.sprite_mut(s1).lastmove = p.cooldown;
                self.active_movement(s1, Dir::DOWN, self.sprite(s1).speed);
                let s = self.sprite_mut(s1);
                s.orientation = s.orientation.reversed();
            }
            E::WrapAround { offset } => self.wrap_around(s1, *offset),
            E::FlipDirection => {
                let d = Dir::BASE[self.rng.next_int_bounded(4) as usize];
                self.sprite_mut(s1).orientation = d;
            }
            E::HalfSpeed => {
                self.sprite_mut(s1).speed *= 0.5;
            }
            E::WaterPhysics => {
                self.sprite_mut(s1).in_water = true;
            }
            _ => return None,
        }
        Some(EffectOutcome::default())
    }

    /// WrapAround: reappear at the opposite edge, `offset` blocks in.
    fn wrap_around(&mut self, s1: SpriteRef, offset: f64) {
        let (w, sw, sh) = (
            f64::from(self.block),
            f64::from(self.width),
            f64::from(self.height),
        );
        let s = self.sprite_mut(s1);
        if s.orientation.x > 0.0 {
            s.x = (offset * w) as i32;
        } else if s.orientation.x < 0.0 {
            s.x = (sw - w * (1.0 + offset)) as i32;
        } else if s.orientation.y > 0.0 {
            s.y = (offset * w) as i32;
        } else if s.orientation.y < 0.0 {
            s.y = (sh - w * (1.0 + offset)) as i32;
        }
        s.lastmove = 0;
    }

    /// Effects that kill the first sprite, some depending on what it holds, and the score
    /// effects that judge it.
    fn unary_kill(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        s1: SpriteRef,
        s2: Option<SpriteRef>,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        let killed = match kind {
            E::KillSprite => {
                self.kill(s1, false);
                return Some(EffectOutcome::default());
            }
            E::RemoveScore { stype, kill_second } if !self.others.is_empty() => {
                if self.remove_player_scores(s1, *stype) && *kill_second {
                    if let Some(s2) = s2 {
                        self.kill(s2, true);
                    }
                }
                return Some(EffectOutcome::default());
            }
            E::RemoveScore { stype, kill_second } => {
                let avatar = match stype {
                    None => rules.props(s1.ty).is_avatar,
                    Some(t) => {
                        rules.props(*t).is_avatar && !self.groups[usize::from(*t)].is_empty()
                    }
                };
                if avatar {
                    self.score = 0.0;
                    if let (true, Some(s2)) = (*kill_second, s2) {
                        self.kill(s2, true);
                    }
                }
                return Some(EffectOutcome::default());
            }
            E::KillIfScoreNegative => {
                // GVG-AI's score is the avatar's, already changed by the effects before.
                if self.score < 0.0 {
                    self.kill(s1, false);
                }
                return Some(EffectOutcome::default());
            }
            E::KillIfHasMore { resource, limit } => self.sprite(s1).amount(*resource) >= *limit,
            E::KillIfHasLess { resource, limit } => self.sprite(s1).amount(*resource) <= *limit,
            _ => return None,
        };
        if killed {
            self.kill(s1, false);
        }
        Some(EffectOutcome::apply(killed))
    }

    /// Effects that create sprites on the first one, or replace it by another type.
    fn unary_spawn(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        e: usize,
        s1: SpriteRef,
        s2: Option<SpriteRef>,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::TransformTo {
                stype,
                kill_second,
                force_orientation,
            } => {
                if !self.sprite(s1).disabled {
                    let (x, y) = (self.sprite(s1).x, self.sprite(s1).y);
                    let new = self.add_sprite(*stype, x, y, false);
                    self.transform_into(new, s1, s2, *kill_second, *force_orientation, rules);
                }
            }
            E::CloneSprite => {
                let (t, x, y) = (s1.ty, self.sprite(s1).x, self.sprite(s1).y);
                self.add_sprite(t, x, y, false);
            }
            E::Spawn { stype } => {
                if self.rng.next_double() < effect_prob(rules, e) {
                    let (x, y) = (self.sprite(s1).x, self.sprite(s1).y);
                    self.add_sprite(*stype, x, y, false);
                }
            }
            E::SpawnIfHasMore {
                resource,
                limit,
                stype,
                spend,
            } => {
                if self.rng.next_double() >= effect_prob(rules, e) {
                    return Some(EffectOutcome::apply(false));
                }
                if self.sprite(s1).amount(*resource) >= *limit {
                    let (x, y) = (self.sprite(s1).x, self.sprite(s1).y);
                    self.add_sprite(*stype, x, y, false);
                    self.sprite_mut(s1).modify(*resource, -spend);
                    return Some(EffectOutcome::apply(true));
                }
                return Some(EffectOutcome::apply(false));
            }
            E::SpawnIfCounterSubTypes {
                stype,
                else_type,
                count_type,
                limit,
                subtypes,
            } => {
                // GVG-AI halves the count of subtypes with sprites before comparing.
                let met = self.count(*count_type) as i64 == i64::from(*limit)
                    && self.subtypes_with_sprites(rules, *count_type) / 2 == i64::from(*subtypes);
                let (x, y) = (self.sprite(s1).x, self.sprite(s1).y);
                self.add_sprite(if met { *stype } else { *else_type }, x, y, false);
                return Some(EffectOutcome::apply(met));
            }
            E::SpawnIfHasLess {
                resource,
                limit,
                stype,
            } => {
                if self.rng.next_double() >= effect_prob(rules, e) {
                    return Some(EffectOutcome::apply(false));
                }
                if self.sprite(s1).amount(*resource) <= *limit {
                    let (x, y) = (self.sprite(s1).x, self.sprite(s1).y);
                    self.add_sprite(*stype, x, y, false);
                    return Some(EffectOutcome::apply(true));
                }
                return Some(EffectOutcome::apply(false));
            }
            E::TransformToRandomChild {
                stype,
                kill_second,
                force_orientation,
            } => {
                let children: Vec<TypeId> = rules
                    .props(*stype)
                    .subtypes
                    .iter()
                    .copied()
                    .filter(|t| t != stype)
                    .collect();
                if !children.is_empty() {
                    let k = self.rng.next_int_bounded(children.len() as i32) as usize;
                    let (x, y) = (self.sprite(s1).x, self.sprite(s1).y);
                    let new = self.add_sprite(children[k], x, y, false);
                    self.transform_into(new, s1, s2, *kill_second, *force_orientation, rules);
                }
            }
            _ => return None,
        }
        Some(EffectOutcome::default())
    }

    /// Effects that add health points to the first sprite, up to its type's limit.
    fn unary_health(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        s1: SpriteRef,
        s2: Option<SpriteRef>,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::AddHealthPointsToMax { value, kill_second } => {
                let limit = rules.props(s1.ty).limit_health;
                let s = self.sprite_mut(s1);
                if s.health.saturating_add(*value) < limit {
                    s.health = s.health.saturating_add(*value);
                } else {
                    s.health = limit;
                }
                if s.health > s.max_health {
                    s.max_health = s.health;
                }
                if let (true, Some(s2)) = (kill_second, s2) {
                    self.kill(s2, false);
                }
                Some(EffectOutcome::apply(true))
            }
            E::AddHealthPoints { value, kill_second } => {
                let limit = rules.props(s1.ty).limit_health;
                let s = self.sprite_mut(s1);
                if s.health.saturating_add(*value) < limit {
                    s.health = s.health.saturating_add(*value);
                    if s.health > s.max_health {
                        s.max_health = s.health;
                    }
                    if let (true, Some(s2)) = (kill_second, s2) {
                        self.kill(s2, false);
                    }
                    return Some(EffectOutcome::apply(true));
                }
                Some(EffectOutcome::apply(false))
            }
            _ => None,
        }
    }

    /// Effects that register something with the game: a shield of the first sprite's type
    /// (shieldFrom) or a timer for a top-level effect (addTimer).
    fn unary_registration(
        &mut self,
        kind: &EffectKind,
        e: usize,
        s1: SpriteRef,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::ShieldFrom { stype, ftype } => {
                self.shields.push((s1.ty, *stype, ftype.clone()));
            }
            E::AddTimer {
                timer, repeating, ..
            } => {
                if e != usize::MAX {
                    let at = self.tick.saturating_add(*timer);
                    self.timers.push(Timer {
                        at,
                        effect: e,
                        native: None,
                        timer: *timer,
                        repeating: *repeating,
                    });
                }
            }
            _ => return None,
        }
        Some(EffectOutcome::default())
    }

    /// Effects that move or turn the first sprite after the second.
    fn binary_motion(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        e: usize,
        s1: SpriteRef,
        s2: SpriteRef,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::BounceForward => {
                let ld = self.last_direction(s2);
                let mut dir = ld.normalised();
                let o = self.sprite(s2).orientation;
                if ld.x * o.x < 0.0 {
                    dir.x = -dir.x;
                }
                if ld.y * o.y < 0.0 {
                    dir.y = -dir.y;
                }
                self.active_movement(s1, dir, self.sprite(s2).speed);
                self.sprite_mut(s1).orientation = dir;
            }
            E::Align { orient } => {
                let (x, y, o) = {
                    let t = self.sprite(s2);
                    (t.x, t.y, t.orientation)
                };
                let s = self.sprite_mut(s1);
                if *orient {
                    s.orientation = o;
                }
                s.x = x;
                s.y = y;
            }
            E::TeleportToExit => self.teleport_to_exit(rules, s1, s2),
            E::PullWithIt { pixel_perfect } => self.pull_with_it(e, s1, s2, *pixel_perfect),
            E::AttractGaze { align } if self.sprite(s1).oriented && self.sprite(s2).oriented => {
                if self.rng.next_double() < effect_prob(rules, e) {
                    let b = self.sprite(s2).clone();
                    let s = self.sprite_mut(s1);
                    s.orientation = b.orientation;
                    if *align {
                        if s.orientation == Dir::LEFT || s.orientation == Dir::RIGHT {
                            s.y = b.y;
                        } else {
                            s.x = b.x;
                        }
                    }
                }
            }
            _ => return None,
        }
        Some(EffectOutcome::default())
    }

    /// TeleportToExit: move to a random sprite of the portal's `stype`, or die if there is
    /// none. Only portals and the NPC classes that carry an `stype` have an exit.
    fn teleport_to_exit(&mut self, rules: &Rules, s1: SpriteRef, s2: SpriteRef) {
        let p2 = rules.props(s2.ty);
        let has_itype = matches!(
            p2.class,
            Some(
                crate::gvgai::vgdl::SpriteClass::Portal
                    | crate::gvgai::vgdl::SpriteClass::SpawnPoint
                    | crate::gvgai::vgdl::SpriteClass::Bomber
                    | crate::gvgai::vgdl::SpriteClass::Chaser
                    | crate::gvgai::vgdl::SpriteClass::Fleeing
                    | crate::gvgai::vgdl::SpriteClass::PathChaser
                    | crate::gvgai::vgdl::SpriteClass::LOSChaser
                    | crate::gvgai::vgdl::SpriteClass::Spreader
            )
        );
        let Some(&dest) = p2.stype.first().filter(|_| has_itype) else {
            return;
        };
        let n = self.groups[usize::from(dest)].len();
        if n > 0 {
            let k = self.rng.next_int_bounded(n as i32) as usize;
            let d = self.groups[usize::from(dest)][k].clone();
            let s = self.sprite_mut(s1);
            s.x = d.x;
            s.y = d.y;
            s.lastmove = 0;
            if d.oriented {
                s.orientation = d.orientation;
            }
        } else {
            self.kill(s1, false);
        }
    }

    /// PullWithIt: the first sprite follows the second's last move, once per effect and tick.
    fn pull_with_it(&mut self, e: usize, s1: SpriteRef, s2: SpriteRef, pixel_perfect: bool) {
        let id = self.sprite(s1).id;
        if self.pulled.contains(&(e, id)) {
            return;
        }
        self.pulled.push((e, id));
        let (lx, ly) = (self.sprite(s1).lx, self.sprite(s1).ly);
        let v = self.last_direction(s2).normalised();
        let px = (self.sprite(s2).speed * f64::from(self.block)) as i32;
        self.update_pos(s1, v, px);
        let (x2, y2) = (self.sprite(s2).x, self.sprite(s2).y);
        let s = self.sprite_mut(s1);
        s.lx = lx;
        s.ly = ly;
        if pixel_perfect {
            s.x = x2;
            s.y = y2;
        }
    }

    /// Effects that kill the first sprite (or both) depending on the second.
    fn binary_kill(
        &mut self,
        kind: &EffectKind,
        s1: SpriteRef,
        s2: SpriteRef,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::KillBoth => {
                self.kill(s1, false);
                self.kill(s2, false);
                Some(EffectOutcome::default())
            }
            E::KillIfOtherHasMore {
                resource,
                limit,
                subtract,
            } => {
                if self.sprite(s2).amount(*resource) >= *limit {
                    self.kill(s1, false);
                    if *subtract {
                        self.sprite_mut(s2).modify(*resource, -limit);
                    }
                    return Some(EffectOutcome::apply(true));
                }
                Some(EffectOutcome::apply(false))
            }
            E::KillIfFrontal | E::KillIfNotFrontal => {
                let a = self.last_direction(s1).normalised();
                let b = self.last_direction(s2).normalised();
                let sum = Dir {
                    x: a.x + b.x,
                    y: a.y + b.y,
                };
                let frontal = sum.is_none();
                let hit = if matches!(kind, E::KillIfFrontal) {
                    frontal
                } else {
                    !frontal
                };
                if a.is_none() || hit {
                    self.kill(s1, false);
                    return Some(EffectOutcome::apply(true));
                }
                Some(EffectOutcome::apply(false))
            }
            E::KillIfAlive => {
                if !self.sprite(s2).killed {
                    self.kill(s1, false);
                }
                Some(EffectOutcome::default())
            }
            E::KillIfFromAbove => {
                let (a, b) = (self.sprite(s1), self.sprite(s2));
                let other_higher = a.ly > b.ly + self.block / 2;
                let going_down = b.y > b.ly;
                if other_higher && going_down {
                    self.kill(s1, false);
                    return Some(EffectOutcome::apply(true));
                }
                Some(EffectOutcome::apply(false))
            }
            _ => None,
        }
    }

    /// Effects that create a sprite behind or next to the second sprite.
    fn binary_spawn(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        e: usize,
        s2: SpriteRef,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::SpawnBehind { stype } => {
                if self.rng.next_double() < effect_prob(rules, e) {
                    let (x, y, lx, ly) = {
                        let t = self.sprite(s2);
                        (t.x, t.y, t.lx, t.ly)
                    };
                    let w = self.block;
                    let overlap = lx < x + w && x < lx + w && ly < y + w && y < ly + w;
                    if !overlap {
                        self.add_sprite(*stype, lx, ly, false);
                    }
                }
            }
            E::SpawnNextTo {
                stype,
                dir,
                step_back,
            } => {
                if self.rng.next_double() < effect_prob(rules, e) {
                    let (x, y, lx, ly) = {
                        let t = self.sprite(s2);
                        (t.x, t.y, t.lx, t.ly)
                    };
                    let w = self.block;
                    let pos = if *step_back {
                        let overlap = lx < x + w && x < lx + w && ly < y + w && y < ly + w;
                        (!overlap).then_some((lx, ly))
                    } else {
                        Some((x, y))
                    };
                    if let Some((px, py)) = pos {
                        let nx = px + (dir.x as i32) * w;
                        let ny = py + (dir.y as i32) * w;
                        self.add_sprite(*stype, nx, ny, false);
                    }
                }
            }
            _ => return None,
        }
        Some(EffectOutcome::default())
    }

    /// Effects that replace sprites by another type, depending on a count or a singleton.
    fn binary_transform(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        s1: SpriteRef,
        s2: SpriteRef,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::TransformIfCount {
                stype,
                count_type,
                geq,
                leq,
                else_type,
                kill_second,
                force_orientation,
            } => {
                let n = rules
                    .props(*count_type)
                    .subtypes
                    .iter()
                    .map(|&t| self.groups[usize::from(t)].len())
                    .sum::<usize>() as i64;
                let (x, y) = (self.sprite(s1).x, self.sprite(s1).y);
                if n <= i64::from(*leq) && n >= i64::from(*geq) {
                    let new = self.add_sprite(*stype, x, y, true);
                    self.transform_into(new, s1, Some(s2), *kill_second, *force_orientation, rules);
                    return Some(EffectOutcome {
                        counted: Some((true, false)),
                        ..EffectOutcome::apply(true)
                    });
                }
                let took_else = else_type.is_some();
                if let Some(t) = else_type {
                    let new = self.add_sprite(*t, x, y, true);
                    self.transform_into(new, s1, Some(s2), *kill_second, *force_orientation, rules);
                }
                Some(EffectOutcome {
                    counted: Some((false, took_else)),
                    ..EffectOutcome::apply(false)
                })
            }
            E::TransformToSingleton {
                stype,
                stype_other,
                take_orientation,
            } => {
                for i in 0..self.groups[usize::from(*stype)].len() {
                    let old = SpriteRef {
                        ty: *stype,
                        idx: i as u32,
                    };
                    let (x, y) = (self.sprite(old).x, self.sprite(old).y);
                    if let Some(n) = self.add_sprite(*stype_other, x, y, false) {
                        self.singleton_fields(n, old, rules);
                    }
                }
                let (x, y) = (self.sprite(s1).x, self.sprite(s1).y);
                if let Some(n) = self.add_sprite(*stype, x, y, false) {
                    self.singleton_fields(n, s1, rules);
                    if *take_orientation {
                        let o = self.sprite(s2).orientation.reversed();
                        let ns = self.sprite_mut(n);
                        ns.oriented = true;
                        ns.orientation = o;
                    }
                }
                Some(EffectOutcome::default())
            }
            _ => None,
        }
    }

    /// Effects that move resources between the colliding sprites.
    fn binary_resource(
        &mut self,
        rules: &Rules,
        kind: &EffectKind,
        s1: SpriteRef,
        s2: SpriteRef,
    ) -> Option<EffectOutcome> {
        use EffectKind as E;
        match kind {
            E::CollectResourceIfHeld {
                held,
                value,
                kill_resource,
            } if rules.props(s1.ty).is_resource => {
                if self.sprite(s2).amount(*held) < *value {
                    return Some(EffectOutcome::apply(false));
                }
                let rtype = s1.ty;
                let limit = rules.resource_limit[usize::from(rtype)];
                let rvalue = rules.props(rtype).value;
                let collected = self.sprite(s2).amount(rtype) + rvalue <= limit;
                if collected {
                    self.sprite_mut(s2).modify(rtype, rvalue);
                }
                if *kill_resource {
                    self.kill(s1, false);
                }
                Some(EffectOutcome::apply(collected))
            }
            E::CollectResource { kill_resource } if rules.props(s1.ty).is_resource => {
                let rtype: TypeId = s1.ty;
                let limit = rules.resource_limit[usize::from(rtype)];
                let value = rules.props(s1.ty).value;
                let num = self.sprite(s2).amount(rtype);
                if num < limit {
                    let topup = value.min(limit - num);
                    self.sprite_mut(s2).modify(rtype, topup);
                    if *kill_resource {
                        self.kill(s1, true);
                    }
                    return Some(EffectOutcome::apply(true));
                }
                Some(EffectOutcome::apply(false))
            }
            E::ChangeResource {
                resource,
                value,
                kill_resource,
            } => {
                let limit = rules.resource_limit[usize::from(*resource)];
                let num = self.sprite(s1).amount(*resource);
                if num.saturating_add(*value) <= limit {
                    self.sprite_mut(s1).modify(*resource, *value);
                    if *kill_resource {
                        self.kill(s2, true);
                    }
                    return Some(EffectOutcome::apply(true));
                }
                Some(EffectOutcome::apply(false))
            }
            _ => None,
        }
    }
}

/// The probability of top-level effect `e`; timer delegates (`usize::MAX`) always apply.
fn effect_prob(rules: &Rules, e: usize) -> f64 {
    if e == usize::MAX {
        1.0
    } else {
        rules.effects[e].prob
    }
}
