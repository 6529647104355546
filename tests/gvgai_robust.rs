//! Malformed game and level files are rejected with an error, never a panic, and whatever
//! parses also runs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use proptest::prelude::*;
use tablero::gvgai::engine::{Action, Game};
use tablero::gvgai::vgdl::{parse_game, parse_level};

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/games")
}

const GAMES: &[&str] = &[
    "sokoban",
    "butterflies",
    "zelda",
    "pacman",
    "frogs",
    "dungeon",
    "aliens",
    "portals",
];

fn read(name: &str) -> String {
    std::fs::read_to_string(games_dir().join(name)).unwrap()
}

/// Apply a list of edits (delete / duplicate / replace a character) to a text.
fn mutate(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(pos, kind, c) in edits {
        if chars.is_empty() {
            break;
        }
        let p = pos % chars.len();
        match kind % 4 {
            0 => {
                chars.remove(p);
            }
            1 => chars.insert(p, c),
            2 => chars[p] = c,
            _ => {
                // duplicate or drop a whole line
                let start = chars[..p]
                    .iter()
                    .rposition(|&x| x == '\n')
                    .map_or(0, |i| i + 1);
                let end = chars[p..]
                    .iter()
                    .position(|&x| x == '\n')
                    .map_or(chars.len(), |i| p + i + 1);
                let line: Vec<char> = chars[start..end].to_vec();
                if c.is_ascii_digit() {
                    chars.drain(start..end);
                } else {
                    for (k, ch) in line.into_iter().enumerate() {
                        chars.insert(end + k, ch);
                    }
                }
            }
        }
    }
    chars.into_iter().collect()
}

fn edit_char() -> impl Strategy<Value = char> {
    prop_oneof![
        Just(' '),
        Just('\t'),
        Just('\n'),
        Just('>'),
        Just('='),
        Just('#'),
        Just('0'),
        Just('w'),
        Just('A'),
        any::<char>()
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_files_error_or_run(
        which in 0..GAMES.len(),
        level in 0usize..5,
        game_edits in prop::collection::vec((any::<usize>(), any::<u8>(), edit_char()), 0..6),
        level_edits in prop::collection::vec((any::<usize>(), any::<u8>(), edit_char()), 0..6),
        actions in prop::collection::vec(0usize..6, 30),
    ) {
        let name = GAMES[which];
        let game_text = mutate(&read(&format!("{name}.txt")), &game_edits);
        let level_text = mutate(&read(&format!("{name}_lvl{level}.txt")), &level_edits);
        if let Ok(desc) = parse_game(&game_text) {
            let _ = parse_level(&desc, &level_text);
        }
        if let Ok(game) = Game::from_texts(name, &game_text, &[&level_text]) {
            if let Ok(mut st) = game.start(0, 1) {
                if std::env::var("GVGAI_ROBUST_VERBOSE").is_ok() {
                    eprintln!("ran {name}");
                }
                for a in actions {
                    st.advance(Action::ALL[a]);
                }
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        if let Ok(desc) = parse_game(&text) {
            let _ = parse_level(&desc, &text);
        }
    }
}

#[test]
fn absurd_numbers_do_not_overflow() {
    let g = "BasicGame square_size=10
    SpriteSet
        rocket > Missile orientation=RIGHT speed=1e30
        gem > Resource value=2147483647 limit=2147483647
        pill > Immovable
    LevelMapping
        r > rocket
        g > gem
        p > pill
    InteractionSet
        gem avatar > collectResource
        avatar pill > addHealthPoints value=2147483647
        avatar pill > subtractHealthPoints value=2147483647 limit=-2147483648
    TerminationSet
        Timeout limit=50 win=True";
    let game = Game::from_texts("absurd", g, &["rAgp\n"]).unwrap();
    let mut st = game.start(0, 1).unwrap();
    for _ in 0..60 {
        st.advance(Action::Right);
    }
    assert!(st.is_over());
}
