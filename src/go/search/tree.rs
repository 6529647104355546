//! The search tree: nodes with lock-free statistics shared by the worker threads, and tree
//! reuse (the root walks down the moves played since the last search).

use super::Player;
use crate::go::game::Game;
use crate::go::{Color, Move};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};

/// A tree node. Statistics are atomics so that worker threads share the tree; the children
/// are created once, by the thread that wins the `expanding` flag.
pub(super) struct Node {
    pub(super) mv: Move,
    /// The colour that played `mv`.
    pub(super) color: Color,
    /// Prior knowledge, in visits and wins: used in selection only, never as real visits.
    pub(super) prior_visits: u32,
    pub(super) prior_wins: u32,
    /// Visits and wins in half points (a draw is 1, a win 2).
    pub(super) stats: Tally,
    pub(super) virtual_loss: AtomicU32,
    /// AMAF visits and wins, updated without a locked write (`Tally::add_lossy`).
    pub(super) amaf: Tally,
    pub(super) expanding: AtomicBool,
    pub(super) children: OnceLock<Box<[Node]>>,
}

/// Visits in the high half of one word and wins in half points in the low half, so that a
/// backup is one write per node.
#[derive(Default)]
pub(super) struct Tally(AtomicU64);

impl Tally {
    /// Adds one sample worth `wins2` half points, atomically.
    pub(super) fn add(&self, wins2: u32) {
        self.0.fetch_add((1 << 32) + u64::from(wins2), Relaxed);
    }
    /// Adds one sample with a plain load and store instead of a locked read-modify-write:
    /// two threads adding at the same instant may lose one of the two samples. The AMAF
    /// backup adds to dozens of siblings per iteration; this keeps it cheap and keeps the
    /// threads from serialising on those cache lines, and RAVE's estimate does not notice
    /// a lost sample. With one thread nothing is lost.
    pub(super) fn add_lossy(&self, wins2: u32) {
        let v = self.0.load(Relaxed);
        self.0.store(v + (1 << 32) + u64::from(wins2), Relaxed);
    }
    /// (visits, wins in half points).
    pub(super) fn get(&self) -> (u32, u32) {
        let v = self.0.load(Relaxed);
        ((v >> 32) as u32, v as u32)
    }
    /// Sets the statistics (tests build trees by hand).
    #[cfg(test)]
    pub(super) fn set(&self, visits: u32, wins2: u32) {
        self.0
            .store((u64::from(visits) << 32) | u64::from(wins2), Relaxed);
    }
}

impl Node {
    pub(super) fn new(mv: Move, color: Color) -> Node {
        Node {
            mv,
            color,
            prior_visits: 0,
            prior_wins: 0,
            stats: Tally::default(),
            virtual_loss: AtomicU32::new(0),
            amaf: Tally::default(),
            expanding: AtomicBool::new(false),
            children: OnceLock::new(),
        }
    }
    pub(super) fn visits(&self) -> u32 {
        self.stats.get().0
    }
    pub(super) fn wins(&self) -> f64 {
        f64::from(self.stats.get().1) / 2.0
    }
    pub(super) fn winrate(&self) -> f64 {
        let n = self.visits();
        if n == 0 { 0.5 } else { self.wins() / n as f64 }
    }
    pub(super) fn children(&self) -> &[Node] {
        self.children.get().map_or(&[], |c| c)
    }
    /// Nodes in this subtree (iterative, the tree may be deep).
    pub(super) fn subtree_size(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(x) = stack.pop() {
            n += 1;
            stack.extend(x.children().iter());
        }
        n
    }
}

/// Identifies the position the tree's root stands for.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct RootKey {
    hashes: Vec<u64>,
    to_move: Color,
    komi: f64,
}

impl Player {
    /// Installs a new root; the old tree is freed on a background thread.
    pub(super) fn replace_root(&mut self, root: Node) {
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
    pub(super) fn prepare_root(&mut self, game: &Game, color: Color) {
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
}
