//! Every shipped GVG-AI game and its five levels parse.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use tablero::gvgai::vgdl::{parse_game, parse_level};

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/games")
}

pub fn game_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(games_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt") && !n.contains("_lvl"))
        .map(|n| n.trim_end_matches(".txt").to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn all_games_and_levels_parse() {
    let names = game_names();
    assert_eq!(names.len(), 22, "{names:?}");
    let mut failures = Vec::new();
    for name in &names {
        let text = std::fs::read_to_string(games_dir().join(format!("{name}.txt"))).unwrap();
        match parse_game(&text) {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok(game) => {
                for lvl in 0..5 {
                    let lt =
                        std::fs::read_to_string(games_dir().join(format!("{name}_lvl{lvl}.txt")))
                            .unwrap();
                    if let Err(e) = parse_level(&game, &lt) {
                        failures.push(format!("{name} level {lvl}: {e}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sokoban_registration_order_matches_gvgai() {
    let text = std::fs::read_to_string(games_dir().join("sokoban.txt")).unwrap();
    let g = parse_game(&text).unwrap();
    let names: Vec<&str> = g.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["wall", "avatar", "floor", "hole", "box"]);
}
