//! The analysis dialects GUIs speak over GTP (Leela Zero's `lz-analyze`, KataGo's
//! `kata-analyze`, and the Sabaki-oriented `analyze`, each with a `genmove_analyze` form): the
//! argument grammar, and the `info move …` report lines built from a search snapshot. Pure:
//! the engine runs the search and writes the lines.

use std::fmt::Write as _;
use std::time::Duration;

use crate::go::search::{MoveStat, SearchSnapshot};
use crate::go::{Color, Move};

/// Which dialect a command speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `lz-analyze`: win rate, prior and LCB as integers ×10000.
    Lz,
    /// `kata-analyze`: floats in 0..1, KataGo's extra keys (`ownership`, `rootInfo`, …).
    Kata,
    /// `analyze` (KataGo's name for Sabaki): the kata fields, floats always with a decimal
    /// point, and only the keys `lz-analyze` accepts.
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

/// The moves one report shows, in order: visited moves (and unvisited ones up to
/// `min_moves`) that pass the filters, at most `max_moves`.
pub fn reported_moves<'a>(
    args: &AnalyzeArgs,
    color: Color,
    moves: &'a [MoveStat],
) -> Vec<&'a MoveStat> {
    let mut shown: Vec<&MoveStat> = Vec::new();
    for m in moves.iter().filter(|m| args.permits(color, m.mv)) {
        if m.visits > 0 || shown.len() < args.min_moves {
            shown.push(m);
        }
    }
    shown.truncate(args.max_moves);
    shown
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

/// One report line for `snapshot` of a search for `color` (win rates from `color`'s view), or
/// `None` when there is nothing to show yet. `prior` is the move's share of the search's prior
/// knowledge (uniform when priors are off).
pub fn report_line(args: &AnalyzeArgs, color: Color, snapshot: &SearchSnapshot) -> Option<String> {
    let shown = reported_moves(args, color, &snapshot.moves);
    if shown.is_empty() {
        return None;
    }
    let mut line = String::new();
    for (order, m) in shown.iter().enumerate() {
        if order > 0 {
            line.push(' ');
        }
        let low = lcb(m.winrate, m.visits);
        match args.dialect {
            Dialect::Lz => {
                let _ = write!(
                    line,
                    "info move {} visits {} winrate {} prior {} lcb {} order {} pv {}",
                    m.mv,
                    m.visits,
                    (m.winrate * 10000.0).round() as i64,
                    (m.prior * 10000.0).round() as i64,
                    (low * 10000.0).round() as i64,
                    order,
                    pv_text(&m.pv)
                );
            }
            Dialect::Kata | Dialect::Sabaki => {
                let _ = write!(
                    line,
                    "info move {} visits {} edgeVisits {} utility {:.6} winrate {:.6} prior {:.6} \
                     lcb {:.6} utilityLcb {:.6} weight {:.6} order {} pv {}",
                    m.mv,
                    m.visits,
                    m.visits,
                    2.0 * m.winrate - 1.0,
                    m.winrate,
                    m.prior,
                    low,
                    2.0 * low - 1.0,
                    f64::from(m.visits),
                    order,
                    pv_text(&m.pv)
                );
            }
        }
    }
    if args.root_info && args.dialect == Dialect::Kata {
        let visits: u32 = snapshot.moves.iter().map(|m| m.visits).sum();
        let winrate = if visits == 0 {
            0.5
        } else {
            snapshot
                .moves
                .iter()
                .map(|m| m.winrate * f64::from(m.visits))
                .sum::<f64>()
                / f64::from(visits)
        };
        let _ = write!(
            line,
            " rootInfo visits {} utility {:.6} winrate {:.6} weight {:.6}",
            snapshot.root_visits,
            2.0 * winrate - 1.0,
            winrate,
            f64::from(snapshot.root_visits)
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
/// top-left corner (A19 on 19×19) across, then down. Each value is preceded by a space.
pub fn ownership_text(own: &[f64], color: Color) -> String {
    let size = (own.len() as f64).sqrt().round() as usize;
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut out = String::with_capacity(own.len() * 8);
    for row in (0..size).rev() {
        for col in 0..size {
            let v = own.get(row * size + col).copied().unwrap_or(0.0) * sign;
            // No "-0.0000".
            let v = if v.abs() < 5e-5 { 0.0 } else { v };
            let _ = write!(out, " {v:.4}");
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
    fn lz_lines_use_integers_times_10000() {
        let a = args(Dialect::Lz, "b 10").unwrap();
        let line = report_line(&a, Color::Black, &snapshot()).unwrap();
        let low = (lcb(0.55, 60) * 10000.0).round();
        assert_eq!(
            line,
            format!(
                "info move D4 visits 60 winrate 5500 prior 2500 lcb {low} order 0 pv D4 Q16 \
                 info move C3 visits 40 winrate 4500 prior 2500 lcb {} order 1 pv C3 Q16",
                (lcb(0.45, 40) * 10000.0).round()
            )
        );
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
    fn kata_lines_use_floats_and_print_ownership_from_the_top_left() {
        let a = args(Dialect::Kata, "w 10 ownership true rootInfo true").unwrap();
        let line = report_line(&a, Color::White, &snapshot()).unwrap();
        assert!(line.starts_with(
            "info move D4 visits 60 edgeVisits 60 utility 0.100000 winrate 0.550000 prior 0.250000"
        ), "{line}");
        assert!(
            line.contains(
                " order 1 pv C3 Q16 rootInfo visits 101 utility 0.020000 winrate 0.510000"
            ),
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
        assert_eq!(own[0], "-1.0000");
        assert_eq!(own[18 * 19], "0.5000");
        assert_eq!(own[1], "0.0000");
        // The Sabaki dialect never prints ownership and always has decimal points.
        let a = args(Dialect::Sabaki, "w 10").unwrap();
        let line = report_line(&a, Color::White, &snapshot()).unwrap();
        assert!(
            !line.contains("ownership") && line.contains("winrate 0.450000"),
            "{line}"
        );
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
