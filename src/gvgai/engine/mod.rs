//! The GVG-AI forward model for grid-physics VGDL games.
//!
//! [`Rules`] compiles a [`GameDescription`](crate::gvgai::vgdl::GameDescription) once;
//! [`GameState`] is a running game: `Clone` is the forward model's copy (sprites live in
//! per-type `Vec`s, the rules are shared through an `Arc`), and [`GameState::advance`] plays
//! one game cycle in GVG-AI's order (see [`state`]). Randomness comes from a
//! `java.util.Random`-compatible generator seeded per game ([`rng`]).
//!
//! Tick counting follows the Java forward model: `tick()` is the number of cycles played, and
//! the cycle that ends the game by the time limit is the one processed at tick 2000.

pub mod bounce;
pub mod effects;
pub mod path;
pub mod rng;
pub mod rules;
pub mod scripted;
pub mod state;

use std::path::Path;
use std::sync::Arc;

pub use rules::{Action, Rules, TypeProps};
pub use state::{
    BlockSize, Category, GameState, MAX_TICKS, Observed, ObservedSprite, Opponent, Sprite, Winner,
};

use crate::gvgai::vgdl::{Level, VgdlError, parse_game, parse_level};

/// The engine cannot run a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    Vgdl(#[from] VgdlError),
    #[error("invalid game: {message}")]
    Invalid { message: String },
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
    #[error("unknown action character '{0}' (expected U D L R N S)")]
    BadAction(char),
    #[error("no level {level} for game {game}")]
    NoLevel { game: String, level: usize },
}

/// A game description with its levels, ready to start games.
#[derive(Debug, Clone)]
pub struct Game {
    pub name: String,
    pub rules: Arc<Rules>,
    pub levels: Vec<Level>,
}

impl Game {
    /// Build from the texts of a game description and its level files.
    pub fn from_texts(name: &str, game: &str, levels: &[&str]) -> Result<Game, EngineError> {
        Game::from_texts_in(name, game, levels, None)
    }

    /// As [`Game::from_texts`], with `EvolvedNPC policy=FILE` paths relative to `dir`.
    pub fn from_texts_in(
        name: &str,
        game: &str,
        levels: &[&str],
        dir: Option<&Path>,
    ) -> Result<Game, EngineError> {
        let desc = parse_game(game)?;
        let levels = levels
            .iter()
            .map(|l| parse_level(&desc, l))
            .collect::<Result<Vec<_>, _>>()?;
        let rules = Arc::new(Rules::new_in(desc, dir)?);
        Ok(Game {
            name: name.to_string(),
            rules,
            levels,
        })
    }

    /// Load `<dir>/<name>.txt` and `<dir>/<name>_lvl0.txt` … `_lvl4.txt` (the levels that exist).
    pub fn load(dir: &Path, name: &str) -> Result<Game, EngineError> {
        let read = |p: &Path| {
            std::fs::read_to_string(p).map_err(|e| EngineError::Io {
                path: p.display().to_string(),
                message: e.to_string(),
            })
        };
        let game = read(&dir.join(format!("{name}.txt")))?;
        let mut levels = Vec::new();
        for i in 0.. {
            let p = dir.join(format!("{name}_lvl{i}.txt"));
            if !p.exists() {
                break;
            }
            levels.push(read(&p)?);
        }
        let refs: Vec<&str> = levels.iter().map(String::as_str).collect();
        Game::from_texts_in(name, &game, &refs, Some(dir))
    }

    /// Start `level` with the default block size.
    pub fn start(&self, level: usize, seed: i64) -> Result<GameState, EngineError> {
        self.start_with(level, seed, BlockSize::Standard)
    }

    pub fn start_with(
        &self,
        level: usize,
        seed: i64,
        block: BlockSize,
    ) -> Result<GameState, EngineError> {
        let lvl = self.levels.get(level).ok_or_else(|| EngineError::NoLevel {
            game: self.name.clone(),
            level,
        })?;
        GameState::new(Arc::clone(&self.rules), lvl, seed, block)
    }
}

/// The result of a game as GVG-AI reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    pub win: bool,
    /// A win with score ≤ 0 is reported as 1 (GVG-AI `handleResult`).
    pub score: f64,
    /// GVG-AI's game tick of the last cycle played (`Game.getGameTick()` at the end): cycles
    /// played minus one, so a game lost at the time limit reports 2000.
    pub ticks: i32,
}

impl Outcome {
    /// The one-line JSON report of `tablero gvgai play|replay`:
    /// `{"game":..,"level":..,"win":..,"score":..,"ticks":..[,"act_ms_max":..]}`.
    pub fn json_line(&self, game: &str, level: usize, act_ms_max: Option<f64>) -> String {
        let mut v = serde_json::json!({
            "game": game,
            "level": level,
            "win": self.win,
            "score": self.score,
            "ticks": self.ticks,
        });
        if let (Some(ms), Some(obj)) = (act_ms_max, v.as_object_mut()) {
            obj.insert(
                "act_ms_max".into(),
                serde_json::json!((ms * 10.0).round() / 10.0),
            );
        }
        v.to_string()
    }

    pub fn of(state: &GameState) -> Outcome {
        let win = state.winner() == Winner::PlayerWins;
        let score = if win && state.score() <= 0.0 {
            1.0
        } else {
            state.score()
        };
        Outcome {
            win,
            score,
            ticks: (state.tick() - 1).max(0),
        }
    }
}

/// Parse an action string (`U D L R N S`, whitespace ignored).
pub fn parse_actions(actions: &str) -> Result<Vec<Action>, EngineError> {
    actions
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| Action::from_char(c).ok_or(EngineError::BadAction(c)))
        .collect()
}

/// Replay a fixed action string on `level` (seeded), stopping when the game ends or the
/// actions run out. If the actions run out first, the outcome is that of the unfinished game.
pub fn replay(game: &Game, level: usize, actions: &str, seed: i64) -> Result<Outcome, EngineError> {
    let actions = parse_actions(actions)?;
    let mut st = game.start(level, seed)?;
    for a in actions {
        if st.is_over() {
            break;
        }
        st.advance(a);
    }
    Ok(Outcome::of(&st))
}
