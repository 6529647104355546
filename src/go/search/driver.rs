//! The threads of one search: the state all workers share, each worker's scratch state, the
//! worker loop bounded by the budget, the playout count and the early stop, and the scope
//! that runs the workers while the calling thread observes.

use super::analysis::{Observer, snapshot};
use super::iterate::{iterate, move_point};
use super::player::SearchOptions;
use super::policy::LastGoodReply;
use super::tree::Node;
use super::{CoreGate, SearchParams};
use crate::budget::Budget;
use crate::go::board::{Board, CELLS, Point};
use crate::go::game::Game;
use crate::go::scoring::white_bonus;
use crate::go::{Color, Move};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// What all workers of one search share.
pub(super) struct Shared<'a> {
    pub(super) params: &'a SearchParams,
    pub(super) gate: Option<&'a CoreGate>,
    pub(super) game: &'a Game,
    pub(super) board: Board,
    pub(super) to_move: Color,
    pub(super) passes: u32,
    pub(super) komi: f64,
    pub(super) nodes: AtomicUsize,
    pub(super) playouts: AtomicU64,
    pub(super) stop: AtomicBool,
    /// Set when the search stopped because the best move could not change.
    pub(super) early: AtomicBool,
    pub(super) start: Instant,
    pub(super) options: SearchOptions,
    /// Per point: sum over playouts of +1 (Black owns) / -1 (White owns), and the count.
    pub(super) ownership: Vec<AtomicI64>,
    pub(super) ownership_count: AtomicU64,
    /// The game's last two moves, newest first.
    pub(super) game_last: [Option<Point>; 2],
}

/// What one search is asked: the position, the side to move, the options, and the points
/// beyond the game's komi its playouts give White (`dynkomi`).
pub(super) struct SearchRequest<'a> {
    pub(super) game: &'a Game,
    pub(super) to_move: Color,
    pub(super) extra_komi: f64,
    pub(super) options: SearchOptions,
}

impl<'a> Shared<'a> {
    /// The shared state of the search `request` whose tree holds `nodes` nodes.
    pub(super) fn new(
        params: &'a SearchParams,
        gate: Option<&'a CoreGate>,
        request: SearchRequest<'a>,
        start: Instant,
        nodes: usize,
    ) -> Shared<'a> {
        let SearchRequest {
            game,
            to_move,
            extra_komi,
            options,
        } = request;
        Shared {
            params,
            gate,
            game,
            board: game.board().clone(),
            to_move,
            // A finished game that is asked for another move goes on (GTP has no game-over).
            passes: game.passes().min(1),
            komi: game.rules().komi + white_bonus(game) + extra_komi,
            nodes: AtomicUsize::new(nodes),
            playouts: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            early: AtomicBool::new(false),
            start,
            options,
            ownership: if options.ownership {
                (0..game.size() * game.size())
                    .map(|_| AtomicI64::new(0))
                    .collect()
            } else {
                Vec::new()
            },
            ownership_count: AtomicU64::new(0),
            game_last: {
                let mut it = game.history().rev().map(|(_, m)| move_point(m));
                [it.next().flatten(), it.next().flatten()]
            },
        }
    }
}

/// One worker's scratch state.
pub(super) struct Worker {
    pub(super) rng: Xoshiro256PlusPlus,
    pub(super) path_hashes: Vec<u64>,
    pub(super) played: Vec<(Color, Move)>,
    /// AMAF map: who played each point first below the node being updated (0 none, 1 B, 2 W).
    pub(super) first: Vec<u8>,
    /// This thread's last good replies (when `last_good_reply`).
    pub(super) lgr: LastGoodReply,
}

impl Worker {
    pub(super) fn new(seed: u64) -> Worker {
        Worker {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            path_hashes: Vec::with_capacity(64),
            played: Vec::with_capacity(512),
            first: vec![0; CELLS],
            lgr: LastGoodReply::new(),
        }
    }
}

/// Runs one worker per seed on the tree at `root`. Without an observer the calling thread
/// runs the first worker; with one it reports a snapshot every `interval` and once at the end.
pub(super) fn run_threads(
    root: &Node,
    shared: &Shared,
    budget: &Budget,
    seeds: &[u64],
    observer: Option<Observer<'_>>,
) {
    let threads = seeds.len();
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let observed = observer.is_some();
        for (t, &seed) in seeds.iter().enumerate() {
            if t == 0 && !observed {
                continue;
            }
            let done = &done;
            s.spawn(move || {
                run_worker(root, shared, budget, seed, t == 0);
                done.fetch_add(1, Relaxed);
            });
        }
        match observer {
            None => run_worker(root, shared, budget, seeds[0], true),
            Some(obs) => {
                let mut next = Instant::now() + obs.interval;
                while done.load(Relaxed) < threads {
                    std::thread::sleep(Duration::from_millis(2));
                    if Instant::now() >= next {
                        (obs.callback)(&snapshot(root, shared));
                        next += obs.interval;
                    }
                }
                (obs.callback)(&snapshot(root, shared));
            }
        }
    });
}

/// One worker: iterations until the budget, the playout count or the early stop ends it.
fn run_worker(root: &Node, shared: &Shared, budget: &Budget, seed: u64, main: bool) {
    let mut w = Worker::new(seed);
    let max = shared.params.max_playouts;
    let mut local = 0u64;
    let mut lease = shared.gate.map(CoreGate::lease);
    loop {
        if shared.stop.load(Relaxed) {
            break;
        }
        if let Some(lease) = &mut lease
            && !lease.hold(budget)
        {
            // The budget ended while waiting for a core.
            break;
        }
        if max > 0 {
            // Claim an iteration first so that the total never exceeds `max`.
            if shared.playouts.fetch_add(1, Relaxed) >= max {
                shared.playouts.fetch_sub(1, Relaxed);
                break;
            }
        } else {
            shared.playouts.fetch_add(1, Relaxed);
        }
        iterate(root, shared, &mut w);
        local += 1;
        if local % 16 == 0 && budget.expired() {
            shared.stop.store(true, Relaxed);
            break;
        }
        if main && local % 64 == 0 && past_target_and_settled(root, budget) {
            shared.stop.store(true, Relaxed);
            break;
        }
        if main
            && shared.params.early_stop
            && local % 256 == 0
            && can_stop_early(root, shared, budget)
        {
            shared.early.store(true, Relaxed);
            shared.stop.store(true, Relaxed);
            break;
        }
    }
}

/// How many times the runner-up's visits the most visited root move needs to count as settled.
const SETTLED_RATIO: u32 = 2;

/// True once the budget's target has passed (when it lies before the deadline) and the
/// search's choice is settled: the most visited root move has at least `SETTLED_RATIO` times
/// the runner-up's visits and no better win rate than its own. Otherwise the search goes on
/// towards the deadline (time extension, as Pachi and Huang et al. 2010 do).
pub(super) fn past_target_and_settled(root: &Node, budget: &Budget) -> bool {
    if budget.target >= budget.deadline || Instant::now() < budget.target {
        return false;
    }
    match most_visited(root) {
        (Some(best), Some(second)) => {
            best.visits() >= SETTLED_RATIO * second.visits() && second.winrate() <= best.winrate()
        }
        _ => true,
    }
}

/// The two most visited children of `root`.
fn most_visited(root: &Node) -> (Option<&Node>, Option<&Node>) {
    let (mut best, mut second): (Option<&Node>, Option<&Node>) = (None, None);
    for c in root.children() {
        let v = c.visits();
        if best.is_none_or(|b| v > b.visits()) {
            second = best;
            best = Some(c);
        } else if second.is_none_or(|s| v > s.visits()) {
            second = Some(c);
        }
    }
    (best, second)
}

/// True when the most visited root move leads the runner-up by more visits than the search
/// can still spend.
fn can_stop_early(root: &Node, shared: &Shared, budget: &Budget) -> bool {
    let (best, second) = most_visited(root);
    let (best, second) = (best.map_or(0, Node::visits), second.map_or(0, Node::visits));
    let done = shared.playouts.load(Relaxed);
    let by_count = match shared.params.max_playouts {
        0 => u64::MAX,
        m => m.saturating_sub(done),
    };
    let now = Instant::now();
    let spent = shared.start.elapsed().as_secs_f64();
    let by_time = if budget.deadline > now && spent > 0.0 {
        // This search's rate so far, extrapolated to the time left.
        let rate = done as f64 / spent;
        (rate * (budget.deadline - now).as_secs_f64()) as u64
    } else {
        0
    };
    (best - second) as u64 > by_count.min(by_time)
}
