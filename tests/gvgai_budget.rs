//! Budget hardening: every controller, given GVG-AI's 40 ms per act and no iteration cap (so
//! the deadline is what stops it), must never spend more than 50 ms on an act.
//!
//! Each act's wall time is measured, and so are the thread's CPU time and its time waiting
//! for a core (Linux `/proc/thread-self/schedstat`). On a heavily loaded machine the kernel can
//! keep a runnable thread off the CPU for tens of milliseconds after its last clock check, and
//! no controller can prevent that; so the assertion is on the act's own time (wall time minus
//! time spent waiting in the run queue), which is what GVG-AI's CPU-time timer measures. The
//! raw wall-time maximum is printed.
//!
//! A stall the machine causes can still land inside an act (an interrupt is charged to the
//! thread it interrupts); [`check`] tells it from a controller's overrun by playing again.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use tablero::budget::{Budget, CancelFlag};
use tablero::controllers::make;
use tablero::gvgai::controllers::{ACT_TIME, ACT_TIME_DISQ, ControllerSettings, INIT_TIME};
use tablero::gvgai::games::shipped;

/// (cpu ns, run-queue wait ns) of the calling thread, if the kernel reports them.
fn schedstat() -> Option<(u64, u64)> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let mut it = s.split_whitespace().map(|v| v.parse::<u64>().ok());
    Some((it.next()??, it.next()??))
}

struct Worst {
    own_ms: f64,
    wall_ms: f64,
    cpu_ms: f64,
}

fn worst_act(controller: &str, game: &str, level: usize, ticks: usize) -> Worst {
    let game = shipped(game).unwrap();
    let mut state = game.start(level, 1).unwrap();
    let mut c = make(controller, &ControllerSettings::seeded(1)).unwrap();
    let init = Instant::now();
    c.init(
        &state,
        &Budget::new(Instant::now() + INIT_TIME, CancelFlag::new()),
    );
    assert!(
        init.elapsed() < INIT_TIME + Duration::from_millis(100),
        "{controller}: init took {:?}",
        init.elapsed()
    );
    let mut w = Worst {
        own_ms: 0.0,
        wall_ms: 0.0,
        cpu_ms: 0.0,
    };
    for _ in 0..ticks {
        if state.is_over() {
            break;
        }
        let before = schedstat();
        let start = Instant::now();
        let a = c.act(&state, &Budget::new(start + ACT_TIME, CancelFlag::new()));
        let wall = start.elapsed().as_secs_f64() * 1000.0;
        let (cpu, wait) = match (before, schedstat()) {
            (Some((c0, q0)), Some((c1, q1))) => ((c1 - c0) as f64 / 1e6, (q1 - q0) as f64 / 1e6),
            _ => (wall, 0.0),
        };
        w.wall_ms = w.wall_ms.max(wall);
        w.cpu_ms = w.cpu_ms.max(cpu);
        w.own_ms = w.own_ms.max(wall - wait);
        state.advance(a);
    }
    println!(
        "{controller}: worst act {:.1} ms own time, {:.1} ms CPU, {:.1} ms wall",
        w.own_ms, w.cpu_ms, w.wall_ms
    );
    w
}

/// An overrun the controller causes (a table rehash, a drop, a missed clock check) comes back
/// when the same seeded game is played again; a stall the machine causes (an interrupt charged
/// to the thread, a host page fault under a virtual machine) does not. So a controller fails
/// only if every one of [`RUNS`] plays has an act over the limit.
const RUNS: usize = 3;

fn check(controller: &str, game: &str, level: usize, ticks: usize) {
    let limit = ACT_TIME_DISQ.as_secs_f64() * 1000.0;
    let mut worst = Vec::new();
    for _ in 0..RUNS {
        let w = worst_act(controller, game, level, ticks);
        if w.own_ms <= limit && w.cpu_ms <= limit {
            return;
        }
        worst.push(format!(
            "{:.1} ms own time ({:.1} ms CPU)",
            w.own_ms, w.cpu_ms
        ));
    }
    panic!(
        "{controller} on {game} {level}: in each of {RUNS} plays an act went over {limit} ms: {}",
        worst.join(", ")
    );
}

#[test]
fn stochastic_searchers_stay_within_the_act_budget() {
    for c in ["random", "onestep", "mcts", "olets", "rhea"] {
        check(c, "butterflies", 0, 80);
    }
}

#[test]
fn deterministic_searchers_stay_within_the_act_budget() {
    // Sokoban 0 is not solved within these ticks: BFS/IW tables keep growing, act after act.
    for c in ["bfs", "iw"] {
        check(c, "sokoban", 0, 120);
    }
}
