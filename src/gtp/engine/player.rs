//! The move generators behind the GTP engine: the [`GoPlayer`] trait, the seeded
//! [`RandomPlayer`], and the MCTS search ([`Player`]) as a `GoPlayer`.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use std::time::Instant;

use crate::budget::Budget;
use crate::go::board::Board;
use crate::go::game::Game;
use crate::go::search::{
    DEAD_STONE_PLAYOUTS, Decision, MoveStat, Observer, Player, SearchOptions, SearchParams,
    SearchSnapshot, SearchSummary,
};
use crate::go::{Color, Move, Vertex};

/// A Go move generator as the GTP engine uses it. Runs on the engine thread; must return soon
/// after `budget` expires or its cancel flag is raised.
pub trait GoPlayer: Send {
    /// A move for `color` in `game` (legal, or pass), or resignation.
    fn genmove(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision;
    /// Like [`GoPlayer::genmove`], but does not pass while dead opponent stones remain on the
    /// board (KGS cleanup phase). The default is plain `genmove`.
    fn genmove_cleanup(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision {
        self.genmove(game, color, budget)
    }
    /// The stones of the current position that are dead (to be removed before counting).
    fn dead_stones(&mut self, game: &Game, budget: &Budget) -> Vec<Vertex>;
    /// The game was reset (new size, clear_board, loadsgf): forget any saved search state.
    fn new_game(&mut self) {}
    /// A search that `observer` watches while it runs (analysis, live graphics); `options`
    /// say whether it is the cleanup phase (as [`GoPlayer::genmove_cleanup`]), a move for the
    /// game, and whether the snapshots carry ownership. The default, for players without a
    /// search, reports the move `genmove` chooses as one visit (and `playouts` 0: nothing
    /// more will come of searching longer).
    fn search_live(
        &mut self,
        game: &Game,
        color: Color,
        budget: &Budget,
        options: SearchOptions,
        observer: Option<Observer<'_>>,
    ) -> SearchSummary {
        let start = Instant::now();
        let decision = if options.cleanup {
            self.genmove_cleanup(game, color, budget)
        } else {
            self.genmove(game, color, budget)
        };
        let moves = match decision {
            Decision::Play(mv) => vec![MoveStat {
                mv,
                visits: 1,
                winrate: 0.5,
                prior: 1.0,
                pv: vec![mv],
            }],
            Decision::Resign => Vec::new(),
        };
        if let Some(obs) = observer {
            (obs.callback)(&SearchSnapshot {
                playouts: 0,
                root_visits: 1,
                elapsed: start.elapsed(),
                moves: moves.clone(),
                ownership: None,
            });
        }
        SearchSummary {
            decision,
            playouts: 0,
            root_visits: 1,
            elapsed: start.elapsed(),
            moves,
            tree_nodes: 1,
            stopped_early: false,
        }
    }
    /// Searches `color`'s moves in `game` until `budget` ends, to reuse the tree later
    /// (pondering on the opponent's time). The default does nothing.
    fn ponder(&mut self, _game: &Game, _color: Color, _budget: &Budget) {}
    /// The search parameters, for players that have them (GoGui's `tablero-params`).
    fn search_params(&self) -> Option<SearchParams> {
        None
    }
    /// Replaces the search parameters (the saved tree is dropped). The default ignores them.
    fn set_search_params(&mut self, _params: SearchParams) {}
}

/// A seeded uniform-random player that never fills its own eyes and treats every stone as
/// alive. It stands in where no search is configured (and in protocol tests).
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl GoPlayer for RandomPlayer {
    fn genmove(&mut self, game: &Game, color: Color, _budget: &Budget) -> Decision {
        let board = game.board();
        let mut candidates: Vec<usize> = board
            .empty_points()
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| !board.is_eye(color, p))
            .collect();
        candidates.shuffle(&mut self.rng);
        candidates
            .into_iter()
            .map(|p| Move::Play(Board::vertex_of(p)))
            .find(|&m| game.is_legal(color, m))
            .map_or(Decision::Play(Move::Pass), Decision::Play)
    }

    fn dead_stones(&mut self, _game: &Game, _budget: &Budget) -> Vec<Vertex> {
        Vec::new()
    }
}

/// The MCTS search as the GTP engine's move generator.
impl GoPlayer for Player {
    fn genmove(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision {
        let options = SearchOptions {
            genmove: true,
            ..SearchOptions::default()
        };
        self.search_with(game, color, budget, options).decision
    }

    fn genmove_cleanup(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision {
        let options = SearchOptions {
            cleanup: true,
            genmove: true,
            ..SearchOptions::default()
        };
        self.search_with(game, color, budget, options).decision
    }

    fn search_live(
        &mut self,
        game: &Game,
        color: Color,
        budget: &Budget,
        options: SearchOptions,
        observer: Option<Observer<'_>>,
    ) -> SearchSummary {
        self.search_observed(game, color, budget, options, observer)
    }

    fn ponder(&mut self, game: &Game, color: Color, budget: &Budget) {
        let summary = self.search(game, color, budget);
        tracing::debug!(
            playouts = summary.playouts,
            root_visits = summary.root_visits,
            "pondered {color}'s replies"
        );
    }

    fn dead_stones(&mut self, game: &Game, _budget: &Budget) -> Vec<Vertex> {
        Player::dead_stones(self, game, DEAD_STONE_PLAYOUTS)
            .into_iter()
            .flatten()
            .collect()
    }

    fn new_game(&mut self) {
        self.clear();
    }

    fn search_params(&self) -> Option<SearchParams> {
        Some(self.params().clone())
    }

    fn set_search_params(&mut self, params: SearchParams) {
        self.set_params(params);
    }
}
