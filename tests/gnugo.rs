//! tablero's GTP engine against GNU Go 3.8 (Debian `gnugo`, /usr/games/gnugo) through full 9×9
//! games: no illegal move, no protocol error, no time-out, and on every game that ends by two
//! passes tablero's `final_score` agrees with GNU Go's `--chinese-rules` scoring.
//!
//! `.ci/run` installs gnugo; without it this test fails and says so.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use tablero::tournament::go_match::{EndReason, MatchOptions, parse_score, run_match};

const GNUGO: &str = "/usr/games/gnugo";

fn tablero_cmd(extra: &str) -> String {
    format!(
        "{} gtp --set go.boardsize=9 --set go.komi=7 --set search.threads=1 {extra}",
        env!("CARGO_BIN_EXE_tablero")
    )
}

// One thread and a playout count make tablero's moves deterministic, and `--seed` GNU Go's
// (its default seed comes from the clock), so every run plays the same six games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_games_against_gnugo_agree_on_the_score() {
    assert!(
        Path::new(GNUGO).exists(),
        "GNU Go is missing: install the Debian package `gnugo` (.ci/run does)"
    );
    let mut opts = MatchOptions::new(
        &tablero_cmd(
            "--set search.playouts=4000 --set search.resign_threshold=0 --set search.seed={game}",
        ),
        &format!("{GNUGO} --mode gtp --chinese-rules --level 1 --seed 1{{game}}"),
        9,
        7.0,
        6,
    );
    opts.alternate = true;
    opts.clock = Some("0+10/1".parse().expect("clock"));
    let sgf = tempfile::tempdir().expect("temp dir");
    opts.sgf_dir = Some(sgf.path().to_path_buf());
    let summary = run_match(&opts, &|l: &str| eprintln!("{l}")).await;
    assert_eq!(summary.records.len(), 6);
    let mut scored = 0;
    for r in &summary.records {
        assert!(
            r.fault.is_none(),
            "game {} ended by a fault: {:?}",
            r.game,
            r.fault
        );
        assert!(
            matches!(r.reason, EndReason::Score | EndReason::Resign),
            "game {} ended by {:?}",
            r.game,
            r.reason
        );
        assert!(
            r.moves > 10,
            "game {} is too short: {} moves",
            r.game,
            r.moves
        );
        if r.reason == EndReason::Score {
            scored += 1;
            let ours = r.engine_scores[r.black_engine].as_deref();
            let gnugo = r.engine_scores[1 - r.black_engine].as_deref();
            let (Some(ours), Some(gnugo)) = (ours, gnugo) else {
                panic!(
                    "game {}: final_score missing: {:?}",
                    r.game, r.engine_scores
                );
            };
            assert_eq!(
                parse_score(ours),
                parse_score(gnugo),
                "game {}: tablero says {ours}, GNU Go says {gnugo}",
                r.game
            );
        }
    }
    let files = std::fs::read_dir(sgf.path()).expect("sgf dir").count();
    assert_eq!(files, 6, "one SGF per game");
    eprintln!(
        "{scored} scored games; tablero won {} of 6",
        summary.engines[0].wins
    );
}

// A handicap game as a KGS operator would play one: GNU Go takes three stones from tablero
// (`tablero match --handicap 3`, both engines told `fixed_handicap 3`), White moves first,
// and the two engines' scores, with White's point per handicap stone, agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handicap_game_against_gnugo_starts_with_white_and_agrees_on_the_score() {
    assert!(
        Path::new(GNUGO).exists(),
        "GNU Go is missing: install the Debian package `gnugo` (.ci/run does)"
    );
    let mut opts = MatchOptions::new(
        &format!("{GNUGO} --mode gtp --chinese-rules --level 1 --seed 5"),
        &tablero_cmd(
            "--set go.komi=0.5 --set search.playouts=3000 --set search.resign_threshold=0",
        ),
        9,
        0.5,
        1,
    );
    opts.handicap = 3;
    let sgf = tempfile::tempdir().expect("temp dir");
    opts.sgf_dir = Some(sgf.path().to_path_buf());
    let summary = run_match(&opts, &|l: &str| eprintln!("{l}")).await;
    let r = &summary.records[0];
    assert!(r.fault.is_none(), "fault: {:?}", r.fault);
    assert!(r.moves > 10, "only {} moves", r.moves);
    let text = std::fs::read_to_string(sgf.path().join("game-0000.sgf")).expect("sgf");
    assert!(text.contains("HA[3]"), "{text}");
    let after_setup = text.split("AB[").nth(1).expect("handicap stones");
    let first = after_setup.find(";").map(|i| &after_setup[i..i + 2]);
    assert_eq!(first, Some(";W"), "White moves first: {text}");
    if r.reason == EndReason::Score {
        let [a, b] = &r.engine_scores;
        let (a, b) = (a.as_deref().expect("score"), b.as_deref().expect("score"));
        assert_eq!(parse_score(a), parse_score(b), "GNU Go {a}, tablero {b}");
    } else {
        assert_eq!(r.reason, EndReason::Resign, "{:?}", r.reason);
    }
}
