//! Forward-model throughput: copies + advances per second on GVG-AI games, the way a search
//! controller uses them (copy the root state, then advance with random actions).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tablero::gvgai::engine::{Action, Game};

const STEPS: u64 = 100;

fn bench_game(c: &mut Criterion, name: &str, level: usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/games");
    let game = Game::load(&dir, name).expect("shipped game loads");
    let root = game.start(level, 1).expect("level exists");
    let actions: Vec<Action> = root.available_actions().to_vec();
    let mut group = c.benchmark_group(format!("gvgai_forward/{name}_lvl{level}"));
    group.throughput(Throughput::Elements(STEPS));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    group.bench_function("advance", |b| {
        b.iter(|| {
            let mut st = root.clone();
            for _ in 0..STEPS {
                if st.is_over() {
                    st = root.clone();
                }
                st.advance(actions[rng.gen_range(0..actions.len())]);
            }
            st.tick()
        })
    });
    group.finish();
    let mut group = c.benchmark_group(format!("gvgai_copy/{name}_lvl{level}"));
    group.throughput(Throughput::Elements(1));
    group.bench_function("copy", |b| b.iter(|| root.clone()));
    group.finish();
}

fn forward(c: &mut Criterion) {
    bench_game(c, "sokoban", 0);
    bench_game(c, "butterflies", 0);
    bench_game(c, "aliens", 0);
}

criterion_group!(benches, forward);
criterion_main!(benches);
