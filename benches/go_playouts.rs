//! Criterion benchmarks of the Go hot paths: light playouts from the empty board (9x9, 19x19),
//! a board copy, the full default search on 1 and 2 threads, and the priors of one node
//! expansion (hand-written and learned).
//! Run: `cargo bench --bench go_playouts`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};
use tablero::budget::{Budget, CancelFlag};
use tablero::go::Color;
use tablero::go::board::Board;
use tablero::go::game::{Game, Rules, Scoring};
use tablero::go::search::playout::{PlayoutPolicy, playout};
use tablero::go::search::{Player, SearchParams};

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("light_playout");
    g.throughput(Throughput::Elements(1));
    for size in [9usize, 19] {
        let empty = Board::new(size);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        g.bench_function(format!("{size}x{size}"), |b| {
            b.iter_batched_ref(
                || empty.clone(),
                |board| {
                    playout(
                        board,
                        Color::Black,
                        0,
                        PlayoutPolicy::Light,
                        Scoring::Area,
                        7.5,
                        &mut rng,
                        None,
                    )
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

fn board_copy(c: &mut Criterion) {
    let b = Board::new(19);
    c.bench_function("board_clone", |bench| {
        bench.iter(|| std::hint::black_box(b.clone()))
    });
}

/// The full search with the default `[search]` settings (heavy playouts, priors, RAVE) from
/// the empty 9×9 board: 2,000 iterations on 1 and on 2 threads. Elements/s is playouts/s;
/// the 2-thread throughput over the 1-thread one is the scaling.
fn mcts(c: &mut Criterion) {
    let mut g = c.benchmark_group("search_9x9");
    const ITERATIONS: u64 = 2000;
    g.throughput(Throughput::Elements(ITERATIONS));
    g.sample_size(20);
    let game = Game::new(
        9,
        Rules {
            scoring: Scoring::Area,
            ..Rules::default()
        },
    )
    .expect("9x9");
    for threads in [1usize, 2] {
        g.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                let mut p = Player::new(SearchParams {
                    max_playouts: ITERATIONS,
                    threads,
                    early_stop: false,
                    ..SearchParams::default()
                });
                let budget =
                    Budget::new(Instant::now() + Duration::from_secs(60), CancelFlag::new());
                p.search(&game, Color::Black, &budget)
            })
        });
    }
    g.finish();
}

/// The cost of the priors of one node expansion on a 19×19 middle game (80 heavy-policy
/// moves from the empty board, seed 3): the hand-written terms of every legal point, and the
/// learned term (features, shapes and gamma lookups of every legal point) on top.
fn expansion_priors(c: &mut Criterion) {
    use tablero::go::search::mm::Table;
    use tablero::go::search::policy::{HeavyParams, heavy_move};
    use tablero::go::search::priors::{PriorParams, mm_visits, prior};
    let mut board = Board::new(19);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut color = Color::Black;
    let mut last = [None, None];
    for _ in 0..80 {
        let mv = heavy_move(
            &board,
            color,
            last[0],
            last[1],
            &HeavyParams::DEFAULT,
            &mut rng,
        );
        match mv {
            Some(p) => {
                board.play_unchecked(color, p);
            }
            None => board.pass(),
        }
        last = [mv, last[0]];
        color = color.opponent();
    }
    let points: Vec<usize> = board
        .points()
        .filter(|&p| board.is_legal(color, p))
        .collect();
    let mut g = c.benchmark_group("expansion_priors_19x19");
    g.throughput(Throughput::Elements(points.len() as u64));
    g.bench_function("hand_written", |b| {
        b.iter(|| {
            points
                .iter()
                .map(|&p| prior(&board, color, p, last[0], &PriorParams::DEFAULT).visits)
                .sum::<u32>()
        })
    });
    let table = Table::builtin();
    let mut out = Vec::new();
    g.bench_function("learned", |b| {
        b.iter(|| {
            mm_visits(table, &board, color, &points, last, 40, &mut out);
            out.iter().sum::<u32>()
        })
    });
    g.finish();
}

criterion_group!(benches, playouts, board_copy, mcts, expansion_priors);
criterion_main!(benches);
