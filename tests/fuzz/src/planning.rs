//! Planning: the PDDL parser and writer, grounding within limits, and the grounded task's
//! successor generator, operator application and plan validator (`pddl`).

use std::collections::{HashMap, VecDeque};

use tablero::planning::ground::{GroundLimits, ground_within};
use tablero::planning::pddl::{parse_domain, parse_problem, write_domain, write_problem};
use tablero::planning::task::{OpId, State, SuccessorGenerator, Task};

use crate::split_at;

/// Grounding limits small enough that no input takes long.
const LIMITS: GroundLimits = GroundLimits {
    max_actions: 5_000,
    max_bindings: 200_000,
    deadline: None,
};
/// Most states expanded by the breadth-first search.
const MAX_EXPANSIONS: usize = 200;

/// A domain and a problem, separated by a NUL byte: each parses or fails with a message, and
/// what parses writes out and parses back to itself; the pair grounds within [`LIMITS`] or
/// fails with a message; a ground task names only its own facts, its successor generator
/// finds exactly the applicable operators, and a plan found by breadth-first search validates.
pub fn pddl(data: &[u8]) {
    let [domain, problem] = split_at(data, 0, 2)[..] else {
        return;
    };
    let (domain, problem) = (
        String::from_utf8_lossy(domain),
        String::from_utf8_lossy(problem),
    );
    let domain = match parse_domain(&domain) {
        Ok(d) => d,
        Err(e) => return assert!(!e.to_string().is_empty()),
    };
    let written = write_domain(&domain);
    assert_eq!(
        parse_domain(&written).as_ref(),
        Ok(&domain),
        "domain:\n{written}"
    );
    let problem = match parse_problem(&problem) {
        Ok(p) => p,
        Err(e) => return assert!(!e.to_string().is_empty()),
    };
    let written = write_problem(&problem);
    assert_eq!(
        parse_problem(&written).as_ref(),
        Ok(&problem),
        "problem:\n{written}"
    );
    match ground_within(&domain, &problem, LIMITS) {
        Ok(task) => search(&task),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fn search(task: &Task) {
    let n = task.facts.len() as u32;
    let ids = task
        .init
        .iter()
        .chain(&task.goal_pos)
        .chain(&task.goal_neg)
        .chain(&task.derived_facts);
    let ops = task.operators.iter().flat_map(|o| {
        let effects = o.effects.iter().flat_map(|e| {
            e.cond_pos
                .iter()
                .chain(&e.cond_neg)
                .chain(&e.add)
                .chain(&e.del)
        });
        o.pre_pos.iter().chain(&o.pre_neg).chain(effects)
    });
    let axioms = task
        .axioms
        .iter()
        .flat_map(|a| a.pre_pos.iter().chain(&a.pre_neg).chain([&a.head]));
    assert!(
        ids.chain(ops).chain(axioms).all(|&f| f < n),
        "a fact id out of range"
    );

    let successors = SuccessorGenerator::new(task);
    let start = task.initial_state();
    let mut parent: HashMap<State, Option<(State, OpId)>> = HashMap::new();
    parent.insert(start.clone(), None);
    let mut queue = VecDeque::from([start]);
    let mut applicable = Vec::new();
    for _ in 0..MAX_EXPANSIONS {
        let Some(s) = queue.pop_front() else { return };
        if task.is_goal(&s) {
            return check_plan(task, &parent, s);
        }
        successors.applicable(task, &s, &mut applicable);
        let mut found = applicable.clone();
        found.sort_unstable();
        let all: Vec<OpId> = (0..task.operators.len() as OpId)
            .filter(|&op| task.applicable(&s, op))
            .collect();
        assert_eq!(found, all, "the successor generator disagrees");
        for &op in &applicable {
            let next = task.apply(&s, op);
            if !parent.contains_key(&next) {
                parent.insert(next.clone(), Some((s.clone(), op)));
                queue.push_back(next);
            }
        }
    }
}

fn check_plan(task: &Task, parent: &HashMap<State, Option<(State, OpId)>>, goal: State) {
    let mut plan = Vec::new();
    let mut at = goal.clone();
    while let Some(Some((before, op))) = parent.get(&at) {
        plan.push(*op);
        at = before.clone();
    }
    plan.reverse();
    match task.validate(&plan) {
        Ok(end) => assert_eq!(end, goal, "the validator ends elsewhere"),
        Err(e) => panic!("a plan found by search does not validate: {e}"),
    }
}

#[cfg(test)]
mod seeds {
    //! Seeds: the planning examples tablero ships and the PDDL files of its tests.

    use tablero::planning::examples as ex;

    #[test]
    #[ignore = "writes the PDDL seeds: cargo test --release -- --ignored write_pddl_seeds"]
    fn write_pddl_seeds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = root.join("corpus/planning_pddl");
        std::fs::create_dir_all(&dir).unwrap();
        let read = |f: &str| std::fs::read_to_string(root.join("../plan_data").join(f)).unwrap();
        let sokoban = ex::sokoban_problem("small", ex::SOKOBAN_SMALL_MAP);
        let pairs = [
            (
                "blocksworld",
                ex::BLOCKSWORLD.to_string(),
                ex::BLOCKSWORLD_SUSSMAN.to_string(),
            ),
            (
                "gripper",
                ex::GRIPPER.to_string(),
                ex::GRIPPER_4.to_string(),
            ),
            ("sokoban", ex::SOKOBAN.to_string(), sokoban),
            (
                "briefcase",
                ex::BRIEFCASE.to_string(),
                ex::BRIEFCASE_SWAP.to_string(),
            ),
            ("zeno", read("zeno-domain.pddl"), read("zeno-p01.pddl")),
            ("trap", read("trap-domain.pddl"), read("trap-dead-end.pddl")),
            (
                "trap-unreachable",
                read("trap-domain.pddl"),
                read("trap-unreachable.pddl"),
            ),
            (
                "malformed",
                read("malformed-domain.pddl"),
                read("zeno-p01.pddl"),
            ),
        ];
        for (name, domain, problem) in pairs {
            std::fs::write(dir.join(name), format!("{domain}\0{problem}")).unwrap();
        }
    }
}
