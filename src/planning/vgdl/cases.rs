//! Interaction cases of one avatar move, found by running tablero's own engine on small
//! one-dimensional levels ("chains"): the avatar at cell 0 moves towards cell 1, and whatever
//! the rules do (pushes of any depth, kills, transforms, spawns, undo, step-back) is read back
//! from the engine. Each distinct (contents before → contents after) outcome is one case,
//! which becomes one PDDL action. This is the thesis's interaction-graph/branch construction
//! done by simulation: a chain grows one cell each time something is pushed past its end, so
//! the depth is bounded only by `max_chain`.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::gvgai::engine::{Action, BlockSize, GameState, Rules};
use crate::gvgai::vgdl::{Level, TypeId};

/// The relevant (non-avatar) sprite types in one cell, sorted.
pub type Content = Vec<TypeId>;

/// One move outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Case {
    /// Contents of the chain cells before the move; `pre[0]` is the avatar's cell (`None`:
    /// any content, the outcome does not depend on it).
    pub pre: Vec<Option<Content>>,
    /// Contents after the move (same length as `pre`; `None` where `pre` is `None`).
    pub post: Vec<Option<Content>>,
    /// Index of the avatar's cell after the move.
    pub avatar_to: usize,
    /// Per transient type (see [`CaseSet::transient`]): alive after the move.
    pub transient: Vec<bool>,
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

pub(crate) struct Simulator {
    pub rules: Arc<Rules>,
    pub avatar: TypeId,
    /// Relevant types (sorted).
    pub relevant: Vec<TypeId>,
    pub transient: Vec<TypeId>,
    pub max_chain: usize,
}

const BLOCK: i32 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir4 {
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
}

enum SimOutcome {
    Case(Case),
    NeedsMore,
    Pruned(Pruned),
}

impl Simulator {
    /// Position (x, y) of chain cell `i` in a strip of `len` cells for direction `d`.
    fn pos(d: Dir4, i: usize, len: usize) -> (usize, usize) {
        match d {
            Dir4::Right => (i, 0),
            Dir4::Left => (len - 1 - i, 0),
            Dir4::Down => (0, i),
            Dir4::Up => (0, len - 1 - i),
        }
    }

    fn index_of(d: Dir4, x: usize, y: usize, len: usize) -> usize {
        match d {
            Dir4::Right => x,
            Dir4::Left => len - 1 - x,
            Dir4::Down => y,
            Dir4::Up => len - 1 - y,
        }
    }

    /// Reads the relevant contents of a strip and the avatar's cell.
    #[allow(clippy::type_complexity)]
    fn read(
        &self,
        st: &GameState,
        d: Dir4,
        len: usize,
    ) -> Result<(Vec<Content>, Option<usize>, Vec<bool>), String> {
        let mut cells: Vec<Content> = vec![Vec::new(); len];
        let mut avatar = None;
        let mut transient = vec![false; self.transient.len()];
        for s in st.sprites() {
            if s.disabled {
                continue;
            }
            let is_avatar = s.ty == self.avatar;
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
            let (w, h) = match d {
                Dir4::Left | Dir4::Right => (len as i32, 1),
                _ => (1, len as i32),
            };
            if x < 0 || y < 0 || x >= w || y >= h {
                return Err(format!(
                    "a {} left the board",
                    st.rules().desc.type_name(s.ty)
                ));
            }
            let i = Self::index_of(d, x as usize, y as usize, len);
            if is_avatar {
                avatar = Some(i);
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
        Ok((cells, avatar, transient))
    }

    /// Simulates one move along a chain (`chain[0]` = the avatar's cell) with one empty probe
    /// cell after it.
    fn simulate(&self, d: Dir4, chain: &[Content]) -> SimOutcome {
        let len = chain.len() + 1;
        let (w, h) = match d {
            Dir4::Left | Dir4::Right => (len, 1),
            _ => (1, len),
        };
        let mut cells = vec![Vec::new(); w * h];
        for (i, c) in chain.iter().enumerate() {
            let (x, y) = Self::pos(d, i, len);
            let mut v = c.clone();
            if i == 0 {
                v.push(self.avatar);
            }
            cells[y * w + x] = v;
        }
        let level = Level {
            width: w,
            height: h,
            cells,
        };
        let Ok(mut st) = GameState::new(
            Arc::clone(&self.rules),
            &level,
            0,
            BlockSize::Fixed(BLOCK as u32),
        ) else {
            return SimOutcome::Pruned(Pruned::Unrepresentable("the engine refused".into()));
        };
        let before_avatar = st.avatar().map(|a| (a.resources.clone(), a.health));
        st.advance(d.action());
        let (post, avatar, transient) = match self.read(&st, d, len) {
            Ok(r) => r,
            Err(e) => return SimOutcome::Pruned(Pruned::Unrepresentable(e)),
        };
        let Some(avatar_to) = avatar else {
            return SimOutcome::Pruned(Pruned::AvatarDies);
        };
        if !post[len - 1].is_empty() || avatar_to == len - 1 {
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
        let post: Vec<Content> = post[..len - 1].to_vec();
        if avatar_to == 0 && post.as_slice() == chain {
            return SimOutcome::Pruned(Pruned::NoOp);
        }
        // Stability: one more tick without an action must not change the contents.
        let mut st2 = st.clone();
        // The strip's own terminations may have ended the mini game: they mean nothing here.
        st2.over = false;
        st2.advance(Action::Nil);
        match self.read(&st2, d, len) {
            Ok((p2, a2, _)) if p2[..len - 1] == post[..] && a2 == Some(avatar_to) => {}
            _ => return SimOutcome::Pruned(Pruned::Unstable),
        }
        SimOutcome::Case(Case {
            pre: chain.iter().cloned().map(Some).collect(),
            post: post.into_iter().map(Some).collect(),
            avatar_to,
            transient,
        })
    }

    /// Per transient type: whether the avatar standing still on a cell with `content` spawns
    /// it (one NIL tick in the engine).
    pub fn spawns_here(&self, content: &Content) -> Vec<bool> {
        let mut cell = content.clone();
        cell.push(self.avatar);
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
                match self.read(&st, Dir4::Right, 1) {
                    Ok((_, _, tr)) => tr,
                    Err(_) => vec![false; self.transient.len()],
                }
            }
            Err(_) => vec![false; self.transient.len()],
        }
    }

    fn expand(
        &self,
        d: Dir4,
        chain: &mut Vec<Content>,
        known: &[Content],
        out: &mut Vec<Case>,
        pruned: &mut Vec<(String, usize)>,
    ) {
        match self.simulate(d, chain) {
            SimOutcome::Case(c) => out.push(c),
            SimOutcome::Pruned(p) => note(pruned, &p),
            SimOutcome::NeedsMore => {
                if chain.len() >= self.max_chain {
                    note(pruned, &Pruned::TooDeep);
                    return;
                }
                for k in known {
                    chain.push(k.clone());
                    self.expand(d, chain, known, out, pruned);
                    chain.pop();
                }
            }
        }
    }

    /// The cases for direction `d`, closing `known` (contents) and `avatar_on` (contents the
    /// avatar can stand on) under the outcomes.
    pub fn cases_for(
        &self,
        d: Dir4,
        known: &mut Vec<Content>,
        avatar_on: &mut Vec<Content>,
        pruned: &mut Vec<(String, usize)>,
    ) -> Vec<Case> {
        loop {
            let mut raw = Vec::new();
            let mut pr = Vec::new();
            for s0 in avatar_on.iter() {
                for s1 in known.iter() {
                    let mut chain = vec![s0.clone(), s1.clone()];
                    self.expand(d, &mut chain, known, &mut raw, &mut pr);
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
                return merge_avatar_cell(raw, avatar_on.len());
            }
        }
    }
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

/// Cases that differ only in the avatar's starting cell and leave it unchanged are merged into
/// one case that does not look at that cell.
fn merge_avatar_cell(raw: Vec<Case>, n_avatar_contents: usize) -> Vec<Case> {
    use std::collections::BTreeMap;
    // Key: the case with cell 0 blanked; value: the cell-0 contents it occurs with.
    let mut groups: BTreeMap<Case, BTreeSet<Content>> = BTreeMap::new();
    let mut keep = Vec::new();
    for c in raw {
        if c.avatar_to != 0 && c.pre[0] == c.post[0] {
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
