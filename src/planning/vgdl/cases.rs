//! Interaction cases of one avatar action, found by running tablero's own engine on small
//! one-dimensional levels ("chains"): the avatar at cell 0 acts along the chain (a move towards
//! cell 1, or a `use` facing cell 1), and whatever the rules do (pushes of any depth, kills,
//! transforms, spawns, undo, step-back, a sword hitting what is in front) is read back from
//! the engine. Each distinct (contents before → contents after) outcome is one case, which
//! becomes one PDDL action. This is the thesis's interaction-graph/branch construction done by
//! simulation: a chain grows one cell each time something is pushed (or a used sprite
//! travels) past its end, so the depth is bounded only by `max_chain`.
//!
//! The avatar's own state is part of a case: its type (Zelda's `nokey`/`withkey`) and, for
//! oriented avatars, its facing relative to the chain direction ([`Rel`]). Every combination
//! is simulated, so turning in place (`rotateInPlace=True`), turning while moving
//! (`rotateInPlace=False`) and turning when blocked are all read from the engine.
//!
//! Portals ([`Warp`]): a chain holding a portal whose exit type has one sprite in the level
//! gets one more cell off the strip with that exit and what the level has on its cell. A case
//! in which the avatar ends on that cell is a teleport: its last `pre`/`post` cell is the exit
//! cell, tied to the portal's cell by the static `(warp ?portal ?exit)` of the level.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::gvgai::engine::{Action, BlockSize, GameState, Rules};
use crate::gvgai::vgdl::{Dir, Level, TypeId};

/// The relevant (non-avatar) sprite types in one cell, sorted.
pub type Content = Vec<TypeId>;

/// What the avatar does in a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CaseAct {
    /// A move action along the chain direction (for an oriented avatar possibly a turn only).
    Move,
    /// ACTION_USE; the chain runs along the avatar's facing (or the used missile's direction).
    Use,
}

/// A facing relative to the chain direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    Same,
    Back,
    /// A quarter turn counter-clockwise from the chain direction.
    Left,
    /// A quarter turn clockwise.
    Right,
}

impl Rel {
    pub const ALL: [Rel; 4] = [Rel::Same, Rel::Back, Rel::Left, Rel::Right];
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
    /// The absolute direction of this facing for chain direction `d`.
    pub fn abs(self, d: Dir4) -> Dir4 {
        match self {
            Rel::Same => d,
            Rel::Back => d.opposite(),
            Rel::Left => d.ccw(),
            Rel::Right => d.ccw().opposite(),
        }
    }
    /// The relative facing of absolute `f` for chain direction `d`.
    pub fn of(d: Dir4, f: Dir4) -> Rel {
        Rel::ALL
            .into_iter()
            .find(|r| r.abs(d) == f)
            .unwrap_or(Rel::Same)
    }
}

/// Facing mask of all four relative facings.
pub const ALL_FACINGS: u8 = 0b1111;

/// One action outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Case {
    pub act: CaseAct,
    /// The chain direction when the case holds in one direction only (`None`: in every
    /// direction the avatar moves in, the same case).
    pub dir: Option<Dir4>,
    /// The avatar's type before (`None`: any; only set when the game has several avatar types).
    pub avatar: Option<TypeId>,
    /// The avatar's type after, when the case changes it.
    pub avatar_after: Option<TypeId>,
    /// Facings before, as a mask of [`Rel::bit`] (0: the avatar is not oriented).
    pub facing: u8,
    /// Facing after (`None`: the avatar is not oriented).
    pub facing_after: Option<Rel>,
    /// Contents of the chain cells before the move; `pre[0]` is the avatar's cell (`None`:
    /// any content, the outcome does not depend on it).
    pub pre: Vec<Option<Content>>,
    /// Contents after the move (same length as `pre`; `None` where `pre` is `None`).
    pub post: Vec<Option<Content>>,
    /// Index of the avatar's cell after the move.
    pub avatar_to: usize,
    /// Per transient type (see [`CaseSet::transient`]): alive after the move.
    pub transient: Vec<bool>,
    /// NIL ticks the executor plays after the action (a `use` waits until the sprite it
    /// spawned is gone, so that the next action starts from a state the model describes).
    pub wait: usize,
    /// A teleport: the chain index of the portal's cell; the last cell of `pre` and `post` is
    /// then the exit's cell (not adjacent to the chain).
    pub warp: Option<usize>,
}

/// A portal type of the current level whose exit type has exactly one sprite: moving into
/// the portal takes the avatar there (GVG-AI `teleportToExit` picks a random exit sprite, so
/// with one the move is deterministic).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Warp {
    pub portal: TypeId,
    pub exit: TypeId,
    /// The relevant contents of the exit sprite's cell.
    pub exit_content: Content,
}

/// Why a simulated chain cannot be used as a case (the move is then left out of the model,
/// which keeps every plan sound).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pruned {
    /// The avatar died (a losing move).
    AvatarDies,
    /// Nothing changed: a wasted tick.
    NoOp,
    /// A sprite was pushed past `max_chain` cells.
    TooDeep,
    /// The outcome is not a set of cell-aligned sprites (two of a type in one cell, a sprite
    /// between cells, a changed resource, a timer, ...).
    Unrepresentable(String),
    /// The outcome changes again on the next tick without any action.
    Unstable,
}

/// The cases of a game for a set of known contents.
#[derive(Debug, Clone)]
pub struct CaseSet {
    pub cases: Vec<Case>,
    /// Every content seen (initial and produced).
    pub contents: Vec<Content>,
    /// Transient types (Flickers spawned by moves, tracked as "alive after the move" flags).
    pub transient: Vec<TypeId>,
    /// Prune reasons with counts, for warnings.
    pub pruned: Vec<(String, usize)>,
}

#[derive(Clone)]
pub(crate) struct Simulator {
    pub rules: Arc<Rules>,
    /// Leaf avatar types (the first is the level's).
    pub avatar_types: Vec<TypeId>,
    /// Whether the avatar's facing is tracked.
    pub oriented: bool,
    /// Types ACTION_USE spawns (waited for until gone).
    pub use_spawn: Vec<TypeId>,
    /// Relevant types (sorted).
    pub relevant: Vec<TypeId>,
    pub transient: Vec<TypeId>,
    pub max_chain: usize,
    /// The portals of the state being analysed.
    pub warps: Vec<Warp>,
}

const BLOCK: i32 = 10;
/// The longest a `use` waits for the sprite it spawned to disappear.
const MAX_USE_WAIT: usize = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir4 {
    Up,
    Down,
    Left,
    Right,
}

impl Dir4 {
    pub const ALL: [Dir4; 4] = [Dir4::Up, Dir4::Down, Dir4::Left, Dir4::Right];
    pub fn action(self) -> Action {
        match self {
            Dir4::Up => Action::Up,
            Dir4::Down => Action::Down,
            Dir4::Left => Action::Left,
            Dir4::Right => Action::Right,
        }
    }
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir4::Up => (0, -1),
            Dir4::Down => (0, 1),
            Dir4::Left => (-1, 0),
            Dir4::Right => (1, 0),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Dir4::Up => "up",
            Dir4::Down => "down",
            Dir4::Left => "left",
            Dir4::Right => "right",
        }
    }
    pub fn opposite(self) -> Dir4 {
        match self {
            Dir4::Up => Dir4::Down,
            Dir4::Down => Dir4::Up,
            Dir4::Left => Dir4::Right,
            Dir4::Right => Dir4::Left,
        }
    }
    /// A quarter turn counter-clockwise (on screen, y down).
    pub fn ccw(self) -> Dir4 {
        match self {
            Dir4::Up => Dir4::Left,
            Dir4::Left => Dir4::Down,
            Dir4::Down => Dir4::Right,
            Dir4::Right => Dir4::Up,
        }
    }
    pub fn dir(self) -> Dir {
        match self {
            Dir4::Up => Dir::UP,
            Dir4::Down => Dir::DOWN,
            Dir4::Left => Dir::LEFT,
            Dir4::Right => Dir::RIGHT,
        }
    }
    /// The grid direction of an engine orientation (`None` for none or a diagonal).
    pub fn from_dir(d: Dir) -> Option<Dir4> {
        Dir4::ALL.into_iter().find(|x| x.dir() == d.normalised())
    }
}

enum SimOutcome {
    Case(Case),
    NeedsMore,
    Pruned(Pruned),
}

/// What [`Simulator::read`] finds on a strip.
struct Read {
    /// The strip's cells (chain and probe), then the exit cell of a warp strip.
    cells: Vec<Content>,
    /// The avatar's cell index, type and orientation.
    avatar: Option<(usize, TypeId, Dir)>,
    transient: Vec<bool>,
}

/// The level of one simulation: `len` cells along the chain direction (chain and probe) and,
/// for a warp, the exit cell two cells aside of the first.
#[derive(Clone, Copy)]
struct Strip {
    d: Dir4,
    len: usize,
    warp: bool,
}

impl Strip {
    fn horizontal(self) -> bool {
        matches!(self.d, Dir4::Left | Dir4::Right)
    }

    /// Width and height.
    fn size(self) -> (usize, usize) {
        let across = if self.warp { 3 } else { 1 };
        if self.horizontal() {
            (self.len, across)
        } else {
            (across, self.len)
        }
    }

    /// Position (x, y) of chain cell `i`.
    fn pos(self, i: usize) -> (usize, usize) {
        match self.d {
            Dir4::Right => (i, 0),
            Dir4::Left => (self.len - 1 - i, 0),
            Dir4::Down => (0, i),
            Dir4::Up => (0, self.len - 1 - i),
        }
    }

    /// Position of the exit cell of a warp strip.
    fn exit_pos(self) -> (usize, usize) {
        if self.horizontal() { (0, 2) } else { (2, 0) }
    }

    /// The cell index of (x, y): chain cells by their index, the exit cell `len`; `None` off
    /// the strip.
    fn index(self, x: usize, y: usize) -> Option<usize> {
        let (w, h) = self.size();
        if x >= w || y >= h {
            return None;
        }
        if self.warp && (x, y) == self.exit_pos() {
            return Some(self.len);
        }
        match self.d {
            Dir4::Right if y == 0 => Some(x),
            Dir4::Left if y == 0 => Some(self.len - 1 - x),
            Dir4::Down if x == 0 => Some(y),
            Dir4::Up if x == 0 => Some(self.len - 1 - y),
            _ => None,
        }
    }
}

/// The initial avatar state of one simulation.
#[derive(Clone, Copy)]
struct AvatarStart {
    ty: TypeId,
    facing: Option<Dir4>,
}

impl Simulator {
    fn is_avatar(&self, t: TypeId) -> bool {
        self.rules.props(t).is_avatar
    }

    /// Reads the relevant contents of a strip and the avatar.
    fn read(&self, st: &GameState, strip: Strip) -> Result<Read, String> {
        let mut cells: Vec<Content> = vec![Vec::new(); strip.len + usize::from(strip.warp)];
        let mut avatar = None;
        let mut transient = vec![false; self.transient.len()];
        for s in st.sprites() {
            if s.disabled {
                continue;
            }
            let is_avatar = self.is_avatar(s.ty);
            let tr = self.transient.iter().position(|&t| t == s.ty);
            if !is_avatar && tr.is_none() && self.relevant.binary_search(&s.ty).is_err() {
                continue;
            }
            if s.x % BLOCK != 0 || s.y % BLOCK != 0 {
                return Err(format!(
                    "a {} between cells",
                    st.rules().desc.type_name(s.ty)
                ));
            }
            let (x, y) = (s.x / BLOCK, s.y / BLOCK);
            let i = (x >= 0 && y >= 0)
                .then(|| strip.index(x as usize, y as usize))
                .flatten()
                .ok_or_else(|| format!("a {} left the board", st.rules().desc.type_name(s.ty)))?;
            if is_avatar {
                avatar = Some((i, s.ty, s.orientation));
            } else if let Some(k) = tr {
                transient[k] = true;
            } else {
                if cells[i].contains(&s.ty) {
                    return Err(format!(
                        "two {} in one cell",
                        st.rules().desc.type_name(s.ty)
                    ));
                }
                cells[i].push(s.ty);
            }
        }
        for c in cells.iter_mut() {
            c.sort_unstable();
        }
        Ok(Read {
            cells,
            avatar,
            transient,
        })
    }

    /// Whether a sprite ACTION_USE spawned is still alive.
    fn use_sprite_alive(&self, st: &GameState) -> bool {
        st.sprites()
            .any(|s| !s.disabled && !s.killed && self.use_spawn.contains(&s.ty))
    }

    /// The portal cell of `chain` and its warp, when exactly one cell after the avatar's holds
    /// a portal of the state.
    fn warp_in(&self, chain: &[Content]) -> Option<(usize, &Warp)> {
        let mut found = None;
        for (i, c) in chain.iter().enumerate().skip(1) {
            for w in &self.warps {
                if c.contains(&w.portal) {
                    if found.is_some() {
                        return None;
                    }
                    found = Some((i, w));
                }
            }
        }
        found
    }

    /// The engine state of a strip: the chain with the avatar on cell 0 (and a warp's exit).
    fn strip_state(
        &self,
        strip: Strip,
        start: AvatarStart,
        chain: &[Content],
        warp: Option<&Warp>,
    ) -> Option<GameState> {
        let (w, h) = strip.size();
        let mut cells = vec![Vec::new(); w * h];
        for (i, c) in chain.iter().enumerate() {
            let (x, y) = strip.pos(i);
            let mut v = c.clone();
            if i == 0 {
                v.push(start.ty);
            }
            cells[y * w + x] = v;
        }
        if let Some(wp) = warp {
            let (x, y) = strip.exit_pos();
            let mut v = wp.exit_content.clone();
            if !v.contains(&wp.exit) {
                v.push(wp.exit);
            }
            cells[y * w + x] = v;
        }
        let level = Level {
            width: w,
            height: h,
            cells,
        };
        let mut st = GameState::new(
            Arc::clone(&self.rules),
            &level,
            0,
            BlockSize::Fixed(BLOCK as u32),
        )
        .ok()?;
        if let (Some(f), Some(r)) = (start.facing, st.avatar_ref()) {
            st.sprite_mut(r).orientation = f.dir();
        }
        Some(st)
    }

    /// Plays the act (a use waits until its sprite is gone): the NIL ticks waited, or the
    /// outcome when the simulation already decided it.
    fn play(&self, act: CaseAct, st: &mut GameState, strip: Strip) -> Result<usize, SimOutcome> {
        let mut wait = 0;
        match act {
            CaseAct::Move => st.advance(strip.d.action()),
            CaseAct::Use => {
                st.advance(Action::Use);
                loop {
                    match self.read(st, strip) {
                        Ok(r) if probe_used(&r, strip) => return Err(SimOutcome::NeedsMore),
                        Ok(_) => {}
                        Err(e) => return Err(SimOutcome::Pruned(Pruned::Unrepresentable(e))),
                    }
                    if !self.use_sprite_alive(st) {
                        break;
                    }
                    if wait >= MAX_USE_WAIT {
                        return Err(SimOutcome::Pruned(Pruned::Unrepresentable(format!(
                            "the used sprite lives more than {MAX_USE_WAIT} ticks"
                        ))));
                    }
                    // The strip's own terminations mean nothing here.
                    st.over = false;
                    st.advance(Action::Nil);
                    wait += 1;
                }
            }
        }
        Ok(wait)
    }

    /// Simulates one action along a chain (`chain[0]` = the avatar's cell) with one empty
    /// probe cell after it.
    fn simulate(&self, act: CaseAct, d: Dir4, start: AvatarStart, chain: &[Content]) -> SimOutcome {
        let warp = self.warp_in(chain);
        let strip = Strip {
            d,
            len: chain.len() + 1,
            warp: warp.is_some(),
        };
        let Some(mut st) = self.strip_state(strip, start, chain, warp.map(|w| w.1)) else {
            return SimOutcome::Pruned(Pruned::Unrepresentable("the engine refused".into()));
        };
        let before_avatar = st.avatar().map(|a| (a.resources.clone(), a.health));
        let wait = match self.play(act, &mut st, strip) {
            Ok(w) => w,
            Err(outcome) => return outcome,
        };
        let r = match self.read(&st, strip) {
            Ok(r) => r,
            Err(e) => return SimOutcome::Pruned(Pruned::Unrepresentable(e)),
        };
        let Some((avatar_at, ty_after, o_after)) = r.avatar else {
            return SimOutcome::Pruned(Pruned::AvatarDies);
        };
        if probe_used(&r, strip) {
            return SimOutcome::NeedsMore;
        }
        if st.avatar().map(|a| (a.resources.clone(), a.health)) != before_avatar {
            return SimOutcome::Pruned(Pruned::Unrepresentable(
                "the avatar's resources or health changed".into(),
            ));
        }
        if !st.timers.is_empty() {
            return SimOutcome::Pruned(Pruned::Unrepresentable("a timer was set".into()));
        }
        let facing_after = match start.facing {
            None => None,
            Some(_) => match Dir4::from_dir(o_after) {
                Some(f) => Some(f),
                None => {
                    return SimOutcome::Pruned(Pruned::Unrepresentable(
                        "the avatar faces no grid direction".into(),
                    ));
                }
            },
        };
        // The chain's cells and, for a warp, the exit's; the avatar on the exit cell is on the
        // last of them.
        let mut pre: Vec<Content> = chain.to_vec();
        if let Some((_, w)) = warp {
            let mut v = w.exit_content.clone();
            v.sort_unstable();
            pre.push(v);
        }
        let post = cells_after(&r, strip);
        let avatar_to = if avatar_at == strip.len {
            strip.len - 1
        } else {
            avatar_at
        };
        if avatar_to == 0 && post == pre && ty_after == start.ty && facing_after == start.facing {
            return SimOutcome::Pruned(Pruned::NoOp);
        }
        if !self.stable(&st, strip, &post, (avatar_at, ty_after)) {
            return SimOutcome::Pruned(Pruned::Unstable);
        }
        let mut case = Case {
            act,
            dir: None,
            avatar: Some(start.ty),
            avatar_after: (ty_after != start.ty).then_some(ty_after),
            facing: start.facing.map_or(0, |f| Rel::of(d, f).bit()),
            facing_after: facing_after.map(|f| Rel::of(d, f)),
            pre: pre.into_iter().map(Some).collect(),
            post: post.into_iter().map(Some).collect(),
            avatar_to,
            transient: r.transient,
            wait,
            warp: warp.map(|w| w.0),
        };
        if case.warp.is_some() && avatar_at != strip.len {
            // No teleport: the exit cell, unchanged, is not part of the case.
            if case.pre.last() != case.post.last() {
                return SimOutcome::Pruned(Pruned::Unrepresentable(
                    "a portal's exit changed without a teleport".into(),
                ));
            }
            case.pre.pop();
            case.post.pop();
            case.warp = None;
        }
        SimOutcome::Case(case)
    }

    /// Stability: one more tick without an action leaves the strip's contents `post` and the
    /// avatar (cell, type) as they are.
    fn stable(
        &self,
        st: &GameState,
        strip: Strip,
        post: &[Content],
        avatar: (usize, TypeId),
    ) -> bool {
        let mut st2 = st.clone();
        // The strip's own terminations may have ended the mini game: they mean nothing here.
        st2.over = false;
        st2.advance(Action::Nil);
        self.read(&st2, strip).is_ok_and(|r2| {
            cells_after(&r2, strip) == post && r2.avatar.map(|a| (a.0, a.1)) == Some(avatar)
        })
    }

    /// Per transient type: whether the avatar (of type `avatar`) standing still on a cell with
    /// `content` spawns it (one NIL tick in the engine).
    pub fn spawns_here(&self, avatar: TypeId, content: &Content) -> Vec<bool> {
        let mut cell = content.clone();
        cell.push(avatar);
        let level = Level {
            width: 1,
            height: 1,
            cells: vec![cell],
        };
        match GameState::new(
            Arc::clone(&self.rules),
            &level,
            0,
            BlockSize::Fixed(BLOCK as u32),
        ) {
            Ok(mut st) => {
                st.advance(Action::Nil);
                let strip = Strip {
                    d: Dir4::Right,
                    len: 1,
                    warp: false,
                };
                match self.read(&st, strip) {
                    Ok(r) => r.transient,
                    Err(_) => vec![false; self.transient.len()],
                }
            }
            Err(_) => vec![false; self.transient.len()],
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        act: CaseAct,
        d: Dir4,
        start: AvatarStart,
        chain: &mut Vec<Content>,
        known: &[Content],
        out: &mut Vec<Case>,
        pruned: &mut Vec<(String, usize)>,
    ) {
        match self.simulate(act, d, start, chain) {
            SimOutcome::Case(c) => out.push(c),
            SimOutcome::Pruned(p) => note(pruned, &p),
            SimOutcome::NeedsMore => {
                if chain.len() >= self.max_chain {
                    note(pruned, &Pruned::TooDeep);
                    return;
                }
                for k in known {
                    chain.push(k.clone());
                    self.expand(act, d, start, chain, known, out, pruned);
                    chain.pop();
                }
            }
        }
    }

    /// The cases of action `act` along direction `d`, closing `known` (contents) and
    /// `avatar_on` (contents the avatar can stand on) under the outcomes.
    pub fn cases_for(
        &self,
        act: CaseAct,
        d: Dir4,
        known: &mut Vec<Content>,
        avatar_on: &mut Vec<Content>,
        pruned: &mut Vec<(String, usize)>,
    ) -> Vec<Case> {
        // Facings simulated: all four for a move, the chain direction for a use.
        let facings: Vec<Option<Dir4>> = match (self.oriented, act) {
            (false, _) => vec![None],
            (true, CaseAct::Move) => Rel::ALL.iter().map(|r| Some(r.abs(d))).collect(),
            (true, CaseAct::Use) => vec![Some(d)],
        };
        // Oriented avatars and uses may act on their own cell only (a turn): chains start
        // with the avatar's cell and grow as the simulation needs.
        let short = self.oriented || act == CaseAct::Use;
        loop {
            let mut raw = Vec::new();
            let mut pr = Vec::new();
            for &ty in &self.avatar_types {
                for &facing in &facings {
                    let start = AvatarStart { ty, facing };
                    for s0 in avatar_on.iter() {
                        if short {
                            let mut chain = vec![s0.clone()];
                            self.expand(act, d, start, &mut chain, known, &mut raw, &mut pr);
                        } else {
                            for s1 in known.iter() {
                                let mut chain = vec![s0.clone(), s1.clone()];
                                self.expand(act, d, start, &mut chain, known, &mut raw, &mut pr);
                            }
                        }
                    }
                }
            }
            let mut grew = false;
            for c in &raw {
                for p in c.post.iter().flatten() {
                    if !known.contains(p) {
                        known.push(p.clone());
                        grew = true;
                    }
                }
                if let Some(Some(p)) = c.post.get(c.avatar_to) {
                    if !avatar_on.contains(p) {
                        avatar_on.push(p.clone());
                        grew = true;
                    }
                }
            }
            if !grew {
                *pruned = pr;
                let merged = merge_facings(raw);
                let merged = merge_avatar_types(merged, &self.avatar_types);
                return merge_avatar_cell(merged, avatar_on.len(), short);
            }
        }
    }
}

/// Whether something (or the avatar) reached the probe cell after the chain.
fn probe_used(r: &Read, strip: Strip) -> bool {
    let probe = strip.len - 1;
    !r.cells[probe].is_empty() || r.avatar.map(|a| a.0) == Some(probe)
}

fn note(pruned: &mut Vec<(String, usize)>, p: &Pruned) {
    let key = match p {
        Pruned::AvatarDies => "the avatar dies".to_string(),
        Pruned::NoOp => "nothing happens".to_string(),
        Pruned::TooDeep => "a push chain longer than the depth limit".to_string(),
        Pruned::Unrepresentable(s) => format!("unrepresentable outcome ({s})"),
        Pruned::Unstable => "the outcome keeps changing without an action".to_string(),
    };
    match pruned.iter_mut().find(|(k, _)| *k == key) {
        Some((_, n)) => *n += 1,
        None => pruned.push((key, 1)),
    }
}

/// Cases that differ only in the avatar's facing before are merged into one with the union
/// of the facings.
fn merge_facings(raw: Vec<Case>) -> Vec<Case> {
    let mut groups: BTreeMap<Case, u8> = BTreeMap::new();
    for c in raw {
        let mut k = c.clone();
        k.facing = 0;
        *groups.entry(k).or_insert(0) |= c.facing;
    }
    groups
        .into_iter()
        .map(|(mut k, m)| {
            k.facing = m;
            k
        })
        .collect()
}

/// Cases that hold for every avatar type and keep it are merged into one that does not look
/// at the type (always, when the game has one avatar type).
fn merge_avatar_types(raw: Vec<Case>, types: &[TypeId]) -> Vec<Case> {
    let mut groups: BTreeMap<Case, BTreeSet<TypeId>> = BTreeMap::new();
    let mut keep = Vec::new();
    for c in raw {
        if types.len() <= 1 {
            let mut k = c;
            k.avatar = None;
            k.avatar_after = None;
            keep.push(k);
        } else if c.avatar_after.is_none() {
            let mut k = c.clone();
            k.avatar = None;
            groups
                .entry(k)
                .or_default()
                .extend(c.avatar.iter().copied());
        } else {
            keep.push(c);
        }
    }
    for (k, set) in groups {
        if set.len() == types.len() {
            keep.push(k);
        } else {
            for t in set {
                let mut c = k.clone();
                c.avatar = Some(t);
                keep.push(c);
            }
        }
    }
    keep
}

/// Cases that differ only in the avatar's starting cell and leave it unchanged are merged into
/// one case that does not look at that cell (with `short` chains, also those where the avatar
/// stays: turns and uses).
fn merge_avatar_cell(raw: Vec<Case>, n_avatar_contents: usize, short: bool) -> Vec<Case> {
    // Key: the case with cell 0 blanked; value: the cell-0 contents it occurs with.
    let mut groups: BTreeMap<Case, BTreeSet<Content>> = BTreeMap::new();
    let mut keep = Vec::new();
    for c in raw {
        if (c.avatar_to != 0 || short) && c.pre[0] == c.post[0] {
            let mut k = c.clone();
            k.pre[0] = None;
            k.post[0] = None;
            groups
                .entry(k)
                .or_default()
                .insert(c.pre[0].clone().unwrap_or_default());
        } else {
            keep.push(c);
        }
    }
    // A blanked case that occurs with every avatar content is merged; the others are kept per
    // content.
    let mut out = Vec::new();
    for (k, set) in groups {
        if set.len() == n_avatar_contents {
            out.push(k);
        } else {
            for s in set {
                let mut c = k.clone();
                c.pre[0] = Some(s.clone());
                c.post[0] = Some(s);
                out.push(c);
            }
        }
    }
    out.extend(keep);
    out.sort();
    out.dedup();
    out
}

/// The contents of a strip's chain cells after a simulation, and of the warp exit for a warp.
fn cells_after(r: &Read, strip: Strip) -> Vec<Content> {
    let mut v = r.cells[..strip.len - 1].to_vec();
    if strip.warp {
        v.push(r.cells[strip.len].clone());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_facings_round_trip() {
        for d in Dir4::ALL {
            let abs: BTreeSet<Dir4> = Rel::ALL.iter().map(|r| r.abs(d)).collect();
            assert_eq!(abs.len(), 4, "{d:?}");
            for r in Rel::ALL {
                assert_eq!(Rel::of(d, r.abs(d)), r);
            }
        }
        assert_eq!(Rel::Left.abs(Dir4::Up), Dir4::Left);
        assert_eq!(Rel::Right.abs(Dir4::Up), Dir4::Right);
        assert_eq!(Rel::Back.abs(Dir4::Left), Dir4::Right);
    }
}
