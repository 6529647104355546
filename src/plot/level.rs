//! A GVG-AI level as a tile map (`tablero gvgai render`, and the best dungeon of `tablero
//! evolve dungeon`): each sprite type of the level one colour, stacked as the LevelMapping
//! stacks them (a key on a floor shows both), with a legend naming the types.
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

/// The colour of legend entry `t`, the `index`-th entry of the legend.
fn colour(desc: &GameDescription, t: TypeId, index: usize) -> String {
    let ty = desc.types.get(usize::from(t));
    let name = ty.map_or("", |ty| ty.name.as_str());
    if name == "wall" {
        "#4a4a4a".into()
    } else if name == "floor" {
        "#e9e4d4".into()
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
    let kinds = groups
        .iter()
        .enumerate()
        .map(|(i, &g)| Kind {
            name: desc.type_name(g).to_string(),
            colour: colour(desc, g, i),
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
        let sprites: usize = level.cells.iter().map(Vec::len).sum();
        assert_eq!(count(&s, "rect", "tile"), sprites);
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
