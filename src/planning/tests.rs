use super::*;
use crate::planning::ground::{GroundError, ground};
use crate::planning::pddl::{parse_domain, parse_problem};

fn opts(planner: Option<&str>, optimal: bool) -> PlanOptions {
    PlanOptions {
        memory_limit: None,
        timeout: Duration::from_secs(20),
        optimal,
        threads: 2,
        anytime: false,
        planner: planner.map(String::from),
    }
}

#[test]
fn grounding_sizes_and_reachability() {
    let t =
        |d: &str, p: &str| ground(&parse_domain(d).unwrap(), &parse_problem(p).unwrap()).unwrap();
    let bw = t(examples::BLOCKSWORLD, examples::BLOCKSWORLD_SUSSMAN);
    // on 9 (x = y is relaxed-reachable: stack needs only holding x and clear y) + ontable 3
    // + clear 3 + handempty + holding 3; 3 pick-up, 3 put-down, 9 stack, 9 unstack.
    assert_eq!(bw.facts.len(), 19);
    assert_eq!(bw.operators.len(), 24);
    let gr = t(examples::GRIPPER, examples::GRIPPER_4);
    // The equality prunes move(a, a): 2 moves, 16 picks, 16 drops.
    assert_eq!(gr.operators.len(), 34);
    assert_eq!(gr.facts.len(), 20);
    // Reachability: a road network with an unreachable component.
    let dom = "(define (domain roads) (:requirements :strips :typing) (:types city)
      (:predicates (at ?c - city) (road ?a ?b - city) (visited ?c - city))
      (:action drive :parameters (?a ?b - city) :precondition (and (at ?a) (road ?a ?b))
        :effect (and (not (at ?a)) (at ?b) (visited ?b))))";
    let prob = "(define (problem r) (:domain roads) (:objects a b c x y - city)
      (:init (at a) (road a b) (road b c) (road x y) (road y x)) (:goal (visited c)))";
    let r = t(dom, prob);
    // Facts: at a/b/c, visited b/c; x and y never appear. Ops: drive a b, drive b c.
    assert_eq!(r.facts.len(), 5, "{:?}", r.facts);
    assert_eq!(r.operators.len(), 2);
    assert!(
        r.facts
            .iter()
            .all(|f| !f.contains(" x") && !f.contains(" y"))
    );
    // An unreachable goal is reported at grounding time.
    let prob2 = prob.replace("(visited c)", "(visited x)");
    let e = ground(&parse_domain(dom).unwrap(), &parse_problem(&prob2).unwrap()).unwrap_err();
    assert_eq!(e, GroundError::GoalUnreachable("(visited x)".into()));
    // Conditional effects under forall become per-thing conditional effects.
    let bc = t(examples::BRIEFCASE, examples::BRIEFCASE_SWAP);
    assert!(bc.has_conditional_effects());
    let mv = bc
        .operators
        .iter()
        .find(|o| o.name == "(move home office)")
        .unwrap();
    assert_eq!(mv.effects.len(), 3, "{mv:?}");
}

#[test]
fn grounding_errors() {
    let d = parse_domain(examples::BLOCKSWORLD).unwrap();
    let p = parse_problem("(define (problem p) (:domain blocksworld) (:objects a - block) (:init (on a z)) (:goal (clear a)))").unwrap();
    assert_eq!(
        ground(&d, &p).unwrap_err(),
        GroundError::UnknownObject("z".into())
    );
    let p = parse_problem("(define (problem p) (:domain blocksworld) (:objects a - block) (:init (onn a)) (:goal (clear a)))").unwrap();
    assert_eq!(
        ground(&d, &p).unwrap_err(),
        GroundError::UnknownPredicate("onn".into())
    );
    let p = parse_problem("(define (problem p) (:domain blocksworld) (:objects a - block) (:init (clear a a)) (:goal (clear a)))").unwrap();
    assert_eq!(
        ground(&d, &p).unwrap_err(),
        GroundError::Arity("clear".into(), 1, 2)
    );
    let p = parse_problem(
        "(define (problem p) (:domain other) (:objects a - block) (:init) (:goal (clear a)))",
    )
    .unwrap();
    assert!(matches!(
        ground(&d, &p).unwrap_err(),
        GroundError::DomainMismatch(..)
    ));
    let p = parse_problem(
        "(define (problem p) (:domain blocksworld) (:objects a - brick) (:init) (:goal (clear a)))",
    )
    .unwrap();
    assert!(matches!(
        ground(&d, &p).unwrap_err(),
        GroundError::UnknownType(..)
    ));
}

#[test]
fn solve_returns_validated_json_serialisable_plans() {
    for ex in examples::all() {
        let r = solve(ex.domain, &ex.problem, &opts(None, false))
            .unwrap_or_else(|e| panic!("{}: {e}", ex.name));
        assert_eq!(r.length, r.plan.len());
        assert!(r.seconds >= r.found_seconds);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["length"], r.length);
        assert!(
            json["plan"].is_array() && json["planner"].is_string() && json["seconds"].is_number()
        );
        if let Some(o) = ex.optimal {
            assert!(r.length >= o);
        }
    }
}

#[test]
fn optimal_mode_gives_known_optimal_lengths() {
    for ex in examples::all() {
        let r = solve(ex.domain, &ex.problem, &opts(None, true)).unwrap();
        assert!(r.optimal, "{}", ex.name);
        if let Some(o) = ex.optimal {
            assert_eq!(r.length, o, "{}", ex.name);
        }
    }
    // Reversing a 4-tower: unstack a, put-down a, unstack b, stack b a, unstack c, stack c b,
    // pick-up d, stack d c: 8 (and breadth-first search agrees).
    let r = solve(
        examples::BLOCKSWORLD,
        examples::BLOCKSWORLD_REVERSE4,
        &opts(Some("astar-blind"), true),
    )
    .unwrap();
    let r2 = solve(
        examples::BLOCKSWORLD,
        examples::BLOCKSWORLD_REVERSE4,
        &opts(Some("astar-lmcut"), true),
    )
    .unwrap();
    assert_eq!(r.length, r2.length);
    assert_eq!(r.length, 8);
}

#[test]
fn each_named_planner_works_and_unknown_is_rejected() {
    for name in portfolio::MEMBER_NAMES {
        let r = solve(
            examples::GRIPPER,
            examples::GRIPPER_4,
            &opts(Some(name), false),
        );
        match *name {
            // IW(1)/IW(2) are incomplete: gripper's conjunctive goal is beyond width 1.
            "iw1" | "iw2" => assert!(matches!(r, Ok(_) | Err(PlanError::GaveUp(_))), "{r:?}"),
            _ => {
                let r = r.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(r.planner.starts_with(name), "{} vs {name}", r.planner);
            }
        }
    }
    assert!(matches!(
        solve(
            examples::GRIPPER,
            examples::GRIPPER_4,
            &opts(Some("nope"), false)
        ),
        Err(PlanError::UnknownPlanner(_))
    ));
}

#[test]
fn unsolvable_and_bad_inputs() {
    // The goal is relaxed-reachable but not reachable: two things cannot both be held.
    let dom = "(define (domain h) (:predicates (free) (held ?x))
      (:action grab :parameters (?x) :precondition (free) :effect (and (held ?x) (not (free)))))";
    let prob = "(define (problem p) (:domain h) (:objects a b) (:init (free)) (:goal (and (held a) (held b))))";
    assert_eq!(
        solve(dom, prob, &opts(None, false)),
        Err(PlanError::Unsolvable)
    );
    assert_eq!(
        solve(dom, prob, &opts(None, true)),
        Err(PlanError::Unsolvable)
    );
    let prob = "(define (problem p) (:domain h) (:objects a b) (:init (free)) (:goal (held c)))";
    assert!(matches!(
        solve(dom, prob, &opts(None, false)),
        Err(PlanError::Ground(_))
    ));
    assert!(matches!(
        solve("(define", prob, &opts(None, false)),
        Err(PlanError::Domain(_))
    ));
    assert!(matches!(
        solve(dom, "(define (problem p))", &opts(None, false)),
        Err(PlanError::Problem(_))
    ));
    // An already satisfied goal: the empty plan.
    let prob = "(define (problem p) (:domain h) (:objects a) (:init (held a)) (:goal (held a)))";
    assert_eq!(solve(dom, prob, &opts(None, false)).unwrap().length, 0);
}

#[test]
fn timeout_is_reported() {
    let problem = examples::sokoban_problem("s0", examples::GVGAI_SOKOBAN_LEVELS[0]);
    let o = PlanOptions {
        timeout: Duration::from_millis(1),
        planner: Some("astar-blind".into()),
        ..opts(None, true)
    };
    assert!(matches!(
        solve(examples::SOKOBAN, &problem, &o),
        Err(PlanError::Timeout(_))
    ));
}

/// The memory limit bounds the search's node storage: a bound far below what blind A* needs
/// on Sokoban level 0 stops the run as out of memory, well before the deadline, and the peak
/// reported stays within one slice of the bound.
#[test]
fn memory_limit_stops_the_search() {
    let problem = examples::sokoban_problem("s0", examples::GVGAI_SOKOBAN_LEVELS[0]);
    let limit = 2 * 1024 * 1024;
    let o = PlanOptions {
        timeout: Duration::from_secs(60),
        planner: Some("astar-blind".into()),
        memory_limit: Some(limit),
        ..opts(None, true)
    };
    let start = Instant::now();
    let domain = pddl::parse_domain(examples::SOKOBAN).unwrap();
    let task = ground(&domain, &pddl::parse_problem(&problem).unwrap()).unwrap();
    let s = search_task(task, &o, start);
    assert!(
        matches!(s.outcome, Err(PlanError::OutOfMemory { limit_mib: 2, .. })),
        "{:?}",
        s.outcome
    );
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(s.peak_memory >= limit, "{}", s.peak_memory);
    assert!(s.peak_memory < 16 * limit, "{}", s.peak_memory);
    assert!(s.expanded > 0);
    // Without a bound the same search reports its node storage too.
    let r = solve(
        examples::GRIPPER,
        examples::GRIPPER_4,
        &opts(Some("astar-blind"), true),
    )
    .unwrap();
    assert!(r.peak_memory > 0);
}

#[test]
fn anytime_improves_and_reports_history() {
    let problem = examples::sokoban_problem("small", examples::SOKOBAN_SMALL_MAP);
    let o = PlanOptions {
        anytime: true,
        timeout: Duration::from_secs(20),
        ..opts(None, false)
    };
    let r = solve(examples::SOKOBAN, &problem, &o).unwrap();
    // The run ends early once an optimal plan is proved (LM-cut member or exhausted bound).
    assert!(r.optimal, "{r:?}");
    let opt = solve(
        examples::SOKOBAN,
        &problem,
        &opts(Some("astar-blind"), true),
    )
    .unwrap();
    assert_eq!(r.length, opt.length);
}

#[test]
fn validator_rejects_corrupted_plans_from_the_planner() {
    let d = parse_domain(examples::BLOCKSWORLD).unwrap();
    let p = parse_problem(examples::BLOCKSWORLD_SUSSMAN).unwrap();
    let t = ground(&d, &p).unwrap();
    let r = solve_task(t.clone(), &opts(None, true), Instant::now()).unwrap();
    assert!(t.validate(&r.ops).is_ok());
    // Names match the ops.
    for (name, &op) in r.plan.iter().zip(&r.ops) {
        assert_eq!(name, &t.operators[op as usize].name);
    }
    let mut short = r.ops.clone();
    short.pop();
    assert!(matches!(
        t.validate(&short),
        Err(task::ValidationError::GoalNotReached(_))
    ));
    let mut swapped = r.ops.clone();
    swapped.swap(0, 1);
    assert!(matches!(
        t.validate(&swapped),
        Err(task::ValidationError::NotApplicable { .. })
    ));
}

const DOORS: &str = "(define (domain doors) (:requirements :strips :derived-predicates)
  (:predicates (at ?r) (door ?a ?b) (open ?a ?b) (reachable ?r) (locked))
  (:derived (reachable ?r) (at ?r))
  (:derived (reachable ?b) (and (reachable ?a) (open ?a ?b)))
  (:action open-door :parameters (?a ?b)
    :precondition (and (reachable ?a) (door ?a ?b) (not (locked)))
    :effect (open ?a ?b))
  (:action close-door :parameters (?a ?b) :precondition (open ?a ?b) :effect (not (open ?a ?b))))";

#[test]
fn derived_predicates_are_evaluated_by_axioms() {
    let prob = "(define (problem p) (:domain doors) (:objects r0 r1 r2 r3 r4)
      (:init (at r0) (door r0 r1) (door r1 r2) (door r2 r3) (door r0 r4) (door r4 r3))
      (:goal (and (reachable r3) (not (reachable r1)))))";
    let t = ground(&parse_domain(DOORS).unwrap(), &parse_problem(prob).unwrap()).unwrap();
    assert!(!t.axioms.is_empty());
    assert!(
        t.initial_state()
            .has(t.facts.iter().position(|f| f == "(reachable r0)").unwrap() as u32)
    );
    for planner in ["astar-lmcut", "astar-blind", "lama", "bfws"] {
        let r = solve(
            DOORS,
            prob,
            &opts(Some(planner), planner.starts_with("astar")),
        )
        .unwrap();
        // Through r4: open r0 r4, open r4 r3 (r1 must stay unreachable).
        assert_eq!(r.length, 2, "{planner}: {:?}", r.plan);
        assert!(t.validate(&r.ops).is_ok());
    }
    // Closing a door un-derives reachability.
    let prob2 = "(define (problem p) (:domain doors) (:objects r0 r1 r2)
      (:init (at r0) (door r0 r1) (door r1 r2) (open r0 r1))
      (:goal (and (reachable r2) (not (reachable r1)))))";
    assert_eq!(
        solve(DOORS, prob2, &opts(None, true)),
        Err(PlanError::Unsolvable)
    );
    // A rule negating its own head has no stratification.
    let bad = DOORS.replace(
        "(:derived (reachable ?r) (at ?r))",
        "(:derived (reachable ?r) (and (at ?r) (not (reachable ?r))))",
    );
    let e = ground(&parse_domain(&bad).unwrap(), &parse_problem(prob).unwrap()).unwrap_err();
    assert!(matches!(e, GroundError::NotStratified(_)), "{e}");
}

#[test]
fn grounding_stops_at_the_binding_limit_before_enumerating_everything() {
    // Six parameters over 20 objects without preconditions: 64 million bindings.
    let dom = "(define (domain wide) (:predicates (p ?a ?b ?c ?d ?e ?f))
      (:action a :parameters (?a ?b ?c ?d ?e ?f) :precondition (and) :effect (p ?a ?b ?c ?d ?e ?f)))";
    let objects: Vec<String> = (0..20).map(|i| format!("o{i}")).collect();
    let prob = format!(
        "(define (problem w) (:domain wide) (:objects {}) (:init) (:goal (p o1 o2 o3 o4 o5 o6)))",
        objects.join(" ")
    );
    let (dom, prob) = (parse_domain(dom).unwrap(), parse_problem(&prob).unwrap());
    let limits = crate::planning::ground::GroundLimits {
        max_actions: usize::MAX,
        max_bindings: 100_000,
        deadline: None,
    };
    let start = std::time::Instant::now();
    let e = crate::planning::ground::ground_within(&dom, &prob, limits).unwrap_err();
    assert_eq!(e, GroundError::TooMuchWork(100_000));
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    // Without a binding limit, the deadline stops it.
    let start = std::time::Instant::now();
    let limits = crate::planning::ground::GroundLimits {
        max_actions: usize::MAX,
        max_bindings: u64::MAX,
        deadline: Some(start + std::time::Duration::from_millis(200)),
    };
    let e = crate::planning::ground::ground_within(&dom, &prob, limits).unwrap_err();
    assert_eq!(e, GroundError::OutOfTime);
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
    // The action limit stops the enumeration as soon as one round has found more, before the
    // round's 64 million bindings are all listed.
    let limits = crate::planning::ground::GroundLimits {
        max_actions: 10_000,
        max_bindings: u64::MAX,
        deadline: None,
    };
    let start = std::time::Instant::now();
    let e = crate::planning::ground::ground_within(&dom, &prob, limits).unwrap_err();
    assert_eq!(e, GroundError::TooLarge(10_000));
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
}

/// A schema with many parameters joined over a symmetric relation between objects of several
/// types (organic-synthesis's bonds): the join checks each variable's type and the
/// inequalities as soon as they are bound, so the bindings it tries stay near the 24
/// orderings per carbon instead of branching over every neighbour of every type.
#[test]
fn grounding_prunes_bindings_by_type_and_inequality_as_it_joins() {
    let dom = "(define (domain bonds) (:requirements :typing :equality)
      (:types carbon hydrogen - object) (:predicates (bond ?x ?y) (done ?c))
      (:action strip :parameters (?c - carbon ?h1 ?h2 ?h3 ?h4 - hydrogen)
        :precondition (and (bond ?h1 ?c) (bond ?h2 ?c) (bond ?h3 ?c) (bond ?h4 ?c)
          (not (= ?h1 ?h2)) (not (= ?h1 ?h3)) (not (= ?h1 ?h4))
          (not (= ?h2 ?h3)) (not (= ?h2 ?h4)) (not (= ?h3 ?h4)))
        :effect (done ?c)))";
    let (carbons, per) = (12, 4);
    let mut objects = String::new();
    let mut init = String::new();
    for c in 0..carbons {
        objects += &format!(" c{c} - carbon");
        for d in 0..carbons {
            if d != c {
                init += &format!(" (bond c{c} c{d})");
            }
        }
        for h in 0..per {
            objects += &format!(" h{c}x{h} - hydrogen");
            init += &format!(" (bond c{c} h{c}x{h}) (bond h{c}x{h} c{c})");
        }
    }
    let prob = format!(
        "(define (problem p) (:domain bonds) (:objects{objects}) (:init{init}) (:goal (done c0)))"
    );
    let (dom, prob) = (parse_domain(dom).unwrap(), parse_problem(&prob).unwrap());
    let limits = crate::planning::ground::GroundLimits {
        max_actions: usize::MAX,
        max_bindings: 20_000,
        deadline: None,
    };
    let task = crate::planning::ground::ground_within(&dom, &prob, limits).unwrap();
    assert_eq!(task.operators.len(), carbons * 24);
}

/// An expansion bound stops the search at exactly the bound, without a plan when the plan
/// needs more, and one planner on one thread expands the same nodes every time.
#[test]
fn expansion_bound_stops_the_search_at_the_bound() {
    let domain = pddl::parse_domain(examples::BLOCKSWORLD).unwrap();
    let problem = pddl::parse_problem(examples::BLOCKSWORLD_SUSSMAN).unwrap();
    let task = || ground(&domain, &problem).unwrap();
    let o = PlanOptions {
        threads: 1,
        ..opts(Some("astar-blind"), true)
    };
    let free = search_task_bounded(task(), &o, None, Instant::now());
    let needed = free.expanded;
    let cost = free.outcome.unwrap().cost;
    assert!(needed > 4, "{needed}");
    let half = needed / 2;
    let s = search_task_bounded(task(), &o, Some(half), Instant::now());
    assert_eq!(s.outcome, Err(PlanError::ExpansionLimit(half)));
    assert_eq!(s.expanded, half);
    let bounded = search_task_bounded(task(), &o, Some(needed + 1000), Instant::now());
    assert_eq!(bounded.expanded, needed);
    assert_eq!(bounded.outcome.unwrap().cost, cost);
}
