//! The VGDL game-description parser: nom for the tokens of one line, an indentation tree for
//! the block structure, then resolution into the typed [`GameDescription`].
//!
//! Indentation follows GVG-AI: the indent of a line is the number of whitespace characters
//! before its first non-blank character (a tab counts as one), and `#` starts a comment.

use nom::{
    IResult,
    branch::alt,
    bytes::complete::take_while1,
    character::complete::{char, space0},
    combinator::{all_consuming, map, opt},
    multi::many0,
    sequence::{preceded, separated_pair, terminated, tuple},
};

use super::VgdlError;
use super::model::*;

/// One token of a VGDL line.
#[derive(Debug, Clone, PartialEq)]
enum Item<'a> {
    Word(&'a str),
    Param(&'a str, &'a str),
}

/// A tokenised line: `lhs [> rhs]`.
#[derive(Debug, Clone)]
struct Tokens<'a> {
    lhs: Vec<Item<'a>>,
    rhs: Option<Vec<Item<'a>>>,
}

fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && c != '>' && c != '='
}

fn word(i: &str) -> IResult<&str, &str> {
    take_while1(is_word_char)(i)
}

fn value(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace() && c != '>')(i)
}

fn item(i: &str) -> IResult<&str, Item<'_>> {
    alt((
        map(separated_pair(word, char('='), value), |(k, v)| {
            Item::Param(k, v)
        }),
        map(word, Item::Word),
    ))(i)
}

fn items(i: &str) -> IResult<&str, Vec<Item<'_>>> {
    many0(preceded(space0, item))(i)
}

fn tokens_line(i: &str) -> IResult<&str, Tokens<'_>> {
    map(
        all_consuming(terminated(
            tuple((items, opt(preceded(tuple((space0, char('>'))), items)))),
            space0,
        )),
        |(lhs, rhs)| Tokens { lhs, rhs },
    )(i)
}

fn tokenize(line: usize, content: &str) -> Result<Tokens<'_>, VgdlError> {
    tokens_line(content)
        .map(|(_, t)| t)
        .map_err(|_| VgdlError::Syntax {
            line,
            message: format!("cannot parse \"{content}\""),
        })
}

/// A node of the indentation tree.
#[derive(Debug)]
struct Node<'a> {
    line: usize,
    indent: usize,
    content: &'a str,
    children: Vec<usize>,
}

fn build_tree(text: &str) -> Result<(Vec<Node<'_>>, usize), VgdlError> {
    let mut nodes: Vec<Node<'_>> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut root: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let no_comment = raw.split('#').next().unwrap_or("");
        let content = no_comment.trim();
        if content.is_empty() {
            continue;
        }
        let indent = no_comment.chars().take_while(|c| c.is_whitespace()).count();
        while let Some(&top) = stack.last() {
            if nodes[top].indent >= indent {
                stack.pop();
            } else {
                break;
            }
        }
        let id = nodes.len();
        nodes.push(Node {
            line,
            indent,
            content,
            children: Vec::new(),
        });
        match stack.last() {
            Some(&parent) => nodes[parent].children.push(id),
            None => {
                if root.is_some() {
                    return Err(VgdlError::Syntax {
                        line,
                        message: format!(
                            "\"{content}\" is outside the BasicGame block (not indented)"
                        ),
                    });
                }
                root = Some(id);
            }
        }
        stack.push(id);
    }
    let root = root.ok_or(VgdlError::Syntax {
        line: 0,
        message: "empty game description".into(),
    })?;
    Ok((nodes, root))
}

/// Parameters of one line, tracking which were used so that unknown ones are reported.
struct Params<'a> {
    line: usize,
    what: String,
    items: Vec<(&'a str, &'a str)>,
    used: Vec<bool>,
}

impl<'a> Params<'a> {
    fn new(line: usize, what: String, items: Vec<(&'a str, &'a str)>) -> Self {
        let used = vec![false; items.len()];
        Params {
            line,
            what,
            items,
            used,
        }
    }

    fn raw(&mut self, key: &str) -> Option<&'a str> {
        let mut found = None;
        for (i, (k, v)) in self.items.iter().enumerate() {
            if *k == key {
                self.used[i] = true;
                found = Some(*v);
            }
        }
        found
    }

    fn err(&self, message: String) -> VgdlError {
        VgdlError::Semantic {
            line: self.line,
            message,
        }
    }

    fn int(&mut self, key: &str) -> Result<Option<i32>, VgdlError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => {
                // Multi-player lists "a,b": the first value is player 0's.
                let first = v.split(',').next().unwrap_or(v);
                first
                    .parse::<i32>()
                    .map(Some)
                    .or_else(|_| first.parse::<f64>().map(|f| Some(f as i32)))
                    .map_err(|_| {
                        self.err(format!(
                            "parameter {key}={v} of {} is not an integer",
                            self.what
                        ))
                    })
            }
        }
    }

    fn float(&mut self, key: &str) -> Result<Option<f64>, VgdlError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => v.parse::<f64>().map(Some).map_err(|_| {
                self.err(format!(
                    "parameter {key}={v} of {} is not a number",
                    self.what
                ))
            }),
        }
    }

    fn boolean(&mut self, key: &str) -> Result<Option<bool>, VgdlError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => {
                let first = v.split(',').next().unwrap_or(v);
                if first.eq_ignore_ascii_case("true") {
                    Ok(Some(true))
                } else if first.eq_ignore_ascii_case("false") {
                    Ok(Some(false))
                } else {
                    Err(self.err(format!(
                        "parameter {key}={v} of {} is not True/False",
                        self.what
                    )))
                }
            }
        }
    }

    fn ignore(&mut self, keys: &[&str]) {
        for k in keys {
            let _ = self.raw(k);
        }
    }

    /// Unknown parameters are ignored, as GVG-AI does, and reported as warnings.
    fn finish(self, warnings: &mut Vec<String>) -> Result<(), VgdlError> {
        for (i, (k, _)) in self.items.iter().enumerate() {
            if !self.used[i] {
                let w = format!(
                    "line {}: unknown parameter \"{k}\" for {} (ignored)",
                    self.line, self.what
                );
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
        }
        Ok(())
    }
}

/// Parameters that only affect rendering.
const RENDER_PARAMS: &[&str] = &[
    "img",
    "color",
    "hidden",
    "invisible",
    "shrinkfactor",
    "autotiling",
    "randomtiling",
    "frameRate",
    "draw_arrow",
    "solid",
    "orientedImg",
];

fn section_name(content: &str) -> Option<&'static str> {
    [
        "SpriteSet",
        "InteractionSet",
        "LevelMapping",
        "TerminationSet",
        "ParameterSet",
    ]
    .into_iter()
    .find(|s| s.eq_ignore_ascii_case(content))
}

/// Raw sprite declaration during resolution.
struct RawSprite<'a> {
    line: usize,
    declared_class: Option<&'a str>,
    /// Own parameters merged over the ancestors' (GVG-AI inheritance), with source lines.
    args: Vec<(&'a str, &'a str, usize)>,
    own_singleton: bool,
}

struct Resolver<'a> {
    names: Vec<String>,
    raw: Vec<Option<RawSprite<'a>>>,
    class: Vec<Option<SpriteClass>>,
    parent: Vec<Option<TypeId>>,
    children: Vec<Vec<TypeId>>,
    itypes: Vec<Vec<TypeId>>,
    subtypes: Vec<Vec<TypeId>>,
    order_tmp: Vec<TypeId>,
}

impl<'a> Resolver<'a> {
    fn new() -> Self {
        let mut r = Resolver {
            names: Vec::new(),
            raw: Vec::new(),
            class: Vec::new(),
            parent: Vec::new(),
            children: Vec::new(),
            itypes: Vec::new(),
            subtypes: Vec::new(),
            order_tmp: Vec::new(),
        };
        r.names.push("wall".into());
        r.names.push("avatar".into());
        for _ in 0..2 {
            r.raw.push(None);
            r.class.push(None);
            r.parent.push(None);
            r.children.push(Vec::new());
            r.itypes.push(Vec::new());
            r.subtypes.push(Vec::new());
        }
        r
    }

    fn id(&self, name: &str) -> Option<TypeId> {
        self.names
            .iter()
            .position(|n| n == name)
            .and_then(|i| TypeId::try_from(i).ok())
    }

    /// GVG-AI registers a name once; declaring it again reuses the id and the later
    /// declaration replaces the earlier one (class, parameters, ancestors, subtypes).
    fn register(&mut self, name: &str, line: usize) -> Result<TypeId, VgdlError> {
        if let Some(id) = self.id(name) {
            return Ok(id);
        }
        let id = TypeId::try_from(self.names.len()).map_err(|_| VgdlError::Semantic {
            line,
            message: "too many sprite types".into(),
        })?;
        self.names.push(name.to_string());
        self.raw.push(None);
        self.class.push(None);
        self.parent.push(None);
        self.children.push(Vec::new());
        self.itypes.push(Vec::new());
        self.subtypes.push(Vec::new());
        Ok(id)
    }

    /// GVG-AI `_parseSprites`: registration, class and parameter inheritance, order.
    fn sprites(
        &mut self,
        nodes: &[Node<'a>],
        elements: &[usize],
        parent: Option<TypeId>,
        parent_class: Option<&'a str>,
        parent_args: &[(&'a str, &'a str, usize)],
        parent_types: &[TypeId],
    ) -> Result<(), VgdlError> {
        for &el in elements {
            let node = &nodes[el];
            let t = tokenize(node.line, node.content)?;
            let rhs = t.rhs.ok_or_else(|| VgdlError::Syntax {
                line: node.line,
                message: format!("sprite definition \"{}\" has no '>'", node.content),
            })?;
            let name = match t.lhs.as_slice() {
                [Item::Word(n)] => *n,
                _ => {
                    return Err(VgdlError::Syntax {
                        line: node.line,
                        message: format!(
                            "sprite definition \"{}\" needs one name before '>'",
                            node.content
                        ),
                    });
                }
            };
            let id = self.register(name, node.line)?;
            let mut declared_class = None;
            let mut own: Vec<(&'a str, &'a str, usize)> = Vec::new();
            for (k, it) in rhs.iter().enumerate() {
                match it {
                    Item::Word(w) if k == 0 => declared_class = Some(*w),
                    Item::Word(w) => {
                        return Err(VgdlError::Syntax {
                            line: node.line,
                            message: format!(
                                "unexpected word \"{w}\" in sprite \"{name}\" (expected key=value)"
                            ),
                        });
                    }
                    Item::Param(pk, pv) => own.push((pk, pv, node.line)),
                }
            }
            if let Some(c) = declared_class {
                if SpriteClass::from_name(c).is_none() {
                    let message = if UNSUPPORTED_CLASSES.contains(&c) {
                        format!("unsupported sprite class \"{c}\" (not implemented yet)")
                    } else {
                        format!("unknown sprite class \"{c}\"")
                    };
                    return Err(VgdlError::Semantic {
                        line: node.line,
                        message,
                    });
                }
            }
            let own_singleton = own
                .iter()
                .any(|(k, v, _)| *k == "singleton" && v.eq_ignore_ascii_case("true"));
            let mut args: Vec<(&'a str, &'a str, usize)> = parent_args.to_vec();
            for (k, v, l) in &own {
                args.retain(|(ak, _, _)| ak != k);
                args.push((k, v, *l));
            }
            let effective = parent_class.or(declared_class);
            let idx = usize::from(id);
            self.class[idx] = effective.and_then(SpriteClass::from_name);
            self.parent[idx] = parent;
            if let Some(p) = parent {
                self.children[usize::from(p)].push(id);
            }
            let mut types = parent_types.to_vec();
            types.push(id);
            self.itypes[idx] = types.clone();
            let own_singleton =
                own_singleton || self.raw[idx].as_ref().is_some_and(|r| r.own_singleton);
            self.raw[idx] = Some(RawSprite {
                line: node.line,
                declared_class,
                args: args.clone(),
                own_singleton,
            });
            if node.children.is_empty() {
                self.order_tmp.retain(|&x| x != id);
                self.order_tmp.push(id);
                self.subtypes[idx] = vec![id];
            } else {
                let child_class = declared_class.or(parent_class);
                self.sprites(nodes, &node.children, Some(id), child_class, &args, &types)?;
                let mut subs = vec![id];
                for &c in &self.children[idx] {
                    for &s in &self.subtypes[usize::from(c)] {
                        if !subs.contains(&s) {
                            subs.push(s);
                        }
                    }
                }
                self.subtypes[idx] = subs;
            }
        }
        Ok(())
    }
}

fn type_list(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    key: &str,
) -> Result<Option<Vec<TypeId>>, VgdlError> {
    match p.raw(key) {
        None => Ok(None),
        Some(v) => {
            let mut out = Vec::new();
            for name in v.split(',').filter(|s| !s.is_empty()) {
                let id = r.id(name).ok_or_else(|| {
                    p.err(format!("unknown sprite \"{name}\" in {key}= of {}", p.what))
                })?;
                out.push(id);
            }
            Ok(Some(out))
        }
    }
}

fn one_type(r: &Resolver<'_>, p: &mut Params<'_>, key: &str) -> Result<Option<TypeId>, VgdlError> {
    Ok(type_list(r, p, key)?.and_then(|v| v.first().copied()))
}

fn need_type(r: &Resolver<'_>, p: &mut Params<'_>, key: &str) -> Result<TypeId, VgdlError> {
    one_type(r, p, key)?.ok_or_else(|| p.err(format!("{} needs {key}=", p.what)))
}

fn direction(p: &mut Params<'_>, key: &str) -> Result<Option<Dir>, VgdlError> {
    match p.raw(key) {
        None => Ok(None),
        Some(v) => Ok(Some(match v.to_ascii_uppercase().as_str() {
            "UP" => Dir::UP,
            "DOWN" => Dir::DOWN,
            "LEFT" => Dir::LEFT,
            "RIGHT" => Dir::RIGHT,
            "NONE" => Dir::NONE,
            _ => return Err(p.err(format!("unknown orientation \"{v}\" in {}", p.what))),
        })),
    }
}

fn sprite_params(
    r: &Resolver<'_>,
    name: &str,
    raw: &RawSprite<'_>,
    warnings: &mut Vec<String>,
) -> Result<SpriteParams, VgdlError> {
    // Report the line where the sprite is declared (parameters may come from a parent).
    let items: Vec<(&str, &str)> = raw.args.iter().map(|(k, v, _)| (*k, *v)).collect();
    let mut p = Params::new(raw.line, format!("sprite \"{name}\""), items);
    p.ignore(RENDER_PARAMS);
    p.ignore(&["singleton"]);
    if let Some(pt) = p.raw("physicstype") {
        if !(pt.eq_ignore_ascii_case("GridPhysics") || pt == "0") {
            return Err(p.err(format!(
                "unsupported physicstype \"{pt}\" (only GridPhysics)"
            )));
        }
    }
    let params = SpriteParams {
        speed: p.float("speed")?,
        cooldown: p.int("cooldown")?,
        orientation: direction(&mut p, "orientation")?,
        spawn_orientation: direction(&mut p, "spawnorientation")?,
        limit: p.int("limit")?,
        value: p.int("value")?,
        prob: p.float("prob")?,
        total: p.int("total")?,
        cons: p.int("cons")?,
        stype: type_list(r, &mut p, "stype")?,
        stype1: type_list(r, &mut p, "stype1")?,
        stype2: type_list(r, &mut p, "stype2")?,
        ammo: type_list(r, &mut p, "ammo")?,
        min_ammo: p.int("minAmmo")?,
        ammo_cost: p.int("ammoCost")?,
        health_points: p.int("healthPoints")?,
        max_health_points: p.int("maxHealthPoints")?,
        limit_health_points: p.int("limitHealthPoints")?,
        rotate_in_place: p.boolean("rotateInPlace")?,
        spread_prob: p.float("spreadprob")?,
        epsilon: p.float("epsilon")?,
        max_distance: p.float("maxDistance")?,
        portal: p.boolean("portal")?,
        random_target: p.boolean("randomTarget")?,
        spawn_behind: type_list(r, &mut p, "spawnBehind")?,
        stype_missile: type_list(r, &mut p, "stypeMissile")?,
        stypes: type_list(r, &mut p, "stypes")?,
        time_to_live: p.int("timeToLive")?,
        policy: p.raw("policy").map(str::to_string),
    };
    p.finish(warnings)?;
    Ok(params)
}

fn build_effect(
    r: &Resolver<'_>,
    function: &str,
    line: usize,
    items: Vec<(&str, &str)>,
    warnings: &mut Vec<String>,
) -> Result<Effect, VgdlError> {
    let mut p = Params::new(line, format!("effect {function}"), items);
    let score_change = p.int("scoreChange")?.unwrap_or(0);
    let prob = p.float("prob")?.unwrap_or(1.0);
    let repeat = p.int("repeat")?.unwrap_or(1).max(0) as u32;
    if repeat > 100 {
        return Err(p.err(format!("repeat={repeat} is too large (at most 100)")));
    }
    // Multi-player counters are accepted and have no single-player effect.
    p.ignore(&["counter", "counterElse", "count", "countElse", "applyScore"]);
    use EffectKind as E;
    let kind = match function {
        "stepBack" => E::StepBack {
            pixel_perfect: p.boolean("pixelPerfect")?.unwrap_or(false),
        },
        "undoAll" => E::UndoAll {
            not_types: type_list(r, &mut p, "notStype")?.unwrap_or_default(),
        },
        "bounceForward" => E::BounceForward,
        "killSprite" => E::KillSprite,
        "killBoth" => E::KillBoth,
        "killAll" => E::KillAll {
            stype: need_type(r, &mut p, "stype")?,
        },
        "killIfHasMore" | "killIfHasLess" => {
            let resource = need_type(r, &mut p, "resource")?;
            let limit = p.int("limit")?.unwrap_or(0);
            if function == "killIfHasMore" {
                E::KillIfHasMore { resource, limit }
            } else {
                E::KillIfHasLess { resource, limit }
            }
        }
        "killIfOtherHasMore" => E::KillIfOtherHasMore {
            resource: need_type(r, &mut p, "resource")?,
            limit: p.int("limit")?.unwrap_or(0),
            subtract: p.boolean("subtract")?.unwrap_or(false),
        },
        "killIfFromAbove" => E::KillIfFromAbove,
        "killIfFrontal" => E::KillIfFrontal,
        "killIfNotFrontal" => E::KillIfNotFrontal,
        "collectResourceIfHeld" => E::CollectResourceIfHeld {
            held: need_type(r, &mut p, "heldResource")?,
            value: p.int("value")?.unwrap_or(1),
            kill_resource: p.boolean("killResource")?.unwrap_or(true),
        },
        "setSpeedForAll" | "increaseSpeedToAll" | "decreaseSpeedToAll" => {
            let mode = match function {
                "setSpeedForAll" => SpeedMode::Set,
                "increaseSpeedToAll" => SpeedMode::Increase,
                _ => SpeedMode::Decrease,
            };
            let default = if mode == SpeedMode::Set { 0.0 } else { 0.1 };
            E::SpeedForAll {
                stype: need_type(r, &mut p, "stype")?,
                value: p.float("value")?.unwrap_or(default),
                mode,
            }
        }
        "halfSpeed" => E::HalfSpeed,
        "spawnRight" | "spawnLeft" | "spawnAbove" | "spawnBelow" => E::SpawnNextTo {
            stype: need_type(r, &mut p, "stype")?,
            dir: match function {
                "spawnRight" => Dir::RIGHT,
                "spawnLeft" => Dir::LEFT,
                "spawnAbove" => Dir::UP,
                _ => Dir::DOWN,
            },
            step_back: p.boolean("stepBack")?.unwrap_or(false),
        },
        "align" => E::Align {
            orient: p.boolean("orient")?.unwrap_or(true),
        },
        "transformToRandomChild" => E::TransformToRandomChild {
            stype: need_type(r, &mut p, "stype")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
            force_orientation: p.boolean("forceOrientation")?.unwrap_or(false),
        },
        "flipDirection" => E::FlipDirection,
        "transformIfCount" => E::TransformIfCount {
            stype: need_type(r, &mut p, "stype")?,
            count_type: need_type(r, &mut p, "stypeCount")?,
            geq: p.int("geq")?.unwrap_or(0),
            leq: p.int("leq")?.unwrap_or(10_000),
            else_type: one_type(r, &mut p, "estype")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
            force_orientation: p.boolean("forceOrientation")?.unwrap_or(false),
        },
        "transformToSingleton" => E::TransformToSingleton {
            stype: need_type(r, &mut p, "stype")?,
            stype_other: need_type(r, &mut p, "stype_other")?,
            take_orientation: p.boolean("takeOrientation")?.unwrap_or(false),
        },
        "spawnIfHasLess" => E::SpawnIfHasLess {
            resource: need_type(r, &mut p, "resource")?,
            limit: p.int("limit")?.unwrap_or(0),
            stype: need_type(r, &mut p, "stype")?,
        },
        "spawnBehind" => E::SpawnBehind {
            stype: need_type(r, &mut p, "stype")?,
        },
        "addHealthPointsToMax" => E::AddHealthPointsToMax {
            value: p.int("value")?.unwrap_or(1),
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
        },
        "transformTo" => E::TransformTo {
            stype: need_type(r, &mut p, "stype")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
            force_orientation: p.boolean("forceOrientation")?.unwrap_or(false),
        },
        "transformToAll" => E::TransformToAll {
            stype: need_type(r, &mut p, "stype")?,
            stype_to: need_type(r, &mut p, "stypeTo")?,
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
            force_orientation: p.boolean("forceOrientation")?.unwrap_or(false),
        },
        "cloneSprite" => E::CloneSprite,
        "spawn" => E::Spawn {
            stype: need_type(r, &mut p, "stype")?,
        },
        "spawnIfHasMore" => E::SpawnIfHasMore {
            resource: need_type(r, &mut p, "resource")?,
            limit: p.int("limit")?.unwrap_or(0),
            stype: need_type(r, &mut p, "stype")?,
            spend: p.int("spend")?.unwrap_or(0),
        },
        "collectResource" => E::CollectResource {
            kill_resource: p.boolean("killResource")?.unwrap_or(true),
        },
        "changeResource" => E::ChangeResource {
            resource: need_type(r, &mut p, "resource")?,
            value: p.int("value")?.unwrap_or(1),
            kill_resource: p.boolean("killResource")?.unwrap_or(false),
        },
        "subtractHealthPoints" => E::SubtractHealthPoints {
            value: p.int("value")?.unwrap_or(1),
            limit: p.int("limit")?.unwrap_or(0),
            stype: one_type(r, &mut p, "stype")?,
            score_if_killed: p.int("scoreChangeIfKilled")?.unwrap_or(0),
        },
        "addHealthPoints" => E::AddHealthPoints {
            value: p.int("value")?.unwrap_or(1),
            kill_second: p.boolean("killSecond")?.unwrap_or(false),
        },
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
        "shieldFrom" => {
            let stype = need_type(r, &mut p, "stype")?;
            let ftype = p
                .raw("ftype")
                .ok_or_else(|| p.err("shieldFrom needs ftype=".into()))?;
            E::ShieldFrom {
                stype,
                ftype: ftype.to_string(),
            }
        }
        "addTimer" => {
            let timer = p.int("timer")?.unwrap_or(-1);
            let repeating = p.boolean("repeating")?.unwrap_or(false);
            let ftype = p
                .raw("ftype")
                .ok_or_else(|| p.err("addTimer needs ftype=".into()))?;
            // The delegate is built from the same line with the function replaced (GVG-AI).
            let rest: Vec<(&str, &str)> = p
                .items
                .iter()
                .copied()
                .filter(|(k, _)| !matches!(*k, "timer" | "ftype" | "repeating"))
                .collect();
            let delegate = build_effect(r, ftype, line, rest, warnings)?;
            for u in p.used.iter_mut() {
                *u = true;
            }
            E::AddTimer {
                timer,
                repeating,
                delegate: Box::new(delegate),
            }
        }
        other => {
            let known_unsupported = [
                "bounceDirection",
                "wallBounce",
                "wallReverse",
                "wallStop",
                "killIfAlive",
                "killIfFast",
                "killIfNotUpright",
                "killIfSlow",
                "removeScore",
                "spawnIfCounterSubTypes",
                "updateSpawnType",
                "waterPhysics",
            ];
            let message = if known_unsupported.contains(&other) {
                format!("unsupported effect \"{other}\" (not implemented yet)")
            } else {
                format!("unknown effect \"{other}\"")
            };
            return Err(VgdlError::Semantic { line, message });
        }
    };
    p.finish(warnings)?;
    Ok(Effect {
        kind,
        score_change,
        prob,
        repeat,
        line,
    })
}

fn params_of<'a>(
    items: &[Item<'a>],
    line: usize,
    what: &str,
) -> Result<Vec<(&'a str, &'a str)>, VgdlError> {
    items
        .iter()
        .map(|it| match it {
            Item::Param(k, v) => Ok((*k, *v)),
            Item::Word(w) => Err(VgdlError::Syntax {
                line,
                message: format!("unexpected word \"{w}\" in {what} (expected key=value)"),
            }),
        })
        .collect()
}

/// Parse a VGDL game description.
pub fn parse_game(text: &str) -> Result<GameDescription, VgdlError> {
    let (nodes, root) = build_tree(text)?;
    let root_node = &nodes[root];
    let t = tokenize(root_node.line, root_node.content)?;
    let (game_class, game_items) = match (t.lhs.split_first(), &t.rhs) {
        (Some((Item::Word(c), rest)), None) => (*c, rest.to_vec()),
        _ => {
            return Err(VgdlError::Syntax {
                line: root_node.line,
                message: format!(
                    "expected \"BasicGame [params]\", found \"{}\"",
                    root_node.content
                ),
            });
        }
    };
    if game_class != "BasicGame" {
        return Err(VgdlError::Semantic {
            line: root_node.line,
            message: format!("unsupported game class \"{game_class}\" (only BasicGame)"),
        });
    }

    let mut sections: Vec<(&'static str, usize)> = Vec::new();
    for &c in &root_node.children {
        let n = &nodes[c];
        match section_name(n.content) {
            Some("ParameterSet") => {
                return Err(VgdlError::Semantic {
                    line: n.line,
                    message: "unsupported section ParameterSet (game spaces)".into(),
                });
            }
            Some(s) => sections.push((s, c)),
            None => {
                return Err(VgdlError::Syntax {
                    line: n.line,
                    message: format!("unknown section \"{}\"", n.content),
                });
            }
        }
    }

    // Sprites first: everything else refers to them.
    let mut r = Resolver::new();
    for &(s, c) in &sections {
        if s == "SpriteSet" {
            r.order_tmp.push(WALL);
            r.order_tmp.push(AVATAR);
            r.sprites(&nodes, &nodes[c].children, None, None, &[], &[])?;
        }
    }
    if r.order_tmp.is_empty() {
        r.order_tmp.push(WALL);
        r.order_tmp.push(AVATAR);
    }

    let mut warnings: Vec<String> = Vec::new();
    let mut types = Vec::with_capacity(r.names.len());
    for i in 0..r.names.len() {
        let id = i as TypeId;
        let (class, params, singleton, line) = match &r.raw[i] {
            Some(raw) => (
                r.class[i],
                sprite_params(&r, &r.names[i], raw, &mut warnings)?,
                raw.own_singleton,
                raw.line,
            ),
            None if id == WALL => (
                Some(SpriteClass::Immovable),
                SpriteParams::default(),
                false,
                0,
            ),
            None => (
                Some(SpriteClass::MovingAvatar),
                SpriteParams::default(),
                false,
                0,
            ),
        };
        let _ = r.raw[i].as_ref().map(|raw| raw.declared_class);
        let itypes = if r.itypes[i].is_empty() {
            vec![id]
        } else {
            r.itypes[i].clone()
        };
        let subtypes = if r.subtypes[i].is_empty() {
            vec![id]
        } else {
            r.subtypes[i].clone()
        };
        types.push(SpriteType {
            name: r.names[i].clone(),
            class,
            params,
            parent: r.parent[i],
            children: r.children[i].clone(),
            itypes,
            subtypes,
            singleton,
            line,
        });
    }
    let mut sprite_order: Vec<TypeId> = r
        .order_tmp
        .iter()
        .copied()
        .filter(|&t| t != AVATAR)
        .collect();
    sprite_order.push(AVATAR);

    let game_params = {
        let items = params_of(&game_items, root_node.line, "BasicGame")?;
        let mut p = Params::new(root_node.line, "BasicGame".into(), items);
        let square_size = p.int("square_size")?.map(|v| v.max(1) as u32);
        if square_size.is_some_and(|v| v > 1000) {
            return Err(p.err("square_size is too large (at most 1000)".into()));
        }
        let key_handler = p.raw("key_handler").map(str::to_string);
        let obs = type_list(&r, &mut p, "obs")?.unwrap_or_default();
        p.ignore(&["title"]);
        p.finish(&mut warnings)?;
        GameParams {
            square_size,
            key_handler,
            obs,
        }
    };

    let mut unresolved_mapping: Vec<(char, String, usize)> = Vec::new();
    let mut level_mapping: Vec<(char, Vec<TypeId>)> = vec![('w', vec![WALL]), ('A', vec![AVATAR])];
    let mut interactions = Vec::new();
    let mut terminations = Vec::new();
    for &(s, c) in &sections {
        for &el in &nodes[c].children {
            let n = &nodes[el];
            if !n.children.is_empty() && s != "SpriteSet" {
                return Err(VgdlError::Syntax {
                    line: nodes[n.children[0]].line,
                    message: format!("unexpected indented line under \"{}\" in {s}", n.content),
                });
            }
            match s {
                "LevelMapping" => {
                    // The key may be any character, '=' and '>' included: split by hand.
                    let mut chars = n.content.chars();
                    let ch = chars.next();
                    let rest = chars.as_str();
                    let after = rest.trim_start().strip_prefix('>');
                    let (Some(ch), Some(after), true) = (
                        ch,
                        after,
                        rest.starts_with(char::is_whitespace) || rest.starts_with('>'),
                    ) else {
                        return Err(VgdlError::Syntax {
                            line: n.line,
                            message: format!(
                                "level mapping \"{}\" must be \"c > sprite ...\"",
                                n.content
                            ),
                        });
                    };
                    let t = tokenize(n.line, after)?;
                    if t.rhs.is_some() {
                        return Err(VgdlError::Syntax {
                            line: n.line,
                            message: "level mapping has two '>'".into(),
                        });
                    }
                    let rhs = t.lhs;
                    let mut ids = Vec::new();
                    let mut unknown: Option<String> = None;
                    for it in rhs {
                        let Item::Word(name) = it else {
                            return Err(VgdlError::Syntax {
                                line: n.line,
                                message: "level mapping takes sprite names only".into(),
                            });
                        };
                        match r.id(name) {
                            Some(id) => ids.push(id),
                            None => unknown = Some(name.to_string()),
                        }
                    }
                    level_mapping.retain(|(k, _)| *k != ch);
                    unresolved_mapping.retain(|(k, _, _)| *k != ch);
                    match unknown {
                        // GVG-AI only fails if a level uses the character.
                        None => level_mapping.push((ch, ids)),
                        Some(name) => unresolved_mapping.push((ch, name, n.line)),
                    }
                }
                "InteractionSet" => {
                    let t = tokenize(n.line, n.content)?;
                    let Some(rhs) = t.rhs else {
                        return Err(VgdlError::Syntax {
                            line: n.line,
                            message: format!("interaction \"{}\" has no '>'", n.content),
                        });
                    };
                    let mut names = Vec::new();
                    for it in &t.lhs {
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
                    let (function, rest) = match rhs.split_first() {
                        Some((Item::Word(f), rest)) => (*f, rest),
                        _ => {
                            return Err(VgdlError::Syntax {
                                line: n.line,
                                message: "an interaction needs an effect name after '>'".into(),
                            });
                        }
                    };
                    let items = params_of(rest, n.line, "an interaction")?;
                    let is_time = |x: &str| r.id(x).is_none() && x.eq_ignore_ascii_case("TIME");
                    let is_eos = |x: &str| r.id(x).is_none() && x.eq_ignore_ascii_case("EOS");
                    if names.iter().any(|x| is_time(x)) {
                        // Native timed effect: `sprite TIME > effect timer=N [repeating=True]`.
                        let sprite_name = match names.as_slice() {
                            [t, x] | [x, t] if is_time(t) && !is_time(x) && !is_eos(x) => *x,
                            _ => {
                                return Err(VgdlError::Semantic {
                                    line: n.line,
                                    message: "a TIME interaction needs exactly one sprite and TIME"
                                        .into(),
                                });
                            }
                        };
                        let first = r.id(sprite_name).ok_or_else(|| VgdlError::Semantic {
                            line: n.line,
                            message: format!("unknown sprite \"{sprite_name}\" in interaction"),
                        })?;
                        let mut p =
                            Params::new(n.line, format!("timed effect {function}"), items.clone());
                        let timer = p.int("timer")?.unwrap_or(-1);
                        let repeating = p.boolean("repeating")?.unwrap_or(false);
                        let planned = p.int("nextExecution")?.is_some_and(|v| v != -1);
                        let rest: Vec<(&str, &str)> = items
                            .into_iter()
                            .filter(|(k, _)| !matches!(*k, "timer" | "repeating" | "nextExecution"))
                            .collect();
                        let effect = build_effect(&r, function, n.line, rest, &mut warnings)?;
                        interactions.push(Interaction {
                            first,
                            other: Other::Time {
                                timer,
                                repeating,
                                planned,
                            },
                            effect,
                        });
                        continue;
                    }
                    let effect = build_effect(&r, function, n.line, items, &mut warnings)?;
                    let resolve = |name: &str| -> Result<Option<TypeId>, VgdlError> {
                        if is_eos(name) {
                            Ok(None)
                        } else {
                            r.id(name).map(Some).ok_or_else(|| VgdlError::Semantic {
                                line: n.line,
                                message: format!("unknown sprite \"{name}\" in interaction"),
                            })
                        }
                    };
                    let first = resolve(names[0])?;
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
                }
                "TerminationSet" => {
                    let t = tokenize(n.line, n.content)?;
                    let (kind_name, rest) = match (t.lhs.split_first(), &t.rhs) {
                        (Some((Item::Word(k), rest)), None) => (*k, rest),
                        _ => {
                            return Err(VgdlError::Syntax {
                                line: n.line,
                                message: format!(
                                    "termination \"{}\" must be \"Kind key=value ...\"",
                                    n.content
                                ),
                            });
                        }
                    };
                    let items = params_of(rest, n.line, "a termination")?;
                    let mut p = Params::new(n.line, format!("termination {kind_name}"), items);
                    let win = p.boolean("win")?.unwrap_or(false);
                    let limit = p.int("limit")?.unwrap_or(0);
                    if p.boolean("count_score")?.unwrap_or(false) {
                        return Err(
                            p.err("unsupported count_score=True (multi-player scoring)".into())
                        );
                    }
                    let kind = match kind_name {
                        "SpriteCounter" => TerminationKind::SpriteCounter {
                            stype: need_type(&r, &mut p, "stype")?,
                            limit,
                        },
                        "MultiSpriteCounter" => {
                            let mut stypes = Vec::new();
                            for key in ["stype1", "stype2", "stype3"] {
                                if let Some(t) = one_type(&r, &mut p, key)? {
                                    stypes.push(t);
                                }
                            }
                            let min = p.boolean("min")?.unwrap_or(false);
                            TerminationKind::MultiSpriteCounter { stypes, limit, min }
                        }
                        "Timeout" => TerminationKind::Timeout { limit },
                        "SpriteCounterMore" => TerminationKind::SpriteCounterMore {
                            stype: need_type(&r, &mut p, "stype")?,
                            limit,
                        },
                        "MultiSpriteCounterSubTypes" => {
                            TerminationKind::MultiSpriteCounterSubTypes {
                                stype: need_type(&r, &mut p, "stype1")?,
                                limit,
                                subtypes: p.int("subTypesNum")?.unwrap_or(-1),
                            }
                        }
                        "StopCounter" => {
                            return Err(p.err(format!(
                                "unsupported termination \"{kind_name}\" (not implemented yet)"
                            )));
                        }
                        other => return Err(p.err(format!("unknown termination \"{other}\""))),
                    };
                    p.finish(&mut warnings)?;
                    terminations.push(Termination {
                        kind,
                        win,
                        line: n.line,
                    });
                }
                _ => {}
            }
        }
    }

    Ok(GameDescription {
        params: game_params,
        types,
        sprite_order,
        level_mapping,
        interactions,
        terminations,
        unresolved_mapping,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOKOBAN: &str = "BasicGame key_handler=Pulse square_size=40
    SpriteSet
        floor > Immovable img=newset/floor2
        hole   > Immovable color=DARKBLUE img=oryx/cspell4
        avatar > MovingAvatar img=oryx/knight1
        box    > Passive img=newset/block1 shrinkfactor=0.8
        wall > Immovable img=oryx/wall3 autotiling=True
    LevelMapping
        0 > floor hole
        1 > floor box
        w > floor wall
        A > floor avatar
        . > floor
    InteractionSet
        avatar wall > stepBack
        box avatar  > bounceForward
        box wall box  > undoAll
        box hole    > killSprite scoreChange=1
    TerminationSet
        SpriteCounter stype=box    limit=0 win=True";

    #[test]
    fn sokoban_type_ids_and_order() {
        let g = parse_game(SOKOBAN).unwrap();
        let names: Vec<&str> = g.types.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["wall", "avatar", "floor", "hole", "box"]);
        // order: floor hole box wall (wall re-added last), avatar at the end
        let order: Vec<&str> = g.sprite_order.iter().map(|&t| g.type_name(t)).collect();
        assert_eq!(order, ["floor", "hole", "box", "wall", "avatar"]);
        assert_eq!(g.interactions.len(), 5);
        assert_eq!(g.interactions[4].effect.score_change, 1);
        assert_eq!(g.mapping('w'), Some(&[2, 0][..]));
    }

    #[test]
    fn inheritance_and_nearest_ancestor_class() {
        let g = parse_game(
            "BasicGame
  SpriteSet
    structure > Immovable
      goal > Door
      entry > Portal stype=goal
        e1 >
    animal > speed=0.5
      bird > RandomNPC cons=2
  TerminationSet
    Timeout limit=10 win=True",
        )
        .unwrap();
        let goal = g.type_id("goal").unwrap();
        assert_eq!(
            g.types[usize::from(goal)].class,
            Some(SpriteClass::Immovable)
        );
        let e1 = g.type_id("e1").unwrap();
        assert_eq!(g.types[usize::from(e1)].class, Some(SpriteClass::Portal));
        assert_eq!(g.types[usize::from(e1)].params.stype, Some(vec![goal]));
        let bird = g.type_id("bird").unwrap();
        assert_eq!(g.types[usize::from(bird)].params.speed, Some(0.5));
        assert_eq!(g.types[usize::from(bird)].params.cons, Some(2));
        let animal = g.type_id("animal").unwrap();
        assert_eq!(g.types[usize::from(animal)].subtypes, vec![animal, bird]);
    }

    #[test]
    fn errors_name_line_and_problem() {
        let e = parse_game("BasicGame\n  SpriteSet\n    a > Foo\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: unknown sprite class \"Foo\"");
        let g = parse_game("BasicGame\n  SpriteSet\n    a > Immovable\n    a > Passive\n").unwrap();
        assert_eq!(
            g.types[2].class,
            Some(SpriteClass::Passive),
            "the later declaration wins"
        );
        let e = parse_game("BasicGame\n  SpriteSet\n    a > Walker\n").unwrap_err();
        assert!(
            e.to_string()
                .contains("unsupported sprite class \"Walker\""),
            "{e}"
        );
        let e = parse_game(
            "BasicGame\n  SpriteSet\n    a > Immovable\n  InteractionSet\n    a b > killSprite\n",
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "line 5: unknown sprite \"b\" in interaction");
        let e = parse_game("BasicGame\n  InteractionSet\n    avatar wall > fly\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: unknown effect \"fly\"");
        let e = parse_game("BasicGame\n  SpriteSet\n    a > Immovable speed=fast\n").unwrap_err();
        assert!(
            e.to_string().starts_with("line 3: parameter speed=fast"),
            "{e}"
        );
        let g = parse_game("BasicGame\n  SpriteSet\n    a > Immovable wings=2\n").unwrap();
        assert_eq!(
            g.warnings,
            ["line 3: unknown parameter \"wings\" for sprite \"a\" (ignored)"]
        );
    }

    #[test]
    fn eos_and_multi_type_lines() {
        let g =
            parse_game("BasicGame\n  InteractionSet\n    avatar EOS wall > stepBack\n").unwrap();
        assert_eq!(g.interactions.len(), 2);
        assert_eq!(g.interactions[0].other, Other::Eos);
        assert_eq!(g.interactions[1].other, Other::Sprite(WALL));
    }
}
