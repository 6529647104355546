//! The VGDL game-description parser: the indentation tree of `syntax`, resolved section by
//! section into the typed [`GameDescription`]. Sprites come first (`sprites`; everything else
//! refers to them), then the BasicGame parameters, the level mapping, the interactions
//! (`interactions`) and the terminations (`terminations`).

use super::VgdlError;
use super::coverage::{Construct, SUPPORTED_GAMES, refuse};
use super::interactions::interaction_line;
use super::model::*;
use super::params::{Params, type_list};
use super::space::{GAME_SPACE, expand};
use super::sprites::Resolver;
use super::syntax::{Item, Node, build_tree, params_of, tokenize};
use super::terminations::termination_line;

/// The canonical name of a section header, matched case-insensitively.
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

/// Parse a VGDL game description.
pub fn parse_game(text: &str) -> Result<GameDescription, VgdlError> {
    let space = expand(text)?;
    let text = space.as_ref().map_or(text, |e| e.text.as_str());
    let (nodes, root) = build_tree(text)?;
    let root_node = &nodes[root];
    let game_items = game_header(root_node)?;
    let sections = section_list(&nodes, root_node)?;
    let r = Resolver::from_sections(&nodes, &sections)?;
    let mut warnings: Vec<String> = space
        .as_ref()
        .map(|e| e.warnings.clone())
        .unwrap_or_default();
    let types = r.sprite_types(&mut warnings)?;
    let sprite_order = r.sprite_order();
    let mut game_params = game_params(&r, root_node.line, &game_items, &mut warnings)?;
    if let Some(e) = &space {
        game_params.parameters = e.parameters.clone();
    }

    let mut mapping = Mapping::new();
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
                "LevelMapping" => mapping.line(&r, n)?,
                "InteractionSet" => interactions.extend(interaction_line(&r, n, &mut warnings)?),
                "TerminationSet" => terminations.push(termination_line(&r, n, &mut warnings)?),
                _ => {}
            }
        }
    }

    for t in &terminations {
        check_counters(&game_params, t)?;
    }
    Ok(GameDescription {
        params: game_params,
        types,
        sprite_order,
        level_mapping: mapping.resolved,
        interactions,
        terminations,
        unresolved_mapping: mapping.unresolved,
        warnings,
    })
}

/// The parameters of the root `BasicGame [params]` line.
fn game_header<'a>(root: &Node<'a>) -> Result<Vec<Item<'a>>, VgdlError> {
    let t = tokenize(root.line, root.content)?;
    let (game_class, game_items) = match (t.lhs.split_first(), &t.rhs) {
        (Some((Item::Word(c), rest)), None) => (*c, rest.to_vec()),
        _ => {
            return Err(VgdlError::Syntax {
                line: root.line,
                message: format!(
                    "expected \"BasicGame [params]\", found \"{}\"",
                    root.content
                ),
            });
        }
    };
    if !SUPPORTED_GAMES.contains(&game_class) {
        return Err(refuse(Construct::GameClass, game_class, root.line));
    }
    Ok(game_items)
}

/// The sections under the root, in order: each one's name and node.
fn section_list(
    nodes: &[Node<'_>],
    root: &Node<'_>,
) -> Result<Vec<(&'static str, usize)>, VgdlError> {
    let mut sections: Vec<(&'static str, usize)> = Vec::new();
    for &c in &root.children {
        let n = &nodes[c];
        match section_name(n.content) {
            Some("ParameterSet") => {
                return Err(VgdlError::Semantic {
                    line: n.line,
                    message: format!("a ParameterSet needs the game class {GAME_SPACE}"),
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
    Ok(sections)
}

/// The `BasicGame` parameters.
fn game_params(
    r: &Resolver<'_>,
    line: usize,
    game_items: &[Item<'_>],
    warnings: &mut Vec<String>,
) -> Result<GameParams, VgdlError> {
    let items = params_of(game_items, line, "BasicGame")?;
    let mut p = Params::new(line, "BasicGame".into(), items);
    let square_size = p.int("square_size")?.map(|v| v.max(1) as u32);
    if square_size.is_some_and(|v| v > 1000) {
        return Err(p.err("square_size is too large (at most 1000)".into()));
    }
    let key_handler = p.raw("key_handler").map(str::to_string);
    let obs = type_list(r, &mut p, "obs")?.unwrap_or_default();
    let no_players = p.int("no_players")?.unwrap_or(1);
    if !(1..=4).contains(&no_players) {
        return Err(p.err(format!("no_players={no_players} (1 to 4 players)")));
    }
    let no_counters = p.int("no_counters")?.unwrap_or(0);
    if !(0..=16).contains(&no_counters) {
        return Err(p.err(format!("no_counters={no_counters} (0 to 16 counters)")));
    }
    p.ignore(&["title"]);
    p.finish(warnings)?;
    Ok(GameParams {
        square_size,
        key_handler,
        obs,
        no_players: no_players as usize,
        no_counters: no_counters as usize,
        parameters: Vec::new(),
    })
}

/// A `Timeout use_counter=True` has the counters it reads: `compare` reads counter 0, and
/// `limits` (with one counter per player) has an entry for each player. GVG-AI fails at the
/// time limit otherwise.
fn check_counters(g: &GameParams, t: &Termination) -> Result<(), VgdlError> {
    let TerminationKind::Timeout {
        counters: Some(rule),
        ..
    } = &t.kind
    else {
        return Ok(());
    };
    let problem = match rule {
        CounterRule::Compare if g.no_counters == 0 => Some("compare=True needs no_counters"),
        CounterRule::Limits(l) if g.no_counters == g.no_players && l.len() < g.no_players => {
            Some("limits needs an entry for each player")
        }
        _ => None,
    };
    match problem {
        Some(p) => Err(VgdlError::Semantic {
            line: t.line,
            message: format!("Timeout use_counter=True: {p}"),
        }),
        None => Ok(()),
    }
}

/// The LevelMapping: characters to sprite lists, `w` (wall) and `A` (avatar) predefined.
struct Mapping {
    resolved: Vec<(char, Vec<TypeId>)>,
    /// Characters mapped to a sprite nobody declared, with that name and the line.
    unresolved: Vec<(char, String, usize)>,
}

impl Mapping {
    fn new() -> Self {
        Mapping {
            resolved: vec![('w', vec![WALL]), ('A', vec![AVATAR])],
            unresolved: Vec::new(),
        }
    }

    /// One `c > sprite ...` line; a later line for the same character replaces the earlier.
    fn line(&mut self, r: &Resolver<'_>, n: &Node<'_>) -> Result<(), VgdlError> {
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
                message: format!("level mapping \"{}\" must be \"c > sprite ...\"", n.content),
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
        self.resolved.retain(|(k, _)| *k != ch);
        self.unresolved.retain(|(k, _, _)| *k != ch);
        match unknown {
            // GVG-AI only fails if a level uses the character.
            None => self.resolved.push((ch, ids)),
            Some(name) => self.unresolved.push((ch, name, n.line)),
        }
        Ok(())
    }
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
    fn a_leaf_takes_its_parents_class_over_an_unknown_word() {
        let g = parse_game("BasicGame\n  SpriteSet\n    m > Missile\n      k > orientationDOWN\n")
            .unwrap();
        let k = g.type_id("k").unwrap();
        assert_eq!(g.types[usize::from(k)].class, Some(SpriteClass::Missile));
        assert_eq!(
            g.warnings,
            vec![
                "line 4: sprite \"k\" names the unknown class \"orientationDOWN\"; its parent's \
                 class applies (GVG-AI ignores the word)"
                    .to_string()
            ]
        );
        let e = parse_game("BasicGame\n  SpriteSet\n    m > Foo\n      k > Missile\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: unknown sprite class \"Foo\"");
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
        let e = parse_game("BasicGame\n  SpriteSet\n    a > ResourcePack\n").unwrap_err();
        assert_eq!(
            e,
            VgdlError::Unsupported {
                what: Construct::SpriteClass,
                name: "ResourcePack".into(),
                line: 3
            }
        );
        let e = parse_game(
            "BasicGame\n  SpriteSet\n    a > Immovable\n  InteractionSet\n    a b > killSprite\n",
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "line 5: unknown sprite \"b\" in interaction");
        let e = parse_game("BasicGame\n  InteractionSet\n    avatar wall > fly\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: unknown effect \"fly\"");
        // The class may stand anywhere among the parameters (GVG-AI): bird's avatar line.
        let g = parse_game(
            "BasicGame\n  SpriteSet\n    avatar > physicstype=CONT gravity=1.0 BirdAvatar img=a\n",
        )
        .unwrap();
        assert_eq!(g.types[1].class, Some(SpriteClass::BirdAvatar));
        let g = parse_game("BasicGame\n  SpriteSet\n    a > color=RED Passive\n").unwrap();
        assert_eq!(g.types[2].class, Some(SpriteClass::Passive));
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
