//! The Go search's tree stays within `search.max_tree_memory_mb` at every board size and
//! thread count, also when the tree is reused from one move to the next, and the search goes
//! on (playouts from the leaves) once the cap is reached. The cap is checked before a leaf
//! expands, so each worker can overshoot it by at most one expansion (one node per point
//! plus the pass).
//!
//! The process's resident memory is measured too (Linux `/proc/self/statm`): a search with a
//! 64 MB cap on 19×19 with 4 threads may not grow it by much more than the cap. The file
//! holds one test, so no other test allocates beside it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};
use tablero::budget::{Budget, CancelFlag};
use tablero::go::game::{Game, KoRule, Rules, Scoring};
use tablero::go::search::{Decision, Player, SearchParams};
use tablero::go::{Color, Move};

fn budget() -> Budget {
    Budget::new(Instant::now() + Duration::from_secs(600), CancelFlag::new())
}

fn game(size: usize) -> Game {
    Game::new(
        size,
        Rules {
            scoring: Scoring::Area,
            ko: KoRule::Positional,
            komi: 7.0,
        },
    )
    .unwrap()
}

/// The default search with `threads` workers, a tree cap of `mb` MiB and enough playouts to
/// reach it several times over on a `size`×`size` board.
fn params(size: usize, threads: usize, mb: usize) -> SearchParams {
    let max_nodes = SearchParams::nodes_in(mb);
    let per_expansion = (size * size + 1) as u64;
    SearchParams {
        threads,
        max_nodes,
        // A leaf expands after `expand_threshold` visits: this many playouts expand the cap's
        // worth of leaves three times over.
        max_playouts: 3 * (max_nodes as u64 / per_expansion + 1) * 2 + 500,
        early_stop: false,
        resign_threshold: 0.0,
        seed: 7,
        ..SearchParams::default()
    }
}

/// Plays `moves` moves of self-play (the tree reused between them) and checks the tree after
/// every search: at the cap (the test reaches it) and over it by at most one expansion per
/// worker.
fn check_bounded(size: usize, threads: usize, mb: usize, moves: usize) {
    let p = params(size, threads, mb);
    let (cap, slack) = (p.max_nodes, threads * (size * size + 1));
    let mut player = Player::new(p);
    let mut g = game(size);
    let mut color = Color::Black;
    for i in 0..moves {
        let s = player.search(&g, color, &budget());
        let nodes = player.tree_size();
        assert!(
            nodes <= cap + slack,
            "{size}×{size}, {threads} threads, move {i}: {nodes} nodes, cap {cap} + {slack}"
        );
        assert!(
            nodes >= cap,
            "{size}×{size}, {threads} threads, move {i}: the test did not reach the cap \
             ({nodes} of {cap} nodes)"
        );
        assert!(s.playouts > 0);
        let mv = match s.decision {
            Decision::Play(m) => m,
            other => panic!("{size}×{size}: {other:?} at move {i}"),
        };
        g.play(color, mv).unwrap();
        color = color.opponent();
        if mv == Move::Pass {
            break;
        }
    }
}

/// Resident memory of this process in bytes.
fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

#[test]
fn the_tree_stays_within_its_memory_cap_at_every_size_and_thread_count() {
    for size in [9, 13, 19] {
        for threads in [1, 2, 4] {
            check_bounded(size, threads, 2, 3);
        }
    }
    // Resident memory: a 64 MiB cap on 19×19 with 4 workers.
    let mb = 64;
    let before = rss();
    let mut player = Player::new(params(19, 4, mb));
    let s = player.search(&game(19), Color::Black, &budget());
    let grown = rss().saturating_sub(before);
    let tree = player.tree_size();
    eprintln!(
        "19×19, 4 threads, cap {mb} MiB: {tree} nodes after {} playouts, resident memory +{:.1} MiB",
        s.playouts,
        grown as f64 / (1 << 20) as f64
    );
    assert!(
        tree >= SearchParams::nodes_in(mb),
        "the cap was not reached"
    );
    assert!(
        grown <= (mb as u64 + 16) << 20,
        "resident memory grew {:.1} MiB under a {mb} MiB cap",
        grown as f64 / (1 << 20) as f64
    );
}
