//! Every GVG-AI controller by name: the one registry behind every `--controller`
//! (`tablero gvgai play|connect`, the `[gvgai]` listener, the dungeon check). It sits above
//! the controllers it builds: the engine's search controllers (`gvgai::controllers`), the
//! planner (`planning::controller`), evolved GP controllers (`evolve::npc::controller`) and
//! the dungeon GA's playability check (`evolve::dungeon::solve::DungeonBfs`).

use crate::evolve::dungeon::solve::DungeonBfs;
use crate::evolve::npc::controller as evolved;
use crate::gvgai::controllers::{
    Bfs, Controller, ControllerError, ControllerSettings, Mcts, MctsParams, Olets, OletsParams,
    OneStep, RandomController, Rhea, RheaParams,
};
use crate::planning::controller::PlannerController;

/// The controller names [`make`] knows (for help and error messages).
pub const CONTROLLERS: &[&str] = &[
    "random",
    "onestep",
    "mcts",
    "mcts:k=K,depth=D,goal=W",
    "olets",
    "olets:k=K,taboo=T,memory=M,goal=W,hp=H",
    "rhea",
    "bfs",
    "iw",
    "planner",
    "dungeon-bfs",
    "evolved:FILE",
];

/// Build a controller from its `--controller` spec: a name, optionally `name:ARG` (e.g.
/// `evolved:FILE`). The one registry: adding a controller is one match arm here (and its name
/// in [`CONTROLLERS`]).
pub fn make(
    spec: &str,
    settings: &ControllerSettings,
) -> Result<Box<dyn Controller>, ControllerError> {
    let (name, arg) = match spec.split_once(':') {
        Some((n, a)) => (n, Some(a)),
        None => (spec, None),
    };
    let seed = settings.seed;
    let cap = settings.iterations;
    Ok(match (name, arg) {
        ("random", None) => Box::new(RandomController::new(seed)),
        ("onestep" | "one-step", None) => Box::new(OneStep::new(seed)),
        ("mcts", spec) => Box::new(Mcts::new(
            seed,
            MctsParams {
                max_iterations: cap.unwrap_or(MctsParams::default().max_iterations),
                ..MctsParams::default()
            }
            .with_spec(spec.unwrap_or(""))?,
        )),
        ("olets", spec) => Box::new(Olets::new(
            seed,
            OletsParams {
                max_iterations: cap.unwrap_or(OletsParams::default().max_iterations),
                ..OletsParams::default()
            }
            .with_spec(spec.unwrap_or(""))?,
        )),
        ("rhea", None) => Box::new(Rhea::new(
            seed,
            RheaParams {
                max_evaluations: cap.unwrap_or(RheaParams::default().max_evaluations),
                ..RheaParams::default()
            },
        )),
        ("bfs", None) => Box::new(Bfs::new().with_expansion_cap(cap)),
        ("iw", None) => Box::new(Bfs::iw().with_expansion_cap(cap)),
        ("planner", None) => Box::new(PlannerController::new()),
        ("dungeon-bfs", None) => Box::new(DungeonBfs::new(cap)),
        ("evolved", Some(path)) => {
            let ind = evolved::load(std::path::Path::new(path)).map_err(|e| {
                ControllerError::Invalid {
                    name: "evolved".into(),
                    message: e.to_string(),
                }
            })?;
            Box::new(evolved::Evolved::new(ind))
        }
        _ => {
            return Err(ControllerError::Unknown {
                name: spec.to_string(),
                known: CONTROLLERS.join(", "),
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_builds_every_listed_controller_and_rejects_others() {
        let s = ControllerSettings::seeded(1);
        for name in CONTROLLERS {
            // `name:ARG` entries are built with a real argument: MCTS settings, the shipped
            // evolved NPC.
            let (spec, expected) = match name.split_once(':') {
                Some(("mcts", _)) => ("mcts:k=1, depth=20,goal=0".to_string(), "mcts"),
                Some(("olets", _)) => ("olets:k=1,taboo=0,memory=3,goal=1".to_string(), "olets"),
                Some((n, _)) => (
                    format!(
                        "{n}:{}/data/evolve/npc_seed1.sexp",
                        env!("CARGO_MANIFEST_DIR")
                    ),
                    n,
                ),
                None => (name.to_string(), *name),
            };
            assert_eq!(make(&spec, &s).map(|c| c.name()).ok(), Some(expected));
        }
        assert!(matches!(
            make("evolved:/nonexistent.sexp", &s),
            Err(ControllerError::Invalid { .. })
        ));
        assert!(matches!(
            make("alphazero", &s),
            Err(ControllerError::Unknown { .. })
        ));
        for bad in [
            "mcts:extra",
            "mcts:depth=0",
            "mcts:k=-1",
            "mcts:goal=x",
            "mcts:uct=1",
        ] {
            assert!(
                matches!(make(bad, &s), Err(ControllerError::Invalid { .. })),
                "{bad}"
            );
        }
        assert!(!make("random", &s).map(|c| c.needs_model()).unwrap_or(true));
    }
}
