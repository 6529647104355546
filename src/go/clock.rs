//! Game clocks as GTP and KGS describe them (none, absolute, Canadian, Japanese byo-yomi), the
//! state of each player's clock (set by `time_left`, or advanced by the engine's own moves) and
//! the time budget for the next move. Pure: times are passed in, nothing reads a clock.

use std::time::Duration;

use super::Color;

/// A time system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No limit: the engine's own per-move time applies.
    Unlimited,
    /// Sudden death after `main`.
    Absolute { main: Duration },
    /// After `main`, `stones` moves must be played in each `period`.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
    /// After `main`, each move must be played within `period`; `periods` overruns are allowed.
    Byoyomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
}

impl TimeSystem {
    /// GTP `time_settings main byo_time byo_stones`: Canadian byo-yomi, where `byo_time > 0`
    /// with `byo_stones = 0` means no limit, and `byo_time = 0` means absolute time.
    pub fn from_gtp(main: Duration, byo_time: Duration, byo_stones: u32) -> TimeSystem {
        match (byo_time.is_zero(), byo_stones) {
            (false, 0) => TimeSystem::Unlimited,
            (true, _) => TimeSystem::Absolute { main },
            (false, stones) => TimeSystem::Canadian {
                main,
                period: byo_time,
                stones,
            },
        }
    }
}

/// One player's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PlayerClock {
    /// Main time left.
    main: Duration,
    /// Time left in the current byo-yomi period (meaningful once `main` is zero).
    period_left: Duration,
    /// Canadian: moves still to play in the current period. Byo-yomi: periods left.
    count: u32,
    /// Under [`TimeSystem::Unlimited`]: the last `time_left` (time, stones) a controller sent
    /// anyway; it caps the per-move time so that an unknown clock is never overrun.
    reported: Option<(Duration, u32)>,
}

/// The lag a controller adds to each move, measured from its `time_left` reports: the main
/// time it reported, less the thinking the engine charged since, less what it reports next,
/// summed over the moves in between. GTP reports whole seconds, so one difference may be off
/// by up to a second, but the sum telescopes: after `moves` moves the error of the mean is
/// below `1 s / moves`, and `(sum + 1 s) / moves` bounds the true lag from above.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
struct LagMeter {
    /// The last main-time report and the thinking charged since it, with its move count.
    last: Option<(Duration, Duration, u32)>,
    sum: f64,
    moves: u32,
}

/// Measured moves before the measurement replaces the configured lag allowance.
const LAG_MEASURED_AFTER: u32 = 4;
/// Added to the measured lag bound, for scheduling jitter.
const LAG_MARGIN: Duration = Duration::from_millis(50);

impl LagMeter {
    /// A main-time report (`time_left color T 0`).
    fn report(&mut self, main: Duration) {
        if let Some((before, used, moves)) = self.last
            && moves > 0
        {
            self.sum += before.as_secs_f64() - used.as_secs_f64() - main.as_secs_f64();
            self.moves += moves;
        }
        self.last = Some((main, Duration::ZERO, 0));
    }

    /// The engine thought `used` for one move.
    fn charge(&mut self, used: Duration) {
        if let Some((_, spent, moves)) = &mut self.last {
            *spent += used;
            *moves += 1;
        }
    }

    /// An upper bound on the lag per move, once enough moves were measured.
    fn bound(&self) -> Option<Duration> {
        (self.moves >= LAG_MEASURED_AFTER).then(|| {
            let mean = ((self.sum + 1.0) / f64::from(self.moves)).max(0.0);
            Duration::from_secs_f64(mean) + LAG_MARGIN
        })
    }
}

/// The time of one move: the search aims at `target` and may go on to `max` while its best
/// move is not settled (see `search.time_extension`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTime {
    pub target: Duration,
    pub max: Duration,
}

/// Both players' clocks under one time system, plus the safety margin.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    system: TimeSystem,
    players: [PlayerClock; 2],
    lag_buffer: Duration,
    unlimited_per_move: Duration,
    /// How many times `target` a move may take at most (>= 1).
    extension: f64,
    /// Per colour: the controller's lag measured from its reports.
    lag: [LagMeter; 2],
}

/// Least time ever granted for a move, so that a search always returns something.
const MIN_BUDGET: Duration = Duration::from_millis(20);
/// How late past its budget a move may answer (the search checks its clock every few
/// playouts, then writes its reply).
const OVERRUN: Duration = Duration::from_millis(50);

impl Clock {
    /// No time limit yet: moves get `unlimited_per_move`. `lag_buffer` is kept back from every
    /// limited clock for network and start-up delays.
    pub fn new(unlimited_per_move: Duration, lag_buffer: Duration) -> Clock {
        let mut clock = Clock {
            system: TimeSystem::Unlimited,
            players: [PlayerClock {
                main: Duration::ZERO,
                period_left: Duration::ZERO,
                count: 0,
                reported: None,
            }; 2],
            lag_buffer,
            unlimited_per_move,
            extension: 1.0,
            lag: [LagMeter::default(); 2],
        };
        clock.set_system(TimeSystem::Unlimited);
        clock
    }

    /// Lets a move run to `extension` times its target while the search is unsettled, within
    /// the same safety limits (1 = never past the target).
    pub fn with_extension(mut self, extension: f64) -> Clock {
        self.extension = extension.max(1.0);
        self
    }

    /// The lag kept back for each move still to come: the configured `lag_buffer` until the
    /// controller's reports have measured the real lag of `color`'s moves, then that.
    pub fn lag_allowance(&self, color: Color) -> Duration {
        self.lag[color.index()].bound().unwrap_or(self.lag_buffer)
    }

    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// True unless the time system is [`TimeSystem::Unlimited`].
    pub fn is_limited(&self) -> bool {
        self.system != TimeSystem::Unlimited
    }

    /// The time of a move while no time system is set.
    pub fn unlimited_per_move(&self) -> Duration {
        self.unlimited_per_move
    }

    /// Changes the time of a move while no time system is set.
    pub fn set_unlimited_per_move(&mut self, per_move: Duration) {
        self.unlimited_per_move = per_move;
    }

    /// Starts both clocks afresh under `system`.
    pub fn set_system(&mut self, system: TimeSystem) {
        self.system = system;
        let fresh = match system {
            TimeSystem::Unlimited => PlayerClock {
                main: Duration::ZERO,
                period_left: Duration::ZERO,
                count: 0,
                reported: None,
            },
            TimeSystem::Absolute { main } => PlayerClock {
                main,
                period_left: Duration::ZERO,
                count: 0,
                reported: None,
            },
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => PlayerClock {
                main,
                period_left: period,
                count: stones,
                reported: None,
            },
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => PlayerClock {
                main,
                period_left: period,
                count: periods,
                reported: None,
            },
        };
        self.players = [fresh; 2];
        for meter in &mut self.lag {
            meter.last = None;
        }
    }

    /// GTP `time_left color time stones`: `stones = 0` means `time` is main time left; otherwise
    /// `time` is left in the current period and `stones` is the moves left in it (Canadian) or
    /// the periods left (byo-yomi, as KGS sends it).
    pub fn time_left(&mut self, color: Color, time: Duration, stones: u32) {
        let system = self.system;
        let meter = &mut self.lag[color.index()];
        if stones == 0 && system != TimeSystem::Unlimited {
            meter.report(time);
        } else {
            meter.last = None;
        }
        let p = &mut self.players[color.index()];
        match (system, stones) {
            (TimeSystem::Unlimited, n) => p.reported = Some((time, n)),
            (_, 0) => p.main = time,
            (TimeSystem::Absolute { .. }, _) => p.main = time,
            (TimeSystem::Canadian { .. } | TimeSystem::Byoyomi { .. }, n) => {
                p.main = Duration::ZERO;
                p.period_left = time;
                p.count = n;
            }
        }
    }

    /// Charges `used`, plus the lag allowance the controller may add, to `color`'s clock after
    /// one of its moves (for controllers that do not send `time_left`).
    pub fn record_move(&mut self, color: Color, used: Duration) {
        self.lag[color.index()].charge(used);
        let used = used + self.lag_allowance(color);
        let system = self.system;
        let p = &mut self.players[color.index()];
        if let (TimeSystem::Unlimited, Some((time, 0))) = (system, p.reported) {
            p.reported = Some((time.saturating_sub(used), 0));
        }
        let overflow = if p.main >= used {
            p.main -= used;
            return;
        } else {
            let over = used - p.main;
            p.main = Duration::ZERO;
            over
        };
        match system {
            TimeSystem::Unlimited | TimeSystem::Absolute { .. } => {}
            TimeSystem::Canadian { period, stones, .. } => {
                p.period_left = p.period_left.saturating_sub(overflow);
                p.count = p.count.saturating_sub(1);
                if p.count == 0 {
                    p.count = stones;
                    p.period_left = period;
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                if overflow > period {
                    p.count = p.count.saturating_sub(1);
                }
                p.period_left = period;
            }
        }
    }

    /// How long `color` may think about its next move. `moves_played` is the game's move
    /// number so far and `points` the board's number of points (to estimate the moves left).
    /// The target is never more than a fraction of the main time, and the maximum a quarter
    /// of what main time can spare; byo-yomi periods are kept with the lag allowance to spare
    /// and never extended.
    pub fn move_budget(&self, color: Color, moves_played: usize, points: usize) -> MoveTime {
        let p = &self.players[color.index()];
        let lag = self.lag_allowance(color);
        // Own moves still expected: about half of 45 % of the board's points minus those played,
        // but never fewer than a third of the points, so that a long game (captures, a long
        // endgame) still finds time left.
        let expected = (points as f64 * 0.45 - moves_played as f64 * 0.5).max(points as f64 / 3.0);
        let moves_left = expected.max(8.0);
        // Each of those moves may cost `lag` on the controller's clock besides the thinking,
        // which is never shorter than `MIN_BUDGET` and may overrun by `OVERRUN`. A move may
        // run past its target only from what would remain after twice that reserve for every
        // move to come, extended as well, so that a game far longer than expected still ends
        // on the reserve.
        let reserve = (lag + MIN_BUDGET + OVERRUN).mul_f64(moves_left + 1.0);
        let main_time = |main: Duration| {
            let target = main.saturating_sub(reserve).div_f64(moves_left);
            let extendable = main.saturating_sub(reserve.mul_f64(2.0 * self.extension)) / 4;
            MoveTime {
                target,
                max: target.mul_f64(self.extension).min(extendable).max(target),
            }
        };
        let fixed = |t: Duration| MoveTime { target: t, max: t };
        let plus = |m: MoveTime, t: Duration| MoveTime {
            target: m.target + t,
            max: m.max + t,
        };
        let time = match self.system {
            TimeSystem::Unlimited => match p.reported {
                None => return fixed(self.unlimited_per_move),
                Some((time, 0)) => fixed(self.unlimited_per_move.min(main_time(time).target)),
                Some((time, stones)) => fixed(
                    self.unlimited_per_move
                        .min(time.saturating_sub(lag).mul_f64(0.9) / stones),
                ),
            },
            TimeSystem::Absolute { .. } => main_time(p.main),
            TimeSystem::Canadian { period, stones, .. } => {
                if p.main.is_zero() {
                    let left = p.count.max(1);
                    fixed(p.period_left.saturating_sub(lag).mul_f64(0.9) / left)
                } else {
                    // While in main time the first period still lies ahead.
                    plus(
                        main_time(p.main),
                        period.saturating_sub(lag).mul_f64(0.8) / stones.max(1),
                    )
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                let period_share = |left: Duration| left.saturating_sub(lag).mul_f64(0.8);
                match (p.main.is_zero(), p.count) {
                    (false, 0) => main_time(p.main),
                    (false, _) => plus(main_time(p.main), period_share(period)),
                    (true, 0) => fixed(p.period_left.saturating_sub(lag).mul_f64(0.5)),
                    (true, _) => fixed(period_share(p.period_left)),
                }
            }
        };
        MoveTime {
            target: time.target.max(MIN_BUDGET),
            max: time.max.max(MIN_BUDGET),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;
    const LAG: Duration = Duration::from_millis(500);

    fn clock(system: TimeSystem) -> Clock {
        let mut c = Clock::new(S(5), LAG);
        c.set_system(system);
        c
    }

    #[test]
    fn gtp_settings_map_to_systems() {
        assert_eq!(TimeSystem::from_gtp(S(0), S(1), 0), TimeSystem::Unlimited);
        assert_eq!(
            TimeSystem::from_gtp(S(300), S(0), 0),
            TimeSystem::Absolute { main: S(300) }
        );
        assert_eq!(
            TimeSystem::from_gtp(S(300), S(30), 5),
            TimeSystem::Canadian {
                main: S(300),
                period: S(30),
                stones: 5
            }
        );
    }

    #[test]
    fn unlimited_uses_the_configured_time() {
        let c = Clock::new(S(5), LAG);
        assert!(!c.is_limited());
        assert_eq!(c.move_budget(Color::Black, 0, 81).target, S(5));
    }

    #[test]
    fn time_left_without_time_settings_caps_the_move_time() {
        let mut c = Clock::new(S(5), LAG);
        c.time_left(Color::Black, S(20), 0);
        let b = c.move_budget(Color::Black, 10, 81).target;
        assert!(b < S(1), "{b:?}");
        c.time_left(Color::White, S(600), 0);
        assert_eq!(c.move_budget(Color::White, 10, 81).target, S(5));
        c.time_left(Color::White, S(3), 5);
        assert!(c.move_budget(Color::White, 10, 81).target < S(1));
        c.set_system(TimeSystem::Unlimited);
        assert_eq!(c.move_budget(Color::Black, 10, 81).target, S(5));
    }

    #[test]
    fn absolute_never_spends_most_of_main_time() {
        let mut c = clock(TimeSystem::Absolute { main: S(300) });
        for moves in [0, 40, 80, 200, 400] {
            let b = c.move_budget(Color::White, moves, 361).target;
            assert!(b < S(300) / 8, "{moves}: {b:?}");
            assert!(b >= MIN_BUDGET);
        }
        c.time_left(Color::White, S(10), 0);
        let b = c.move_budget(Color::White, 100, 81).target;
        assert!(b <= Duration::from_secs_f64(9.5 / 8.0), "{b:?}");
        c.time_left(Color::White, Duration::from_millis(300), 0);
        assert_eq!(c.move_budget(Color::White, 100, 81).target, MIN_BUDGET);
        // Black's clock is separate.
        assert!(c.move_budget(Color::Black, 100, 81).target > S(1));
    }

    #[test]
    fn canadian_divides_the_period_among_its_stones() {
        let mut c = clock(TimeSystem::Canadian {
            main: S(0),
            period: S(60),
            stones: 10,
        });
        c.time_left(Color::Black, S(60), 10);
        let b = c.move_budget(Color::Black, 50, 81).target;
        assert!(b <= S(6) && b > S(4), "{b:?}");
        c.time_left(Color::Black, S(5), 1);
        let b = c.move_budget(Color::Black, 50, 81).target;
        assert!(b < Duration::from_millis(4500), "{b:?}");
        // In main time: a share of main plus a share of one period, still far below main.
        c.time_left(Color::Black, S(600), 0);
        let b = c.move_budget(Color::Black, 0, 361).target;
        assert!(b < S(600) / 10 && b > S(3), "{b:?}");
    }

    #[test]
    fn byoyomi_with_zero_main_time_uses_most_of_a_period() {
        let mut c = clock(TimeSystem::Byoyomi {
            main: S(0),
            period: S(30),
            periods: 3,
        });
        let b = c.move_budget(Color::White, 10, 361).target;
        assert!(b > S(15) && b < S(30), "{b:?}");
        c.time_left(Color::White, S(10), 2);
        let b = c.move_budget(Color::White, 10, 361).target;
        assert!(b < S(10), "{b:?}");
    }

    #[test]
    fn recording_moves_runs_the_clock_down() {
        // The lag allowance is charged with every move.
        let mut c = clock(TimeSystem::Absolute { main: S(10) });
        c.record_move(Color::White, S(4));
        assert_eq!(c.players[1].main, Duration::from_millis(5500));
        let mut c = Clock::new(S(5), Duration::ZERO);
        c.set_system(TimeSystem::Canadian {
            main: S(10),
            period: S(20),
            stones: 2,
        });
        c.record_move(Color::Black, S(4));
        assert_eq!(c.players[0].main, S(6));
        c.record_move(Color::Black, S(8));
        assert_eq!(c.players[0].main, S(0));
        assert_eq!(c.players[0].period_left, S(18));
        assert_eq!(c.players[0].count, 1);
        c.record_move(Color::Black, S(3));
        // The period was completed: a fresh one starts.
        assert_eq!(c.players[0].period_left, S(20));
        assert_eq!(c.players[0].count, 2);
    }

    /// The controller's (server's) view of one player's clock, charging the time it measures:
    /// the engine's thinking plus the network lag.
    struct ServerClock {
        system: TimeSystem,
        main: f64,
        period_left: f64,
        /// Canadian: stones left in the period. Byo-yomi: periods left, the current included.
        count: u32,
    }

    impl ServerClock {
        fn new(system: TimeSystem) -> ServerClock {
            let (main, period_left, count) = match system {
                TimeSystem::Unlimited => (0.0, 0.0, 0),
                TimeSystem::Absolute { main } => (main.as_secs_f64(), 0.0, 0),
                TimeSystem::Canadian {
                    main,
                    period,
                    stones,
                } => (main.as_secs_f64(), period.as_secs_f64(), stones),
                TimeSystem::Byoyomi {
                    main,
                    period,
                    periods,
                } => (main.as_secs_f64(), period.as_secs_f64(), periods),
            };
            ServerClock {
                system,
                main,
                period_left,
                count,
            }
        }

        /// Charges one move of `t` seconds; false if the player ran out of time.
        fn charge(&mut self, mut t: f64) -> bool {
            match self.system {
                TimeSystem::Unlimited => true,
                TimeSystem::Absolute { .. } => {
                    self.main -= t;
                    self.main >= 0.0
                }
                TimeSystem::Canadian { period, stones, .. } => {
                    if self.main > 0.0 {
                        if t <= self.main {
                            self.main -= t;
                            return true;
                        }
                        t -= self.main;
                        self.main = 0.0;
                    }
                    self.period_left -= t;
                    if self.period_left < 0.0 {
                        return false;
                    }
                    self.count -= 1;
                    if self.count == 0 {
                        self.count = stones;
                        self.period_left = period.as_secs_f64();
                    }
                    true
                }
                TimeSystem::Byoyomi { period, .. } => {
                    if self.main > 0.0 {
                        if t <= self.main {
                            self.main -= t;
                            return true;
                        }
                        t -= self.main;
                        self.main = 0.0;
                    }
                    let period = period.as_secs_f64();
                    while t > period {
                        t -= period;
                        self.count = self.count.saturating_sub(1);
                        if self.count == 0 {
                            return false;
                        }
                    }
                    self.period_left = period;
                    true
                }
            }
        }

        /// What the controller sends with `time_left` (whole seconds, rounded down, as GTP
        /// controllers do).
        fn time_left(&self) -> (Duration, u32) {
            let (t, n) = if self.main > 0.0 || self.system == (TimeSystem::Absolute { main: S(0) })
            {
                (self.main, 0)
            } else {
                match self.system {
                    TimeSystem::Absolute { .. } => (self.main, 0),
                    _ => (self.period_left, self.count),
                }
            };
            (Duration::from_secs_f64(t.max(0.0).floor()), n)
        }
    }

    /// Plays `own_moves` moves of one player against a controller that charges each move the
    /// engine's thinking (its budget plus 30 ms of overshoot) plus `lag`; `report` says
    /// whether the controller sends `time_left` before each move. Returns the move on which
    /// time ran out, if it did.
    fn simulate(
        system: TimeSystem,
        points: usize,
        own_moves: usize,
        lag: f64,
        report: bool,
    ) -> Option<usize> {
        let mut engine = Clock::new(S(5), LAG).with_extension(2.5);
        engine.set_system(system);
        let mut server = ServerClock::new(system);
        for n in 0..own_moves {
            if report {
                let (t, stones) = server.time_left();
                engine.time_left(Color::Black, t, stones);
            }
            // The worst case: every move runs to its maximum.
            let budget = engine.move_budget(Color::Black, 2 * n, points).max;
            let used = budget + Duration::from_millis(30);
            engine.record_move(Color::Black, used);
            if !server.charge(used.as_secs_f64() + lag) {
                return Some(n);
            }
        }
        None
    }

    #[test]
    fn simulated_games_never_lose_on_time_with_half_a_second_of_lag() {
        let systems = [
            // CGOS: sudden death.
            TimeSystem::Absolute { main: S(300) },
            TimeSystem::Absolute { main: S(60) },
            TimeSystem::Absolute { main: S(900) },
            // Canadian, with and without main time.
            TimeSystem::Canadian {
                main: S(0),
                period: S(30),
                stones: 10,
            },
            TimeSystem::Canadian {
                main: S(600),
                period: S(300),
                stones: 25,
            },
            TimeSystem::Canadian {
                main: S(60),
                period: S(10),
                stones: 5,
            },
            // Japanese byo-yomi, with and without main time.
            TimeSystem::Byoyomi {
                main: S(0),
                period: S(5),
                periods: 1,
            },
            TimeSystem::Byoyomi {
                main: S(300),
                period: S(30),
                periods: 3,
            },
            TimeSystem::Byoyomi {
                main: S(20),
                period: S(2),
                periods: 1,
            },
        ];
        for system in systems {
            for (points, own_moves) in [(81, 90), (361, 250)] {
                for lag in [0.0, 0.25, 0.5] {
                    for report in [true, false] {
                        // Sudden death cannot absorb half a second per move forever: the
                        // lag of all moves must fit in the main time for a game to be winnable.
                        if let TimeSystem::Absolute { main } = system
                            && lag * own_moves as f64 > main.as_secs_f64() * 0.6
                        {
                            continue;
                        }
                        let lost = simulate(system, points, own_moves, lag, report);
                        assert_eq!(
                            lost, None,
                            "{system:?}, {points} points, {own_moves} moves, lag {lag}, \
                             time_left sent: {report}"
                        );
                    }
                }
            }
        }
    }

    /// Plays `moves` moves against a controller that reports whole seconds and adds `lag` to
    /// each; returns the engine's lag allowance afterwards.
    fn allowance_after(moves: usize, lag: f64) -> Duration {
        let system = TimeSystem::Absolute { main: S(600) };
        let mut engine = Clock::new(S(5), LAG);
        engine.set_system(system);
        let mut server = ServerClock::new(system);
        for n in 0..moves {
            let (t, stones) = server.time_left();
            engine.time_left(Color::Black, t, stones);
            // Thinking times with varied fractions of a second.
            let used = Duration::from_millis(700 + 137 * (n as u64 % 7));
            engine.record_move(Color::Black, used);
            assert!(server.charge(used.as_secs_f64() + lag));
        }
        engine.lag_allowance(Color::Black)
    }

    #[test]
    fn the_lag_allowance_is_measured_from_the_controllers_reports() {
        // Too few reports: the configured allowance.
        assert_eq!(allowance_after(3, 0.01), LAG);
        // A fast controller: the allowance falls to about the real lag.
        let a = allowance_after(40, 0.01);
        assert!(
            a >= Duration::from_millis(10) && a < Duration::from_millis(100),
            "{a:?}"
        );
        // A slow one: it rises above the configured half second.
        let a = allowance_after(40, 0.9);
        assert!(
            a >= Duration::from_millis(900) && a < Duration::from_millis(1000),
            "{a:?}"
        );
        // A new game keeps what was measured.
        let mut c = clock(TimeSystem::Absolute { main: S(60) });
        for t in [60, 59, 58, 57, 56, 55] {
            c.time_left(Color::White, S(t), 0);
            c.record_move(Color::White, Duration::from_millis(950));
        }
        let measured = c.lag_allowance(Color::White);
        assert!(measured < LAG, "{measured:?}");
        c.set_system(TimeSystem::Absolute { main: S(60) });
        assert_eq!(c.lag_allowance(Color::White), measured);
        assert_eq!(c.lag_allowance(Color::Black), LAG);
    }

    #[test]
    fn only_main_time_moves_may_run_past_their_target() {
        let mut c = clock(TimeSystem::Absolute { main: S(300) }).with_extension(2.5);
        let t = c.move_budget(Color::Black, 0, 81);
        assert!(
            t.max > t.target.mul_f64(2.4) && t.max <= t.target.mul_f64(2.5),
            "{t:?}"
        );
        // Little main time for the lag still assumed per move: no extension.
        c.time_left(Color::Black, S(60), 0);
        let t = c.move_budget(Color::Black, 0, 81);
        assert_eq!(t.max, t.target);
        // Close to the end of main time the maximum is a quarter of what is left.
        c.time_left(Color::Black, S(4), 0);
        let t = c.move_budget(Color::Black, 60, 81);
        assert!(t.max <= S(1) && t.max >= t.target, "{t:?}");
        // Byo-yomi periods and the unlimited per-move time are never extended.
        let mut c = clock(TimeSystem::Byoyomi {
            main: S(0),
            period: S(30),
            periods: 3,
        })
        .with_extension(2.5);
        c.time_left(Color::White, S(30), 3);
        let t = c.move_budget(Color::White, 10, 361);
        assert_eq!(t.max, t.target);
        let t = Clock::new(S(5), LAG)
            .with_extension(2.5)
            .move_budget(Color::Black, 0, 81);
        assert_eq!((t.target, t.max), (S(5), S(5)));
    }
}
