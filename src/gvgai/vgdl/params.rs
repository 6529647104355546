//! Typed access to the `key=value` parameters of one VGDL line, with the line and the
//! construct named in errors, and warnings for parameters nothing asked for.

use super::VgdlError;
use super::model::{Dir, TypeId};
use super::sprites::Resolver;

/// Parameters of one line, tracking which were used so that unknown ones are reported.
pub(super) struct Params<'a> {
    line: usize,
    pub(super) what: String,
    items: Vec<(&'a str, &'a str)>,
    used: Vec<bool>,
}

impl<'a> Params<'a> {
    pub(super) fn new(line: usize, what: String, items: Vec<(&'a str, &'a str)>) -> Self {
        let used = vec![false; items.len()];
        Params {
            line,
            what,
            items,
            used,
        }
    }

    pub(super) fn raw(&mut self, key: &str) -> Option<&'a str> {
        let mut found = None;
        for (i, (k, v)) in self.items.iter().enumerate() {
            if *k == key {
                self.used[i] = true;
                found = Some(*v);
            }
        }
        found
    }

    pub(super) fn err(&self, message: String) -> VgdlError {
        VgdlError::Semantic {
            line: self.line,
            message,
        }
    }

    pub(super) fn int(&mut self, key: &str) -> Result<Option<i32>, VgdlError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => {
                // Multi-player lists "a,b": the first value is player 0's.
                let first = v.split(',').next().unwrap_or(v);
                first
                    .parse::<i32>()
                    .map(Some)
                    .or_else(|_| first.parse::<f64>().map(|f| Some(f as i32)))
                    .map_err(|_| {
                        self.err(format!(
                            "parameter {key}={v} of {} is not an integer",
                            self.what
                        ))
                    })
            }
        }
    }

    pub(super) fn float(&mut self, key: &str) -> Result<Option<f64>, VgdlError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => v.parse::<f64>().map(Some).map_err(|_| {
                self.err(format!(
                    "parameter {key}={v} of {} is not a number",
                    self.what
                ))
            }),
        }
    }

    pub(super) fn boolean(&mut self, key: &str) -> Result<Option<bool>, VgdlError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => {
                let first = v.split(',').next().unwrap_or(v);
                if first.eq_ignore_ascii_case("true") {
                    Ok(Some(true))
                } else if first.eq_ignore_ascii_case("false") {
                    Ok(Some(false))
                } else {
                    Err(self.err(format!(
                        "parameter {key}={v} of {} is not True/False",
                        self.what
                    )))
                }
            }
        }
    }

    /// A parameter GVG-AI keeps in a text field (`counter`, `limits`), or `default`. GVG-AI
    /// reads a value as an integer, a number or a flag first when it can, and a text field
    /// cannot take those, so such a value (`counter=1`, `limits=0`) leaves the default.
    pub(super) fn text_field(&mut self, key: &str, default: &'a str) -> &'a str {
        match self.raw(key) {
            Some(v) if !reads_as_value(v) => v,
            _ => default,
        }
    }

    pub(super) fn ignore(&mut self, keys: &[&str]) {
        for k in keys {
            let _ = self.raw(k);
        }
    }

    /// The items whose key is not in `keys`, in line order, used or not.
    pub(super) fn items_except(&self, keys: &[&str]) -> Vec<(&'a str, &'a str)> {
        self.items
            .iter()
            .copied()
            .filter(|(k, _)| !keys.contains(k))
            .collect()
    }

    /// Mark every parameter as used: the line's remaining parameters were handed on.
    pub(super) fn use_all(&mut self) {
        for u in self.used.iter_mut() {
            *u = true;
        }
    }

    /// Unknown parameters are ignored, as GVG-AI does, and reported as warnings.
    pub(super) fn finish(self, warnings: &mut Vec<String>) -> Result<(), VgdlError> {
        for (i, (k, _)) in self.items.iter().enumerate() {
            if !self.used[i] {
                let w = format!(
                    "line {}: unknown parameter \"{k}\" for {} (ignored)",
                    self.line, self.what
                );
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
        }
        Ok(())
    }
}

/// A comma-separated list of sprite names, as type ids.
pub(super) fn type_list(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    key: &str,
) -> Result<Option<Vec<TypeId>>, VgdlError> {
    match p.raw(key) {
        None => Ok(None),
        Some(v) => {
            let mut out = Vec::new();
            for name in v.split(',').filter(|s| !s.is_empty()) {
                let id = r.id(name).ok_or_else(|| {
                    p.err(format!("unknown sprite \"{name}\" in {key}= of {}", p.what))
                })?;
                out.push(id);
            }
            Ok(Some(out))
        }
    }
}

/// The first type of a type-list parameter.
pub(super) fn one_type(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    key: &str,
) -> Result<Option<TypeId>, VgdlError> {
    Ok(type_list(r, p, key)?.and_then(|v| v.first().copied()))
}

/// The first type of a type-list parameter the construct cannot do without.
pub(super) fn need_type(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    key: &str,
) -> Result<TypeId, VgdlError> {
    one_type(r, p, key)?.ok_or_else(|| p.err(format!("{} needs {key}=", p.what)))
}

/// An orientation parameter: `UP`, `DOWN`, `LEFT`, `RIGHT` or `NONE` (or GVG-AI's direction
/// constants `DUP`, `DDOWN`, `DLEFT`, `DRIGHT`, `DNONE`), in any case.
pub(super) fn direction(p: &mut Params<'_>, key: &str) -> Result<Option<Dir>, VgdlError> {
    match p.raw(key) {
        None => Ok(None),
        Some(v) => Ok(Some(match v.to_ascii_uppercase().as_str() {
            "UP" | "DUP" => Dir::UP,
            "DOWN" | "DDOWN" => Dir::DOWN,
            "LEFT" | "DLEFT" => Dir::LEFT,
            "RIGHT" | "DRIGHT" => Dir::RIGHT,
            "NONE" | "DNONE" => Dir::NONE,
            _ => return Err(p.err(format!("unknown orientation \"{v}\" in {}", p.what))),
        })),
    }
}

/// Whether GVG-AI's parameter reader turns `v` into an integer, a number or a flag
/// (`Integer.parseInt`, `Double.parseDouble`, `true`/`false`).
fn reads_as_value(v: &str) -> bool {
    let t = v.trim();
    let number = t.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(t);
    v.parse::<i32>().is_ok()
        || (!number.is_empty() && number.parse::<f64>().is_ok())
        || v.eq_ignore_ascii_case("true")
        || v.eq_ignore_ascii_case("false")
}
