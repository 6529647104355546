//! `[search]`: the MCTS search of the Go player, as `SearchParams`, with the checks of its
//! values.

use serde::{Deserialize, Serialize};

use super::{ConfigError, inv};
use crate::go::search::SearchParams;
use crate::go::search::dynkomi::{DynKomiParams, DynamicKomi};
use crate::go::search::mm::Table;
use crate::go::search::playout::PlayoutPolicy;

/// Most search threads accepted by `search.threads`.
pub const MAX_THREADS: usize = 256;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// UCT exploration constant C in  v/n + C·sqrt(ln N / n)  (thesis: 1.0).
    pub uct_c: f64,
    /// A leaf's children are created once it has this many visits (thesis: 2 or 30).
    pub expand_threshold: u32,
    /// Playouts per move; 0 = limited by time only.
    pub playouts: u64,
    /// Seconds per move when no GTP clock is set.
    pub time_per_move: f64,
    /// Search threads; 0 = one per core.
    pub threads: usize,
    /// Resign when the best move's win rate is below this (0 = never resign).
    pub resign_threshold: f64,
    /// Seed of every random choice; same seed and playout budget, same move.
    pub seed: u64,
    /// Keep the subtree of the played moves between genmoves.
    pub reuse_tree: bool,
    /// Upper bound on search-tree memory in MiB; the search stops growing the tree at the cap.
    pub max_tree_memory_mb: usize,
    /// Seconds kept back per move from every clock for network and start-up lag, until the
    /// controller's `time_left` reports have measured the real lag.
    pub lag_buffer: f64,
    /// Under a GTP clock, how many times its planned time a move may take while the best move
    /// is not settled (>= 1; 1 = never longer than planned).
    pub time_extension: f64,
    /// Playout policy: "random" (thesis: uniform over legal moves, no eye rule), "light"
    /// (uniform over moves that do not fill an own eye) or "heavy" (captures, atari escapes,
    /// 3×3 patterns and self-atari rejection first).
    pub playout_policy: PlayoutPolicy,
    /// RAVE equivalence parameter (visits at which AMAF and real statistics weigh the same);
    /// 0 turns RAVE off, as in the thesis.
    pub rave_equiv: f64,
    /// Visits without wins added to a node while a thread's descent through it is in flight.
    pub virtual_loss: u32,
    /// Stop searching when the best move can no longer be overtaken in the time left.
    pub early_stop: bool,
    /// Heuristic priors for new tree nodes (captures, escapes, patterns, distance); off in
    /// the thesis.
    pub priors: bool,
    /// After genmove, keep searching the opponent's replies until the next command arrives.
    pub ponder: bool,
    /// Heavy playouts: board copies one ladder reading of an atari escape may make (an
    /// extension to two liberties that a ladder captures is not played); 0 = no reading.
    pub playout_ladder_budget: u32,
    /// Heavy playouts: probability of playing the vital point of a small eye space (3 to 5
    /// points, one colour around it) next to the last move; 0 = off.
    pub playout_nakade: f64,
    /// Heavy playouts: fill-board draws (a random point with 8 empty neighbours) before the
    /// random move; 0 = off.
    pub playout_fill_board: u32,
    /// Prior visits (all wins) for the vital point of a small eye space; 0 = off.
    pub prior_nakade: u32,
    /// Prior visits without wins for a 1st/2nd-line move that touches no stone and captures
    /// or saves nothing, scaled by the board size (0 up to 9×9, all of it on 19×19); 0 = off.
    pub prior_low_line: u32,
    /// Weight of the learned move-prediction prior (MM gammas trained by `tablero go-train`,
    /// compiled in): a new node gets `round(w·sqrt(s))` visits, all wins, `s` its move's
    /// share of the legal moves' gammas (with `priors` on); 0 = off.
    pub prior_mm: u32,
    /// Gamma table file of the learned prior (`tablero go-train` writes one); empty = the
    /// table compiled into the binary.
    pub prior_mm_table: String,
    /// Heavy playouts: last good reply with forgetting (LGRF-1), one table per thread.
    pub playout_last_good_reply: bool,
    /// The komi the playouts count with: "off", "linear" (handicap games: White gets
    /// `dynamic_komi_stone` points per handicap stone, falling to 0 over
    /// `dynamic_komi_moves`) or "situational" (linear, plus a point to the searching side
    /// while its win rate is below 35 % and a point from it above 75 %).
    pub dynamic_komi: DynamicKomi,
    /// Dynamic komi: points per handicap stone at the start of the game (>= 0).
    pub dynamic_komi_stone: f64,
    /// Dynamic komi: moves on 19×19 (scaled by the board area) over which it falls to 0 (>= 1).
    pub dynamic_komi_moves: u32,
}

impl SearchConfig {
    /// The search these settings describe (`threads = 0`: one per core).
    pub fn params(&self) -> SearchParams {
        let threads = if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        };
        let base = SearchParams::default();
        SearchParams {
            uct_c: self.uct_c,
            expand_threshold: self.expand_threshold,
            max_playouts: self.playouts,
            policy: self.playout_policy,
            resign_threshold: self.resign_threshold,
            seed: self.seed,
            reuse_tree: self.reuse_tree,
            max_nodes: SearchParams::nodes_in(self.max_tree_memory_mb),
            threads,
            rave_equiv: self.rave_equiv,
            virtual_loss: self.virtual_loss,
            early_stop: self.early_stop,
            priors: self.priors,
            heavy: crate::go::search::policy::HeavyParams {
                ladder_budget: self.playout_ladder_budget,
                nakade: self.playout_nakade,
                fill_board: self.playout_fill_board,
                ..base.heavy
            },
            prior_params: crate::go::search::priors::PriorParams {
                nakade: self.prior_nakade,
                low_line: self.prior_low_line,
                mm: self.prior_mm,
                ..base.prior_params
            },
            last_good_reply: self.playout_last_good_reply,
            dynamic_komi: DynKomiParams {
                mode: self.dynamic_komi,
                stone_value: self.dynamic_komi_stone,
                moves: self.dynamic_komi_moves,
            },
            mm_table: self.mm_table().ok().flatten().map(std::sync::Arc::new),
        }
    }
}

impl SearchConfig {
    /// The table named by `prior_mm_table` (None when empty: the compiled-in one).
    fn mm_table(&self) -> Result<Option<Table>, String> {
        if self.prior_mm_table.is_empty() {
            return Ok(None);
        }
        Table::read(std::path::Path::new(&self.prior_mm_table))
            .map(Some)
            .map_err(|e| e.to_string())
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            uct_c: 0.1,
            expand_threshold: 2,
            playouts: 0,
            time_per_move: 5.0,
            threads: 0,
            resign_threshold: 0.1,
            seed: 0,
            reuse_tree: true,
            max_tree_memory_mb: 1024,
            lag_buffer: 0.5,
            time_extension: 2.5,
            playout_policy: PlayoutPolicy::Heavy,
            rave_equiv: 3000.0,
            virtual_loss: 3,
            early_stop: true,
            priors: true,
            ponder: false,
            playout_ladder_budget: 30,
            playout_nakade: 0.0,
            playout_fill_board: 0,
            prior_nakade: 0,
            prior_low_line: 40,
            prior_mm: 80,
            prior_mm_table: String::new(),
            dynamic_komi: DynKomiParams::DEFAULT.mode,
            dynamic_komi_stone: DynKomiParams::DEFAULT.stone_value,
            dynamic_komi_moves: DynKomiParams::DEFAULT.moves,
            playout_last_good_reply: false,
        }
    }
}

impl SearchConfig {
    /// Checks this section's value ranges.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        let search = self;
        if !(search.uct_c.is_finite() && search.uct_c >= 0.0) {
            return Err(inv(
                "search.uct_c",
                format!("must be a finite number >= 0, got {}", search.uct_c),
            ));
        }
        if search.expand_threshold == 0 {
            return Err(inv("search.expand_threshold", "must be at least 1"));
        }
        if !(search.time_per_move.is_finite() && search.time_per_move > 0.0) {
            return Err(inv(
                "search.time_per_move",
                format!(
                    "must be a number of seconds > 0, got {}",
                    search.time_per_move
                ),
            ));
        }
        if search.threads > MAX_THREADS {
            return Err(inv(
                "search.threads",
                format!(
                    "must be at most {MAX_THREADS} (0 = one per core), got {}",
                    search.threads
                ),
            ));
        }
        if !(0.0..1.0).contains(&search.resign_threshold) {
            return Err(inv(
                "search.resign_threshold",
                format!("must be in [0, 1), got {}", search.resign_threshold),
            ));
        }
        if !(search.rave_equiv.is_finite() && search.rave_equiv >= 0.0) {
            return Err(inv(
                "search.rave_equiv",
                format!("must be a finite number >= 0, got {}", search.rave_equiv),
            ));
        }
        if !(0.0..=1.0).contains(&search.playout_nakade) {
            return Err(inv(
                "search.playout_nakade",
                format!(
                    "must be a probability in [0, 1], got {}",
                    search.playout_nakade
                ),
            ));
        }
        if let Err(e) = search.mm_table() {
            return Err(inv("search.prior_mm_table", e));
        }
        if !(search.dynamic_komi_stone.is_finite() && search.dynamic_komi_stone >= 0.0) {
            return Err(inv(
                "search.dynamic_komi_stone",
                format!(
                    "must be a number of points >= 0, got {}",
                    search.dynamic_komi_stone
                ),
            ));
        }
        if search.dynamic_komi_moves == 0 {
            return Err(inv("search.dynamic_komi_moves", "must be at least 1"));
        }
        if search.max_tree_memory_mb == 0 {
            return Err(inv("search.max_tree_memory_mb", "must be at least 1"));
        }
        if !(search.lag_buffer.is_finite() && search.lag_buffer >= 0.0) {
            return Err(inv(
                "search.lag_buffer",
                format!(
                    "must be a number of seconds >= 0, got {}",
                    search.lag_buffer
                ),
            ));
        }
        if !(search.time_extension.is_finite() && search.time_extension >= 1.0) {
            return Err(inv(
                "search.time_extension",
                format!("must be a number >= 1, got {}", search.time_extension),
            ));
        }
        Ok(())
    }
}
