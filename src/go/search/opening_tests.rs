//! 19×19 opening soundness: at a fixed playout count, self-play from the empty board never
//! plays a quiet 1st/2nd-line move (one that touches no stone, so it captures, saves and
//! answers nothing: `priors::is_quiet_low_move`), and the low-line term stays off on 9×9.

use super::priors::{self, PriorParams, is_quiet_low_move};
use super::*;
use crate::budget::{Budget, CancelFlag};
use crate::go::board::{Board, Point};
use crate::go::game::{Game, KoRule, Rules, Scoring};
use crate::go::{Color, Move};
use std::time::{Duration, Instant};

/// Self-play of `moves` moves on the empty `size` board, one thread, `playouts` per move,
/// with `low_line` as the low-line weight; the moves with their index that were quiet
/// 1st/2nd-line moves when played.
fn quiet_low_moves(
    size: usize,
    moves: usize,
    playouts: u64,
    seed: u64,
    low_line: u32,
) -> Vec<(usize, Move)> {
    let rules = Rules {
        scoring: Scoring::Area,
        ko: KoRule::Positional,
        komi: 7.5,
    };
    let Ok(mut game) = Game::new(size, rules) else {
        unreachable!("a valid size")
    };
    let mut player = Player::new(SearchParams {
        max_playouts: playouts,
        threads: 1,
        seed,
        resign_threshold: 0.0,
        prior_params: PriorParams {
            low_line,
            ..PriorParams::DEFAULT
        },
        ..SearchParams::default()
    });
    let budget = Budget::new(
        Instant::now() + Duration::from_secs(3600),
        CancelFlag::new(),
    );
    let mut quiet = Vec::new();
    for i in 0..moves {
        let color = game.to_move();
        let Decision::Play(mv) = player.search(&game, color, &budget).decision else {
            panic!("seed {seed}: resigned at move {i}")
        };
        if let Move::Play(v) = mv
            && is_quiet_low_move(game.board(), Board::point_of(v))
        {
            quiet.push((i + 1, mv));
        }
        game.play(color, mv).unwrap();
    }
    quiet
}

#[test]
fn opening_19x19_plays_no_quiet_low_moves() {
    for seed in 1..=3 {
        let quiet = quiet_low_moves(19, 20, 1000, seed, PriorParams::DEFAULT.low_line);
        assert!(quiet.is_empty(), "seed {seed}: {quiet:?}");
    }
}

#[test]
fn low_line_term_is_off_up_to_9x9_and_full_on_19x19() {
    assert_eq!(priors::low_line_weight(40, 9), 0);
    assert_eq!(priors::low_line_weight(40, 5), 0);
    assert_eq!(priors::low_line_weight(40, 13), 16);
    assert_eq!(priors::low_line_weight(40, 19), 40);
    let params = PriorParams {
        low_line: 40,
        ..PriorParams::NONE
    };
    let at = |size: usize, p: &str| -> Point {
        Board::point_of(crate::go::Vertex::parse(p, size).unwrap())
    };
    let empty9 = Board::new(9);
    assert_eq!(
        priors::prior(&empty9, Color::Black, at(9, "A5"), None, &params),
        priors::Prior::default()
    );
    let empty19 = Board::new(19);
    for (p, visits) in [("A10", 40), ("B10", 40), ("C10", 0), ("K10", 0)] {
        let pr = priors::prior(&empty19, Color::Black, at(19, p), None, &params);
        assert_eq!((pr.visits, pr.wins), (visits, 0), "{p}");
    }
}

/// The quiet low moves in the first 20 or 30 moves of self-play per playout budget and seed,
/// with the low-line term off and on (`cargo test --release --lib opening_tests -- --ignored
/// --nocapture`).
#[test]
#[ignore]
fn opening_19x19_measure() {
    for (playouts, moves, seeds) in [(1000, 20, 3), (2000, 30, 4), (10000, 30, 2)] {
        for seed in 1..=seeds {
            for low_line in [0, PriorParams::DEFAULT.low_line] {
                let q = quiet_low_moves(19, moves, playouts, seed, low_line);
                println!("playouts {playouts} seed {seed} low_line {low_line}: {q:?}");
            }
        }
    }
}
