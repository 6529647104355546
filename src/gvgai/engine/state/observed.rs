//! A state rebuilt from what an observation of a remote game shows (the learning track).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use super::{BlockSize, GameState, POS_LIMIT};
use crate::gvgai::engine::EngineError;
use crate::gvgai::engine::rules::Rules;
use crate::gvgai::vgdl::{Dir, Level, TypeId};

/// One sprite of an observed state ([`GameState::from_observed`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObservedSprite {
    pub ty: TypeId,
    pub x: i32,
    pub y: i32,
}

/// What an observation of a remote game shows ([`GameState::from_observed`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observed {
    pub width: i32,
    pub height: i32,
    pub block: i32,
    pub tick: i32,
    pub score: f64,
    /// In creation order (the observation's `obsID`).
    pub sprites: Vec<ObservedSprite>,
    pub avatar_orientation: Option<Dir>,
    pub avatar_resources: Vec<(TypeId, i32)>,
    pub avatar_health: Option<i32>,
}

impl GameState {
    /// Rebuild a state from what an observation shows (the learning track's JSON): the world
    /// size and block size in pixels, every sprite's type and pixel position (in creation
    /// order), tick, score and the avatar's orientation, resources and health. Hidden state
    /// (cooldowns, NPC counters, Flicker ages, timers) starts fresh, so this is a model of
    /// the remote game, exact only where nothing hidden matters.
    pub fn from_observed(
        rules: Arc<Rules>,
        obs: &Observed,
        seed: i64,
    ) -> Result<GameState, EngineError> {
        let mut st = GameState::sprites_observed(rules, obs, seed)?;
        st.observe_avatar(obs);
        Ok(st)
    }

    /// The world, sprites, tick and score an observation shows, hidden state fresh; the
    /// avatar's observed fields are left to [`GameState::observe_avatar`].
    fn sprites_observed(
        rules: Arc<Rules>,
        obs: &Observed,
        seed: i64,
    ) -> Result<GameState, EngineError> {
        let block = obs.block.clamp(1, 1000);
        let (w, h) = (obs.width / block, obs.height / block);
        if w <= 0 || h <= 0 || (w as usize).saturating_mul(h as usize) > 1 << 20 {
            return Err(EngineError::Invalid {
                message: format!(
                    "observed world of {}x{} px with {block} px cells is not a level",
                    obs.width, obs.height
                ),
            });
        }
        let level = Level {
            width: w as usize,
            height: h as usize,
            cells: vec![Vec::new(); w as usize * h as usize],
        };
        let mut st = GameState::new(rules, &level, seed, BlockSize::Fixed(block as u32))?;
        let limit = POS_LIMIT / 4;
        for o in &obs.sprites {
            if usize::from(o.ty) >= st.rules.props.len() {
                return Err(EngineError::Invalid {
                    message: format!("observed sprite type {} is not in the game", o.ty),
                });
            }
            if o.x.abs() > limit || o.y.abs() > limit {
                return Err(EngineError::Invalid {
                    message: format!(
                        "observed sprite position ({}, {}) is out of range",
                        o.x, o.y
                    ),
                });
            }
            let Some(r) = st.add_sprite(o.ty, o.x, o.y, true) else {
                continue;
            };
            let cooldown = st.rules.props(o.ty).cooldown;
            let first_avatar = st.rules.props(o.ty).is_avatar && st.avatar.is_none();
            let s = st.sprite_mut(r);
            s.lastmove = cooldown;
            if first_avatar {
                let id = s.id;
                st.avatar = Some((r.ty, id));
            }
        }
        st.paths = None;
        st.build_paths(&level);
        st.tick = obs.tick.max(0);
        st.score = obs.score;
        Ok(st)
    }

    /// [`GameState::from_observed`] after a cycle the model `prev` mispredicted (in a
    /// stochastic game, most cycles): every sprite that `prev` has too, of the same type at
    /// the same position (matched in creation order), takes its hidden state from `prev`
    /// (cooldown phase, orientation, speed, counters, age, time to live, a non-avatar's health
    /// and resources), so only what the cycle changed starts fresh. What the observation shows
    /// of the avatar still wins. `prev` must be a state of the same rules.
    pub fn from_observed_after(
        rules: Arc<Rules>,
        obs: &Observed,
        seed: i64,
        prev: &GameState,
    ) -> Result<GameState, EngineError> {
        let mut st = GameState::sprites_observed(rules, obs, seed)?;
        if Arc::ptr_eq(&st.rules, &prev.rules) && st.block == prev.block {
            st.adopt_hidden(prev);
        }
        st.observe_avatar(obs);
        Ok(st)
    }

    /// Copies hidden sprite state from `prev` (see [`GameState::from_observed_after`]). Inert
    /// types have none worth carrying and stay shared.
    fn adopt_hidden(&mut self, prev: &GameState) {
        for t in 0..self.groups.len() {
            if self.groups[t].is_empty() || self.rules.props[t].inert {
                continue;
            }
            let old = prev.sprites_of(t as TypeId);
            // Where each of `prev`'s live sprites is, in creation order.
            let mut at: HashMap<(i32, i32), VecDeque<usize>> = HashMap::new();
            for (k, o) in old.iter().enumerate() {
                if !o.killed && !o.disabled {
                    at.entry((o.x, o.y)).or_default().push_back(k);
                }
            }
            let mut next = 0;
            for s in self.group_mut(t as TypeId).iter_mut() {
                let Some(queue) = at.get_mut(&(s.x, s.y)) else {
                    continue;
                };
                while queue.front().is_some_and(|&k| k < next) {
                    queue.pop_front();
                }
                let Some(k) = queue.pop_front() else {
                    continue;
                };
                let id = s.id;
                *s = old[k].clone();
                s.id = id;
                next = k + 1;
            }
        }
    }

    /// True if this state shows the same live sprites (type and position) and score as `obs`:
    /// a model that predicted the observation exactly.
    pub fn shows(&self, obs: &Observed) -> bool {
        if self.score != obs.score {
            return false;
        }
        let mut a: Vec<(TypeId, i32, i32)> = self
            .sprites()
            .filter(|s| !s.killed && !s.disabled)
            .map(|s| (s.ty, s.x, s.y))
            .collect();
        let mut b: Vec<(TypeId, i32, i32)> = obs.sprites.iter().map(|s| (s.ty, s.x, s.y)).collect();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    }

    /// The avatar's orientation, resources and health as the observation shows them.
    fn observe_avatar(&mut self, obs: &Observed) {
        let Some(r) = self.avatar_ref() else {
            return;
        };
        let s = self.sprite_mut(r);
        if let Some(d) = obs.avatar_orientation {
            if d != Dir::NONE {
                s.orientation = d;
            }
        }
        s.resources.clear();
        for &(res, v) in &obs.avatar_resources {
            s.set_amount(res, v);
        }
        if let Some(hp) = obs.avatar_health {
            s.health = hp;
        }
    }
}
