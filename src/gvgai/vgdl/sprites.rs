//! The SpriteSet: GVG-AI's sprite registration (`wall` and `avatar` first, then every name in
//! declaration order), class and parameter inheritance down the tree, the update order, and
//! the typed parameters of each sprite type.

use super::VgdlError;
use super::coverage::{Construct, SUPPORTED_PHYSICS, refuse};
use super::model::*;
use super::params::{Params, direction, type_list};
use super::syntax::{Item, Node, tokenize};

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
    "orientedImg",
];

/// Raw sprite declaration during resolution.
struct RawSprite<'a> {
    line: usize,
    /// Own parameters merged over the ancestors' (GVG-AI inheritance), with source lines.
    args: Vec<(&'a str, &'a str, usize)>,
    own_singleton: bool,
}

/// A parameter with the line it was written on.
type Arg<'a> = (&'a str, &'a str, usize);

/// The sprite types registered so far, with what each inherited.
pub(super) struct Resolver<'a> {
    names: Vec<String>,
    raw: Vec<Option<RawSprite<'a>>>,
    class: Vec<Option<SpriteClass>>,
    parent: Vec<Option<TypeId>>,
    children: Vec<Vec<TypeId>>,
    itypes: Vec<Vec<TypeId>>,
    subtypes: Vec<Vec<TypeId>>,
    order_tmp: Vec<TypeId>,
    /// Warnings about class words GVG-AI ignores (a leaf's under a parent class).
    notes: Vec<String>,
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
            notes: Vec::new(),
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

    /// Register the sprites of every SpriteSet section (`sections` holds each section's name
    /// and node); everything else in a description refers to them.
    pub(super) fn from_sections(
        nodes: &[Node<'a>],
        sections: &[(&'static str, usize)],
    ) -> Result<Self, VgdlError> {
        let mut r = Resolver::new();
        for &(s, c) in sections {
            if s == "SpriteSet" {
                r.order_tmp.push(WALL);
                r.order_tmp.push(AVATAR);
                r.sprites(nodes, &nodes[c].children, None, None, &[], &[])?;
            }
        }
        if r.order_tmp.is_empty() {
            r.order_tmp.push(WALL);
            r.order_tmp.push(AVATAR);
        }
        Ok(r)
    }

    pub(super) fn id(&self, name: &str) -> Option<TypeId> {
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
        parent_args: &[Arg<'a>],
        parent_types: &[TypeId],
    ) -> Result<(), VgdlError> {
        for &el in elements {
            let node = &nodes[el];
            let (name, rhs) = sprite_head(node)?;
            let id = self.register(name, node.line)?;
            // GVG-AI gives a leaf its parent's class: the leaf's own class word is never used.
            let ignored = node.children.is_empty() && parent_class.is_some();
            let (declared_class, own) = sprite_body(node, &rhs, ignored)?;
            if let (true, Some(c)) = (ignored, declared_class) {
                if SpriteClass::from_name(c).is_none() {
                    self.notes.push(format!(
                        "line {}: sprite \"{name}\" names the unknown class \"{c}\"; its \
                         parent's class applies (GVG-AI ignores the word)",
                        node.line
                    ));
                }
            }
            let own_singleton = own
                .iter()
                .any(|(k, v, _)| *k == "singleton" && v.eq_ignore_ascii_case("true"));
            let mut args: Vec<Arg<'a>> = parent_args.to_vec();
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
                args: args.clone(),
                own_singleton,
            });
            if node.children.is_empty() {
                self.order_tmp.retain(|&x| x != id);
                self.order_tmp.push(id);
                // GVG-AI's subtypes of a type start with its ancestors (`itypes`): an effect
                // or count on a type also covers the sprites of its ancestor types.
                self.subtypes[idx] = types.clone();
            } else {
                let child_class = declared_class.or(parent_class);
                // A declaration with children replaces the subtree of an earlier one.
                self.children[idx].clear();
                self.sprites(nodes, &node.children, Some(id), child_class, &args, &types)?;
                self.subtypes[idx] = self.subtree(id);
            }
        }
        Ok(())
    }

    /// A type's ancestors and itself followed by its children's subtypes, each once.
    fn subtree(&self, id: TypeId) -> Vec<TypeId> {
        let mut subs = self.itypes[usize::from(id)].clone();
        for &c in &self.children[usize::from(id)] {
            for &s in &self.subtypes[usize::from(c)] {
                if !subs.contains(&s) {
                    subs.push(s);
                }
            }
        }
        subs
    }

    /// Every registered type, in id order, with its resolved class and parameters; `wall` and
    /// `avatar` keep GVG-AI's defaults (Immovable, MovingAvatar) unless declared.
    pub(super) fn sprite_types(
        &self,
        warnings: &mut Vec<String>,
    ) -> Result<Vec<SpriteType>, VgdlError> {
        warnings.extend(self.notes.iter().cloned());
        let mut types = Vec::with_capacity(self.names.len());
        for i in 0..self.names.len() {
            let id = i as TypeId;
            let (class, params, singleton, line) = match &self.raw[i] {
                Some(raw) => (
                    self.class[i],
                    sprite_params(self, &self.names[i], raw, warnings)?,
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
            let itypes = if self.itypes[i].is_empty() {
                vec![id]
            } else {
                self.itypes[i].clone()
            };
            let subtypes = if self.subtypes[i].is_empty() {
                vec![id]
            } else {
                self.subtypes[i].clone()
            };
            types.push(SpriteType {
                name: self.names[i].clone(),
                class,
                params,
                parent: self.parent[i],
                children: self.children[i].clone(),
                itypes,
                subtypes,
                singleton,
                line,
            });
        }
        Ok(types)
    }

    /// The update order: leaves in the order they were last declared, the avatar last.
    pub(super) fn sprite_order(&self) -> Vec<TypeId> {
        let mut sprite_order: Vec<TypeId> = self
            .order_tmp
            .iter()
            .copied()
            .filter(|&t| t != AVATAR)
            .collect();
        sprite_order.push(AVATAR);
        sprite_order
    }
}

/// The name of a SpriteSet line and what follows its `>`.
fn sprite_head<'a>(node: &Node<'a>) -> Result<(&'a str, Vec<Item<'a>>), VgdlError> {
    let t = tokenize(node.line, node.content)?;
    let rhs = t.rhs.ok_or_else(|| VgdlError::Syntax {
        line: node.line,
        message: format!("sprite definition \"{}\" has no '>'", node.content),
    })?;
    match t.lhs.as_slice() {
        [Item::Word(n)] => Ok((*n, rhs)),
        _ => Err(VgdlError::Syntax {
            line: node.line,
            message: format!(
                "sprite definition \"{}\" needs one name before '>'",
                node.content
            ),
        }),
    }
}

/// The declared class (checked to exist unless `ignored`) and own parameters of a SpriteSet
/// line. As in GVG-AI, the class is the bare word among the parameters (the last one if there
/// are several).
fn sprite_body<'a>(
    node: &Node<'a>,
    rhs: &[Item<'a>],
    ignored: bool,
) -> Result<(Option<&'a str>, Vec<Arg<'a>>), VgdlError> {
    let mut declared_class = None;
    let mut own: Vec<Arg<'a>> = Vec::new();
    for it in rhs {
        match it {
            Item::Word(w) => declared_class = Some(*w),
            Item::Param(pk, pv) => own.push((pk, pv, node.line)),
        }
    }
    if let (false, Some(c)) = (ignored, declared_class) {
        if SpriteClass::from_name(c).is_none() {
            return Err(refuse(Construct::SpriteClass, c, node.line));
        }
    }
    Ok((declared_class, own))
}

/// The typed parameters of a sprite type, inherited ones included.
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
    let continuous = match p.raw("physicstype") {
        None => None,
        Some(pt) => {
            // GVG-AI reads a `Types` constant or its number.
            let name = match pt {
                "0" => "GRID",
                "1" => "CONT",
                _ => pt,
            };
            if !(SUPPORTED_PHYSICS.contains(&name) || pt.eq_ignore_ascii_case("GridPhysics")) {
                return Err(refuse(Construct::PhysicsType, name, raw.line));
            }
            Some(name == "CONT")
        }
    };
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
        continuous,
        friction: p.float("friction")?,
        gravity: p.float("gravity")?,
        mass: p.float("mass")?,
        max_speed: p.float("max_speed")?,
        w_mult: p.float("wMult")?,
        h_mult: p.float("hMult")?,
        is_static: p.boolean("is_static")?,
        angle_diff: p.float("angle_diff")?,
        jump_strength: p.float("jump_strength")?,
        solid: p.boolean("solid")?,
    };
    p.finish(warnings)?;
    Ok(params)
}
