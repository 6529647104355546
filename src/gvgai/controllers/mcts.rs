//! Open-loop Monte Carlo tree search (in the manner of GVG-AI's `sampleMCTS`): the tree stores
//! action sequences, not states; every iteration copies the root state (re-seeded, so
//! stochastic games are sampled), follows UCT down the tree, expands one node, finishes with a
//! random rollout up to a fixed depth, and backs the state value up. The tree is rebuilt at
//! every act; the most visited root action is played.
//!
//! With `goal_weight` > 0, a rollout that ends with the game still running is valued
//! `score − goal_weight · d`, `d` in [0, 1] being the avatar's grid distance to the nearest
//! sprite the winning termination needs removed ([`GoalDistance`], computed once per act
//! from the root state). Without it, a game whose targets lie beyond the rollout horizon
//! (butterflies level 4: behind a wall with one gap) gives every rollout the same value.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::goal::GoalDistance;
use super::{Clock, Controller, ControllerError, choices, spec_settings, value};
use crate::budget::Budget;
use crate::gvgai::engine::{Action, GameState};

/// MCTS settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsParams {
    /// UCT exploration constant.
    pub k: f64,
    /// Depth (from the root) at which simulations stop.
    pub rollout_depth: usize,
    /// Safety cap on iterations per act (the budget normally ends the search first).
    pub max_iterations: usize,
    /// Stop this long before the deadline, to answer in time.
    pub margin: std::time::Duration,
    /// Weight of the goal-distance term for rollouts that end before the game (0: off).
    pub goal_weight: f64,
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams {
            k: std::f64::consts::SQRT_2,
            rollout_depth: 10,
            max_iterations: 1_000_000,
            margin: super::SAFETY_MARGIN,
            goal_weight: 1.0,
        }
    }
}

impl MctsParams {
    /// Apply `key=value` settings separated by commas (the `ARG` of `--controller mcts:ARG`):
    /// `k` (UCT constant), `depth` (rollout depth), `goal` (goal-distance weight, 0 = off).
    pub fn with_spec(mut self, spec: &str) -> Result<MctsParams, ControllerError> {
        spec_settings("mcts", spec, &["k", "depth", "goal"], |key, x| {
            match key {
                "k" => self.k = x,
                "goal" => self.goal_weight = x,
                _ if x.fract() == 0.0 && (1.0..=1000.0).contains(&x) => {
                    self.rollout_depth = x as usize
                }
                _ => return Err(format!("depth: not a whole number in 1..=1000: {x}")),
            }
            Ok(())
        })?;
        Ok(self)
    }
}

#[derive(Debug, Clone)]
struct Node {
    parent: usize,
    /// Child node per action index (`usize::MAX` = not expanded).
    children: Vec<usize>,
    visits: u32,
    total: f64,
}

/// Open-loop UCT.
pub struct Mcts {
    rng: Xoshiro256PlusPlus,
    params: MctsParams,
    nodes: Vec<Node>,
    /// Observed value range, for normalising UCT exploitation terms.
    lo: f64,
    hi: f64,
    /// The goal distances of the current root (when `goal_weight` > 0 and the game has one).
    goal: Option<GoalDistance>,
}

impl Mcts {
    pub fn new(seed: u64, params: MctsParams) -> Self {
        Mcts {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            params,
            nodes: Vec::new(),
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            goal: None,
        }
    }

    /// The value of a simulation's last state.
    fn evaluate(&self, s: &GameState) -> f64 {
        match &self.goal {
            Some(g) if !s.is_over() => value(s) - self.params.goal_weight * g.normalised(s),
            _ => value(s),
        }
    }

    fn new_node(&mut self, parent: usize, n_actions: usize) -> usize {
        self.nodes.push(Node {
            parent,
            children: vec![usize::MAX; n_actions],
            visits: 0,
            total: 0.0,
        });
        self.nodes.len() - 1
    }

    fn uct_child(&mut self, node: usize) -> usize {
        let parent_visits = f64::from(self.nodes[node].visits.max(1));
        let mut best = f64::NEG_INFINITY;
        let mut best_a = 0;
        for (a, &c) in self.nodes[node].children.iter().enumerate() {
            let child = &self.nodes[c];
            let n = f64::from(child.visits.max(1));
            let mean = child.total / n;
            let exploit = if self.hi > self.lo {
                (mean - self.lo) / (self.hi - self.lo)
            } else {
                0.0
            };
            let explore = self.params.k * (parent_visits.ln() / n).sqrt();
            let score = exploit + explore + self.rng.r#gen::<f64>() * 1e-6;
            if score > best {
                best = score;
                best_a = a;
            }
        }
        best_a
    }

    /// One iteration; false (and nothing backed up) if the clock ran out during it.
    fn iterate(&mut self, root: &GameState, actions: &[Action], clock: &Clock) -> bool {
        let n_actions = actions.len();
        let mut s = root.clone();
        s.reseed(self.rng.r#gen());
        let mut cur = 0;
        let mut depth = 0;
        // Selection and expansion.
        while !s.is_over() && depth < self.params.rollout_depth {
            if clock.done() {
                return false;
            }
            let unexpanded: Vec<usize> = (0..n_actions)
                .filter(|&a| self.nodes[cur].children[a] == usize::MAX)
                .collect();
            if !unexpanded.is_empty() {
                let a = unexpanded[self.rng.gen_range(0..unexpanded.len())];
                let child = self.new_node(cur, n_actions);
                self.nodes[cur].children[a] = child;
                s.advance(actions[a]);
                cur = child;
                depth += 1;
                break;
            }
            let a = self.uct_child(cur);
            s.advance(actions[a]);
            cur = self.nodes[cur].children[a];
            depth += 1;
        }
        // Rollout.
        while !s.is_over() && depth < self.params.rollout_depth {
            if clock.done() {
                break;
            }
            s.advance(actions[self.rng.gen_range(0..n_actions)]);
            depth += 1;
        }
        let v = self.evaluate(&s);
        self.lo = self.lo.min(v);
        self.hi = self.hi.max(v);
        // Backup.
        let mut n = cur;
        loop {
            self.nodes[n].visits += 1;
            self.nodes[n].total += v;
            if n == 0 {
                break;
            }
            n = self.nodes[n].parent;
        }
        true
    }
}

impl Controller for Mcts {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        let actions = choices(state);
        self.nodes.clear();
        self.lo = f64::INFINITY;
        self.hi = f64::NEG_INFINITY;
        self.goal = if self.params.goal_weight > 0.0 {
            GoalDistance::new(state)
        } else {
            None
        };
        self.new_node(0, actions.len());
        let mut it = 0;
        let clock = Clock::new(budget, self.params.margin);
        while it < self.params.max_iterations && !clock.done() {
            if !self.iterate(state, &actions, &clock) {
                break;
            }
            it += 1;
        }
        // Most visited root action; ties by mean value.
        let root = &self.nodes[0];
        let mut best: Option<(u32, f64, usize)> = None;
        for (a, &c) in root.children.iter().enumerate() {
            if c == usize::MAX {
                continue;
            }
            let n = self.nodes[c].visits;
            let mean = self.nodes[c].total / f64::from(n.max(1));
            if best.is_none_or(|(bn, bm, _)| n > bn || (n == bn && mean > bm)) {
                best = Some((n, mean, a));
            }
        }
        match best {
            Some((_, _, a)) => actions[a],
            None => actions[self.rng.gen_range(0..actions.len())],
        }
    }
}
