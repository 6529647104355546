//! Sprites and their per-type groups: resources of one sprite, copy-on-write groups, sprite
//! lookup by reference or id, and GVG-AI's `addSprite` / `killSprite`.

use std::sync::Arc;

use super::GameState;
use crate::gvgai::vgdl::{Dir, TypeId};

/// The gravity `waterPhysics` gives a sprite (GVG-AI `WaterPhysics`).
pub const WATER_GRAVITY: f64 = 0.2;

/// One sprite. Dead sprites stay in their group (flagged) until the end of the cycle.
#[derive(Debug, Clone)]
pub struct Sprite {
    pub ty: TypeId,
    pub id: u32,
    pub x: i32,
    pub y: i32,
    /// Position at the start of this cycle's update (GVG-AI `lastrect`).
    pub lx: i32,
    pub ly: i32,
    pub orientation: Dir,
    /// Whether the sprite moves along and takes orientations (GVG-AI `is_oriented`): its
    /// type's, or set by `transformToSingleton takeOrientation=True`.
    pub oriented: bool,
    /// Speed (type default; effects such as setSpeedForAll change it per sprite).
    pub speed: f64,
    /// Remaining lifetime (`timeToLive`), -1 for none.
    pub ttl: i32,
    /// Cycles since the last move (for sprites of inert types it may lag until their group is
    /// next written; the engine pays the difference before using it).
    pub lastmove: i32,
    pub killed: bool,
    pub disabled: bool,
    pub first_tick: bool,
    /// RandomNPC repeat counter, or SpawnPoint production count.
    pub counter: i32,
    pub prev_action: Dir,
    pub age: i32,
    pub start: i32,
    pub health: i32,
    pub max_health: i32,
    /// Resource type → amount, sorted by type.
    pub resources: Vec<(TypeId, i32)>,
    pub from_avatar: bool,
    /// Steered avatars: the heading in radians (GVG-AI `rotation`).
    pub rotation: f64,
    /// CarAvatar: driving backwards (its `facing` is 1).
    pub reversing: bool,
    /// Standing on solid ground (GVG-AI `on_ground`): no gravity while it holds.
    pub on_ground: bool,
    /// `waterPhysics` set its gravity to [`WATER_GRAVITY`] (else its type's).
    pub in_water: bool,
    /// A spawner's own types once `updateSpawnType` changed them (GVG-AI `itype`, or
    /// BomberRandomMissile's `itypesMissile`); `None`: its type's `stype` (`stypeMissile`).
    pub spawns: Option<Arc<[TypeId]>>,
}

impl Sprite {
    /// Its gravity: [`WATER_GRAVITY`] once `waterPhysics` touched it, else `type_gravity`.
    pub(crate) fn gravity(&self, type_gravity: f64) -> f64 {
        if self.in_water {
            WATER_GRAVITY
        } else {
            type_gravity
        }
    }

    pub fn amount(&self, res: TypeId) -> i32 {
        self.resources
            .iter()
            .find(|(t, _)| *t == res)
            .map(|(_, v)| *v)
            .unwrap_or(0)
    }

    pub(crate) fn set_amount(&mut self, res: TypeId, v: i32) {
        match self.resources.binary_search_by_key(&res, |(t, _)| *t) {
            Ok(i) => self.resources[i].1 = v,
            Err(i) => self.resources.insert(i, (res, v)),
        }
    }

    /// GVG-AI `modifyResource`: never below zero.
    pub(crate) fn modify(&mut self, res: TypeId, delta: i32) {
        let v = self.amount(res).saturating_add(delta).max(0);
        self.set_amount(res, v);
    }
}

/// The sprites of one type. Groups of inert types (walls, floors) are shared between copies
/// until written; the others are owned, so writing them costs no atomic operations.
#[derive(Debug, Clone)]
pub(crate) enum Group {
    Owned(Vec<Sprite>),
    Shared(Arc<Vec<Sprite>>),
}

impl std::ops::Deref for Group {
    type Target = Vec<Sprite>;
    fn deref(&self) -> &Vec<Sprite> {
        match self {
            Group::Owned(v) => v,
            Group::Shared(a) => a,
        }
    }
}

impl Group {
    pub(super) fn make_mut(&mut self) -> &mut Vec<Sprite> {
        match self {
            Group::Owned(v) => v,
            Group::Shared(a) => Arc::make_mut(a),
        }
    }
}

/// A sprite's place: its type group and index in it (valid within one cycle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpriteRef {
    pub ty: TypeId,
    pub idx: u32,
}

impl GameState {
    pub(crate) fn avatar_ref(&self) -> Option<SpriteRef> {
        self.ref_of(self.avatar?)
    }

    /// Where sprite `id` of type `ty` is now.
    pub(crate) fn ref_of(&self, (ty, id): (TypeId, u32)) -> Option<SpriteRef> {
        let idx = self.groups[usize::from(ty)]
            .iter()
            .position(|s| s.id == id)?;
        Some(SpriteRef {
            ty,
            idx: idx as u32,
        })
    }

    pub(crate) fn sprite(&self, r: SpriteRef) -> &Sprite {
        &self.groups[usize::from(r.ty)][r.idx as usize]
    }

    /// Write access to a group: unshares it and pays any owed `lastmove` increments.
    pub(crate) fn group_mut(&mut self, t: TypeId) -> &mut Vec<Sprite> {
        let lag = std::mem::take(&mut self.inert_lag[usize::from(t)]);
        let g = self.groups[usize::from(t)].make_mut();
        if lag > 0 {
            for s in g.iter_mut() {
                s.lastmove += lag;
            }
        }
        g
    }

    pub(crate) fn sprite_mut(&mut self, r: SpriteRef) -> &mut Sprite {
        &mut self.group_mut(r.ty)[r.idx as usize]
    }

    /// Sprites of `t` and subtypes, including dead/disabled ones (GVG-AI `getNumSprites`).
    pub(super) fn count_all(&self, t: TypeId) -> usize {
        self.rules
            .props(t)
            .subtypes
            .iter()
            .map(|&s| self.groups[usize::from(s)].len())
            .sum()
    }

    /// GVG-AI `addSprite`: honours singletons unless `force`.
    pub(crate) fn add_sprite(
        &mut self,
        t: TypeId,
        x: i32,
        y: i32,
        force: bool,
    ) -> Option<SpriteRef> {
        if self.num_sprites > self.rules.max_sprites {
            return None;
        }
        let rules = Arc::clone(&self.rules);
        let p = rules.props(t);
        p.class?;
        if !force {
            for &it in &p.itypes {
                if rules.props(it).singleton && self.count_all(it) > 0 {
                    return None;
                }
            }
        }
        let sprite = Sprite {
            ty: t,
            id: self.next_id,
            x,
            y,
            lx: x,
            ly: y,
            orientation: p.orientation,
            oriented: p.is_oriented,
            speed: p.speed,
            ttl: p.time_to_live,
            lastmove: 0,
            killed: false,
            disabled: false,
            first_tick: true,
            counter: 0,
            prev_action: Dir::NONE,
            age: 0,
            start: -1,
            health: p.health,
            max_health: p.max_health,
            resources: Vec::new(),
            from_avatar: false,
            rotation: 0.0,
            reversing: false,
            on_ground: false,
            in_water: false,
            spawns: None,
        };
        self.next_id += 1;
        self.num_sprites += 1;
        let g = self.group_mut(t);
        g.push(sprite);
        Some(SpriteRef {
            ty: t,
            idx: (g.len() - 1) as u32,
        })
    }

    /// GVG-AI `killSprite`: an avatar that is not being transformed is only disabled.
    pub(crate) fn kill(&mut self, r: SpriteRef, transformed: bool) {
        let is_avatar = self.rules.props(r.ty).is_avatar;
        let s = self.sprite_mut(r);
        if is_avatar && !transformed {
            s.disabled = true;
        } else if !s.killed {
            s.killed = true;
            self.kill_list.push(r);
        }
    }

    pub(super) fn find_sprite(&self, t: TypeId, id: u32) -> Option<&Sprite> {
        self.groups[usize::from(t)].iter().find(|s| s.id == id)
    }
}
