//! The referee's game clock for `tablero match`: both engines get the same GTP clock
//! (`time_settings` once, `time_left` before every `genmove`), the referee measures each
//! `genmove` by the wall clock and a side whose time runs out loses on time.
//!
//! Two systems, as GTP's `time_settings main byo stones` defines them: sudden death
//! (`byo = 0`) and Canadian overtime (after the main time, `stones` moves in every `byo`
//! seconds). Pure: elapsed times are passed in.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::go::Color;

/// A match clock: main time, then Canadian periods of `period` for `stones` moves each.
/// `period == 0` is sudden death.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClockSpec {
    pub main: Duration,
    pub period: Duration,
    pub stones: u32,
}

/// A `--clock` value that does not parse.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ClockSpecError {
    #[error("clock {0:?}: expected MAIN (sudden death) or MAIN+PERIOD/STONES, in seconds")]
    Syntax(String),
    #[error("clock {0:?}: times must be finite and >= 0, stones >= 1, and some time given")]
    Range(String),
    #[error(
        "clock {0:?}: GTP announces times in whole seconds, so a fraction cannot be kept as a \
         referee clock; for shorter moves give each engine its own time (e.g. tablero's \
         --set search.time_per_move=0.25)"
    )]
    Fraction(String),
}

fn seconds(text: &str, whole: &str) -> Result<Duration, ClockSpecError> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| ClockSpecError::Syntax(whole.into()))?;
    let d = Duration::try_from_secs_f64(v).map_err(|_| ClockSpecError::Range(whole.into()))?;
    if d.subsec_nanos() != 0 {
        return Err(ClockSpecError::Fraction(whole.into()));
    }
    Ok(d)
}

impl ClockSpec {
    /// `seconds` for every move (`0+T/1`), whole seconds as GTP announces them.
    pub fn per_move(seconds: f64) -> Result<ClockSpec, ClockSpecError> {
        format!("0+{seconds}/1").parse()
    }
}

impl FromStr for ClockSpec {
    type Err = ClockSpecError;

    /// `60` (sudden death, 60 s each), `0+5/1` (5 s per move), `300+30/10` (5 min, then
    /// 10 moves in every 30 s).
    fn from_str(s: &str) -> Result<ClockSpec, ClockSpecError> {
        let (main, overtime) = match s.split_once('+') {
            Some((m, o)) => (m, Some(o)),
            None => (s, None),
        };
        let main = seconds(main, s)?;
        let (period, stones) = match overtime {
            None => (Duration::ZERO, 0),
            Some(o) => {
                let (p, n) = o
                    .split_once('/')
                    .ok_or_else(|| ClockSpecError::Syntax(s.into()))?;
                let n: u32 = n
                    .trim()
                    .parse()
                    .map_err(|_| ClockSpecError::Syntax(s.into()))?;
                (seconds(p, s)?, n)
            }
        };
        let spec = ClockSpec {
            main,
            period,
            stones,
        };
        let no_time = main.is_zero() && period.is_zero();
        if no_time || (!period.is_zero() && stones == 0) {
            return Err(ClockSpecError::Range(s.into()));
        }
        Ok(spec)
    }
}

impl fmt::Display for ClockSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.main.as_secs_f64())?;
        if !self.period.is_zero() {
            write!(f, "+{}/{}", self.period.as_secs_f64(), self.stones)?;
        }
        Ok(())
    }
}

impl ClockSpec {
    /// The GTP command that announces this clock (its times are whole seconds: parsing
    /// refuses fractions).
    pub fn time_settings(&self) -> String {
        format!(
            "time_settings {} {} {}",
            self.main.as_secs(),
            self.period.as_secs(),
            if self.period.is_zero() {
                0
            } else {
                self.stones
            }
        )
    }
}

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Side {
    main: Duration,
    period_left: Duration,
    stones_left: u32,
}

/// Both sides' clocks under one [`ClockSpec`], with a grace for process and pipe delays that
/// the referee forgives before it calls a flag.
#[derive(Clone, Debug, PartialEq)]
pub struct RefereeClock {
    spec: ClockSpec,
    grace: Duration,
    sides: [Side; 2],
}

/// A side's time ran out (by more than the grace).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flag;

impl RefereeClock {
    pub fn new(spec: ClockSpec, grace: Duration) -> RefereeClock {
        let side = Side {
            main: spec.main,
            period_left: spec.period,
            stones_left: spec.stones,
        };
        RefereeClock {
            spec,
            grace,
            sides: [side; 2],
        }
    }

    /// The `time_left COLOR SECONDS STONES` command for `color`: in main time `STONES` is 0;
    /// in overtime the seconds left in the period and the moves still to play in it.
    pub fn time_left(&self, color: Color) -> String {
        let s = &self.sides[color.index()];
        let (time, stones) = if !s.main.is_zero() || self.spec.period.is_zero() {
            (s.main, 0)
        } else {
            (s.period_left, s.stones_left)
        };
        format!("time_left {color} {} {stones}", time.as_secs())
    }

    /// The longest `color`'s next move may take before it loses on time, grace included.
    pub fn move_limit(&self, color: Color) -> Duration {
        self.remaining(color) + self.grace
    }

    /// Main time plus the current period's time left for `color`.
    fn remaining(&self, color: Color) -> Duration {
        let s = &self.sides[color.index()];
        let overtime = if self.spec.period.is_zero() {
            Duration::ZERO
        } else {
            s.period_left
        };
        s.main + overtime
    }

    /// Charges one move's `elapsed` wall time to `color`. Main time is used first, then the
    /// current period; a period is renewed once its stones are played. Time over by no more
    /// than the grace is forgiven (the clock stops at zero).
    pub fn charge(&mut self, color: Color, elapsed: Duration) -> Result<(), Flag> {
        let spec = self.spec;
        let grace = self.grace;
        let s = &mut self.sides[color.index()];
        if elapsed <= s.main {
            s.main -= elapsed;
            return Ok(());
        }
        let over = elapsed - s.main;
        s.main = Duration::ZERO;
        if spec.period.is_zero() {
            return if over <= grace { Ok(()) } else { Err(Flag) };
        }
        if over > s.period_left + grace {
            return Err(Flag);
        }
        s.period_left = s.period_left.saturating_sub(over);
        s.stones_left = s.stones_left.saturating_sub(1);
        if s.stones_left == 0 {
            s.stones_left = spec.stones;
            s.period_left = spec.period;
        }
        Ok(())
    }

    /// Main time plus the current period's time left for `color`, in seconds.
    pub fn remaining_seconds(&self, color: Color) -> f64 {
        self.remaining(color).as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn specs_parse_and_print() {
        let sd: ClockSpec = "60".parse().unwrap();
        assert_eq!(sd.main, secs(60.0));
        assert!(sd.period.is_zero());
        assert_eq!(sd.time_settings(), "time_settings 60 0 0");
        let ca: ClockSpec = "300+30/10".parse().unwrap();
        assert_eq!((ca.period, ca.stones), (secs(30.0), 10));
        assert_eq!(ca.time_settings(), "time_settings 300 30 10");
        assert_eq!(ca.to_string(), "300+30/10");
        let per_move = ClockSpec::per_move(5.0).unwrap();
        assert_eq!(per_move.time_settings(), "time_settings 0 5 1");
        // GTP cannot announce a fraction of a second: such a clock would be sent rounded, and
        // the engines would think to another clock than the referee keeps.
        for fraction in ["0+0.5/1", "60.5", "10+2.5/5"] {
            let e = fraction.parse::<ClockSpec>().unwrap_err();
            assert!(
                matches!(e, ClockSpecError::Fraction(_)),
                "{fraction:?}: {e}"
            );
        }
        assert!(matches!(
            ClockSpec::per_move(0.25),
            Err(ClockSpecError::Fraction(_))
        ));
        for bad in [
            "", "x", "60+", "60+5", "60+5/x", "0", "0+0/1", "10+5/0", "-1", "inf",
        ] {
            assert!(bad.parse::<ClockSpec>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn sudden_death_counts_down_and_flags() {
        let mut c = RefereeClock::new("10".parse().unwrap(), secs(0.5));
        assert_eq!(c.time_left(Color::Black), "time_left black 10 0");
        assert_eq!(c.charge(Color::Black, secs(4.0)), Ok(()));
        assert_eq!(c.time_left(Color::Black), "time_left black 6 0");
        assert_eq!(c.time_left(Color::White), "time_left white 10 0");
        assert_eq!(c.move_limit(Color::Black), secs(6.5));
        // Over by less than the grace: forgiven, the clock stops at zero.
        assert_eq!(c.charge(Color::Black, secs(6.3)), Ok(()));
        assert_eq!(c.remaining_seconds(Color::Black), 0.0);
        assert_eq!(c.charge(Color::Black, secs(0.6)), Err(Flag));
        assert_eq!(c.charge(Color::White, secs(10.6)), Err(Flag));
    }

    #[test]
    fn canadian_periods_renew_after_their_stones() {
        let mut c = RefereeClock::new("5+10/2".parse().unwrap(), secs(0.1));
        assert_eq!(c.charge(Color::White, secs(7.0)), Ok(()));
        // Main time gone, 2 s of the first period used, one stone played.
        assert_eq!(c.time_left(Color::White), "time_left white 8 1");
        assert_eq!(c.charge(Color::White, secs(7.5)), Ok(()));
        // Second stone: a fresh period.
        assert_eq!(c.time_left(Color::White), "time_left white 10 2");
        assert_eq!(c.move_limit(Color::White), secs(10.1));
        assert_eq!(c.charge(Color::White, secs(10.2)), Err(Flag));
    }
}
