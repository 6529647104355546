//! The table of learned gammas and its text file.
//!
//! The file has comment lines (`#`, the first ones name the command that made the table) and
//! one line per feature: `GROUP VALUE GAMMA`, the value in decimal, or in hexadecimal (`0x…`)
//! for the pattern groups `pat3` and `shape`. A feature missing from the table has gamma 1.
//! The table trained here is compiled into the binary (`Table::builtin`, from
//! `data/go/mm-patterns.txt`).

use super::features::{Feature, Group, pass_feature, play_features};
use crate::go::Color;
use crate::go::board::{Board, Point};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The table trained by `tablero go-train` (see its header for the command).
const BUILTIN: &str = include_str!("../../../../data/go/mm-patterns.txt");

/// Why a table file cannot be read: the file, or its text (`TableError`).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read {path:?}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("{path:?}: {source}")]
    Parse {
        path: std::path::PathBuf,
        source: TableError,
    },
}

/// Why a table file does not load.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TableError {
    #[error("line {line}: {reason}: {text:?}")]
    Line {
        line: usize,
        text: String,
        reason: &'static str,
    },
    #[error("line {line}: feature {group} {value:#x} appears twice")]
    Duplicate {
        line: usize,
        group: &'static str,
        value: u64,
    },
}

/// A multiplicative hasher for feature keys (already well mixed; no DoS concern: the keys
/// come from the program's own table).
#[derive(Default)]
pub struct FeatureHasher(u64);

impl Hasher for FeatureHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }
}

/// A map keyed by features with `FeatureHasher`.
pub type FeatureMap<V> = HashMap<Feature, V, BuildHasherDefault<FeatureHasher>>;

/// Learned gammas of move features.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Comment lines of the file, without the leading `#` and one space.
    pub header: Vec<String>,
    gammas: FeatureMap<f64>,
}

impl Table {
    /// A table from gammas and header lines.
    pub fn new(header: Vec<String>, gammas: impl IntoIterator<Item = (Feature, f64)>) -> Table {
        Table {
            header,
            gammas: gammas.into_iter().collect(),
        }
    }

    /// The table compiled into the binary; empty (every gamma 1) if it does not parse, which
    /// a test rules out.
    pub fn builtin() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        TABLE.get_or_init(|| Table::parse(BUILTIN).unwrap_or_default())
    }

    /// Reads and parses the table file at `path`.
    pub fn read(path: &std::path::Path) -> Result<Table, ReadError> {
        let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Table::parse(&text).map_err(|source| ReadError::Parse {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Parses the text of a table file.
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let mut table = Table::default();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let trimmed = raw.trim();
            if let Some(comment) = trimmed.strip_prefix('#') {
                table
                    .header
                    .push(comment.strip_prefix(' ').unwrap_or(comment).to_string());
                continue;
            }
            if trimmed.is_empty() {
                continue;
            }
            let bad = |reason| TableError::Line {
                line,
                text: raw.to_string(),
                reason,
            };
            let fields: Vec<&str> = trimmed.split_whitespace().collect();
            let [group, value, gamma] = fields[..] else {
                return Err(bad("expected GROUP VALUE GAMMA"));
            };
            let group = Group::from_name(group).ok_or_else(|| bad("unknown feature group"))?;
            let value = match value.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => value.parse(),
            }
            .map_err(|_| bad("the value is not an integer"))?;
            let gamma: f64 = gamma
                .parse()
                .ok()
                .filter(|g: &f64| g.is_finite() && *g > 0.0)
                .ok_or_else(|| bad("the gamma is not a finite number > 0"))?;
            if table
                .gammas
                .insert(Feature::new(group, value), gamma)
                .is_some()
            {
                return Err(TableError::Duplicate {
                    line,
                    group: group.name(),
                    value,
                });
            }
        }
        Ok(table)
    }

    /// The file text: the header as comments, then the features sorted by group and value.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for h in &self.header {
            out.push_str(&format!("# {h}\n"));
        }
        let mut rows: Vec<(&Feature, &f64)> = self.gammas.iter().collect();
        rows.sort_by_key(|(f, _)| **f);
        for (f, g) in rows {
            if f.group.is_pattern() {
                out.push_str(&format!("{} {:#x} {g:.6}\n", f.group.name(), f.value));
            } else {
                out.push_str(&format!("{} {} {g:.6}\n", f.group.name(), f.value));
            }
        }
        out
    }

    /// Number of features with a gamma.
    pub fn len(&self) -> usize {
        self.gammas.len()
    }

    pub fn is_empty(&self) -> bool {
        self.gammas.is_empty()
    }

    /// The gamma of a feature (1 when the table has none).
    #[inline]
    pub fn gamma(&self, f: &Feature) -> f64 {
        self.gammas.get(f).copied().unwrap_or(1.0)
    }

    /// True if the table has a gamma for the feature.
    #[inline]
    pub fn knows(&self, f: &Feature) -> bool {
        self.gammas.contains_key(f)
    }

    /// The gammas of the features, sorted (for tests and reports).
    pub fn entries(&self) -> Vec<(Feature, f64)> {
        let mut rows: Vec<(Feature, f64)> = self.gammas.iter().map(|(f, g)| (*f, *g)).collect();
        rows.sort_by_key(|(f, _)| *f);
        rows
    }

    /// The strength of `color` playing the legal point `p` (the product of its features'
    /// gammas); `scratch` is reused between calls.
    pub fn move_gamma(
        &self,
        board: &Board,
        color: Color,
        p: Point,
        last: [Option<Point>; 2],
        scratch: &mut Vec<Feature>,
    ) -> f64 {
        scratch.clear();
        let known = |key| self.knows(&Feature::new(Group::Shape, key));
        play_features(board, color, p, last, known, scratch);
        scratch.iter().map(|f| self.gamma(f)).product()
    }

    /// The strength of a pass.
    pub fn pass_gamma(&self, after_pass: bool) -> f64 {
        self.gamma(&pass_feature(after_pass))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_header_and_gammas() {
        let t = Table::new(
            vec![
                "command: tablero go-train --seed 1".into(),
                "games: 3".into(),
            ],
            [
                (Feature::new(Group::Capture, 2), 3.5),
                (Feature::new(Group::Pat3, 0x1234), 0.25),
                (Feature::new(Group::Shape, 0x3000_0000_0000_0abc), 1.75),
            ],
        );
        let text = t.to_text();
        assert!(text.starts_with("# command: tablero go-train --seed 1\n"));
        assert!(text.contains("pat3 0x1234 0.250000\n"));
        let back = Table::parse(&text).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.gamma(&Feature::new(Group::Capture, 2)), 3.5);
        assert_eq!(back.gamma(&Feature::new(Group::Capture, 1)), 1.0);
    }

    #[test]
    fn malformed_lines_are_named() {
        let err = |text: &str| Table::parse(text).unwrap_err().to_string();
        assert_eq!(
            err("# ok\ncapture 1\n"),
            "line 2: expected GROUP VALUE GAMMA: \"capture 1\""
        );
        assert!(err("colour 1 2.0").contains("unknown feature group"));
        assert!(err("capture x 2.0").contains("not an integer"));
        assert!(err("capture 1 -2").contains("finite number > 0"));
        assert!(err("capture 1 nan").contains("finite number > 0"));
        assert!(
            err("capture 1 2\ncapture 1 3").contains("line 2: feature capture 0x1 appears twice")
        );
    }

    #[test]
    fn the_builtin_table_parses_and_is_not_empty() {
        let t = Table::parse(BUILTIN).unwrap();
        assert!(!t.is_empty());
        assert!(t.header.iter().any(|h| h.contains("tablero go-train")));
        assert_eq!(Table::builtin().len(), t.len());
    }
}
