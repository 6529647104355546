//! The player: its parameters, tree and random stream, and the search of one move (the
//! dead-stone check, tree reuse, the threads, the pass rules and the final decision).

use super::analysis::{Decision, MoveStat, Observer, SearchSummary, root_moves};
use super::driver::{SearchRequest, Shared, run_threads};
use super::dynkomi::Situational;
use super::endgame::{prefer_capturing, prefer_playing_on};
use super::tree::{Node, RootKey};
use super::{CoreGate, SearchParams};
use crate::budget::Budget;
use crate::go::board::{Board, Point};
use crate::go::game::Game;
use crate::go::{Color, Move};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

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
    /// The search chooses a move for the game (not analysis or pondering): the situational
    /// komi (`dynkomi`) follows its result.
    pub genmove: bool,
}

/// The MCTS Go player: the search parameters, the tree kept between moves and the random
/// stream every search draws its seeds from.
pub struct Player {
    pub(super) params: SearchParams,
    pub(super) root: Node,
    pub(super) root_key: Option<RootKey>,
    pub(super) rng: Xoshiro256PlusPlus,
    /// The cores this player's searches share with others', if any.
    pub(super) gate: Option<std::sync::Arc<CoreGate>>,
    /// The situational komi shift kept between searches (`dynkomi`).
    pub(super) situational: Situational,
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
            situational: Situational::default(),
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
        self.situational = Situational::default();
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
        let (options, dead) = self.dead_before_passing(game, color, budget, options, start);
        self.prepare_root(game, color);
        let nodes = self.root.subtree_size();
        let extra_komi = self.situational.extra_komi(&self.params.dynamic_komi, game);
        let request = SearchRequest {
            game,
            to_move: color,
            extra_komi,
            options,
        };
        let shared = Shared::new(&self.params, self.gate.as_deref(), request, start, nodes);
        let threads = self.params.threads.max(1);
        // Seeds: the player's stream, so that successive searches differ but replay alike.
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.r#gen()).collect();
        run_threads(&self.root, &shared, budget, &seeds, observer);
        let playouts = shared.playouts.load(Relaxed);
        let stopped_early = shared.early.load(Relaxed);
        let tree_nodes = shared.nodes.load(Relaxed);
        let mut moves = root_moves(&self.root, options.forbid_pass);
        prefer_playing_on(&mut moves, game);
        prefer_capturing(&mut moves, game, &dead);
        if let Some(best) = moves.first().filter(|m| options.genmove && m.visits > 0) {
            let dynamic = self.params.dynamic_komi;
            self.situational
                .update(&dynamic, game.size(), color, best.winrate);
        }
        let decision = self.decide(game, color, options, &moves);
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

    /// The best of `moves` (sorted, best first), or resignation when it is lost, or a fallback
    /// move when the search visited nothing.
    fn decide(
        &mut self,
        game: &Game,
        color: Color,
        options: SearchOptions,
        moves: &[MoveStat],
    ) -> Decision {
        match moves.first() {
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
}
