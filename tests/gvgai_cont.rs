//! Continuous physics is identical to GVG-AI's Java engine at every tick: seeded random runs of
//! the framework's continuous-physics games (`data/gvgai/corpus/contphysics`) must end as the
//! Java runs recorded in `data/gvgai/java_cont_golden.txt` did (cycles, score, winner) and give
//! the same per-tick trace of every sprite's rectangle, orientation and speed (its FNV-1a hash).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use tablero::gvgai::engine::{Game, GameState, Winner};

mod gvgai_common;
use gvgai_common::actions;

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/corpus/contphysics")
}

fn milli(v: f64) -> i64 {
    (v * 1000.0 + 0.5).floor() as i64
}

fn winner_name(w: Winner) -> &'static str {
    match w {
        Winner::NoWinner => "NO_WINNER",
        Winner::PlayerWins => "PLAYER_WINS",
        Winner::PlayerLoses => "PLAYER_LOSES",
    }
}

/// One cycle of the trace: the header, then every sprite's line, sorted.
fn trace_state(st: &GameState, cycle: usize, out: &mut String) {
    out.push_str(&format!(
        "t {cycle} {} {} {}\n",
        milli(st.score()),
        winner_name(st.winner()),
        st.is_over()
    ));
    let b = f64::from(st.block_size());
    let mut lines: Vec<String> = st
        .sprites()
        .map(|s| {
            let p = st.rules().props(s.ty);
            format!(
                "{} {} {} {} {} {} {} {}{}\n",
                st.rules().desc.type_name(s.ty),
                s.x,
                s.y,
                (b * p.w_mult) as i32,
                (b * p.h_mult) as i32,
                milli(s.orientation.x),
                milli(s.orientation.y),
                milli(s.speed),
                if s.disabled { " d" } else { "" }
            )
        })
        .collect();
    lines.sort();
    lines.iter().for_each(|l| out.push_str(l));
}

fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The golden line's fields after the actions count for a run of `game`.
fn run(game: &Game, level: usize, seed: i64, n: usize) -> String {
    let acts = actions(seed, n);
    let mut st = game.start(level, seed).unwrap();
    let mut trace = String::new();
    trace_state(&st, 0, &mut trace);
    let mut k = 0;
    while !st.is_over() && k < n {
        st.advance(acts[k]);
        k += 1;
        trace_state(&st, k, &mut trace);
    }
    format!(
        "{k} {} {} {} {:016x}",
        milli(st.score()),
        winner_name(st.winner()),
        st.is_over(),
        fnv1a(&trace)
    )
}

#[test]
fn continuous_physics_matches_java_at_every_tick() {
    let golden = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/java_cont_golden.txt"),
    )
    .unwrap();
    let mut games: Vec<Game> = Vec::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in golden
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 9, "bad golden line {line}");
        let (name, level, seed, n) = (
            f[0],
            f[1].parse::<usize>().unwrap(),
            f[2].parse::<i64>().unwrap(),
            f[3].parse::<usize>().unwrap(),
        );
        let game = match games.iter().position(|g| g.name == name) {
            Some(i) => &games[i],
            None => {
                games.push(Game::load(&games_dir(), name).unwrap());
                games.last().unwrap()
            }
        };
        let ours = run(game, level, seed, n);
        let java = f[4..].join(" ");
        if ours != java {
            failures.push(format!(
                "{name} level {level} seed {seed}: java {java}, ours {ours}"
            ));
        }
        checked += 1;
    }
    assert!(checked >= 60, "only {checked} golden runs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_continuous_game_of_the_framework_loads() {
    for name in [
        "artillery",
        "asteroids",
        "bird",
        "candy",
        "jumper",
        "lander",
        "mario",
        "racing",
    ] {
        if let Err(e) = Game::load(&games_dir(), name) {
            panic!("{name}: {e}");
        }
    }
}
