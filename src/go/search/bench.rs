//! Speed measurements: raw playouts from the empty board, as libego and Pachi measure it
//! (light by default; any policy through `bench_playouts_with`), and the full search
//! (`bench_search`: tree, priors, RAVE and playouts together, on the configured threads).

use super::playout::{PlayoutPolicy, playout};
use super::{Player, SearchParams};
use crate::budget::{Budget, CancelFlag};
use crate::go::Color;
use crate::go::board::Board;
use crate::go::game::Scoring;
use crate::go::game::{Game, Rules};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use std::time::{Duration, Instant};

#[derive(Clone, Debug, Serialize)]
pub struct BenchResult {
    pub size: usize,
    pub threads: usize,
    pub seconds: f64,
    pub playouts: u64,
    pub playouts_per_second: f64,
    pub playouts_per_second_per_thread: f64,
    pub moves_per_playout: f64,
    pub seed: u64,
    /// "random", "light" or "heavy".
    pub policy: &'static str,
}

/// Runs light playouts on `threads` threads for `seconds` and reports the rate.
pub fn bench_playouts(size: usize, seconds: f64, threads: usize, seed: u64) -> BenchResult {
    bench_playouts_with(PlayoutPolicy::Light, size, seconds, threads, seed)
}

/// Runs `policy` playouts on `threads` threads for `seconds` and reports the rate.
pub fn bench_playouts_with(
    policy: PlayoutPolicy,
    size: usize,
    seconds: f64,
    threads: usize,
    seed: u64,
) -> BenchResult {
    let threads = threads.max(1);
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let start = Instant::now();
    let totals: Vec<(u64, u64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_add(t as u64));
                    let empty = Board::new(size);
                    let (mut n, mut moves) = (0u64, 0u64);
                    while n == 0 || start.elapsed() < budget {
                        for _ in 0..64 {
                            let mut b = empty.clone();
                            let r = playout(
                                &mut b,
                                Color::Black,
                                0,
                                policy,
                                Scoring::Area,
                                7.5,
                                &mut rng,
                                None,
                            );
                            moves += r.moves as u64;
                            n += 1;
                        }
                    }
                    (n, moves)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or((0, 0)))
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    let playouts: u64 = totals.iter().map(|t| t.0).sum();
    let moves: u64 = totals.iter().map(|t| t.1).sum();
    let rate = playouts as f64 / elapsed;
    BenchResult {
        size,
        threads,
        seconds: elapsed,
        playouts,
        playouts_per_second: rate,
        playouts_per_second_per_thread: rate / threads as f64,
        moves_per_playout: moves as f64 / playouts.max(1) as f64,
        seed,
        policy: policy.name(),
    }
}

/// Full-search speed from the empty board.
#[derive(Clone, Debug, Serialize)]
pub struct SearchBenchResult {
    pub size: usize,
    pub threads: usize,
    pub seconds: f64,
    pub playouts: u64,
    pub playouts_per_second: f64,
    pub playouts_per_second_per_thread: f64,
    pub tree_nodes: usize,
    pub policy: &'static str,
    pub rave: bool,
    pub priors: bool,
}

/// One search of `params` (early stop off, no playout cap) for Black on the empty
/// `size`×`size` board under area scoring, for `seconds`, and its rate. `Err` names an
/// unusable size.
pub fn bench_search(
    size: usize,
    seconds: f64,
    mut params: SearchParams,
) -> Result<SearchBenchResult, String> {
    let game = Game::new(size, Rules::default()).map_err(|e| e.to_string())?;
    params.early_stop = false;
    params.max_playouts = 0;
    let threads = params.threads.max(1);
    let (policy, rave, priors) = (params.policy, params.rave_equiv > 0.0, params.priors);
    let mut player = Player::new(params);
    let deadline = Instant::now() + Duration::from_secs_f64(seconds.max(0.001));
    let summary = player.search(
        &game,
        Color::Black,
        &Budget::new(deadline, CancelFlag::new()),
    );
    let elapsed = summary.elapsed.as_secs_f64().max(1e-9);
    let rate = summary.playouts as f64 / elapsed;
    Ok(SearchBenchResult {
        size,
        threads,
        seconds: elapsed,
        playouts: summary.playouts,
        playouts_per_second: rate,
        playouts_per_second_per_thread: rate / threads as f64,
        tree_nodes: summary.tree_nodes,
        policy: policy.name(),
        rave,
        priors,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn bench_reports_a_rate() {
        let r = super::bench_playouts(9, 0.05, 1, 1);
        assert!(r.playouts >= 64);
        assert!(r.playouts_per_second > 0.0);
        assert!(r.moves_per_playout > 50.0 && r.moves_per_playout < 3.0 * 81.0 + 20.0);
        eprintln!("{}", serde_json::to_string(&r).unwrap_or_default());
    }

    #[test]
    fn search_bench_reports_a_rate() {
        let params = super::SearchParams {
            threads: 2,
            ..super::SearchParams::default()
        };
        let r = super::bench_search(9, 0.1, params).unwrap();
        assert!(r.playouts > 0 && r.tree_nodes > 1, "{r:?}");
        assert_eq!(r.threads, 2);
        assert!(super::bench_search(1, 0.1, super::SearchParams::default()).is_err());
    }

    /// Heavy against light playouts per second on 9×9, one thread. Meant for release mode:
    /// `cargo test --release --lib heavy_vs_light -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn heavy_vs_light_rates() {
        use super::super::playout::PlayoutPolicy;
        for policy in [PlayoutPolicy::Light, PlayoutPolicy::Heavy] {
            let r = super::bench_playouts_with(policy, 9, 3.0, 1, 1);
            println!("{}", serde_json::to_string(&r).unwrap_or_default());
        }
    }
}
