//! One MCTS iteration: descent through the tree, expansion of a leaf, the playout from it,
//! and the backup of the result (visits, wins and AMAF statistics).

use super::driver::{Shared, Worker};
use super::endgame::owner_signs;
use super::mm::Table;
use super::playout::{PlayoutPolicy, count, playout_with};
use super::priors;
use super::select::select;
use super::tree::Node;
use crate::go::board::{Board, Point};
use crate::go::game::KoRule;
use crate::go::{Color, Move};
use std::sync::atomic::Ordering::Relaxed;

/// Creates the children of `node` for `to_move` on `board`.
fn expand(
    node: &Node,
    board: &Board,
    to_move: Color,
    last: [Option<Point>; 2],
    shared: &Shared,
    w: &Worker,
) -> bool {
    let superko = shared.game.rules().ko == KoRule::Positional;
    let history = shared.game.position_hashes();
    let mut points = Vec::with_capacity(board.empty_points().len());
    for p in board.points() {
        if !board.is_legal(to_move, p) {
            continue;
        }
        if shared.params.policy != PlayoutPolicy::Random && board.is_eye(to_move, p) {
            continue;
        }
        if superko {
            let h = board.hash_after(to_move, p);
            if history.contains(&h) || w.path_hashes.contains(&h) {
                continue;
            }
        }
        points.push(p);
    }
    let prior_params = &shared.params.prior_params;
    let mut learned = Vec::new();
    if shared.params.priors && prior_params.mm > 0 {
        let table: &Table = match &shared.params.mm_table {
            Some(t) => t,
            None => Table::builtin(),
        };
        priors::mm_visits(
            table,
            board,
            to_move,
            &points,
            last,
            prior_params.mm,
            &mut learned,
        );
    }
    let mut kids = Vec::with_capacity(points.len() + 1);
    for (i, &p) in points.iter().enumerate() {
        let mut kid = Node::new(Move::Play(Board::vertex_of(p)), to_move);
        if shared.params.priors {
            let pr = priors::prior(board, to_move, p, last[0], prior_params);
            let extra = learned.get(i).copied().unwrap_or(0);
            kid.prior_visits = pr.visits + extra;
            kid.prior_wins = pr.wins + extra;
        }
        kids.push(kid);
    }
    kids.push(Node::new(Move::Pass, to_move));
    shared.nodes.fetch_add(kids.len(), Relaxed);
    node.children.set(kids.into_boxed_slice()).is_ok()
}

/// One MCTS iteration from the root position.
pub(super) fn iterate(root: &Node, shared: &Shared, w: &mut Worker) {
    let params = shared.params;
    let scoring = shared.game.rules().scoring;
    let mut board = shared.board.clone();
    let mut to_move = shared.to_move;
    let mut passes = shared.passes;
    let mut path: Vec<&Node> = Vec::with_capacity(64);
    w.path_hashes.clear();
    w.played.clear();
    let mut node = root;
    path.push(node);
    let margin = loop {
        let children = match node.children.get() {
            Some(c) => c,
            None => {
                if passes >= 2 {
                    break count(&board, scoring, shared.komi);
                }
                let may_expand = std::ptr::eq(node, root)
                    || (node.visits() >= params.expand_threshold
                        && shared.nodes.load(Relaxed) < params.max_nodes);
                let expanded = may_expand
                    && node
                        .expanding
                        .compare_exchange(false, true, Relaxed, Relaxed)
                        .is_ok()
                    && expand(node, &board, to_move, last_moves(shared, w), shared, w);
                if !expanded {
                    break run_playout(&mut board, to_move, passes, shared, w);
                }
                let Some(c) = node.children.get() else {
                    break run_playout(&mut board, to_move, passes, shared, w);
                };
                let child = select(node, c, shared, w, std::ptr::eq(node, root));
                child.virtual_loss.fetch_add(params.virtual_loss, Relaxed);
                apply(&mut board, &mut to_move, &mut passes, child.mv);
                w.played.push((child.color, child.mv));
                path.push(child);
                if passes >= 2 {
                    break count(&board, scoring, shared.komi);
                }
                break run_playout(&mut board, to_move, passes, shared, w);
            }
        };
        let child = select(node, children, shared, w, std::ptr::eq(node, root));
        child.virtual_loss.fetch_add(params.virtual_loss, Relaxed);
        apply(&mut board, &mut to_move, &mut passes, child.mv);
        w.path_hashes.push(board.hash());
        w.played.push((child.color, child.mv));
        path.push(child);
        node = child;
    };
    let winner = Color::winner_by_margin(margin);
    let gain = |c: Color| match winner {
        Some(x) if x == c => 2,
        Some(_) => 0,
        None => 1,
    };
    for (i, n) in path.iter().enumerate() {
        n.stats.add(gain(n.color));
        if i > 0 {
            n.virtual_loss.fetch_sub(params.virtual_loss, Relaxed);
        }
    }
    if params.rave_equiv > 0.0 {
        update_amaf(&path, w, &gain);
    }
}

/// The points of the last two moves before the current tree position (None for passes).
fn last_moves(shared: &Shared, w: &Worker) -> [Option<Point>; 2] {
    let mut it = w
        .played
        .iter()
        .rev()
        .map(|&(_, m)| move_point(m))
        .chain(shared.game_last);
    [it.next().flatten(), it.next().flatten()]
}

/// The point of a move (None for a pass).
pub(super) fn move_point(m: Move) -> Option<Point> {
    match m {
        Move::Play(v) => Some(Board::point_of(v)),
        Move::Pass => None,
    }
}

/// A playout from the tree position; records ownership and last good replies when asked to.
fn run_playout(
    board: &mut Board,
    to_move: Color,
    passes: u32,
    shared: &Shared,
    w: &mut Worker,
) -> f64 {
    let history = last_moves(shared, w);
    let lgr = shared.params.last_good_reply;
    let amaf = (shared.params.rave_equiv > 0.0 || lgr).then_some(&mut w.played);
    let margin = playout_with(
        board,
        to_move,
        passes,
        history,
        shared.params.policy,
        &shared.params.heavy,
        lgr.then_some(&w.lgr),
        shared.game.rules().scoring,
        shared.komi,
        &mut w.rng,
        amaf,
    )
    .margin;
    if lgr {
        w.lgr.update(&w.played, Color::winner_by_margin(margin));
    }
    if !shared.ownership.is_empty() {
        for (o, sign) in shared.ownership.iter().zip(owner_signs(board)) {
            o.fetch_add(sign, Relaxed);
        }
        shared.ownership_count.fetch_add(1, Relaxed);
    }
    margin
}

/// AMAF backup: for every node on the path, each child whose point was played first (below
/// that node) by the child's colour gets an AMAF visit with the result for that colour.
fn update_amaf(path: &[&Node], w: &mut Worker, gain: &dyn Fn(Color) -> u32) {
    let first = &mut w.first;
    let mut touched: Vec<Point> = Vec::with_capacity(w.played.len());
    // `played` holds the tree moves below the root, then the playout moves.
    let depth = path.len() - 1;
    let mark = |first: &mut Vec<u8>, touched: &mut Vec<Point>, c: Color, m: Move| {
        if let Move::Play(v) = m {
            let p = Board::point_of(v);
            first[p] = 1 + c.index() as u8;
            touched.push(p);
        }
    };
    for &(c, m) in w.played[depth..].iter().rev() {
        mark(first, &mut touched, c, m);
    }
    for d in (0..depth).rev() {
        // Moves from path[d+1] on are in the map; update path[d]'s children.
        let (c, m) = w.played[d];
        mark(first, &mut touched, c, m);
        for child in path[d].children() {
            if let Move::Play(v) = child.mv {
                let p = Board::point_of(v);
                if first[p] == 1 + child.color.index() as u8 {
                    child.amaf.add_lossy(gain(child.color));
                }
            }
        }
    }
    for p in touched {
        first[p] = 0;
    }
}

/// Plays `mv` for `to_move` on `board` and passes the turn.
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
