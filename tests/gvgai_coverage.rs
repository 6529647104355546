//! `protocols/vgdl-coverage.md` is true: every row's status is what the parser does with a
//! small game using the name, every name the parser knows has a row, and every name of GVG-AI's
//! VGDL registry (`tests/gvgai_games/vgdl_registry.txt`, from e58ff65's `VGDLFactory`) has a
//! row. Unsupported names are refused as `VgdlError::Unsupported` naming the construct, the
//! name and the line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use tablero::gvgai::vgdl::coverage::{Known, known};
use tablero::gvgai::vgdl::{Construct, GameDescription, SpriteClass, VgdlError, parse_game};

/// The construct of a name as the table and the registry file write it.
fn construct(text: &str) -> Construct {
    match text {
        "sprite class" => Construct::SpriteClass,
        "effect" => Construct::Effect,
        "termination" => Construct::Termination,
        "physics type" => Construct::PhysicsType,
        "game class" => Construct::GameClass,
        other => panic!("unknown construct {other:?}"),
    }
}

/// The names of GVG-AI's VGDL registry (`tests/gvgai_games/vgdl_registry.txt`).
fn java_registry() -> Vec<(Construct, String)> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gvgai_games/vgdl_registry.txt");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (what, name) = l.split_once(" | ").unwrap();
            (construct(what), name.to_string())
        })
        .collect()
}

/// The rows of the table: construct, name, supported.
fn table() -> Vec<(Construct, String, bool)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocols/vgdl-coverage.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells[1] == "construct" {
            continue;
        }
        let what = construct(cells[1]);
        let supported = match cells[3] {
            "supported" => true,
            "unsupported" => false,
            other => panic!("unknown status {other:?} in {line}"),
        };
        rows.push((what, cells[2].to_string(), supported));
    }
    rows
}

/// A small game using `name` as a `what`, and the line it is written on.
fn game_using(what: Construct, name: &str) -> (String, usize) {
    let params = "stype=a stype1=a stype2=a stypeTo=a stype_other=a stypeCount=a \
                  resource=r heldResource=r ammo=r stypeMissile=a stypes=a \
                  ftype=killSprite estype=a spawnPoint=a policy=random limit=1";
    let sprites = "  SpriteSet\n    a > Immovable\n    r > Resource\n";
    let end = "  TerminationSet\n    Timeout limit=10\n";
    match what {
        Construct::SpriteClass => (
            format!("BasicGame\n{sprites}    x > {name} {params}\n{end}"),
            5,
        ),
        Construct::Effect => (
            format!("BasicGame\n{sprites}  InteractionSet\n    a r > {name} {params}\n{end}"),
            6,
        ),
        Construct::Termination => (
            format!("BasicGame\n{sprites}  TerminationSet\n    {name} {params}\n"),
            6,
        ),
        Construct::PhysicsType => (
            format!("BasicGame\n{sprites}    x > Immovable physicstype={name}\n{end}"),
            5,
        ),
        Construct::GameClass | Construct::Section => (format!("{name}\n{sprites}{end}"), 1),
    }
}

fn parsed(what: Construct, name: &str) -> (Result<GameDescription, VgdlError>, usize) {
    let (text, line) = game_using(what, name);
    (parse_game(&text), line)
}

#[test]
fn every_row_is_what_the_parser_does() {
    let rows = table();
    assert!(rows.len() > 100, "{} rows", rows.len());
    let mut wrong = Vec::new();
    for (what, name, supported) in &rows {
        let (res, line) = parsed(*what, name);
        match (supported, res) {
            (true, Ok(_)) => {}
            (
                false,
                Err(VgdlError::Unsupported {
                    what: w,
                    name: n,
                    line: l,
                }),
            ) if w == *what && n == *name && l == line => {}
            (s, r) => wrong.push(format!(
                "{what} {name}: table says supported={s}, parser {r:?}"
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_known_and_every_java_name_has_a_row() {
    let rows: BTreeSet<(Construct, String, bool)> = table().into_iter().collect();
    let names: BTreeSet<(Construct, String)> =
        rows.iter().map(|(w, n, _)| (*w, n.clone())).collect();
    assert_eq!(names.len(), rows.len(), "a name has two rows");
    for Known {
        what,
        name,
        supported,
    } in known()
    {
        assert!(
            rows.contains(&(what, name.to_string(), supported)),
            "{what} {name} (supported={supported}) is not in the table as such"
        );
    }
    let java = java_registry();
    assert_eq!(
        java.len(),
        118,
        "50 sprite classes, 58 effects, 6 terminations, 2 + 2"
    );
    for (what, name) in &java {
        assert!(
            names.contains(&(*what, name.clone())),
            "{what} {name} of GVG-AI's registry has no row"
        );
    }
    // Every row is a registry name or a name tablero knows.
    for (what, name, _) in &rows {
        let in_java = java.iter().any(|(w, n)| w == what && n == name);
        let in_known = known().iter().any(|k| k.what == *what && k.name == name);
        assert!(in_java || in_known, "{what} {name}: a row nobody defines");
    }
}

#[test]
fn unsupported_and_unknown_names_are_told_apart() {
    // The class may stand after its parameters, as in GVG-AI's bird.
    let g = parse_game(
        "BasicGame\n  SpriteSet\n    avatar > physicstype=CONT gravity=1.0 BirdAvatar\n",
    )
    .unwrap();
    assert!(
        g.types
            .iter()
            .any(|t| t.class == Some(SpriteClass::BirdAvatar))
    );
    let e = parse_game(
        "BasicGame\n  SpriteSet\n    rock > physicstype=CONT gravity=1.0 ResourcePack\n",
    )
    .unwrap_err();
    assert_eq!(
        e,
        VgdlError::Unsupported {
            what: Construct::SpriteClass,
            name: "ResourcePack".into(),
            line: 3
        }
    );
    // `1` is GVG-AI's number for CONT.
    let g = parse_game("BasicGame\n  SpriteSet\n    ball > Missile physicstype=1\n").unwrap();
    assert!(g.types.iter().any(|t| t.params.continuous == Some(true)));
    // A ParameterSet belongs to a GameSpace.
    let e = parse_game("BasicGame\n  ParameterSet\n    x > values=1:1:2\n").unwrap_err();
    assert!(
        matches!(&e, VgdlError::Semantic { line: 2, message } if message.contains("GameSpace")),
        "{e:?}"
    );
    let g = parse_game("GameSpace\n  ParameterSet\n    x > values=1:1:2 value=2\n").unwrap();
    assert_eq!(
        g.params.parameters,
        vec![("x".to_string(), "2".to_string())]
    );
    for (what, name) in [
        (Construct::SpriteClass, "Immovabel"),
        (Construct::Effect, "fly"),
        (Construct::Termination, "Forever"),
        (Construct::PhysicsType, "WATER"),
        (Construct::GameClass, "PuzzleGame"),
    ] {
        let (res, line) = parsed(what, name);
        match res {
            Err(VgdlError::Semantic { line: l, message }) => {
                assert_eq!(l, line, "{message}");
                assert_eq!(message, format!("unknown {what} \"{name}\""));
            }
            other => panic!("{what} {name}: {other:?}"),
        }
    }
}
