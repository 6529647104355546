//! Read access to a running game: tick, score, winner, sprites and their categories, the
//! avatar and its actions, and the state key search controllers merge equal states by; and
//! re-seeding its random generator.

use std::sync::Arc;

use super::{GameState, Sprite, Winner};
use crate::gvgai::engine::rng::JavaRandom;
use crate::gvgai::engine::rules::{Action, Rules};
use crate::gvgai::vgdl::TypeId;

/// Observation category of a sprite (GVG-AI `Types.TYPE_*`; the numbers are GVG-AI's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    Avatar = 0,
    Resource = 1,
    Portal = 2,
    Npc = 3,
    Static = 4,
    FromAvatar = 5,
    Movable = 6,
}

impl GameState {
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// How many sprites the game has created, the level's included (killed ones too).
    pub fn sprites_created(&self) -> u32 {
        self.next_id
    }

    /// Ticks played so far (GVG-AI forward model `getGameTick()`).
    pub fn tick(&self) -> i32 {
        self.tick
    }

    pub fn score(&self) -> f64 {
        self.score
    }

    pub fn winner(&self) -> Winner {
        self.winner
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    pub fn block_size(&self) -> i32 {
        self.block
    }

    /// World size in pixels.
    pub fn world_size(&self) -> (i32, i32) {
        (self.width, self.height)
    }

    pub fn last_action(&self) -> Action {
        self.last_action
    }

    /// Re-seed the game's random generator (e.g. for independent rollouts from one copy).
    /// A seated state's opponent model draws anew too.
    pub fn reseed(&mut self, seed: i64) {
        self.rng = JavaRandom::new(seed);
        if let Some(s) = self.seat.as_mut() {
            s.reseed(seed);
        }
    }

    /// A sprite's cycles since its last move (GVG-AI `lastmove`), with the increments still
    /// owed to the sprites of an inert group counted.
    pub fn lastmove(&self, s: &Sprite) -> i32 {
        let lag = self.inert_lag.get(usize::from(s.ty)).copied().unwrap_or(0);
        s.lastmove.saturating_add(lag)
    }

    /// The live sprites of one type (not its subtypes).
    pub fn sprites_of(&self, t: TypeId) -> &[Sprite] {
        self.groups
            .get(usize::from(t))
            .map(|g| g.as_slice())
            .unwrap_or(&[])
    }

    /// Number of live, enabled sprites of `t` and its subtypes (what SpriteCounter counts).
    pub fn count(&self, t: TypeId) -> usize {
        self.rules
            .props(t)
            .subtypes
            .iter()
            .map(|&s| {
                self.groups[usize::from(s)]
                    .iter()
                    .filter(|sp| !sp.disabled)
                    .count()
            })
            .sum()
    }

    /// The avatar sprite, if there is one.
    pub fn avatar(&self) -> Option<&Sprite> {
        self.avatar_ref().map(|r| self.sprite(r))
    }

    /// The avatar's cell (x, y), if there is an avatar.
    pub fn avatar_cell(&self) -> Option<(i32, i32)> {
        self.avatar()
            .map(|a| (a.x.div_euclid(self.block), a.y.div_euclid(self.block)))
    }

    /// Actions the avatar accepts (GVG-AI order, without NIL).
    pub fn available_actions(&self) -> &[Action] {
        match self.avatar() {
            Some(a) => &self.rules.props(a.ty).actions,
            None => &[],
        }
    }

    /// The observation category of a sprite (GVG-AI `getSpriteCategory`).
    pub fn category(&self, s: &Sprite) -> Category {
        let p = self.rules.props(s.ty);
        if p.is_avatar {
            Category::Avatar
        } else if p.is_resource {
            Category::Resource
        } else if p.portal {
            Category::Portal
        } else if p.is_npc {
            Category::Npc
        } else if p.is_static {
            Category::Static
        } else if s.from_avatar {
            Category::FromAvatar
        } else {
            Category::Movable
        }
    }

    /// Every sprite, by type id then creation order.
    pub fn sprites(&self) -> impl Iterator<Item = &Sprite> {
        self.groups.iter().flat_map(|g| g.iter())
    }

    /// The cell (x, y) containing a sprite's top-left corner.
    pub fn cell_of(&self, s: &Sprite) -> (i32, i32) {
        (s.x.div_euclid(self.block), s.y.div_euclid(self.block))
    }

    /// Level size in cells.
    pub fn grid_size(&self) -> (i32, i32) {
        (self.width / self.block, self.height / self.block)
    }

    /// A hash of the game state except the tick, the score and the random generator: sprites
    /// (type, position, orientation, speed, resources, health, timers), timed effects and the
    /// game's end. Search controllers use it to merge equal states of deterministic games.
    pub fn key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for g in &self.groups {
            g.len().hash(&mut h);
            for s in g.iter() {
                (
                    s.ty, s.x, s.y, s.disabled, s.health, s.age, s.counter, s.ttl, s.oriented,
                )
                    .hash(&mut h);
                s.orientation.x.to_bits().hash(&mut h);
                s.orientation.y.to_bits().hash(&mut h);
                s.speed.to_bits().hash(&mut h);
                s.resources.hash(&mut h);
            }
        }
        for t in self.timers.in_order() {
            (t.at.saturating_sub(self.tick), t.effect).hash(&mut h);
        }
        self.npcs.hash(&mut h);
        (self.over, self.winner as u8).hash(&mut h);
        h.finish()
    }
}
