//! The game state and one game cycle: avatar first, then the other sprites in reverse sprite
//! order, then events (timers, EOS, pairwise collisions), removal of killed sprites,
//! terminations and the 2000-tick limit — the order of GVG-AI's `Game`/`ForwardModel`.
//!
//! All sprites of a game share one size (the block size); positions are pixels.
//!
//! This module holds [`GameState`] and its construction from a level. Its parts: `sprite`
//! (sprites, per-type groups, creation and killing), `view` (read access and the state key),
//! `observed` (a state rebuilt from an observation), `physics` (grid movement), `continuous`
//! (continuous physics), `behaviour` and `chase` (updates of the other sprites), `avatar` (the
//! avatar's update), `cycle` (`advance`, removal of killed sprites, terminations), `players` (the avatars, scores and results
//! of multi-player games), `events`
//! (timers, end-of-screen and pairwise effects) and `consistency` (checks of the incremental
//! bookkeeping).

mod avatar;
mod behaviour;
mod chase;
mod consistency;
mod continuous;
mod cycle;
mod events;
mod observed;
mod physics;
mod players;
mod sprite;
mod steered;
mod view;
mod walker;

use std::sync::Arc;

use super::EngineError;
use super::path::PathTable;
use super::rng::JavaRandom;
use super::rules::{Action, Rules};
use crate::gvgai::vgdl::{Level, TypeId};

pub(crate) use chase::ChaseMemory;
pub use chase::MAX_PATH_CELLS;
pub(crate) use events::{Timer, Timers};
pub use observed::{Observed, ObservedSprite};
pub(crate) use physics::Movement;
pub use players::Opponent;
pub(crate) use sprite::Group;
pub use sprite::{Sprite, SpriteRef};
pub use view::Category;

/// GVG-AI `MAX_TIMESTEPS`: the game is lost at this tick unless already won.
pub const MAX_TICKS: i32 = 2000;
/// GVG-AI `MAX_SPRITES` for `BasicGame`.
pub const MAX_SPRITES: usize = 10_000;
/// Positions stay within ±2^24 pixels.
const POS_LIMIT: i32 = 1 << 24;
/// GVG-AI `MAX_WINDOW_SIZE`, used for the default block size.
const MAX_WINDOW_SIZE: f64 = 800.0;

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    NoWinner,
    PlayerWins,
    PlayerLoses,
}

/// How large a cell is in pixels. Movement of `speed < 1` sprites depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlockSize {
    /// GVG-AI's default: the game's `square_size`, else `max(2, 800 / max(width, height))`.
    #[default]
    Standard,
    /// The learning track forces 10 px.
    Learning,
    Fixed(u32),
}

/// A running game. `Clone` is the forward model's copy.
#[derive(Debug, Clone)]
pub struct GameState {
    pub(crate) rules: Arc<Rules>,
    /// Sprites per type, in creation order. Groups are shared between copies until written
    /// (`group_mut`), so copying a state does not copy walls and floors.
    pub(crate) groups: Vec<Group>,
    /// Per type: cycles whose `lastmove` increment is still owed to every sprite of an inert
    /// group (paid on the next write, so untouched inert groups stay shared).
    pub(crate) inert_lag: Vec<i32>,
    pub(crate) block: i32,
    pub(crate) width: i32,
    pub(crate) height: i32,
    pub(crate) tick: i32,
    pub(crate) score: f64,
    pub(crate) winner: Winner,
    pub(crate) over: bool,
    /// GVG-AI `Termination.canEnd`: `StopCounter` clears it to hold back the sprite-count
    /// terminations.
    pub(crate) can_end: bool,
    pub(crate) rng: JavaRandom,
    pub(crate) next_id: u32,
    pub(crate) num_sprites: usize,
    /// The avatar's type and sprite id.
    pub(crate) avatar: Option<(TypeId, u32)>,
    pub(crate) kill_list: Vec<SpriteRef>,
    pub(crate) timers: Timers,
    pub(crate) shields: Vec<(TypeId, TypeId, String)>,
    /// GVG-AI keeps `applyScore` on the effect object; it persists between executions.
    pub(crate) apply_score: Vec<bool>,
    /// (effect, sprite id) pulled this cycle by `pullWithIt`.
    pub(crate) pulled: Vec<(usize, u32)>,
    pub(crate) last_action: Action,
    /// Precomputed paths, for games with path-chasing NPCs and `obs=` obstacles.
    pub(crate) paths: Option<Arc<PathTable>>,
    pub(crate) chase: Vec<ChaseMemory>,
    /// `EvolvedNPC` memories by sprite id ([`super::scripted`]).
    pub(crate) npcs: Vec<super::scripted::NpcMemory>,
    /// Players 1.. of a multi-player game (empty for one player; see `players`).
    pub(crate) others: Vec<players::OtherPlayer>,
    /// The player a search sees this state as, with its opponent model (see `players`).
    pub(crate) seat: Option<players::Seat>,
    /// GVG-AI's game counters (`no_counters` of them), changed by effects' `counter=` and
    /// read by `Timeout use_counter=True`.
    pub(crate) counters: Vec<i32>,
}

impl GameState {
    /// Build the initial state of `level` (GVG-AI `buildStringLevel`), seeding the game's
    /// random generator with `seed`.
    pub fn new(
        rules: Arc<Rules>,
        level: &Level,
        seed: i64,
        block: BlockSize,
    ) -> Result<GameState, EngineError> {
        let block = block_px(&rules, level, block);
        check_level(&rules, level, block)?;
        let mut st = GameState::empty(rules, level, block, seed);
        let avatars = st.place_level_sprites(level);
        match st.rules.desc.params.no_players {
            0 | 1 => st.keep_one_avatar(&avatars),
            n => st.keep_player_avatars(&avatars, n),
        }
        st.build_paths(level);
        st.start_native_timers();
        Ok(st)
    }

    /// A state of the level's size with no sprites, at tick 0.
    fn empty(rules: Arc<Rules>, level: &Level, block: i32, seed: i64) -> GameState {
        let n = rules.props.len();
        GameState {
            groups: rules
                .props
                .iter()
                .map(|p| {
                    if p.inert {
                        Group::shared()
                    } else {
                        Group::Owned(Vec::new())
                    }
                })
                .collect(),
            inert_lag: vec![0; n],
            block,
            width: level.width as i32 * block,
            height: level.height as i32 * block,
            tick: 0,
            score: 0.0,
            winner: Winner::NoWinner,
            over: false,
            can_end: true,
            rng: JavaRandom::new(seed),
            next_id: 0,
            num_sprites: 0,
            avatar: None,
            kill_list: Vec::new(),
            timers: Timers::default(),
            shields: Vec::new(),
            apply_score: vec![true; rules.effects.len()],
            pulled: Vec::new(),
            last_action: Action::Nil,
            paths: None,
            chase: Vec::new(),
            npcs: Vec::new(),
            others: Vec::new(),
            seat: None,
            counters: vec![0; rules.desc.params.no_counters],
            rules,
        }
    }

    /// Create the level's sprites row by row, returning the avatars among them.
    fn place_level_sprites(&mut self, level: &Level) -> Vec<SpriteRef> {
        let block = self.block;
        let mut avatars: Vec<SpriteRef> = Vec::new();
        for y in 0..level.height {
            for x in 0..level.width {
                for &t in level.cell(x, y) {
                    if let Some(r) = self.add_sprite(t, x as i32 * block, y as i32 * block, false) {
                        if self.rules.props(t).is_avatar {
                            avatars.push(r);
                        }
                    }
                }
            }
        }
        avatars
    }

    /// GVG-AI keeps only as many avatars as players (one); the others are removed.
    fn keep_one_avatar(&mut self, avatars: &[SpriteRef]) {
        let mut extra: Vec<u32> = avatars.iter().skip(1).map(|r| self.sprite(*r).id).collect();
        extra.sort_unstable();
        if !extra.is_empty() {
            for g in self.groups.iter_mut() {
                g.make_mut().retain(|s| extra.binary_search(&s.id).is_err());
            }
            self.num_sprites -= extra.len();
        }
        if let Some(r) = avatars.first() {
            let id = self.sprite(*r).id;
            self.avatar = Some((r.ty, id));
        }
    }

    /// Schedule the game's native timed effects.
    fn start_native_timers(&mut self) {
        let rules = Arc::clone(&self.rules);
        for &(t, e, timer, repeating, planned) in &rules.native_timers {
            let at = if planned { timer } else { -1 };
            self.timers.push(Timer {
                at,
                effect: e,
                native: Some(t),
                timer,
                repeating,
            });
        }
    }
}

/// The cell size in pixels for `level` under `block`.
fn block_px(rules: &Rules, level: &Level, block: BlockSize) -> i32 {
    match block {
        BlockSize::Standard => match rules.desc.params.square_size {
            Some(s) => s as i32,
            None => ((MAX_WINDOW_SIZE as usize / level.width.max(level.height)) as i32).max(2),
        },
        BlockSize::Learning => 10,
        BlockSize::Fixed(s) => s.clamp(1, 1000) as i32,
    }
}

/// A level the engine can start: positions stay in range, and every sprite it places has a
/// sprite class.
fn check_level(rules: &Rules, level: &Level, block: i32) -> Result<(), EngineError> {
    let too_big = |cells: usize| cells.saturating_mul(block as usize) > (POS_LIMIT as usize) / 4;
    if too_big(level.width) || too_big(level.height) {
        return Err(EngineError::Invalid {
            message: format!(
                "level of {}x{} cells is too large",
                level.width, level.height
            ),
        });
    }
    for cell in &level.cells {
        for &t in cell {
            if rules.props(t).class.is_none() {
                return Err(EngineError::Invalid {
                    message: format!(
                        "the level uses sprite \"{}\", which has no sprite class",
                        rules.desc.type_name(t)
                    ),
                });
            }
        }
    }
    Ok(())
}
