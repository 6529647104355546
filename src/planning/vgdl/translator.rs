//! The game-level analysis, reusable across states of one game: [`Translator::new`] checks
//! the avatar, finds its moves and uses, the sprites that are relevant, frozen or transient,
//! and the counters of the terminations; [`Translator::translate_avoiding`] puts the per-state
//! steps together into a [`Translation`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::gvgai::engine::{Action, GameState, Rules, TypeProps};
use crate::gvgai::vgdl::{EffectKind, GameDescription, Interaction, Other, SpriteClass, TypeId};
use crate::planning::pddl::{Condition, Problem};

use super::analysis::Analysis;
use super::cases::{Content, Dir4, Simulator};
use super::counters::{Counter, counted, game_counters};
use super::model::StateModel;
use super::names::pddl_name;
use super::warps::portal_types;
use super::{TranslateError, TranslateOptions, Translation, not_translatable};

/// Game-level analysis, reusable across states of one game (the controller replans with it).
pub struct Translator {
    pub(super) sim: Simulator,
    pub(super) counters: Vec<Counter>,
    /// Directions the avatar moves in.
    pub(super) directions: Vec<Dir4>,
    /// Self-moving types frozen in place (snapshot mode).
    pub(super) frozen: Vec<TypeId>,
    /// Chain directions of ACTION_USE (the facings of an oriented avatar, or the direction a
    /// non-oriented avatar's missile flies in); empty when `use` is not modelled.
    pub(super) use_dirs: Vec<Dir4>,
    pub(super) opts: TranslateOptions,
    exact: bool,
    pub(super) warnings: Vec<String>,
    pub(super) cache: Mutex<HashMap<Vec<Content>, Arc<Analysis>>>,
    /// Types some case changed in any state translated so far (their cells stay objects, so
    /// translations of later states describe the same facts).
    pub(super) seen_dynamic: Mutex<Vec<TypeId>>,
    /// Leaf types that teleport the avatar to a sprite of their `stype` (see `warps`).
    pub(super) portals: Vec<TypeId>,
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
        check_avatar_class(ap, &aclass)?;
        let avatar_types = avatar_types(rules, avatar)?;
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
        let (use_spawn, use_dirs) = use_model(rules, ap, oriented, &aclass, &mut warnings);
        check_interactions(desc, &opts)?;
        let frozen = frozen_types(state, &opts)?;
        let (transient, relevant) = sprite_roles(rules, &use_spawn, &frozen);
        let counters = game_counters(rules, &transient, &mut warnings)?;
        if !counters.iter().any(|c| c.win) {
            return Err(not_translatable("a game without a countable win condition"));
        }
        let sim_rules = sim_rules(rules, &frozen)?;
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
                warps: Vec::new(),
            },
            portals: portal_types(rules),
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
    pub(super) fn all_dirs(&self) -> Vec<Dir4> {
        Dir4::ALL
            .into_iter()
            .filter(|d| self.directions.contains(d) || self.use_dirs.contains(d))
            .collect()
    }

    /// Whether the model is exact (no sprite frozen): plans then win as predicted.
    pub fn exact(&self) -> bool {
        self.exact
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
        let model = StateModel::new(self, state, avoid)?;
        let gname = pddl_name(name);
        let (domain, steps) = model.domain(&gname);
        let (objects, init, goal) = model.problem();
        let pad_nil = self
            .sim
            .transient
            .iter()
            .map(|&t| state.rules().props(t).limit.max(0) as usize + 2)
            .max()
            .unwrap_or(0);
        let mut warnings = self.warnings.clone();
        warnings.extend(model.an.warnings.iter().cloned());
        warnings.extend(model.warnings.iter().cloned());
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

/// The avatar classes the translation models.
fn check_avatar_class(ap: &TypeProps, aclass: &str) -> Result<(), TranslateError> {
    match ap.class {
        Some(
            SpriteClass::MovingAvatar
            | SpriteClass::HorizontalAvatar
            | SpriteClass::VerticalAvatar
            | SpriteClass::OrientedAvatar
            | SpriteClass::ShootAvatar
            | SpriteClass::FlakAvatar,
        ) => Ok(()),
        _ => Err(not_translatable(format!("avatar class {aclass}"))),
    }
}

/// Leaf avatar types (transformTo may change the avatar's type), the level's `avatar` first;
/// all of its class, moving one cell per tick.
fn avatar_types(rules: &Rules, avatar: TypeId) -> Result<Vec<TypeId>, TranslateError> {
    let desc = &rules.desc;
    let ap = rules.props(avatar);
    let mut avatar_types = vec![avatar];
    for t in 0..desc.types.len() as TypeId {
        if t != avatar && rules.props(t).is_avatar && desc.types[usize::from(t)].children.is_empty()
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
    Ok(avatar_types)
}

/// ACTION_USE: the sprites it spawns and the chain directions (both empty, with a warning,
/// when it is not modelled).
fn use_model(
    rules: &Rules,
    ap: &TypeProps,
    oriented: bool,
    aclass: &str,
    warnings: &mut Vec<String>,
) -> (Vec<TypeId>, Vec<Dir4>) {
    if !ap.actions.contains(&Action::Use) {
        return (Vec::new(), Vec::new());
    }
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
        return (spawned, Dir4::ALL.to_vec());
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
            Some(d) if fly.iter().all(|&f| f == Some(d)) => return (spawned, vec![d]),
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
    (Vec::new(), Vec::new())
}

/// Timed and orientation-dependent effects are refused, and random ones unless sprites may
/// be frozen.
fn check_interactions(
    desc: &GameDescription,
    opts: &TranslateOptions,
) -> Result<(), TranslateError> {
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
    Ok(())
}

/// Self-moving sprites present: frozen in snapshot mode, refused otherwise.
fn frozen_types(state: &GameState, opts: &TranslateOptions) -> Result<Vec<TypeId>, TranslateError> {
    let rules = state.rules();
    let desc = &rules.desc;
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
    Ok(frozen)
}

/// Whether interaction `i` can do nothing in the model: a `stepBack` of sprites that are all
/// frozen and moved by no effect (they never leave their cell, so there is nothing to undo).
fn is_void(rules: &Rules, i: &Interaction, frozen: &[TypeId]) -> bool {
    let desc = &rules.desc;
    let moved_by_effect = |t: TypeId| {
        let it = &rules.props(t).itypes;
        desc.interactions.iter().any(|j| {
            it.contains(&j.first)
                && !matches!(
                    j.effect.kind,
                    EffectKind::StepBack { .. }
                        | EffectKind::KillSprite
                        | EffectKind::SubtractHealthPoints { .. }
                        | EffectKind::AddHealthPoints { .. }
                )
        })
    };
    let leaves: Vec<TypeId> = rules
        .props(i.first)
        .subtypes
        .iter()
        .copied()
        .filter(|&t| desc.types[usize::from(t)].children.is_empty())
        .collect();
    matches!(i.effect.kind, EffectKind::StepBack { .. })
        && !leaves.is_empty()
        && leaves
            .iter()
            .all(|t| frozen.contains(t) && !moved_by_effect(*t))
}

/// The transient types (Flickers without interactions of their own) and the relevant ones
/// (in some interaction that can act, or counted by some termination), sorted.
fn sprite_roles(
    rules: &Rules,
    use_spawn: &[TypeId],
    frozen: &[TypeId],
) -> (Vec<TypeId>, Vec<TypeId>) {
    let desc = &rules.desc;
    let in_rule = |t: TypeId| {
        let it = &rules.props(t).itypes;
        desc.interactions.iter().any(|i| {
            !is_void(rules, i, frozen)
                && (it.contains(&i.first) || matches!(i.other, Other::Sprite(o) if it.contains(&o)))
        })
    };
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
    (transient, relevant)
}

/// The simulation rules: frozen types become Passive.
fn sim_rules(rules: &Arc<Rules>, frozen: &[TypeId]) -> Result<Arc<Rules>, TranslateError> {
    if frozen.is_empty() {
        return Ok(Arc::clone(rules));
    }
    let mut d = rules.desc.clone();
    for &t in frozen {
        d.types[usize::from(t)].class = Some(SpriteClass::Passive);
    }
    Ok(Arc::new(
        Rules::new(d).map_err(|e| not_translatable(e.to_string()))?,
    ))
}
