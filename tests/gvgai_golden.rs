//! The engine reproduces recorded results of the GVG-AI Java engine (`data/gvgai/java_golden.txt`,
//! recorded from the Java framework with the same seeds and action strings): for each game and
//! level, a seeded run with a fixed action string must give the same win, score, final tick
//! and per-tick trace.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use tablero::gvgai::engine::{Action, Game, Outcome, parse_actions};

fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[test]
fn engine_reproduces_java_golden_runs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai");
    let golden = std::fs::read_to_string(root.join("java_golden.txt")).unwrap();
    let mut games: Vec<Game> = Vec::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in golden
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 8, "bad golden line {line}");
        let (name, level, seed) = (
            f[0],
            f[1].parse::<usize>().unwrap(),
            f[2].parse::<i64>().unwrap(),
        );
        let actions = parse_actions(f[3]).unwrap();
        let game = match games.iter().position(|g| g.name == name) {
            Some(i) => &games[i],
            None => {
                games.push(Game::load(&root.join("games"), name).unwrap());
                games.last().unwrap()
            }
        };
        let mut st = game.start(level, seed).unwrap();
        let mut trace = String::new();
        let mut i = 0;
        while !st.is_over() {
            let (x, y) = st.avatar().map(|a| (a.x, a.y)).unwrap_or((-1, -1));
            trace.push_str(&format!("{} {:?} {} {}\n", st.tick(), st.score(), x, y));
            st.advance(actions.get(i).copied().unwrap_or(Action::Nil));
            i += 1;
        }
        let o = Outcome::of(&st);
        let ours = format!("{} {:?} {} {:016x}", o.win, o.score, o.ticks, fnv1a(&trace));
        let java = f[4..].join(" ");
        if ours != java {
            failures.push(format!(
                "{name} level {level} seed {seed}: java {java}, ours {ours}"
            ));
        }
        checked += 1;
    }
    assert_eq!(checked, 110, "expected 22 games x 5 levels");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
