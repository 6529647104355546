//! `tablero gvgai pddl` and `tablero gvgai plan`: load a game, translate a level, write the
//! PDDL or plan it (embedded portfolio or Fast Downward) and validate the plan by replay. Each
//! returns the one JSON line the command prints.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::config::PlanningConfig;
use crate::gvgai::engine::{EngineError, Game};
use crate::planning::PlanOptions;
use crate::planning::vgdl::plan::{Backend, plan_state};
use crate::planning::vgdl::{TranslateOptions, Translator};

/// Default folder of game files.
pub const DEFAULT_GAMES_DIR: &str = "data/gvgai/games";

/// Loads `game` from `dir`, or from the embedded games when `dir` has no such file.
pub fn load_game(dir: &Path, game: &str) -> Result<Game, String> {
    if dir.join(format!("{game}.txt")).is_file() {
        return Game::load(dir, game).map_err(|e| e.to_string());
    }
    crate::gvgai::games::shipped(game).map_err(|e| match e {
        EngineError::Invalid { .. } => format!(
            "no game \"{game}\" in {} (nor among the shipped games)",
            dir.display()
        ),
        e => e.to_string(),
    })
}

/// Arguments of `tablero gvgai pddl`.
#[derive(Debug, Clone)]
pub struct PddlArgs {
    pub game: String,
    pub level: usize,
    pub out: PathBuf,
    pub games_dir: PathBuf,
}

/// Writes `domain.pddl` and `problem.pddl`; returns the JSON line.
pub fn run_pddl(args: &PddlArgs) -> Result<String, String> {
    let game = load_game(&args.games_dir, &args.game)?;
    let st = game.start(args.level, 0).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let tr = Translator::new(
        &st,
        TranslateOptions {
            snapshot: true,
            ..TranslateOptions::default()
        },
    )
    .and_then(|t| t.translate(&st, &args.game))
    .map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    for (name, text) in [
        ("domain.pddl", tr.domain_text()),
        ("problem.pddl", tr.problem_text()),
    ] {
        let p = args.out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    for w in &tr.warnings {
        tracing::warn!("{w}");
    }
    Ok(serde_json::json!({
        "game": args.game,
        "level": args.level,
        "out": args.out.display().to_string(),
        "actions": tr.cases,
        "objects": tr.problem.objects.len(),
        "exact": tr.exact,
        "warnings": tr.warnings,
        "seconds": start.elapsed().as_secs_f64(),
    })
    .to_string())
}

/// Arguments of `tablero gvgai plan`.
#[derive(Debug, Clone)]
pub struct PlanArgs {
    pub game: String,
    pub level: usize,
    pub optimal: bool,
    /// `portfolio` (default), a member name, or `fast-downward`.
    pub planner: Option<String>,
    pub timeout: Option<f64>,
    pub threads: usize,
    pub games_dir: PathBuf,
}

/// Plans a level and replays the plan; returns the JSON line.
pub fn run_plan(args: &PlanArgs, cfg: &PlanningConfig) -> Result<String, String> {
    let game = load_game(&args.games_dir, &args.game)?;
    let st = game.start(args.level, 0).map_err(|e| e.to_string())?;
    let timeout = args.timeout.unwrap_or(cfg.timeout);
    if !(timeout.is_finite() && timeout > 0.0) {
        return Err(format!("--timeout must be > 0 seconds, got {timeout}"));
    }
    let start = Instant::now();
    let translator = Translator::new(
        &st,
        TranslateOptions {
            snapshot: true,
            ..TranslateOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    if !translator.exact() {
        tracing::warn!("the game is not deterministic: the plan assumes frozen sprites");
    }
    let backend = match args.planner.as_deref() {
        Some("fast-downward") => {
            let mut fd = cfg.fd_config();
            if args.optimal && cfg.fd_search.is_empty() {
                fd.search = "astar(lmcut())".into();
            }
            Backend::FastDownward(fd)
        }
        _ => Backend::Embedded,
    };
    let opts = PlanOptions {
        memory_limit: None,
        timeout: Duration::from_secs_f64(timeout),
        optimal: args.optimal,
        threads: args.threads,
        anytime: false,
        planner: args
            .planner
            .clone()
            .filter(|p| p != "fast-downward" && p != "portfolio"),
    };
    let _ = start;
    let p = plan_state(&st, &args.game, &translator, &opts, &backend).map_err(|e| e.to_string())?;
    Ok(serde_json::json!({
        "game": args.game,
        "level": args.level,
        "plan": p.plan,
        "length": p.length,
        "moves": p.moves,
        "seconds": (p.seconds * 1e4).round() / 1e4,
        "translate_seconds": (p.translate_seconds * 1e4).round() / 1e4,
        "planner": p.planner,
        "optimal": p.optimal,
        "win_on_replay": p.win_on_replay,
        "expanded": p.expanded,
    })
    .to_string())
}
