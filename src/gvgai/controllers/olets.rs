//! Open Loop Expectimax Tree Search (OLETS, Couëtoux; the GVG-AI 2014 planning-track winner,
//! described in Perez et al., "Open Loop Search for General Video Game Playing", GECCO 2015).
//!
//! Like open-loop MCTS the tree stores action sequences, not states; unlike it there is no
//! random rollout: every iteration copies the root state, descends the tree, adds one node and
//! values the state reached there. A node's value mixes the mean of the iterations that ended
//! at it with the best value among its children (the "adjusted expectimax"):
//! `r(n) = e(n)/v(n) · exit_mean(n) + (1 − e(n)/v(n)) · max_c r(c)`, with `v` the iterations
//! through `n` and `e` those that ended there. Children are chosen by `r + k·√(ln(v+1)/v_c)`
//! minus a taboo bias for nodes whose avatar position is one the avatar held in the last
//! `memory` real ticks, with a 5 % chance of a uniformly random child. The subtree of the
//! action played is kept for the next act, each node reduced to one visit of its mean; the
//! next act re-roots it before it searches, so that the copy counts against its own budget.
//!
//! Values are raw scores: a loss at tree depth `d` costs `2000/(1+d)² · (1+|score|)`, a win
//! gains `100 · (1+|score|)`. With `goal` > 0 a state where the game goes on also loses
//! `goal · d`, `d` in [0, 1] being the avatar's grid distance to the nearest sprite the
//! winning termination needs removed ([`GoalDistance`], as in [`super::Mcts`]); with `hp` > 0
//! it gains `hp · h`, `h` the avatar's health points as a fraction of the most it has had
//! (games whose avatar must restore health that runs down, such as roadfighter's fuel, where
//! the score says nothing until the avatar dies).
//!
//! Both terms are on by default (weight 1); `olets:goal=0,hp=0` is the plain algorithm.
//!
//! The framework's Java OLETS divides each kept node's exit total by its visits only after
//! setting the visits to one, so a kept node's exit mean becomes the sum of its exits; here it
//! is the mean.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::goal::GoalDistance;
use super::{Clock, Controller, ControllerError, choices, spec_settings};
use crate::budget::Budget;
use crate::gvgai::engine::{Action, GameState, Winner};

/// OLETS settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OletsParams {
    /// Exploration constant (on the raw score scale).
    pub k: f64,
    /// Penalty of a node whose avatar position is among the recent ones.
    pub taboo: f64,
    /// How many past avatar positions the taboo bias remembers.
    pub memory: usize,
    /// Weight of the goal-distance term for states where the game goes on (0: off).
    pub goal_weight: f64,
    /// Weight of the avatar's health (as a fraction of the most it has had) in states where
    /// the game goes on (0: off).
    pub hp_weight: f64,
    /// Safety cap on iterations per act (the budget normally ends the search first).
    pub max_iterations: usize,
    /// The tree stops growing at this many nodes.
    pub max_nodes: usize,
    /// Stop this long before the deadline, to answer in time.
    pub margin: std::time::Duration,
}

impl Default for OletsParams {
    fn default() -> Self {
        OletsParams {
            k: std::f64::consts::SQRT_2,
            taboo: 0.5,
            memory: 15,
            goal_weight: 1.0,
            hp_weight: 1.0,
            max_iterations: 1_000_000,
            max_nodes: 250_000,
            margin: super::SAFETY_MARGIN,
        }
    }
}

impl OletsParams {
    /// Apply `key=value` settings separated by commas (the `ARG` of `--controller olets:ARG`):
    /// `k`, `taboo`, `memory`, `goal`, `hp`.
    pub fn with_spec(mut self, spec: &str) -> Result<OletsParams, ControllerError> {
        spec_settings(
            "olets",
            spec,
            &["k", "taboo", "memory", "goal", "hp"],
            |key, x| {
                match key {
                    "k" => self.k = x,
                    "hp" => self.hp_weight = x,
                    "taboo" => self.taboo = x,
                    "goal" => self.goal_weight = x,
                    _ if x.fract() == 0.0 && x <= 1000.0 => self.memory = x as usize,
                    _ => return Err(format!("{key}: not a whole number up to 1000: {x}")),
                }
                Ok(())
            },
        )?;
        Ok(self)
    }
}

const NONE: u32 = u32::MAX;
/// Java OLETS' stand-in for minus infinity (a node's best child before it has any).
const HUGE_NEGATIVE: f64 = -10_000_000.0;
const EPSILON: f64 = 1e-4;
const RANDOM_CHILD: f64 = 0.05;

#[derive(Debug, Clone)]
struct Node {
    parent: u32,
    depth: u32,
    visits: u32,
    /// Iterations through this node since it was added or kept (0: kept, not yet revisited).
    generated: u32,
    exits: u32,
    exit_total: f64,
    total: f64,
    adj: f64,
    best_child_adj: f64,
    taboo: f64,
}

impl Node {
    fn new(parent: u32, depth: u32, taboo: f64) -> Node {
        Node {
            parent,
            depth,
            visits: 0,
            generated: 0,
            exits: 0,
            exit_total: 0.0,
            total: 0.0,
            adj: 0.0,
            best_child_adj: 0.0,
            taboo,
        }
    }

    /// A kept node: one visit of its mean, one exit of its exit mean, not yet revisited.
    fn refresh(&mut self) {
        let visits = f64::from(self.visits.max(1));
        self.total /= visits;
        self.visits = 1;
        self.adj = self.total;
        self.exit_total /= f64::from(self.exits.max(1));
        self.exits = 1;
        self.generated = 0;
    }

    fn update_adj(&mut self) {
        self.adj = if self.exits == 0 {
            self.best_child_adj
        } else {
            let f = f64::from(self.exits) / f64::from(self.visits);
            f * (self.exit_total / f64::from(self.exits)) + (1.0 - f) * self.best_child_adj
        };
    }
}

/// Open Loop Expectimax Tree Search.
pub struct Olets {
    rng: Xoshiro256PlusPlus,
    params: OletsParams,
    nodes: Vec<Node>,
    /// `children[node · n_actions + a]`: the child for action `a`, or [`NONE`].
    children: Vec<u32>,
    n_actions: usize,
    /// The avatar's recent positions (pixels), a ring of `params.memory`.
    past: Vec<(i32, i32)>,
    past_next: usize,
    /// The action the last act played, whose subtree the next act keeps.
    played: Option<usize>,
    goal: Option<GoalDistance>,
}

impl Olets {
    pub fn new(seed: u64, params: OletsParams) -> Self {
        Olets {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            params,
            nodes: Vec::new(),
            children: Vec::new(),
            n_actions: 0,
            past: Vec::new(),
            past_next: 0,
            played: None,
            goal: None,
        }
    }

    fn add_node(&mut self, parent: u32, depth: u32, taboo: f64) -> u32 {
        self.nodes.push(Node::new(parent, depth, taboo));
        self.children
            .extend(std::iter::repeat_n(NONE, self.n_actions));
        (self.nodes.len() - 1) as u32
    }

    fn child(&self, node: u32, a: usize) -> u32 {
        self.children[node as usize * self.n_actions + a]
    }

    fn taboo_of(&self, s: &GameState) -> f64 {
        match s.avatar() {
            Some(av) if self.past.contains(&(av.x, av.y)) => self.params.taboo,
            _ => 0.0,
        }
    }

    fn remember(&mut self, s: &GameState) {
        let (Some(av), true) = (s.avatar(), self.params.memory > 0) else {
            return;
        };
        if self.past.len() < self.params.memory {
            self.past.push((av.x, av.y));
        } else {
            self.past[self.past_next] = (av.x, av.y);
        }
        self.past_next = (self.past_next + 1) % self.params.memory;
    }

    /// The value of the state an iteration ended in, at tree depth `depth`.
    fn value(&self, s: &GameState, depth: u32) -> f64 {
        let score = s.score_of(s.seated_player());
        let scale = 1.0 + score.abs();
        match s.winner_of(s.seated_player()) {
            Winner::PlayerLoses => score - 2000.0 / f64::from(1 + depth).powi(2) * scale,
            Winner::PlayerWins => score + 100.0 * scale,
            Winner::NoWinner if s.is_over() => score,
            Winner::NoWinner => {
                let goal = self.goal.as_ref().map_or(0.0, |g| g.normalised(s));
                let health = match s.avatar() {
                    Some(av) if av.max_health > 0 => {
                        f64::from(av.health) / f64::from(av.max_health)
                    }
                    _ => 0.0,
                };
                score - self.params.goal_weight * goal + self.params.hp_weight * health
            }
        }
    }

    fn select_child(&mut self, node: u32) -> usize {
        if self.rng.r#gen::<f64>() < RANDOM_CHILD {
            return self.rng.gen_range(0..self.n_actions);
        }
        let log_n = (f64::from(self.nodes[node as usize].visits) + 1.0).ln();
        let mut best = f64::NEG_INFINITY;
        let mut best_a = 0;
        for a in 0..self.n_actions {
            let c = &self.nodes[self.child(node, a) as usize];
            let score =
                c.adj + self.params.k * (log_n / (f64::from(c.visits) + EPSILON)).sqrt() - c.taboo;
            if score > best {
                best = score;
                best_a = a;
            }
        }
        best_a
    }

    /// Descend from the root, adding one node (or stopping at a kept child of the root that
    /// this act has not revisited yet); the node reached, or `None` if the clock ran out.
    fn descend(&mut self, s: &mut GameState, actions: &[Action], clock: &Clock) -> Option<u32> {
        let mut cur = 0u32;
        let mut local_depth = 0;
        while !s.is_over() {
            if clock.done() {
                return None;
            }
            let free: Vec<usize> = (0..self.n_actions)
                .filter(|&a| self.child(cur, a) == NONE)
                .collect();
            if !free.is_empty() {
                if self.nodes.len() >= self.params.max_nodes {
                    return Some(cur);
                }
                let a = free[self.rng.gen_range(0..free.len())];
                s.advance(actions[a]);
                let depth = self.nodes[cur as usize].depth + 1;
                let taboo = self.taboo_of(s);
                let child = self.add_node(cur, depth, taboo);
                self.children[cur as usize * self.n_actions + a] = child;
                return Some(child);
            }
            let a = self.select_child(cur);
            s.advance(actions[a]);
            cur = self.child(cur, a);
            if self.nodes[cur as usize].generated == 0 {
                self.nodes[cur as usize].taboo = self.taboo_of(s);
                if local_depth == 0 {
                    return Some(cur);
                }
            }
            local_depth += 1;
        }
        Some(cur)
    }

    fn back_up(&mut self, leaf: u32, result: f64) {
        let mut n = leaf;
        let mut first = true;
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.generated += 1;
            node.total += result;
            if first {
                node.exits += 1;
                node.exit_total += result;
            } else {
                let base = n as usize * self.n_actions;
                let best = self.children[base..base + self.n_actions]
                    .iter()
                    .filter(|&&c| c != NONE)
                    .map(|&c| self.nodes[c as usize].adj)
                    .fold(HUGE_NEGATIVE, f64::max);
                self.nodes[n as usize].best_child_adj = best;
            }
            self.nodes[n as usize].update_adj();
            n = self.nodes[n as usize].parent;
            first = false;
        }
    }

    /// The root's most visited action; when all are visited equally, the best total.
    fn most_visited(&mut self) -> Option<usize> {
        let kids: Vec<(usize, u32)> = (0..self.n_actions)
            .map(|a| (a, self.child(0, a)))
            .filter(|&(_, c)| c != NONE)
            .collect();
        let first = self.nodes[kids.first()?.1 as usize].visits;
        let all_equal = kids
            .iter()
            .all(|&(_, c)| self.nodes[c as usize].visits == first);
        let key = |n: &Node| {
            if all_equal {
                n.total
            } else {
                f64::from(n.visits)
            }
        };
        let mut best = (f64::NEG_INFINITY, 0);
        for (a, c) in kids {
            let v = key(&self.nodes[c as usize]) + self.rng.r#gen::<f64>() * EPSILON;
            if v > best.0 {
                best = (v, a);
            }
        }
        Some(best.1)
    }

    /// Keep the subtree under the root's child for `action` as the next root, every kept node
    /// below it reduced to one visit of its mean.
    fn keep_subtree(&mut self, action: usize) {
        let new_root = self.child(0, action);
        if new_root == NONE {
            self.clear();
            return;
        }
        let k = self.n_actions;
        let mut nodes: Vec<Node> = Vec::new();
        let mut children: Vec<u32> = Vec::new();
        // (old index, new parent, action from the parent)
        let mut queue = std::collections::VecDeque::from([(new_root, NONE, 0)]);
        while let Some((old, parent, a)) = queue.pop_front() {
            let idx = nodes.len() as u32;
            let mut n = self.nodes[old as usize].clone();
            n.parent = parent;
            if parent == NONE {
                n.depth = 0;
            } else {
                n.depth = nodes[parent as usize].depth + 1;
                n.refresh();
                children[parent as usize * k + a] = idx;
            }
            nodes.push(n);
            children.extend(std::iter::repeat_n(NONE, k));
            for b in 0..k {
                let c = self.child(old, b);
                if c != NONE {
                    queue.push_back((c, idx, b));
                }
            }
        }
        self.nodes = nodes;
        self.children = children;
    }

    fn clear(&mut self) {
        self.nodes.clear();
        self.children.clear();
    }
}

impl Controller for Olets {
    fn name(&self) -> &'static str {
        "olets"
    }

    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        let actions = choices(state);
        let clock = Clock::new(budget, self.params.margin);
        match self.played.take() {
            Some(a) if actions.len() == self.n_actions => self.keep_subtree(a),
            _ => self.clear(),
        }
        if self.nodes.is_empty() {
            self.n_actions = actions.len();
            self.add_node(NONE, 0, 0.0);
        }
        self.remember(state);
        self.goal = if self.params.goal_weight > 0.0 {
            GoalDistance::new(state)
        } else {
            None
        };
        let mut it = 0;
        while it < self.params.max_iterations && !clock.done() {
            let mut s = state.clone();
            s.reseed(self.rng.r#gen());
            let Some(leaf) = self.descend(&mut s, &actions, &clock) else {
                break;
            };
            let v = self.value(&s, self.nodes[leaf as usize].depth);
            self.back_up(leaf, v);
            it += 1;
        }
        let a = self
            .most_visited()
            .unwrap_or_else(|| self.rng.gen_range(0..actions.len()));
        self.played = Some(a);
        actions[a]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gvgai::controllers::play;
    use crate::gvgai::controllers::tests::CORRIDOR;
    use crate::gvgai::engine::Game;
    use std::time::Duration;

    fn counted(iterations: usize, goal_weight: f64) -> OletsParams {
        OletsParams {
            max_iterations: iterations,
            goal_weight,
            ..OletsParams::default()
        }
    }

    #[test]
    fn olets_finds_a_goal_beyond_its_first_step() {
        let level = "wwwwwwwww\nwtA    gw\nwwwwwwwww\n";
        let game = Game::from_texts("corridor", CORRIDOR, &[level]).unwrap();
        let mut c = Olets::new(5, counted(300, 0.0));
        let r = play(&game, 0, 1, &mut c, Duration::from_secs(10)).unwrap();
        assert!(r.outcome.win && r.outcome.ticks < 30, "{r:?}");
    }

    /// The corridor with its goal 30 cells away, 40 iterations per act: the tree never sees
    /// the goal, so without the goal-distance term and the taboo bias (which alone drives the
    /// avatar away from where it has been) every state that avoids the trap has the same value.
    fn far_goal(goal_weight: f64, taboo: f64) -> crate::gvgai::controllers::PlayResult {
        let level = format!("{w}\nwtA{}gw\n{w}\n", " ".repeat(30), w = "w".repeat(35));
        let game = Game::from_texts("corridor", CORRIDOR, &[level.as_str()]).unwrap();
        let params = OletsParams {
            taboo,
            ..counted(40, goal_weight)
        };
        let mut c = Olets::new(7, params);
        play(&game, 0, 1, &mut c, Duration::from_secs(10)).unwrap()
    }

    #[test]
    fn goal_distance_and_taboo_bias_each_reach_a_goal_far_beyond_the_tree() {
        for (with, without) in [
            (far_goal(1.0, 0.0), far_goal(0.0, 0.0)),
            (far_goal(0.0, 0.5), far_goal(0.0, 0.0)),
        ] {
            assert!(with.outcome.win && with.outcome.ticks <= 40, "{with:?}");
            assert!(
                !without.outcome.win || without.outcome.ticks > 40,
                "{without:?}"
            );
        }
    }

    #[test]
    fn kept_subtree_is_rerooted_with_one_visit_per_node() {
        let game =
            Game::from_texts("corridor", CORRIDOR, &["wwwwwwwww\nwtA    gw\nwwwwwwwww\n"]).unwrap();
        let state = game.start(0, 1).unwrap();
        let mut c = Olets::new(3, counted(500, 0.0));
        let budget = Budget::new(
            std::time::Instant::now() + Duration::from_secs(10),
            crate::budget::CancelFlag::new(),
        );
        c.act(&state, &budget);
        let before = c.nodes.len();
        c.keep_subtree(c.played.unwrap());
        assert!(c.nodes.len() > 1 && c.nodes.len() < before);
        assert_eq!(c.nodes[0].parent, NONE);
        assert_eq!(c.nodes[0].depth, 0);
        for (i, n) in c.nodes.iter().enumerate().skip(1) {
            assert_eq!(n.visits, 1, "node {i}");
            assert_eq!(n.generated, 0, "node {i}");
            let p = n.parent as usize;
            assert_eq!(n.depth, c.nodes[p].depth + 1);
            let slots = &c.children[p * c.n_actions..(p + 1) * c.n_actions];
            assert_eq!(slots.iter().filter(|&&x| x == i as u32).count(), 1);
        }
        assert_eq!(c.children.len(), c.nodes.len() * c.n_actions);
    }

    #[test]
    fn health_weight_values_the_avatar_health() {
        const SPIKES: &str = "BasicGame square_size=10
    SpriteSet
        spike > Immovable
        avatar > MovingAvatar healthPoints=4 limitHealthPoints=4
    LevelMapping
        s > spike
    InteractionSet
        avatar wall > stepBack
        avatar spike > subtractHealthPoints value=1
    TerminationSet
        Timeout limit=100 win=False";
        let game = Game::from_texts("spikes", SPIKES, &["wwwww\nwAs w\nwwwww\n"]).unwrap();
        let before = game.start(0, 1).unwrap();
        let mut after = before.clone();
        after.advance(Action::Right);
        assert!(after.avatar().unwrap().health < before.avatar().unwrap().health);
        let value = |hp_weight, s: &GameState| {
            let c = Olets::new(
                1,
                OletsParams {
                    hp_weight,
                    ..OletsParams::default()
                },
            );
            c.value(s, 1)
        };
        assert_eq!(value(0.0, &before), value(0.0, &after));
        assert!(value(2.0, &after) < value(2.0, &before));
        assert_eq!(value(2.0, &before), value(0.0, &before) + 2.0);
    }

    #[test]
    fn settings_parse_and_reject() {
        let p = OletsParams::default()
            .with_spec("k=0.5, taboo=1,memory=4,goal=2,hp=3")
            .unwrap();
        assert_eq!(
            (p.k, p.taboo, p.memory, p.goal_weight, p.hp_weight),
            (0.5, 1.0, 4, 2.0, 3.0)
        );
        for bad in ["k", "k=-1", "memory=1.5", "depth=3", "goal=x"] {
            assert!(OletsParams::default().with_spec(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn same_seed_same_game() {
        let game =
            Game::from_texts("corridor", CORRIDOR, &["wwwwwwwww\nwtA    gw\nwwwwwwwww\n"]).unwrap();
        let run = || {
            let mut c = Olets::new(11, counted(50, 0.0));
            play(&game, 0, 1, &mut c, Duration::from_secs(10))
                .unwrap()
                .actions
        };
        assert_eq!(run(), run());
    }
}
