//! The end of the game: ownership and dead stones from heavy playouts that play the position
//! out, the final score, and the rules that keep a search from passing while dead stones are
//! left to capture or while the opponent has not passed.

use super::Player;
use super::analysis::MoveStat;
use super::deadshape::square_fours;
use super::player::SearchOptions;
use super::playout::{PlayoutPolicy, playout_with};
use crate::budget::Budget;
use crate::go::board::{Board, CELLS, Point};
use crate::go::game::{Game, Scoring};
use crate::go::scoring::score;
use crate::go::{Color, Move, Vertex};
use std::time::Instant;

/// Heavy playouts behind a dead-stone estimate (GTP `final_status_list`, `final_score`, the
/// cleanup and end-of-game checks).
pub const DEAD_STONE_PLAYOUTS: u32 = 600;

/// A chain is surely dead when the opponent owns it in at least 80% of the dead-stone
/// playouts (mean ownership below -0.6).
const SURELY_DEAD: f64 = 0.6;

impl Player {
    /// The opponent's chains that keep this search from passing, and `options` with
    /// `forbid_pass` set when there are any. Under area scoring capturing dead stones costs
    /// nothing, so our pass does not end the game while the opponent has stones we judge surely
    /// dead: the search then leaves pass out. Cleanup does the same for any stone judged dead.
    /// One estimate serves both, and it gets at most half of the time left.
    pub(super) fn dead_before_passing(
        &mut self,
        game: &Game,
        color: Color,
        budget: &Budget,
        options: SearchOptions,
        start: Instant,
    ) -> (SearchOptions, Vec<Vec<Vertex>>) {
        let mut options = options;
        let mut dead = Vec::new();
        let end_check =
            options.cleanup || (opponent_passed(game) && game.rules().scoring == Scoring::Area);
        if !options.forbid_pass && end_check {
            let until = start + budget.deadline.saturating_duration_since(start) / 2;
            let margin = if options.cleanup { 0.0 } else { SURELY_DEAD };
            dead = self.dead_chains_of(game, color.opponent(), margin, Some(until));
            options.forbid_pass = !dead.is_empty();
        }
        (options, dead)
    }
}

impl Player {
    /// Ownership of every point from `playouts` heavy playouts of the current position:
    /// +1 always Black's, -1 always White's. Indexed `row * size + col`.
    ///
    /// The playouts start as if nobody had passed, even after two passes: a finished game is
    /// scored by playing it out, so stones in atari get captured and open kos get fought. The
    /// heavy policy captures and escapes ataris and avoids self-atari, which light random
    /// playouts do not; on 484 finished 9×9 games it agrees with GNU Go's dead stones in 476
    /// (light playouts continuing the pass count: 467).
    pub fn ownership(&mut self, game: &Game, playouts: u32) -> Vec<f64> {
        self.ownership_until(game, playouts, None)
    }

    /// `ownership` that stops early at `until` (after at least one playout).
    fn ownership_until(&mut self, game: &Game, playouts: u32, until: Option<Instant>) -> Vec<f64> {
        let size = game.size();
        let mut own = vec![0.0; size * size];
        let mut done = 0u32;
        while done < playouts.max(1) {
            if done > 0 && until.is_some_and(|t| Instant::now() >= t) {
                break;
            }
            done += 1;
            let mut b = game.board().clone();
            playout_with(
                &mut b,
                game.to_move(),
                0,
                [None, None],
                PlayoutPolicy::Heavy,
                &self.params.heavy,
                None,
                game.rules().scoring,
                0.0,
                &mut self.rng,
                None,
            );
            for (o, sign) in own.iter_mut().zip(owner_signs(&b)) {
                *o += sign as f64;
            }
        }
        own.iter_mut().for_each(|o| *o /= done as f64);
        own
    }

    /// Chains judged dead: on average owned by the opponent in the playouts. One `Vec` per
    /// chain, vertices sorted.
    pub fn dead_stones(&mut self, game: &Game, playouts: u32) -> Vec<Vec<Vertex>> {
        self.dead_stones_until(game, playouts, None, 0.0)
    }

    /// `dead_stones` from at most `playouts` playouts that stop early at `until`, keeping the
    /// chains whose mean ownership is below `-margin` (0: owned by the opponent more often
    /// than not), and the chains of square-four groups (`dead_by_shape`).
    fn dead_stones_until(
        &mut self,
        game: &Game,
        playouts: u32,
        until: Option<Instant>,
        margin: f64,
    ) -> Vec<Vec<Vertex>> {
        let own = self.ownership_until(game, playouts, until);
        let board = game.board();
        let mut seen = vec![false; CELLS];
        let mut out = Vec::new();
        for p in board.points() {
            if seen[p] || board.cell(p).color().is_none() {
                continue;
            }
            let chain = board.chain(p);
            for &q in &chain {
                seen[q] = true;
            }
            if held(board, &own, &chain) < -margin {
                out.push(sorted_vertices(&chain));
            }
        }
        for chain in dead_by_shape(board, &own) {
            let chain = sorted_vertices(&chain);
            if !out.contains(&chain) {
                out.push(chain);
            }
        }
        out
    }

    /// The chains of `color` in the dead-stone estimate (`DEAD_STONE_PLAYOUTS` playouts,
    /// stopping early at `until`) whose mean ownership is below `-margin`.
    fn dead_chains_of(
        &mut self,
        game: &Game,
        color: Color,
        margin: f64,
        until: Option<Instant>,
    ) -> Vec<Vec<Vertex>> {
        let board = game.board();
        let mut chains = self.dead_stones_until(game, DEAD_STONE_PLAYOUTS, until, margin);
        chains.retain(|c| c.first().is_some_and(|v| board.get(*v) == Some(color)));
        chains
    }

    /// The final score with estimated dead stones removed (GTP `final_score`).
    pub fn final_score(&mut self, game: &Game, playouts: u32) -> crate::go::scoring::Score {
        let dead: Vec<Vertex> = self
            .dead_stones(game, playouts)
            .into_iter()
            .flatten()
            .collect();
        score(game, &dead)
    }
}

/// Mean ownership `own` (board vertices, +1 Black) of `chain` from its own colour's view:
/// +1 always its own, -1 always the opponent's.
fn held(board: &Board, own: &[f64], chain: &[Point]) -> f64 {
    let Some(c) = chain.first().and_then(|&p| board.cell(p).color()) else {
        return 0.0;
    };
    let sign = if c == Color::Black { 1.0 } else { -1.0 };
    let size = board.size();
    let sum: f64 = chain
        .iter()
        .map(|&q| {
            let v = Board::vertex_of(q);
            own[v.row() * size + v.col()] * sign
        })
        .sum();
    sum / chain.len() as f64
}

/// The vertices of `chain`, sorted.
fn sorted_vertices(chain: &[Point]) -> Vec<Vertex> {
    let mut verts: Vec<Vertex> = chain.iter().map(|&q| Board::vertex_of(q)).collect();
    verts.sort();
    verts
}

/// The chains of square-four groups (`deadshape`) whose surrounding chains are safe: at least
/// two liberties each, and held by their owner in at least three playouts in four (mean
/// ownership ≥ 0.5). A square four inside a wall that the playouts themselves can capture is
/// a capturing race, left to the playouts.
fn dead_by_shape(board: &Board, own: &[f64]) -> Vec<Vec<Point>> {
    const SAFE_WALL: f64 = 0.5;
    square_fours(board)
        .into_iter()
        .filter(|g| {
            g.neighbours.iter().all(|&n| {
                board.liberties(n).len() >= 2 && held(board, own, &board.chain(n)) >= SAFE_WALL
            })
        })
        .flat_map(|g| g.chains)
        .collect()
}

/// Whether the opponent of the player to move just passed.
pub(super) fn opponent_passed(game: &Game) -> bool {
    game.last_move().is_some_and(|(_, m)| m == Move::Pass)
}

/// Fewest visits that make a liberty move's win rate count in [`prefer_capturing`].
const CAPTURE_MIN_VISITS: u32 = 64;

/// A search told to capture `dead` chains before passing plays on one of their liberties
/// when such a move is as good as the best as far as the playouts can tell: at least
/// [`CAPTURE_MIN_VISITS`] visits (or a quarter of the best's, if fewer), and a win rate below
/// the best's by no more than 2 % or two standard errors of the difference, whichever is
/// larger. In a settled position every move wins about equally often and the search spreads
/// its visits over them, so a fixed margin would leave the choice to noise. With the opponent
/// passing, every other move only delays the capture, and under territory scoring it may fill
/// the player's own territory.
pub(super) fn prefer_capturing(moves: &mut [MoveStat], game: &Game, dead: &[Vec<Vertex>]) {
    let Some(best) = moves.first() else {
        return;
    };
    let liberties: Vec<Point> = dead
        .iter()
        .filter_map(|c| c.first())
        .flat_map(|v| game.board().liberties(Board::point_of(*v)))
        .collect();
    let on_dead = |m: &MoveStat| match m.mv {
        Move::Play(v) => liberties.contains(&Board::point_of(v)),
        Move::Pass => false,
    };
    if liberties.is_empty() || on_dead(best) {
        return;
    }
    let visits = (best.visits / 4).clamp(1, CAPTURE_MIN_VISITS);
    let variance = |m: &MoveStat| m.winrate * (1.0 - m.winrate) / f64::from(m.visits.max(1));
    let as_good = |m: &MoveStat| {
        let margin = (2.0 * (variance(best) + variance(m)).sqrt()).max(0.02);
        best.winrate - m.winrate <= margin
    };
    if let Some(i) = moves
        .iter()
        .position(|m| m.visits >= visits && on_dead(m) && as_good(m))
    {
        moves[..=i].rotate_right(1);
    }
}

/// Passing first ends nothing and hands the opponent a free move: when pass comes out on top
/// but the opponent did not just pass, a move within 5% of pass's win rate is played instead.
pub(super) fn prefer_playing_on(moves: &mut [MoveStat], game: &Game) {
    if opponent_passed(game) || moves.first().is_none_or(|m| m.mv != Move::Pass) {
        return;
    }
    let pass_rate = moves[0].winrate;
    if let Some(i) = moves
        .iter()
        .position(|m| m.mv != Move::Pass && m.visits > 0 && m.winrate >= pass_rate - 0.05)
    {
        moves[..=i].rotate_right(1);
    }
}

/// +1 (Black owns), -1 (White owns) or 0 for every point, indexed `row * size + col`.
pub(super) fn owner_signs(b: &Board) -> impl Iterator<Item = i64> + '_ {
    let size = b.size();
    (0..size * size).map(move |i| {
        match owner(b, Board::point_of(Vertex::new(i % size, i / size))) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        }
    })
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
