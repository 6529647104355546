//! The InteractionSet: `a b ... > effect key=value ...` lines (sprite pairs, EOS, and native
//! TIME effects) and the typed effects they name, grouped by family.

use super::VgdlError;
use super::coverage::{Construct, refuse};
use super::model::*;
use super::params::{Params, need_type, one_type, type_list};
use super::sprites::Resolver;
use super::syntax::{Item, Node, params_of, tokenize};

/// One InteractionSet line: an interaction per sprite after the first (or one native timed
/// effect for a `sprite TIME` line).
pub(super) fn interaction_line(
    r: &Resolver<'_>,
    n: &Node<'_>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Interaction>, VgdlError> {
    let t = tokenize(n.line, n.content)?;
    let Some(rhs) = t.rhs else {
        return Err(VgdlError::Syntax {
            line: n.line,
            message: format!("interaction \"{}\" has no '>'", n.content),
        });
    };
    let names = interaction_sprites(n, &t.lhs)?;
    // As GVG-AI reads it: parameters may stand before the effect name, and of several words
    // the last names the effect.
    let Some(function) = rhs.iter().rev().find_map(|it| match it {
        Item::Word(f) => Some(*f),
        Item::Param(..) => None,
    }) else {
        return Err(VgdlError::Syntax {
            line: n.line,
            message: "an interaction needs an effect name after '>'".into(),
        });
    };
    let params: Vec<Item<'_>> = rhs
        .iter()
        .filter(|it| matches!(it, Item::Param(..)))
        .cloned()
        .collect();
    let items = params_of(&params, n.line, "an interaction")?;
    if names.iter().any(|x| is_time(r, x)) {
        let interaction = timed_interaction(r, n, &names, function, items, warnings)?;
        return Ok(vec![interaction]);
    }
    let effect = build_effect(r, function, n.line, items, warnings)?;
    let resolve = |name: &str| -> Result<Option<TypeId>, VgdlError> {
        if is_eos(r, name) {
            Ok(None)
        } else {
            r.id(name).map(Some).ok_or_else(|| VgdlError::Semantic {
                line: n.line,
                message: format!("unknown sprite \"{name}\" in interaction"),
            })
        }
    };
    let first = resolve(names[0])?;
    let mut interactions = Vec::new();
    for other in &names[1..] {
        let other = resolve(other)?;
        let (first, other) = match (first, other) {
            (Some(a), Some(b)) => (a, Other::Sprite(b)),
            (Some(a), None) | (None, Some(a)) => (a, Other::Eos),
            (None, None) => {
                return Err(VgdlError::Semantic {
                    line: n.line,
                    message: "EOS cannot interact with EOS".into(),
                });
            }
        };
        interactions.push(Interaction {
            first,
            other,
            effect: effect.clone(),
        });
    }
    Ok(interactions)
}

/// `TIME` names the native timer unless a sprite is called so.
fn is_time(r: &Resolver<'_>, x: &str) -> bool {
    r.id(x).is_none() && x.eq_ignore_ascii_case("TIME")
}

/// `EOS` names the end of screen unless a sprite is called so.
fn is_eos(r: &Resolver<'_>, x: &str) -> bool {
    r.id(x).is_none() && x.eq_ignore_ascii_case("EOS")
}

/// The (at least two) sprite names before the `>` of an interaction.
fn interaction_sprites<'a>(n: &Node<'_>, lhs: &[Item<'a>]) -> Result<Vec<&'a str>, VgdlError> {
    let mut names = Vec::new();
    for it in lhs {
        match it {
            Item::Word(w) => names.push(*w),
            Item::Param(..) => {
                return Err(VgdlError::Syntax {
                    line: n.line,
                    message: "parameters go after the effect name".into(),
                });
            }
        }
    }
    if names.len() < 2 {
        return Err(VgdlError::Syntax {
            line: n.line,
            message: "an interaction needs at least two sprites before '>'".into(),
        });
    }
    Ok(names)
}

/// Native timed effect: `sprite TIME > effect timer=N [repeating=True]`.
fn timed_interaction(
    r: &Resolver<'_>,
    n: &Node<'_>,
    names: &[&str],
    function: &str,
    items: Vec<(&str, &str)>,
    warnings: &mut Vec<String>,
) -> Result<Interaction, VgdlError> {
    let sprite_name = match names {
        [t, x] | [x, t] if is_time(r, t) && !is_time(r, x) && !is_eos(r, x) => *x,
        _ => {
            return Err(VgdlError::Semantic {
                line: n.line,
                message: "a TIME interaction needs exactly one sprite and TIME".into(),
            });
        }
    };
    let first = r.id(sprite_name).ok_or_else(|| VgdlError::Semantic {
        line: n.line,
        message: format!("unknown sprite \"{sprite_name}\" in interaction"),
    })?;
    let mut p = Params::new(n.line, format!("timed effect {function}"), items.clone());
    let timer = p.int("timer")?.unwrap_or(-1);
    let repeating = p.boolean("repeating")?.unwrap_or(false);
    let planned = p.int("nextExecution")?.is_some_and(|v| v != -1);
    let rest: Vec<(&str, &str)> = items
        .into_iter()
        .filter(|(k, _)| !matches!(*k, "timer" | "repeating" | "nextExecution"))
        .collect();
    let effect = build_effect(r, function, n.line, rest, warnings)?;
    Ok(Interaction {
        first,
        other: Other::Time {
            timer,
            repeating,
            planned,
        },
        effect,
    })
}

/// The effect `function` with its parameters `items`, written on `line`.
fn build_effect(
    r: &Resolver<'_>,
    function: &str,
    line: usize,
    items: Vec<(&str, &str)>,
    warnings: &mut Vec<String>,
) -> Result<Effect, VgdlError> {
    let mut p = Params::new(line, format!("effect {function}"), items);
    let scores = player_scores(p.raw("scoreChange"));
    let score_change = p.int("scoreChange")?.unwrap_or(0);
    let prob = p.float("prob")?.unwrap_or(1.0);
    let repeat = p.int("repeat")?.unwrap_or(1).max(0) as u32;
    if repeat > 100 {
        return Err(p.err(format!("repeat={repeat} is too large (at most 100)")));
    }
    let counter = Counts::parse(p.text_field("counter", "0"));
    let counter_else = Counts::parse(p.text_field("counterElse", "0"));
    let count = p.boolean("count")?.unwrap_or(true);
    let count_else = p.boolean("countElse")?.unwrap_or(true);
    p.ignore(&["applyScore"]);
    let Some(kind) = effect_kind(r, &mut p, function, line, warnings)? else {
        return Err(refuse(Construct::Effect, function, line));
    };
    p.finish(warnings)?;
    Ok(Effect {
        kind,
        score_change,
        scores,
        prob,
        repeat,
        counter,
        counter_else,
        count,
        count_else,
        line,
    })
}

/// A per-player `scoreChange` list (empty for a single value); an entry that is not an
/// integer scores 0, as GVG-AI's `getScoreChange` does.
fn player_scores(raw: Option<&str>) -> Vec<i32> {
    match raw {
        Some(v) if v.contains(',') => v
            .split(',')
            .map(|s| s.trim().parse::<i32>().unwrap_or(0))
            .collect(),
        _ => Vec::new(),
    }
}

/// A family of effects: the kind `function` names with its parameters, or `None` when the
/// family has no effect of that name.
type Family = fn(&Resolver<'_>, &mut Params<'_>, &str) -> Result<Option<EffectKind>, VgdlError>;

/// The kind of effect `function` names, `None` if no family knows it.
fn effect_kind(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    function: &str,
    line: usize,
    warnings: &mut Vec<String>,
) -> Result<Option<EffectKind>, VgdlError> {
    if function == "addTimer" {
        return add_timer(r, p, line, warnings).map(Some);
    }
    let families: [Family; 5] = [
        motion_effect,
        kill_effect,
        spawn_effect,
        transform_effect,
        resource_effect,
    ];
    for family in families {
        if let Some(kind) = family(r, p, function)? {
            return Ok(Some(kind));
        }
    }
    Ok(None)
}

/// Effects that move, turn or slow the first sprite (or every sprite of a type).
fn motion_effect(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    function: &str,
) -> Result<Option<EffectKind>, VgdlError> {
    use EffectKind as E;
    Ok(Some(match function {
        "stepBack" => E::StepBack {
            pixel_perfect: p.boolean("pixelPerfect")?.unwrap_or(false),
        },
        "undoAll" => E::UndoAll {
            not_types: type_list(r, p, "notStype")?.unwrap_or_default(),
        },
        "bounceForward" => E::BounceForward,
        "wallStop" => {
            p.ignore(&["friction"]);
            E::WallStop
        }
        "wallBounce" => {
            p.ignore(&["friction"]);
            E::WallBounce
        }
        "bounceDirection" => E::BounceDirection {
            max_angle_deg: p.float("maxBounceAngleDeg")?.unwrap_or(60.0),
        },
        "setSpeedForAll" | "increaseSpeedToAll" | "decreaseSpeedToAll" => {
            let mode = match function {
                "setSpeedForAll" => SpeedMode::Set,
                "increaseSpeedToAll" => SpeedMode::Increase,
                _ => SpeedMode::Decrease,
            };
            let default = if mode == SpeedMode::Set { 0.0 } else { 0.1 };
            E::SpeedForAll {
                stype: need_type(r, p, "stype")?,
                value: p.float("value")?.unwrap_or(default),
                mode,
            }
        }
        "halfSpeed" => E::HalfSpeed,
        "waterPhysics" => E::WaterPhysics,
        "align" => E::Align {
            orient: p.boolean("orient")?.unwrap_or(true),
        },
        "flipDirection" => E::FlipDirection,
        "teleportToExit" => E::TeleportToExit,
        "wrapAround" => E::WrapAround {
            offset: p.float("offset")?.unwrap_or(0.0),
        },
        "pullWithIt" => E::PullWithIt {
            pixel_perfect: p.boolean("pixelPerfect")?.unwrap_or(false),
        },
        "turnAround" => E::TurnAround,
        "reverseDirection" => E::ReverseDirection,
        "attractGaze" => E::AttractGaze {
            align: p.boolean("align")?.unwrap_or(false),
        },
        _ => return Ok(None),
    }))
}

/// Effects that kill sprites, and the shield against them.
fn kill_effect(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    function: &str,
) -> Result<Option<EffectKind>, VgdlError> {
    use EffectKind as E;
    Ok(Some(match function {
        "killSprite" => E::KillSprite,
        "killBoth" => E::KillBoth,
        "killAll" => E::KillAll {
            stype: need_type(r, p, "stype")?,
        },
        "killIfHasMore" | "killIfHasLess" => {
            let resource = need_type(r, p, "resource")?;
            let limit = p.int("limit")?.unwrap_or(0);
            if function == "killIfHasMore" {
                E::KillIfHasMore { resource, limit }
            } else {
                E::KillIfHasLess { resource, limit }
            }
        }
        "killIfOtherHasMore" => E::KillIfOtherHasMore {
            resource: need_type(r, p, "resource")?,
            limit: p.int("limit")?.unwrap_or(0),
            subtract: p.boolean("subtract")?.unwrap_or(false),
        },
        "killIfFromAbove" => E::KillIfFromAbove,
        "killIfSlow" | "killIfFast" => E::KillIfSpeed {
            limspeed: p.float("limspeed")?.unwrap_or(1.0),
            fast: function == "killIfFast",
        },
        "killIfNotUpright" => E::KillIfNotUpright,
        "wallReverse" => {
            p.ignore(&["friction"]);
            E::WallReverse
        }
        "killIfAlive" => E::KillIfAlive,
        "killIfScoreNegative" => E::KillIfScoreNegative,
        "removeScore" => E::RemoveScore {
            stype: one_type(r, p, "stype")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
        },
        "killIfFrontal" => E::KillIfFrontal,
        "killIfNotFrontal" => E::KillIfNotFrontal,
        "shieldFrom" => {
            let stype = need_type(r, p, "stype")?;
            let ftype = p
                .raw("ftype")
                .ok_or_else(|| p.err("shieldFrom needs ftype=".into()))?;
            E::ShieldFrom {
                stype,
                ftype: ftype.to_string(),
            }
        }
        _ => return Ok(None),
    }))
}

/// Effects that create sprites next to, behind or on the colliding ones.
fn spawn_effect(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    function: &str,
) -> Result<Option<EffectKind>, VgdlError> {
    use EffectKind as E;
    Ok(Some(match function {
        "spawnRight" | "spawnLeft" | "spawnAbove" | "spawnBelow" => E::SpawnNextTo {
            stype: need_type(r, p, "stype")?,
            dir: match function {
                "spawnRight" => Dir::RIGHT,
                "spawnLeft" => Dir::LEFT,
                "spawnAbove" => Dir::UP,
                _ => Dir::DOWN,
            },
            step_back: p.boolean("stepBack")?.unwrap_or(false),
        },
        "spawnIfHasLess" => E::SpawnIfHasLess {
            resource: need_type(r, p, "resource")?,
            limit: p.int("limit")?.unwrap_or(0),
            stype: need_type(r, p, "stype")?,
        },
        "spawnIfCounterSubTypes" => E::SpawnIfCounterSubTypes {
            stype: need_type(r, p, "stype")?,
            else_type: need_type(r, p, "estype")?,
            count_type: need_type(r, p, "stypeCount")?,
            limit: p.int("limit")?.unwrap_or(0),
            subtypes: p.int("subTypesNum")?.unwrap_or(-1),
        },
        "spawnBehind" => E::SpawnBehind {
            stype: need_type(r, p, "stype")?,
        },
        "cloneSprite" => E::CloneSprite,
        "spawn" => E::Spawn {
            stype: need_type(r, p, "stype")?,
        },
        "spawnIfHasMore" => E::SpawnIfHasMore {
            resource: need_type(r, p, "resource")?,
            limit: p.int("limit")?.unwrap_or(0),
            stype: need_type(r, p, "stype")?,
            spend: p.int("spend")?.unwrap_or(0),
        },
        _ => return Ok(None),
    }))
}

/// Effects that replace sprites by sprites of another type.
fn transform_effect(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    function: &str,
) -> Result<Option<EffectKind>, VgdlError> {
    use EffectKind as E;
    Ok(Some(match function {
        "transformToRandomChild" => E::TransformToRandomChild {
            stype: need_type(r, p, "stype")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
            force_orientation: p.boolean("forceOrientation")?.unwrap_or(false),
        },
        "transformIfCount" => E::TransformIfCount {
            stype: need_type(r, p, "stype")?,
            count_type: need_type(r, p, "stypeCount")?,
            geq: p.int("geq")?.unwrap_or(0),
            leq: p.int("leq")?.unwrap_or(10_000),
            else_type: one_type(r, p, "estype")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
            force_orientation: p.boolean("forceOrientation")?.unwrap_or(false),
        },
        "transformToSingleton" => E::TransformToSingleton {
            stype: need_type(r, p, "stype")?,
            stype_other: need_type(r, p, "stype_other")?,
            take_orientation: p.boolean("takeOrientation")?.unwrap_or(false),
        },
        "transformTo" => E::TransformTo {
            stype: need_type(r, p, "stype")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
            force_orientation: p.boolean("forceOrientation")?.unwrap_or(false),
        },
        "updateSpawnType" => E::UpdateSpawnType {
            stype: need_type(r, p, "stype")?,
            spawn_point: need_type(r, p, "spawnPoint")?,
        },
        "transformToAll" => E::TransformToAll {
            stype: need_type(r, p, "stype")?,
            stype_to: need_type(r, p, "stypeTo")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
            force_orientation: p.boolean("forceOrientation")?.unwrap_or(false),
        },
        _ => return Ok(None),
    }))
}

/// Effects on resources and health points.
fn resource_effect(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    function: &str,
) -> Result<Option<EffectKind>, VgdlError> {
    use EffectKind as E;
    Ok(Some(match function {
        "collectResourceIfHeld" => E::CollectResourceIfHeld {
            held: need_type(r, p, "heldResource")?,
            value: p.int("value")?.unwrap_or(1),
            kill_resource: p.boolean("killResource")?.unwrap_or(true),
        },
        "collectResource" => E::CollectResource {
            kill_resource: p.boolean("killResource")?.unwrap_or(true),
        },
        "changeResource" => E::ChangeResource {
            resource: need_type(r, p, "resource")?,
            value: p.int("value")?.unwrap_or(1),
            kill_resource: p.boolean("killResource")?.unwrap_or(false),
        },
        "addHealthPointsToMax" => E::AddHealthPointsToMax {
            value: p.int("value")?.unwrap_or(1),
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
        },
        "subtractHealthPoints" => E::SubtractHealthPoints {
            value: p.int("value")?.unwrap_or(1),
            limit: p.int("limit")?.unwrap_or(0),
            stype: one_type(r, p, "stype")?,
            score_if_killed: p.int("scoreChangeIfKilled")?.unwrap_or(0),
        },
        "addHealthPoints" => E::AddHealthPoints {
            value: p.int("value")?.unwrap_or(1),
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
        },
        _ => return Ok(None),
    }))
}

/// `addTimer`: the delegate effect `ftype` is built from the same line with the function
/// replaced (GVG-AI), so every remaining parameter belongs to the delegate.
fn add_timer(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    line: usize,
    warnings: &mut Vec<String>,
) -> Result<EffectKind, VgdlError> {
    let timer = p.int("timer")?.unwrap_or(-1);
    let repeating = p.boolean("repeating")?.unwrap_or(false);
    let ftype = p
        .raw("ftype")
        .ok_or_else(|| p.err("addTimer needs ftype=".into()))?;
    let rest = p.items_except(&["timer", "ftype", "repeating"]);
    let delegate = build_effect(r, ftype, line, rest, warnings)?;
    p.use_all();
    Ok(EffectKind::AddTimer {
        timer,
        repeating,
        delegate: Box::new(delegate),
    })
}
