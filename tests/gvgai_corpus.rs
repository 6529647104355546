//! The engine is tick-exact with the GVG-AI Java framework on its whole corpus
//! (`data/gvgai/corpus/{gridphysics,contphysics,2player}`, every level, three seeds each).
//!
//! `data/gvgai/java_corpus_traces.txt` holds the Java framework's runs, recorded by
//! `benches/scripts/gvgai_java_traces.sh` (`benches/tools/gvgai-java/TraceCorpus.java`). A run
//! plays `ACTS` cycles (or until the game ends) with the game seeded by `seed` and the action
//! of cycle t taken from [`actions`] of the same seed; in two-player games player 1's action
//! of cycle t comes from [`actions`] of `seed + 7919` (players are numbered as the framework
//! assigns avatars). After every cycle, and once before the first, the state is reduced to a
//! hash by [`state_hash`]: per sprite the integer fields of [`sprite_fields`] (type name,
//! position, orientation, speed, health, `lastmove`, time to live, disabled, shot by the
//! avatar, resources, and the counters of flickers, spawners and random NPCs), hashed and
//! sorted so that sprite ids and group order do not matter, with the cycle count, player 0's
//! score and winner and the end flag, then the score and winner of every other player. A line
//! of the file: `category game level seed cycles winner score×1000 run-hash c1 c5 c20 c50 c100
//! c200` (winner and score are player 0's), where `c<t>` is the low 32 bits of the running hash
//! after state t (`-` if the run ended before), so a mismatch tells where it starts. A run the
//! framework could not play is `category game level seed error MESSAGE` (none is); a run whose
//! two Java plays differed is `category game level seed unstable` and is not compared: every
//! such run must belong to a game of [`UNSTABLE_IN_JAVA`], which names the unseeded draw.
//!
//! Games tablero cannot load yet are listed in [`NOT_LOADING`] with the reason; each must
//! still fail to load (a listed game that loads fails the test: remove it from the list).
//! Games whose runs are known to part from Java's are listed in [`DIVERGING`] with the first
//! divergence: they must load, and their runs are not compared.
//! Games e58ff65 played from a truncated file are listed in [`TRUNCATED_IN_E58FF65`]: they
//! must load, and their runs are not compared. Every other recorded run must be identical.
//! The test prints the runs compared and identical per category, and per two-player game.
//!
//! To compare one run in detail: `GVGAI_CORPUS_DUMP=category/game:level:seed cargo test
//! --release --test gvgai_corpus` writes tablero's states as text to
//! `target/gvgai_corpus_dump.txt`, in the format of `TraceCorpus --dump` (which prints player
//! 0's score and winner in each state header). `GVGAI_CORPUS_ONLY=2player/` checks only the
//! games whose key starts with the prefix.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use tablero::gvgai::engine::{Game, GameState, Sprite, Winner};
use tablero::gvgai::vgdl::SpriteClass;

mod gvgai_common;
use gvgai_common::actions;

/// Games whose recorded runs e58ff65 played from a truncated game: `invest` names
/// `killIfScoreNegative`, which e58ff65's registry lacks, so its parser dropped the rest of the
/// InteractionSet and the whole TerminationSet. tablero plays the whole file (the effect as the
/// GVGAI fork defines it; `tests/gvgai_golden.rs` compares it with Java running that class).
/// These games must load; their recorded runs are not compared.
const TRUNCATED_IN_E58FF65: &[(&str, &str)] = &[(
    "gridphysics/invest",
    "effect killIfScoreNegative unknown to e58ff65",
)];

/// Games whose recorded runs include `unstable` ones (two Java plays differed), with the
/// framework's unseeded draw.
const UNSTABLE_IN_JAVA: &[(&str, &str)] = &[
    ("contphysics/mario", "WalkerJumper draws from Math.random()"),
    (
        "2player/pacoban",
        "RandomPathAltChaser with several stype1 types picks its target type unseeded",
    ),
];

/// Cycles per run (the recorder's `ACTS`).
const ACTS: usize = 300;
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// Games of the corpus tablero does not load yet, with the reason.
const NOT_LOADING: &[(&str, &str)] = &[];

/// Games that load but whose runs are known to part from Java's, with the first divergence:
/// they must load, and their runs are not compared.
const DIVERGING: &[(&str, &str)] = &[];

fn mix(h: i64, v: i64) -> i64 {
    let h = ((h ^ v) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h ^ (h >> 32)) as i64
}

fn name_hash(s: &str) -> i64 {
    let mut h = FNV_OFFSET;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h as i64
}

fn milli(v: f64) -> i64 {
    (v * 1000.0 + 0.5).floor() as i64
}

/// The integer fields of one sprite, in the recorder's order (type name hash first).
fn sprite_fields(st: &GameState, s: &Sprite) -> Vec<i64> {
    use SpriteClass as C;
    let desc = &st.rules().desc;
    let resources = s.resources.iter().fold(0i64, |acc, &(t, v)| {
        acc.wrapping_add(mix(
            mix(FNV_OFFSET as i64, name_hash(desc.type_name(t))),
            i64::from(v),
        ))
    });
    let mut f = vec![
        name_hash(desc.type_name(s.ty)),
        i64::from(s.x),
        i64::from(s.y),
        milli(s.orientation.x),
        milli(s.orientation.y),
        milli(s.speed),
        i64::from(s.health),
        i64::from(s.max_health),
        i64::from(st.lastmove(s)),
        i64::from(s.ttl),
        i64::from(s.disabled),
        i64::from(s.from_avatar),
        resources,
    ];
    match st.rules().props(s.ty).class {
        Some(c) if c.is_flicker() => f.extend([1, i64::from(s.age)]),
        Some(
            C::SpawnPoint
            | C::Bomber
            | C::RandomBomber
            | C::BomberRandomMissile
            | C::SpawnPointMultiSprite,
        ) => f.extend([2, i64::from(s.counter), i64::from(s.start)]),
        Some(C::RandomNPC) => f.extend([
            3,
            i64::from(s.counter),
            milli(s.prev_action.x),
            milli(s.prev_action.y),
        ]),
        _ => f.push(0),
    }
    f
}

/// The hash of a state after `cycles` cycles; with `dump`, its text as `TraceCorpus --dump`
/// writes it.
fn state_hash(st: &GameState, cycles: usize, dump: Option<&mut String>) -> i64 {
    let mut hashes = Vec::new();
    let mut lines = Vec::new();
    for s in st.sprites() {
        let f = sprite_fields(st, s);
        hashes.push(f.iter().fold(FNV_OFFSET as i64, |h, &v| mix(h, v)));
        if dump.is_some() {
            let mut l = st.rules().desc.type_name(s.ty).to_string();
            for v in &f[1..] {
                write!(l, " {v}").unwrap();
            }
            lines.push(l);
        }
    }
    hashes.sort_unstable();
    let score = milli(st.score());
    let winner = winner_code(st.winner());
    let ended = i64::from(st.is_over());
    let mut h = [cycles as i64, score, winner, ended, hashes.len() as i64]
        .iter()
        .fold(FNV_OFFSET as i64, |h, &v| mix(h, v));
    for s in hashes {
        h = mix(h, s);
    }
    for p in 1..st.players() {
        h = mix(mix(h, milli(st.score_of(p))), winner_code(st.winner_of(p)));
    }
    if let Some(d) = dump {
        lines.sort();
        writeln!(d, "state {cycles} {score} {winner} {ended}").unwrap();
        for l in lines {
            writeln!(d, "{l}").unwrap();
        }
    }
    h
}

fn winner_code(w: Winner) -> i64 {
    match w {
        Winner::NoWinner => 0,
        Winner::PlayerWins => 1,
        Winner::PlayerLoses => 2,
    }
}

/// Play one run and give its line after `category game level seed`, as the recorder does.
fn run(game: &Game, level: usize, seed: i64, n: usize, mut dump: Option<&mut String>) -> String {
    let mut st = match game.start(level, seed) {
        Ok(st) => st,
        Err(e) => return format!("error {e}"),
    };
    let acts = actions(seed, n);
    let acts2 = actions(seed + 7919, n);
    let checkpoints = [1, 5, 20, 50, 100, 200];
    let mut cps = vec!["-".to_string(); checkpoints.len()];
    let mut h = mix(FNV_OFFSET as i64, state_hash(&st, 0, dump.as_deref_mut()));
    let mut cycles = 0;
    while !st.is_over() && cycles < n {
        if st.players() > 1 {
            st.advance_joint(&[acts[cycles], acts2[cycles]]);
        } else {
            st.advance(acts[cycles]);
        }
        cycles += 1;
        h = mix(h, state_hash(&st, cycles, dump.as_deref_mut()));
        if let Some(i) = checkpoints.iter().position(|&c| c == cycles) {
            cps[i] = format!("{:08x}", h as u64 & 0xffff_ffff);
        }
    }
    format!(
        "{cycles} {} {} {:016x} {}",
        winner_code(st.winner()),
        milli(st.score()),
        h as u64,
        cps.join(" ")
    )
}

/// Where two result lines first differ: the outcome, or the first checkpoint.
fn first_difference(java: &str, ours: &str) -> String {
    let names = [
        "cycles", "winner", "score", "hash", "c1", "c5", "c20", "c50", "c100", "c200",
    ];
    let (j, o): (Vec<&str>, Vec<&str>) = (java.split(' ').collect(), ours.split(' ').collect());
    for (i, n) in names.iter().enumerate().skip(4) {
        if j.get(i) != o.get(i) {
            return format!("from state {} on", &n[1..]);
        }
    }
    "in the outcome".to_string()
}

struct Recorded {
    key: String,
    level: usize,
    seed: i64,
    java: String,
}

fn recorded(file: &Path) -> BTreeMap<String, Vec<Recorded>> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut games: BTreeMap<String, Vec<Recorded>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.splitn(5, ' ').collect();
        assert_eq!(f.len(), 5, "bad trace line {line}");
        let key = format!("{}/{}", f[0], f[1]);
        games.entry(key.clone()).or_default().push(Recorded {
            key,
            level: f[2].parse().unwrap(),
            seed: f[3].parse().unwrap(),
            java: f[4].to_string(),
        });
    }
    games
}

/// The folder of a game's category: the corpus's folders, and `tests` for tablero's test
/// games.
fn category_dir(cat: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if cat == "tests" {
        root.join("tests/gvgai_games")
    } else {
        root.join("data/gvgai/corpus").join(cat)
    }
}

/// Compare every recorded run of one game, `n` cycles each; the failures, and the number of
/// runs compared.
fn check_game(key: &str, runs: &[Recorded], n: usize) -> (Vec<String>, usize) {
    let (cat, name) = key.split_once('/').unwrap();
    let loaded = Game::load(&category_dir(cat), name);
    if let Some((_, why)) = NOT_LOADING.iter().find(|(k, _)| *k == key) {
        return match loaded {
            Ok(_) => (
                vec![format!(
                    "{key} ({why}) loads: remove it from the list NOT_LOADING"
                )],
                0,
            ),
            Err(_) => (Vec::new(), 0),
        };
    }
    let game = match loaded {
        Ok(g) => g,
        Err(e) => return (vec![format!("{key} does not load: {e}")], 0),
    };
    if TRUNCATED_IN_E58FF65
        .iter()
        .chain(DIVERGING)
        .any(|(k, _)| *k == key)
    {
        return (Vec::new(), 0);
    }
    let dump_key = std::env::var("GVGAI_CORPUS_DUMP").ok();
    let mut failures = Vec::new();
    let mut compared = 0;
    for r in runs.iter().filter(|r| r.java != "unstable") {
        compared += 1;
        let id = format!("{}:{}:{}", r.key, r.level, r.seed);
        let mut text = String::new();
        let want_dump = dump_key.as_deref() == Some(id.as_str());
        let ours = run(&game, r.level, r.seed, n, want_dump.then_some(&mut text));
        if want_dump {
            let out =
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/gvgai_corpus_dump.txt");
            writeln!(text, "result {ours}").unwrap();
            std::fs::write(out, text).unwrap();
        }
        if ours != r.java {
            failures.push(format!(
                "{id}: differs {}\n  java {}\n  ours {ours}",
                first_difference(&r.java, &ours),
                r.java
            ));
        }
    }
    (failures, compared)
}

/// Check every game of `keys` on all cores: per game, its key, failures and runs compared.
fn check_all<'a>(
    keys: &[&'a String],
    games: &BTreeMap<String, Vec<Recorded>>,
    n: usize,
) -> Vec<(&'a str, Vec<String>, usize)> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for k in keys.iter().skip(w).step_by(workers) {
                        let (f, c) = check_game(k, &games[*k], n);
                        out.push((k.as_str(), f, c));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

fn differing(failures: &[String]) -> usize {
    failures.iter().filter(|f| f.contains(": differs")).count()
}

#[test]
fn engine_matches_java_on_the_whole_corpus() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai");
    let games = recorded(&root.join("java_corpus_traces.txt"));
    for (key, _) in NOT_LOADING
        .iter()
        .chain(TRUNCATED_IN_E58FF65)
        .chain(UNSTABLE_IN_JAVA)
        .chain(DIVERGING)
    {
        assert!(games.contains_key(*key), "{key} is listed but not recorded");
    }
    for (key, runs) in &games {
        let unstable = runs.iter().filter(|r| r.java == "unstable").count();
        let listed = UNSTABLE_IN_JAVA.iter().any(|(k, _)| k == key);
        assert!(
            unstable == 0 || listed,
            "{key}: {unstable} runs unstable in Java, game not in UNSTABLE_IN_JAVA"
        );
    }
    let only = std::env::var("GVGAI_CORPUS_ONLY").unwrap_or_default();
    let keys: Vec<&String> = games.keys().filter(|k| k.starts_with(&only)).collect();
    let mut results = check_all(&keys, &games, ACTS);
    results.sort_by(|a, b| a.0.cmp(b.0));
    let mut per_category: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (key, failures, n) in &results {
        let c = per_category
            .entry(key.split('/').next().unwrap())
            .or_default();
        c.0 += n;
        c.1 += n - differing(failures);
    }
    for (cat, (n, same)) in &per_category {
        println!("{cat}: {n} runs compared, {same} identical");
    }
    for (key, failures, n) in results.iter().filter(|r| r.0.starts_with("2player/")) {
        println!(
            "  {key}: {n} compared, {} identical",
            n - differing(failures)
        );
    }
    let unstable = games
        .values()
        .flatten()
        .filter(|r| r.java == "unstable")
        .count();
    let compared: usize = results.iter().map(|r| r.2).sum();
    println!("{compared} runs compared; {unstable} unstable in Java, not compared");
    assert!(
        compared >= 2300 || !only.is_empty(),
        "only {compared} runs compared"
    );
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Cycles per run of `data/gvgai/java_long_traces.txt`: past the 1000-tick time limits of
/// mimic and unbalanced and their 500-tick timers.
const LONG_ACTS: usize = 1100;

/// Runs of [`LONG_ACTS`] cycles: the games whose ends only long runs reach, mimic (game
/// counters decide the winner at tick 1000) and unbalanced (a `GameSpace`; the highest score
/// wins at tick 1000), and tablero's test games `tests/counters` (`Timeout use_counter=True
/// compare=True`, `transformIfCount` counting `counter` or `counterElse`, counters of a timed
/// effect), `tests/gamespace` (a `GameSpace` whose parameters have values, `Timeout
/// use_counter=True limits=...`) and `tests/inertia` (RandomInertial and `waterPhysics`,
/// which no game of the framework uses).
#[test]
fn engine_matches_java_on_long_runs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai");
    let games = recorded(&root.join("java_long_traces.txt"));
    let keys: Vec<&String> = games.keys().collect();
    assert_eq!(keys.len(), 5, "{keys:?}");
    let results = check_all(&keys, &games, LONG_ACTS);
    let compared: usize = results.iter().map(|r| r.2).sum();
    for (key, failures, n) in &results {
        println!("{key}: {n} compared, {} identical", n - differing(failures));
    }
    assert_eq!(
        compared, 48,
        "mimic and unbalanced 15 runs each, test games 6 each"
    );
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
