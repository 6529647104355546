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
//! - Backup: visits and wins (draws count half) from the point of view of each node's mover,
//!   one atomic add per node; AMAF statistics of the siblings along the path when RAVE is on,
//!   written without locked instructions (a rare lost sample between threads).
//! - Final move: most visits, ties by wins. Resign below `resign_threshold`.
//! - Tree reuse: the root walks down the moves played since the last search; an unexpanded
//!   target becomes a lone root. The discarded part of the tree is freed on another thread.
//! - Threads: `threads` workers share one tree (lock-free statistics, one expanding thread per
//!   node via a flag); each in-flight descent adds `virtual_loss` visits without wins.
//!
//! The search runs on its own threads (never on tokio workers), bounded by a `Budget` and a
//! playout count. Concurrent searches (the daemon's sessions) can share the cores through a
//! [`CoreGate`] (`gate.rs`): then only as many workers run as the gate has tokens. All
//! randomness comes from `seed` (with one thread, same seed and playout count, same move).
//!
//! The files: `params.rs` (the knobs), `tree.rs` (nodes and tree reuse), `player.rs` (the
//! search of one move and its decision), `driver.rs` (the worker threads and when they stop),
//! `iterate.rs` (descent, expansion, playout and backup), `select.rs` (UCT/RAVE),
//! `analysis.rs` (summaries, snapshots, principal variations), `endgame.rs` (ownership,
//! dead stones and the pass rules), `deadshape.rs` (dead shapes the playouts misjudge) and
//! `dynkomi.rs` (the komi the playouts count with in handicap games and lopsided positions).

pub mod bench;
pub mod dynkomi;
pub mod gate;
pub mod mm;
pub mod patterns;
pub mod playout;
pub mod policy;
pub mod priors;
pub mod tactics;

mod analysis;
mod deadshape;
mod driver;
mod endgame;
mod iterate;
#[cfg(test)]
mod opening_tests;
mod params;
mod player;
mod select;
#[cfg(test)]
mod tests;
mod tree;

pub use analysis::{Decision, MoveStat, Observer, SearchSnapshot, SearchSummary};
pub use endgame::DEAD_STONE_PLAYOUTS;
pub use gate::CoreGate;
pub use params::SearchParams;
pub use player::{Player, SearchOptions};
