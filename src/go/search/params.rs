//! `SearchParams`: the knobs of the search (from `[search]` of the config), tablero's
//! defaults and the thesis configuration.

use super::dynkomi::DynKomiParams;
use super::playout::PlayoutPolicy;
use super::policy::HeavyParams;
use super::priors;
use super::tree::Node;

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
    /// Gammas of the learned prior (`prior_params.mm`); None: the compiled-in table.
    pub mm_table: Option<std::sync::Arc<super::mm::Table>>,
    /// The komi the playouts count with in handicap games and lopsided positions.
    pub dynamic_komi: DynKomiParams,
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
            mm_table: None,
            dynamic_komi: DynKomiParams::DEFAULT,
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
            mm_table: None,
            dynamic_komi: DynKomiParams::OFF,
        }
    }
}
