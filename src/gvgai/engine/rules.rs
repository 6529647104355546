//! Compiled rules: per-type properties with the GVG-AI class defaults applied, the interaction
//! tables in GVG-AI's evaluation order, and the checks that a description can be run.

use std::path::Path;

use super::EngineError;
use super::scripted::{Scripted, resolve_policies};
use crate::gvgai::vgdl::{Dir, Effect, EffectKind, GameDescription, Other, SpriteClass, TypeId};

/// An avatar action (GVG-AI `Types.ACTIONS` without ESCAPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Nil,
    Up,
    Left,
    Down,
    Right,
    Use,
}

impl Action {
    pub const ALL: [Action; 6] = [
        Action::Nil,
        Action::Up,
        Action::Left,
        Action::Down,
        Action::Right,
        Action::Use,
    ];

    /// `U D L R N S` (S = use), as in `tablero gvgai replay --actions`.
    pub fn from_char(c: char) -> Option<Action> {
        Some(match c.to_ascii_uppercase() {
            'U' => Action::Up,
            'D' => Action::Down,
            'L' => Action::Left,
            'R' => Action::Right,
            'N' => Action::Nil,
            'S' => Action::Use,
            _ => return None,
        })
    }

    pub fn to_char(self) -> char {
        match self {
            Action::Nil => 'N',
            Action::Up => 'U',
            Action::Left => 'L',
            Action::Down => 'D',
            Action::Right => 'R',
            Action::Use => 'S',
        }
    }

    /// The GVG-AI name, e.g. `ACTION_UP`.
    pub fn gvgai_name(self) -> &'static str {
        match self {
            Action::Nil => "ACTION_NIL",
            Action::Up => "ACTION_UP",
            Action::Left => "ACTION_LEFT",
            Action::Down => "ACTION_DOWN",
            Action::Right => "ACTION_RIGHT",
            Action::Use => "ACTION_USE",
        }
    }

    pub fn direction(self) -> Dir {
        match self {
            Action::Up => Dir::UP,
            Action::Down => Dir::DOWN,
            Action::Left => Dir::LEFT,
            Action::Right => Dir::RIGHT,
            Action::Nil | Action::Use => Dir::NONE,
        }
    }
}

/// Per-type properties after class defaults (GVG-AI `loadDefaults` + parameters + `postProcess`).
#[derive(Debug, Clone)]
pub struct TypeProps {
    pub class: Option<SpriteClass>,
    pub speed: f64,
    pub cooldown: i32,
    pub is_static: bool,
    pub is_oriented: bool,
    pub orientation: Dir,
    pub rotate_in_place: bool,
    pub is_avatar: bool,
    pub is_resource: bool,
    pub limit: i32,
    pub value: i32,
    pub prob: f64,
    pub total: i32,
    pub cons: i32,
    pub stype: Vec<TypeId>,
    pub stype1: Vec<TypeId>,
    pub stype2: Vec<TypeId>,
    pub ammo: Vec<TypeId>,
    pub min_ammo: i32,
    pub ammo_cost: i32,
    pub health: i32,
    pub max_health: i32,
    pub limit_health: i32,
    pub spread_prob: f64,
    pub epsilon: f64,
    pub max_distance: f64,
    pub spawn_orientation: Dir,
    pub fleeing: bool,
    /// Actions the avatar accepts, in GVG-AI order (without NIL).
    pub actions: Vec<Action>,
    /// Ancestors then self.
    pub itypes: Vec<TypeId>,
    pub subtypes: Vec<TypeId>,
    pub singleton: bool,
    /// Static and without behaviour (Immovable, Door, Portal): its update does nothing.
    pub inert: bool,
    pub is_npc: bool,
    /// OngoingTurningAvatar's trail type (GVG-AI defaults to type 0 when unset).
    pub spawn_behind: TypeId,
    pub stype_missile: Vec<TypeId>,
    pub stypes: Vec<TypeId>,
    /// `timeToLive` (-1: forever).
    pub time_to_live: i32,
    /// PathAltChaser `randomTarget`: pick a random target instead of the nearest.
    pub random_target: bool,
    /// GVG-AI `portal` flag (Door, Portal, or `portal=True`): observation category only.
    pub portal: bool,
    /// EvolvedNPC: the resolved policy and what the NPC sees as walls (set by `Rules`).
    pub scripted: Option<Scripted>,
    /// Continuous physics (`physicstype=CONT`, [`super::state`]'s `continuous` module).
    pub continuous: bool,
    pub friction: f64,
    pub gravity: f64,
    pub mass: f64,
    pub max_speed: f64,
    /// Width and height in cells (`wMult`, `hMult`).
    pub w_mult: f64,
    pub h_mult: f64,
    /// Steered avatars: radians turned per LEFT/RIGHT (`angle_diff`).
    pub angle_diff: f64,
    /// Upward force of a jump or flap (`jump_strength`).
    pub jump_strength: f64,
    /// GVG-AI `stationary`: grid moves of the sprite do nothing (AimedAvatar).
    pub stationary: bool,
    /// `solid=True`: ground for the sprites that check for it.
    pub solid: bool,
    /// The sprite checks for solid ground under it at each collision test (GVG-AI
    /// `groundIntersects`: PlatformerAvatar).
    pub checks_ground: bool,
}

/// The properties a class sets before the sprite's own parameters (GVG-AI `loadDefaults`).
#[derive(Debug, Clone)]
struct ClassDefaults {
    speed: f64,
    is_static: bool,
    is_oriented: bool,
    orientation: Dir,
    rotate_in_place: bool,
    limit: i32,
    value: i32,
    prob: f64,
    cooldown: i32,
    actions: Vec<Action>,
    fleeing: bool,
    angle_diff: f64,
    jump_strength: f64,
    max_speed: f64,
}

/// The four moves, in GVG-AI's action order.
const MOVES: [Action; 4] = [Action::Left, Action::Right, Action::Down, Action::Up];
/// Shooting and the four moves, in GVG-AI's action order.
const SHOOT_MOVES: [Action; 5] = [
    Action::Use,
    Action::Left,
    Action::Right,
    Action::Down,
    Action::Up,
];
/// ShootOnlyAvatar's actions: the index of each is the index of the stype it fires.
pub(crate) const SHOOT_ONLY: [Action; 5] = [
    Action::Left,
    Action::Up,
    Action::Right,
    Action::Down,
    Action::Use,
];

impl Default for ClassDefaults {
    fn default() -> Self {
        ClassDefaults {
            speed: 0.0,
            is_static: false,
            is_oriented: false,
            orientation: Dir::NONE,
            rotate_in_place: false,
            limit: 0,
            value: 0,
            prob: 0.0,
            cooldown: 0,
            actions: Vec::new(),
            fleeing: false,
            angle_diff: 0.0,
            jump_strength: 0.0,
            max_speed: -1.0,
        }
    }
}

impl ClassDefaults {
    /// A sprite that moves on its own.
    fn moving() -> Self {
        ClassDefaults {
            speed: 1.0,
            ..ClassDefaults::default()
        }
    }

    /// A moving sprite that has an orientation.
    fn oriented_moving() -> Self {
        ClassDefaults {
            is_oriented: true,
            ..ClassDefaults::moving()
        }
    }

    /// An avatar that takes `actions`.
    fn avatar(actions: &[Action]) -> Self {
        ClassDefaults {
            actions: actions.to_vec(),
            ..ClassDefaults::moving()
        }
    }

    /// An avatar that faces right at first and turns in place.
    fn oriented_avatar(actions: &[Action]) -> Self {
        ClassDefaults {
            orientation: Dir::RIGHT,
            is_oriented: true,
            rotate_in_place: true,
            ..ClassDefaults::avatar(actions)
        }
    }

    /// A sprite that spawns every tick.
    fn spawner() -> Self {
        ClassDefaults {
            prob: 1.0,
            cooldown: 1,
            ..ClassDefaults::default()
        }
    }

    /// A spawner that faces right.
    fn oriented_spawner() -> Self {
        ClassDefaults {
            is_oriented: true,
            orientation: Dir::RIGHT,
            ..ClassDefaults::spawner()
        }
    }

    fn of(class: SpriteClass) -> Self {
        use SpriteClass as C;
        let d = ClassDefaults::default();
        match class {
            C::Immovable | C::Door | C::Portal => ClassDefaults {
                is_static: true,
                ..d
            },
            C::Passive => d,
            C::Resource => ClassDefaults {
                limit: 2,
                value: 1,
                ..d
            },
            C::Conveyor => ClassDefaults {
                is_static: true,
                is_oriented: true,
                ..d
            },
            C::Flicker | C::Spreader => ClassDefaults { limit: 1, ..d },
            C::OrientedFlicker => ClassDefaults {
                limit: 1,
                is_oriented: true,
                ..d
            },
            C::Missile | C::EvolvedNPC => ClassDefaults::oriented_moving(),
            C::RandomMissile => ClassDefaults {
                orientation: Dir::NIL,
                ..ClassDefaults::oriented_moving()
            },
            C::RandomNPC
            | C::PathChaser
            | C::LOSChaser
            | C::Chaser
            | C::AlternateChaser
            | C::RandomAltChaser
            | C::PathAltChaser
            | C::RandomPathAltChaser => ClassDefaults::moving(),
            C::RandomInertial => ClassDefaults {
                is_oriented: true,
                ..ClassDefaults::moving()
            },
            C::Fleeing => ClassDefaults {
                fleeing: true,
                ..ClassDefaults::moving()
            },
            C::SpawnPoint => ClassDefaults {
                is_static: true,
                ..ClassDefaults::spawner()
            },
            C::SpawnPointMultiSprite => ClassDefaults {
                is_static: true,
                ..ClassDefaults::oriented_spawner()
            },
            C::Bomber | C::BomberRandomMissile => ClassDefaults::oriented_spawner(),
            C::RandomBomber => ClassDefaults {
                speed: 1.0,
                ..ClassDefaults::oriented_spawner()
            },
            C::MovingAvatar
            | C::HorizontalAvatar
            | C::NullAvatar
            | C::VerticalAvatar
            | C::FlakAvatar
            | C::OrientedAvatar
            | C::MissileAvatar
            | C::OngoingAvatar
            | C::OngoingTurningAvatar
            | C::ShootAvatar
            | C::OngoingShootAvatar
            | C::ShootOnlyAvatar
            | C::LanderAvatar
            | C::SpaceshipAvatar
            | C::CarAvatar
            | C::AimedAvatar
            | C::PlatformerAvatar
            | C::WizardAvatar
            | C::BirdAvatar => ClassDefaults::of_avatar(class),
            C::Walker => ClassDefaults {
                speed: 5.0,
                max_speed: 5.0,
                is_oriented: true,
                ..d
            },
            C::WalkerJumper => ClassDefaults {
                speed: 5.0,
                max_speed: 5.0,
                jump_strength: 1.0,
                is_oriented: true,
                ..d
            },
        }
    }

    /// The defaults of an avatar class (MovingAvatar's for a class that is not one).
    fn of_avatar(class: SpriteClass) -> Self {
        use SpriteClass as C;
        match class {
            C::HorizontalAvatar => ClassDefaults::avatar(&[Action::Left, Action::Right]),
            C::NullAvatar => ClassDefaults::avatar(&[Action::Nil]),
            C::VerticalAvatar => ClassDefaults::avatar(&[Action::Up, Action::Down]),
            C::FlakAvatar => ClassDefaults::avatar(&[Action::Use, Action::Left, Action::Right]),
            C::OrientedAvatar | C::MissileAvatar | C::OngoingAvatar | C::OngoingTurningAvatar => {
                ClassDefaults::oriented_avatar(&MOVES)
            }
            C::ShootAvatar | C::OngoingShootAvatar => ClassDefaults::oriented_avatar(&SHOOT_MOVES),
            C::ShootOnlyAvatar => ClassDefaults::oriented_avatar(&SHOOT_ONLY),
            C::LanderAvatar | C::SpaceshipAvatar => {
                let actions: &[Action] = if class == C::LanderAvatar {
                    &MOVES
                } else {
                    &SHOOT_MOVES
                };
                ClassDefaults {
                    speed: 5.0,
                    orientation: Dir::NONE,
                    angle_diff: 0.3,
                    ..ClassDefaults::oriented_avatar(actions)
                }
            }
            C::CarAvatar => ClassDefaults {
                speed: 0.0,
                angle_diff: 0.15,
                ..ClassDefaults::oriented_avatar(&MOVES)
            },
            C::AimedAvatar => ClassDefaults {
                speed: 0.0,
                angle_diff: 0.15,
                ..ClassDefaults::oriented_avatar(&[Action::Use, Action::Down, Action::Up])
            },
            C::PlatformerAvatar => ClassDefaults {
                jump_strength: 10.0,
                max_speed: 30.0,
                ..ClassDefaults::avatar(&[Action::Left, Action::Right, Action::Use])
            },
            C::WizardAvatar => ClassDefaults {
                speed: 0.0,
                jump_strength: 10.0,
                max_speed: 30.0,
                ..ClassDefaults::avatar(&[Action::Left, Action::Right, Action::Use, Action::Up])
            },
            C::BirdAvatar => ClassDefaults {
                jump_strength: 10.0,
                ..ClassDefaults::oriented_avatar(&[Action::Use])
            },
            _ => ClassDefaults::avatar(&MOVES),
        }
    }
}

/// Classes whose sprites GVG-AI counts as NPCs.
fn is_npc_class(class: Option<SpriteClass>) -> bool {
    use SpriteClass as C;
    matches!(
        class,
        Some(
            C::RandomNPC
                | C::RandomInertial
                | C::PathChaser
                | C::LOSChaser
                | C::SpawnPointMultiSprite
                | C::Chaser
                | C::Fleeing
                | C::AlternateChaser
                | C::RandomAltChaser
                | C::PathAltChaser
                | C::RandomPathAltChaser
                | C::Bomber
                | C::RandomBomber
                | C::BomberRandomMissile
                | C::EvolvedNPC
        )
    )
}

fn props_for(desc: &GameDescription, t: usize) -> TypeProps {
    use SpriteClass as C;
    let ty = &desc.types[t];
    let class = ty.class;
    let p = &ty.params;
    let d = class.map(ClassDefaults::of).unwrap_or_default();
    let orientation = p.orientation.unwrap_or(d.orientation);
    let health = p.health_points.unwrap_or(0);
    let mut max_health = p.max_health_points.unwrap_or(0);
    if max_health == 0 {
        max_health = health;
    }
    TypeProps {
        class,
        speed: p.speed.unwrap_or(d.speed),
        cooldown: p.cooldown.unwrap_or(d.cooldown).max(1),
        is_static: p.is_static.unwrap_or(d.is_static),
        is_oriented: d.is_oriented || !orientation.is_none(),
        orientation,
        rotate_in_place: p.rotate_in_place.unwrap_or(d.rotate_in_place),
        is_avatar: class.is_some_and(SpriteClass::is_avatar),
        is_resource: class == Some(C::Resource),
        limit: p.limit.unwrap_or(d.limit),
        value: p.value.unwrap_or(d.value),
        prob: p.prob.unwrap_or(d.prob),
        total: p.total.unwrap_or(0),
        cons: p.cons.unwrap_or(0),
        stype: p.stype.clone().unwrap_or_default(),
        stype1: p.stype1.clone().unwrap_or_default(),
        stype2: p.stype2.clone().unwrap_or_default(),
        ammo: p.ammo.clone().unwrap_or_default(),
        min_ammo: p.min_ammo.unwrap_or(-1),
        ammo_cost: p.ammo_cost.unwrap_or(1),
        health: health.min(max_health),
        max_health,
        limit_health: p.limit_health_points.unwrap_or(1000),
        spread_prob: p.spread_prob.unwrap_or(1.0),
        epsilon: p.epsilon.unwrap_or(0.0),
        max_distance: p.max_distance.unwrap_or(-1.0),
        spawn_orientation: p.spawn_orientation.unwrap_or(Dir::NONE),
        fleeing: d.fleeing,
        actions: d.actions,
        itypes: ty.itypes.clone(),
        subtypes: ty.subtypes.clone(),
        singleton: ty.singleton,
        inert: matches!(class, Some(C::Immovable | C::Door | C::Portal))
            && p.time_to_live.is_none(),
        spawn_behind: p
            .spawn_behind
            .as_ref()
            .and_then(|v| v.first().copied())
            .unwrap_or(0),
        stype_missile: p.stype_missile.clone().unwrap_or_default(),
        stypes: p.stypes.clone().unwrap_or_default(),
        time_to_live: p.time_to_live.unwrap_or(-1),
        random_target: p.random_target.unwrap_or(false),
        is_npc: is_npc_class(class),
        portal: p
            .portal
            .unwrap_or(matches!(class, Some(C::Door | C::Portal))),
        scripted: None,
        continuous: p.continuous.unwrap_or(class == Some(C::RandomInertial)),
        friction: p.friction.unwrap_or(0.0),
        gravity: p.gravity.unwrap_or(0.0),
        mass: p.mass.unwrap_or(1.0),
        max_speed: p.max_speed.unwrap_or(d.max_speed),
        w_mult: p.w_mult.unwrap_or(1.0),
        h_mult: p.h_mult.unwrap_or(1.0),
        angle_diff: p.angle_diff.unwrap_or(d.angle_diff),
        jump_strength: p.jump_strength.unwrap_or(d.jump_strength),
        stationary: class == Some(C::AimedAvatar),
        solid: p.solid.unwrap_or(false),
        checks_ground: matches!(
            class,
            Some(C::PlatformerAvatar | C::WizardAvatar | C::Walker | C::WalkerJumper)
        ),
    }
}

/// A game description compiled for the engine. Immutable and shared (`Arc`) between states.
#[derive(Debug, Clone)]
pub struct Rules {
    pub desc: GameDescription,
    pub props: Vec<TypeProps>,
    /// Top-level effects (one per interaction line × right-hand type, repeats expanded).
    pub effects: Vec<Effect>,
    /// Sprite pairs in order of first declaration, with their effects in declaration order.
    pub pairs: Vec<(TypeId, TypeId, Vec<usize>)>,
    /// Types with EOS effects, one entry per EOS interaction (GVG-AI keeps duplicates).
    pub eos_types: Vec<TypeId>,
    /// EOS effects per type.
    pub eos_effects: Vec<Vec<usize>>,
    /// Resource capacity per resource type (`limit` of `Resource` sprites, 0 otherwise).
    pub resource_limit: Vec<i32>,
    /// Native timed effects in declaration order: (sprite type, effect, timer, repeating,
    /// planned).
    pub native_timers: Vec<(TypeId, usize, i32, bool, bool)>,
    /// Sprites beyond which no more are created: GVG-AI's [`super::state::MAX_SPRITES`]
    /// unless lowered (spawning cascades among overlapping sprites cost the square of their
    /// number in a cycle, so a fuzzer or a sandbox may want fewer).
    pub max_sprites: usize,
    /// Largest level, in cells, for which path chasers get GVG-AI's all-pairs path table
    /// ([`super::state::MAX_PATH_CELLS`] unless lowered: a full table costs the square of the
    /// level's cells in time and memory, about 0.5 s and 32 MiB at 64 × 64); on larger levels
    /// they stand still.
    pub max_path_cells: usize,
    /// Some sprite type is not one cell square (`wMult`/`hMult`): collisions take each
    /// sprite's own rectangle.
    pub sized: bool,
}

fn check_target(
    desc: &GameDescription,
    t: TypeId,
    line: usize,
    what: &str,
) -> Result<(), EngineError> {
    if desc
        .types
        .get(usize::from(t))
        .and_then(|ty| ty.class)
        .is_none()
    {
        return Err(EngineError::Invalid {
            message: format!(
                "line {line}: {what} \"{}\" has no sprite class",
                desc.type_name(t)
            ),
        });
    }
    Ok(())
}

fn check_effect(desc: &GameDescription, e: &Effect) -> Result<(), EngineError> {
    use EffectKind as E;
    match &e.kind {
        E::TransformTo { stype, .. } | E::Spawn { stype } | E::SpawnIfHasMore { stype, .. } => {
            check_target(desc, *stype, e.line, "created sprite")
        }
        E::TransformToAll { stype_to, .. } => {
            check_target(desc, *stype_to, e.line, "created sprite")
        }
        E::AddTimer { delegate, .. } => check_effect(desc, delegate),
        _ => Ok(()),
    }
}

impl Rules {
    /// Compile a description; `EvolvedNPC policy=FILE` paths are resolved against the
    /// current directory (use [`Rules::new_in`] for a game read from a file).
    pub fn new(desc: GameDescription) -> Result<Rules, EngineError> {
        Rules::new_in(desc, None)
    }

    /// Compile a description whose `EvolvedNPC policy=FILE` paths are relative to `base`
    /// (the directory of the game file).
    pub fn new_in(desc: GameDescription, base: Option<&Path>) -> Result<Rules, EngineError> {
        let n = desc.types.len();
        let mut props: Vec<TypeProps> = (0..n).map(|t| props_for(&desc, t)).collect();
        check_required_types(&desc, &props)?;
        let mut effects = Vec::new();
        let mut pairs: Vec<(TypeId, TypeId, Vec<usize>)> = Vec::new();
        resolve_policies(&desc, &mut props, base)?;
        let mut eos_types = Vec::new();
        let mut eos_effects = vec![Vec::new(); n];
        let mut native_timers = Vec::new();
        for it in &desc.interactions {
            check_effect(&desc, &it.effect)?;
            let idx = effects.len();
            effects.push(it.effect.clone());
            match it.other {
                Other::Sprite(b) => {
                    let pos = match pairs.iter().position(|(x, y, _)| *x == it.first && *y == b) {
                        Some(p) => p,
                        None => {
                            pairs.push((it.first, b, Vec::new()));
                            pairs.len() - 1
                        }
                    };
                    for _ in 0..it.effect.repeat {
                        pairs[pos].2.push(idx);
                    }
                }
                Other::Eos => {
                    eos_types.push(it.first);
                    eos_effects[usize::from(it.first)].push(idx);
                }
                Other::Time {
                    timer,
                    repeating,
                    planned,
                } => {
                    native_timers.push((it.first, idx, timer, repeating, planned));
                }
            }
        }
        let resource_limit = props
            .iter()
            .map(|p| if p.is_resource { p.limit } else { 0 })
            .collect();
        let sized = props.iter().any(|p| p.w_mult != 1.0 || p.h_mult != 1.0);
        Ok(Rules {
            desc,
            props,
            effects,
            pairs,
            eos_types,
            eos_effects,
            resource_limit,
            native_timers,
            max_sprites: super::state::MAX_SPRITES,
            max_path_cells: super::state::MAX_PATH_CELLS,
            sized,
        })
    }

    pub fn props(&self, t: TypeId) -> &TypeProps {
        &self.props[usize::from(t)]
    }
}

/// Every leaf type of a class that needs `stype=` (spawners, shooters, chasers, portals) or
/// `stype1=` (the alternating chasers) has it.
fn check_required_types(desc: &GameDescription, props: &[TypeProps]) -> Result<(), EngineError> {
    for (t, p) in props.iter().enumerate() {
        let needs_stype = matches!(
            p.class,
            Some(
                SpriteClass::SpawnPoint
                    | SpriteClass::Bomber
                    | SpriteClass::RandomBomber
                    | SpriteClass::ShootAvatar
                    | SpriteClass::ShootOnlyAvatar
                    | SpriteClass::OngoingShootAvatar
                    | SpriteClass::FlakAvatar
                    | SpriteClass::Chaser
                    | SpriteClass::LOSChaser
                    | SpriteClass::Fleeing
                    | SpriteClass::Portal
            )
        );
        let is_leaf = desc.types[t].children.is_empty();
        if needs_stype && is_leaf && p.stype.is_empty() {
            return Err(EngineError::Invalid {
                message: format!(
                    "line {}: sprite \"{}\" ({:?}) needs stype=",
                    desc.types[t].line, desc.types[t].name, p.class
                ),
            });
        }
        let alt = matches!(
            p.class,
            Some(
                SpriteClass::AlternateChaser
                    | SpriteClass::RandomAltChaser
                    | SpriteClass::PathAltChaser
                    | SpriteClass::RandomPathAltChaser
            )
        );
        if alt && is_leaf && p.stype1.is_empty() {
            return Err(EngineError::Invalid {
                message: format!(
                    "line {}: sprite \"{}\" needs stype1=",
                    desc.types[t].line, desc.types[t].name
                ),
            });
        }
    }
    Ok(())
}
