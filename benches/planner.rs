//! Planner throughput: nodes expanded per second (criterion "elements") for several search
//! engines on small classic tasks and GVG-AI Sokoban levels, plus parse+ground time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use tablero::planning::examples;
use tablero::planning::ground::ground;
use tablero::planning::pddl::{parse_domain, parse_problem};
use tablero::planning::portfolio::member;
use tablero::planning::search::{Bound, Engine, Shared, Step};

fn shared(domain: &str, problem: &str) -> Arc<Shared> {
    let d = parse_domain(domain).expect("domain");
    let p = parse_problem(problem).expect("problem");
    Shared::new(ground(&d, &p).expect("ground"))
}

/// Runs a fresh engine of member `name` (its first stage) to the end; returns nodes expanded.
fn run(sh: &Arc<Shared>, name: &str) -> u64 {
    let m = member(name, false).expect("member");
    let stage = &m.stages[0];
    let mut e: Box<dyn Engine> = build(stage, sh);
    loop {
        match e.step(10_000) {
            Step::Running => {}
            Step::Solved(p) => {
                black_box(p);
                break;
            }
            Step::Exhausted | Step::GaveUp => break,
        }
    }
    e.stats().expanded
}

fn build(stage: &tablero::planning::portfolio::Stage, sh: &Arc<Shared>) -> Box<dyn Engine> {
    use tablero::planning::portfolio::Stage;
    use tablero::planning::search::{
        astar::AStar, gbfs::LazySearch, width::Bfws, width::Iw, width::Siw,
    };
    match stage {
        Stage::Lazy(c) => Box::new(LazySearch::new(sh.clone(), c.clone(), Bound::default())),
        Stage::AStar(k) => Box::new(AStar::new(sh.clone(), *k, Bound::default())),
        Stage::Iw(k) => Box::new(Iw::new(sh.clone(), *k, Bound::default())),
        Stage::Siw => Box::new(Siw::new(sh.clone(), Bound::default())),
        Stage::Bfws => Box::new(Bfws::new(sh.clone(), Bound::default())),
    }
}

fn bench_search(c: &mut Criterion) {
    let soko =
        |i: usize| examples::sokoban_problem(&format!("l{i}"), examples::GVGAI_SOKOBAN_LEVELS[i]);
    let tasks: Vec<(&str, Arc<Shared>, Vec<&str>)> = vec![
        (
            "gripper4",
            shared(examples::GRIPPER, examples::GRIPPER_4),
            vec!["astar-lmcut", "astar-blind", "lama"],
        ),
        (
            "blocks-reverse4",
            shared(examples::BLOCKSWORLD, examples::BLOCKSWORLD_REVERSE4),
            vec!["astar-lmcut", "hadd-lm", "bfws"],
        ),
        (
            "sokoban3",
            shared(examples::SOKOBAN, &soko(3)),
            vec!["astar-lmcut", "lama", "bfws"],
        ),
        (
            "sokoban0",
            shared(examples::SOKOBAN, &soko(0)),
            vec!["bfws", "hadd-lm"],
        ),
    ];
    let mut g = c.benchmark_group("planner_nodes");
    g.sample_size(10);
    for (tname, sh, planners) in &tasks {
        for p in planners {
            let nodes = run(sh, p);
            g.throughput(Throughput::Elements(nodes.max(1)));
            g.bench_with_input(BenchmarkId::new(*p, tname), sh, |b, sh| {
                b.iter(|| run(sh, p))
            });
        }
    }
    g.finish();
}

fn bench_ground(c: &mut Criterion) {
    let problem = examples::sokoban_problem("l0", examples::GVGAI_SOKOBAN_LEVELS[0]);
    c.bench_function("parse_ground_sokoban0", |b| {
        b.iter(|| {
            let d = parse_domain(examples::SOKOBAN).expect("domain");
            let p = parse_problem(&problem).expect("problem");
            black_box(ground(&d, &p).expect("ground").operators.len())
        })
    });
}

criterion_group!(benches, bench_search, bench_ground);
criterion_main!(benches);
