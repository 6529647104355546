//! The VGDL names tablero knows, by construct, with their status: the names GVG-AI's framework
//! registers (its `VGDLFactory`: sprite classes, effects, terminations, game classes; the
//! physics types of `ontology.Types`) and tablero's own extensions. A name listed here as
//! unsupported is refused with [`VgdlError::Unsupported`]; any other unlisted name is unknown.
//! `protocols/vgdl-coverage.md` is the table of these lists (`tests/gvgai_coverage.rs` keeps
//! the two equal and checks every row against the parser).

use std::fmt;

use super::VgdlError;
use super::model::SpriteClass;

/// What kind of VGDL construct a name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Construct {
    /// A sprite class, avatars included (`avatar > MovingAvatar`).
    SpriteClass,
    /// An InteractionSet effect (`a b > killSprite`).
    Effect,
    /// A TerminationSet condition (`SpriteCounter stype=a`).
    Termination,
    /// A sprite's `physicstype=` value.
    PhysicsType,
    /// The class on the game's first line (`BasicGame`).
    GameClass,
    /// A section under the game line (`SpriteSet`, ...).
    Section,
}

impl fmt::Display for Construct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Construct::SpriteClass => "sprite class",
            Construct::Effect => "effect",
            Construct::Termination => "termination",
            Construct::PhysicsType => "physics type",
            Construct::GameClass => "game class",
            Construct::Section => "section",
        })
    }
}

/// Sprite classes GVG-AI registers that tablero does not implement.
pub const UNSUPPORTED_CLASSES: &[&str] = &["ResourcePack"];

/// The effects tablero implements: GVG-AI's, and `killIfScoreNegative` of the GVGAI fork
/// that the framework's `invest` names.
pub const SUPPORTED_EFFECTS: &[&str] = &[
    "stepBack",
    "turnAround",
    "killSprite",
    "killBoth",
    "killAll",
    "transformTo",
    "transformToSingleton",
    "transformIfCount",
    "wrapAround",
    "changeResource",
    "killIfHasLess",
    "killIfHasMore",
    "cloneSprite",
    "flipDirection",
    "reverseDirection",
    "shieldFrom",
    "undoAll",
    "spawn",
    "spawnIfHasMore",
    "spawnIfHasLess",
    "pullWithIt",
    "collectResource",
    "collectResourceIfHeld",
    "killIfOtherHasMore",
    "killIfFromAbove",
    "teleportToExit",
    "bounceForward",
    "attractGaze",
    "align",
    "subtractHealthPoints",
    "addHealthPoints",
    "transformToAll",
    "updateSpawnType",
    "addTimer",
    "killIfFrontal",
    "killIfNotFrontal",
    "spawnBehind",
    "increaseSpeedToAll",
    "decreaseSpeedToAll",
    "setSpeedForAll",
    "transformToRandomChild",
    "addHealthPointsToMax",
    "halfSpeed",
    "waterPhysics",
    "spawnAbove",
    "spawnLeft",
    "spawnRight",
    "spawnBelow",
    "killIfScoreNegative",
    "removeScore",
    "spawnIfCounterSubTypes",
    "bounceDirection",
    "wallBounce",
    "wallStop",
    "killIfAlive",
    "killIfFast",
    "killIfNotUpright",
    "killIfSlow",
    "wallReverse",
];

/// Effects GVG-AI registers that tablero does not implement.
pub const UNSUPPORTED_EFFECTS: &[&str] = &[];

/// The terminations tablero implements.
pub const SUPPORTED_TERMINATIONS: &[&str] = &[
    "MultiSpriteCounter",
    "SpriteCounter",
    "SpriteCounterMore",
    "MultiSpriteCounterSubTypes",
    "Timeout",
    "StopCounter",
];

/// Terminations GVG-AI registers that tablero does not implement.
pub const UNSUPPORTED_TERMINATIONS: &[&str] = &[];

/// `physicstype=` values tablero implements (GVG-AI also reads `0` for `GRID`).
pub const SUPPORTED_PHYSICS: &[&str] = &["GRID", "CONT"];

/// `physicstype=` values GVG-AI defines that tablero does not implement (`1` is `CONT`).
pub const UNSUPPORTED_PHYSICS: &[&str] = &[];

/// Game classes tablero implements.
pub const SUPPORTED_GAMES: &[&str] = &["BasicGame", "GameSpace"];

/// Game classes GVG-AI registers that tablero does not implement.
pub const UNSUPPORTED_GAMES: &[&str] = &[];

/// One name tablero knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    pub what: Construct,
    pub name: &'static str,
    pub supported: bool,
}

/// Every name tablero knows, by construct (sections are not listed).
pub fn known() -> Vec<Known> {
    let mut out = Vec::new();
    let mut add = |what: Construct, names: &[&'static str], supported: bool| {
        out.extend(names.iter().map(|&name| Known {
            what,
            name,
            supported,
        }));
    };
    let classes: Vec<&'static str> = SpriteClass::NAMES.iter().map(|&(n, _)| n).collect();
    add(Construct::SpriteClass, &classes, true);
    add(Construct::SpriteClass, UNSUPPORTED_CLASSES, false);
    add(Construct::Effect, SUPPORTED_EFFECTS, true);
    add(Construct::Effect, UNSUPPORTED_EFFECTS, false);
    add(Construct::Termination, SUPPORTED_TERMINATIONS, true);
    add(Construct::Termination, UNSUPPORTED_TERMINATIONS, false);
    add(Construct::PhysicsType, SUPPORTED_PHYSICS, true);
    add(Construct::PhysicsType, UNSUPPORTED_PHYSICS, false);
    add(Construct::GameClass, SUPPORTED_GAMES, true);
    add(Construct::GameClass, UNSUPPORTED_GAMES, false);
    out
}

/// The error for `name`, a `what` written on `line`: unsupported when GVG-AI defines it,
/// unknown otherwise.
pub(super) fn refuse(what: Construct, name: &str, line: usize) -> VgdlError {
    let unsupported = match what {
        Construct::SpriteClass => UNSUPPORTED_CLASSES,
        Construct::Effect => UNSUPPORTED_EFFECTS,
        Construct::Termination => UNSUPPORTED_TERMINATIONS,
        Construct::PhysicsType => UNSUPPORTED_PHYSICS,
        Construct::GameClass => UNSUPPORTED_GAMES,
        Construct::Section => &[],
    };
    if unsupported.contains(&name) {
        VgdlError::Unsupported {
            what,
            name: name.to_string(),
            line,
        }
    } else {
        VgdlError::Semantic {
            line,
            message: format!("unknown {what} \"{name}\""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_listed_once() {
        let k = known();
        for (i, a) in k.iter().enumerate() {
            assert!(
                !k[i + 1..]
                    .iter()
                    .any(|b| b.what == a.what && b.name == a.name),
                "{} {} twice",
                a.what,
                a.name
            );
        }
        assert_eq!(
            refuse(Construct::SpriteClass, "ResourcePack", 4).to_string(),
            "line 4: unsupported sprite class \"ResourcePack\" (GVG-AI defines it; tablero does not implement it)"
        );
        assert_eq!(
            refuse(Construct::Effect, "fly", 3).to_string(),
            "line 3: unknown effect \"fly\""
        );
    }
}
