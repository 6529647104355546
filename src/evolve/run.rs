//! `tablero evolve dungeon|npc`: runs a generator from the configuration, writes its files
//! (through [`super::report`]) and returns the one-line JSON summary. Progress goes
//! to stderr through `tracing`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

use super::dungeon::{self, render};
use super::npc::{eval, gp, sexpr, sim};
use super::report::{self, CurvePoint};
use crate::config::EvolveConfig;
use crate::controllers::make;
use crate::gvgai::controllers::{self, ControllerSettings};
use crate::gvgai::engine::Game;

/// A run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("rendered level does not load: {0}")]
    Level(String),
    #[error("--npc: {0}")]
    Npc(String),
}

/// The file name an `--npc FILE` policy is copied to, next to the game.
pub const NPC_FILE: &str = "npc.sexp";

/// `--npc`: the enemies of the written game and, for a file, its text (already parsed once,
/// so a bad file fails before the GA runs).
fn npc_enemies(spec: &str) -> Result<(render::Enemies, Option<String>), RunError> {
    match spec {
        "static" => Ok((render::Enemies::Static, None)),
        "random" => Ok((render::Enemies::Npc("random".into()), None)),
        file => {
            let path = Path::new(file);
            let text = std::fs::read_to_string(path)
                .map_err(|e| RunError::Npc(format!("cannot read {file}: {e}")))?;
            sexpr::parse_individual(&text).map_err(|e| RunError::Npc(format!("{file}: {e}")))?;
            Ok((render::Enemies::Npc(NPC_FILE.into()), Some(text)))
        }
    }
}

fn write(dir: &Path, name: &str, text: &str) -> Result<(), RunError> {
    report::write(dir, name, text).map_err(|source| RunError::Write {
        path: dir.join(name),
        source,
    })
}

/// The outcome of the playability check.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Check {
    pub win: bool,
    pub ticks: i32,
    /// dungeon-bfs: expansions used and whether the search ran out of states.
    pub expansions: Option<usize>,
    pub exhausted: Option<bool>,
}

/// Play a rendered level with `controller`: `dungeon-bfs` ([`solve`](dungeon::solve), at
/// most `expansions` expansions) or a controller of the registry (`act_ms` per act).
pub fn check_level(
    r: &render::Rendered,
    controller: &str,
    act_ms: u64,
    expansions: usize,
    seed: u64,
) -> Result<Check, RunError> {
    let game = Game::from_texts("evodungeon", &r.game, &[&r.level])
        .map_err(|e| RunError::Level(e.to_string()))?;
    if controller == "dungeon-bfs" {
        let s = dungeon::solve::solve(&game, 0, seed as i64, expansions)
            .map_err(|e| RunError::Level(e.to_string()))?;
        return Ok(Check {
            win: s.win,
            ticks: s.ticks,
            expansions: Some(s.expansions),
            exhausted: Some(s.exhausted),
        });
    }
    let mut c = make(controller, &ControllerSettings::seeded(seed))
        .map_err(|e| RunError::Level(e.to_string()))?;
    let res = controllers::play(
        &game,
        0,
        seed as i64,
        c.as_mut(),
        Duration::from_millis(act_ms),
    )
    .map_err(|e| RunError::Level(e.to_string()))?;
    Ok(Check {
        win: res.outcome.win,
        ticks: res.outcome.ticks,
        expansions: None,
        exhausted: None,
    })
}

/// `tablero evolve dungeon`.
pub fn dungeon(
    cfg: &EvolveConfig,
    seed: u64,
    out: &Path,
    check: bool,
    npc: &str,
    progress: &dyn Fn(&str),
) -> Result<serde_json::Value, RunError> {
    let (enemies, npc_text) = npc_enemies(npc)?;
    let p = cfg.dungeon_params();
    let t0 = Instant::now();
    let res = dungeon::run(&p, seed, |r| {
        progress(&format!(
            "generation {:>4}: best {:8.3}  mean {:8.3}  std {:7.3}  rooms {}",
            r.generation, r.stats.best, r.stats.mean, r.stats.std, r.best_rooms
        ));
    });
    let ga_seconds = t0.elapsed().as_secs_f64();
    let points: Vec<CurvePoint> = res
        .history
        .iter()
        .map(|r| CurvePoint::new(r.generation, &r.stats, r.best_ever))
        .collect();
    write(out, "progress.csv", &report::csv(&points))?;
    write(
        out,
        "fitness.svg",
        &report::svg(&format!("dungeon GA, seed {seed}"), &points),
    )?;
    let d = &res.dungeon;
    let has_markers = d.start.is_some() && d.key.is_some() && d.end.is_some();
    let rendered = render::render(d, seed);
    let mut rooms_rects = serde_json::Value::Null;
    let mut check_json = serde_json::Value::Null;
    let mut won = None;
    let mut render_error = None;
    match &rendered {
        Ok(r) => {
            if let Some(text) = &npc_text {
                write(out, NPC_FILE, text)?;
            }
            let written = render::render_with(d, seed, &enemies)
                .map_err(|e| RunError::Level(e.to_string()))?;
            write(out, "evodungeon.txt", &written.game)?;
            write(out, "evodungeon_lvl0.txt", &written.level)?;
            let game = Game::load(out, "evodungeon").map_err(|e| RunError::Level(e.to_string()))?;
            if let Some(picture) = crate::plot::level::svg(&game, 0) {
                write(out, "evodungeon.svg", &picture)?;
            }
            rooms_rects = json!(r.rooms);
            if check {
                let c = check_level(
                    r,
                    &cfg.dungeon_check_controller,
                    cfg.dungeon_check_act_ms,
                    cfg.dungeon_check_expansions,
                    seed,
                )?;
                won = Some(c.win);
                check_json = json!({"controller": cfg.dungeon_check_controller, "win": c.win, "ticks": c.ticks, "expansions": c.expansions, "exhausted": c.exhausted});
            }
        }
        Err(e) => render_error = Some(e.to_string()),
    }
    let graph = json!({
        "seed": seed,
        "fitness": res.terms,
        "dungeon": d,
        "genome": res.best_genome,
        "rendered_rooms": rooms_rects,
        "check": check_json,
        "render_error": render_error,
    });
    write(
        out,
        "dungeon.json",
        &serde_json::to_string_pretty(&graph).unwrap_or_default(),
    )?;
    let n = d.len();
    Ok(json!({
        "seed": seed,
        "generations": res.history.len().saturating_sub(1),
        "population": p.population,
        "selection": p.select.scheme,
        "fitness": res.terms.fitness,
        "rooms": n,
        "edges": d.edges.len(),
        "key_distance": res.terms.key_distance,
        "in_window": (cfg.dungeon_window_min..=cfg.dungeon_window_max).contains(&n),
        "key_and_exit_reachable": has_markers,
        "won": won,
        "npc": npc,
        "ga_seconds": (ga_seconds * 1000.0).round() / 1000.0,
        "out": out.display().to_string(),
    }))
}

/// The GP parameters from the configuration.
pub fn gp_params(cfg: &EvolveConfig) -> gp::GpParams {
    gp::GpParams {
        population: cfg.npc_population,
        generations: cfg.npc_generations,
        tournament: cfg.npc_tournament,
        elitism: cfg.npc_elitism,
        crossover_rate: cfg.npc_crossover_rate,
        mutation_rate: cfg.npc_mutation_rate,
        min_depth: cfg.npc_min_depth,
        max_depth: cfg.npc_max_depth,
        depth_cap: cfg.npc_depth_cap,
    }
}

/// The simulator parameters from the configuration.
pub fn sim_params(cfg: &EvolveConfig) -> sim::SimParams {
    sim::SimParams {
        turns: cfg.npc_turns,
        player_hp: cfg.npc_player_hp,
        npc_hp: cfg.npc_hp,
        detection: cfg.npc_detection_range,
        heal_turns: cfg.npc_heal_turns,
    }
}

/// Worker threads for `npc_threads` (0 = one per core).
pub fn threads(cfg: &EvolveConfig) -> usize {
    if cfg.npc_threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        cfg.npc_threads
    }
}

/// `tablero evolve npc`.
pub fn npc(
    cfg: &EvolveConfig,
    seed: u64,
    out: &Path,
    naive: bool,
    progress: &dyn Fn(&str),
) -> Result<serde_json::Value, RunError> {
    let p = gp_params(cfg);
    let suite = eval::Suite::thesis(sim_params(cfg), seed);
    let mode = if naive {
        eval::EvalMode {
            threads: 1,
            cache: false,
        }
    } else {
        eval::EvalMode {
            threads: threads(cfg),
            cache: true,
        }
    };
    let t0 = Instant::now();
    let res = gp::run(&p, &suite, seed, mode, |r| {
        progress(&format!(
            "generation {:>4}: best {:8.3}  mean {:8.3}  std {:7.3}  evaluated {:>3}  cached {:>3}  {:.2}s",
            r.generation, r.stats.best, r.stats.mean, r.stats.std, r.evaluated, r.cached, r.seconds
        ));
    });
    let seconds = t0.elapsed().as_secs_f64();
    let points: Vec<CurvePoint> = res
        .history
        .iter()
        .map(|r| CurvePoint::new(r.generation, &r.stats, r.best_ever))
        .collect();
    let dir = out
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    let stem = out
        .file_stem()
        .map_or_else(|| "npc".to_string(), |s| s.to_string_lossy().into_owned());
    let name = out.file_name().map_or_else(
        || "npc.sexp".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let header = format!(
        "; tablero evolved NPC (primitive table {v}); seed {seed}; fitness {f:.4}\n; GP: {p:?}\n; simulator: {s:?}\n",
        v = sexpr::VERSION,
        f = res.best_fitness,
        s = suite.params,
    );
    write(
        &dir,
        &name,
        &format!("{header}{}", sexpr::to_string(&res.best)),
    )?;
    write(&dir, &format!("{stem}.csv"), &report::csv(&points))?;
    write(
        &dir,
        &format!("{stem}.svg"),
        &report::svg(&format!("NPC GP, seed {seed}"), &points),
    )?;
    Ok(json!({
        "seed": seed,
        "generations": p.generations,
        "population": p.population,
        "best_fitness": res.best_fitness,
        "patrol_size": res.best.patrol.size(),
        "attack_size": res.best.attack.size(),
        "evaluated": res.count.evaluated,
        "cached": res.count.cached,
        "threads": mode.threads,
        "cache": mode.cache,
        "seconds": (seconds * 1000.0).round() / 1000.0,
        "out": out.display().to_string(),
    }))
}
