//! A GVG-AI level as a tile map (`tablero gvgai render`, and the best dungeon of `tablero
//! evolve dungeon`): each sprite type of the level one colour, stacked as the LevelMapping
//! stacks them (a key in a doorway shows both), with a legend naming the types.
//!
//! Ground: a type that lies under other sprites in some cell and never on another (zelda's
//! `floor`, boulderdash's `background`) is drawn pale, and only where nothing lies on it.
//!
//! The legend names leaf types, except that the children of a type with more than
//! [`MAX_SIBLINGS`] leaves share their parent's entry (an evolved dungeon declares one portal
//! type per corridor end, all under `entrance` or `arrival`). Colours: `wall` dark grey,
//! `floor` pale, avatars blue, other types the palette in declaration order.

use super::tiles::{Kind, TileMap};
use crate::gvgai::engine::Game;
use crate::gvgai::vgdl::{GameDescription, Level, TypeId};

/// Leaves of one parent drawn as one legend entry beyond this many.
pub const MAX_SIBLINGS: usize = 6;

/// Leaf subtypes of `t` (itself if it is a leaf).
fn leaves(desc: &GameDescription, t: TypeId) -> usize {
    desc.types.get(usize::from(t)).map_or(0, |ty| {
        ty.subtypes
            .iter()
            .filter(|s| {
                desc.types
                    .get(usize::from(**s))
                    .is_some_and(|c| c.children.is_empty())
            })
            .count()
    })
}

/// The type that names `t` in the legend.
fn group(desc: &GameDescription, t: TypeId) -> TypeId {
    match desc.types.get(usize::from(t)).and_then(|ty| ty.parent) {
        Some(p) if leaves(desc, p) > MAX_SIBLINGS => p,
        _ => t,
    }
}

/// Pale colours of ground types.
const GROUND: [&str; 3] = ["#e9e4d4", "#dde8d5", "#e3e0ee"];

/// Which of `groups` (sorted) are ground in `level`: under another sprite somewhere, never on
/// one.
fn ground(desc: &GameDescription, level: &Level, groups: &[TypeId]) -> Vec<bool> {
    let mut under = vec![false; groups.len()];
    let mut over = vec![false; groups.len()];
    for stack in &level.cells {
        for (i, &t) in stack.iter().enumerate() {
            if let Ok(k) = groups.binary_search(&group(desc, t)) {
                if i > 0 {
                    over[k] = true;
                } else if stack.len() > 1 {
                    under[k] = true;
                }
            }
        }
    }
    under.iter().zip(&over).map(|(u, o)| *u && !*o).collect()
}

/// The colour of legend entry `t`, the `index`-th entry of the legend, the `grounds`-th
/// ground type if it is one.
fn colour(desc: &GameDescription, t: TypeId, index: usize, grounds: Option<usize>) -> String {
    let ty = desc.types.get(usize::from(t));
    let name = ty.map_or("", |ty| ty.name.as_str());
    if name == "wall" {
        "#4a4a4a".into()
    } else if let Some(g) = grounds {
        GROUND[g % GROUND.len()].into()
    } else if ty.and_then(|ty| ty.class).is_some_and(|c| c.is_avatar()) {
        "#1f5fd6".into()
    } else {
        super::palette(index).into()
    }
}

/// The tile map of `level` of the game `desc` describes.
pub fn tile_map(desc: &GameDescription, level: &Level, title: &str) -> TileMap {
    let mut groups: Vec<TypeId> = level
        .cells
        .iter()
        .flatten()
        .map(|&t| group(desc, t))
        .collect();
    groups.sort_unstable();
    groups.dedup();
    let is_ground = ground(desc, level, &groups);
    let kinds = groups
        .iter()
        .enumerate()
        .map(|(i, &g)| {
            let nth_ground = is_ground[i].then(|| is_ground[..i].iter().filter(|b| **b).count());
            Kind {
                name: desc.type_name(g).to_string(),
                colour: colour(desc, g, i, nth_ground),
            }
        })
        .collect();
    let cells = level
        .cells
        .iter()
        .map(|stack| {
            let mut kinds: Vec<usize> = stack
                .iter()
                .filter_map(|&t| groups.binary_search(&group(desc, t)).ok())
                .collect();
            kinds.dedup();
            if kinds.len() > 1 && is_ground[kinds[0]] {
                kinds.remove(0);
            }
            kinds
        })
        .collect();
    TileMap {
        title: title.into(),
        width: level.width,
        height: level.height,
        cells,
        kinds,
    }
}

/// Level `index` of `game` as an SVG document, or `None` if the game has no such level.
pub fn svg(game: &Game, index: usize) -> Option<String> {
    let level = game.levels.get(index)?;
    let title = format!("{}, level {index}", game.name);
    Some(tile_map(&game.rules.desc, level, &title).svg())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{count, parse};
    use super::*;

    #[test]
    fn a_zelda_level_has_a_tile_per_sprite_and_a_legend_per_type() {
        let game = crate::gvgai::games::shipped("zelda").unwrap();
        let s = svg(&game, 0).unwrap();
        parse(&s);
        let level = &game.levels[0];
        // One tile per sprite, but the floor only where nothing lies on it.
        let floor = game.rules.desc.type_id("floor").unwrap();
        let sprites: usize = level.cells.iter().map(Vec::len).sum();
        let covered = level
            .cells
            .iter()
            .filter(|c| c.len() > 1 && c[0] == floor)
            .count();
        assert!(covered > 0);
        assert_eq!(count(&s, "rect", "tile"), sprites - covered);
        let mut types: Vec<TypeId> = level.cells.iter().flatten().copied().collect();
        types.sort_unstable();
        types.dedup();
        assert_eq!(count(&s, "rect", "swatch"), types.len());
        for name in ["wall", "floor", "nokey", "goal", "key", "monsterNormal"] {
            assert!(s.contains(&format!(">{name}</text>")), "{name}");
        }
        assert_eq!(Some(s), svg(&game, 0), "deterministic");
        assert_eq!(svg(&game, 99), None);
    }

    #[test]
    fn many_siblings_share_their_parent_entry() {
        let mut text = String::from(
            "BasicGame\n  SpriteSet\n    wall > Immovable\n    avatar > MovingAvatar\n    portal > Immovable\n",
        );
        let mut mapping = String::new();
        let mut row = String::from("A");
        for (i, c) in ('a'..='h').enumerate() {
            text.push_str(&format!("      p{i} >\n"));
            mapping.push_str(&format!("    {c} > p{i}\n"));
            row.push(c);
        }
        text.push_str("  LevelMapping\n");
        text.push_str(&mapping);
        text.push_str("  TerminationSet\n    Timeout limit=10 win=True\n");
        let level = format!("wwwwwwwwww\n{row}w\nwwwwwwwwww\n");
        let game = Game::from_texts("portals", &text, &[&level]).unwrap();
        let map = tile_map(&game.rules.desc, &game.levels[0], "t");
        let names: Vec<&str> = map.kinds.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["wall", "avatar", "portal"]);
        assert_eq!(map.cells.iter().filter(|c| c == &&vec![2]).count(), 8);
    }
}
