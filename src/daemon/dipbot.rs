//! Diplomacy bot seats: one registered bot ([`crate::bots::make`]) kept in
//! the games of a DAIDE server. A seat connects, joins (`NME`, or `IAM` with
//! the passcode after a dropped connection; an `IAM` the server refuses falls
//! back to a fresh `NME`), plays the game, and joins the next one; when the
//! server is unreachable or goes away it retries with exponential backoff,
//! each delay drawn between half and all of its nominal value (seeded by the
//! seat's seed and name), so that seats that lost one server do not return to
//! it in lock-step.
//! `tablero serve` runs one seat per `[[diplomacy.bots]]` entry;
//! `tablero diplomacy bot` runs one seat for one game.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use crate::bots;
use crate::daide::client::{ClientConfig, ClientError, Join, run_client_with};

/// One bot seat.
#[derive(Debug, Clone)]
pub struct BotSeat {
    /// DAIDE server, `HOST:PORT`.
    pub server: String,
    /// Registered bot name (`dumbbot`, …).
    pub bot: String,
    /// Name sent in `NME`.
    pub name: String,
    /// Power asked for (`TUR`): sent as the `TUR:name` prefix that the
    /// `diplomacy` server and tablero's own server understand.
    pub power: Option<String>,
    /// Seed of the bot's random choices (varied per game).
    pub seed: u64,
    /// Thinking time when the server sets no deadline.
    pub think_time: Duration,
    /// The `[jic]` section for JIC seats.
    pub jic: crate::bots::jic::JicConfig,
}

/// Reconnection delays: doubled after each failure, up to `max`.
#[derive(Debug, Clone, Copy)]
pub struct Backoff {
    /// First delay.
    pub initial: Duration,
    /// Longest delay.
    pub max: Duration,
}

/// Why a seat gave up.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    /// The bot name is not registered.
    #[error(transparent)]
    Bot(#[from] bots::BotError),
}

/// What a seat did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatReport {
    /// Games played to their end.
    pub games: usize,
    /// Connections made.
    pub connections: usize,
}

/// A delay between half and all of `d`.
fn jittered(d: Duration, rng: &mut Xoshiro256PlusPlus) -> Duration {
    d / 2 + d.mul_f64(rng.gen_range(0.0..=0.5))
}

async fn pause(d: Duration, cancel: &CancellationToken) -> bool {
    tokio::select! {
        () = tokio::time::sleep(d) => true,
        () = cancel.cancelled() => false,
    }
}

/// Runs the seat until `cancel`, or until one game has ended when `forever`
/// is false.
pub async fn run_seat(
    seat: &BotSeat,
    backoff: Backoff,
    forever: bool,
    cancel: CancellationToken,
) -> Result<SeatReport, SeatError> {
    bots::make(&seat.bot, seat.seed)?;
    let mut report = SeatReport::default();
    let mut delay = backoff.initial;
    let mut join = Join::Name;
    let name = match &seat.power {
        Some(p) => format!("{}:{}", p.to_ascii_uppercase(), seat.name),
        None => seat.name.clone(),
    };
    let mut attempt = 0u64;
    let name_hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seat.seed ^ name_hash);
    loop {
        if cancel.is_cancelled() {
            return Ok(report);
        }
        let stream = tokio::select! {
            s = tokio::net::TcpStream::connect(&seat.server) => s,
            () = cancel.cancelled() => return Ok(report),
        };
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                let wait = jittered(delay, &mut rng);
                warn!(server = %seat.server, bot = %seat.bot, "cannot connect: {e}; retrying in {wait:?}");
                if !pause(wait, &cancel).await {
                    return Ok(report);
                }
                delay = (delay * 2).min(backoff.max);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        report.connections += 1;
        attempt += 1;
        let player = bots::make_with(&seat.bot, seat.seed.wrapping_add(attempt), &seat.jic)?;
        let config = ClientConfig {
            name: name.clone(),
            version: env!("CARGO_PKG_VERSION").into(),
            think_time: seat.think_time,
            ..ClientConfig::default()
        };
        info!(server = %seat.server, bot = %seat.bot, ?join, "joining");
        let outcome = tokio::select! {
            r = run_client_with(stream, config, player, join) => r,
            () = cancel.cancelled() => return Ok(report),
        };
        match outcome {
            Ok(summary) => {
                report.games += 1;
                info!(server = %seat.server, bot = %seat.bot, end = ?summary.end, "game over");
                join = Join::Name;
                delay = backoff.initial;
                if !forever {
                    return Ok(report);
                }
            }
            Err(ClientError::Dropped { rejoin, .. }) => {
                join = match rejoin {
                    Some((power, passcode)) => Join::Rejoin { power, passcode },
                    None => Join::Name,
                };
                warn!(server = %seat.server, bot = %seat.bot, "connection lost; reconnecting");
            }
            Err(ClientError::Refused(why)) => {
                if matches!(join, Join::Rejoin { .. }) {
                    join = Join::Name;
                }
                warn!(server = %seat.server, bot = %seat.bot, "refused: {why}; retrying");
            }
            Err(e) => {
                join = Join::Name;
                warn!(server = %seat.server, bot = %seat.bot, "session failed: {e}; retrying");
            }
        }
        if !pause(jittered(delay, &mut rng), &cancel).await {
            return Ok(report);
        }
        delay = (delay * 2).min(backoff.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_stays_between_half_and_all_and_spreads_seats() {
        let d = Duration::from_secs(8);
        let mut a = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut b = Xoshiro256PlusPlus::seed_from_u64(2);
        let first: Vec<Duration> = (0..50).map(|_| jittered(d, &mut a)).collect();
        assert!(first.iter().all(|w| *w >= d / 2 && *w <= d), "{first:?}");
        // Seats with other seeds wait other times.
        let other: Vec<Duration> = (0..50).map(|_| jittered(d, &mut b)).collect();
        assert_ne!(first, other);
        // The same seed waits the same times.
        let mut again = Xoshiro256PlusPlus::seed_from_u64(1);
        let replay: Vec<Duration> = (0..50).map(|_| jittered(d, &mut again)).collect();
        assert_eq!(first, replay);
        // Spread over the range, not stuck at one end.
        let spread = first.iter().max().copied().unwrap_or_default()
            - first.iter().min().copied().unwrap_or_default();
        assert!(spread > d / 4, "{spread:?}");
    }
}
