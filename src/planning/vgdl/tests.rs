use super::plan::{Backend, plan_state};
use super::*;
use crate::gvgai::games::shipped;
use crate::planning::PlanOptions;
use std::time::Duration;

fn opts(optimal: bool) -> PlanOptions {
    PlanOptions {
        timeout: Duration::from_secs(30),
        optimal,
        threads: 1,
        anytime: false,
        planner: None,
    }
}

#[test]
fn puzzle_levels_plan_and_win_on_replay() {
    let games = std::env::var("VGDL_GAMES").unwrap_or("sokoban,realsokoban,zenpuzzle".into());
    for game in games.split(',') {
        let g = shipped(game).unwrap();
        for level in 0..5 {
            let st = g.start(level, 0).unwrap();
            let tr = Translator::new(&st, TranslateOptions::default()).unwrap();
            let p = plan_state(&st, game, &tr, &opts(false), &Backend::Embedded)
                .unwrap_or_else(|e| panic!("{game} {level}: {e}"));
            eprintln!(
                "{game} {level}: {} moves {} s {} {}",
                p.moves, p.seconds, p.planner, p.plan
            );
            assert!(p.win_on_replay, "{game} {level}: {}", p.plan);
        }
    }
}
