//! A state rebuilt from what an observation of a remote game shows (the learning track).

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
                if let Some(d) = obs.avatar_orientation {
                    if d != Dir::NONE {
                        s.orientation = d;
                    }
                }
                for &(res, v) in &obs.avatar_resources {
                    s.set_amount(res, v);
                }
                if let Some(hp) = obs.avatar_health {
                    s.health = hp;
                }
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
}
