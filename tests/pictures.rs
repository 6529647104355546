//! The SVG pictures of the command line, from the real binary with tiny budgets:
//! `tablero match --svg`, `tablero diplomacy play --svg` and `tablero gvgai render` (the
//! evolved dungeon's picture is tested with `tablero evolve dungeon` in tests/evolve.rs).
//! Each picture parses as XML, holds the expected series, points or tiles, and is the same
//! byte for byte when the run is repeated.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};

fn tablero() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tablero"));
    cmd.env_remove("RUST_LOG");
    cmd
}

fn ok(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim()).unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// Elements named `name` with class `class` in the SVG `text` (which must parse).
fn elements<'a>(
    doc: &'a roxmltree::Document<'a>,
    name: &str,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.has_tag_name(name) && n.attribute("class") == Some(class))
        .collect()
}

/// The (x, y) pairs of a `points` attribute.
fn points(node: &roxmltree::Node) -> Vec<(f64, f64)> {
    node.attribute("points")
        .unwrap()
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn match_svg_draws_the_score_inside_its_interval() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_tablero");
    let engine = |playouts: u32| {
        format!(
            "{bin} gtp --set search.threads=1 --set search.playouts={playouts} --set search.seed={{game}}"
        )
    };
    let play = |file: &str| {
        let svg = dir.path().join(file);
        let out = tablero()
            .args(["match", "--size", "5", "--games", "3", "--alternate"])
            .args(["--black", &engine(20), "--white", &engine(2)])
            .arg("--svg")
            .arg(&svg)
            .output()
            .unwrap();
        (ok(&out), read(&svg))
    };
    let (summary, svg) = play("a.svg");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let series = elements(&doc, "polyline", "series");
    assert_eq!(series.len(), 1);
    let curve = points(&series[0]);
    assert_eq!(curve.len(), 3, "one point per game");
    assert_eq!(elements(&doc, "line", "rule").len(), 1, "the 50 % line");
    let band = points(&elements(&doc, "polygon", "band")[0]);
    assert_eq!(band.len(), 6, "upper then lower bound at each game");
    // Screen y grows downwards: the upper bound is above (smaller y than) the curve.
    for (i, &(x, y)) in curve.iter().enumerate() {
        let (ux, uy) = band[i];
        let (lx, ly) = band[band.len() - 1 - i];
        assert_eq!((ux, lx), (x, x));
        assert!(uy <= y && y <= ly, "game {i}: {uy} <= {y} <= {ly}");
    }
    // The last point is the first engine's score of the JSON line, above the 50 % line when
    // it is over one half.
    let first = &summary["engines"][0];
    let (wins, draws) = (
        first["wins"].as_f64().unwrap(),
        first["draws"].as_f64().unwrap(),
    );
    let score = (wins + draws / 2.0) / 3.0;
    let half: f64 = elements(&doc, "line", "rule")[0]
        .attribute("y1")
        .unwrap()
        .parse()
        .unwrap();
    let last = curve[2].1;
    assert_eq!(
        score > 0.5,
        last < half,
        "score {score}, y {last}, 50 % at {half}"
    );
    let (_, again) = play("b.svg");
    assert_eq!(svg, again, "same seeds, same picture");
}

#[test]
fn diplomacy_play_svg_draws_centres_by_year_alike_locally_and_over_daide() {
    let dir = tempfile::tempdir().unwrap();
    let seats = "dumbbot,randbot,dumbbot,holdbot,dumbbot,randbot,dumbbot";
    let play = |file: &str, games: &str, extra: &[&str]| {
        let svg = dir.path().join(file);
        let out = tablero()
            .args(["diplomacy", "play", "--seats", seats, "--games", games])
            .args(["--end-year", "1903", "--think-time", "0.05", "--seed", "4"])
            .args(extra)
            .arg("--svg")
            .arg(&svg)
            .output()
            .unwrap();
        ok(&out);
        read(&svg)
    };
    let local = play("local.svg", "1", &["--local"]);
    let doc = roxmltree::Document::parse(&local).unwrap();
    let series = elements(&doc, "polyline", "series");
    assert_eq!(series.len(), 7, "one line per power");
    for s in &series {
        assert_eq!(points(s).len(), 4, "1900 (the start) to 1903");
    }
    let titles: Vec<&str> = series
        .iter()
        .filter_map(|s| s.children().find(|c| c.has_tag_name("title"))?.text())
        .collect();
    assert_eq!(titles, ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"]);
    assert_eq!(
        local,
        play("daide.svg", "1", &["--deadline", "0"]),
        "the DAIDE twin"
    );
    let two = play("two.svg", "2", &["--local", "--jobs", "2"]);
    assert!(two.contains("mean supply centres by year over 2 games"));
    assert_eq!(
        two,
        play("two-again.svg", "2", &["--local"]),
        "whatever the jobs"
    );
}

#[test]
fn gvgai_render_draws_every_sprite_and_names_every_type() {
    let dir = tempfile::tempdir().unwrap();
    let render = |file: &str| {
        let svg = dir.path().join(file);
        let out = tablero()
            .args([
                "gvgai", "render", "--game", "sokoban", "--level", "0", "--out",
            ])
            .arg(&svg)
            .output()
            .unwrap();
        (ok(&out), read(&svg))
    };
    let (info, svg) = render("a.svg");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let tiles = elements(&doc, "rect", "tile").len();
    let sprites = info["sprites"].as_u64().unwrap() as usize;
    let width = info["width"].as_u64().unwrap() as usize;
    let height = info["height"].as_u64().unwrap() as usize;
    // Sokoban stacks every sprite but walls on a floor, drawn only where nothing covers it.
    assert!(
        tiles < sprites && tiles >= width * height - 1,
        "{tiles} tiles, {sprites} sprites"
    );
    let legend: Vec<&str> = elements(&doc, "rect", "swatch")
        .iter()
        .filter_map(|s| s.children().find(|c| c.has_tag_name("title"))?.text())
        .collect();
    for name in ["wall", "avatar", "floor", "hole", "box"] {
        assert!(legend.contains(&name), "{name} in {legend:?}");
    }
    assert_eq!(svg, render("b.svg").1);
    let bad = tablero()
        .args([
            "gvgai", "render", "--game", "sokoban", "--level", "7", "--out",
        ])
        .arg(dir.path().join("c.svg"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("levels 0..=4"));
}
