//! GoGui graphics from a search snapshot: the `gfx` responses of tablero's analyze commands
//! (visit counts, win rates, ownership), the principal variation of the `var` command, the
//! live-graphics blocks (`gogui-gfx:` on stderr) written while genmove searches, and the
//! search settings of the `param` command `tablero-params`. Pure text.

use std::fmt::Write as _;

use crate::go::search::SearchSnapshot;
use crate::go::{Color, Move, Vertex};

/// Lines of `gogui-analyze_commands`: `type/label/command`.
pub const ANALYZE_COMMANDS: &[&str] = &[
    "string/Final Score/final_score",
    "plist/Dead Stones/final_status_list dead",
    "plist/Alive Stones/final_status_list alive",
    "string/Show Board/showboard",
    "string/SGF/printsgf",
    "var/Principal Variation/tablero-pv",
    "gfx/Visit Counts/tablero-visits",
    "gfx/Win Rates/tablero-winrates",
    "gfx/Ownership/tablero-ownership",
    "param/Search Parameters/tablero-params",
];

/// The search settings a GoGui user changes through `tablero-params` (GoGui's `param`
/// type: without arguments the command lists `[type] key value` lines, with `key value` it
/// sets one).
#[derive(Clone, Debug, PartialEq)]
pub struct GuiSettings {
    /// Playouts per move (`search.playouts`); 0 = limited by time only.
    pub playouts: u64,
    /// Seconds per move while no GTP clock is set (`search.time_per_move`).
    pub time_per_move: f64,
    /// Search threads (`search.threads`).
    pub threads: usize,
    /// UCT exploration constant (`search.uct_c`).
    pub uct_c: f64,
    /// Resign below this win rate (`search.resign_threshold`); 0 = never.
    pub resign_threshold: f64,
    /// RAVE equivalence (`search.rave_equiv`); 0 = off.
    pub rave_equiv: f64,
    /// Heuristic priors (`search.priors`).
    pub priors: bool,
    /// Pondering after genmove (`search.ponder`).
    pub ponder: bool,
}

/// Why `tablero-params key value` was refused; `Display` is the text after `?`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("unknown parameter {0:?}")]
    UnknownKey(String),
    #[error("bad value {value:?} for {key}: {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: &'static str,
    },
}

/// Most search threads `tablero-params threads` accepts.
pub const MAX_GUI_THREADS: usize = 256;
/// Longest `time_per_move` `tablero-params` accepts, in seconds.
pub const MAX_GUI_TIME_PER_MOVE: f64 = 3600.0;

impl GuiSettings {
    /// The `param` listing: one `[type] key value` line per setting.
    pub fn listing(&self) -> String {
        let b = |v: bool| if v { "1" } else { "0" };
        [
            format!("[string] playouts {}", self.playouts),
            format!("[string] time_per_move {}", self.time_per_move),
            format!("[string] threads {}", self.threads),
            format!("[string] uct_c {}", self.uct_c),
            format!("[string] resign_threshold {}", self.resign_threshold),
            format!("[string] rave_equiv {}", self.rave_equiv),
            format!("[bool] priors {}", b(self.priors)),
            format!("[bool] ponder {}", b(self.ponder)),
        ]
        .join("\n")
    }

    /// Sets `key` to `value`, checking its range; on error nothing changes.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let bad = |expected| ParamError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        let real = |lo: f64, hi: f64, expected| {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && (lo..=hi).contains(v))
                .ok_or_else(|| bad(expected))
        };
        let flag = || match value {
            "1" | "true" => Ok(true),
            "0" | "false" => Ok(false),
            _ => Err(bad("0 or 1")),
        };
        match key {
            "playouts" => {
                self.playouts = value
                    .parse()
                    .ok()
                    .filter(|n| *n <= 1_000_000_000)
                    .ok_or_else(|| bad("an integer 0..=1000000000"))?;
            }
            "time_per_move" => {
                let t = real(
                    0.0,
                    MAX_GUI_TIME_PER_MOVE,
                    "seconds, more than 0 up to 3600",
                )?;
                if t <= 0.0 {
                    return Err(bad("seconds, more than 0 up to 3600"));
                }
                self.time_per_move = t;
            }
            "threads" => {
                self.threads = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_GUI_THREADS).contains(n))
                    .ok_or_else(|| bad("an integer 1..=256"))?;
            }
            "uct_c" => self.uct_c = real(0.0, 100.0, "a number 0..=100")?,
            "resign_threshold" => self.resign_threshold = real(0.0, 1.0, "a number 0..=1")?,
            "rave_equiv" => self.rave_equiv = real(0.0, 1e9, "a number 0..=1e9")?,
            "priors" => self.priors = flag()?,
            "ponder" => self.ponder = flag()?,
            _ => return Err(ParamError::UnknownKey(key.to_string())),
        }
        Ok(())
    }
}

/// The live-graphics command that clears the board's markup.
pub const LIVE_CLEAR: &str = "gogui-gfx: CLEAR";

fn summary(snapshot: &SearchSnapshot, color: Color) -> String {
    match snapshot.moves.first() {
        Some(best) if best.visits > 0 => format!(
            "TEXT {} {} {:.1}% ({} visits, {} playouts)",
            color.letter(),
            best.mv,
            best.winrate * 100.0,
            best.visits,
            snapshot.playouts
        ),
        _ => format!("TEXT {}: no move searched yet", color.letter()),
    }
}

/// The best move's principal variation, moves only (GoGui's `var`: alternating colours, the
/// side to move first).
pub fn pv(snapshot: &SearchSnapshot) -> String {
    snapshot
        .moves
        .first()
        .filter(|m| m.visits > 0)
        .map(|m| {
            m.pv.iter()
                .map(|mv| match mv {
                    Move::Pass => "PASS".to_string(),
                    Move::Play(v) => v.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// Board moves with visits, best first.
fn visited(
    snapshot: &SearchSnapshot,
) -> impl Iterator<Item = (Vertex, &crate::go::search::MoveStat)> {
    snapshot.moves.iter().filter_map(|m| match m.mv {
        Move::Play(v) if m.visits > 0 => Some((v, m)),
        _ => None,
    })
}

/// Background colours from cold (few visits) to hot (most visits).
const HEAT: [&str; 4] = ["#c0d8ff", "#a0ffa0", "#ffe080", "#ff8080"];

/// `gfx`: visit counts as labels, the busiest moves shaded, the best move squared.
pub fn visits(snapshot: &SearchSnapshot, color: Color) -> String {
    let mut out = String::new();
    let max = visited(snapshot).map(|(_, m)| m.visits).max().unwrap_or(0);
    let mut label = String::from("LABEL");
    let mut shades: [Vec<String>; 4] = Default::default();
    for (v, m) in visited(snapshot) {
        let _ = write!(label, " {v} {}", m.visits);
        let level = (m.visits as usize * HEAT.len()).saturating_sub(1) / max.max(1) as usize;
        shades[level.min(HEAT.len() - 1)].push(v.to_string());
    }
    for (shade, points) in HEAT.iter().zip(&shades) {
        if !points.is_empty() {
            let _ = writeln!(out, "COLOR {shade} {}", points.join(" "));
        }
    }
    if label.len() > "LABEL".len() {
        out.push_str(&label);
        out.push('\n');
    }
    if let Some((v, _)) = visited(snapshot).next() {
        let _ = writeln!(out, "SQUARE {v}");
    }
    out.push_str(&summary(snapshot, color));
    out
}

/// `gfx`: the win rate (percent, for the side searched) of every visited move.
pub fn winrates(snapshot: &SearchSnapshot, color: Color) -> String {
    let mut out = String::new();
    let mut label = String::from("LABEL");
    for (v, m) in visited(snapshot) {
        let _ = write!(label, " {v} {}", (m.winrate * 100.0).round() as i64);
    }
    if label.len() > "LABEL".len() {
        out.push_str(&label);
        out.push('\n');
    }
    out.push_str(&summary(snapshot, color));
    out
}

/// `gfx`: ownership (+1 Black, -1 White, indexed `row * size + col`) as GoGui influence,
/// positive for Black, and the area balance it implies.
pub fn ownership(own: &[f64], size: usize) -> String {
    let mut out = String::from("INFLUENCE");
    let mut balance = 0.0;
    for row in 0..size {
        for col in 0..size {
            let o = own
                .get(row * size + col)
                .copied()
                .unwrap_or(0.0)
                .clamp(-1.0, 1.0);
            balance += o;
            let o = if o.abs() < 0.005 { 0.0 } else { o };
            let _ = write!(out, " {} {o:.2}", Vertex::new(col, row));
        }
    }
    let _ = write!(
        out,
        "\nTEXT expected area balance: {} {:.1} points before komi",
        if balance >= 0.0 { "Black" } else { "White" },
        balance.abs()
    );
    out
}

/// A multi-line live-graphics block for stderr: the best line as a variation and the visit
/// counts, ended by the empty line GoGui expects.
pub fn live_block(snapshot: &SearchSnapshot, color: Color) -> String {
    let mut out = String::from("gogui-gfx:\n");
    if let Some(best) = snapshot.moves.first().filter(|m| m.visits > 0) {
        out.push_str("VAR");
        let mut c = color;
        for mv in &best.pv {
            let point = match mv {
                Move::Pass => "PASS".to_string(),
                Move::Play(v) => v.to_string(),
            };
            let _ = write!(out, " {} {point}", c.letter());
            c = c.opponent();
        }
        out.push('\n');
    }
    let mut label = String::from("LABEL");
    for (v, m) in visited(snapshot).take(20) {
        let _ = write!(label, " {v} {}", m.visits);
    }
    if label.len() > "LABEL".len() {
        out.push_str(&label);
        out.push('\n');
    }
    out.push_str(&summary(snapshot, color));
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::search::MoveStat;
    use std::time::Duration;

    fn m(s: &str) -> Move {
        Move::parse(s, 9).unwrap()
    }

    fn snapshot() -> SearchSnapshot {
        let stat = |mv: &str, visits, winrate| MoveStat {
            mv: m(mv),
            visits,
            winrate,
            prior: 0.5,
            pv: vec![m(mv), m("pass"), m("C3")],
        };
        SearchSnapshot {
            playouts: 99,
            root_visits: 100,
            elapsed: Duration::ZERO,
            moves: vec![
                stat("E5", 80, 0.6),
                stat("pass", 15, 0.4),
                stat("D4", 4, 0.25),
                stat("A1", 0, 0.5),
            ],
            ownership: None,
        }
    }

    #[test]
    fn gfx_responses() {
        let s = snapshot();
        assert_eq!(pv(&s), "E5 PASS C3");
        assert_eq!(
            visits(&s, Color::Black),
            "COLOR #c0d8ff D4\nCOLOR #ff8080 E5\nLABEL E5 80 D4 4\nSQUARE E5\n\
             TEXT B E5 60.0% (80 visits, 99 playouts)"
        );
        assert_eq!(
            winrates(&s, Color::White),
            "LABEL E5 60 D4 25\nTEXT W E5 60.0% (80 visits, 99 playouts)"
        );
        let mut own = vec![0.0; 4];
        own[0] = 1.0; // A1
        own[3] = -0.25; // B2
        assert_eq!(
            ownership(&own, 2),
            "INFLUENCE A1 1.00 B1 0.00 A2 0.00 B2 -0.25\n\
             TEXT expected area balance: Black 0.8 points before komi"
        );
        let empty = SearchSnapshot {
            moves: vec![],
            ..snapshot()
        };
        assert_eq!(pv(&empty), "");
        assert_eq!(visits(&empty, Color::Black), "TEXT B: no move searched yet");
    }

    #[test]
    fn params_list_and_set_as_gogui_expects() {
        let mut g = GuiSettings {
            playouts: 0,
            time_per_move: 1.5,
            threads: 2,
            uct_c: 0.7,
            resign_threshold: 0.1,
            rave_equiv: 0.0,
            priors: true,
            ponder: false,
        };
        assert_eq!(
            g.listing(),
            "[string] playouts 0\n[string] time_per_move 1.5\n[string] threads 2\n\
             [string] uct_c 0.7\n[string] resign_threshold 0.1\n[string] rave_equiv 0\n\
             [bool] priors 1\n[bool] ponder 0"
        );
        g.set("playouts", "500").unwrap();
        g.set("priors", "0").unwrap();
        g.set("time_per_move", "0.25").unwrap();
        assert_eq!((g.playouts, g.priors, g.time_per_move), (500, false, 0.25));
        let before = g.clone();
        for (k, v) in [
            ("threads", "0"),
            ("threads", "many"),
            ("uct_c", "nan"),
            ("resign_threshold", "1.5"),
            ("time_per_move", "0"),
            ("ponder", "yes"),
        ] {
            assert!(
                matches!(g.set(k, v), Err(ParamError::BadValue { .. })),
                "{k} {v}"
            );
        }
        assert_eq!(
            g.set("komi", "6.5"),
            Err(ParamError::UnknownKey("komi".into()))
        );
        assert_eq!(g, before);
    }

    #[test]
    fn live_blocks_end_with_an_empty_line() {
        let block = live_block(&snapshot(), Color::White);
        assert_eq!(
            block,
            "gogui-gfx:\nVAR W E5 B PASS W C3\nLABEL E5 80 D4 4\n\
             TEXT W E5 60.0% (80 visits, 99 playouts)\n\n"
        );
    }
}
