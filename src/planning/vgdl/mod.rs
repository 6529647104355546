//! VGDL → PDDL: translates a GVG-AI game state (its VGDL rules and the current level) into a
//! STRIPS domain and problem with negative preconditions (and derived predicates only for
//! goals with several win conditions or a non-zero limit), which our planner and Fast Downward
//! both read.
//!
//! The method is the thesis's (the interaction graph rooted at the avatar, one case per
//! branch, the four move actions, counters for SpriteCounter goals), generalised:
//! - cases are found by running tablero's engine on one-dimensional "chains" of cells (see
//!   [`cases`]), so every effect the engine knows is modelled exactly as the engine plays it,
//!   at any push depth (up to [`TranslateOptions::max_chain`] cells), including `transformTo`,
//!   `killSprite`, `spawn`, `undoAll` and `stepBack`;
//! - one PDDL action per case (`move`, a push, a push that kills, ...) over cell objects with
//!   directional adjacency `(adj ?d ?from ?to)`; cells nothing can ever enter (walls) are not
//!   objects;
//! - a counter `(count-X ?n)` per termination, changed by the case's exact count delta;
//! - Flicker types spawned by moves (Zen Puzzle's `isincenter`) are "transient": a flag
//!   `(calm-X)` says none was spawned by the last move, and the executor waits out their
//!   lifetime with NIL actions ([`Translation::pad_nil`]);
//! - losing conditions are avoided: moves that kill the avatar are left out, and counters of
//!   `win=False` terminations may not reach their limit (`(safe-X ?n)`);
//! - dead cells: for a sprite type the goal needs gone, cases that leave it where it can
//!   never be removed (a corner for a Sokoban box) are left out (`(live-X ?c)`);
//! - stochastic or self-moving sprites (butterflies) are frozen where they are in the
//!   snapshot (`TranslateOptions::snapshot`): the model is then an approximation used for
//!   replanning.
//!
//! Anything else is refused with [`TranslateError::NotTranslatable`] naming the construct.

pub mod cases;
pub mod plan;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use thiserror::Error;

use crate::gvgai::engine::{Action, GameState, Rules};
use crate::gvgai::vgdl::{EffectKind, Other, SpriteClass, TerminationKind, TypeId};
use crate::planning::pddl::{
    Action as PAction, Atom, Condition, Conjunction, Derived, Domain, Effect as PEffect, Literal,
    PredicateDecl, Problem, Term, TypeDecl, TypedName,
};
use cases::{ALL_FACINGS, Case, CaseAct, Content, Dir4, Rel, Simulator};

/// Why a game cannot be translated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TranslateError {
    #[error("not translatable: {0}")]
    NotTranslatable(String),
    #[error("the level has no avatar")]
    NoAvatar,
    #[error("the plan step {0:?} is not an action of the translation")]
    BadPlanStep(String),
}

fn not_translatable(s: impl Into<String>) -> TranslateError {
    TranslateError::NotTranslatable(s.into())
}

/// Options of the translation.
#[derive(Debug, Clone)]
pub struct TranslateOptions {
    /// Freeze stochastic and self-moving sprites where they are (replanning); otherwise they
    /// are "not translatable".
    pub snapshot: bool,
    /// Longest chain of cells simulated for one move (avatar cell included).
    pub max_chain: usize,
    /// Leave out moves that put a goal sprite on a dead cell.
    pub dead_cells: bool,
}

impl Default for TranslateOptions {
    fn default() -> Self {
        TranslateOptions {
            snapshot: false,
            max_chain: 6,
            dead_cells: true,
        }
    }
}

/// A translated game state.
#[derive(Debug, Clone)]
pub struct Translation {
    pub domain: Domain,
    pub problem: Problem,
    /// Moves left out of the model, and other remarks.
    pub warnings: Vec<String>,
    /// False when sprites were frozen (the model then only approximates the game).
    pub exact: bool,
    /// NIL actions the executor may need after the plan for transient sprites to expire.
    pub pad_nil: usize,
    /// Number of cases (PDDL actions).
    pub cases: usize,
    /// The engine actions of each PDDL action (by name).
    pub steps: BTreeMap<String, StepKind>,
}

/// What a PDDL action of the translation plays in the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// The move action of the direction in the first argument, then `wait` NIL ticks (until
    /// what it set in motion rests).
    Move { wait: usize },
    /// ACTION_USE, then `wait` NIL ticks (until the used sprite is gone).
    Use { wait: usize },
}

impl Translation {
    pub fn domain_text(&self) -> String {
        crate::planning::pddl::write_domain(&self.domain)
    }
    pub fn problem_text(&self) -> String {
        crate::planning::pddl::write_problem(&self.problem)
    }

    /// The engine actions of a ground plan step such as `(move right c1_2 c2_2)` or
    /// `(use_monsterquick1-gone up c1_2 c1_1)`: a move plays the direction in its first
    /// argument; a use plays ACTION_USE (letter `S`) and then its NIL ticks.
    pub fn step_actions(&self, step: &str) -> Result<Vec<Action>, TranslateError> {
        let bad = || TranslateError::BadPlanStep(step.to_string());
        let inner = step.trim().trim_start_matches('(').trim_end_matches(')');
        let name = inner.split_whitespace().next().ok_or_else(bad)?;
        match self.steps.get(&name.to_ascii_lowercase()) {
            Some(StepKind::Use { wait }) => {
                let mut v = vec![Action::Use];
                v.extend(std::iter::repeat_n(Action::Nil, *wait));
                Ok(v)
            }
            Some(StepKind::Move { wait }) => {
                let mut v = vec![step_action(step)?];
                v.extend(std::iter::repeat_n(Action::Nil, *wait));
                Ok(v)
            }
            None => Err(bad()),
        }
    }

    /// The engine actions of a plan (see [`Translation::step_actions`]).
    pub fn plan_actions(&self, plan: &[String]) -> Result<Vec<Action>, TranslateError> {
        let mut out = Vec::new();
        for s in plan {
            out.extend(self.step_actions(s)?);
        }
        Ok(out)
    }
}

/// The engine action of a ground plan step such as `(move right c1_2 c2_2)` (the first
/// argument of every generated action is its direction).
pub fn step_action(step: &str) -> Result<Action, TranslateError> {
    let bad = || TranslateError::BadPlanStep(step.to_string());
    let inner = step.trim().trim_start_matches('(').trim_end_matches(')');
    let dir = inner.split_whitespace().nth(1).ok_or_else(bad)?;
    match dir.to_ascii_lowercase().as_str() {
        "up" => Ok(Action::Up),
        "down" => Ok(Action::Down),
        "left" => Ok(Action::Left),
        "right" => Ok(Action::Right),
        _ => Err(bad()),
    }
}

/// One termination as a counter.
#[derive(Debug, Clone)]
struct Counter {
    name: String,
    /// Leaf types counted (non-transient).
    types: Vec<TypeId>,
    /// Transient types that must be absent.
    transient: Vec<usize>,
    limit: i32,
    win: bool,
}

/// Game-level analysis, reusable across states of one game (the controller replans with it).
pub struct Translator {
    sim: Simulator,
    counters: Vec<Counter>,
    /// Directions the avatar moves in.
    directions: Vec<Dir4>,
    /// Self-moving types frozen in place (snapshot mode).
    frozen: Vec<TypeId>,
    /// Chain directions of ACTION_USE (the facings of an oriented avatar, or the direction a
    /// non-oriented avatar's missile flies in); empty when `use` is not modelled.
    use_dirs: Vec<Dir4>,
    opts: TranslateOptions,
    exact: bool,
    warnings: Vec<String>,
    cache: Mutex<HashMap<Vec<Content>, Arc<Analysis>>>,
    /// Types some case changed in any state translated so far (their cells stay objects, so
    /// translations of later states describe the same facts).
    seen_dynamic: Mutex<Vec<TypeId>>,
}

/// The avatar in a snapshot.
#[derive(Debug, Clone, Copy)]
struct AvatarNow {
    x: usize,
    y: usize,
    ty: TypeId,
    facing: Dir4,
}

/// A game state as cell contents.
struct Snapshot {
    cells: Vec<Content>,
    w: usize,
    h: usize,
    avatar: Option<AvatarNow>,
    /// A sprite spawned by ACTION_USE is alive.
    used_alive: bool,
}

/// Cases for one set of initial contents.
struct Analysis {
    cases: Vec<Case>,
    contents: Vec<Content>,
    warnings: Vec<String>,
}

fn pddl_name(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 't');
    }
    out
}

fn is_self_moving(c: SpriteClass) -> bool {
    use SpriteClass::*;
    !matches!(
        c,
        Immovable | Passive | Door | Resource | Portal | Flicker | OrientedFlicker
    ) && !c.is_avatar()
}

impl Translator {
    /// Analyses the game of `state` (rules and the sprites present).
    pub fn new(state: &GameState, opts: TranslateOptions) -> Result<Translator, TranslateError> {
        let rules = state.rules();
        let desc = &rules.desc;
        let avatar = state.avatar().ok_or(TranslateError::NoAvatar)?.ty;
        let ap = rules.props(avatar);
        let aclass = ap.class.map(|c| c.to_string()).unwrap_or_default();
        match ap.class {
            Some(
                SpriteClass::MovingAvatar
                | SpriteClass::HorizontalAvatar
                | SpriteClass::VerticalAvatar
                | SpriteClass::OrientedAvatar
                | SpriteClass::ShootAvatar
                | SpriteClass::FlakAvatar,
            ) => {}
            _ => return Err(not_translatable(format!("avatar class {aclass}"))),
        }
        // Leaf avatar types (transformTo may change the avatar's type); the level's first.
        let mut avatar_types = vec![avatar];
        for t in 0..desc.types.len() as TypeId {
            if t != avatar
                && rules.props(t).is_avatar
                && desc.types[usize::from(t)].children.is_empty()
            {
                avatar_types.push(t);
            }
        }
        for &t in &avatar_types {
            let p = rules.props(t);
            if p.class != ap.class {
                return Err(not_translatable(format!(
                    "avatar types of different classes ({} is {})",
                    desc.type_name(t),
                    p.class.map(|c| c.to_string()).unwrap_or_default()
                )));
            }
            if (p.speed - 1.0).abs() > 1e-9 {
                return Err(not_translatable(format!(
                    "avatar speed {} (one move must cover one cell)",
                    p.speed
                )));
            }
            if p.cooldown > 1 {
                return Err(not_translatable(format!(
                    "avatar cooldown {} (moves on some ticks only)",
                    p.cooldown
                )));
            }
        }
        // The facing of Oriented and Shoot avatars (turning in place or not, as the engine
        // does it) is part of the model.
        let oriented = ap.is_oriented
            && matches!(
                ap.class,
                Some(SpriteClass::OrientedAvatar | SpriteClass::ShootAvatar)
            );
        let mut warnings = Vec::new();
        let directions: Vec<Dir4> = Dir4::ALL
            .into_iter()
            .filter(|d| ap.actions.contains(&d.action()))
            .collect();
        if directions.is_empty() {
            return Err(not_translatable(format!(
                "avatar class {aclass} cannot move"
            )));
        }
        // ACTION_USE: the sprites it spawns and the chain direction.
        let mut use_spawn: Vec<TypeId> = Vec::new();
        let mut use_dirs: Vec<Dir4> = Vec::new();
        if ap.actions.contains(&Action::Use) {
            let spawned: Vec<TypeId> = ap
                .stype
                .iter()
                .flat_map(|&t| rules.props(t).subtypes.iter().copied())
                .collect();
            if !ap.ammo.is_empty() {
                warnings.push(format!(
                    "ACTION_USE of {aclass} needs ammunition (resources are not modelled): \
                     plans do not use it"
                ));
            } else if spawned.is_empty() {
                warnings.push(format!("ACTION_USE of {aclass} spawns nothing"));
            } else if oriented && ap.class == Some(SpriteClass::ShootAvatar) {
                use_spawn = spawned;
                use_dirs = Dir4::ALL.to_vec();
            } else if ap.class == Some(SpriteClass::FlakAvatar) {
                // The missile starts on the avatar's cell and flies straight.
                let fly: Vec<Option<Dir4>> = spawned
                    .iter()
                    .map(|&t| {
                        let p = rules.props(t);
                        (p.class == Some(SpriteClass::Missile) && (p.speed - 1.0).abs() < 1e-9)
                            .then(|| Dir4::from_dir(p.orientation))
                            .flatten()
                    })
                    .collect();
                match fly.first().copied().flatten() {
                    Some(d) if fly.iter().all(|&f| f == Some(d)) => {
                        use_spawn = spawned;
                        use_dirs = vec![d];
                    }
                    _ => warnings.push(format!(
                        "ACTION_USE of {aclass}: the spawned sprite is not a one-cell-per-tick \
                         missile: plans do not use it"
                    )),
                }
            } else {
                warnings.push(format!(
                    "ACTION_USE of {aclass} is not modelled (plans do not use it)"
                ));
            }
        }
        // Timed and orientation-dependent effects.
        for i in &desc.interactions {
            if let Other::Time { .. } = i.other {
                return Err(not_translatable(format!(
                    "timed effect {} (line {})",
                    i.effect.kind.function_name(),
                    i.effect.line
                )));
            }
            match &i.effect.kind {
                EffectKind::AddTimer { .. } => {
                    return Err(not_translatable(format!(
                        "addTimer (line {})",
                        i.effect.line
                    )));
                }
                EffectKind::KillIfFrontal | EffectKind::KillIfNotFrontal => {
                    return Err(not_translatable(format!(
                        "orientation-dependent effect {} (line {})",
                        i.effect.kind.function_name(),
                        i.effect.line
                    )));
                }
                _ => {}
            }
            if i.effect.prob < 1.0 && !opts.snapshot {
                return Err(not_translatable(format!(
                    "random effect {} prob={} (line {})",
                    i.effect.kind.function_name(),
                    i.effect.prob,
                    i.effect.line
                )));
            }
        }
        // Self-moving sprites present: frozen in snapshot mode, refused otherwise.
        let mut frozen = Vec::new();
        for t in 0..desc.types.len() as TypeId {
            if rules.props(t).is_avatar
                || state.count(t) == 0
                || !desc.types[usize::from(t)].children.is_empty()
            {
                continue;
            }
            if let Some(c) = rules.props(t).class {
                if is_self_moving(c) {
                    if !opts.snapshot {
                        return Err(not_translatable(format!(
                            "self-moving sprite {} ({c})",
                            desc.type_name(t)
                        )));
                    }
                    frozen.push(t);
                }
            }
        }
        let in_rule = |t: TypeId| {
            let it = &rules.props(t).itypes;
            desc.interactions.iter().any(|i| {
                it.contains(&i.first) || matches!(i.other, Other::Sprite(o) if it.contains(&o))
            })
        };
        // Transient types: Flickers without interactions of their own.
        let transient: Vec<TypeId> = (0..desc.types.len() as TypeId)
            .filter(|&t| {
                !rules.props(t).is_avatar
                    && rules.props(t).class.is_some_and(|c| c.is_flicker())
                    && !in_rule(t)
                    && !use_spawn.contains(&t)
            })
            .collect();
        let mut relevant: Vec<TypeId> = (0..desc.types.len() as TypeId)
            .filter(|&t| {
                !rules.props(t).is_avatar
                    && !transient.contains(&t)
                    && rules.props(t).class.is_some()
                    && (in_rule(t) || desc.terminations.iter().any(|term| counted(term, t, rules)))
            })
            .collect();
        relevant.sort_unstable();
        // Counters.
        let mut counters = Vec::new();
        for (k, term) in desc.terminations.iter().enumerate() {
            let (stypes, limit) = match &term.kind {
                TerminationKind::SpriteCounter { stype, limit } => (vec![*stype], *limit),
                TerminationKind::MultiSpriteCounter {
                    stypes,
                    limit,
                    min: false,
                } => (stypes.clone(), *limit),
                TerminationKind::Timeout { .. } if !term.win => continue,
                other => {
                    if term.win {
                        return Err(not_translatable(format!(
                            "win condition {other:?} (line {})",
                            term.line
                        )));
                    }
                    warnings.push(format!(
                        "losing condition on line {} is not modelled",
                        term.line
                    ));
                    continue;
                }
            };
            let mut types = Vec::new();
            let mut tr = Vec::new();
            for &s in &stypes {
                for &t in &rules.props(s).subtypes {
                    if let Some(i) = transient.iter().position(|&x| x == t) {
                        tr.push(i);
                    } else if rules.props(t).is_avatar {
                        // The avatar never dies in the model (such moves are left out).
                        if term.win {
                            return Err(not_translatable(format!(
                                "a win condition counting the avatar (line {})",
                                term.line
                            )));
                        }
                    } else {
                        types.push(t);
                    }
                }
            }
            if stypes.iter().all(|&s| rules.props(s).is_avatar) {
                continue;
            }
            if !tr.is_empty() && limit != 0 {
                return Err(not_translatable(format!(
                    "a counter with limit {limit} over the transient sprite {} (line {})",
                    desc.type_name(transient[tr[0]]),
                    term.line
                )));
            }
            types.sort_unstable();
            types.dedup();
            let names: Vec<String> = stypes
                .iter()
                .map(|&s| pddl_name(desc.type_name(s)))
                .collect();
            let mut name = format!("count-{}", names.join("-"));
            if counters.iter().any(|c: &Counter| c.name == name) {
                name = format!("{name}-{k}");
            }
            counters.push(Counter {
                name,
                types,
                transient: tr,
                limit,
                win: term.win,
            });
        }
        if !counters.iter().any(|c| c.win) {
            return Err(not_translatable("a game without a countable win condition"));
        }
        // The simulation rules: frozen types become Passive.
        let sim_rules = if frozen.is_empty() {
            Arc::clone(rules)
        } else {
            let mut d = desc.clone();
            for &t in &frozen {
                d.types[usize::from(t)].class = Some(SpriteClass::Passive);
            }
            Arc::new(Rules::new(d).map_err(|e| not_translatable(e.to_string()))?)
        };
        if !frozen.is_empty() {
            warnings.push(format!(
                "frozen in place (their moves are not modelled): {}",
                frozen
                    .iter()
                    .map(|&t| desc.type_name(t).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(Translator {
            sim: Simulator {
                rules: sim_rules,
                avatar_types,
                oriented,
                use_spawn,
                relevant,
                transient,
                max_chain: opts.max_chain.max(2),
            },
            counters,
            directions,
            use_dirs,
            exact: frozen.is_empty(),
            frozen,
            opts,
            warnings,
            cache: Mutex::new(HashMap::new()),
            seen_dynamic: Mutex::new(Vec::new()),
        })
    }

    /// Directions of moves and uses (the `adj` relations the cases need).
    fn all_dirs(&self) -> Vec<Dir4> {
        Dir4::ALL
            .into_iter()
            .filter(|d| self.directions.contains(d) || self.use_dirs.contains(d))
            .collect()
    }

    /// Whether the model is exact (no sprite frozen): plans then win as predicted.
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// The relevant contents of every cell of `state` and the avatar. Sprites ACTION_USE
    /// spawned are left out (they expire by themselves; while one lives, `use` is not offered).
    fn snapshot(&self, state: &GameState) -> Snapshot {
        let (w, h) = state.grid_size();
        let (w, h) = (w.max(0) as usize, h.max(0) as usize);
        let mut cells: Vec<Content> = vec![Vec::new(); w * h];
        let mut avatar = None;
        let mut used_alive = false;
        for s in state.sprites() {
            if s.disabled || s.killed {
                continue;
            }
            if self.sim.use_spawn.contains(&s.ty) {
                used_alive = true;
                continue;
            }
            let (x, y) = state.cell_of(s);
            if x < 0 || y < 0 || x as usize >= w || y as usize >= h {
                continue;
            }
            let i = y as usize * w + x as usize;
            if state.rules().props(s.ty).is_avatar {
                avatar = Some(AvatarNow {
                    x: x as usize,
                    y: y as usize,
                    ty: s.ty,
                    facing: Dir4::from_dir(s.orientation).unwrap_or(Dir4::Right),
                });
            } else if self.sim.relevant.binary_search(&s.ty).is_ok() && !cells[i].contains(&s.ty) {
                cells[i].push(s.ty);
            }
        }
        for c in cells.iter_mut() {
            c.sort_unstable();
        }
        Snapshot {
            cells,
            w,
            h,
            avatar,
            used_alive,
        }
    }

    fn analysis(&self, initial: Vec<Content>, avatar_on: Content) -> Arc<Analysis> {
        let mut key = initial.clone();
        key.push(avatar_on.clone());
        key.push(vec![TypeId::MAX]);
        if let Ok(c) = self.cache.lock() {
            if let Some(a) = c.get(&key) {
                return Arc::clone(a);
            }
        }
        let mut known = initial;
        let mut on = vec![avatar_on];
        let mut pruned = Vec::new();
        // (act, direction, cases); rounds until the contents are closed under all of them.
        let mut per_dir: Vec<(CaseAct, Dir4, Vec<Case>)> = Vec::new();
        let mut pruned_all: Vec<(String, usize)> = Vec::new();
        for _round in 0..6 {
            let sizes = (known.len(), on.len());
            per_dir.clear();
            pruned_all.clear();
            let acts = self
                .directions
                .iter()
                .map(|&d| (CaseAct::Move, d))
                .chain(self.use_dirs.iter().map(|&d| (CaseAct::Use, d)));
            for (act, d) in acts {
                let cs = self.sim.cases_for(act, d, &mut known, &mut on, &mut pruned);
                per_dir.push((act, d, cs));
                for (k, n) in pruned.drain(..) {
                    match pruned_all
                        .iter_mut()
                        .find(|(k2, _): &&mut (String, usize)| *k2 == k)
                    {
                        Some((_, m)) => *m += n,
                        None => pruned_all.push((k, n)),
                    }
                }
            }
            if (known.len(), on.len()) == sizes {
                break;
            }
        }
        // A case found in every move direction is one action schema over `?d`; the others
        // (direction-dependent interactions, a missile's one direction) are per direction.
        let mut all: Vec<Case> = Vec::new();
        for (act, d, cs) in &per_dir {
            for c in cs {
                let everywhere = self.directions.iter().all(|d2| {
                    per_dir
                        .iter()
                        .any(|(a2, dd, cs2)| a2 == act && dd == d2 && cs2.contains(c))
                });
                let mut c = c.clone();
                if !everywhere {
                    c.dir = Some(*d);
                }
                all.push(c);
            }
        }
        let mut all = split_facings(all);
        all.sort();
        all.dedup();
        let mut warnings = Vec::new();
        if all
            .iter()
            .any(|c| c.dir.is_some() && c.act == CaseAct::Move)
        {
            warnings.push("direction-dependent interactions: some moves are per direction".into());
        }
        for (k, n) in pruned_all {
            if k != "nothing happens" {
                warnings.push(format!("left out {n} action outcome(s): {k}"));
            }
        }
        let a = Arc::new(Analysis {
            cases: all,
            contents: known,
            warnings,
        });
        if let Ok(mut c) = self.cache.lock() {
            if c.len() > 256 {
                c.clear();
            }
            c.insert(key, Arc::clone(&a));
        }
        a
    }

    /// Translates one state of the game.
    pub fn translate(&self, state: &GameState, name: &str) -> Result<Translation, TranslateError> {
        self.translate_avoiding(state, name, false)
    }

    /// Translates one state; with `avoid`, the avatar may not enter a cell next to a frozen
    /// sprite it cannot enter itself (a monster that kills on contact may step there next
    /// tick): a cautious model for replanning, which may have no plan where the plain one has.
    pub fn translate_avoiding(
        &self,
        state: &GameState,
        name: &str,
        avoid: bool,
    ) -> Result<Translation, TranslateError> {
        let desc = &state.rules().desc;
        let snap = self.snapshot(state);
        let av = snap.avatar.ok_or(TranslateError::NoAvatar)?;
        let (cells, w, h) = (snap.cells, snap.w, snap.h);
        let (ax, ay) = (av.x, av.y);
        let mut initial: Vec<Content> = cells.clone();
        initial.sort();
        initial.dedup();
        let an = self.analysis(initial, cells[ay * w + ax].clone());
        // While a used sprite lives, another use would do nothing (singletons) or leave two:
        // not offered.
        let cases: Vec<Case> = an
            .cases
            .iter()
            .filter(|c| !(snap.used_alive && c.act == CaseAct::Use))
            .cloned()
            .collect();
        let cases = &cases;
        let tname = |t: TypeId| format!("{}-at", pddl_name(desc.type_name(t)));
        // Types that occur in some content, and which of them change.
        let mut present: Vec<TypeId> = an.contents.iter().flatten().copied().collect();
        present.sort_unstable();
        present.dedup();
        let mut dynamic: Vec<TypeId> = Vec::new();
        for c in cases {
            for (a, b) in c.pre.iter().zip(&c.post) {
                if let (Some(a), Some(b)) = (a, b) {
                    for &t in a.iter().chain(b) {
                        if a.contains(&t) != b.contains(&t) && !dynamic.contains(&t) {
                            dynamic.push(t);
                        }
                    }
                }
            }
        }
        let mut kept_dynamic = dynamic.clone();
        if let Ok(mut seen) = self.seen_dynamic.lock() {
            for &t in &dynamic {
                if !seen.contains(&t) {
                    seen.push(t);
                }
            }
            kept_dynamic = seen.clone();
        }
        // Cells: those whose content some case can enter or stand on.
        let mut used: Vec<&Content> = Vec::new();
        for c in cases {
            for p in c.pre.iter().flatten() {
                used.push(p);
            }
        }
        // (Cells holding a sprite some case changes stay objects even when blocked, so that
        // the state is described in full; walls are never objects.)
        let cell_ok = |x: usize, y: usize| {
            let c = &cells[y * w + x];
            (x, y) == (ax, ay) || used.contains(&c) || c.iter().any(|t| kept_dynamic.contains(t))
        };
        let cname = |x: usize, y: usize| format!("c{x}_{y}");
        // Counter deltas per case.
        let delta = |c: &Case, ctr: &Counter| -> i64 {
            let mut d = 0i64;
            for (a, b) in c.pre.iter().zip(&c.post) {
                if let (Some(a), Some(b)) = (a, b) {
                    d += b.iter().filter(|t| ctr.types.contains(t)).count() as i64;
                    d -= a.iter().filter(|t| ctr.types.contains(t)).count() as i64;
                }
            }
            d
        };
        let count_now = |ctr: &Counter| -> i64 {
            cells
                .iter()
                .map(|c| c.iter().filter(|t| ctr.types.contains(t)).count() as i64)
                .sum()
        };
        // Counters that matter: win counters, and loss counters some case changes.
        // Types no case ever adds ("consumable"): a win counter over them with limit 0 becomes
        // one `(cleared-X c)` goal per cell that holds one (each must be cleared on its own,
        // which the delete relaxation sees, unlike a counter).
        let added: Vec<TypeId> = cases
            .iter()
            .flat_map(|c| {
                c.pre.iter().zip(&c.post).flat_map(|(a, b)| match (a, b) {
                    (Some(a), Some(b)) => b.iter().filter(|t| !a.contains(t)).copied().collect(),
                    _ => Vec::new(),
                })
            })
            .collect();
        let single_win = self.counters.iter().filter(|c| c.win).count() == 1;
        let cleared: Option<&Counter> = self.counters.iter().find(|c| {
            single_win && c.win && c.limit == 0 && c.types.iter().all(|t| !added.contains(t))
        });
        // A win that needs sprites gone which no modelled action removes cannot be planned:
        // say which (aliens' portals vanish by themselves; boulderdash's exit needs diamonds
        // in the avatar's resources).
        if single_win {
            for ctr in self.counters.iter().filter(|c| c.win && c.limit == 0) {
                let stuck: Vec<&str> = ctr
                    .types
                    .iter()
                    .filter(|&&t| cells.iter().any(|c| c.contains(&t)))
                    .filter(|&&t| {
                        let one = Counter {
                            types: vec![t],
                            ..ctr.clone()
                        };
                        !cases.iter().any(|k| delta(k, &one) < 0)
                    })
                    .map(|&t| desc.type_name(t))
                    .collect();
                if !stuck.is_empty() {
                    let mut why: Vec<String> = an
                        .warnings
                        .iter()
                        .filter(|w| w.contains("unrepresentable"))
                        .cloned()
                        .collect();
                    why.extend(
                        self.warnings
                            .iter()
                            .filter(|w| w.starts_with("frozen"))
                            .cloned(),
                    );
                    let why = if why.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", why.join("; "))
                    };
                    return Err(not_translatable(format!(
                        "the win needs {} gone and no modelled action removes it{why}",
                        stuck.join(", ")
                    )));
                }
            }
        }
        let counters: Vec<&Counter> = self
            .counters
            .iter()
            .filter(|c| cleared.is_none_or(|k| k.name != c.name))
            .filter(|c| c.win || cases.iter().any(|k| delta(k, c) != 0))
            .collect();
        let n_cells = cells.len() as i64;
        let bounds: Vec<i64> = counters
            .iter()
            .map(|ctr| {
                if cases.iter().all(|k| delta(k, ctr) <= 0) {
                    return count_now(ctr);
                }
                // Conservation over the types that turn into counted ones.
                let mut cl: Vec<TypeId> = ctr.types.clone();
                loop {
                    let mut grew = false;
                    for k in cases {
                        for (a, b) in k.pre.iter().zip(&k.post) {
                            if let (Some(a), Some(b)) = (a, b) {
                                let gains = b.iter().any(|t| cl.contains(t) && !a.contains(t));
                                for &t in a {
                                    if gains && !b.contains(&t) && !cl.contains(&t) {
                                        cl.push(t);
                                        grew = true;
                                    }
                                }
                            }
                        }
                    }
                    if !grew {
                        break;
                    }
                }
                let tmp = Counter {
                    types: cl,
                    ..(*ctr).clone()
                };
                if cases.iter().all(|k| delta(k, &tmp) <= 0) {
                    count_now(&tmp)
                } else {
                    n_cells
                }
            })
            .collect();
        let max_n = bounds.iter().copied().max().unwrap_or(0).max(0);
        let clname = |t: TypeId| format!("cleared-{}", pddl_name(desc.type_name(t)));
        // Dead cells for goal types (one win counter with limit 0).
        let cell_list: Vec<(usize, usize)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| cell_ok(x, y))
            .collect();
        let static_types: Vec<TypeId> = present
            .iter()
            .copied()
            .filter(|t| !dynamic.contains(t))
            .collect();
        let mut live: Vec<(TypeId, Vec<bool>)> = Vec::new();
        if self.opts.dead_cells && single_win {
            if let Some(ctr) = counters.iter().find(|c| c.win && c.limit == 0) {
                for &t in &ctr.types {
                    if dynamic.contains(&t) {
                        live.push((
                            t,
                            live_cells(
                                t,
                                cases,
                                &cells,
                                w,
                                h,
                                &cell_ok,
                                &static_types,
                                &self.all_dirs(),
                            ),
                        ));
                    }
                }
            }
        }
        // Danger cells (cautious replanning): next to a frozen sprite the avatar never enters.
        let mut danger: Vec<bool> = vec![false; w * h];
        if avoid {
            let threats: Vec<TypeId> = self
                .frozen
                .iter()
                .copied()
                .filter(|&t| {
                    !cases.iter().any(|c| {
                        c.avatar_to > 0
                            && c.pre[c.avatar_to].as_ref().is_some_and(|p| p.contains(&t))
                    })
                })
                .collect();
            for y in 0..h {
                for x in 0..w {
                    if cells[y * w + x].iter().any(|t| threats.contains(t)) {
                        for d in Dir4::ALL {
                            let (dx, dy) = d.delta();
                            let (nx, ny) = (x as i64 + dx as i64, y as i64 + dy as i64);
                            if nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h {
                                danger[ny as usize * w + nx as usize] = true;
                            }
                        }
                    }
                }
            }
        }
        let any_danger = cell_list.iter().any(|&(x, y)| danger[y * w + x]);
        // ----- domain -----
        let v = |s: &str| Term::Var(s.to_string());
        let atom = |p: &str, args: Vec<Term>| Atom {
            predicate: p.to_string(),
            args,
        };
        let mut predicates = vec![
            PredicateDecl {
                name: "avatar-at".into(),
                params: vec![tn("?c", "cell")],
            },
            PredicateDecl {
                name: "adj".into(),
                params: vec![tn("?d", "dir"), tn("?a", "cell"), tn("?b", "cell")],
            },
        ];
        for &t in &present {
            predicates.push(PredicateDecl {
                name: tname(t),
                params: vec![tn("?c", "cell")],
            });
        }
        if !counters.is_empty() {
            predicates.push(PredicateDecl {
                name: "next".into(),
                params: vec![tn("?a", "num"), tn("?b", "num")],
            });
        }
        for ctr in &counters {
            predicates.push(PredicateDecl {
                name: ctr.name.clone(),
                params: vec![tn("?n", "num")],
            });
            if !ctr.win {
                predicates.push(PredicateDecl {
                    name: format!("safe-{}", ctr.name),
                    params: vec![tn("?n", "num")],
                });
            } else if !single_win || ctr.limit != 0 {
                predicates.push(PredicateDecl {
                    name: format!("within-{}", ctr.name),
                    params: vec![tn("?n", "num")],
                });
            }
        }
        let trname =
            |i: usize| format!("calm-{}", pddl_name(desc.type_name(self.sim.transient[i])));
        for i in 0..self.sim.transient.len() {
            predicates.push(PredicateDecl {
                name: trname(i),
                params: vec![],
            });
        }
        if let Some(k) = cleared {
            for &t in &k.types {
                predicates.push(PredicateDecl {
                    name: clname(t),
                    params: vec![tn("?c", "cell")],
                });
            }
        }
        for (t, _) in &live {
            predicates.push(PredicateDecl {
                name: format!("live-{}", pddl_name(desc.type_name(*t))),
                params: vec![tn("?c", "cell")],
            });
        }
        // The avatar's own state: facing (oriented avatars) and type (several avatar types).
        let oriented = self.sim.oriented;
        let multi_type = self.sim.avatar_types.len() > 1;
        let avname = |t: TypeId| format!("avatar-is-{}", pddl_name(desc.type_name(t)));
        let relname = |r: Rel| match r {
            Rel::Same => "same",
            Rel::Back => "rel-back",
            Rel::Left => "rel-left",
            Rel::Right => "rel-right",
        };
        let fixed_dirs: Vec<Dir4> = {
            let mut v: Vec<Dir4> = cases.iter().filter_map(|c| c.dir).collect();
            v.sort();
            v.dedup();
            v
        };
        if oriented {
            predicates.push(PredicateDecl {
                name: "facing".into(),
                params: vec![tn("?d", "dir")],
            });
            for r in [Rel::Back, Rel::Left, Rel::Right] {
                predicates.push(PredicateDecl {
                    name: relname(r).into(),
                    params: vec![tn("?d", "dir"), tn("?f", "dir")],
                });
            }
        }
        for d in &fixed_dirs {
            predicates.push(PredicateDecl {
                name: format!("is-{}", d.name()),
                params: vec![tn("?d", "dir")],
            });
        }
        if multi_type {
            for &t in &self.sim.avatar_types {
                predicates.push(PredicateDecl {
                    name: avname(t),
                    params: vec![],
                });
            }
        }
        if any_danger {
            predicates.push(PredicateDecl {
                name: "danger".into(),
                params: vec![tn("?c", "cell")],
            });
        }
        let mut actions = Vec::new();
        let mut steps: BTreeMap<String, StepKind> = BTreeMap::new();
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        for c in cases {
            let k = c.pre.len();
            let cv = |i: usize| format!("?c{i}");
            let mut params = vec![tn("?d", "dir")];
            for i in 0..k {
                params.push(tn(&cv(i), "cell"));
            }
            let mut pre: Conjunction = vec![Literal::Pos(atom("avatar-at", vec![v("?c0")]))];
            let mut eff: Vec<PEffect> = Vec::new();
            if let Some(d) = c.dir {
                pre.push(Literal::Pos(atom(
                    &format!("is-{}", d.name()),
                    vec![v("?d")],
                )));
            }
            let mut label: Vec<String> = Vec::new();
            if let Some(t) = c.avatar {
                pre.push(Literal::Pos(atom(&avname(t), vec![])));
                if let Some(t2) = c.avatar_after {
                    eff.push(PEffect::Del(atom(&avname(t), vec![])));
                    eff.push(PEffect::Add(atom(&avname(t2), vec![])));
                    label.push(format!("as-{}", pddl_name(desc.type_name(t2))));
                }
            }
            if let Some(after) = c.facing_after {
                // A facing relative to ?d: ?d itself, or a variable tied to ?d by rel-*.
                let rel_var = |r: Rel,
                               var: &str,
                               params: &mut Vec<TypedName>,
                               pre: &mut Conjunction|
                 -> String {
                    if r == Rel::Same {
                        return "?d".to_string();
                    }
                    params.push(tn(var, "dir"));
                    pre.push(Literal::Pos(atom(relname(r), vec![v("?d"), v(var)])));
                    var.to_string()
                };
                let to = rel_var(after, "?g", &mut params, &mut pre);
                let m = c.facing;
                let others = ALL_FACINGS & !Rel::Same.bit();
                if m == after.bit() {
                    pre.push(Literal::Pos(atom("facing", vec![v(&to)])));
                } else if m == ALL_FACINGS || m == others {
                    params.push(tn("?f", "dir"));
                    pre.push(Literal::Pos(atom("facing", vec![v("?f")])));
                    if m == others {
                        pre.push(Literal::Neg(atom("facing", vec![v("?d")])));
                    }
                    eff.push(PEffect::Del(atom("facing", vec![v("?f")])));
                    eff.push(PEffect::Add(atom("facing", vec![v(&to)])));
                } else if m.count_ones() == 1 {
                    let r = Rel::ALL
                        .into_iter()
                        .find(|r| r.bit() == m)
                        .unwrap_or(Rel::Same);
                    let from = rel_var(r, "?f", &mut params, &mut pre);
                    pre.push(Literal::Pos(atom("facing", vec![v(&from)])));
                    eff.push(PEffect::Del(atom("facing", vec![v(&from)])));
                    eff.push(PEffect::Add(atom("facing", vec![v(&to)])));
                } else {
                    // Split by the caller (see `split_facings`); not reached.
                    continue;
                }
                if m != after.bit()
                    && after == Rel::Same
                    && c.avatar_to == 0
                    && c.act == CaseAct::Move
                {
                    label.push("turn".into());
                }
            }
            for i in 0..k - 1 {
                pre.push(Literal::Pos(atom(
                    "adj",
                    vec![v("?d"), v(&cv(i)), v(&cv(i + 1))],
                )));
            }
            for i in 0..k {
                let (Some(a), Some(b)) = (&c.pre[i], &c.post[i]) else {
                    continue;
                };
                for &t in &present {
                    let lit = atom(&tname(t), vec![v(&cv(i))]);
                    pre.push(if a.contains(&t) {
                        Literal::Pos(lit.clone())
                    } else {
                        Literal::Neg(lit.clone())
                    });
                    if a.contains(&t) && !b.contains(&t) {
                        eff.push(PEffect::Del(lit));
                        if cleared.is_some_and(|k| k.types.contains(&t)) {
                            eff.push(PEffect::Add(atom(&clname(t), vec![v(&cv(i))])));
                        }
                        label.push(format!("{}{i}-gone", pddl_name(desc.type_name(t))));
                    } else if !a.contains(&t) && b.contains(&t) {
                        eff.push(PEffect::Add(lit.clone()));
                        label.push(format!("{}{i}", pddl_name(desc.type_name(t))));
                        if let Some((lt, _)) = live.iter().find(|(lt, _)| *lt == t) {
                            pre.push(Literal::Pos(atom(
                                &format!("live-{}", pddl_name(desc.type_name(*lt))),
                                vec![v(&cv(i))],
                            )));
                        }
                    }
                }
            }
            if c.avatar_to != 0 {
                if any_danger {
                    pre.push(Literal::Neg(atom("danger", vec![v(&cv(c.avatar_to))])));
                }
                eff.push(PEffect::Del(atom("avatar-at", vec![v("?c0")])));
                eff.push(PEffect::Add(atom("avatar-at", vec![v(&cv(c.avatar_to))])));
            }
            for (j, ctr) in counters.iter().enumerate() {
                let dl = delta(c, ctr);
                if dl == 0 {
                    continue;
                }
                let steps = dl.unsigned_abs() as usize;
                let nv = |s: usize| format!("?n{j}_{s}");
                for s in 0..=steps {
                    params.push(tn(&nv(s), "num"));
                }
                pre.push(Literal::Pos(atom(&ctr.name, vec![v(&nv(0))])));
                for s in 0..steps {
                    let (a, b) = if dl > 0 {
                        (nv(s), nv(s + 1))
                    } else {
                        (nv(s + 1), nv(s))
                    };
                    pre.push(Literal::Pos(atom("next", vec![v(&a), v(&b)])));
                }
                if !ctr.win {
                    pre.push(Literal::Pos(atom(
                        &format!("safe-{}", ctr.name),
                        vec![v(&nv(steps))],
                    )));
                }
                eff.push(PEffect::Del(atom(&ctr.name, vec![v(&nv(0))])));
                eff.push(PEffect::Add(atom(&ctr.name, vec![v(&nv(steps))])));
            }
            for (i, &alive) in c.transient.iter().enumerate() {
                let a = atom(&trname(i), vec![]);
                eff.push(if alive {
                    PEffect::Del(a)
                } else {
                    PEffect::Add(a)
                });
            }
            let base = match c.act {
                CaseAct::Use => "use",
                CaseAct::Move if c.avatar_to != 0 => "move",
                CaseAct::Move => "stay",
            };
            if let Some(d) = c.dir {
                label.push(d.name().to_string());
            }
            let mut nm = if label.is_empty() {
                base.to_string()
            } else {
                format!("{base}_{}", label.join("_"))
            };
            let n = names.entry(nm.clone()).or_insert(0);
            *n += 1;
            if *n > 1 {
                nm = format!("{nm}_{n}");
            }
            steps.insert(
                nm.clone(),
                match c.act {
                    CaseAct::Move => StepKind::Move { wait: c.wait },
                    CaseAct::Use => StepKind::Use { wait: c.wait },
                },
            );
            actions.push(PAction {
                name: nm,
                params,
                precondition: Condition::all(pre),
                effects: eff,
                cost: Vec::new(),
            });
        }
        let mut derived = Vec::new();
        if !single_win || counters.iter().any(|c| c.win && c.limit != 0) {
            predicates.push(PredicateDecl {
                name: "won".into(),
                params: vec![],
            });
            for ctr in counters.iter().filter(|c| c.win) {
                let mut cond = vec![
                    Literal::Pos(atom(&ctr.name, vec![v("?n")])),
                    Literal::Pos(atom(&format!("within-{}", ctr.name), vec![v("?n")])),
                ];
                for &i in &ctr.transient {
                    cond.push(Literal::Pos(atom(&trname(i), vec![])));
                }
                derived.push(Derived {
                    head: PredicateDecl {
                        name: "won".into(),
                        params: vec![],
                    },
                    condition: Condition::all(cond),
                });
            }
        }
        let mut requirements = vec![
            ":strips".to_string(),
            ":typing".to_string(),
            ":negative-preconditions".to_string(),
        ];
        if !derived.is_empty() {
            requirements.push(":derived-predicates".into());
        }
        let gname = pddl_name(name);
        let domain = Domain {
            name: gname.clone(),
            requirements,
            types: ["cell", "dir", "num"]
                .iter()
                .map(|t| TypeDecl {
                    name: t.to_string(),
                    parent: "object".into(),
                })
                .collect(),
            constants: vec![],
            predicates,
            functions: vec![],
            derived,
            actions,
        };
        // ----- problem -----
        let g = |p: &str, args: &[&str]| Atom {
            predicate: p.to_string(),
            args: args.iter().map(|a| Term::Object(a.to_string())).collect(),
        };
        let obj_dirs: Vec<Dir4> = if oriented {
            Dir4::ALL.to_vec()
        } else {
            self.all_dirs()
        };
        let mut objects: Vec<TypedName> = obj_dirs.iter().map(|d| tn(d.name(), "dir")).collect();
        let mut init = vec![g("avatar-at", &[&cname(ax, ay)])];
        if oriented {
            init.push(g("facing", &[av.facing.name()]));
            for &d in &obj_dirs {
                for r in [Rel::Back, Rel::Left, Rel::Right] {
                    init.push(g(relname(r), &[d.name(), r.abs(d).name()]));
                }
            }
        }
        for d in &fixed_dirs {
            init.push(g(&format!("is-{}", d.name()), &[d.name()]));
        }
        if multi_type {
            init.push(g(&avname(av.ty), &[]));
        }
        let adj_dirs = self.all_dirs();
        for &(x, y) in &cell_list {
            objects.push(tn(&cname(x, y), "cell"));
            for &t in &cells[y * w + x] {
                if present.contains(&t) {
                    init.push(g(&tname(t), &[&cname(x, y)]));
                }
            }
            for &d in &adj_dirs {
                let (dx, dy) = d.delta();
                let (nx, ny) = (x as i64 + dx as i64, y as i64 + dy as i64);
                if nx >= 0
                    && ny >= 0
                    && (nx as usize) < w
                    && (ny as usize) < h
                    && cell_ok(nx as usize, ny as usize)
                {
                    init.push(g(
                        "adj",
                        &[d.name(), &cname(x, y), &cname(nx as usize, ny as usize)],
                    ));
                }
            }
            if danger[y * w + x] {
                init.push(g("danger", &[&cname(x, y)]));
            }
            for (t, lv) in &live {
                if lv[y * w + x] {
                    init.push(g(
                        &format!("live-{}", pddl_name(desc.type_name(*t))),
                        &[&cname(x, y)],
                    ));
                }
            }
        }
        let num = |n: i64| format!("n{n}");
        if !counters.is_empty() {
            for n in 0..=max_n {
                objects.push(tn(&num(n), "num"));
                if n < max_n {
                    init.push(g("next", &[&num(n), &num(n + 1)]));
                }
            }
        }
        let mut goal: Conjunction = Vec::new();
        for (j, ctr) in counters.iter().enumerate() {
            let now = count_now(ctr).clamp(0, max_n);
            init.push(g(&ctr.name, &[&num(now)]));
            if !ctr.win {
                for n in (ctr.limit as i64 + 1).max(0)..=max_n {
                    init.push(g(&format!("safe-{}", ctr.name), &[&num(n)]));
                }
            } else if !single_win || ctr.limit != 0 {
                for n in 0..=(ctr.limit as i64).min(max_n) {
                    init.push(g(&format!("within-{}", ctr.name), &[&num(n)]));
                }
            } else {
                goal.push(Literal::Pos(g(&ctr.name, &["n0"])));
                for &i in &ctr.transient {
                    goal.push(Literal::Pos(g(&trname(i), &[])));
                }
            }
            let _ = (j, bounds.get(j));
        }
        // A transient sprite alive now expires by itself unless the avatar's cell keeps
        // spawning it: the flag says whether it does.
        let spawning = self.sim.spawns_here(av.ty, &cells[ay * w + ax]);
        for i in 0..self.sim.transient.len() {
            if !spawning.get(i).copied().unwrap_or(false) {
                init.push(g(&trname(i), &[]));
            }
        }
        if let Some(k) = cleared {
            for &(x, y) in &cell_list {
                for &t in &cells[y * w + x] {
                    if k.types.contains(&t) {
                        goal.push(Literal::Pos(g(&clname(t), &[&cname(x, y)])));
                    }
                }
            }
            for &i in &k.transient {
                goal.push(Literal::Pos(g(&trname(i), &[])));
            }
        }
        if goal.is_empty() {
            goal.push(Literal::Pos(g("won", &[])));
        }
        let pad_nil = self
            .sim
            .transient
            .iter()
            .map(|&t| state.rules().props(t).limit.max(0) as usize + 2)
            .max()
            .unwrap_or(0);
        let mut warnings = self.warnings.clone();
        warnings.extend(an.warnings.iter().cloned());
        Ok(Translation {
            problem: Problem {
                name: format!("{gname}-problem"),
                domain: gname,
                objects,
                init,
                values: Vec::new(),
                goal: Condition::all(goal),
                metric: None,
            },
            cases: domain.actions.len(),
            domain,
            steps,
            warnings,
            exact: self.exact,
            pad_nil,
        })
    }
}

/// Cases whose facing mask is not one PDDL condition (one facing, all, or all but `Same`)
/// are split into one case per facing.
fn split_facings(cases: Vec<Case>) -> Vec<Case> {
    let others = ALL_FACINGS & !Rel::Same.bit();
    let mut out = Vec::new();
    for c in cases {
        let m = c.facing;
        let ok = m == 0
            || m.count_ones() == 1
            || (c.facing_after.is_some() && (m == ALL_FACINGS || m == others));
        if ok {
            out.push(c);
        } else {
            for r in Rel::ALL {
                if m & r.bit() != 0 {
                    let mut c2 = c.clone();
                    c2.facing = r.bit();
                    out.push(c2);
                }
            }
        }
    }
    out
}

fn tn(name: &str, ty: &str) -> TypedName {
    TypedName {
        name: name.to_string(),
        ty: ty.to_string(),
    }
}

/// Whether a sprite of leaf type `t` is counted by a termination.
fn counted(term: &crate::gvgai::vgdl::Termination, t: TypeId, rules: &Rules) -> bool {
    let covers = |s: TypeId| rules.props(s).subtypes.contains(&t);
    match &term.kind {
        TerminationKind::SpriteCounter { stype, .. }
        | TerminationKind::SpriteCounterMore { stype, .. }
        | TerminationKind::MultiSpriteCounterSubTypes { stype, .. } => covers(*stype),
        TerminationKind::MultiSpriteCounter { stypes, .. } => stypes.iter().any(|&s| covers(s)),
        TerminationKind::Timeout { .. } => false,
    }
}

/// Cells from which a sprite of type `t` can still be removed (relaxed: other dynamic sprites
/// are assumed out of the way; static contents must match the cases).
#[allow(clippy::too_many_arguments)]
fn live_cells(
    t: TypeId,
    cases: &[Case],
    cells: &[Content],
    w: usize,
    h: usize,
    cell_ok: &dyn Fn(usize, usize) -> bool,
    statics: &[TypeId],
    dirs: &[Dir4],
) -> Vec<bool> {
    let stat =
        |c: &Content| -> Content { c.iter().copied().filter(|x| statics.contains(x)).collect() };
    let mut live = vec![false; w * h];
    // (case, index of t in the chain, removes t?, moves t to index+1?)
    let mut uses: Vec<(&Case, usize, bool)> = Vec::new();
    for c in cases {
        let gone: i64 = c
            .pre
            .iter()
            .zip(&c.post)
            .map(|(a, b)| match (a, b) {
                (Some(a), Some(b)) => a.contains(&t) as i64 - b.contains(&t) as i64,
                _ => 0,
            })
            .sum();
        for i in 1..c.pre.len() {
            let Some(a) = &c.pre[i] else { continue };
            if !a.contains(&t) {
                continue;
            }
            let post_i = c.post[i].as_ref().is_some_and(|b| b.contains(&t));
            if gone > 0 && !post_i {
                uses.push((c, i, true));
            } else if !post_i
                && i + 1 < c.pre.len()
                && c.post[i + 1].as_ref().is_some_and(|b| b.contains(&t))
                && !c.pre[i + 1].as_ref().is_some_and(|b| b.contains(&t))
            {
                uses.push((c, i, false));
            }
        }
    }
    let fits = |c: &Case, i: usize, x: usize, y: usize, d: Dir4| -> Option<(usize, usize)> {
        let (dx, dy) = d.delta();
        let mut next = None;
        for j in 0..c.pre.len() {
            let off = j as i64 - i as i64;
            let cx = x as i64 + off * dx as i64;
            let cy = y as i64 + off * dy as i64;
            if cx < 0 || cy < 0 || cx as usize >= w || cy as usize >= h {
                return None;
            }
            let (cx, cy) = (cx as usize, cy as usize);
            if !cell_ok(cx, cy) {
                return None;
            }
            if let Some(p) = &c.pre[j] {
                if stat(p) != stat(&cells[cy * w + cx]) {
                    return None;
                }
            }
            if j == i + 1 {
                next = Some((cx, cy));
            }
        }
        Some(next.unwrap_or((x, y)))
    };
    loop {
        let mut changed = false;
        for y in 0..h {
            for x in 0..w {
                if live[y * w + x] || !cell_ok(x, y) {
                    continue;
                }
                'found: for &(c, i, removes) in &uses {
                    let ds = c.dir.as_ref().map(std::slice::from_ref).unwrap_or(dirs);
                    for &d in ds {
                        if let Some((nx, ny)) = fits(c, i, x, y, d) {
                            if removes || live[ny * w + nx] {
                                live[y * w + x] = true;
                                changed = true;
                                break 'found;
                            }
                        }
                    }
                }
            }
        }
        if !changed {
            return live;
        }
    }
}

/// Translates `state` (its game and current level) in one call.
pub fn translate(
    state: &GameState,
    name: &str,
    opts: TranslateOptions,
) -> Result<Translation, TranslateError> {
    Translator::new(state, opts)?.translate(state, name)
}

#[cfg(test)]
mod tests;
