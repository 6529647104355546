//! Playouts: play a scratch board to the end with a cheap policy and count the result.
//!
//! - `Random` is the thesis's policy: uniform over every legal move *and* pass, eyes included,
//!   until two consecutive passes. tablero adds the move cap so that it always ends.
//! - `Light` is uniform over legal moves that do not fill the mover's own eye; a side passes
//!   only when it has no such move (the libego/michi baseline).
//! - `Heavy` answers the last moves first (captures, atari escapes, 3×3 patterns, self-atari
//!   rejection; `policy::heavy_move` with `HeavyParams::DEFAULT`), then plays like `Light`.
//!
//! All use simple ko only (positional superko is enforced in the tree, not in playouts).

use super::policy;
use crate::go::board::{Board, Point};
use crate::go::game::Scoring;
use crate::go::{Color, Move};
use rand::Rng;

/// How playouts choose moves (in configurations: "random", "light" or "heavy").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayoutPolicy {
    Random,
    Light,
    Heavy,
}

impl PlayoutPolicy {
    /// The config name: "random", "light" or "heavy".
    pub fn name(self) -> &'static str {
        match self {
            PlayoutPolicy::Random => "random",
            PlayoutPolicy::Light => "light",
            PlayoutPolicy::Heavy => "heavy",
        }
    }
}

impl std::str::FromStr for PlayoutPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(PlayoutPolicy::Random),
            "light" => Ok(PlayoutPolicy::Light),
            "heavy" => Ok(PlayoutPolicy::Heavy),
            other => Err(format!(
                "unknown playout policy {other:?} (expected \"random\", \"light\" or \"heavy\")"
            )),
        }
    }
}

/// Picks the policy's move for `color`, or `None` for a pass (no knowledge of earlier moves).
#[inline]
pub fn pick_move<R: Rng>(
    board: &Board,
    color: Color,
    policy: PlayoutPolicy,
    rng: &mut R,
) -> Option<Point> {
    pick_move_after(board, color, policy, [None, None], rng)
}

/// Picks the policy's move for `color` after `history = [last, last2]`: the opponent's last
/// move and the mover's previous one (`None` for a pass or unknown). Only `Heavy` uses them.
#[inline]
pub fn pick_move_after<R: Rng>(
    board: &Board,
    color: Color,
    policy: PlayoutPolicy,
    history: [Option<Point>; 2],
    rng: &mut R,
) -> Option<Point> {
    pick_move_with(
        board,
        color,
        policy,
        &policy::HeavyParams::DEFAULT,
        None,
        history,
        rng,
    )
}

/// `pick_move_after` with the heavy policy's knobs and an optional last-good-reply table.
#[inline]
pub fn pick_move_with<R: Rng>(
    board: &Board,
    color: Color,
    policy: PlayoutPolicy,
    heavy: &policy::HeavyParams,
    lgr: Option<&policy::LastGoodReply>,
    history: [Option<Point>; 2],
    rng: &mut R,
) -> Option<Point> {
    let empty = board.empty_points();
    let n = empty.len();
    match policy {
        PlayoutPolicy::Heavy => {
            policy::heavy_move_with(board, color, history[0], history[1], heavy, lgr, rng)
        }
        PlayoutPolicy::Light => {
            if n == 0 {
                return None;
            }
            // From a random start to the end, then from the beginning.
            let start = rng.gen_range(0..n);
            for &p in empty[start..].iter().chain(&empty[..start]) {
                if board.is_playable(color, p as Point) {
                    return Some(p as Point);
                }
            }
            None
        }
        PlayoutPolicy::Random => {
            // Uniform over the legal moves plus pass: draw from the empty points and pass
            // together and redraw illegal ones (rejection keeps the distribution uniform).
            let mut legal: Vec<Point> = Vec::new();
            let mut tries = 0;
            loop {
                let k = rng.gen_range(0..=n);
                if k == n {
                    return None;
                }
                let p = empty[k] as Point;
                if board.is_legal(color, p) {
                    return Some(p);
                }
                tries += 1;
                if tries > 8 {
                    break;
                }
            }
            legal.extend(
                empty
                    .iter()
                    .map(|&p| p as Point)
                    .filter(|&p| board.is_legal(color, p)),
            );
            let k = rng.gen_range(0..=legal.len());
            legal.get(k).copied()
        }
    }
}

/// Result of one playout.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutResult {
    /// Black's points minus White's (komi included), under the counting rule asked for.
    pub margin: f64,
    /// Moves played in the playout (passes included).
    pub moves: u32,
}

/// Plays `board` to the end from `to_move` with `passes` consecutive passes already made.
/// Points played are written to `amaf` (the colour and point of each move) when it is given.
#[allow(clippy::too_many_arguments)]
pub fn playout<R: Rng>(
    board: &mut Board,
    to_move: Color,
    passes: u32,
    policy: PlayoutPolicy,
    scoring: Scoring,
    komi: f64,
    rng: &mut R,
    amaf: Option<&mut Vec<(Color, Move)>>,
) -> PlayoutResult {
    playout_after(
        board,
        to_move,
        passes,
        [None, None],
        policy,
        scoring,
        komi,
        rng,
        amaf,
    )
}

/// `playout` that knows the moves that led to `board`: `history = [last, last2]`, the last
/// move (by the opponent of `to_move`) and the one before (`None` for a pass). The search
/// should pass the last two tree moves so that the heavy policy can answer them.
#[allow(clippy::too_many_arguments)]
pub fn playout_after<R: Rng>(
    board: &mut Board,
    to_move: Color,
    passes: u32,
    history: [Option<Point>; 2],
    policy: PlayoutPolicy,
    scoring: Scoring,
    komi: f64,
    rng: &mut R,
    amaf: Option<&mut Vec<(Color, Move)>>,
) -> PlayoutResult {
    playout_with(
        board,
        to_move,
        passes,
        history,
        policy,
        &policy::HeavyParams::DEFAULT,
        None,
        scoring,
        komi,
        rng,
        amaf,
    )
}

/// `playout_after` with the heavy policy's knobs and an optional last-good-reply table (the
/// search passes the configured ones).
#[allow(clippy::too_many_arguments)]
pub fn playout_with<R: Rng>(
    board: &mut Board,
    mut to_move: Color,
    mut passes: u32,
    history: [Option<Point>; 2],
    policy: PlayoutPolicy,
    heavy: &policy::HeavyParams,
    lgr: Option<&policy::LastGoodReply>,
    scoring: Scoring,
    komi: f64,
    rng: &mut R,
    mut amaf: Option<&mut Vec<(Color, Move)>>,
) -> PlayoutResult {
    let size = board.size();
    let cap = 3 * size * size + 20;
    let mut moves = 0u32;
    let mut history = history;
    while passes < 2 && (moves as usize) < cap {
        let mv = pick_move_with(board, to_move, policy, heavy, lgr, history, rng);
        history = [mv, history[0]];
        match mv {
            Some(p) => {
                board.play_unchecked(to_move, p);
                passes = 0;
                if let Some(a) = amaf.as_deref_mut() {
                    a.push((to_move, Move::Play(Board::vertex_of(p))));
                }
            }
            None => {
                board.pass();
                passes += 1;
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    PlayoutResult {
        margin: count(board, scoring, komi),
        moves,
    }
}

/// Black minus White on a final board, every stone alive (the thesis's counting).
#[inline]
pub fn count(board: &Board, scoring: Scoring, komi: f64) -> f64 {
    match scoring {
        Scoring::Area => board.area_difference() as f64 - komi,
        Scoring::Territory => {
            let (tb, tw) = board.territory_regions();
            (tb + board.captures(Color::Black)) as f64
                - (tw + board.captures(Color::White)) as f64
                - komi
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn light_playouts_end_without_filling_eyes() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for size in [5, 9, 19] {
            for _ in 0..20 {
                let mut b = Board::new(size);
                let r = playout(
                    &mut b,
                    Color::Black,
                    0,
                    PlayoutPolicy::Light,
                    Scoring::Area,
                    0.5,
                    &mut rng,
                    None,
                );
                b.validate().unwrap();
                assert!((r.moves as usize) < 3 * size * size + 20, "hit the cap");
                // At the end neither side has a legal non-eye move: every empty point is an
                // eye of someone or illegal for both.
                for &p in b.empty_points() {
                    let p = p as Point;
                    for c in Color::BOTH {
                        assert!(!b.is_legal(c, p) || b.is_eye(c, p));
                    }
                }
                // All points are owned by exactly one side in a finished light playout.
                let (bb, ww) = b.area();
                assert_eq!((bb + ww) as usize, size * size);
                assert_eq!(r.margin, bb as f64 - ww as f64 - 0.5);
            }
        }
    }

    #[test]
    fn random_playouts_end_and_are_seeded() {
        let run = |seed| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut b = Board::new(9);
            let r = playout(
                &mut b,
                Color::Black,
                0,
                PlayoutPolicy::Random,
                Scoring::Territory,
                0.5,
                &mut rng,
                None,
            );
            b.validate().unwrap();
            (r.moves, r.margin, b.hash())
        };
        assert_eq!(run(5), run(5));
        assert!(run(5).0 <= 3 * 81 + 20);
    }
    #[test]
    fn policy_names_parse() {
        assert_eq!("heavy".parse::<PlayoutPolicy>(), Ok(PlayoutPolicy::Heavy));
        assert_eq!("light".parse::<PlayoutPolicy>(), Ok(PlayoutPolicy::Light));
        assert_eq!("random".parse::<PlayoutPolicy>(), Ok(PlayoutPolicy::Random));
        assert!("moggy".parse::<PlayoutPolicy>().is_err());
    }

    #[test]
    fn heavy_playouts_end_legally_and_are_seeded() {
        let run = |seed, size| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut b = Board::new(size);
            let mut amaf = Vec::new();
            let r = playout(
                &mut b,
                Color::Black,
                0,
                PlayoutPolicy::Heavy,
                Scoring::Area,
                7.5,
                &mut rng,
                Some(&mut amaf),
            );
            b.validate().unwrap();
            assert!((r.moves as usize) < 3 * size * size + 20, "hit the cap");
            // Nothing left but eyes, illegal points and self-ataris of two or more stones.
            for &p in b.empty_points() {
                let p = p as Point;
                for c in Color::BOTH {
                    assert!(
                        !b.is_legal(c, p)
                            || b.is_eye(c, p)
                            || (b.is_self_atari(c, p) && b.chain_size_after(c, p) >= 2),
                        "{c:?} could still play {p}\n{b:?}"
                    );
                }
            }
            (r.moves, r.margin, b.hash(), amaf.len())
        };
        for size in [5, 9, 13] {
            for seed in 0..10 {
                run(seed, size);
            }
        }
        assert_eq!(run(3, 9), run(3, 9));
    }

    #[test]
    fn heavy_playout_answers_the_history() {
        // Black E5 in atari after white's E6 (white D5, F5, E6): a heavy playout from here
        // with the history starts with the escape E4 (the capture/escape steps run with
        // probability 0.9, so most seeds do).
        let mut base = Board::new(9);
        let at = |s: &str| Board::point_of(crate::go::Vertex::parse(s, 9).unwrap());
        base.play_unchecked(Color::Black, at("E5"));
        for s in ["D5", "F5", "E6"] {
            base.play_unchecked(Color::White, at(s));
        }
        let mut escapes = 0;
        for seed in 0..50 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut b = base.clone();
            let mut amaf = Vec::new();
            playout_after(
                &mut b,
                Color::Black,
                0,
                [Some(at("E6")), None],
                PlayoutPolicy::Heavy,
                Scoring::Area,
                7.5,
                &mut rng,
                Some(&mut amaf),
            );
            if amaf.first().map(|m| m.1) == Some(Move::Play(Board::vertex_of(at("E4")))) {
                escapes += 1;
            }
        }
        assert!(escapes >= 35, "escaped in {escapes}/50 playouts");
    }
}
