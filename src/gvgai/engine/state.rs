//! The game state and one game cycle: avatar first, then the other sprites in reverse sprite
//! order, then events (timers, EOS, pairwise collisions), removal of killed sprites,
//! terminations and the 2000-tick limit — the order of GVG-AI's `Game`/`ForwardModel`.
//!
//! All sprites of a game share one size (the block size); positions are pixels.

use std::sync::Arc;

use super::EngineError;
use super::path::PathTable;
use super::rng::JavaRandom;
use super::rules::{Action, Rules};
use crate::gvgai::vgdl::{Dir, Level, SpriteClass, TerminationKind, TypeId};

/// GVG-AI `MAX_TIMESTEPS`: the game is lost at this tick unless already won.
pub const MAX_TICKS: i32 = 2000;
/// GVG-AI `MAX_SPRITES` for `BasicGame`.
pub const MAX_SPRITES: usize = 10_000;
/// Positions stay within ±2^24 pixels.
const POS_LIMIT: i32 = 1 << 24;
/// Largest level (in cells) for which the all-pairs path table is built (4096² × 2 bytes).
const MAX_PATH_CELLS: usize = 4096;
/// GVG-AI `MAX_WINDOW_SIZE`, used for the default block size.
const MAX_WINDOW_SIZE: f64 = 800.0;

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

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    NoWinner,
    PlayerWins,
    PlayerLoses,
}

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

/// Movement result (GVG-AI `Types.MOVEMENT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Movement {
    Still,
    Rotate,
    Move,
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
}

impl Sprite {
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
    fn make_mut(&mut self) -> &mut Vec<Sprite> {
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

/// What a path-chasing NPC remembers between updates (GVG-AI `PathAltChaser` fields).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChaseMemory {
    pub id: u32,
    /// Last target (type, sprite id) and its last known position (kept after it dies).
    pub target: Option<(TypeId, u32)>,
    pub tx: i32,
    pub ty: i32,
    pub last_known: Option<(i32, i32)>,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Timer {
    pub at: i32,
    /// The `addTimer` effect whose delegate runs, or the native timed effect.
    pub effect: usize,
    /// For native timed effects: the sprite type it applies to.
    pub native: Option<TypeId>,
    pub timer: i32,
    pub repeating: bool,
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
    pub(crate) rng: JavaRandom,
    pub(crate) next_id: u32,
    pub(crate) num_sprites: usize,
    /// The avatar's type and sprite id.
    pub(crate) avatar: Option<(TypeId, u32)>,
    pub(crate) kill_list: Vec<SpriteRef>,
    pub(crate) timers: Vec<Timer>,
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
        let block = match block {
            BlockSize::Standard => match rules.desc.params.square_size {
                Some(s) => s as i32,
                None => ((MAX_WINDOW_SIZE as usize / level.width.max(level.height)) as i32).max(2),
            },
            BlockSize::Learning => 10,
            BlockSize::Fixed(s) => s.clamp(1, 1000) as i32,
        };
        let too_big =
            |cells: usize| cells.saturating_mul(block as usize) > (POS_LIMIT as usize) / 4;
        if too_big(level.width) || too_big(level.height) {
            return Err(EngineError::Invalid {
                message: format!(
                    "level of {}x{} cells is too large",
                    level.width, level.height
                ),
            });
        }
        let n = rules.props.len();
        let mut st = GameState {
            groups: rules
                .props
                .iter()
                .map(|p| {
                    if p.inert {
                        Group::Shared(Arc::new(Vec::new()))
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
            rng: JavaRandom::new(seed),
            next_id: 0,
            num_sprites: 0,
            avatar: None,
            kill_list: Vec::new(),
            timers: Vec::new(),
            shields: Vec::new(),
            apply_score: vec![true; rules.effects.len()],
            pulled: Vec::new(),
            last_action: Action::Nil,
            paths: None,
            chase: Vec::new(),
            npcs: Vec::new(),
            rules,
        };
        for cell in &level.cells {
            for &t in cell {
                if st.rules.props(t).class.is_none() {
                    return Err(EngineError::Invalid {
                        message: format!(
                            "the level uses sprite \"{}\", which has no sprite class",
                            st.rules.desc.type_name(t)
                        ),
                    });
                }
            }
        }
        let mut avatars: Vec<SpriteRef> = Vec::new();
        for y in 0..level.height {
            for x in 0..level.width {
                for &t in level.cell(x, y) {
                    if let Some(r) = st.add_sprite(t, x as i32 * block, y as i32 * block, false) {
                        if st.rules.props(t).is_avatar {
                            avatars.push(r);
                        }
                    }
                }
            }
        }
        // GVG-AI keeps only as many avatars as players (one); the others are removed.
        let mut extra: Vec<u32> = avatars.iter().skip(1).map(|r| st.sprite(*r).id).collect();
        extra.sort_unstable();
        if !extra.is_empty() {
            for g in st.groups.iter_mut() {
                g.make_mut().retain(|s| extra.binary_search(&s.id).is_err());
            }
            st.num_sprites -= extra.len();
        }
        if let Some(r) = avatars.first() {
            let id = st.sprite(*r).id;
            st.avatar = Some((r.ty, id));
        }
        st.build_paths(level);
        let rules = Arc::clone(&st.rules);
        for &(t, e, timer, repeating, planned) in &rules.native_timers {
            let at = if planned { timer } else { -1 };
            st.insert_timer(Timer {
                at,
                effect: e,
                native: Some(t),
                timer,
                repeating,
            });
        }
        Ok(st)
    }

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

    /// GVG-AI keeps timers in a `TreeSet` whose comparison puts a new timer before existing
    /// ones with the same time.
    pub(crate) fn insert_timer(&mut self, t: Timer) {
        let pos = self
            .timers
            .iter()
            .position(|x| x.at >= t.at)
            .unwrap_or(self.timers.len());
        self.timers.insert(pos, t);
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
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
    pub fn reseed(&mut self, seed: i64) {
        self.rng = JavaRandom::new(seed);
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
                    s.ty, s.x, s.y, s.disabled, s.health, s.age, s.counter, s.ttl,
                )
                    .hash(&mut h);
                s.orientation.x.to_bits().hash(&mut h);
                s.orientation.y.to_bits().hash(&mut h);
                s.speed.to_bits().hash(&mut h);
                s.resources.hash(&mut h);
            }
        }
        for t in &self.timers {
            (t.at.saturating_sub(self.tick), t.effect).hash(&mut h);
        }
        self.npcs.hash(&mut h);
        (self.over, self.winner as u8).hash(&mut h);
        h.finish()
    }

    /// Checks the bookkeeping the engine keeps incrementally against the sprites themselves,
    /// between cycles: one group per type, holding sprites of that type; sprite ids unique and
    /// below the next id; the sprite count; no pending kills; the avatar present if recorded;
    /// resources sorted by type and never negative. For tests and fuzzing: the engine keeps
    /// these by construction, so an error names a bug.
    pub fn check_consistency(&self) -> Result<(), String> {
        let types = self.rules.props.len();
        if self.groups.len() != types || self.inert_lag.len() != types {
            return Err(format!(
                "{} groups and {} lags for {types} types",
                self.groups.len(),
                self.inert_lag.len()
            ));
        }
        let mut ids = std::collections::HashSet::new();
        for (t, g) in self.groups.iter().enumerate() {
            for s in g.iter() {
                if usize::from(s.ty) != t {
                    return Err(format!("sprite {} of type {} in group {t}", s.id, s.ty));
                }
                if s.id >= self.next_id || !ids.insert(s.id) {
                    return Err(format!("sprite id {} repeated or not yet issued", s.id));
                }
                if s.killed {
                    return Err(format!("killed sprite {} left in its group", s.id));
                }
                let sorted = s.resources.windows(2).all(|w| w[0].0 < w[1].0);
                if !sorted || s.resources.iter().any(|&(_, v)| v < 0) {
                    return Err(format!("sprite {} resources {:?}", s.id, s.resources));
                }
            }
        }
        if ids.len() != self.num_sprites {
            return Err(format!(
                "{} sprites counted as {}",
                ids.len(),
                self.num_sprites
            ));
        }
        if !self.kill_list.is_empty() {
            return Err(format!("{} kills pending", self.kill_list.len()));
        }
        if self.avatar.is_some() && self.avatar_ref().is_none() {
            return Err(format!("avatar {:?} is not among the sprites", self.avatar));
        }
        Ok(())
    }

    pub(crate) fn avatar_ref(&self) -> Option<SpriteRef> {
        let (ty, id) = self.avatar?;
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
    fn count_all(&self, t: TypeId) -> usize {
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

    pub(crate) fn intersects(&self, a: SpriteRef, b: SpriteRef) -> bool {
        let (sa, sb) = (self.sprite(a), self.sprite(b));
        let w = self.block;
        sa.x < sb.x + w && sb.x < sa.x + w && sa.y < sb.y + w && sb.y < sa.y + w
    }

    fn at_edge(&self, s: &Sprite) -> bool {
        let w = self.block;
        !(s.x >= 0 && s.y >= 0 && s.x + w <= self.width && s.y + w <= self.height)
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
        let own = self.sprite(r).speed;
        let speed = if speed == 0.0 {
            if own <= 0.0 { 1.0 } else { own }
        } else {
            speed
        };
        if speed != 0.0 && !dir.is_none() {
            if p.rotate_in_place && p.is_oriented {
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
    fn update_passive(&mut self, r: SpriteRef) {
        let p = self.rules.props(r.ty);
        if p.is_static {
            return;
        }
        let (is_oriented, speed) = (p.is_oriented, self.sprite(r).speed);
        let s = self.sprite_mut(r);
        if s.first_tick {
            s.first_tick = false;
            return;
        }
        let speed = if speed == -1.0 { 1.0 } else { speed };
        if speed != 0.0 && is_oriented {
            let dir = s.orientation;
            let px = (speed * f64::from(self.block)) as i32;
            self.update_pos(r, dir, px);
        }
    }

    fn pre_movement(&mut self, r: SpriteRef) {
        let s = self.sprite_mut(r);
        s.lx = s.x;
        s.ly = s.y;
        s.lastmove += 1;
    }

    /// RandomNPC `getRandomMove`.
    fn random_move(&mut self, r: SpriteRef) -> Dir {
        let cons = self.rules.props(r.ty).cons;
        let s = self.sprite(r);
        if s.counter < cons {
            let s = self.sprite_mut(r);
            s.counter += 1;
            s.prev_action
        } else {
            let act = Dir::BASE[self.rng.next_int_bounded(4) as usize];
            let s = self.sprite_mut(r);
            s.prev_action = act;
            s.counter = 0;
            act
        }
    }

    fn distance(a: &Sprite, bx: i32, by: i32) -> f64 {
        f64::from((a.y - by).abs() + (a.x - bx).abs())
    }

    /// Chaser `closestTargets`: the nearest sprites of `t` (ties kept, in group order).
    fn closest_targets(&self, r: SpriteRef, t: TypeId) -> Vec<(i32, i32)> {
        let me = self.sprite(r);
        // LOSChaser: only targets in line of sight along the last random move, none before it.
        let los = self.rules.props(r.ty).class == Some(SpriteClass::LOSChaser);
        if los && me.prev_action.is_none() {
            return Vec::new();
        }
        let pa = me.prev_action;
        let direct = &self.groups[usize::from(t)];
        let mut best = f64::MAX;
        let mut out = Vec::new();
        let mut consider = |s: &Sprite| {
            if los {
                let sees = if pa == Dir::DOWN {
                    s.x == me.x && s.y >= me.y
                } else if pa == Dir::UP {
                    s.x == me.x && s.y <= me.y
                } else if pa == Dir::LEFT {
                    s.x <= me.x && s.y == me.y
                } else if pa == Dir::RIGHT {
                    s.x >= me.x && s.y == me.y
                } else {
                    false
                };
                if !sees {
                    return;
                }
            }
            let d = Self::distance(me, s.x, s.y);
            if d < best {
                best = d;
                out.clear();
                out.push((s.x, s.y));
            } else if d == best {
                out.push((s.x, s.y));
            }
        };
        if !direct.is_empty() {
            direct.iter().for_each(&mut consider);
        } else {
            for &st in &self.rules.props(t).subtypes {
                self.groups[usize::from(st)].iter().for_each(&mut consider);
            }
        }
        out
    }

    /// Chaser `movesToward`: directions (1-pixel probes) that reduce (or, fleeing, increase)
    /// the distance.
    fn moves_toward(
        &self,
        r: SpriteRef,
        target: (i32, i32),
        fleeing: bool,
        max_distance: f64,
        out: &mut Vec<Dir>,
    ) {
        let me = self.sprite(r);
        let d = Self::distance(me, target.0, target.1);
        if max_distance != -1.0 && d > max_distance {
            return;
        }
        for dir in Dir::BASE {
            let nx = me.x + dir.x as i32;
            let ny = me.y + dir.y as i32;
            let nd = f64::from((ny - target.1).abs() + (nx - target.0).abs());
            if (fleeing && d < nd) || (!fleeing && d > nd) {
                out.push(dir);
            }
        }
    }

    fn update_chaser(
        &mut self,
        r: SpriteRef,
        target_type: Option<TypeId>,
        fleeing: bool,
        fallback_random_move: bool,
    ) {
        self.update_passive(r);
        let p = self.rules.props(r.ty);
        let (speed, max_distance) = (self.sprite(r).speed, p.max_distance);
        let mut actions = Vec::new();
        if let Some(t) = target_type {
            for target in self.closest_targets(r, t) {
                self.moves_toward(r, target, fleeing, max_distance, &mut actions);
            }
        }
        let act = if actions.is_empty() {
            if fallback_random_move {
                self.random_move(r)
            } else {
                Dir::BASE[self.rng.next_int_bounded(4) as usize]
            }
        } else {
            actions[self.rng.next_int_bounded(actions.len() as i32) as usize]
        };
        self.active_movement(r, act, speed);
    }

    /// GVG-AI builds its path finder at level start when the game declares `obs=`.
    fn build_paths(&mut self, level: &Level) {
        let rules = Arc::clone(&self.rules);
        let uses_paths = rules.props.iter().any(|p| {
            matches!(
                p.class,
                Some(
                    SpriteClass::PathAltChaser
                        | SpriteClass::RandomPathAltChaser
                        | SpriteClass::PathChaser
                )
            )
        });
        let obs = &rules.desc.params.obs;
        if !uses_paths || obs.is_empty() {
            return;
        }
        let (w, h) = (level.width, level.height);
        if w * h > MAX_PATH_CELLS {
            // The all-pairs table would be too large; path chasers then stand still.
            return;
        }
        let mut obstacle = vec![false; w * h];
        for g in &self.groups {
            for s in g.iter() {
                if obs.contains(&s.ty) {
                    let (cx, cy) = (s.x.div_euclid(self.block), s.y.div_euclid(self.block));
                    if cx >= 0 && cy >= 0 && (cx as usize) < w && (cy as usize) < h {
                        obstacle[cx as usize * h + cy as usize] = true;
                    }
                }
            }
        }
        let horizontal_only = self.available_actions().len() == 3;
        self.paths = Some(Arc::new(PathTable::new(w, h, &obstacle, horizontal_only)));
    }

    fn find_sprite(&self, t: TypeId, id: u32) -> Option<&Sprite> {
        self.groups[usize::from(t)].iter().find(|s| s.id == id)
    }

    fn path_step(&self, from: (i32, i32), to: (i32, i32)) -> Option<Dir> {
        let paths = self.paths.as_ref()?;
        let b = f64::from(self.block);
        let cell = |(x, y): (i32, i32)| ((f64::from(x) / b) as i64, (f64::from(y) / b) as i64);
        paths.first_step(cell(from), cell(to))
    }

    /// GVG-AI `PathAltChaser.update` (its `fleeing` never becomes true there: it is not modelled).
    fn update_path_chaser(&mut self, rules: &Rules, r: SpriteRef) {
        self.update_passive(r);
        let p = rules.props(r.ty);
        let (me_id, mx, my) = {
            let s = self.sprite(r);
            (s.id, s.x, s.y)
        };
        let slot = match self.chase.iter().position(|c| c.id == me_id) {
            Some(i) => i,
            None => {
                self.chase.push(ChaseMemory {
                    id: me_id,
                    target: None,
                    tx: 0,
                    ty: 0,
                    last_known: None,
                });
                self.chase.len() - 1
            }
        };
        // Refresh the remembered target's position while it lives.
        if let Some((tt, tid)) = self.chase[slot].target {
            if let Some(t) = self.find_sprite(tt, tid) {
                let (x, y) = (t.x, t.y);
                self.chase[slot].tx = x;
                self.chase[slot].ty = y;
            }
        }
        let mem = self.chase[slot];
        let mut target: Option<((TypeId, u32), i32, i32)> = None;
        let reached = mem.target.is_some() && mem.tx == mx && mem.ty == my;
        if mem.target.is_none() || reached {
            let num: usize = p
                .stype1
                .iter()
                .chain(p.stype2.iter())
                .map(|&t| self.count_all(t))
                .sum();
            if let (true, Some(&tt)) = (num > 0, p.stype1.first()) {
                if p.random_target {
                    // GVG-AI lists the type's own sprites, then those of every subtype (the
                    // type itself included again), and draws one.
                    let mut all: Vec<((TypeId, u32), i32, i32)> = Vec::new();
                    let groups =
                        std::iter::once(tt).chain(rules.props(tt).subtypes.iter().copied());
                    for st in groups {
                        for s in self.groups[usize::from(st)].iter() {
                            all.push(((st, s.id), s.x, s.y));
                        }
                    }
                    if !all.is_empty() {
                        let k = self.rng.next_int_bounded(all.len() as i32) as usize;
                        target = Some(all[k]);
                    }
                } else {
                    let me = self.sprite(r);
                    let mut best = f64::MAX;
                    for &st in &rules.props(tt).subtypes {
                        for s in self.groups[usize::from(st)].iter() {
                            let d = Self::distance(me, s.x, s.y);
                            if d < best {
                                best = d;
                                target = Some(((st, s.id), s.x, s.y));
                            }
                        }
                    }
                }
            }
        } else if let Some(t) = mem.target {
            target = Some((t, mem.tx, mem.ty));
        }
        let act = match target {
            Some((t, tx, ty)) => {
                let m = &mut self.chase[slot];
                m.target = Some(t);
                m.tx = tx;
                m.ty = ty;
                let mut step = self.path_step((mx, my), (tx, ty));
                let last_known = self.chase[slot].last_known;
                match (step, last_known) {
                    (None, Some(lk)) => step = self.path_step((mx, my), lk),
                    _ => self.chase[slot].last_known = Some((tx, ty)),
                }
                step.unwrap_or(Dir::NONE)
            }
            None => Dir::BASE[self.rng.next_int_bounded(4) as usize],
        };
        self.active_movement(r, act, self.sprite(r).speed);
    }

    /// GVG-AI `AlternateChaser.update`: chase the nearest `stype1` sprite (GVG-AI never
    /// reaches its fleeing branch: both counts go to the chasing total).
    fn update_alt_chaser(&mut self, rules: &Rules, r: SpriteRef) {
        self.update_passive(r);
        let p = rules.props(r.ty);
        let num: usize = p
            .stype1
            .iter()
            .chain(p.stype2.iter())
            .map(|&t| self.count_all(t))
            .sum();
        let mut targets: Vec<(i32, i32)> = Vec::new();
        if let (true, Some(&tt)) = (num > 0, p.stype1.first()) {
            // getSubSpritesGroup: the type's own group, then every subtype's (itself again).
            let me = self.sprite(r);
            let mut best = f64::MAX;
            let groups = std::iter::once(tt).chain(rules.props(tt).subtypes.iter().copied());
            for st in groups {
                for s in self.groups[usize::from(st)].iter() {
                    let d = Self::distance(me, s.x, s.y);
                    if d < best {
                        best = d;
                        targets.clear();
                        targets.push((s.x, s.y));
                    } else if d == best {
                        targets.push((s.x, s.y));
                    }
                }
            }
        }
        let mut actions = Vec::new();
        for t in targets {
            self.moves_toward(r, t, false, p.max_distance, &mut actions);
        }
        let act = if actions.is_empty() {
            Dir::BASE[self.rng.next_int_bounded(4) as usize]
        } else {
            actions[self.rng.next_int_bounded(actions.len() as i32) as usize]
        };
        self.active_movement(r, act, self.sprite(r).speed);
    }

    /// GVG-AI `VGDLSprite.update`: passive movement, then the `timeToLive` countdown.
    fn base_update(&mut self, r: SpriteRef) {
        self.update_passive(r);
        let s = self.sprite_mut(r);
        if s.ttl > -1 {
            if s.ttl > 0 {
                s.ttl -= 1;
            } else {
                self.kill(r, false);
            }
        }
    }

    fn update_flicker(&mut self, r: SpriteRef) {
        self.base_update(r);
        let limit = self.rules.props(r.ty).limit;
        if self.sprite(r).age > limit {
            self.kill(r, false);
        }
        self.sprite_mut(r).age += 1;
    }

    fn update_spawner(&mut self, rules: &Rules, r: SpriteRef, spawn: Option<TypeId>) {
        let tick = self.tick;
        let p = rules.props(r.ty);
        if self.sprite(r).start == -1 {
            self.sprite_mut(r).start = tick;
        }
        let roll = self.rng.next_float();
        let start = self.sprite(r).start;
        if (start + tick) % p.cooldown == 0 && f64::from(roll) < p.prob {
            if let Some(st) = spawn.or(p.stype.first().copied()) {
                let (x, y, orientation) = {
                    let s = self.sprite(r);
                    (s.x, s.y, s.orientation)
                };
                if let Some(n) = self.add_sprite(st, x, y, false) {
                    self.sprite_mut(r).counter += 1;
                    let ns = self.sprite_mut(n);
                    if !p.spawn_orientation.is_none() {
                        ns.orientation = p.spawn_orientation;
                    } else if ns.orientation.is_none() {
                        ns.orientation = orientation;
                    }
                }
            }
        }
        self.base_update(r);
        if p.total > 0 && self.sprite(r).counter >= p.total {
            self.kill(r, false);
        }
    }

    fn update_sprite(&mut self, rules: &Rules, r: SpriteRef) {
        use SpriteClass as C;
        let p = rules.props(r.ty);
        let Some(class) = p.class else { return };
        match class {
            C::Immovable | C::Passive | C::Door | C::Resource | C::Portal | C::Missile => {
                self.base_update(r)
            }
            C::Flicker | C::OrientedFlicker => self.update_flicker(r),
            C::Spreader => {
                self.update_flicker(r);
                if self.sprite(r).age == 2 {
                    let new_type = p.stype.first().copied().unwrap_or(r.ty);
                    let (lx, ly) = (self.sprite(r).lx, self.sprite(r).ly);
                    for u in Dir::BASE {
                        if self.rng.next_double() < p.spread_prob {
                            let x = (f64::from(lx) + u.x * f64::from(self.block)) as i32;
                            let y = (f64::from(ly) + u.y * f64::from(self.block)) as i32;
                            self.add_sprite(new_type, x, y, false);
                        }
                    }
                }
            }
            C::RandomNPC => {
                self.update_passive(r);
                let act = self.random_move(r);
                self.active_movement(r, act, self.sprite(r).speed);
            }
            C::Chaser | C::Fleeing | C::LOSChaser => {
                self.update_chaser(r, p.stype.first().copied(), p.fleeing, true);
            }
            C::PathAltChaser | C::RandomPathAltChaser => {
                if class == C::RandomPathAltChaser {
                    let roll = self.rng.next_double();
                    if roll < p.epsilon {
                        self.update_passive(r);
                        let act = Dir::BASE[self.rng.next_int_bounded(4) as usize];
                        self.active_movement(r, act, self.sprite(r).speed);
                        return;
                    }
                }
                self.update_path_chaser(rules, r);
            }
            C::AlternateChaser | C::RandomAltChaser => {
                if class == C::RandomAltChaser {
                    let roll = self.rng.next_double();
                    if roll < p.epsilon {
                        self.update_passive(r);
                        let act = Dir::BASE[self.rng.next_int_bounded(4) as usize];
                        self.active_movement(r, act, self.sprite(r).speed);
                        return;
                    }
                }
                self.update_alt_chaser(rules, r);
            }
            C::SpawnPoint | C::Bomber => self.update_spawner(rules, r, None),
            C::SpawnPointMultiSprite => {
                let tick = self.tick;
                if self.sprite(r).start == -1 {
                    self.sprite_mut(r).start = tick;
                }
                let roll = self.rng.next_float();
                let start = self.sprite(r).start;
                if (start + tick) % p.cooldown == 0 && f64::from(roll) < p.prob {
                    for &st in &p.stypes {
                        let (x, y, o) = {
                            let s = self.sprite(r);
                            (s.x, s.y, s.orientation)
                        };
                        if let Some(n) = self.add_sprite(st, x, y, false) {
                            self.sprite_mut(r).counter += 1;
                            let ns = self.sprite_mut(n);
                            if !p.spawn_orientation.is_none() {
                                ns.orientation = p.spawn_orientation;
                            } else if ns.orientation.is_none() {
                                ns.orientation = o;
                            }
                        }
                    }
                }
                self.base_update(r);
                if p.total > 0 && self.sprite(r).counter >= p.total {
                    self.kill(r, false);
                }
            }
            C::PathChaser => {
                self.update_passive(r);
                let target = p
                    .stype
                    .first()
                    .and_then(|&t| self.closest_targets(r, t).first().copied());
                let act = match target {
                    Some(t) => {
                        let (x, y) = (self.sprite(r).x, self.sprite(r).y);
                        let step = self.path_step((x, y), t).unwrap_or(Dir::NONE);
                        self.sprite_mut(r).counter = p.cons;
                        step
                    }
                    None => self.random_move(r),
                };
                self.active_movement(r, act, self.sprite(r).speed);
            }
            C::RandomBomber => {
                let act = Dir::BASE[self.rng.next_int_bounded(4) as usize];
                self.active_movement(r, act, self.sprite(r).speed);
                self.update_spawner(rules, r, None);
            }
            C::BomberRandomMissile => {
                let n = p.stype_missile.len() as i32;
                let k = self.rng.next_int_bounded(n) as usize;
                let t = p.stype_missile.get(k).copied();
                self.update_spawner(rules, r, t);
            }
            C::RandomMissile => {
                if self.sprite(r).orientation == Dir::NIL {
                    let d = Dir::BASE[self.rng.next_int_bounded(4) as usize];
                    self.sprite_mut(r).orientation = d;
                }
                self.update_passive(r);
            }
            C::EvolvedNPC => self.update_scripted(rules, r),
            C::MovingAvatar
            | C::HorizontalAvatar
            | C::VerticalAvatar
            | C::OrientedAvatar
            | C::ShootAvatar
            | C::FlakAvatar
            | C::MissileAvatar
            | C::OngoingAvatar
            | C::OngoingTurningAvatar
            | C::OngoingShootAvatar => {}
        }
    }

    /// ShootAvatar `updateUse`: fire the first stype that has ammunition, in front.
    fn shoot(&mut self, rules: &Rules, r: SpriteRef) {
        let p = rules.props(r.ty);
        for (i, &st) in p.stype.iter().enumerate() {
            let has_ammo = match p.ammo.get(i) {
                None => true,
                Some(&a) => self.sprite(r).amount(a) > 0,
            };
            if has_ammo {
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
                    if let Some(&a) = p.ammo.get(i) {
                        let s = self.sprite_mut(r);
                        if s.resources.iter().any(|(t, _)| *t == a) {
                            let v = s.amount(a).saturating_sub(1);
                            s.set_amount(a, v);
                        }
                    }
                    self.sprite_mut(n).from_avatar = true;
                }
                break;
            }
        }
    }

    fn update_avatar(&mut self, rules: &Rules, r: SpriteRef, action: Action) {
        use SpriteClass as C;
        let p = rules.props(r.ty);
        let action = if p.actions.contains(&action) {
            action
        } else {
            Action::Nil
        };
        self.last_action = action;
        let dir = action.direction();
        match p.class {
            Some(C::MissileAvatar) => {
                self.update_passive(r);
                return;
            }
            Some(C::OngoingAvatar) => {
                if !dir.is_none() {
                    self.sprite_mut(r).orientation = dir;
                }
                self.update_passive(r);
                return;
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
                return;
            }
            Some(C::OngoingShootAvatar) => {
                if !dir.is_none() {
                    self.sprite_mut(r).orientation = dir;
                }
                self.update_passive(r);
                if dir.is_none() && action == Action::Use {
                    self.shoot(rules, r);
                }
                return;
            }
            _ => {}
        }
        let movement = self.active_movement(r, dir, self.sprite(r).speed);
        let class = p.class;
        if matches!(class, Some(C::OrientedAvatar | C::ShootAvatar)) && movement == Movement::Move {
            let s = self.sprite_mut(r);
            let d = Dir {
                x: f64::from(s.x - s.lx),
                y: f64::from(s.y - s.ly),
            }
            .normalised();
            s.orientation = d;
        }
        if movement != Movement::Still || action != Action::Use {
            return;
        }
        match class {
            Some(C::ShootAvatar) => self.shoot(rules, r),
            Some(C::FlakAvatar) => {
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
            _ => {}
        }
    }

    /// Advance one game cycle with the avatar's `action` (GVG-AI `advance`). Does nothing once
    /// the game is over.
    pub fn advance(&mut self, action: Action) {
        if self.over {
            return;
        }
        let rules = Arc::clone(&self.rules);
        self.pulled.clear();
        if let Some(a) = self.avatar_ref() {
            if !self.sprite(a).disabled {
                self.pre_movement(a);
                self.update_avatar(&rules, a, action);
            }
        }
        for &t in rules.desc.sprite_order.iter().rev() {
            let p = rules.props(t);
            if p.is_avatar {
                continue;
            }
            if p.inert {
                // Static sprites without behaviour: only the start-of-cycle bookkeeping.
                // An unmoved group only owes the increment (and stays shared).
                let moved = self.groups[usize::from(t)]
                    .iter()
                    .any(|s| s.x != s.lx || s.y != s.ly || s.disabled);
                if moved {
                    for s in self.group_mut(t).iter_mut() {
                        if !s.disabled {
                            s.lx = s.x;
                            s.ly = s.y;
                            s.lastmove += 1;
                        }
                    }
                } else if !self.groups[usize::from(t)].is_empty() {
                    self.inert_lag[usize::from(t)] += 1;
                }
                continue;
            }
            let n = self.groups[usize::from(t)].len();
            for i in 0..n {
                let r = SpriteRef {
                    ty: t,
                    idx: i as u32,
                };
                if self.sprite(r).disabled {
                    continue;
                }
                self.pre_movement(r);
                self.update_sprite(&rules, r);
            }
        }
        self.event_handling(&rules);
        self.clear_all();
        self.termination_handling(&rules);
        if self.tick >= MAX_TICKS {
            self.over = true;
            if self.winner != Winner::PlayerWins {
                self.winner = Winner::PlayerLoses;
            }
        }
        self.tick += 1;
    }

    fn snapshot(&self, t: TypeId, out: &mut Vec<SpriteRef>) {
        out.clear();
        for &st in &self.rules.props(t).subtypes {
            for i in 0..self.groups[usize::from(st)].len() {
                out.push(SpriteRef {
                    ty: st,
                    idx: i as u32,
                });
            }
        }
    }

    fn event_handling(&mut self, rules: &Rules) {
        // Timed effects (GVG-AI TreeSet order: by time, newest first among equal times).
        while let Some(first) = self.timers.first().copied() {
            if first.at > self.tick {
                break;
            }
            self.timers.remove(0);
            let effect = &rules.effects[first.effect];
            match first.native {
                None => {
                    if let crate::gvgai::vgdl::EffectKind::AddTimer { delegate, .. } = &effect.kind
                    {
                        self.run_effect(rules, &delegate.kind, usize::MAX, None, None);
                        if self.apply_score[first.effect] {
                            self.score += f64::from(effect.score_change);
                        }
                    }
                }
                Some(t) => {
                    for &st in &rules.props(t).subtypes {
                        let mut i = 0;
                        while i < self.groups[usize::from(st)].len() {
                            let r = SpriteRef {
                                ty: st,
                                idx: i as u32,
                            };
                            let s = self.sprite(r);
                            if !s.killed && !s.disabled {
                                self.run_effect(rules, &effect.kind, first.effect, Some(r), None);
                                self.score += f64::from(effect.score_change);
                            }
                            i += 1;
                        }
                    }
                }
            }
            if first.repeating {
                self.insert_timer(Timer {
                    at: self.tick.saturating_add(first.timer),
                    ..first
                });
            }
        }
        // End-of-screen effects.
        let mut list = Vec::new();
        for &t in &rules.eos_types {
            for &e in &rules.eos_effects[usize::from(t)] {
                self.snapshot(t, &mut list);
                for &r in &list {
                    let s = self.sprite(r);
                    if self.at_edge(s) && !s.killed && !s.disabled {
                        self.execute(rules, e, Some(r), None);
                    }
                }
            }
        }
        // Pairwise effects. Sprite lists are re-read for every effect; candidates for each
        // first sprite are taken at its turn, and re-checked before each execution.
        let mut spans1: Vec<(TypeId, usize)> = Vec::new();
        let mut spans2: Vec<(TypeId, usize)> = Vec::new();
        let mut hits: Vec<SpriteRef> = Vec::new();
        let w = self.block;
        for (a, b, effs) in &rules.pairs {
            for &e in effs {
                if !self.shields.is_empty() {
                    let fname = rules.effects[e].kind.function_name();
                    if self
                        .shields
                        .iter()
                        .any(|(x, y, f)| x == a && y == b && f == fname)
                    {
                        continue;
                    }
                }
                self.spans(rules, *a, &mut spans1);
                if spans1.is_empty() {
                    continue;
                }
                self.spans(rules, *b, &mut spans2);
                if spans2.is_empty() {
                    continue;
                }
                for &(t1, n1) in &spans1 {
                    for i1 in 0..n1 {
                        let s1 = SpriteRef {
                            ty: t1,
                            idx: i1 as u32,
                        };
                        hits.clear();
                        let (x1, y1) = {
                            let sp = &self.groups[usize::from(t1)][i1];
                            (sp.x, sp.y)
                        };
                        for &(t2, n2) in &spans2 {
                            let g = &self.groups[usize::from(t2)][..n2];
                            for (i2, sp) in g.iter().enumerate() {
                                if x1 < sp.x + w
                                    && sp.x < x1 + w
                                    && y1 < sp.y + w
                                    && sp.y < y1 + w
                                    && !(t2 == t1 && i2 == i1)
                                {
                                    hits.push(SpriteRef {
                                        ty: t2,
                                        idx: i2 as u32,
                                    });
                                }
                            }
                        }
                        for &s2 in &hits {
                            if !self.sprite(s1).killed && self.intersects(s1, s2) {
                                self.execute(rules, e, Some(s1), Some(s2));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The (type, count) spans of `t` and its subtypes at this moment.
    fn spans(&self, rules: &Rules, t: TypeId, out: &mut Vec<(TypeId, usize)>) {
        out.clear();
        for &st in &rules.props(t).subtypes {
            let n = self.groups[usize::from(st)].len();
            if n > 0 {
                out.push((st, n));
            }
        }
    }

    fn execute(&mut self, rules: &Rules, e: usize, s1: Option<SpriteRef>, s2: Option<SpriteRef>) {
        let effect = &rules.effects[e];
        let out = self.run_effect(rules, &effect.kind, e, s1, s2);
        if let Some(a) = out.apply_score {
            self.apply_score[e] = a;
        }
        if self.apply_score[e] {
            let sc = out.score_override.unwrap_or(effect.score_change);
            self.score += f64::from(sc);
        }
    }

    fn clear_all(&mut self) {
        if !self.kill_list.is_empty() {
            let removed = self.kill_list.len();
            if !self.chase.is_empty() {
                for k in 0..self.kill_list.len() {
                    let r = self.kill_list[k];
                    let (id, x, y) = {
                        let s = self.sprite(r);
                        (s.id, s.x, s.y)
                    };
                    for m in self.chase.iter_mut() {
                        if m.target == Some((r.ty, id)) {
                            m.tx = x;
                            m.ty = y;
                        }
                    }
                }
            }
            for t in 0..self.groups.len() {
                if self.groups[t].iter().any(|s| s.killed) {
                    self.group_mut(t as TypeId).retain(|s| !s.killed);
                }
            }
            self.num_sprites -= removed;
            self.kill_list.clear();
            if self.avatar.is_some() && self.avatar_ref().is_none() {
                self.avatar = None;
            }
        }
        self.shields.clear();
    }

    fn termination_handling(&mut self, rules: &Rules) {
        for t in &rules.desc.terminations {
            let done = match &t.kind {
                TerminationKind::SpriteCounter { stype, limit } => {
                    self.count(*stype) as i64 <= i64::from(*limit)
                }
                TerminationKind::MultiSpriteCounterSubTypes {
                    stype,
                    limit,
                    subtypes,
                } => {
                    if self.count(*stype) as i64 == i64::from(*limit) {
                        let with_sprites = rules
                            .props(*stype)
                            .subtypes
                            .iter()
                            .filter(|&&st| {
                                self.count(st) > 0 && !self.groups[usize::from(st)].is_empty()
                            })
                            .count() as i64;
                        with_sprites == i64::from(*subtypes)
                    } else {
                        false
                    }
                }
                TerminationKind::SpriteCounterMore { stype, limit } => {
                    self.count(*stype) as i64 >= i64::from(*limit)
                }
                TerminationKind::MultiSpriteCounter { stypes, limit, min } => {
                    let sum: i64 = stypes.iter().map(|&s| self.count(s) as i64).sum();
                    sum == i64::from(*limit) || (*min && sum > i64::from(*limit))
                }
                TerminationKind::Timeout { limit } => self.tick >= *limit,
            };
            if done {
                self.over = true;
                self.winner = if t.win {
                    Winner::PlayerWins
                } else {
                    Winner::PlayerLoses
                };
                return;
            }
        }
    }
}
