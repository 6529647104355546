//! What a search reports: the decision, the root moves with their statistics and principal
//! variations, the summary of a finished search and the snapshots an observer sees while it
//! runs.

use super::driver::Shared;
use super::tree::Node;
use crate::go::Move;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

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

pub(super) fn snapshot(root: &Node, shared: &Shared) -> SearchSnapshot {
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
pub(super) fn root_moves(root: &Node, forbid_pass: bool) -> Vec<MoveStat> {
    let mut kids: Vec<&Node> = root
        .children()
        .iter()
        .filter(|n| !(forbid_pass && n.mv == Move::Pass))
        .collect();
    kids.sort_by(|x, y| {
        y.visits()
            .cmp(&x.visits())
            .then(y.stats.get().1.cmp(&x.stats.get().1))
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

/// The principal variation from `node`: its move, then the most visited child at each level
/// (at most 30 moves).
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
