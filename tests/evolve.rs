//! Evolutionary content end to end: the CLI (`tablero evolve dungeon|npc`), rendered levels
//! won by a search controller, evolved individuals as GVG-AI controllers, reproducibility.
//! The `#[ignore]` tests are the measurements of protocols/evolution.md, e.g.
//! `EVOLVE_SEEDS=100 cargo test --release --test evolve -- --ignored --nocapture measure_dungeons`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tablero::config::EvolveConfig;
use tablero::controllers::make;
use tablero::evolve::dungeon::{self, render};
use tablero::evolve::ga::Selection;
use tablero::evolve::npc::eval::{self, EvalMode, Suite};
use tablero::evolve::npc::sim::Brain;
use tablero::evolve::npc::sim::{Arena, PLAYER_KINDS, PlayerKind};
use tablero::evolve::npc::{gp, sexpr};
use tablero::evolve::run;
use tablero::gvgai::controllers::{ControllerSettings, play};
use tablero::gvgai::engine::{Action, Category, Game, GameState};
use tablero::gvgai::games;

fn tablero() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tablero"))
}

fn json_line(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    serde_json::from_str(lines[0]).unwrap()
}

fn small_dungeon_cfg() -> EvolveConfig {
    EvolveConfig {
        dungeon_init_rooms_min: 6,
        dungeon_init_rooms_max: 10,
        dungeon_room_side_max: 7,
        dungeon_window_min: 5,
        dungeon_window_max: 12,
        dungeon_window_penalty: 1.0,
        ..EvolveConfig::default()
    }
}

#[test]
fn evolved_dungeon_renders_and_is_won_by_iw() {
    let cfg = small_dungeon_cfg();
    let p = cfg.ga_params(Selection::Tournament, 15, 30);
    let res = dungeon::run(&p, 8, |_| {});
    let r = render::render(&res.dungeon, 8).unwrap();
    let c = run::check_level(&r, "iw", 1000, 0, 8).unwrap();
    assert!(c.win, "{c:?}\n{}", r.level);
}

#[test]
fn cli_dungeon_end_to_end_and_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let go = |name: &str| {
        let out = dir.path().join(name);
        let o = tablero()
            .args([
                "evolve",
                "dungeon",
                "--seed",
                "5",
                "--generations",
                "6",
                "--population",
                "20",
            ])
            .args(["--set", "evolve.dungeon_init_rooms_min=5"])
            .args(["--set", "evolve.dungeon_init_rooms_max=8"])
            .args(["--set", "evolve.dungeon_room_side_max=6"])
            .args(["--set", "evolve.dungeon_check_act_ms=1000"])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        (json_line(&o), out)
    };
    let (a, da) = go("a");
    let (b, db) = go("b");
    for f in [
        "dungeon.json",
        "evodungeon.txt",
        "evodungeon_lvl0.txt",
        "progress.csv",
        "fitness.svg",
        "evodungeon.svg",
    ] {
        assert!(da.join(f).exists(), "{f}");
    }
    // The best dungeon as a picture: one tile per sprite of the level, the same every run.
    let picture = std::fs::read_to_string(da.join("evodungeon.svg")).unwrap();
    let doc = roxmltree::Document::parse(&picture).unwrap();
    let tiles = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("tile"))
        .count();
    let level = Game::load(&da, "evodungeon").unwrap();
    let sprites: usize = level.levels[0].cells.iter().map(Vec::len).sum();
    assert_eq!(tiles, sprites);
    let fitness = std::fs::read_to_string(da.join("fitness.svg")).unwrap();
    roxmltree::Document::parse(&fitness).unwrap();
    assert_eq!(
        picture,
        std::fs::read_to_string(db.join("evodungeon.svg")).unwrap()
    );
    let csv = std::fs::read_to_string(da.join("progress.csv")).unwrap();
    assert_eq!(csv.lines().count(), 8);
    assert_eq!(a["fitness"], b["fitness"]);
    assert_eq!(a["won"], serde_json::json!(true), "{a}");
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(
        read(&da, "evodungeon_lvl0.txt"),
        read(&db, "evodungeon_lvl0.txt")
    );
    assert_eq!(read(&da, "progress.csv"), read(&db, "progress.csv"));
    let bad = tablero()
        .args([
            "evolve",
            "dungeon",
            "--set",
            "evolve.dungeon_selection=lottery",
            "--out",
        ])
        .arg(dir.path().join("c"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("evolve.dungeon_selection"));
}

#[test]
fn cli_npc_end_to_end_and_evolved_controller() {
    let dir = tempfile::tempdir().unwrap();
    let go = |name: &str| {
        let out = dir.path().join(name);
        let o = tablero()
            .args([
                "evolve",
                "npc",
                "--seed",
                "4",
                "--generations",
                "2",
                "--population",
                "12",
            ])
            .args(["--set", "evolve.npc_turns=40"])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        (json_line(&o), out)
    };
    let (a, fa) = go("a.sexp");
    let (_, fb) = go("b.sexp");
    let text = std::fs::read_to_string(&fa).unwrap();
    assert_eq!(text, std::fs::read_to_string(&fb).unwrap());
    assert!(dir.path().join("a.csv").exists() && dir.path().join("a.svg").exists());
    let ind = sexpr::parse_individual(&text).unwrap();
    ind.check().unwrap();
    assert_eq!(a["patrol_size"], serde_json::json!(ind.patrol.size()));
    // As a GVG-AI controller.
    let spec = format!("evolved:{}", fa.display());
    let game = games::shipped("zelda").unwrap();
    let mut c = make(&spec, &ControllerSettings::seeded(1)).unwrap();
    let r = play(&game, 0, 1, c.as_mut(), Duration::from_millis(40)).unwrap();
    assert!(r.outcome.ticks > 0);
    // Bad files are refused with the reason.
    std::fs::write(
        dir.path().join("bad.sexp"),
        "(npc v1 (patrol Atacar) (attack Curar))",
    )
    .unwrap();
    let e = make(
        &format!("evolved:{}", dir.path().join("bad.sexp").display()),
        &ControllerSettings::seeded(1),
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(
        e.contains("line 1") && e.contains("not allowed in the patrol tree"),
        "{e}"
    );
}

/// `--npc FILE`: the evolved policy drives the written game's enemies; same seed, same game
/// files and the same seeded play (moving NPCs included); a bad file is refused up front.
#[test]
fn cli_dungeon_with_evolved_npcs_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let npc = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/evolve/npc_seed1.sexp");
    let go = |name: &str, npc: &Path| {
        let out = dir.path().join(name);
        let o = tablero()
            .args(["evolve", "dungeon", "--seed", "2", "--generations", "4"])
            .args(["--population", "12", "--no-check", "--npc"])
            .arg(npc)
            .args(["--set", "evolve.dungeon_init_rooms_min=5"])
            .args(["--set", "evolve.dungeon_init_rooms_max=8"])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        (o, out)
    };
    let play = |d: &Path| {
        let o = tablero()
            .args([
                "gvgai",
                "play",
                "--game",
                "evodungeon",
                "--controller",
                "random",
            ])
            .args(["--seed", "3", "--games-dir"])
            .arg(d)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        json_line(&o)
    };
    let (oa, da) = go("a", &npc);
    let (ob, db) = go("b", &npc);
    assert!(oa.status.success() && ob.status.success());
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    let game = read(&da, "evodungeon.txt");
    assert!(game.contains("EvolvedNPC policy=npc.sexp"), "{game}");
    for f in ["evodungeon.txt", "evodungeon_lvl0.txt", "npc.sexp"] {
        assert_eq!(read(&da, f), read(&db, f), "{f}");
    }
    let (pa, pb) = (play(&da), play(&db));
    for k in ["win", "score", "ticks", "actions"] {
        assert_eq!(pa[k], pb[k], "{k}");
    }
    assert!(pa["ticks"].as_i64().unwrap() > 0, "{pa}");
    let (bad, _) = go("c", &dir.path().join("missing.sexp"));
    assert_eq!(bad.status.code(), Some(1));
    let e = String::from_utf8_lossy(&bad.stderr);
    assert!(e.contains("--npc") && e.contains("missing.sexp"), "{e}");
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Dungeons for EVOLVE_SEEDS seeds (EVOLVE_GENS generations, EVOLVE_POP individuals,
/// EVOLVE_PENALTY window penalty, default the config's): share in 15–30 rooms, with key and
/// exit reachable, won by the check (EVOLVE_CHECK, default the config's `dungeon-bfs`).
#[test]
#[ignore]
fn measure_dungeons() {
    let seeds = env_or("EVOLVE_SEEDS", 100) as u64;
    let gens = env_or("EVOLVE_GENS", 50);
    let pop = env_or("EVOLVE_POP", 50);
    let penalty: f64 = std::env::var("EVOLVE_PENALTY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(EvolveConfig::default().dungeon_window_penalty);
    let mut cfg = EvolveConfig {
        dungeon_window_penalty: penalty,
        ..EvolveConfig::default()
    };
    if let Ok(c) = std::env::var("EVOLVE_CHECK") {
        cfg.dungeon_check_controller = c;
    }
    let p = cfg.ga_params(Selection::Tournament, gens, pop);
    let (mut window, mut reach, mut won, mut all) = (0, 0, 0, 0);
    let mut rooms = Vec::new();
    let t0 = Instant::now();
    for seed in 0..seeds {
        let res = dungeon::run(&p, seed, |_| {});
        let d = &res.dungeon;
        let n = d.len();
        let in_window = (15..=30).contains(&n);
        let reachable = d.start.is_some() && d.key.is_some() && d.end.is_some();
        let win = render::render(d, seed)
            .ok()
            .and_then(|r| {
                run::check_level(
                    &r,
                    &cfg.dungeon_check_controller,
                    cfg.dungeon_check_act_ms,
                    cfg.dungeon_check_expansions,
                    seed,
                )
                .ok()
            })
            .is_some_and(|c| c.win);
        window += usize::from(in_window);
        reach += usize::from(reachable);
        won += usize::from(win);
        all += usize::from(in_window && reachable && win);
        rooms.push(n);
        eprintln!(
            "seed {seed}: rooms {n} fitness {:.3} reachable {reachable} won {win}",
            res.terms.fitness
        );
    }
    rooms.sort_unstable();
    println!(
        "| {seeds} | {gens} | {pop} | {penalty} | {window} | {reach} | {won} | {all} | {}–{} (median {}) | {:.0} s |",
        rooms[0],
        rooms[rooms.len() - 1],
        rooms[rooms.len() / 2],
        t0.elapsed().as_secs_f64()
    );
}

/// The NPC measurements: evolve (EVOLVE_GENS, EVOLVE_POP), then evolved vs random-behaviour
/// NPC in rooms of evolved dungeons (damage to scripted players), and the speed-up of
/// parallel cached evaluation over naive evaluation.
#[test]
#[ignore]
fn measure_npc() {
    let gens = env_or("EVOLVE_GENS", 30);
    let pop = env_or("EVOLVE_POP", 100);
    let cfg = EvolveConfig {
        npc_generations: gens,
        npc_population: pop,
        ..EvolveConfig::default()
    };
    let p = run::gp_params(&cfg);
    let suite = Suite::thesis(run::sim_params(&cfg), 1);
    let t0 = Instant::now();
    let fast = gp::run(
        &p,
        &suite,
        1,
        EvalMode {
            threads: run::threads(&cfg),
            cache: true,
        },
        |_| {},
    );
    let t_fast = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let naive = gp::run(
        &p,
        &suite,
        1,
        EvalMode {
            threads: 1,
            cache: false,
        },
        |_| {},
    );
    let t_naive = t0.elapsed().as_secs_f64();
    assert_eq!(fast.best, naive.best);
    println!("evolved: {}", sexpr::to_string(&fast.best));
    println!(
        "| {gens} | {pop} | {:.2} | {} | {} | {t_naive:.1} s | {t_fast:.1} s | {:.2}× |",
        fast.best_fitness,
        fast.count.evaluated,
        naive.count.evaluated,
        t_naive / t_fast
    );
    // The dungeon game: rooms of evolved dungeons.
    let dcfg = EvolveConfig::default();
    let dp = dcfg.ga_params(Selection::Tournament, 20, 30);
    let mut arenas = Vec::new();
    for seed in 0..6 {
        let res = dungeon::run(&dp, seed, |_| {});
        if let Ok(r) = render::render(&res.dungeon, seed) {
            arenas.extend(eval::dungeon_rooms(&r.level, &r.rooms, 25));
        }
    }
    let rooms = Suite::over(arenas, run::sim_params(&cfg), 99);
    let evolved = eval::damage(&rooms, Brain::Evolved(&fast.best));
    let random = eval::damage(&rooms, Brain::Random);
    let thesis_e = eval::damage(&suite, Brain::Evolved(&fast.best));
    let thesis_r = eval::damage(&suite, Brain::Random);
    for (name, d) in [
        ("dungeon rooms, evolved", evolved),
        ("dungeon rooms, random", random),
        ("thesis suite, evolved", thesis_e),
        ("thesis suite, random", thesis_r),
    ] {
        println!(
            "| {name} | {} | {:.3} | {} | {} |",
            d.episodes,
            d.mean_wounds(),
            d.kills,
            d.npc_deaths
        );
    }
    assert!(evolved.episodes >= 100, "{}", evolved.episodes);
}

/// A scripted player of the VGDL measurement: the simulator's three models on the VGDL
/// dungeon game (the avatar is a ShootAvatar: a move into an occupied cell turns it, USE
/// swings the sword; VGDL has no shield, so the defensive player's block is a wait).
fn vgdl_player(
    kind: PlayerKind,
    state: &GameState,
    arena: &Arena,
    rng: &mut Xoshiro256PlusPlus,
) -> Action {
    const MOVES: [Action; 4] = [Action::Up, Action::Right, Action::Down, Action::Left];
    const HEAD: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
    let Some(av) = state.avatar() else {
        return Action::Nil;
    };
    let me = state.cell_of(av);
    let facing = HEAD
        .iter()
        .position(|&(dx, dy)| av.orientation.x as i32 == dx && av.orientation.y as i32 == dy);
    let npc = state
        .sprites()
        .filter(|s| !s.killed && state.category(s) == Category::Npc)
        .map(|s| state.cell_of(s))
        .min_by_key(|c| (c.0 - me.0).abs() + (c.1 - me.1).abs());
    let wander = |rng: &mut Xoshiro256PlusPlus| MOVES[rng.gen_range(0..4)];
    let Some(npc) = npc else {
        return wander(rng);
    };
    let adjacent = (0..4).find(|&d| (me.0 + HEAD[d].0, me.1 + HEAD[d].1) == npc);
    let dist = (npc.0 - me.0).abs() + (npc.1 - me.1).abs();
    match kind {
        PlayerKind::Random => [
            Action::Nil,
            Action::Up,
            Action::Right,
            Action::Down,
            Action::Left,
            Action::Use,
        ][rng.gen_range(0..6)],
        PlayerKind::Aggressive => match adjacent {
            Some(d) if facing == Some(d) => Action::Use,
            Some(d) => MOVES[d],
            None => arena
                .step_toward(me, npc)
                .map_or_else(|| wander(rng), |d| MOVES[usize::from(d)]),
        },
        PlayerKind::Defensive => match adjacent {
            Some(d) if facing == Some(d) => {
                if rng.gen_bool(0.5) {
                    Action::Use
                } else {
                    Action::Nil
                }
            }
            Some(d) => MOVES[d],
            None if dist <= 3 => (0..4)
                .filter(|&d| !arena.wall((me.0 + HEAD[d].0, me.1 + HEAD[d].1)))
                .max_by_key(|&d| {
                    let n = (me.0 + HEAD[d].0, me.1 + HEAD[d].1);
                    ((n.0 - npc.0).abs() + (n.1 - npc.1).abs(), 4 - d)
                })
                .map_or(Action::Nil, |d| MOVES[d]),
            None => {
                if rng.gen_range(0..5) == 4 {
                    Action::Nil
                } else {
                    wander(rng)
                }
            }
        },
    }
}

/// The VGDL dungeon game's combat: one `EvolvedNPC` (policy `policy`) against one scripted
/// player in a room of an evolved dungeon, `ticks` ticks. Returns (wounds, player killed,
/// NPC killed).
fn vgdl_episode(
    game: &Game,
    arena: &Arena,
    kind: PlayerKind,
    ticks: usize,
    seed: u64,
) -> (i32, bool, bool) {
    let mut st = game.start(0, seed as i64).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
    let enemy = game.rules.desc.type_id("enemy").unwrap();
    for _ in 0..ticks {
        if st.is_over() {
            break;
        }
        let a = vgdl_player(kind, &st, arena, &mut rng);
        st.advance(a);
    }
    let hp = st.avatar().map_or(0, |a| a.health.max(0));
    let max = st.avatar().map_or(3, |a| a.max_health);
    let npc_dead = st.count(enemy) == 0;
    (max - hp, hp <= 0, npc_dead)
}

/// Evolved NPC (data/evolve/npc_seed1.sexp, or EVOLVE_NPC) vs the random-behaviour NPC inside
/// the VGDL dungeon game (`EvolvedNPC` sprites): damage dealt to the three scripted players
/// in rooms of evolved dungeons, EVOLVE_EPISODES episodes per player and policy, 100 ticks.
#[test]
#[ignore]
fn measure_npc_vgdl() {
    let episodes = env_or("EVOLVE_EPISODES", 120);
    let npc = std::env::var("EVOLVE_NPC")
        .unwrap_or_else(|_| format!("{}/data/evolve/npc_seed1.sexp", env!("CARGO_MANIFEST_DIR")));
    let dcfg = EvolveConfig::default();
    let dp = dcfg.ga_params(Selection::Tournament, 20, 30);
    let mut arenas = Vec::new();
    let mut games = Vec::new();
    for seed in 0..6 {
        let res = dungeon::run(&dp, seed, |_| {});
        for policy in [npc.as_str(), "random"] {
            let r = render::render_with(
                &res.dungeon,
                seed,
                &render::Enemies::Npc(policy.to_string()),
            )
            .unwrap();
            if policy == "random" {
                arenas.extend(eval::dungeon_rooms(&r.level, &r.rooms, 25));
                games.push(r.game);
            }
        }
    }
    // One level per (arena, NPC start): the room, the avatar at its centre, the NPC ≥ 3 cells
    // away, the exit door in the wall ring's corner (so that the game does not end at once).
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let mut levels = Vec::new();
    while levels.len() < episodes {
        let k = rng.gen_range(0..arenas.len());
        let a = &arenas[k];
        let ps = a.player_starts[0];
        let far: Vec<_> = a
            .free_cells()
            .into_iter()
            .filter(|c| (c.0 - ps.0).abs() + (c.1 - ps.1).abs() >= 3)
            .collect();
        if far.is_empty() {
            continue;
        }
        let e = far[rng.gen_range(0..far.len())];
        let mut text = String::new();
        for y in 0..a.h {
            for x in 0..a.w {
                text.push(if (x, y) == (0, 0) {
                    'x'
                } else if (x, y) == ps {
                    'A'
                } else if (x, y) == e {
                    'e'
                } else if a.wall((x, y)) {
                    'w'
                } else {
                    ' '
                });
            }
            text.push('\n');
        }
        levels.push((k, text, rng.r#gen::<u64>()));
    }
    let game_for = |policy: &str, level: &str| {
        let g = games[0].replace("policy=random", &format!("policy={policy}"));
        Game::from_texts("evodungeon", &g, &[level]).unwrap()
    };
    let t0 = Instant::now();
    for kind in PLAYER_KINDS {
        for (name, policy) in [("evolved", npc.as_str()), ("random", "random")] {
            let (mut wounds, mut kills, mut deaths) = (0, 0, 0);
            for (k, level, seed) in &levels {
                let g = game_for(policy, level);
                let (w, killed, dead) = vgdl_episode(&g, &arenas[*k], kind, 100, *seed);
                wounds += w;
                kills += usize::from(killed);
                deaths += usize::from(dead);
            }
            println!(
                "| {kind:?} | {name} | {} | {:.2} | {kills} | {deaths} |",
                levels.len(),
                f64::from(wounds) / levels.len() as f64
            );
        }
    }
    eprintln!("{:.1} s", t0.elapsed().as_secs_f64());
}
