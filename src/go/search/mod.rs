//! The MCTS Go player: the thesis's UCT search, every constant configurable, plus RAVE, tree
//! parallelism with virtual loss and early stopping.
//!
//! - Selection: `q + C·sqrt(ln N / n)`, where `q` is the win rate blended with the AMAF (RAVE)
//!   win rate when `rave_equiv > 0`: `β = ñ / (ñ + n + n·ñ/rave_equiv)`. With RAVE off (the
//!   thesis), unvisited children come first, in uniformly random order.
//! - Expansion: all children of a leaf at once once it has `expand_threshold` visits (the root
//!   always); a child is then chosen by the selection rule (uniformly at random among the new,
//!   unvisited children in the thesis configuration) and the playout starts from it. Tree moves
//!   obey the game's ko rule (positional superko checked against the game and the path).
//! - Simulation: a playout (`random`, `light` or `heavy` policy) scored under the game's rules.
//! - Backup: visits and wins (draws count half) from the point of view of each node's mover;
//!   AMAF statistics of the siblings along the path when RAVE is on.
//! - Final move: most visits, ties by wins. Resign below `resign_threshold`.
//! - Tree reuse: the root walks down the moves played since the last search; an unexpanded
//!   target becomes a lone root. The discarded part of the tree is freed on another thread.
//! - Threads: `threads` workers share one tree (lock-free statistics, one expanding thread per
//!   node via a flag); each in-flight descent adds `virtual_loss` visits without wins.
//!
//! The search runs on its own threads (never on tokio workers), bounded by a `Budget` and a
//! playout count. Concurrent searches (the daemon's sessions) can share the cores through a
//! [`CoreGate`] (`gate.rs`): then only as many workers run as the gate has tokens. All randomness comes from `seed` (with one thread, same seed and playout
//! count, same move).

pub mod bench;
pub mod gate;
pub mod patterns;
pub mod playout;
pub mod policy;
pub mod priors;
pub mod tactics;

use super::board::{Board, CELLS, Point};
use super::game::{Game, KoRule, Scoring};
use super::scoring::{score, white_bonus};
use super::{Color, Move, Vertex};
use crate::budget::Budget;
pub use gate::CoreGate;
use playout::{PlayoutPolicy, count, playout_with};
use policy::{HeavyParams, LastGoodReply};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::OnceLock;
use std::sync::atomic::{
    AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed,
};
use std::time::{Duration, Instant};

/// The search's knobs (from `[search]` of the config).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    pub uct_c: f64,
    pub expand_threshold: u32,
    /// Iterations per search; 0 = bounded by time only.
    pub max_playouts: u64,
    pub policy: PlayoutPolicy,
    pub resign_threshold: f64,
    pub seed: u64,
    pub reuse_tree: bool,
    /// Most tree nodes kept; at the cap leaves stop expanding and the search goes on.
    pub max_nodes: usize,
    /// Worker threads sharing the tree (>= 1).
    pub threads: usize,
    /// RAVE equivalence parameter; 0 turns RAVE off (the thesis).
    pub rave_equiv: f64,
    /// Visits without wins added to a node while a descent through it is in flight.
    pub virtual_loss: u32,
    /// Stop when the most visited move can no longer be overtaken.
    pub early_stop: bool,
    /// Heuristic prior knowledge for new nodes (`priors::prior`); off in the thesis.
    pub priors: bool,
    /// Knobs of the heavy playout policy (ladder reading, nakade, fill-board).
    pub heavy: HeavyParams,
    /// Weights of the prior terms (used when `priors`).
    pub prior_params: priors::PriorParams,
    /// Last-good-reply tables (LGRF-1) in the heavy playouts, one per thread.
    pub last_good_reply: bool,
}

/// tablero's search: the defaults of `[search]` in `configs/tablero.toml` (a config test
/// checks that the two agree).
impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            uct_c: 0.1,
            expand_threshold: 2,
            max_playouts: 0,
            policy: PlayoutPolicy::Heavy,
            resign_threshold: 0.1,
            seed: 0,
            reuse_tree: true,
            max_nodes: Self::nodes_in(1024),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rave_equiv: 3000.0,
            virtual_loss: 3,
            early_stop: true,
            priors: true,
            heavy: HeavyParams::DEFAULT,
            prior_params: priors::PriorParams::DEFAULT,
            last_good_reply: false,
        }
    }
}

impl SearchParams {
    /// Tree nodes that fit in `mb` mebibytes (at least 1024).
    pub fn nodes_in(mb: usize) -> usize {
        (mb.saturating_mul(1 << 20) / std::mem::size_of::<Node>()).max(1024)
    }

    /// The thesis configuration: plain UCT with C = 1, expansion after 2 visits, uniformly
    /// random playouts, no RAVE, one thread.
    pub fn thesis() -> SearchParams {
        SearchParams {
            uct_c: 1.0,
            expand_threshold: 2,
            max_playouts: 0,
            policy: PlayoutPolicy::Random,
            resign_threshold: 0.0,
            seed: 0,
            reuse_tree: true,
            max_nodes: 1 << 22,
            threads: 1,
            rave_equiv: 0.0,
            virtual_loss: 0,
            early_stop: false,
            priors: false,
            heavy: HeavyParams::DEFAULT,
            prior_params: priors::PriorParams::DEFAULT,
            last_good_reply: false,
        }
    }
}

/// A tree node. Statistics are atomics so that worker threads share the tree; the children
/// are created once, by the thread that wins the `expanding` flag.
struct Node {
    mv: Move,
    /// The colour that played `mv`.
    color: Color,
    /// Prior knowledge, in visits and wins: used in selection only, never as real visits.
    prior_visits: u32,
    prior_wins: u32,
    visits: AtomicU32,
    /// Wins in half points (a draw is 1, a win 2).
    wins2: AtomicU32,
    virtual_loss: AtomicU32,
    amaf_visits: AtomicU32,
    amaf_wins2: AtomicU32,
    expanding: AtomicBool,
    children: OnceLock<Box<[Node]>>,
}

impl Node {
    fn new(mv: Move, color: Color) -> Node {
        Node {
            mv,
            color,
            prior_visits: 0,
            prior_wins: 0,
            visits: AtomicU32::new(0),
            wins2: AtomicU32::new(0),
            virtual_loss: AtomicU32::new(0),
            amaf_visits: AtomicU32::new(0),
            amaf_wins2: AtomicU32::new(0),
            expanding: AtomicBool::new(false),
            children: OnceLock::new(),
        }
    }
    fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }
    fn wins(&self) -> f64 {
        self.wins2.load(Relaxed) as f64 / 2.0
    }
    fn winrate(&self) -> f64 {
        let n = self.visits();
        if n == 0 { 0.5 } else { self.wins() / n as f64 }
    }
    fn children(&self) -> &[Node] {
        self.children.get().map_or(&[], |c| c)
    }
    /// Nodes in this subtree (iterative, the tree may be deep).
    fn subtree_size(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(x) = stack.pop() {
            n += 1;
            stack.extend(x.children().iter());
        }
        n
    }
}

/// The player's answer to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// Statistics of one root move, best first in `SearchSummary::moves`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStat {
    pub mv: Move,
    pub visits: u32,
    /// Win rate for the side to move, 0..1.
    pub winrate: f64,
    /// The move's share of the root's prior knowledge (prior wins), 0..1; uniform when the
    /// search runs without priors.
    pub prior: f64,
    /// Principal variation starting with `mv` (most-visited line).
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct SearchSummary {
    pub decision: Decision,
    /// Iterations run by this search (reused visits not included).
    pub playouts: u64,
    /// Visits of the root after the search (reused visits included).
    pub root_visits: u32,
    pub elapsed: Duration,
    /// Root moves by visits, best first.
    pub moves: Vec<MoveStat>,
    /// Tree nodes after the search.
    pub tree_nodes: usize,
    /// True if the search stopped because the best move could not change any more.
    pub stopped_early: bool,
}

impl SearchSummary {
    /// Win rate of the chosen move for the side to move (0.5 when unknown).
    pub fn winrate(&self) -> f64 {
        self.moves.first().map_or(0.5, |m| m.winrate)
    }
}

/// Heavy playouts behind a dead-stone estimate (GTP `final_status_list`, `final_score`, the
/// cleanup and end-of-game checks).
pub const DEAD_STONE_PLAYOUTS: u32 = 600;

/// A chain is surely dead when the opponent owns it in at least 80% of the dead-stone
/// playouts (mean ownership below -0.6).
const SURELY_DEAD: f64 = 0.6;

/// Options of one search beyond the player's parameters.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchOptions {
    /// Never choose pass at the root.
    pub forbid_pass: bool,
    /// kgs-genmove_cleanup: leave pass out while the dead-stone estimate has any opponent
    /// chain that we own more often than not.
    pub cleanup: bool,
    /// Accumulate playout ownership for the snapshots (kata-analyze `ownership true`).
    pub ownership: bool,
}

/// The state of a running search, handed to an observer (analysis, live graphics).
#[derive(Clone, Debug)]
pub struct SearchSnapshot {
    pub playouts: u64,
    pub root_visits: u32,
    pub elapsed: Duration,
    /// Root moves by visits, best first.
    pub moves: Vec<MoveStat>,
    /// Mean final ownership of each point over this search's playouts, +1 Black, -1 White,
    /// indexed `row * size + col` (when `SearchOptions::ownership`).
    pub ownership: Option<Vec<f64>>,
}

/// A callback that sees the search every `interval` while it runs.
pub struct Observer<'a> {
    pub interval: Duration,
    pub callback: &'a mut (dyn FnMut(&SearchSnapshot) + Send),
}

/// Identifies the position the tree's root stands for.
#[derive(Clone, Debug, PartialEq)]
struct RootKey {
    hashes: Vec<u64>,
    to_move: Color,
    komi: f64,
}

pub struct Player {
    params: SearchParams,
    root: Node,
    root_key: Option<RootKey>,
    rng: Xoshiro256PlusPlus,
    /// The cores this player's searches share with others', if any.
    gate: Option<std::sync::Arc<CoreGate>>,
}

/// What all workers of one search share.
struct Shared<'a> {
    params: &'a SearchParams,
    gate: Option<&'a CoreGate>,
    game: &'a Game,
    board: Board,
    to_move: Color,
    passes: u32,
    komi: f64,
    nodes: AtomicUsize,
    playouts: AtomicU64,
    stop: AtomicBool,
    /// Set when the search stopped because the best move could not change.
    early: AtomicBool,
    start: Instant,
    options: SearchOptions,
    /// Per point: sum over playouts of +1 (Black owns) / -1 (White owns), and the count.
    ownership: Vec<AtomicI64>,
    ownership_count: AtomicU64,
    /// The game's last two moves, newest first.
    game_last: [Option<Point>; 2],
}

/// One worker's scratch state.
struct Worker {
    rng: Xoshiro256PlusPlus,
    path_hashes: Vec<u64>,
    played: Vec<(Color, Move)>,
    /// AMAF map: who played each point first below the node being updated (0 none, 1 B, 2 W).
    first: Vec<u8>,
    /// This thread's last good replies (when `last_good_reply`).
    lgr: LastGoodReply,
}

impl Worker {
    fn new(seed: u64) -> Worker {
        Worker {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            path_hashes: Vec::with_capacity(64),
            played: Vec::with_capacity(512),
            first: vec![0; CELLS],
            lgr: LastGoodReply::new(),
        }
    }
}

impl Player {
    pub fn new(params: SearchParams) -> Player {
        let rng = Xoshiro256PlusPlus::seed_from_u64(params.seed);
        Player {
            params,
            root: Node::new(Move::Pass, Color::White),
            root_key: None,
            rng,
            gate: None,
        }
    }

    /// Shares the cores with other players through `gate` (`None`: search freely).
    pub fn set_gate(&mut self, gate: Option<std::sync::Arc<CoreGate>>) {
        self.gate = gate;
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        self.clear();
    }

    /// Forgets the tree and reseeds (a new game).
    pub fn clear(&mut self) {
        self.replace_root(Node::new(Move::Pass, Color::White));
        self.root_key = None;
        self.rng = Xoshiro256PlusPlus::seed_from_u64(self.params.seed);
    }

    /// Installs a new root; the old tree is freed on a background thread.
    fn replace_root(&mut self, root: Node) {
        let old = std::mem::replace(&mut self.root, root);
        if old.children.get().is_some() {
            std::thread::spawn(move || drop(old));
        }
    }

    /// Nodes in the tree (for tests and reports).
    pub fn tree_size(&self) -> usize {
        self.root.subtree_size()
    }

    /// Visits of the root (for tests of tree reuse).
    pub fn root_visits(&self) -> u32 {
        self.root.visits()
    }

    /// Moves the root to `game`'s position for `color`, keeping what can be kept.
    fn prepare_root(&mut self, game: &Game, color: Color) {
        let key = RootKey {
            hashes: game.position_hashes().to_vec(),
            to_move: color,
            komi: game.rules().komi,
        };
        let old = self.root_key.take();
        let reusable = self.params.reuse_tree
            && old.as_ref().is_some_and(|o| {
                o.komi == key.komi
                    && key.hashes.len() >= o.hashes.len()
                    && key.hashes[..o.hashes.len()] == o.hashes[..]
            });
        let mut kept = false;
        if let (true, Some(old)) = (reusable, old) {
            kept = true;
            let played: Vec<(Color, Move)> = game.history().collect();
            for &(c, m) in &played[old.hashes.len() - 1..] {
                let Some(mut children) = self.root.children.take() else {
                    self.replace_root(Node::new(m, c));
                    continue;
                };
                match children.iter().position(|n| n.mv == m && n.color == c) {
                    Some(i) => {
                        let next = std::mem::replace(&mut children[i], Node::new(m, c));
                        self.root = next;
                        std::thread::spawn(move || drop(children));
                    }
                    None => {
                        self.root = Node::new(m, c);
                        std::thread::spawn(move || drop(children));
                    }
                }
            }
            // The root's children must be moves of the colour asked for.
            if self
                .root
                .children()
                .first()
                .is_some_and(|n| n.color != color)
            {
                kept = false;
            }
        }
        if !kept {
            let (c, m) = game.last_move().unwrap_or((color.opponent(), Move::Pass));
            self.replace_root(Node::new(m, c));
        }
        self.root
            .expanding
            .store(self.root.children.get().is_some(), Relaxed);
        self.root_key = Some(key);
    }

    /// Searches `game` for `color` until the budget ends or `max_playouts` iterations ran.
    pub fn search(&mut self, game: &Game, color: Color, budget: &Budget) -> SearchSummary {
        self.search_with(game, color, budget, SearchOptions::default())
    }

    pub fn search_with(
        &mut self,
        game: &Game,
        color: Color,
        budget: &Budget,
        options: SearchOptions,
    ) -> SearchSummary {
        self.search_observed(game, color, budget, options, None)
    }

    /// A search whose progress `observer` sees every `observer.interval` (and once at the
    /// end). The calling thread observes; `threads` workers search.
    pub fn search_observed(
        &mut self,
        game: &Game,
        color: Color,
        budget: &Budget,
        options: SearchOptions,
        observer: Option<Observer<'_>>,
    ) -> SearchSummary {
        let start = Instant::now();
        // Under area scoring capturing dead stones costs nothing, so our pass does not end the
        // game while the opponent has stones we judge surely dead: the search then leaves pass
        // out. Cleanup does the same for any stone judged dead. One estimate serves both, and
        // it gets at most half of the time left.
        let mut options = options;
        let mut dead = Vec::new();
        let end_check =
            options.cleanup || (opponent_passed(game) && game.rules().scoring == Scoring::Area);
        if !options.forbid_pass && end_check {
            let until = start + budget.deadline.saturating_duration_since(start) / 2;
            let margin = if options.cleanup { 0.0 } else { SURELY_DEAD };
            dead = self.dead_chains_of(game, color.opponent(), margin, Some(until));
            options.forbid_pass = !dead.is_empty();
        }
        self.prepare_root(game, color);
        let shared = Shared {
            params: &self.params,
            gate: self.gate.as_deref(),
            game,
            board: game.board().clone(),
            to_move: color,
            // A finished game that is asked for another move goes on (GTP has no game-over).
            passes: game.passes().min(1),
            komi: game.rules().komi + white_bonus(game),
            nodes: AtomicUsize::new(self.root.subtree_size()),
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
        };
        let threads = self.params.threads.max(1);
        // Seeds: the player's stream, so that successive searches differ but replay alike.
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.r#gen()).collect();
        let root = &self.root;
        let done = AtomicUsize::new(0);
        std::thread::scope(|s| {
            let observed = observer.is_some();
            for (t, &seed) in seeds.iter().enumerate() {
                if t == 0 && !observed {
                    continue;
                }
                let (shared, done) = (&shared, &done);
                s.spawn(move || {
                    run_worker(root, shared, budget, seed, t == 0);
                    done.fetch_add(1, Relaxed);
                });
            }
            match observer {
                None => run_worker(root, &shared, budget, seeds[0], true),
                Some(obs) => {
                    let mut next = Instant::now() + obs.interval;
                    while done.load(Relaxed) < threads {
                        std::thread::sleep(Duration::from_millis(2));
                        if Instant::now() >= next {
                            (obs.callback)(&snapshot(root, &shared));
                            next += obs.interval;
                        }
                    }
                    (obs.callback)(&snapshot(root, &shared));
                }
            }
        });
        let playouts = shared.playouts.load(Relaxed);
        let stopped_early = shared.early.load(Relaxed);
        let tree_nodes = shared.nodes.load(Relaxed);
        let mut moves = root_moves(&self.root, options.forbid_pass);
        prefer_playing_on(&mut moves, game);
        prefer_capturing(&mut moves, game, &dead);
        let decision = match moves.first() {
            Some(best) if best.visits > 0 => {
                // The cleanup phase (kgs-genmove_cleanup) follows an agreed end of the game:
                // a resignation there would throw away a game the players already scored.
                let lost = self.params.resign_threshold > 0.0
                    && !options.cleanup
                    && best.winrate < self.params.resign_threshold
                    && self.root.visits() >= 1000;
                if lost {
                    Decision::Resign
                } else {
                    Decision::Play(best.mv)
                }
            }
            _ => Decision::Play(self.fallback_move(game, color, options)),
        };
        SearchSummary {
            decision,
            playouts,
            root_visits: self.root.visits(),
            elapsed: start.elapsed(),
            moves,
            tree_nodes,
            stopped_early,
        }
    }

    /// A legal move when the search had no time at all: a policy move or pass.
    fn fallback_move(&mut self, game: &Game, color: Color, options: SearchOptions) -> Move {
        let board = game.board();
        let empty = board.empty_points();
        let start = self.rng.gen_range(0..=empty.len());
        for k in 0..empty.len() {
            let p = empty[(start + k) % empty.len()] as Point;
            let mv = Move::Play(Board::vertex_of(p));
            if (options.forbid_pass || !board.is_eye(color, p)) && game.is_legal(color, mv) {
                return mv;
            }
        }
        Move::Pass
    }

    /// Root children sorted by visits then wins, with their principal variations.
    pub fn root_moves(&self) -> Vec<MoveStat> {
        root_moves(&self.root, false)
    }

    /// Ownership of every point from `playouts` heavy playouts of the current position:
    /// +1 always Black's, -1 always White's. Indexed `row * size + col`.
    ///
    /// The playouts start as if nobody had passed, even after two passes: a finished game is
    /// scored by playing it out, so stones in atari get captured and open kos get fought. The
    /// heavy policy captures and escapes ataris and avoids self-atari, which light random
    /// playouts do not; on 484 finished 9×9 games it agrees with GNU Go's dead stones in 476
    /// (light playouts continuing the pass count: 467).
    pub fn ownership(&mut self, game: &Game, playouts: u32) -> Vec<f64> {
        self.ownership_until(game, playouts, None)
    }

    /// `ownership` that stops early at `until` (after at least one playout).
    fn ownership_until(&mut self, game: &Game, playouts: u32, until: Option<Instant>) -> Vec<f64> {
        let size = game.size();
        let mut own = vec![0.0; size * size];
        let mut done = 0u32;
        while done < playouts.max(1) {
            if done > 0 && until.is_some_and(|t| Instant::now() >= t) {
                break;
            }
            done += 1;
            let mut b = game.board().clone();
            playout_with(
                &mut b,
                game.to_move(),
                0,
                [None, None],
                PlayoutPolicy::Heavy,
                &self.params.heavy,
                None,
                game.rules().scoring,
                0.0,
                &mut self.rng,
                None,
            );
            for (o, sign) in own.iter_mut().zip(owner_signs(&b)) {
                *o += sign as f64;
            }
        }
        own.iter_mut().for_each(|o| *o /= done as f64);
        own
    }

    /// Chains judged dead: on average owned by the opponent in the playouts. One `Vec` per
    /// chain, vertices sorted.
    pub fn dead_stones(&mut self, game: &Game, playouts: u32) -> Vec<Vec<Vertex>> {
        self.dead_stones_until(game, playouts, None, 0.0)
    }

    /// `dead_stones` from at most `playouts` playouts that stop early at `until`, keeping the
    /// chains whose mean ownership is below `-margin` (0: owned by the opponent more often
    /// than not).
    fn dead_stones_until(
        &mut self,
        game: &Game,
        playouts: u32,
        until: Option<Instant>,
        margin: f64,
    ) -> Vec<Vec<Vertex>> {
        let own = self.ownership_until(game, playouts, until);
        let size = game.size();
        let board = game.board();
        let mut seen = vec![false; size * size];
        let mut out = Vec::new();
        for p in board.points() {
            let v = Board::vertex_of(p);
            let Some(c) = board.cell(p).color() else {
                continue;
            };
            if seen[v.row() * size + v.col()] {
                continue;
            }
            let chain = board.chain(p);
            let sign = if c == Color::Black { 1.0 } else { -1.0 };
            let mean: f64 = chain
                .iter()
                .map(|&q| {
                    let w = Board::vertex_of(q);
                    own[w.row() * size + w.col()] * sign
                })
                .sum::<f64>()
                / chain.len() as f64;
            let mut verts: Vec<Vertex> = chain.iter().map(|&q| Board::vertex_of(q)).collect();
            for w in &verts {
                seen[w.row() * size + w.col()] = true;
            }
            if mean < -margin {
                verts.sort();
                out.push(verts);
            }
        }
        out
    }

    /// The chains of `color` in the dead-stone estimate (`DEAD_STONE_PLAYOUTS` playouts,
    /// stopping early at `until`) whose mean ownership is below `-margin`.
    fn dead_chains_of(
        &mut self,
        game: &Game,
        color: Color,
        margin: f64,
        until: Option<Instant>,
    ) -> Vec<Vec<Vertex>> {
        let board = game.board();
        let mut chains = self.dead_stones_until(game, DEAD_STONE_PLAYOUTS, until, margin);
        chains.retain(|c| c.first().is_some_and(|v| board.get(*v) == Some(color)));
        chains
    }

    /// The final score with estimated dead stones removed (GTP `final_score`).
    pub fn final_score(&mut self, game: &Game, playouts: u32) -> super::scoring::Score {
        let dead: Vec<Vertex> = self
            .dead_stones(game, playouts)
            .into_iter()
            .flatten()
            .collect();
        score(game, &dead)
    }
}

/// Whether the opponent of the player to move just passed.
fn opponent_passed(game: &Game) -> bool {
    game.last_move().is_some_and(|(_, m)| m == Move::Pass)
}

/// Fewest visits that make a liberty move's win rate count in [`prefer_capturing`].
const CAPTURE_MIN_VISITS: u32 = 64;

/// A search told to capture `dead` chains before passing plays on one of their liberties
/// when such a move is as good as the best as far as the playouts can tell: at least
/// [`CAPTURE_MIN_VISITS`] visits (or a quarter of the best's, if fewer), and a win rate below
/// the best's by no more than 2 % or two standard errors of the difference, whichever is
/// larger. In a settled position every move wins about equally often and the search spreads
/// its visits over them, so a fixed margin would leave the choice to noise. With the opponent
/// passing, every other move only delays the capture, and under territory scoring it may fill
/// the player's own territory.
fn prefer_capturing(moves: &mut [MoveStat], game: &Game, dead: &[Vec<Vertex>]) {
    let Some(best) = moves.first() else {
        return;
    };
    let liberties: Vec<Point> = dead
        .iter()
        .filter_map(|c| c.first())
        .flat_map(|v| game.board().liberties(Board::point_of(*v)))
        .collect();
    let on_dead = |m: &MoveStat| match m.mv {
        Move::Play(v) => liberties.contains(&Board::point_of(v)),
        Move::Pass => false,
    };
    if liberties.is_empty() || on_dead(best) {
        return;
    }
    let visits = (best.visits / 4).clamp(1, CAPTURE_MIN_VISITS);
    let variance = |m: &MoveStat| m.winrate * (1.0 - m.winrate) / f64::from(m.visits.max(1));
    let as_good = |m: &MoveStat| {
        let margin = (2.0 * (variance(best) + variance(m)).sqrt()).max(0.02);
        best.winrate - m.winrate <= margin
    };
    if let Some(i) = moves
        .iter()
        .position(|m| m.visits >= visits && on_dead(m) && as_good(m))
    {
        moves[..=i].rotate_right(1);
    }
}

/// Passing first ends nothing and hands the opponent a free move: when pass comes out on top
/// but the opponent did not just pass, a move within 5% of pass's win rate is played instead.
fn prefer_playing_on(moves: &mut [MoveStat], game: &Game) {
    if opponent_passed(game) || moves.first().is_none_or(|m| m.mv != Move::Pass) {
        return;
    }
    let pass_rate = moves[0].winrate;
    if let Some(i) = moves
        .iter()
        .position(|m| m.mv != Move::Pass && m.visits > 0 && m.winrate >= pass_rate - 0.05)
    {
        moves[..=i].rotate_right(1);
    }
}

fn snapshot(root: &Node, shared: &Shared) -> SearchSnapshot {
    let count = shared.ownership_count.load(Relaxed);
    SearchSnapshot {
        playouts: shared.playouts.load(Relaxed),
        root_visits: root.visits(),
        elapsed: shared.start.elapsed(),
        moves: root_moves(root, shared.options.forbid_pass),
        ownership: (shared.options.ownership).then(|| {
            shared
                .ownership
                .iter()
                .map(|o| o.load(Relaxed) as f64 / count.max(1) as f64)
                .collect()
        }),
    }
}

/// Root children sorted by visits then wins (pass left out when `forbid_pass`).
fn root_moves(root: &Node, forbid_pass: bool) -> Vec<MoveStat> {
    let mut kids: Vec<&Node> = root
        .children()
        .iter()
        .filter(|n| !(forbid_pass && n.mv == Move::Pass))
        .collect();
    kids.sort_by(|x, y| {
        y.visits()
            .cmp(&x.visits())
            .then(y.wins2.load(Relaxed).cmp(&x.wins2.load(Relaxed)))
    });
    let total: u32 = kids.iter().map(|n| n.prior_wins).sum();
    let count = kids.len().max(1) as f64;
    kids.into_iter()
        .map(|n| MoveStat {
            mv: n.mv,
            visits: n.visits(),
            winrate: n.winrate(),
            prior: if total > 0 {
                n.prior_wins as f64 / total as f64
            } else {
                1.0 / count
            },
            pv: pv(n),
        })
        .collect()
}

fn pv(mut node: &Node) -> Vec<Move> {
    let mut out = vec![node.mv];
    while out.len() < 30 {
        match node
            .children()
            .iter()
            .filter(|c| c.visits() > 0)
            .max_by_key(|c| c.visits())
        {
            Some(b) => {
                out.push(b.mv);
                node = b;
            }
            None => break,
        }
    }
    out
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

/// True when the most visited root move leads the runner-up by more visits than the search
/// can still spend.
fn can_stop_early(root: &Node, shared: &Shared, budget: &Budget) -> bool {
    let (mut best, mut second) = (0u32, 0u32);
    for c in root.children() {
        let v = c.visits();
        if v > best {
            second = best;
            best = v;
        } else if v > second {
            second = v;
        }
    }
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

/// UCT/RAVE choice among `children` of `parent`.
fn select<'a>(
    parent: &Node,
    children: &'a [Node],
    shared: &Shared,
    w: &mut Worker,
    at_root: bool,
) -> &'a Node {
    let params = shared.params;
    let rave = params.rave_equiv > 0.0;
    let forbid_pass = at_root && shared.options.forbid_pass;
    if !rave {
        // Thesis: unvisited children first, uniformly at random.
        let mut unvisited = 0u32;
        let mut pick = None;
        for c in children {
            if forbid_pass && c.mv == Move::Pass {
                continue;
            }
            if c.visits() + c.virtual_loss.load(Relaxed) == 0 {
                unvisited += 1;
                if w.rng.gen_range(0..unvisited) == 0 {
                    pick = Some(c);
                }
            }
        }
        if let Some(c) = pick {
            return c;
        }
    }
    let parent_n = (parent.visits() + parent.virtual_loss.load(Relaxed)).max(1) as f64;
    let log_n = parent_n.ln();
    let mut best = f64::NEG_INFINITY;
    let mut pick = &children[0];
    for c in children {
        if forbid_pass && c.mv == Move::Pass {
            continue;
        }
        let vl = c.virtual_loss.load(Relaxed) as f64;
        let n = (c.visits() + c.prior_visits) as f64 + vl;
        // First-play urgency 1.0 for children without statistics.
        let mut q = if n > 0.0 {
            (c.wins() + c.prior_wins as f64) / n
        } else {
            1.0
        };
        if rave {
            let an = c.amaf_visits.load(Relaxed) as f64;
            if an > 0.0 {
                let aq = c.amaf_wins2.load(Relaxed) as f64 / 2.0 / an;
                let beta = an / (an + n + n * an / params.rave_equiv);
                q = (1.0 - beta) * q + beta * aq;
            }
        }
        let value = q + params.uct_c * (log_n / n.max(1.0)).sqrt();
        if value > best {
            best = value;
            pick = c;
        }
    }
    pick
}

/// Creates the children of `node` for `to_move` on `board`.
fn expand(
    node: &Node,
    board: &Board,
    to_move: Color,
    last: Option<Point>,
    shared: &Shared,
    w: &Worker,
) -> bool {
    let superko = shared.game.rules().ko == KoRule::Positional;
    let history = shared.game.position_hashes();
    let mut kids = Vec::with_capacity(board.empty_points().len() + 1);
    for p in board.points() {
        if !board.is_legal(to_move, p) {
            continue;
        }
        if shared.params.policy != PlayoutPolicy::Random && board.is_eye(to_move, p) {
            continue;
        }
        if superko {
            let h = board.hash_after(to_move, p);
            if history.contains(&h) || w.path_hashes.contains(&h) {
                continue;
            }
        }
        let mut kid = Node::new(Move::Play(Board::vertex_of(p)), to_move);
        if shared.params.priors {
            let pr = priors::prior(board, to_move, p, last, &shared.params.prior_params);
            kid.prior_visits = pr.visits;
            kid.prior_wins = pr.wins;
        }
        kids.push(kid);
    }
    kids.push(Node::new(Move::Pass, to_move));
    shared.nodes.fetch_add(kids.len(), Relaxed);
    node.children.set(kids.into_boxed_slice()).is_ok()
}

/// One MCTS iteration from the root position.
fn iterate(root: &Node, shared: &Shared, w: &mut Worker) {
    let params = shared.params;
    let scoring = shared.game.rules().scoring;
    let mut board = shared.board.clone();
    let mut to_move = shared.to_move;
    let mut passes = shared.passes;
    let mut path: Vec<&Node> = Vec::with_capacity(64);
    w.path_hashes.clear();
    w.played.clear();
    let mut node = root;
    path.push(node);
    let margin = loop {
        let children = match node.children.get() {
            Some(c) => c,
            None => {
                if passes >= 2 {
                    break count(&board, scoring, shared.komi);
                }
                let may_expand = std::ptr::eq(node, root)
                    || (node.visits() >= params.expand_threshold
                        && shared.nodes.load(Relaxed) < params.max_nodes);
                let expanded = may_expand
                    && node
                        .expanding
                        .compare_exchange(false, true, Relaxed, Relaxed)
                        .is_ok()
                    && expand(node, &board, to_move, last_moves(shared, w)[0], shared, w);
                if !expanded {
                    break run_playout(&mut board, to_move, passes, shared, w);
                }
                let Some(c) = node.children.get() else {
                    break run_playout(&mut board, to_move, passes, shared, w);
                };
                let child = select(node, c, shared, w, std::ptr::eq(node, root));
                child.virtual_loss.fetch_add(params.virtual_loss, Relaxed);
                apply(&mut board, &mut to_move, &mut passes, child.mv);
                w.played.push((child.color, child.mv));
                path.push(child);
                if passes >= 2 {
                    break count(&board, scoring, shared.komi);
                }
                break run_playout(&mut board, to_move, passes, shared, w);
            }
        };
        let child = select(node, children, shared, w, std::ptr::eq(node, root));
        child.virtual_loss.fetch_add(params.virtual_loss, Relaxed);
        apply(&mut board, &mut to_move, &mut passes, child.mv);
        w.path_hashes.push(board.hash());
        w.played.push((child.color, child.mv));
        path.push(child);
        node = child;
    };
    let winner = Color::winner_by_margin(margin);
    let gain = |c: Color| match winner {
        Some(x) if x == c => 2,
        Some(_) => 0,
        None => 1,
    };
    for (i, n) in path.iter().enumerate() {
        n.visits.fetch_add(1, Relaxed);
        n.wins2.fetch_add(gain(n.color), Relaxed);
        if i > 0 {
            n.virtual_loss.fetch_sub(params.virtual_loss, Relaxed);
        }
    }
    if params.rave_equiv > 0.0 {
        update_amaf(&path, w, &gain);
    }
}

/// The points of the last two moves before the current tree position (None for passes).
fn last_moves(shared: &Shared, w: &Worker) -> [Option<Point>; 2] {
    let mut it = w
        .played
        .iter()
        .rev()
        .map(|&(_, m)| move_point(m))
        .chain(shared.game_last);
    [it.next().flatten(), it.next().flatten()]
}

fn move_point(m: Move) -> Option<Point> {
    match m {
        Move::Play(v) => Some(Board::point_of(v)),
        Move::Pass => None,
    }
}

fn run_playout(
    board: &mut Board,
    to_move: Color,
    passes: u32,
    shared: &Shared,
    w: &mut Worker,
) -> f64 {
    let history = last_moves(shared, w);
    let lgr = shared.params.last_good_reply;
    let amaf = (shared.params.rave_equiv > 0.0 || lgr).then_some(&mut w.played);
    let margin = playout_with(
        board,
        to_move,
        passes,
        history,
        shared.params.policy,
        &shared.params.heavy,
        lgr.then_some(&w.lgr),
        shared.game.rules().scoring,
        shared.komi,
        &mut w.rng,
        amaf,
    )
    .margin;
    if lgr {
        w.lgr.update(&w.played, Color::winner_by_margin(margin));
    }
    if !shared.ownership.is_empty() {
        for (o, sign) in shared.ownership.iter().zip(owner_signs(board)) {
            o.fetch_add(sign, Relaxed);
        }
        shared.ownership_count.fetch_add(1, Relaxed);
    }
    margin
}

/// AMAF backup: for every node on the path, each child whose point was played first (below
/// that node) by the child's colour gets an AMAF visit with the result for that colour.
fn update_amaf(path: &[&Node], w: &mut Worker, gain: &dyn Fn(Color) -> u32) {
    let first = &mut w.first;
    let mut touched: Vec<Point> = Vec::with_capacity(w.played.len());
    // `played` holds the tree moves below the root, then the playout moves.
    let depth = path.len() - 1;
    let mark = |first: &mut Vec<u8>, touched: &mut Vec<Point>, c: Color, m: Move| {
        if let Move::Play(v) = m {
            let p = Board::point_of(v);
            first[p] = 1 + c.index() as u8;
            touched.push(p);
        }
    };
    for &(c, m) in w.played[depth..].iter().rev() {
        mark(first, &mut touched, c, m);
    }
    for d in (0..depth).rev() {
        // Moves from path[d+1] on are in the map; update path[d]'s children.
        let (c, m) = w.played[d];
        mark(first, &mut touched, c, m);
        for child in path[d].children() {
            if let Move::Play(v) = child.mv {
                let p = Board::point_of(v);
                if first[p] == 1 + child.color.index() as u8 {
                    child.amaf_visits.fetch_add(1, Relaxed);
                    child.amaf_wins2.fetch_add(gain(child.color), Relaxed);
                }
            }
        }
    }
    for p in touched {
        first[p] = 0;
    }
}

/// +1 (Black owns), -1 (White owns) or 0 for every point, indexed `row * size + col`.
fn owner_signs(b: &Board) -> impl Iterator<Item = i64> + '_ {
    let size = b.size();
    (0..size * size).map(move |i| {
        match owner(b, Board::point_of(Vertex::new(i % size, i / size))) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        }
    })
}

/// Who a point belongs to at the end of a playout: its stone's colour, or the only colour
/// around an empty point.
fn owner(b: &Board, p: Point) -> Option<Color> {
    if let Some(c) = b.cell(p).color() {
        return Some(c);
    }
    let mut seen = [false; 2];
    for n in Board::neighbours(p) {
        if let Some(c) = b.cell(n).color() {
            seen[c.index()] = true;
        }
    }
    match seen {
        [true, false] => Some(Color::Black),
        [false, true] => Some(Color::White),
        _ => None,
    }
}

fn apply(board: &mut Board, to_move: &mut Color, passes: &mut u32, mv: Move) {
    match mv {
        Move::Pass => {
            board.pass();
            *passes += 1;
        }
        Move::Play(v) => {
            board.play_unchecked(*to_move, Board::point_of(v));
            *passes = 0;
        }
    }
    *to_move = to_move.opponent();
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::CancelFlag;
    use crate::go::game::{Rules, Scoring};

    fn far_budget() -> Budget {
        Budget::new(
            Instant::now() + Duration::from_secs(3600),
            CancelFlag::new(),
        )
    }

    /// The thesis search (one thread, no RAVE) with the given knobs.
    fn params(policy: PlayoutPolicy, playouts: u64, expand: u32, c: f64) -> SearchParams {
        SearchParams {
            uct_c: c,
            expand_threshold: expand,
            max_playouts: playouts,
            policy,
            seed: 42,
            ..SearchParams::thesis()
        }
    }

    fn game(size: usize, scoring: Scoring, komi: f64) -> Game {
        Game::new(
            size,
            Rules {
                scoring,
                ko: KoRule::Positional,
                komi,
            },
        )
        .unwrap()
    }

    fn visits(s: &SearchSummary, v: &str) -> u32 {
        s.moves
            .iter()
            .find(|m| m.mv.to_string() == v)
            .map_or(0, |m| m.visits)
    }

    /// Thesis Fig. 6.8 setting (3x3, 50k iterations, MIN 30, komi 0.5, Japanese, uniform random
    /// playouts, simple ko): the edge midpoints are preferred to the corners. (tablero's search
    /// ranks the centre first even here, so the test compares the edge midpoints with the corners
    /// only.)
    #[test]
    fn thesis_3x3_prefers_edge_midpoints_to_corners() {
        let mut g = game(3, Scoring::Territory, 0.5);
        g.set_rules(Rules {
            ko: KoRule::Simple,
            ..*g.rules()
        });
        let mut p = Player::new(params(PlayoutPolicy::Random, 50_000, 30, 1.0));
        let s = p.search(&g, Color::Black, &far_budget());
        assert_eq!(s.playouts, 50_000);
        let mids = ["B1", "A2", "C2", "B3"].map(|v| visits(&s, v));
        let corners = ["A1", "C1", "A3", "C3"].map(|v| visits(&s, v));
        assert!(
            mids.iter().min() > corners.iter().max(),
            "mids {mids:?} corners {corners:?}"
        );
    }

    /// Area scoring, light playouts: on 3x3 Black's best move is the centre and it wins.
    #[test]
    fn area_3x3_plays_centre() {
        let g = game(3, Scoring::Area, 0.5);
        let mut p = Player::new(params(PlayoutPolicy::Light, 20_000, 2, 1.0));
        let s = p.search(&g, Color::Black, &far_budget());
        assert_eq!(s.decision, Decision::Play(Move::parse("B2", 3).unwrap()));
        assert!(s.winrate() > 0.8, "winrate {}", s.winrate());
    }

    #[test]
    fn unvisited_children_come_first() {
        let g = game(5, Scoring::Area, 0.5);
        let mut p = Player::new(params(PlayoutPolicy::Light, 26, 1000, 1.0));
        let s = p.search(&g, Color::Black, &far_budget());
        // 25 points + pass = 26 children, 26 iterations: each child exactly once.
        assert_eq!(s.moves.len(), 26);
        assert!(s.moves.iter().all(|m| m.visits == 1), "{:?}", s.moves);
    }

    #[test]
    fn expansion_waits_for_the_threshold() {
        let g = game(5, Scoring::Area, 0.5);
        let mut p = Player::new(params(PlayoutPolicy::Light, 200, 30, 1.0));
        p.search(&g, Color::Black, &far_budget());
        // Root: 26 children. A child is expanded only after 30 visits, so with 200 iterations
        // only children with >= 30 visits (at most 6) have children of their own.
        for n in p.root.children() {
            let expanded = n.children.get().is_some();
            assert_eq!(expanded, n.visits() > 30, "visits {}", n.visits());
        }
    }

    #[test]
    fn final_move_is_most_visited_then_most_wins() {
        let g = game(5, Scoring::Area, 0.5);
        let mut p = Player::new(params(PlayoutPolicy::Light, 1, 2, 1.0));
        p.search(&g, Color::Black, &far_budget());
        let kids = p.root.children();
        for k in kids {
            k.visits.store(3, Relaxed);
            k.wins2.store(2, Relaxed);
        }
        kids[4].wins2.store(4, Relaxed);
        kids[7].visits.store(2, Relaxed);
        kids[7].wins2.store(4, Relaxed);
        let moves = p.root_moves();
        assert_eq!(moves[0].mv, kids[4].mv);
        assert_eq!(moves.last().map(|m| m.mv), Some(kids[7].mv));
    }

    #[test]
    fn tree_reuse_keeps_the_subtree() {
        let mut g = game(9, Scoring::Area, 7.0);
        let mut p = Player::new(params(PlayoutPolicy::Light, 3000, 2, 1.0));
        let s = p.search(&g, Color::Black, &far_budget());
        let Decision::Play(mv) = s.decision else {
            panic!("resigned")
        };
        g.play(Color::Black, mv).unwrap();
        // White's reply: the most visited answer under the chosen move.
        let reply = s.moves[0].pv.get(1).copied().unwrap_or(Move::Pass);
        let reply_visits = p
            .root
            .children()
            .iter()
            .find(|n| n.mv == mv)
            .and_then(|n| n.children().iter().find(|r| r.mv == reply))
            .map_or(0, |r| r.visits());
        assert!(reply_visits > 0);
        g.play(Color::White, reply).unwrap();
        p.prepare_root(&g, Color::Black);
        assert_eq!(p.root_visits(), reply_visits);
        // A move the tree never expanded: a lone root.
        let mut h = g.clone();
        let mut free = h
            .board()
            .empty_points()
            .iter()
            .map(|&q| Move::Play(Board::vertex_of(q as Point)))
            .filter(|&m| h.is_legal(Color::Black, m));
        let (b1, w1) = (free.next().unwrap(), free.next().unwrap());
        h.play(Color::Black, b1).unwrap();
        h.play(Color::White, w1).unwrap();
        p.prepare_root(&h, Color::Black);
        assert!(p.root_visits() <= 1);
        assert_eq!(p.tree_size(), 1);
    }

    #[test]
    fn observer_sees_progress_and_ownership() {
        let g = game(9, Scoring::Area, 7.0);
        let mut p = Player::new(SearchParams {
            threads: 2,
            max_playouts: 0,
            ..SearchParams::default()
        });
        let start = Instant::now();
        let budget = Budget::new(start + Duration::from_millis(300), CancelFlag::new());
        let mut seen: Vec<SearchSnapshot> = Vec::new();
        let mut cb = |s: &SearchSnapshot| seen.push(s.clone());
        let summary = p.search_observed(
            &g,
            Color::Black,
            &budget,
            SearchOptions {
                ownership: true,
                ..SearchOptions::default()
            },
            Some(Observer {
                interval: Duration::from_millis(50),
                callback: &mut cb,
            }),
        );
        assert!(seen.len() >= 4, "{} snapshots", seen.len());
        assert!(seen.windows(2).all(|w| w[0].playouts <= w[1].playouts));
        let last = seen.last().unwrap();
        assert_eq!(last.playouts, summary.playouts);
        let own = last.ownership.as_ref().unwrap();
        assert_eq!(own.len(), 81);
        assert!(own.iter().all(|o| (-1.0..=1.0).contains(o)));
        assert!(own.iter().any(|o| *o != 0.0));
    }

    #[test]
    fn does_not_pass_first_with_moves_left() {
        let mut g = game(9, Scoring::Area, 7.0);
        g.play(Color::Black, Move::parse("E5", 9).unwrap()).unwrap();
        // Pass has the most visits; C3 is close behind.
        let stats = || {
            [
                (Move::Pass, 10, 0.5),
                (Move::parse("C3", 9).unwrap(), 5, 0.47),
            ]
            .into_iter()
            .map(|(mv, visits, winrate)| MoveStat {
                mv,
                visits,
                winrate,
                prior: 0.0,
                pv: vec![],
            })
            .collect::<Vec<_>>()
        };
        let mut moves = stats();
        prefer_playing_on(&mut moves, &g);
        assert_eq!(moves[0].mv.to_string(), "C3");
        // After the opponent passed, passing back is fine.
        g.play(Color::White, Move::Pass).unwrap();
        let mut again = stats();
        prefer_playing_on(&mut again, &g);
        assert_eq!(again[0].mv, Move::Pass);
    }

    /// A 9×9 position from a diagram (row 9 first, `X` Black, `O` White) after two passes
    /// (Black passed first, so Black is to move).
    fn finished(rows: [&str; 9]) -> Game {
        let mut sgf = String::from("(;SZ[9]KM[7]RU[Chinese]");
        for (tag, stone) in [("AB", 'X'), ("AW", 'O')] {
            sgf.push_str(tag);
            for (r, row) in rows.iter().enumerate() {
                for (c, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                    if ch == stone {
                        sgf.push_str(&format!(
                            "[{}{}]",
                            (b'a' + c as u8) as char,
                            (b'a' + r as u8) as char
                        ));
                    }
                }
            }
        }
        sgf.push_str(";B[];W[])");
        crate::go::sgf::load(&sgf, Rules::default(), None).unwrap()
    }

    #[test]
    fn dead_stones_of_a_finished_game_come_from_playing_it_out() {
        // The end of a thesis-player game: black D9-D8 has one liberty (C8) and Black, to
        // move, has no legal move but pass. Playouts that go on from the pass count ended at
        // once and kept the stones alive; GNU Go has them dead, and so do playouts that let
        // both sides play.
        let g = finished([
            "O O O X O O O O .",
            "O O . X O O O O O",
            "O O O O . O O . O",
            "O O O . O O O O .",
            ". O O O . O O O O",
            "O . O . O O . O O",
            ". O O O O O O O .",
            "O O O . O . O O O",
            "O O O O . O O O .",
        ]);
        assert_eq!((g.passes(), g.to_move()), (2, Color::Black));
        let mut p = Player::new(params(PlayoutPolicy::Light, 0, 1, 0.7));
        let dead = p.dead_stones(&g, DEAD_STONE_PLAYOUTS);
        let d98 = ["D8", "D9"].map(|v| Vertex::parse(v, 9).unwrap()).to_vec();
        assert_eq!(dead, vec![d98]);
        let score = p.final_score(&g, DEAD_STONE_PLAYOUTS);
        assert_eq!(score.to_string(), "W+88");
    }

    #[test]
    fn captures_dead_stones_before_answering_a_pass() {
        // Black wins by far with or without the dead white stone A9 in its corner, so pass is
        // as good as any move for the search; the game must still not end with A9 on the
        // board. White passes every turn.
        let rows = [
            "O . X . . . X O .",
            ". X X . . . X O O",
            "X X . . . . X O .",
            ". . . . . . X O O",
            ". . . . . . X O .",
            ". . . . . . X O O",
            ". . . . . . X O .",
            ". . . . . . X O O",
            ". . . . . . X O .",
        ];
        let a9 = Vertex::parse("A9", 9).unwrap();
        for seed in 0..4 {
            let mut g = finished(rows);
            let mut p = Player::new(SearchParams {
                max_playouts: 3000,
                threads: 1,
                seed,
                ..SearchParams::default()
            });
            let mut passed = false;
            for _ in 0..20 {
                let mv = match p.search(&g, Color::Black, &far_budget()).decision {
                    Decision::Play(mv) => mv,
                    Decision::Resign => panic!("resigned a won game"),
                };
                g.play(Color::Black, mv).unwrap();
                if mv == Move::Pass {
                    passed = true;
                    break;
                }
                g.play(Color::White, Move::Pass).unwrap();
            }
            assert!(passed, "seed {seed}: Black never passed");
            assert_eq!(g.board().get(a9), None, "seed {seed}: A9 left on the board");
        }
    }

    #[test]
    fn a_forced_move_takes_a_liberty_of_the_dead_chain() {
        // Settled: every move but pass wins for Black after White's pass, and the first one
        // must already attack the dead white stone B8.
        let rows = settled_with(&["B8"]);
        let liberties = ["A8", "C8", "B9", "B7"].map(|v| Move::Play(Vertex::parse(v, 9).unwrap()));
        for seed in 0..6 {
            let mut g = finished(rows);
            g.play(Color::Black, Move::Pass).unwrap();
            g.play(Color::White, Move::Pass).unwrap();
            let mut p = Player::new(SearchParams {
                max_playouts: 3000,
                threads: 1,
                seed,
                ..SearchParams::default()
            });
            let s = p.search(&g, Color::Black, &far_budget());
            assert!(
                matches!(s.decision, Decision::Play(m) if liberties.contains(&m)),
                "seed {seed}: {:?} {:?}",
                s.decision,
                &s.moves[..8.min(s.moves.len())]
            );
        }
    }

    /// KGS cleanup: Black answers every White pass with `kgs-genmove_cleanup` until it passes
    /// itself. Each of Black's moves while dead white stones remain in its area (the columns
    /// left of its wall at F) must be a liberty of one of them; in the end none is left.
    fn cleans_up_without_filling(rows: [&str; 9], seeds: std::ops::Range<u64>) {
        for seed in seeds {
            let mut g = finished(rows);
            let mut p = Player::new(SearchParams {
                max_playouts: 3000,
                threads: 1,
                seed,
                ..SearchParams::default()
            });
            let cleanup = SearchOptions {
                cleanup: true,
                ..SearchOptions::default()
            };
            let mut played = Vec::new();
            let mut passed = false;
            for _ in 0..30 {
                let board = g.board().clone();
                let dead: Vec<Point> = board
                    .empty_points()
                    .iter()
                    .map(|&p| p as Point)
                    .filter(|&p| {
                        Board::neighbours(p).iter().any(|&q| {
                            board.cell(q).color() == Some(Color::White)
                                && Board::vertex_of(q).col() < 5
                        })
                    })
                    .collect();
                let s = p.search_with(&g, Color::Black, &far_budget(), cleanup);
                let Decision::Play(mv) = s.decision else {
                    panic!("seed {seed}: resigned a won game");
                };
                played.push(mv.to_string());
                match mv {
                    Move::Pass => {
                        assert!(dead.is_empty(), "seed {seed}: passed early: {played:?}");
                        passed = true;
                        break;
                    }
                    Move::Play(v) => assert!(
                        dead.is_empty() || dead.contains(&Board::point_of(v)),
                        "seed {seed}: {v} is no liberty of a dead chain: {played:?} {:?}",
                        &s.moves[..6.min(s.moves.len())]
                    ),
                }
                g.play(Color::Black, mv).unwrap();
                g.play(Color::White, Move::Pass).unwrap();
            }
            assert!(passed, "seed {seed}: never passed: {played:?}");
        }
    }

    /// A finished 9×9 game: Black's area (columns A–E) is split by its walls into small
    /// spaces, White's (F–J) is two-eyed columns.
    const SETTLED: [&str; 9] = [
        ". . . X X O . O .",
        ". . . X X O O O O",
        ". . . X X O . O .",
        "X X X X X O O O O",
        "X . . . X O . O .",
        "X . . . X O O O O",
        "X X X X X O . O .",
        ". X . X X O O O O",
        "X . X X X O . O .",
    ];

    fn settled_with(white: &[&str]) -> [&'static str; 9] {
        let mut rows = SETTLED.map(String::from);
        for v in white {
            let v = Vertex::parse(v, 9).unwrap();
            let r = 8 - v.row();
            let mut cells: Vec<char> = rows[r].chars().collect();
            assert_eq!(cells[2 * v.col()], '.', "{v} is not empty");
            cells[2 * v.col()] = 'O';
            rows[r] = cells.into_iter().collect();
        }
        rows.map(|r| &*Box::leak(r.into_boxed_str()))
    }

    #[test]
    fn cleanup_captures_a_lone_dead_stone_first() {
        cleans_up_without_filling(settled_with(&["C5"]), 0..6);
    }

    #[test]
    fn cleanup_captures_a_dead_chain_of_two() {
        cleans_up_without_filling(settled_with(&["B5", "C5"]), 0..6);
    }

    #[test]
    fn cleanup_captures_dead_stones_in_two_spaces() {
        cleans_up_without_filling(settled_with(&["B8", "D4"]), 0..6);
    }

    #[test]
    fn cleanup_never_resigns() {
        // Lost by far for Black (komi 60): genmove resigns, kgs-genmove_cleanup plays on.
        let mut g = finished(settled_with(&["C5"]));
        g.set_komi(60.0);
        let params = SearchParams {
            max_playouts: 3000,
            threads: 1,
            resign_threshold: 0.1,
            ..SearchParams::default()
        };
        let mut p = Player::new(params.clone());
        let plain = p.search(&g, Color::Black, &far_budget());
        assert_eq!(plain.decision, Decision::Resign, "{:?}", &plain.moves[..3]);
        let cleanup = SearchOptions {
            cleanup: true,
            ..SearchOptions::default()
        };
        let mut p = Player::new(params);
        let s = p.search_with(&g, Color::Black, &far_budget(), cleanup);
        assert!(
            matches!(s.decision, Decision::Play(Move::Play(_))),
            "{:?}",
            s.decision
        );
    }

    #[test]
    fn same_seed_same_move() {
        let g = game(9, Scoring::Area, 7.0);
        let run = || {
            let mut p = Player::new(params(PlayoutPolicy::Light, 2000, 2, 0.7));
            let s = p.search(&g, Color::Black, &far_budget());
            (s.decision, s.moves[0].visits)
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn deadline_is_honoured() {
        let g = game(19, Scoring::Area, 7.5);
        let mut p = Player::new(SearchParams {
            threads: 2,
            ..SearchParams::default()
        });
        let start = Instant::now();
        let budget = Budget::new(start + Duration::from_millis(200), CancelFlag::new());
        let s = p.search(&g, Color::Black, &budget);
        assert!(
            start.elapsed() < Duration::from_millis(400),
            "{:?}",
            start.elapsed()
        );
        assert!(matches!(s.decision, Decision::Play(_)));
        // kgs-genmove_cleanup's dead-stone estimate shares the move's deadline: with the
        // deadline already past it stops after one playout, where all 600 heavy playouts on
        // the empty 19x19 board take about 100 ms.
        let start = Instant::now();
        let cleanup = SearchOptions {
            cleanup: true,
            ..SearchOptions::default()
        };
        let s = p.search_with(
            &g,
            Color::Black,
            &Budget::new(start, CancelFlag::new()),
            cleanup,
        );
        assert!(
            start.elapsed() < Duration::from_millis(60),
            "cleanup: {:?}",
            start.elapsed()
        );
        assert!(matches!(s.decision, Decision::Play(Move::Play(_))));
        // A cancelled budget still answers with a legal move.
        let cancel = CancelFlag::new();
        cancel.cancel();
        let s = p.search(&g, Color::White, &Budget::new(start, cancel));
        let Decision::Play(m) = s.decision else {
            panic!("resigned")
        };
        assert!(g.is_legal(Color::White, m));
    }

    #[test]
    fn finds_dead_stones() {
        // White E5 has one liberty left inside a black wall: dead.
        let mut g = game(9, Scoring::Area, 0.5);
        for (c, m) in [
            (Color::Black, "D5"),
            (Color::White, "E5"),
            (Color::Black, "E6"),
            (Color::White, "J9"),
            (Color::Black, "E4"),
            (Color::White, "J8"),
        ] {
            g.play(c, Move::parse(m, 9).unwrap()).unwrap();
        }
        let mut p = Player::new(params(PlayoutPolicy::Light, 0, 2, 0.7));
        let dead = p.dead_stones(&g, 400);
        assert!(
            dead.contains(&vec![Vertex::parse("E5", 9).unwrap()]),
            "{dead:?}"
        );
        let black_dead = dead
            .iter()
            .flatten()
            .any(|v| g.board().get(*v) == Some(Color::Black));
        assert!(!black_dead, "{dead:?}");
    }
}
