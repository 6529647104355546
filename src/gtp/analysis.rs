//! The analysis dialects GUIs speak over GTP (Leela Zero's `lz-analyze`, KataGo's
//! `kata-analyze`, and the Sabaki-oriented `analyze`, each with a `genmove_analyze` form): the
//! argument grammar, and the `info move …` report lines built from a search snapshot, with
//! each dialect's numbers printed as the engine that defined it prints them (Leela Zero:
//! truncated integers ×10000; KataGo: C++ `ostream` floats; Sabaki 0.60: integers ×10000).
//! Pure: the engine runs the search and writes the lines.

use std::fmt::Write as _;
use std::time::Duration;

use crate::go::search::{MoveStat, SearchSnapshot};
use crate::go::{Color, Move};

/// Which dialect a command speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `lz-analyze`: win rate, prior and LCB as integers ×10000, truncated (Leela Zero).
    Lz,
    /// `kata-analyze`: floats in 0..1 as C++ `ostream` prints them (six significant digits),
    /// KataGo's extra keys (`ownership`, `rootInfo`, …).
    Kata,
    /// `analyze`: what Sabaki 0.60 reads for a command whose name does not start with `kata`:
    /// the `lz-analyze` fields, win rate, prior and LCB as integers ×10000 (rounded), and only
    /// the keys `lz-analyze` accepts.
    Sabaki,
}

impl Dialect {
    /// The dialect of an analysis command name, and whether it is a `genmove_analyze` form.
    pub fn of_command(name: &str) -> Option<(Dialect, bool)> {
        Some(match name {
            "lz-analyze" => (Dialect::Lz, false),
            "kata-analyze" => (Dialect::Kata, false),
            "analyze" => (Dialect::Sabaki, false),
            "lz-genmove_analyze" => (Dialect::Lz, true),
            "kata-genmove_analyze" => (Dialect::Kata, true),
            "genmove_analyze" => (Dialect::Sabaki, true),
            _ => return None,
        })
    }
}

/// Moves of one colour a GUI asked to leave out (`avoid`) or to keep exclusively (`allow`).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveFilter {
    pub color: Color,
    pub moves: Vec<Move>,
    /// `allow` (only these moves) rather than `avoid` (all but these).
    pub allow: bool,
    /// The ply up to which the filter applies (>= 1); tablero applies it at the root only.
    pub until_depth: u32,
}

impl MoveFilter {
    /// Whether `mv`, played by `color` at the root, may be reported / chosen.
    pub fn permits(&self, color: Color, mv: Move) -> bool {
        if color != self.color {
            return true;
        }
        self.moves.contains(&mv) == self.allow
    }
}

/// A parsed analysis request.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeArgs {
    pub dialect: Dialect,
    /// The colour analysed; `None` means the side to move.
    pub color: Option<Color>,
    /// Time between reports; `None` (interval 0 or not given) means no periodic report.
    pub interval: Option<Duration>,
    /// Report at least this many moves, with zero visits if need be.
    pub min_moves: usize,
    /// Report at most this many moves.
    pub max_moves: usize,
    pub filters: Vec<MoveFilter>,
    /// `ownership true` (kata only).
    pub ownership: bool,
    /// `rootInfo true` (kata only).
    pub root_info: bool,
    /// Fewest visits a move needs for its own win rate to be reported (`gtp.analysis_min_visits`,
    /// set by the engine; 1 after parsing). See [`reported_moves`].
    pub min_visits: u32,
}

/// Why analysis arguments were rejected; `Display` is the text after `?`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalyzeArgsError {
    #[error("invalid analyze arguments: key {0:?} without a value")]
    MissingValue(String),
    #[error("invalid analyze arguments: bad value {value:?} for {key}")]
    BadValue { key: String, value: String },
    #[error("invalid analyze arguments: unknown key {0:?}")]
    UnknownKey(String),
    #[error("invalid analyze arguments: both avoid and allow, or two allow, for one colour")]
    ConflictingFilters,
}

/// Largest interval accepted, in centiseconds (about 11 days).
const MAX_INTERVAL_CS: f64 = 1e8;

fn interval_cs(s: &str) -> Option<Option<Duration>> {
    let cs: f64 = s.parse().ok()?;
    if !(cs.is_finite() && (0.0..MAX_INTERVAL_CS).contains(&cs)) {
        return None;
    }
    Some((cs > 0.0).then(|| Duration::from_secs_f64(cs / 100.0)))
}

fn boolean(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

impl AnalyzeArgs {
    /// Parses `[colour] [interval] {key value}` as KataGo does: the colour and the bare
    /// interval (centiseconds) are optional and positional; then key–value pairs `interval N`,
    /// `minmoves N`, `maxmoves N`, `avoid C V,V D`, `allow C V,V D`, and for the kata dialect
    /// `ownership B`, `rootInfo B`, plus KataGo's `ownershipStdev`, `movesOwnership`,
    /// `movesOwnershipStdev`, `pvVisits`, `pvEdgeVisits`, `noResultValue` (booleans accepted,
    /// no output: tablero has no such statistic). Any other key fails.
    pub fn parse(
        dialect: Dialect,
        args: &[String],
        size: usize,
    ) -> Result<AnalyzeArgs, AnalyzeArgsError> {
        let mut out = AnalyzeArgs {
            dialect,
            color: None,
            interval: None,
            min_moves: 0,
            max_moves: usize::MAX,
            filters: Vec::new(),
            ownership: false,
            root_info: false,
            min_visits: 1,
        };
        let mut i = 0;
        if let Some(c) = args.first().and_then(|a| a.parse::<Color>().ok()) {
            out.color = Some(c);
            i += 1;
        }
        if let Some(iv) = args.get(i).and_then(|a| interval_cs(a)) {
            out.interval = iv;
            i += 1;
        }
        while let Some(key) = args.get(i) {
            let bad = |value: &str| AnalyzeArgsError::BadValue {
                key: key.clone(),
                value: value.to_string(),
            };
            let value = args
                .get(i + 1)
                .ok_or_else(|| AnalyzeArgsError::MissingValue(key.clone()))?;
            i += 2;
            let kata = dialect == Dialect::Kata;
            match key.as_str() {
                "interval" => out.interval = interval_cs(value).ok_or_else(|| bad(value))?,
                "minmoves" | "maxmoves" => {
                    let n: usize = value
                        .parse()
                        .ok()
                        .filter(|n| *n < 1_000_000_000)
                        .ok_or_else(|| bad(value))?;
                    if key == "minmoves" {
                        out.min_moves = n;
                    } else {
                        out.max_moves = n;
                    }
                }
                "avoid" | "allow" => {
                    let (Some(list), Some(depth)) = (args.get(i), args.get(i + 1)) else {
                        return Err(AnalyzeArgsError::MissingValue(key.clone()));
                    };
                    i += 2;
                    let color: Color = value.parse().map_err(|_| bad(value))?;
                    let until_depth: u32 = depth
                        .parse()
                        .ok()
                        .filter(|d| *d >= 1)
                        .ok_or_else(|| bad(depth))?;
                    let mut moves = Vec::new();
                    for m in list.split(',').filter(|m| !m.is_empty()) {
                        moves.push(Move::parse(m, size).map_err(|_| bad(m))?);
                    }
                    let allow = key == "allow";
                    // As KataGo: per colour, either avoids or one allow.
                    if out
                        .filters
                        .iter()
                        .any(|f| f.color == color && (f.allow || allow))
                    {
                        return Err(AnalyzeArgsError::ConflictingFilters);
                    }
                    out.filters.push(MoveFilter {
                        color,
                        moves,
                        allow,
                        until_depth,
                    });
                }
                "ownership" if kata => out.ownership = boolean(value).ok_or_else(|| bad(value))?,
                "rootInfo" if kata => out.root_info = boolean(value).ok_or_else(|| bad(value))?,
                "ownershipStdev"
                | "movesOwnership"
                | "movesOwnershipStdev"
                | "pvVisits"
                | "pvEdgeVisits"
                | "noResultValue"
                    if kata =>
                {
                    boolean(value).ok_or_else(|| bad(value))?;
                }
                _ => return Err(AnalyzeArgsError::UnknownKey(key.clone())),
            }
        }
        Ok(out)
    }

    /// Whether `mv` for `color` passes every root filter.
    pub fn permits(&self, color: Color, mv: Move) -> bool {
        self.filters.iter().all(|f| f.permits(color, mv))
    }
}

/// Wilson lower bound (95 %) of a win rate measured over `visits` playouts.
pub fn lcb(winrate: f64, visits: u32) -> f64 {
    if visits == 0 {
        return 0.0;
    }
    let n = f64::from(visits);
    let z = 1.96_f64;
    let w = winrate.clamp(0.0, 1.0);
    let centre = w + z * z / (2.0 * n);
    let spread = z * (w * (1.0 - w) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - spread) / (1.0 + z * z / n)).clamp(0.0, 1.0)
}

/// One move of a report: its statistics and the win rate reported for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reported<'a> {
    pub stat: &'a MoveStat,
    /// The move's own win rate, or the position's (the search's average) for a move shown
    /// with fewer than `min_visits` visits.
    pub winrate: f64,
}

/// The win rate of the whole search for the side searched: the visit-weighted mean over the
/// root's moves (0.5 before any visit).
pub fn position_winrate(snapshot: &SearchSnapshot) -> f64 {
    let visits: u64 = snapshot.moves.iter().map(|m| u64::from(m.visits)).sum();
    if visits == 0 {
        return 0.5;
    }
    let wins: f64 = snapshot
        .moves
        .iter()
        .map(|m| m.winrate * f64::from(m.visits))
        .sum();
    (wins / visits as f64).clamp(0.0, 1.0)
}

/// The moves one report shows, in order, as KataGo chooses them with one more threshold:
/// moves that pass the filters and have at least `min_visits` visits, with their own win
/// rates; then, up to `min_moves`, the others (0 visits included), each with the position's
/// win rate; and if that leaves nothing, the most visited move, with the position's win rate.
/// At most `max_moves`. A move seen in a handful of playouts so never lends its win rate to the
/// position (GUIs such as Sabaki take the best reported win rate as the position's).
pub fn reported_moves<'a>(
    args: &AnalyzeArgs,
    color: Color,
    snapshot: &'a SearchSnapshot,
) -> Vec<Reported<'a>> {
    let threshold = args.min_visits.max(1);
    let position = position_winrate(snapshot);
    let permitted: Vec<&MoveStat> = snapshot
        .moves
        .iter()
        .filter(|m| args.permits(color, m.mv))
        .collect();
    let mut shown: Vec<Reported> = permitted
        .iter()
        .filter(|m| m.visits >= threshold)
        .map(|m| Reported {
            stat: m,
            winrate: m.winrate,
        })
        .collect();
    for m in permitted.iter().filter(|m| m.visits < threshold) {
        if shown.len() >= args.min_moves {
            break;
        }
        shown.push(Reported {
            stat: m,
            winrate: position,
        });
    }
    if shown.is_empty()
        && let Some(best) = permitted
            .iter()
            .filter(|m| m.visits > 0)
            .max_by_key(|m| m.visits)
    {
        shown.push(Reported {
            stat: best,
            winrate: position,
        });
    }
    shown.truncate(args.max_moves);
    shown
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

/// A value as C++ `std::ostream` prints a `double` by default (`%g`, six significant digits):
/// `0.5`, `1`, `0.0408357`, `1.23457e+06`. This is how KataGo writes `kata-analyze` numbers.
pub fn cpp_float(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    if x == 0.0 {
        return "0".into();
    }
    const PRECISION: i32 = 6;
    // The exponent after rounding to six significant digits.
    let sci = format!("{:.*e}", (PRECISION - 1) as usize, x);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if (-4..PRECISION).contains(&exp) {
        strip(&format!("{:.*}", (PRECISION - 1 - exp) as usize, x))
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip(mantissa), exp.abs())
    }
}

/// A probability as Leela Zero prints it: `static_cast<int>(float(p) * 10000)`, truncated.
fn lz_int(p: f64) -> i64 {
    i64::from(((p.clamp(0.0, 1.0) as f32) * 10000.0_f32) as i32)
}

/// A probability as an integer ×10000, rounded (KataGo's `lz-analyze`, Sabaki's reading).
fn rounded_int(p: f64) -> i64 {
    (p.clamp(0.0, 1.0) * 10000.0).round() as i64
}

/// One report line for `snapshot` of a search for `color` (win rates from `color`'s view), or
/// `None` when there is nothing to show yet. `prior` is the move's share of the search's prior
/// knowledge (uniform when priors are off).
pub fn report_line(args: &AnalyzeArgs, color: Color, snapshot: &SearchSnapshot) -> Option<String> {
    let shown = reported_moves(args, color, snapshot);
    if shown.is_empty() {
        return None;
    }
    let mut line = String::new();
    for (order, r) in shown.iter().enumerate() {
        if order > 0 {
            line.push(' ');
        }
        let m = r.stat;
        let low = lcb(m.winrate, m.visits).min(r.winrate);
        let _ = match args.dialect {
            Dialect::Lz => write!(
                line,
                "info move {} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                m.mv,
                m.visits,
                lz_int(r.winrate),
                lz_int(m.prior),
                lz_int(low),
                pv_text(&m.pv)
            ),
            Dialect::Sabaki => write!(
                line,
                "info move {} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                m.mv,
                m.visits,
                rounded_int(r.winrate),
                rounded_int(m.prior),
                rounded_int(low),
                pv_text(&m.pv)
            ),
            Dialect::Kata => write!(
                line,
                "info move {} visits {} edgeVisits {} utility {} winrate {} prior {} lcb {} \
                 utilityLcb {} weight {} order {order} pv {}",
                m.mv,
                m.visits,
                m.visits,
                cpp_float(2.0 * r.winrate - 1.0),
                cpp_float(r.winrate),
                cpp_float(m.prior),
                cpp_float(low),
                cpp_float(2.0 * low - 1.0),
                cpp_float(f64::from(m.visits)),
                pv_text(&m.pv)
            ),
        };
    }
    if args.root_info && args.dialect == Dialect::Kata {
        let winrate = position_winrate(snapshot);
        let _ = write!(
            line,
            " rootInfo visits {} utility {} winrate {} weight {}",
            snapshot.root_visits,
            cpp_float(2.0 * winrate - 1.0),
            cpp_float(winrate),
            cpp_float(f64::from(snapshot.root_visits))
        );
    }
    if args.ownership
        && args.dialect == Dialect::Kata
        && let Some(own) = &snapshot.ownership
    {
        line.push_str(" ownership");
        line.push_str(&ownership_text(own, color));
    }
    Some(line)
}

/// Ownership values (+1 Black) as KataGo prints them: from `color`'s view, row by row from the
/// top-left corner (A19 on 19×19) across, then down, each as C++ prints a `double` and
/// preceded by a space.
pub fn ownership_text(own: &[f64], color: Color) -> String {
    let size = (own.len() as f64).sqrt().round() as usize;
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut out = String::with_capacity(own.len() * 10);
    for row in (0..size).rev() {
        for col in 0..size {
            let v = own.get(row * size + col).copied().unwrap_or(0.0) * sign;
            out.push(' ');
            out.push_str(&cpp_float(v.clamp(-1.0, 1.0)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(dialect: Dialect, text: &str) -> Result<AnalyzeArgs, AnalyzeArgsError> {
        let a: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        AnalyzeArgs::parse(dialect, &a, 19)
    }

    fn v(s: &str) -> Move {
        Move::parse(s, 19).unwrap()
    }

    #[test]
    fn every_argument_form_guis_send() {
        let a = args(Dialect::Lz, "B 50").unwrap();
        assert_eq!(a.color, Some(Color::Black));
        assert_eq!(a.interval, Some(Duration::from_millis(500)));
        let a = args(Dialect::Lz, "50").unwrap();
        assert_eq!(
            (a.color, a.interval),
            (None, Some(Duration::from_millis(500)))
        );
        let a = args(Dialect::Lz, "interval 25").unwrap();
        assert_eq!(a.interval, Some(Duration::from_millis(250)));
        let a = args(Dialect::Lz, "white").unwrap();
        assert_eq!((a.color, a.interval), (Some(Color::White), None));
        let a = args(Dialect::Lz, "").unwrap();
        assert_eq!((a.color, a.interval, a.min_moves), (None, None, 0));
        let a = args(Dialect::Lz, "w 0").unwrap();
        assert_eq!(a.interval, None);
        let a = args(
            Dialect::Kata,
            "b 10 minmoves 3 maxmoves 5 ownership true rootInfo 1",
        )
        .unwrap();
        assert_eq!((a.min_moves, a.max_moves), (3, 5));
        assert!(a.ownership && a.root_info);
        let a = args(
            Dialect::Kata,
            "b interval 10 pvVisits true ownershipStdev false",
        )
        .unwrap();
        assert!(!a.ownership);
        let a = args(Dialect::Lz, "B 10 avoid b D4,Q16,pass 1 allow w C3 2").unwrap();
        assert_eq!(a.filters.len(), 2);
        assert!(!a.permits(Color::Black, v("D4")));
        assert!(!a.permits(Color::Black, Move::Pass));
        assert!(a.permits(Color::Black, v("C3")));
        assert!(a.permits(Color::White, v("C3")));
        assert!(!a.permits(Color::White, v("D4")));
    }

    #[test]
    fn bad_arguments_are_rejected_as_katago_does() {
        use AnalyzeArgsError as E;
        assert_eq!(
            args(Dialect::Lz, "b 50 ownership true"),
            Err(E::UnknownKey("ownership".into()))
        );
        assert_eq!(
            args(Dialect::Sabaki, "b 50 rootInfo true"),
            Err(E::UnknownKey("rootInfo".into()))
        );
        assert_eq!(
            args(Dialect::Kata, "b 50 frob 1"),
            Err(E::UnknownKey("frob".into()))
        );
        assert_eq!(
            args(Dialect::Lz, "b 50 interval"),
            Err(E::MissingValue("interval".into()))
        );
        assert!(args(Dialect::Lz, "b -5").is_err());
        assert!(matches!(
            args(Dialect::Lz, "interval nan"),
            Err(E::BadValue { .. })
        ));
        assert!(matches!(
            args(Dialect::Kata, "ownership maybe"),
            Err(E::BadValue { .. })
        ));
        assert!(matches!(
            args(Dialect::Lz, "minmoves -1"),
            Err(E::BadValue { .. })
        ));
        assert!(matches!(
            args(Dialect::Lz, "avoid b Z99 1"),
            Err(E::BadValue { .. })
        ));
        assert!(matches!(
            args(Dialect::Lz, "avoid b D4 0"),
            Err(E::BadValue { .. })
        ));
        assert!(matches!(
            args(Dialect::Lz, "avoid b D4"),
            Err(E::MissingValue(_))
        ));
        assert_eq!(
            args(Dialect::Lz, "avoid b D4 1 allow b C3 1"),
            Err(E::ConflictingFilters)
        );
        // A colour after the interval is a key without a value.
        assert!(args(Dialect::Lz, "50 b").is_err());
    }

    fn stat(mv: &str, visits: u32, winrate: f64) -> MoveStat {
        MoveStat {
            mv: v(mv),
            visits,
            winrate,
            prior: 0.25,
            pv: vec![v(mv), v("Q16")],
        }
    }

    fn snapshot() -> SearchSnapshot {
        let mut own = vec![0.0; 19 * 19];
        own[18 * 19] = 1.0; // A19: Black's
        own[0] = -0.5; // A1
        SearchSnapshot {
            playouts: 100,
            root_visits: 101,
            elapsed: Duration::from_millis(10),
            moves: vec![
                stat("D4", 60, 0.55),
                stat("C3", 40, 0.45),
                stat("E5", 0, 0.5),
                stat("F6", 0, 0.5),
            ],
            ownership: Some(own),
        }
    }

    #[test]
    fn lz_lines_use_truncated_integers_times_10000() {
        let a = args(Dialect::Lz, "b 10").unwrap();
        let line = report_line(&a, Color::Black, &snapshot()).unwrap();
        let low = |w: f64, n| ((lcb(w, n) as f32) * 10000.0) as i32;
        assert_eq!(
            line,
            format!(
                "info move D4 visits 60 winrate 5500 prior 2500 lcb {} order 0 pv D4 Q16 \
                 info move C3 visits 40 winrate 4500 prior 2500 lcb {} order 1 pv C3 Q16",
                low(0.55, 60),
                low(0.45, 40)
            )
        );
        // Truncated as Leela Zero's static_cast<int>, not rounded.
        assert_eq!(lz_int(0.99996), 9999);
        assert_eq!(rounded_int(0.99996), 10000);
        let a = args(Dialect::Lz, "b 10 minmoves 3 maxmoves 3 avoid b C3 1").unwrap();
        let line = report_line(&a, Color::Black, &snapshot()).unwrap();
        let moves: Vec<&str> = line
            .split("info move ")
            .skip(1)
            .map(|s| s.split(' ').next().unwrap())
            .collect();
        assert_eq!(moves, ["D4", "E5", "F6"]);
        let empty = SearchSnapshot {
            moves: vec![stat("D4", 0, 0.5)],
            ..snapshot()
        };
        assert!(report_line(&a, Color::Black, &empty).is_some());
        let a = args(Dialect::Lz, "b 10").unwrap();
        assert_eq!(report_line(&a, Color::Black, &empty), None);
    }

    #[test]
    fn sabaki_lines_use_rounded_integers_times_10000() {
        let a = args(Dialect::Sabaki, "w 10").unwrap();
        let line = report_line(&a, Color::White, &snapshot()).unwrap();
        let low = (lcb(0.55, 60) * 10000.0).round();
        assert!(
            line.starts_with(&format!(
                "info move D4 visits 60 winrate 5500 prior 2500 lcb {low} order 0 pv D4 Q16 \
                 info move C3 visits 40 winrate 4500 "
            )),
            "{line}"
        );
        assert!(!line.contains('.') && !line.contains("ownership"), "{line}");
    }

    #[test]
    fn kata_lines_print_floats_as_cpp_and_ownership_from_the_top_left() {
        let a = args(Dialect::Kata, "w 10 ownership true rootInfo true").unwrap();
        let line = report_line(&a, Color::White, &snapshot()).unwrap();
        let low = lcb(0.55, 60);
        assert!(
            line.starts_with(&format!(
                "info move D4 visits 60 edgeVisits 60 utility 0.1 winrate 0.55 prior 0.25 \
                 lcb {} utilityLcb {} weight 60 order 0 pv D4 Q16 info move C3 ",
                cpp_float(low),
                cpp_float(2.0 * low - 1.0)
            )),
            "{line}"
        );
        assert!(
            line.contains(" order 1 pv C3 Q16 rootInfo visits 101 utility 0.02 winrate 0.51 weight 101 ownership "),
            "{line}"
        );
        let own: Vec<&str> = line
            .split(" ownership ")
            .nth(1)
            .unwrap()
            .split(' ')
            .collect();
        assert_eq!(own.len(), 361);
        // From White's view: A19 (first) is -1, A1 (first of the last row) is +0.5.
        assert_eq!(own[0], "-1");
        assert_eq!(own[18 * 19], "0.5");
        assert_eq!(own[1], "0");
        // ownership and rootInfo are kata keys only.
        let a = args(Dialect::Sabaki, "w 10").unwrap();
        assert!(
            !report_line(&a, Color::White, &snapshot())
                .unwrap()
                .contains("ownership")
        );
    }

    #[test]
    fn floats_print_as_cpp_ostream_does() {
        for (x, text) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.0, "-1"),
            (0.5, "0.5"),
            (0.480018, "0.480018"),
            (-0.0408357, "-0.0408357"),
            (0.040835712, "0.0408357"),
            (0.12345651, "0.123457"),
            (0.9999999, "1"),
            (487.0, "487"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (-0.00001, "-1e-05"),
            (99999.95, "99999.9"),
            (999999.5, "1e+06"),
        ] {
            assert_eq!(cpp_float(x), text, "{x}");
        }
    }

    #[test]
    fn moves_with_few_visits_never_carry_their_own_win_rate() {
        let snap = SearchSnapshot {
            moves: vec![
                stat("D4", 30, 0.55),
                stat("C3", 20, 0.45),
                stat("A9", 1, 1.0),
                stat("E5", 0, 0.5),
            ],
            ..snapshot()
        };
        let position = position_winrate(&snap);
        assert!((position - (30.0 * 0.55 + 20.0 * 0.45 + 1.0) / 51.0).abs() < 1e-12);
        let mut a = args(Dialect::Sabaki, "b 10").unwrap();
        a.min_visits = 10;
        let shown = reported_moves(&a, Color::Black, &snap);
        let names: Vec<String> = shown.iter().map(|r| r.stat.mv.to_string()).collect();
        assert_eq!(names, ["D4", "C3"]);
        // KataGo's behaviour with the threshold 1: every visited move, its own win rate.
        a.min_visits = 1;
        assert_eq!(reported_moves(&a, Color::Black, &snap).len(), 3);
        // minmoves pads with the position's win rate; the 1-visit move is not 100 %.
        a.min_visits = 10;
        a.min_moves = 4;
        let shown = reported_moves(&a, Color::Black, &snap);
        assert_eq!(shown.len(), 4);
        assert_eq!(shown[2].stat.mv, v("A9"));
        assert_eq!(shown[2].winrate, position);
        assert_eq!(shown[3].winrate, position);
        let line = report_line(&a, Color::Black, &snap).unwrap();
        assert!(!line.contains("winrate 10000"), "{line}");
        // Nothing above the threshold: the most visited move, with the position's win rate.
        let early = SearchSnapshot {
            moves: vec![stat("A9", 2, 1.0), stat("D4", 3, 0.0)],
            ..snapshot()
        };
        a.min_moves = 0;
        let shown = reported_moves(&a, Color::Black, &early);
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].stat.mv, v("D4"));
        assert!((shown[0].winrate - 0.4).abs() < 1e-12);
        let a = args(Dialect::Lz, "b 10").unwrap();
        assert_eq!(a.min_visits, 1);
    }

    #[test]
    fn lcb_is_a_lower_bound_in_range() {
        assert_eq!(lcb(0.7, 0), 0.0);
        for (w, n) in [(0.0, 1), (1.0, 3), (0.5, 100), (0.9, 10_000)] {
            let l = lcb(w, n);
            assert!((0.0..=w).contains(&l), "{w} {n} {l}");
        }
        assert!(lcb(0.6, 10_000) > lcb(0.6, 100));
    }
}
