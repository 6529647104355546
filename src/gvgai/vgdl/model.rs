//! The typed model of a VGDL game description: sprite types (with their resolved class and
//! parameters), level mapping, interactions (effects with typed parameters) and terminations.
//!
//! Type ids (`TypeId`) follow GVG-AI's registration order: `wall` = 0 and `avatar` = 1 are
//! pre-registered, then every SpriteSet identifier in declaration order, parents included.

use std::fmt;

/// Index of a sprite type in [`GameDescription::types`] (GVG-AI's `itype`).
pub type TypeId = u16;

/// The pre-registered id of `wall`.
pub const WALL: TypeId = 0;
/// The pre-registered id of `avatar`.
pub const AVATAR: TypeId = 1;

/// A grid direction (GVG-AI `Direction`): unit vectors for the four base directions, `(0, 0)`
/// for none. Components are `f64` because GVG-AI normalises arbitrary movement vectors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dir {
    pub x: f64,
    pub y: f64,
}

impl Dir {
    pub const NONE: Dir = Dir { x: 0.0, y: 0.0 };
    pub const UP: Dir = Dir { x: 0.0, y: -1.0 };
    pub const DOWN: Dir = Dir { x: 0.0, y: 1.0 };
    pub const LEFT: Dir = Dir { x: -1.0, y: 0.0 };
    pub const RIGHT: Dir = Dir { x: 1.0, y: 0.0 };
    /// GVG-AI `DNIL` (-1, -1): "not chosen yet" (RandomMissile).
    pub const NIL: Dir = Dir { x: -1.0, y: -1.0 };
    /// GVG-AI's `DBASEDIRS` order, used by random choices.
    pub const BASE: [Dir; 4] = [Dir::UP, Dir::LEFT, Dir::DOWN, Dir::RIGHT];

    pub fn is_none(self) -> bool {
        self.x == 0.0 && self.y == 0.0
    }

    /// Vector normalisation as in GVG-AI's `Vector2d.normalise` (zero stays zero).
    pub fn normalised(self) -> Dir {
        let mag = (self.x * self.x + self.y * self.y).sqrt();
        if mag == 0.0 {
            self
        } else {
            Dir {
                x: self.x / mag,
                y: self.y / mag,
            }
        }
    }

    pub fn reversed(self) -> Dir {
        Dir {
            x: -self.x,
            y: -self.y,
        }
    }
}

/// Sprite classes supported by the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpriteClass {
    Immovable,
    Passive,
    Door,
    Resource,
    /// A static sprite with an orientation.
    Conveyor,
    Flicker,
    OrientedFlicker,
    Spreader,
    Missile,
    RandomMissile,
    RandomNPC,
    /// A RandomNPC under continuous physics (its default), oriented.
    RandomInertial,
    Chaser,
    PathChaser,
    LOSChaser,
    Fleeing,
    AlternateChaser,
    RandomAltChaser,
    PathAltChaser,
    RandomPathAltChaser,
    SpawnPoint,
    SpawnPointMultiSprite,
    Bomber,
    RandomBomber,
    BomberRandomMissile,
    Portal,
    MovingAvatar,
    HorizontalAvatar,
    VerticalAvatar,
    OrientedAvatar,
    ShootAvatar,
    /// A ShootAvatar that never moves: LEFT, UP, RIGHT, DOWN and USE fire its first to fifth
    /// stype.
    ShootOnlyAvatar,
    FlakAvatar,
    MissileAvatar,
    OngoingAvatar,
    OngoingTurningAvatar,
    OngoingShootAvatar,
    /// A HorizontalAvatar whose only action is NIL.
    NullAvatar,
    /// Continuous-physics avatars steered by a rotation (`angle_diff` per LEFT/RIGHT) and a
    /// thrust along it: LanderAvatar (UP), SpaceshipAvatar (UP, DOWN, shoots), CarAvatar
    /// (always driving, UP and DOWN pick the gear).
    LanderAvatar,
    SpaceshipAvatar,
    CarAvatar,
    /// A stationary shooter whose UP and DOWN turn the aim.
    AimedAvatar,
    /// Flies right on its own; USE flaps up by `jump_strength`.
    BirdAvatar,
    /// Runs LEFT and RIGHT (slower in the air) and jumps with USE from solid ground.
    PlatformerAvatar,
    /// A PlatformerAvatar that drops a `stype` block ahead with UP (every 5 ticks at most).
    WizardAvatar,
    /// Continuous physics: walks left or right at `max_speed`, turning only when stopped.
    Walker,
    /// A Walker that jumps off the ground at random (`probability`, unseeded in GVG-AI).
    WalkerJumper,
    /// tablero extension (not GVG-AI): an NPC driven by an evolved two-tree policy
    /// (`policy=FILE` or `policy=random`), see `engine::scripted`.
    EvolvedNPC,
}

impl SpriteClass {
    /// Every class name tablero implements, with its class (a few GVG-AI classes behave as
    /// the class they extend and share its variant).
    pub const NAMES: [(&'static str, SpriteClass); 50] = {
        use SpriteClass::*;
        [
            ("Immovable", Immovable),
            ("Passive", Passive),
            ("Door", Door),
            ("Resource", Resource),
            ("Flicker", Flicker),
            ("OrientedFlicker", OrientedFlicker),
            ("Spreader", Spreader),
            ("Missile", Missile),
            ("RandomMissile", RandomMissile),
            ("RandomBomber", RandomBomber),
            ("BomberRandomMissile", BomberRandomMissile),
            ("MissileAvatar", MissileAvatar),
            ("OngoingAvatar", OngoingAvatar),
            ("OngoingTurningAvatar", OngoingTurningAvatar),
            ("OngoingShootAvatar", OngoingShootAvatar),
            ("RandomNPC", RandomNPC),
            ("RandomInertial", RandomInertial),
            ("Chaser", Chaser),
            ("PathChaser", PathChaser),
            ("LOSChaser", LOSChaser),
            ("SpawnPointMultiSprite", SpawnPointMultiSprite),
            ("Fleeing", Fleeing),
            ("AlternateChaser", AlternateChaser),
            ("RandomAltChaser", RandomAltChaser),
            ("PathAltChaser", PathAltChaser),
            ("RandomPathAltChaser", RandomPathAltChaser),
            ("SpawnPoint", SpawnPoint),
            ("Bomber", Bomber),
            ("Portal", Portal),
            ("MovingAvatar", MovingAvatar),
            ("HorizontalAvatar", HorizontalAvatar),
            ("VerticalAvatar", VerticalAvatar),
            ("OrientedAvatar", OrientedAvatar),
            ("ShootAvatar", ShootAvatar),
            ("ShootOnlyAvatar", ShootOnlyAvatar),
            ("FlakAvatar", FlakAvatar),
            ("EvolvedNPC", EvolvedNPC),
            ("Conveyor", Conveyor),
            ("NullAvatar", NullAvatar),
            ("LanderAvatar", LanderAvatar),
            ("SpaceshipAvatar", SpaceshipAvatar),
            ("CarAvatar", CarAvatar),
            ("AimedAvatar", AimedAvatar),
            ("BirdAvatar", BirdAvatar),
            ("PlatformerAvatar", PlatformerAvatar),
            ("WizardAvatar", WizardAvatar),
            ("Walker", Walker),
            ("WalkerJumper", WalkerJumper),
            // GVG-AI classes that add nothing to the class they extend.
            ("ErraticMissile", Missile),
            ("SpriteProducer", Passive),
        ]
    };

    pub fn from_name(name: &str) -> Option<SpriteClass> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| c)
    }

    /// The VGDL name of the class.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|&&(_, c)| c == self)
            .map_or("?", |&(n, _)| n)
    }

    pub fn is_avatar(self) -> bool {
        use SpriteClass::*;
        matches!(
            self,
            MovingAvatar
                | HorizontalAvatar
                | VerticalAvatar
                | OrientedAvatar
                | ShootAvatar
                | ShootOnlyAvatar
                | FlakAvatar
                | MissileAvatar
                | OngoingAvatar
                | OngoingTurningAvatar
                | OngoingShootAvatar
                | NullAvatar
                | LanderAvatar
                | SpaceshipAvatar
                | CarAvatar
                | AimedAvatar
                | BirdAvatar
                | PlatformerAvatar
                | WizardAvatar
        )
    }

    /// Classes deriving from `Flicker` (age-limited).
    pub fn is_flicker(self) -> bool {
        matches!(
            self,
            SpriteClass::Flicker | SpriteClass::OrientedFlicker | SpriteClass::Spreader
        )
    }

    pub fn is_spawner(self) -> bool {
        matches!(self, SpriteClass::SpawnPoint | SpriteClass::Bomber)
    }
}

impl fmt::Display for SpriteClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Sprite parameters after inheritance, typed. `None` means "the class default".
/// Rendering-only parameters (`img`, `color`, ...) are accepted and dropped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpriteParams {
    pub speed: Option<f64>,
    pub cooldown: Option<i32>,
    pub orientation: Option<Dir>,
    pub spawn_orientation: Option<Dir>,
    pub limit: Option<i32>,
    pub value: Option<i32>,
    pub prob: Option<f64>,
    pub total: Option<i32>,
    pub cons: Option<i32>,
    pub stype: Option<Vec<TypeId>>,
    pub stype1: Option<Vec<TypeId>>,
    pub stype2: Option<Vec<TypeId>>,
    pub ammo: Option<Vec<TypeId>>,
    pub min_ammo: Option<i32>,
    pub ammo_cost: Option<i32>,
    pub health_points: Option<i32>,
    pub max_health_points: Option<i32>,
    pub limit_health_points: Option<i32>,
    pub rotate_in_place: Option<bool>,
    pub spread_prob: Option<f64>,
    pub epsilon: Option<f64>,
    pub max_distance: Option<f64>,
    pub portal: Option<bool>,
    pub random_target: Option<bool>,
    pub spawn_behind: Option<Vec<TypeId>>,
    pub stype_missile: Option<Vec<TypeId>>,
    /// Ticks before the sprite dies by itself (`timeToLive`, GVG-AI `VGDLSprite.update`).
    pub time_to_live: Option<i32>,
    /// SpawnPointMultiSprite's `stypes`.
    pub stypes: Option<Vec<TypeId>>,
    /// EvolvedNPC's `policy` (a file of an evolved individual, or `random`), as written.
    pub policy: Option<String>,
    /// `physicstype=CONT`: continuous physics (velocity vectors, friction, gravity, mass).
    pub continuous: Option<bool>,
    pub friction: Option<f64>,
    pub gravity: Option<f64>,
    pub mass: Option<f64>,
    /// `max_speed` of continuous physics (-1: none).
    pub max_speed: Option<f64>,
    /// Sprite width and height in cells (`wMult`, `hMult`).
    pub w_mult: Option<f64>,
    pub h_mult: Option<f64>,
    /// `is_static=True` (the sprite never moves passively).
    pub is_static: Option<bool>,
    /// Radians a steered avatar turns per LEFT/RIGHT (`angle_diff`).
    pub angle_diff: Option<f64>,
    /// Upward force of a jump or flap (`jump_strength`).
    pub jump_strength: Option<f64>,
    /// `solid=True`: sprites that check for ground can stand on it.
    pub solid: Option<bool>,
}

/// One sprite type of the SpriteSet (or the implicit `wall` / `avatar`).
#[derive(Debug, Clone, PartialEq)]
pub struct SpriteType {
    pub name: String,
    /// Effective class (GVG-AI rule: the nearest ancestor's declared class wins over the
    /// sprite's own; a sprite with no class anywhere in its chain has `None` and cannot be
    /// instantiated).
    pub class: Option<SpriteClass>,
    pub params: SpriteParams,
    pub parent: Option<TypeId>,
    pub children: Vec<TypeId>,
    /// Ancestors then self (GVG-AI `itypes`).
    pub itypes: Vec<TypeId>,
    /// Self, then every descendant in declaration order (GVG-AI `iSubTypes`).
    pub subtypes: Vec<TypeId>,
    /// `singleton=True` declared on this very type (applies to its whole subtree).
    pub singleton: bool,
    /// 1-based line of the declaration; 0 for the implicit defaults.
    pub line: usize,
}

/// Effects with typed parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum EffectKind {
    StepBack {
        pixel_perfect: bool,
    },
    UndoAll {
        not_types: Vec<TypeId>,
    },
    BounceForward,
    /// Continuous physics: stop flush against the wall, keeping the velocity along it.
    WallStop,
    /// Continuous physics: reflect the velocity off the wall (a batch effect: the sprites hit
    /// in one cycle act as one wall).
    WallBounce,
    /// Continuous physics: leave a paddle at an angle set by where it was hit.
    BounceDirection {
        max_angle_deg: f64,
    },
    KillSprite,
    KillBoth,
    KillAll {
        stype: TypeId,
    },
    KillIfHasMore {
        resource: TypeId,
        limit: i32,
    },
    KillIfHasLess {
        resource: TypeId,
        limit: i32,
    },
    KillIfOtherHasMore {
        resource: TypeId,
        limit: i32,
        subtract: bool,
    },
    KillIfFromAbove,
    /// Continuous physics: kill the first sprite if the pair's relative speed is below (or,
    /// with `fast`, above) `limspeed`.
    KillIfSpeed {
        limspeed: f64,
        fast: bool,
    },
    /// Continuous physics: turn back horizontally off the wall (a batch effect, as
    /// `WallBounce`).
    WallReverse,
    /// Kill the first sprite unless its rotation points up (within 4.4..5.0 radians).
    KillIfNotUpright,
    /// Kill the first sprite unless the second is already dying this cycle.
    KillIfAlive,
    /// Kills the first sprite while the game score is below zero (the GVGAI fork's
    /// `KillIfScoreNegative`; `invest` uses it).
    KillIfScoreNegative,
    /// Sets the score to 0 when the first sprite (or, with `stype`, a sprite of that type)
    /// is the avatar.
    RemoveScore {
        stype: Option<TypeId>,
        kill_second: bool,
    },
    KillIfFrontal,
    KillIfNotFrontal,
    CollectResourceIfHeld {
        held: TypeId,
        value: i32,
        kill_resource: bool,
    },
    /// setSpeedForAll / increaseSpeedToAll / decreaseSpeedToAll.
    SpeedForAll {
        stype: TypeId,
        value: f64,
        mode: SpeedMode,
    },
    HalfSpeed,
    /// waterPhysics: the first sprite's gravity becomes 0.2.
    WaterPhysics,
    /// spawnRight / spawnLeft / spawnAbove / spawnBelow: one cell from the second sprite.
    SpawnNextTo {
        stype: TypeId,
        dir: Dir,
        step_back: bool,
    },
    Align {
        orient: bool,
    },
    TransformToRandomChild {
        stype: TypeId,
        kill_second: bool,
        force_orientation: bool,
    },
    FlipDirection,
    TransformIfCount {
        stype: TypeId,
        count_type: TypeId,
        geq: i32,
        leq: i32,
        else_type: Option<TypeId>,
        kill_second: bool,
        force_orientation: bool,
    },
    TransformToSingleton {
        stype: TypeId,
        stype_other: TypeId,
        take_orientation: bool,
    },
    SpawnIfHasLess {
        resource: TypeId,
        limit: i32,
        stype: TypeId,
    },
    SpawnBehind {
        stype: TypeId,
    },
    /// Spawns `stype` on the first sprite when `count_type` has `limit` sprites spread over
    /// `subtypes` × 2 of its subtypes (GVG-AI's count), `else_type` otherwise.
    SpawnIfCounterSubTypes {
        stype: TypeId,
        else_type: TypeId,
        count_type: TypeId,
        limit: i32,
        subtypes: i32,
    },
    AddHealthPointsToMax {
        value: i32,
        kill_second: bool,
    },
    TransformTo {
        stype: TypeId,
        kill_second: bool,
        force_orientation: bool,
    },
    TransformToAll {
        stype: TypeId,
        stype_to: TypeId,
        kill_second: bool,
        force_orientation: bool,
    },
    /// The spawners of `spawn_point` (and its subtypes) produce `stype` instead of the second
    /// sprite's type: a SpawnPoint, Bomber or RandomBomber its only type, a
    /// BomberRandomMissile that entry of its `stypeMissile` list.
    UpdateSpawnType {
        stype: TypeId,
        spawn_point: TypeId,
    },
    CloneSprite,
    Spawn {
        stype: TypeId,
    },
    SpawnIfHasMore {
        resource: TypeId,
        limit: i32,
        stype: TypeId,
        spend: i32,
    },
    CollectResource {
        kill_resource: bool,
    },
    ChangeResource {
        resource: TypeId,
        value: i32,
        kill_resource: bool,
    },
    SubtractHealthPoints {
        value: i32,
        limit: i32,
        stype: Option<TypeId>,
        score_if_killed: i32,
    },
    AddHealthPoints {
        value: i32,
        kill_second: bool,
    },
    TeleportToExit,
    WrapAround {
        offset: f64,
    },
    PullWithIt {
        pixel_perfect: bool,
    },
    TurnAround,
    ReverseDirection,
    AttractGaze {
        align: bool,
    },
    ShieldFrom {
        stype: TypeId,
        ftype: String,
    },
    AddTimer {
        timer: i32,
        repeating: bool,
        delegate: Box<Effect>,
    },
}

impl EffectKind {
    /// The VGDL function name (used by `shieldFrom ftype=...`).
    pub fn function_name(&self) -> &'static str {
        use EffectKind::*;
        match self {
            StepBack { .. } => "stepBack",
            UndoAll { .. } => "undoAll",
            BounceForward => "bounceForward",
            WallStop => "wallStop",
            WallBounce => "wallBounce",
            BounceDirection { .. } => "bounceDirection",
            KillSprite => "killSprite",
            KillBoth => "killBoth",
            KillAll { .. } => "killAll",
            KillIfHasMore { .. } => "killIfHasMore",
            KillIfHasLess { .. } => "killIfHasLess",
            KillIfOtherHasMore { .. } => "killIfOtherHasMore",
            KillIfFromAbove => "killIfFromAbove",
            KillIfSpeed { fast: false, .. } => "killIfSlow",
            KillIfSpeed { fast: true, .. } => "killIfFast",
            KillIfNotUpright => "killIfNotUpright",
            WallReverse => "wallReverse",
            KillIfAlive => "killIfAlive",
            KillIfScoreNegative => "killIfScoreNegative",
            RemoveScore { .. } => "removeScore",
            KillIfFrontal => "killIfFrontal",
            KillIfNotFrontal => "killIfNotFrontal",
            CollectResourceIfHeld { .. } => "collectResourceIfHeld",
            SpeedForAll {
                mode: SpeedMode::Set,
                ..
            } => "setSpeedForAll",
            SpeedForAll {
                mode: SpeedMode::Increase,
                ..
            } => "increaseSpeedToAll",
            SpeedForAll {
                mode: SpeedMode::Decrease,
                ..
            } => "decreaseSpeedToAll",
            HalfSpeed => "halfSpeed",
            WaterPhysics => "waterPhysics",
            SpawnNextTo { dir, .. } => {
                if *dir == Dir::RIGHT {
                    "spawnRight"
                } else if *dir == Dir::LEFT {
                    "spawnLeft"
                } else if *dir == Dir::UP {
                    "spawnAbove"
                } else {
                    "spawnBelow"
                }
            }
            Align { .. } => "align",
            TransformToRandomChild { .. } => "transformToRandomChild",
            FlipDirection => "flipDirection",
            TransformIfCount { .. } => "transformIfCount",
            TransformToSingleton { .. } => "transformToSingleton",
            SpawnIfHasLess { .. } => "spawnIfHasLess",
            SpawnBehind { .. } => "spawnBehind",
            SpawnIfCounterSubTypes { .. } => "spawnIfCounterSubTypes",
            AddHealthPointsToMax { .. } => "addHealthPointsToMax",
            TransformTo { .. } => "transformTo",
            TransformToAll { .. } => "transformToAll",
            UpdateSpawnType { .. } => "updateSpawnType",
            CloneSprite => "cloneSprite",
            Spawn { .. } => "spawn",
            SpawnIfHasMore { .. } => "spawnIfHasMore",
            CollectResource { .. } => "collectResource",
            ChangeResource { .. } => "changeResource",
            SubtractHealthPoints { .. } => "subtractHealthPoints",
            AddHealthPoints { .. } => "addHealthPoints",
            TeleportToExit => "teleportToExit",
            WrapAround { .. } => "wrapAround",
            PullWithIt { .. } => "pullWithIt",
            TurnAround => "turnAround",
            ReverseDirection => "reverseDirection",
            AttractGaze { .. } => "attractGaze",
            ShieldFrom { .. } => "shieldFrom",
            AddTimer { .. } => "addTimer",
        }
    }
}

/// How a speed effect changes speeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedMode {
    Set,
    Increase,
    Decrease,
}

/// An effect with the parameters common to all effects.
#[derive(Debug, Clone, PartialEq)]
pub struct Effect {
    pub kind: EffectKind,
    /// `scoreChange` (first player's value).
    pub score_change: i32,
    /// `scoreChange` as a per-player list (`"1,-1"`); empty when a single value is given.
    /// Player `i` scores `scores[i]`, or `score_change` past the list's end (GVG-AI
    /// `getScoreChange`).
    pub scores: Vec<i32>,
    pub prob: f64,
    pub repeat: u32,
    /// `counter`: what one execution adds to each game counter (see [`Counts`]).
    pub counter: Counts,
    /// `counterElse`: added as well; `transformIfCount` adds it only when it takes its
    /// `estype` branch, and `counter` only when it takes its `stype` branch.
    pub counter_else: Counts,
    /// `count=` and `countElse=` (both true unless the game turns them off).
    pub count: bool,
    pub count_else: bool,
    pub line: usize,
}

/// A per-counter list of integers (`counter="-1,0"`), as GVG-AI's `getCounter` reads it:
/// counter `i` takes entry `i`, the first entry past the list's end, and 0 for an entry that
/// is not an integer or a list with no entry. GVG-AI keeps the list in a text field, which a
/// single number cannot set: `counter=1` leaves every counter unchanged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts(pub Vec<Option<i32>>);

impl Counts {
    /// Read a `counter=` value (GVG-AI splits at commas and drops trailing empty entries).
    pub fn parse(raw: &str) -> Counts {
        let mut items: Vec<&str> = raw.split(',').collect();
        while items.last() == Some(&"") {
            items.pop();
        }
        Counts(items.iter().map(|v| v.parse::<i32>().ok()).collect())
    }

    /// What counter `i` changes by.
    pub fn at(&self, i: usize) -> i32 {
        self.0
            .get(i)
            .or_else(|| self.0.first())
            .copied()
            .flatten()
            .unwrap_or(0)
    }

    /// Whether every counter changes by 0.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|v| v.unwrap_or(0) == 0)
    }
}

/// What the second side of an interaction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Other {
    Sprite(TypeId),
    /// End of screen.
    Eos,
    /// A native timed effect (`sprite TIME > effect timer=N`): applied to every sprite of the
    /// type when the timer fires. `planned` means `nextExecution` was given (GVG-AI then plans
    /// the first firing at `timer`; otherwise it fires on the first tick).
    Time {
        timer: i32,
        repeating: bool,
        planned: bool,
    },
}

/// One `a b c > effect` line, expanded into one interaction per right-hand type.
#[derive(Debug, Clone, PartialEq)]
pub struct Interaction {
    pub first: TypeId,
    pub other: Other,
    pub effect: Effect,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TerminationKind {
    SpriteCounter {
        stype: TypeId,
        limit: i32,
    },
    /// Count of `stype` equals `limit` and exactly `subtypes` of its subtypes have sprites.
    MultiSpriteCounterSubTypes {
        stype: TypeId,
        limit: i32,
        subtypes: i32,
    },
    /// Holds when the count is at least `limit`.
    SpriteCounterMore {
        stype: TypeId,
        limit: i32,
    },
    MultiSpriteCounter {
        stypes: Vec<TypeId>,
        limit: i32,
        min: bool,
    },
    /// Holds from tick `limit`; with `counters` (`use_counter=True`) the game counters decide
    /// who wins.
    Timeout {
        limit: i32,
        counters: Option<CounterRule>,
    },
    /// Never ends the game: while the count of `stypes` is `limit` (with `min`: above it),
    /// the sprite-count terminations cannot end it.
    StopCounter {
        stypes: Vec<TypeId>,
        limit: i32,
        min: bool,
    },
}

/// How a `Timeout use_counter=True` gives the results (GVG-AI `Timeout.isDone`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CounterRule {
    /// `compare=True`: player 0 wins and the others lose if the counters are not all equal,
    /// player 0 loses and the others win if they are.
    Compare,
    /// `limits="a,b"` (a single number cannot set GVG-AI's text field, and leaves the
    /// default `0`): with as many counters as players, player 0 wins if the last player's
    /// counter equals its limit and every other player loses (GVG-AI restarts its result
    /// string for each player, so only the last one's entry is kept, and it is player 0's);
    /// with another number of counters every player loses.
    Limits(Vec<i32>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Termination {
    pub kind: TerminationKind,
    /// Whether player 0 wins.
    pub win: bool,
    /// `win` as a per-player list (`"True,False"`); player `i` wins if its entry reads
    /// `true` (a player past the list's end loses, as in GVG-AI's `win(i)`).
    pub wins: Vec<bool>,
    /// `count_score=True`: the players with the highest nonzero score win, the others lose.
    pub count_score: bool,
    pub line: usize,
}

/// `BasicGame` parameters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameParams {
    pub square_size: Option<u32>,
    pub key_handler: Option<String>,
    /// Obstacle types for path finding (`obs=`).
    pub obs: Vec<TypeId>,
    /// `no_players`: 1 unless a multi-player game says otherwise.
    pub no_players: usize,
    /// `no_counters`: the number of game counters (0 unless the game says otherwise), which
    /// effects change with `counter=` and `Timeout use_counter=True` reads.
    pub no_counters: usize,
    /// A `GameSpace` game's parameters with the values the game was read with (name, value).
    pub parameters: Vec<(String, String)>,
}

/// A parsed and resolved game description.
#[derive(Debug, Clone, PartialEq)]
pub struct GameDescription {
    pub params: GameParams,
    /// Indexed by `TypeId`.
    pub types: Vec<SpriteType>,
    /// GVG-AI `spriteOrder`: leaves in declaration order (plus `wall` and `avatar`), with
    /// `avatar` moved to the end. Updates run in reverse of this order.
    pub sprite_order: Vec<TypeId>,
    /// Character → stacked sprite types, including the defaults `w` → wall and `A` → avatar.
    pub level_mapping: Vec<(char, Vec<TypeId>)>,
    pub interactions: Vec<Interaction>,
    pub terminations: Vec<Termination>,
    /// LevelMapping characters naming unknown sprites (character, name, line): an error only
    /// if a level uses them, as in GVG-AI.
    pub unresolved_mapping: Vec<(char, String, usize)>,
    /// Problems GVG-AI tolerates (e.g. unknown parameters, which it ignores).
    pub warnings: Vec<String>,
}

impl GameDescription {
    pub fn type_id(&self, name: &str) -> Option<TypeId> {
        self.types
            .iter()
            .position(|t| t.name == name)
            .and_then(|i| TypeId::try_from(i).ok())
    }

    pub fn type_name(&self, id: TypeId) -> &str {
        self.types
            .get(usize::from(id))
            .map(|t| t.name.as_str())
            .unwrap_or("?")
    }

    pub fn mapping(&self, c: char) -> Option<&[TypeId]> {
        self.level_mapping
            .iter()
            .find(|(k, _)| *k == c)
            .map(|(_, v)| v.as_slice())
    }
}
