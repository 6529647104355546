//! The MCTS Go player of the thesis, every constant configurable.
//!
//! - Selection: UCT, `v/n + C·sqrt(ln N / n)`; unvisited children first, in uniformly random
//!   order.
//! - Expansion: all children of a leaf at once once it has `expand_threshold` visits (the root
//!   always); one new child is picked at random and the playout starts from it. Tree moves obey
//!   the game's ko rule (positional superko checked against the game and the path).
//! - Simulation: `playout` (thesis `random` policy or `light`), scored under the game's rules.
//! - Backup: visits and wins (draws 0.5) from the point of view of each node's mover.
//! - Final move: most visits, ties by wins. Resign below `resign_threshold`.
//! - Tree reuse: the root walks down the moves played since the last search; an unexpanded
//!   target becomes a lone root.
//!
//! The search runs on whatever thread calls it (the GTP engine thread, never a tokio worker),
//! bounded by a `Budget` and a playout count. All randomness comes from `seed`.

pub mod bench;
pub mod playout;

use super::board::{Board, Point};
use super::game::{Game, KoRule};
use super::scoring::{score, white_bonus};
use super::{Color, Move, Vertex};
use crate::budget::Budget;
use crate::config::SearchConfig;
use playout::{PlayoutPolicy, count, playout};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
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
}

impl Default for SearchParams {
    fn default() -> Self {
        Self::from_config(&SearchConfig::default()).unwrap_or(SearchParams {
            uct_c: 0.7,
            expand_threshold: 2,
            max_playouts: 0,
            policy: PlayoutPolicy::Light,
            resign_threshold: 0.1,
            seed: 0,
            reuse_tree: true,
            max_nodes: 1 << 20,
        })
    }
}

impl SearchParams {
    pub fn from_config(c: &SearchConfig) -> Result<SearchParams, String> {
        Ok(SearchParams {
            uct_c: c.uct_c,
            expand_threshold: c.expand_threshold,
            max_playouts: c.playouts,
            policy: c.playout_policy.parse()?,
            resign_threshold: c.resign_threshold,
            seed: c.seed,
            reuse_tree: c.reuse_tree,
            max_nodes: (c.max_tree_memory_mb.saturating_mul(1 << 20) / std::mem::size_of::<Node>())
                .max(1024),
        })
    }
}

#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Move,
    /// The colour that played `mv`.
    color: Color,
    visits: u32,
    wins: f64,
    first_child: u32,
    /// 0 while the node is not expanded.
    num_children: u32,
}

impl Node {
    fn new(mv: Move, color: Color) -> Node {
        Node {
            mv,
            color,
            visits: 0,
            wins: 0.0,
            first_child: 0,
            num_children: 0,
        }
    }
    fn winrate(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f64
        }
    }
    fn children(&self) -> std::ops::Range<usize> {
        let f = self.first_child as usize;
        f..f + self.num_children as usize
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
}

impl SearchSummary {
    /// Win rate of the chosen move for the side to move (0.5 when unknown).
    pub fn winrate(&self) -> f64 {
        self.moves.first().map_or(0.5, |m| m.winrate)
    }
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
    nodes: Vec<Node>,
    root_key: Option<RootKey>,
    rng: Xoshiro256PlusPlus,
    /// Reused for every descent: hashes of the path for superko checks.
    path_hashes: Vec<u64>,
    /// Ko rule of the game being searched.
    ko: KoRule,
}

impl Player {
    pub fn new(params: SearchParams) -> Player {
        let rng = Xoshiro256PlusPlus::seed_from_u64(params.seed);
        Player {
            params,
            nodes: Vec::new(),
            root_key: None,
            rng,
            path_hashes: Vec::new(),
            ko: KoRule::Positional,
        }
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
        self.nodes.clear();
        self.root_key = None;
        self.rng = Xoshiro256PlusPlus::seed_from_u64(self.params.seed);
    }

    /// Nodes in the tree (for tests and reports).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Visits of the root after reuse, before any new search (for tests of tree reuse).
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |n| n.visits)
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
            && !self.nodes.is_empty()
            && old.as_ref().is_some_and(|o| {
                o.komi == key.komi
                    && key.hashes.len() >= o.hashes.len()
                    && key.hashes[..o.hashes.len()] == o.hashes[..]
            });
        let mut new_root = None;
        if let (true, Some(old)) = (reusable, old) {
            let played: Vec<(Color, Move)> = game.history().collect();
            let start = old.hashes.len() - 1;
            let mut node = 0usize;
            let mut ok = true;
            for &(c, m) in &played[start..] {
                let n = &self.nodes[node];
                match n
                    .children()
                    .find(|&i| self.nodes[i].mv == m && self.nodes[i].color == c)
                {
                    Some(i) => node = i,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            // The root's children must be moves of the colour asked for.
            let n = &self.nodes[node];
            let colour_ok =
                n.num_children == 0 || self.nodes[n.first_child as usize].color == color;
            if ok && colour_ok {
                new_root = Some(node);
            }
        }
        match new_root {
            Some(0) => {}
            Some(r) => self.compact(r),
            None => {
                self.nodes.clear();
                let last = game
                    .last_move()
                    .map_or((color.opponent(), Move::Pass), |x| x);
                self.nodes.push(Node::new(last.1, color.opponent()));
            }
        }
        self.root_key = Some(key);
    }

    /// Keeps only the subtree under `root`, which becomes node 0.
    fn compact(&mut self, root: usize) {
        let mut out = Vec::with_capacity(self.nodes.len() / 2);
        out.push(self.nodes[root]);
        let mut queue = std::collections::VecDeque::from([(root, 0usize)]);
        while let Some((old, new)) = queue.pop_front() {
            let n = self.nodes[old];
            if n.num_children == 0 {
                continue;
            }
            let first = out.len();
            out[new].first_child = first as u32;
            for (k, c) in n.children().enumerate() {
                out.push(self.nodes[c]);
                queue.push_back((c, first + k));
            }
        }
        self.nodes = out;
    }

    /// Creates the children of `node` for `to_move` on `board`; false if there are none.
    fn expand(&mut self, node: usize, board: &Board, to_move: Color, history: &[u64]) -> bool {
        let first = self.nodes.len();
        let superko = self.ko == KoRule::Positional;
        for p in board.points() {
            if !board.is_legal(to_move, p) {
                continue;
            }
            if self.params.policy == PlayoutPolicy::Light && board.is_eye(to_move, p) {
                continue;
            }
            if superko {
                let h = board.hash_after(to_move, p);
                if history.contains(&h) || self.path_hashes.contains(&h) {
                    continue;
                }
            }
            self.nodes
                .push(Node::new(Move::Play(Board::vertex_of(p)), to_move));
        }
        self.nodes.push(Node::new(Move::Pass, to_move));
        let count = (self.nodes.len() - first) as u32;
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.num_children = count;
        true
    }

    /// UCT choice among the children of `node`; unvisited children first, at random.
    fn select(&mut self, node: usize) -> usize {
        let parent = self.nodes[node];
        let mut unvisited = 0u32;
        let mut pick = usize::MAX;
        for i in parent.children() {
            if self.nodes[i].visits == 0 {
                unvisited += 1;
                if self.rng.gen_range(0..unvisited) == 0 {
                    pick = i;
                }
            }
        }
        if pick != usize::MAX {
            return pick;
        }
        let log_n = (parent.visits.max(1) as f64).ln();
        let c = self.params.uct_c;
        let mut best = f64::NEG_INFINITY;
        for i in parent.children() {
            let ch = &self.nodes[i];
            let n = ch.visits as f64;
            let v = ch.wins / n + c * (log_n / n).sqrt();
            if v > best {
                best = v;
                pick = i;
            }
        }
        pick
    }

    /// One MCTS iteration from the root position (`board`, `to_move`, `passes`).
    fn iterate(&mut self, game: &Game, root_board: &Board, to_move: Color, passes: u32) {
        let rules = *game.rules();
        let komi = rules.komi + white_bonus(game);
        let mut board = root_board.clone();
        let mut to_move = to_move;
        let mut passes = passes;
        let mut path = Vec::with_capacity(64);
        self.path_hashes.clear();
        let mut node = 0usize;
        path.push(node);
        let margin = loop {
            if self.nodes[node].num_children == 0 {
                if passes >= 2 {
                    break count(&board, rules.scoring, komi);
                }
                let may_expand = node == 0
                    || (self.nodes[node].visits >= self.params.expand_threshold
                        && self.nodes.len() < self.params.max_nodes);
                if may_expand && self.expand(node, &board, to_move, game.position_hashes()) {
                    let ch = self.nodes[node].children();
                    let child = self.rng.gen_range(ch);
                    apply(&mut board, &mut to_move, &mut passes, self.nodes[child].mv);
                    path.push(child);
                    if passes >= 2 {
                        break count(&board, rules.scoring, komi);
                    }
                }
                break playout(
                    &mut board,
                    to_move,
                    passes,
                    self.params.policy,
                    rules.scoring,
                    komi,
                    &mut self.rng,
                    None,
                )
                .margin;
            }
            node = self.select(node);
            apply(&mut board, &mut to_move, &mut passes, self.nodes[node].mv);
            self.path_hashes.push(board.hash());
            path.push(node);
        };
        let winner = if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        for &i in &path {
            let n = &mut self.nodes[i];
            n.visits += 1;
            n.wins += match winner {
                Some(c) if c == n.color => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
    }

    /// Searches `game` for `color` until the budget ends or `max_playouts` iterations ran.
    pub fn search(&mut self, game: &Game, color: Color, budget: &Budget) -> SearchSummary {
        let start = Instant::now();
        self.ko = game.rules().ko;
        self.prepare_root(game, color);
        let board = game.board().clone();
        // A finished game that is asked for another move goes on (GTP has no game-over).
        let passes = game.passes().min(1);
        let mut playouts = 0u64;
        let max = self.params.max_playouts;
        loop {
            if max > 0 && playouts >= max {
                break;
            }
            if playouts % 16 == 0 && budget.expired() {
                break;
            }
            self.iterate(game, &board, color, passes);
            playouts += 1;
        }
        let moves = self.root_moves(game.size());
        let decision = match moves.first() {
            Some(best) if best.visits > 0 => {
                let lost = self.params.resign_threshold > 0.0
                    && best.winrate < self.params.resign_threshold
                    && self.nodes[0].visits >= 1000;
                if lost {
                    Decision::Resign
                } else {
                    Decision::Play(best.mv)
                }
            }
            _ => Decision::Play(self.fallback_move(game, color)),
        };
        SearchSummary {
            decision,
            playouts,
            root_visits: self.nodes.first().map_or(0, |n| n.visits),
            elapsed: start.elapsed(),
            moves,
        }
    }

    /// A legal move when the search had no time at all: a policy move or pass.
    fn fallback_move(&mut self, game: &Game, color: Color) -> Move {
        let board = game.board();
        let start = self.rng.gen_range(0..=board.empty_points().len());
        let empty = board.empty_points();
        for k in 0..empty.len() {
            let p = empty[(start + k) % empty.len()] as Point;
            let mv = Move::Play(Board::vertex_of(p));
            if !board.is_eye(color, p) && game.is_legal(color, mv) {
                return mv;
            }
        }
        Move::Pass
    }

    /// Root children sorted by visits then wins, with their principal variations.
    pub fn root_moves(&self, _size: usize) -> Vec<MoveStat> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        let mut kids: Vec<usize> = root.children().collect();
        kids.sort_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            y.visits.cmp(&x.visits).then(
                y.wins
                    .partial_cmp(&x.wins)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
        });
        kids.into_iter()
            .map(|i| {
                let n = &self.nodes[i];
                MoveStat {
                    mv: n.mv,
                    visits: n.visits,
                    winrate: n.winrate(),
                    pv: self.pv(i),
                }
            })
            .collect()
    }

    fn pv(&self, mut node: usize) -> Vec<Move> {
        let mut out = vec![self.nodes[node].mv];
        while out.len() < 30 {
            let n = &self.nodes[node];
            let best = n
                .children()
                .filter(|&i| self.nodes[i].visits > 0)
                .max_by_key(|&i| self.nodes[i].visits);
            match best {
                Some(b) => {
                    out.push(self.nodes[b].mv);
                    node = b;
                }
                None => break,
            }
        }
        out
    }

    /// Ownership of every point from `playouts` light playouts of the current position:
    /// +1 always Black's, -1 always White's. Indexed `row * size + col`.
    pub fn ownership(&mut self, game: &Game, playouts: u32) -> Vec<f64> {
        let size = game.size();
        let mut own = vec![0.0; size * size];
        let playouts = playouts.max(1);
        for _ in 0..playouts {
            let mut b = game.board().clone();
            playout(
                &mut b,
                game.to_move(),
                game.passes().min(1),
                PlayoutPolicy::Light,
                game.rules().scoring,
                0.0,
                &mut self.rng,
                None,
            );
            for (i, o) in own.iter_mut().enumerate() {
                let p = Board::point_of(Vertex::new(i % size, i / size));
                *o += match owner(&b, p) {
                    Some(Color::Black) => 1.0,
                    Some(Color::White) => -1.0,
                    None => 0.0,
                };
            }
        }
        own.iter_mut().for_each(|o| *o /= playouts as f64);
        own
    }

    /// Chains judged dead: on average owned by the opponent in the playouts. One `Vec` per
    /// chain, vertices sorted.
    pub fn dead_stones(&mut self, game: &Game, playouts: u32) -> Vec<Vec<Vertex>> {
        let own = self.ownership(game, playouts);
        let size = game.size();
        let board = game.board();
        let mut seen = vec![false; size * size];
        let mut out = Vec::new();
        for p in board.points() {
            let v = Board::vertex_of(p);
            let idx = v.row() * size + v.col();
            let Some(c) = board.cell(p).color() else {
                continue;
            };
            if seen[idx] {
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
            if mean < 0.0 {
                verts.sort();
                out.push(verts);
            }
        }
        out
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

    fn params(policy: PlayoutPolicy, playouts: u64, expand: u32, c: f64) -> SearchParams {
        SearchParams {
            uct_c: c,
            expand_threshold: expand,
            max_playouts: playouts,
            policy,
            resign_threshold: 0.0,
            seed: 42,
            reuse_tree: true,
            max_nodes: 1 << 20,
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
    /// ranks the centre first even here; see the closing note of issue 2.)
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
        let root = p.nodes[0];
        for i in root.children() {
            let n = p.nodes[i];
            assert_eq!(n.num_children > 0, n.visits > 30, "visits {}", n.visits);
        }
    }

    #[test]
    fn final_move_is_most_visited_then_most_wins() {
        let g = game(5, Scoring::Area, 0.5);
        let mut p = Player::new(params(PlayoutPolicy::Light, 1, 2, 1.0));
        p.search(&g, Color::Black, &far_budget());
        let kids: Vec<usize> = p.nodes[0].children().collect();
        for &k in &kids {
            p.nodes[k].visits = 3;
            p.nodes[k].wins = 1.0;
        }
        p.nodes[kids[4]].wins = 2.0;
        p.nodes[kids[7]].visits = 2;
        p.nodes[kids[7]].wins = 2.0;
        let moves = p.root_moves(5);
        assert_eq!(moves[0].mv, p.nodes[kids[4]].mv);
        assert_eq!(moves.last().map(|m| m.mv), Some(p.nodes[kids[7]].mv));
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
        let reply_visits = {
            let root = p.nodes[0];
            let chosen = root.children().find(|&i| p.nodes[i].mv == mv).unwrap_or(0);
            p.nodes[chosen]
                .children()
                .find(|&i| p.nodes[i].mv == reply)
                .map_or(0, |i| p.nodes[i].visits)
        };
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
        let mut p = Player::new(params(PlayoutPolicy::Light, 0, 2, 0.7));
        let start = Instant::now();
        let budget = Budget::new(start + Duration::from_millis(200), CancelFlag::new());
        let s = p.search(&g, Color::Black, &budget);
        assert!(
            start.elapsed() < Duration::from_millis(400),
            "{:?}",
            start.elapsed()
        );
        assert!(matches!(s.decision, Decision::Play(_)));
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
