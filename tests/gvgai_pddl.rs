//! VGDL → PDDL on the puzzle games: the generated PDDL parses back with our parser, is
//! refused with a clear message where it cannot be translated, and (when Fast Downward is
//! installed: `TABLERO_FAST_DOWNWARD=$(bash tests/fast_downward/setup.sh)`) is accepted by
//! Fast Downward, whose plans win when replayed in tablero's engine.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use tablero::gvgai::games::shipped;
use tablero::planning::fast_downward::{FdConfig, locate};
use tablero::planning::pddl::{parse_domain, parse_problem};
use tablero::planning::vgdl::plan::{Backend, plan_state};
use tablero::planning::vgdl::{TranslateError, TranslateOptions, Translator, translate};
use tablero::planning::{PlanOptions, ground};

#[test]
fn generated_pddl_parses_back_and_grounds() {
    for game in ["sokoban", "realsokoban", "zenpuzzle", "butterflies"] {
        let g = shipped(game).unwrap();
        for level in 0..5 {
            let st = g.start(level, 0).unwrap();
            let opts = TranslateOptions {
                snapshot: game == "butterflies",
                ..TranslateOptions::default()
            };
            let tr = translate(&st, game, opts).unwrap();
            let d = parse_domain(&tr.domain_text()).unwrap();
            let p = parse_problem(&tr.problem_text()).unwrap();
            assert_eq!(d, tr.domain, "{game} {level}");
            assert_eq!(p, tr.problem, "{game} {level}");
            let task = ground::ground(&d, &p).unwrap();
            assert!(!task.operators.is_empty());
            assert_eq!(tr.exact, game != "butterflies");
        }
    }
}

#[test]
fn untranslatable_games_are_refused_by_name() {
    // aliens: the avatar shoots and aliens move on their own.
    let st = shipped("aliens").unwrap().start(0, 0).unwrap();
    let e = translate(&st, "aliens", TranslateOptions::default()).unwrap_err();
    assert!(matches!(e, TranslateError::NotTranslatable(_)), "{e}");
    assert!(e.to_string().starts_with("not translatable: "), "{e}");
    // Butterflies are refused unless frozen sprites are allowed.
    let st = shipped("butterflies").unwrap().start(0, 0).unwrap();
    let e = translate(&st, "butterflies", TranslateOptions::default()).unwrap_err();
    assert!(e.to_string().contains("butterfly"), "{e}");
}

fn fd() -> Option<FdConfig> {
    match locate(None) {
        Some(p) => Some(FdConfig {
            path: Some(p),
            ..FdConfig::default()
        }),
        None => {
            eprintln!(
                "SKIPPED: Fast Downward is not installed (TABLERO_FAST_DOWNWARD=$(bash tests/fast_downward/setup.sh))"
            );
            None
        }
    }
}

#[test]
fn fast_downward_accepts_the_pddl_and_its_plans_win() {
    let Some(cfg) = fd() else { return };
    for (game, level) in [("sokoban", 1), ("realsokoban", 3), ("zenpuzzle", 3)] {
        let st = shipped(game).unwrap().start(level, 0).unwrap();
        let t = Translator::new(&st, TranslateOptions::default()).unwrap();
        let opts = PlanOptions {
            timeout: Duration::from_secs(60),
            ..PlanOptions::default()
        };
        let p = plan_state(&st, game, &t, &opts, &Backend::FastDownward(cfg.clone()))
            .unwrap_or_else(|e| panic!("{game} {level}: {e}"));
        assert!(p.win_on_replay, "{game} {level}: {}", p.plan);
        // The optimal configuration agrees with our optimal planner on the length.
        let mut opt = cfg.clone();
        opt.search = "astar(lmcut())".into();
        let fo = plan_state(&st, game, &t, &opts, &Backend::FastDownward(opt)).unwrap();
        let ours = plan_state(
            &st,
            game,
            &t,
            &PlanOptions {
                optimal: true,
                ..opts.clone()
            },
            &Backend::Embedded,
        )
        .unwrap();
        assert!(fo.win_on_replay && ours.win_on_replay);
        assert!(ours.optimal);
        assert_eq!(fo.moves, ours.moves, "{game} {level}");
    }
}
