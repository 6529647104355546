//! The GVG-AI games tablero ships (`data/gvgai/games/`, GPL-3.0-or-later, from
//! GAIGResearch/GVGAI; see `data/gvgai/README.md`), embedded in the binary so that
//! `tablero gvgai` works without a games directory.

use super::engine::{EngineError, Game};

/// (name, game description, levels 0–4).
pub static SHIPPED: &[(&str, &str, [&str; 5])] = &[
    (
        "aliens",
        include_str!("../../data/gvgai/games/aliens.txt"),
        [
            include_str!("../../data/gvgai/games/aliens_lvl0.txt"),
            include_str!("../../data/gvgai/games/aliens_lvl1.txt"),
            include_str!("../../data/gvgai/games/aliens_lvl2.txt"),
            include_str!("../../data/gvgai/games/aliens_lvl3.txt"),
            include_str!("../../data/gvgai/games/aliens_lvl4.txt"),
        ],
    ),
    (
        "bait",
        include_str!("../../data/gvgai/games/bait.txt"),
        [
            include_str!("../../data/gvgai/games/bait_lvl0.txt"),
            include_str!("../../data/gvgai/games/bait_lvl1.txt"),
            include_str!("../../data/gvgai/games/bait_lvl2.txt"),
            include_str!("../../data/gvgai/games/bait_lvl3.txt"),
            include_str!("../../data/gvgai/games/bait_lvl4.txt"),
        ],
    ),
    (
        "boulderdash",
        include_str!("../../data/gvgai/games/boulderdash.txt"),
        [
            include_str!("../../data/gvgai/games/boulderdash_lvl0.txt"),
            include_str!("../../data/gvgai/games/boulderdash_lvl1.txt"),
            include_str!("../../data/gvgai/games/boulderdash_lvl2.txt"),
            include_str!("../../data/gvgai/games/boulderdash_lvl3.txt"),
            include_str!("../../data/gvgai/games/boulderdash_lvl4.txt"),
        ],
    ),
    (
        "brainman",
        include_str!("../../data/gvgai/games/brainman.txt"),
        [
            include_str!("../../data/gvgai/games/brainman_lvl0.txt"),
            include_str!("../../data/gvgai/games/brainman_lvl1.txt"),
            include_str!("../../data/gvgai/games/brainman_lvl2.txt"),
            include_str!("../../data/gvgai/games/brainman_lvl3.txt"),
            include_str!("../../data/gvgai/games/brainman_lvl4.txt"),
        ],
    ),
    (
        "butterflies",
        include_str!("../../data/gvgai/games/butterflies.txt"),
        [
            include_str!("../../data/gvgai/games/butterflies_lvl0.txt"),
            include_str!("../../data/gvgai/games/butterflies_lvl1.txt"),
            include_str!("../../data/gvgai/games/butterflies_lvl2.txt"),
            include_str!("../../data/gvgai/games/butterflies_lvl3.txt"),
            include_str!("../../data/gvgai/games/butterflies_lvl4.txt"),
        ],
    ),
    (
        "chase",
        include_str!("../../data/gvgai/games/chase.txt"),
        [
            include_str!("../../data/gvgai/games/chase_lvl0.txt"),
            include_str!("../../data/gvgai/games/chase_lvl1.txt"),
            include_str!("../../data/gvgai/games/chase_lvl2.txt"),
            include_str!("../../data/gvgai/games/chase_lvl3.txt"),
            include_str!("../../data/gvgai/games/chase_lvl4.txt"),
        ],
    ),
    (
        "doorkoban",
        include_str!("../../data/gvgai/games/doorkoban.txt"),
        [
            include_str!("../../data/gvgai/games/doorkoban_lvl0.txt"),
            include_str!("../../data/gvgai/games/doorkoban_lvl1.txt"),
            include_str!("../../data/gvgai/games/doorkoban_lvl2.txt"),
            include_str!("../../data/gvgai/games/doorkoban_lvl3.txt"),
            include_str!("../../data/gvgai/games/doorkoban_lvl4.txt"),
        ],
    ),
    (
        "dungeon",
        include_str!("../../data/gvgai/games/dungeon.txt"),
        [
            include_str!("../../data/gvgai/games/dungeon_lvl0.txt"),
            include_str!("../../data/gvgai/games/dungeon_lvl1.txt"),
            include_str!("../../data/gvgai/games/dungeon_lvl2.txt"),
            include_str!("../../data/gvgai/games/dungeon_lvl3.txt"),
            include_str!("../../data/gvgai/games/dungeon_lvl4.txt"),
        ],
    ),
    (
        "escape",
        include_str!("../../data/gvgai/games/escape.txt"),
        [
            include_str!("../../data/gvgai/games/escape_lvl0.txt"),
            include_str!("../../data/gvgai/games/escape_lvl1.txt"),
            include_str!("../../data/gvgai/games/escape_lvl2.txt"),
            include_str!("../../data/gvgai/games/escape_lvl3.txt"),
            include_str!("../../data/gvgai/games/escape_lvl4.txt"),
        ],
    ),
    (
        "frogs",
        include_str!("../../data/gvgai/games/frogs.txt"),
        [
            include_str!("../../data/gvgai/games/frogs_lvl0.txt"),
            include_str!("../../data/gvgai/games/frogs_lvl1.txt"),
            include_str!("../../data/gvgai/games/frogs_lvl2.txt"),
            include_str!("../../data/gvgai/games/frogs_lvl3.txt"),
            include_str!("../../data/gvgai/games/frogs_lvl4.txt"),
        ],
    ),
    (
        "labyrinth",
        include_str!("../../data/gvgai/games/labyrinth.txt"),
        [
            include_str!("../../data/gvgai/games/labyrinth_lvl0.txt"),
            include_str!("../../data/gvgai/games/labyrinth_lvl1.txt"),
            include_str!("../../data/gvgai/games/labyrinth_lvl2.txt"),
            include_str!("../../data/gvgai/games/labyrinth_lvl3.txt"),
            include_str!("../../data/gvgai/games/labyrinth_lvl4.txt"),
        ],
    ),
    (
        "missilecommand",
        include_str!("../../data/gvgai/games/missilecommand.txt"),
        [
            include_str!("../../data/gvgai/games/missilecommand_lvl0.txt"),
            include_str!("../../data/gvgai/games/missilecommand_lvl1.txt"),
            include_str!("../../data/gvgai/games/missilecommand_lvl2.txt"),
            include_str!("../../data/gvgai/games/missilecommand_lvl3.txt"),
            include_str!("../../data/gvgai/games/missilecommand_lvl4.txt"),
        ],
    ),
    (
        "modality",
        include_str!("../../data/gvgai/games/modality.txt"),
        [
            include_str!("../../data/gvgai/games/modality_lvl0.txt"),
            include_str!("../../data/gvgai/games/modality_lvl1.txt"),
            include_str!("../../data/gvgai/games/modality_lvl2.txt"),
            include_str!("../../data/gvgai/games/modality_lvl3.txt"),
            include_str!("../../data/gvgai/games/modality_lvl4.txt"),
        ],
    ),
    (
        "pacman",
        include_str!("../../data/gvgai/games/pacman.txt"),
        [
            include_str!("../../data/gvgai/games/pacman_lvl0.txt"),
            include_str!("../../data/gvgai/games/pacman_lvl1.txt"),
            include_str!("../../data/gvgai/games/pacman_lvl2.txt"),
            include_str!("../../data/gvgai/games/pacman_lvl3.txt"),
            include_str!("../../data/gvgai/games/pacman_lvl4.txt"),
        ],
    ),
    (
        "painter",
        include_str!("../../data/gvgai/games/painter.txt"),
        [
            include_str!("../../data/gvgai/games/painter_lvl0.txt"),
            include_str!("../../data/gvgai/games/painter_lvl1.txt"),
            include_str!("../../data/gvgai/games/painter_lvl2.txt"),
            include_str!("../../data/gvgai/games/painter_lvl3.txt"),
            include_str!("../../data/gvgai/games/painter_lvl4.txt"),
        ],
    ),
    (
        "portals",
        include_str!("../../data/gvgai/games/portals.txt"),
        [
            include_str!("../../data/gvgai/games/portals_lvl0.txt"),
            include_str!("../../data/gvgai/games/portals_lvl1.txt"),
            include_str!("../../data/gvgai/games/portals_lvl2.txt"),
            include_str!("../../data/gvgai/games/portals_lvl3.txt"),
            include_str!("../../data/gvgai/games/portals_lvl4.txt"),
        ],
    ),
    (
        "realsokoban",
        include_str!("../../data/gvgai/games/realsokoban.txt"),
        [
            include_str!("../../data/gvgai/games/realsokoban_lvl0.txt"),
            include_str!("../../data/gvgai/games/realsokoban_lvl1.txt"),
            include_str!("../../data/gvgai/games/realsokoban_lvl2.txt"),
            include_str!("../../data/gvgai/games/realsokoban_lvl3.txt"),
            include_str!("../../data/gvgai/games/realsokoban_lvl4.txt"),
        ],
    ),
    (
        "roguelike",
        include_str!("../../data/gvgai/games/roguelike.txt"),
        [
            include_str!("../../data/gvgai/games/roguelike_lvl0.txt"),
            include_str!("../../data/gvgai/games/roguelike_lvl1.txt"),
            include_str!("../../data/gvgai/games/roguelike_lvl2.txt"),
            include_str!("../../data/gvgai/games/roguelike_lvl3.txt"),
            include_str!("../../data/gvgai/games/roguelike_lvl4.txt"),
        ],
    ),
    (
        "sokoban",
        include_str!("../../data/gvgai/games/sokoban.txt"),
        [
            include_str!("../../data/gvgai/games/sokoban_lvl0.txt"),
            include_str!("../../data/gvgai/games/sokoban_lvl1.txt"),
            include_str!("../../data/gvgai/games/sokoban_lvl2.txt"),
            include_str!("../../data/gvgai/games/sokoban_lvl3.txt"),
            include_str!("../../data/gvgai/games/sokoban_lvl4.txt"),
        ],
    ),
    (
        "survivezombies",
        include_str!("../../data/gvgai/games/survivezombies.txt"),
        [
            include_str!("../../data/gvgai/games/survivezombies_lvl0.txt"),
            include_str!("../../data/gvgai/games/survivezombies_lvl1.txt"),
            include_str!("../../data/gvgai/games/survivezombies_lvl2.txt"),
            include_str!("../../data/gvgai/games/survivezombies_lvl3.txt"),
            include_str!("../../data/gvgai/games/survivezombies_lvl4.txt"),
        ],
    ),
    (
        "zelda",
        include_str!("../../data/gvgai/games/zelda.txt"),
        [
            include_str!("../../data/gvgai/games/zelda_lvl0.txt"),
            include_str!("../../data/gvgai/games/zelda_lvl1.txt"),
            include_str!("../../data/gvgai/games/zelda_lvl2.txt"),
            include_str!("../../data/gvgai/games/zelda_lvl3.txt"),
            include_str!("../../data/gvgai/games/zelda_lvl4.txt"),
        ],
    ),
    (
        "zenpuzzle",
        include_str!("../../data/gvgai/games/zenpuzzle.txt"),
        [
            include_str!("../../data/gvgai/games/zenpuzzle_lvl0.txt"),
            include_str!("../../data/gvgai/games/zenpuzzle_lvl1.txt"),
            include_str!("../../data/gvgai/games/zenpuzzle_lvl2.txt"),
            include_str!("../../data/gvgai/games/zenpuzzle_lvl3.txt"),
            include_str!("../../data/gvgai/games/zenpuzzle_lvl4.txt"),
        ],
    ),
];

/// Names of the shipped games, sorted.
pub fn shipped_names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, _, _)| *n)
}

/// Load a shipped game by name.
pub fn shipped(name: &str) -> Result<Game, EngineError> {
    let (n, game, levels) =
        SHIPPED
            .iter()
            .find(|(n, _, _)| *n == name)
            .ok_or_else(|| EngineError::Invalid {
                message: format!("no shipped game \"{name}\""),
            })?;
    Game::from_texts(n, game, levels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_shipped_games_load() {
        assert_eq!(shipped_names().count(), 22);
        for n in shipped_names() {
            let g = shipped(n).unwrap();
            assert_eq!(g.levels.len(), 5, "{n}");
        }
        assert!(shipped("chess").is_err());
    }
}
