//! The one configuration: a TOML file (`configs/tablero.toml` documents every key), defaults for
//! every key, `--set section.key=value` overrides, and validation with clear errors.
//!
//! [`Config::load`] reads the file (or none), checks every key and value type against the
//! defaults (so a typo is reported as `unknown config key "search.uct"`), applies the overrides
//! on the same value tree, deserializes, and finally runs [`Config::validate`].

mod diplomacy;
mod evolve;
mod go;
mod gtp;
mod gvgai;
mod log;
mod planning;
mod search;
mod server;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::{Table, Value};

pub use diplomacy::{
    DiplomacyBotConfig, DiplomacyConfig, DiplomacyServerConfig, ExternalSeatConfig,
};
pub use evolve::EvolveConfig;
pub use go::GoConfig;
pub use gtp::GtpConfig;
pub use gvgai::GvgaiConfig;
pub use log::{LogConfig, log_filter};
pub use planning::PlanningConfig;
pub use search::{MAX_THREADS, SearchConfig};
pub use server::ServerConfig;

/// The whole configuration: one field per `[section]` of the TOML file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub log: LogConfig,
    pub server: ServerConfig,
    pub gtp: GtpConfig,
    pub go: GoConfig,
    pub search: SearchConfig,
    pub diplomacy: DiplomacyConfig,
    pub gvgai: GvgaiConfig,
    /// `[jic]`: the JIC Diplomacy bot (every bot named "jic"/"jic-thesis").
    pub jic: crate::bots::jic::JicConfig,
    /// `[evolve]`: dungeon GA and NPC GP (`tablero evolve`, `protocols/evolution.md`).
    pub evolve: EvolveConfig,
    /// `[planning]`: planners of `tablero gvgai plan` and the `planner` controller.
    pub planning: PlanningConfig,
}

/// Everything that can be wrong with a configuration; every message names the key at fault.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {} is not valid TOML: {message}", path.display())]
    Syntax { path: PathBuf, message: String },
    #[error("override {0:?} is not of the form section.key=value")]
    OverrideSyntax(String),
    #[error("unknown config key {0:?}")]
    UnknownKey(String),
    #[error("config key {key:?} expects {expected}, got {got}")]
    WrongType {
        key: String,
        expected: &'static str,
        got: String,
    },
    #[error("invalid value for config key {key:?}: {message}")]
    Invalid { key: String, message: String },
    #[error("internal error building the config schema: {0}")]
    Schema(String),
}

impl ConfigError {
    fn invalid(key: &str, message: impl Into<String>) -> ConfigError {
        ConfigError::Invalid {
            key: key.to_string(),
            message: message.into(),
        }
    }
}

impl Config {
    /// Loads the configuration: built-in defaults, then the TOML file at `path` (if any), then
    /// each `section.key=value` override in order, then validation.
    pub fn load(path: Option<&Path>, overrides: &[String]) -> Result<Config, ConfigError> {
        let file = match path {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                })?;
                Some((path, text))
            }
            None => None,
        };
        Config::from_text(file.as_ref().map(|(p, t)| (*p, t.as_str())), overrides)
    }

    /// As [`Config::load`], with the file's text given (and its path, for messages).
    pub fn from_text(
        file: Option<(&Path, &str)>,
        overrides: &[String],
    ) -> Result<Config, ConfigError> {
        let schema = schema()?;
        let mut tree = Table::new();
        if let Some((path, text)) = file {
            let file: Table = text
                .parse()
                .map_err(|e: toml::de::Error| ConfigError::Syntax {
                    path: path.to_path_buf(),
                    message: locate(text, &e),
                })?;
            tree = check_table(file, &schema, "")?;
        }
        for item in overrides {
            apply_override(&mut tree, &schema, item)?;
        }
        let config = deserialize(tree, &schema)?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every value range; the first problem found is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.log.validate()?;
        self.server.validate()?;
        self.gvgai.validate()?;
        self.planning.validate()?;
        self.gtp.validate()?;
        self.go.validate()?;
        self.evolve.validate()?;
        self.search.validate()?;
        self.diplomacy.validate()?;
        if let Err((key, message)) = self.jic.validate() {
            return Err(inv(&format!("jic.{key}"), message));
        }
        Ok(())
    }
}

fn inv(key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError::invalid(key, message)
}

/// A TOML syntax error as one line: `line L, column C: message`.
fn locate(text: &str, e: &toml::de::Error) -> String {
    let message = e
        .message()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    match e.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message.to_string(),
    }
}

/// The defaults as a TOML tree: the set of keys and the type of every value.
fn schema() -> Result<Table, ConfigError> {
    match Value::try_from(Config::default()) {
        Ok(Value::Table(t)) => Ok(t),
        Ok(other) => Err(ConfigError::Schema(format!(
            "defaults are a {}, not a table",
            other.type_str()
        ))),
        Err(e) => Err(ConfigError::Schema(e.to_string())),
    }
}

fn join_key(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Checks a (file) table against the schema: known keys, sections where sections belong,
/// scalar types that match (integers are accepted where floats are expected).
fn check_table(table: Table, schema: &Table, prefix: &str) -> Result<Table, ConfigError> {
    let mut out = Table::new();
    for (key, value) in table {
        let full = join_key(prefix, &key);
        let Some(expected) = schema.get(&key) else {
            return Err(ConfigError::UnknownKey(full));
        };
        let checked = match (expected, value) {
            (Value::Table(sub), Value::Table(given)) => {
                Value::Table(check_table(given, sub, &full)?)
            }
            (expected, value) => coerce(&full, expected, value)?,
        };
        out.insert(key, checked);
    }
    Ok(out)
}

/// The value, converted to the schema's type where that is lossless, or a type error.
fn coerce(key: &str, expected: &Value, value: Value) -> Result<Value, ConfigError> {
    let wrong = |expected: &'static str, value: &Value| ConfigError::WrongType {
        key: key.to_string(),
        expected,
        got: describe(value),
    };
    match (expected, value) {
        (Value::Table(_), value) => Err(wrong("a section (table)", &value)),
        (Value::Float(_), Value::Integer(i)) => Ok(Value::Float(i as f64)),
        (Value::Integer(_), Value::Integer(i)) if i < 0 => {
            Err(wrong("a non-negative integer", &Value::Integer(i)))
        }
        (e, v) if e.same_type(&v) => Ok(v),
        (e, v) => Err(wrong(type_name(e), &v)),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Integer(_) => "a non-negative integer",
        Value::Float(_) => "a number",
        Value::Boolean(_) => "true or false",
        Value::Datetime(_) => "a date-time",
        Value::Array(_) => "an array",
        Value::Table(_) => "a section (table)",
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Table(_) => "a section (table)".to_string(),
        Value::Array(_) => "an array".to_string(),
        other => other.to_string(),
    }
}

/// Parses an override value as a TOML scalar: integer, float, bool, a quoted TOML string, or
/// else the raw text as a string.
fn parse_scalar(raw: &str) -> Value {
    let text = raw.trim();
    if let Ok(i) = text.parse::<i64>() {
        return Value::Integer(i);
    }
    let special = ["inf", "+inf", "-inf", "nan", "+nan", "-nan"].contains(&text);
    if special || text.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.')
    {
        if let Ok(f) = text.parse::<f64>() {
            return Value::Float(f);
        }
    }
    match text {
        "true" => return Value::Boolean(true),
        "false" => return Value::Boolean(false),
        _ => {}
    }
    if text.len() >= 2 && (text.starts_with('"') || text.starts_with('\'')) {
        if let Ok(table) = format!("v = {text}").parse::<Table>() {
            if let Some(Value::String(s)) = table.get("v") {
                return Value::String(s.clone());
            }
        }
    }
    Value::String(raw.to_string())
}

/// Applies one `section.key=value` override onto the tree.
fn apply_override(tree: &mut Table, schema: &Table, item: &str) -> Result<(), ConfigError> {
    let (key, raw) = item
        .split_once('=')
        .ok_or_else(|| ConfigError::OverrideSyntax(item.to_string()))?;
    let key = key.trim();
    let segments: Vec<&str> = key.split('.').collect();
    if key.is_empty() || segments.iter().any(|s| s.is_empty()) {
        return Err(ConfigError::OverrideSyntax(item.to_string()));
    }
    let (last, sections) = segments
        .split_last()
        .ok_or_else(|| ConfigError::OverrideSyntax(item.to_string()))?;
    let mut schema_at = schema;
    let mut tree_at = tree;
    let mut prefix = String::new();
    for section in sections {
        prefix = join_key(&prefix, section);
        schema_at = match schema_at.get(*section) {
            Some(Value::Table(t)) => t,
            Some(_) => return Err(ConfigError::UnknownKey(key.to_string())),
            None => return Err(ConfigError::UnknownKey(prefix)),
        };
        let entry = tree_at
            .entry(section.to_string())
            .or_insert_with(|| Value::Table(Table::new()));
        tree_at = match entry {
            Value::Table(t) => t,
            // check_table guarantees sections are tables; anything else is replaced.
            other => {
                *other = Value::Table(Table::new());
                match other {
                    Value::Table(t) => t,
                    _ => {
                        return Err(ConfigError::Schema(format!(
                            "section {prefix} is not a table"
                        )));
                    }
                }
            }
        };
    }
    let expected = schema_at
        .get(*last)
        .ok_or_else(|| ConfigError::UnknownKey(key.to_string()))?;
    let value = match (expected, parse_scalar(raw)) {
        // A string key takes the text as written (`gtp.name=42` names the engine "42").
        (Value::String(_), Value::String(s)) => Value::String(s),
        (Value::String(_), _) => Value::String(raw.trim().to_string()),
        (expected, value) => coerce(key, expected, value)?,
    };
    tree_at.insert(last.to_string(), value);
    Ok(())
}

/// Deserializes the checked tree; on failure, finds the key whose value is at fault.
fn deserialize(tree: Table, schema: &Table) -> Result<Config, ConfigError> {
    match Config::deserialize(Value::Table(tree.clone())) {
        Ok(config) => Ok(config),
        Err(whole) => {
            for (section, values) in &tree {
                let Value::Table(values) = values else {
                    continue;
                };
                for (key, value) in values {
                    let mut probe = schema.clone();
                    if let Some(Value::Table(s)) = probe.get_mut(section) {
                        s.insert(key.clone(), value.clone());
                    }
                    if let Err(e) = Config::deserialize(Value::Table(probe)) {
                        return Err(ConfigError::invalid(
                            &join_key(section, key),
                            e.message().to_string(),
                        ));
                    }
                }
            }
            Err(ConfigError::invalid("", whole.message().to_string()))
        }
    }
}
