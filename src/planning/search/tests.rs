use super::astar::{AStar, AdmissibleKind};
use super::gbfs::{HKind, LazyConfig, LazySearch};
use super::relaxed::{CostType, LmCut, RelaxedHeuristic, RelaxedKind};
use super::width::{Bfws, Iw};
use super::*;
use crate::planning::examples;
use crate::planning::ground::ground;
use crate::planning::pddl::{parse_domain, parse_problem};
use crate::planning::task::{CondEffect, Operator, Task};
use rand::{Rng, SeedableRng};

fn task_of(domain: &str, problem: &str) -> Task {
    let d = parse_domain(domain).unwrap();
    let p = parse_problem(problem).unwrap();
    ground(&d, &p).unwrap()
}

fn engines(shared: &Arc<Shared>) -> Vec<Box<dyn Engine>> {
    let lazy = |name: &str, hs: &[HKind], w| {
        Box::new(LazySearch::new(
            shared.clone(),
            LazyConfig {
                name: name.into(),
                heuristics: hs.to_vec(),
                preferred: true,
                weight: w,
                type_based: None,
                cost_type: Default::default(),
            },
            Bound::default(),
        )) as Box<dyn Engine>
    };
    vec![
        lazy("lama", &[HKind::FF, HKind::LmCount], None),
        lazy("hadd-lm", &[HKind::Add, HKind::LmCount], None),
        lazy("hff", &[HKind::FF], None),
        lazy("lm", &[HKind::LmCount], None),
        lazy("wastar", &[HKind::FF], Some(2)),
        Box::new(Bfws::new(shared.clone(), Bound::default())),
        Box::new(AStar::new(
            shared.clone(),
            AdmissibleKind::LmCut,
            Bound::default(),
        )),
        Box::new(AStar::new(
            shared.clone(),
            AdmissibleKind::HMax,
            Bound::default(),
        )),
    ]
}

fn bfs_optimum(shared: &Arc<Shared>) -> Option<usize> {
    let mut e = AStar::new(shared.clone(), AdmissibleKind::Blind, Bound::default());
    run_to_end(&mut e, 5_000_000).map(|p| p.len())
}

#[test]
fn every_engine_solves_the_examples_with_valid_plans() {
    for ex in examples::all() {
        let shared = Shared::new(task_of(ex.domain, &ex.problem));
        let opt = bfs_optimum(&shared).unwrap_or_else(|| panic!("{}: BFS found no plan", ex.name));
        if let Some(o) = ex.optimal {
            assert_eq!(opt, o, "{}: breadth-first optimum", ex.name);
        }
        for mut e in engines(&shared) {
            let plan = run_to_end(e.as_mut(), 2_000_000)
                .unwrap_or_else(|| panic!("{}: {} failed", ex.name, e.name()));
            shared
                .task
                .validate(&plan)
                .unwrap_or_else(|err| panic!("{}: {}: {err}", ex.name, e.name()));
            assert!(
                plan.len() >= opt,
                "{}: {} beat the optimum",
                ex.name,
                e.name()
            );
            if e.optimal() {
                assert_eq!(plan.len(), opt, "{}: {} is not optimal", ex.name, e.name());
            }
        }
    }
}

#[test]
fn lmcut_is_admissible_and_informative_on_examples() {
    for ex in examples::all() {
        let shared = Shared::new(task_of(ex.domain, &ex.problem));
        let mut e = AStar::new(shared.clone(), AdmissibleKind::LmCut, Bound::default());
        let plan = run_to_end(&mut e, 1_000_000).unwrap();
        let mut lmcut = LmCut::new(shared.relaxed.clone());
        let mut hmax = RelaxedHeuristic::new(shared.relaxed.clone(), RelaxedKind::Max);
        let mut s = shared.task.initial_state();
        for (i, &op) in plan.iter().enumerate() {
            let remaining = (plan.len() - i) as u64;
            let h = lmcut.evaluate(&s).unwrap();
            let hm = hmax.evaluate(&shared.task, &s, None).unwrap();
            assert!(h <= remaining, "{}: lmcut {h} > h* {remaining}", ex.name);
            assert!(hm <= h, "{}: hmax {hm} > lmcut {h}", ex.name);
            s = shared.task.apply(&s, op);
        }
        assert_eq!(lmcut.evaluate(&s), Some(0));
    }
}

#[test]
fn known_heuristic_values() {
    // Gripper-4: every ball needs pick + drop, and the robot must move once: LM-cut = 9.
    let shared = Shared::new(task_of(examples::GRIPPER, examples::GRIPPER_4));
    let s = shared.task.initial_state();
    assert_eq!(LmCut::new(shared.relaxed.clone()).evaluate(&s), Some(9));
    let mut add = RelaxedHeuristic::new(shared.relaxed.clone(), RelaxedKind::Add);
    assert_eq!(add.evaluate(&shared.task, &s, None), Some(4 * 3));
    let mut ff = RelaxedHeuristic::new(shared.relaxed.clone(), RelaxedKind::FF);
    let mut pref = Vec::new();
    assert_eq!(ff.evaluate(&shared.task, &s, Some(&mut pref)), Some(9));
    assert!(!pref.is_empty());
    for &o in &pref {
        assert!(shared.task.applicable(&s, o));
    }
    let lg = shared.landmarks();
    // Landmarks include the goals and at least the at-robby roomb fact.
    assert!(lg.len() >= 5);
    assert!(
        lg.facts
            .iter()
            .any(|&f| shared.task.facts[f as usize] == "(at-robby roomb)")
    );
}

#[test]
fn serialized_iw_solves_the_examples() {
    for ex in examples::all() {
        let shared = Shared::new(task_of(ex.domain, &ex.problem));
        let mut siw = super::width::Siw::new(shared.clone(), Bound::default());
        match run_to_end(&mut siw, 1_000_000) {
            Some(plan) => {
                shared.task.validate(&plan).unwrap();
            }
            // SIW is incomplete: in the briefcase task, greedily achieving (at-case park)
            // first leaves a state from which no single further goal is within width 2.
            None => assert_eq!(ex.name, "briefcase-swap", "SIW failed"),
        }
    }
}

#[test]
fn width_search_solves_single_goal_with_iw1() {
    let shared = Shared::new(task_of(
        examples::BLOCKSWORLD,
        "(define (problem p) (:domain blocksworld) (:objects a b c - block)
           (:init (clear c) (on c b) (on b a) (ontable a) (handempty)) (:goal (holding a)))",
    ));
    let mut iw = Iw::new(shared.clone(), 1, Bound::default());
    let plan = run_to_end(&mut iw, 100_000).expect("IW(1) solves a single atomic goal here");
    shared.task.validate(&plan).unwrap();
    assert_eq!(plan.len(), 5);
}

/// A random tiny STRIPS task with negative preconditions and conditional effects.
fn random_task(rng: &mut impl Rng) -> Task {
    let nf = rng.gen_range(3..7);
    let pick = |rng: &mut dyn rand::RngCore, lo: usize, hi: usize| -> Vec<u32> {
        let k = if hi > lo { rng.gen_range(lo..hi) } else { lo };
        let mut v: Vec<u32> = (0..k).map(|_| rng.gen_range(0..nf as u32)).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let mut ops = Vec::new();
    for i in 0..rng.gen_range(2..9) {
        let pre_pos = pick(rng, 0, 3);
        let pre_neg: Vec<u32> = pick(rng, 0, 2)
            .into_iter()
            .filter(|f| !pre_pos.contains(f))
            .collect();
        let mut effects = vec![CondEffect {
            add: pick(rng, 1, 3),
            del: pick(rng, 0, 3),
            ..Default::default()
        }];
        if rng.gen_bool(0.4) {
            effects.push(CondEffect {
                cond_pos: pick(rng, 1, 1),
                cond_neg: if rng.gen_bool(0.3) {
                    pick(rng, 1, 1)
                } else {
                    vec![]
                },
                add: pick(rng, 1, 1),
                del: pick(rng, 0, 2),
            });
        }
        ops.push(Operator {
            name: format!("o{i}"),
            pre_pos,
            pre_neg,
            effects,
            cost: 1,
        });
    }
    Task {
        facts: (0..nf).map(|i| format!("f{i}")).collect(),
        init: pick(rng, 1, 3),
        goal_pos: pick(rng, 1, 3),
        goal_neg: if rng.gen_bool(0.2) {
            pick(rng, 1, 1)
        } else {
            vec![]
        },
        operators: ops,
        ..Task::default()
    }
}

#[test]
fn random_tasks_optimal_engines_agree_with_bfs() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(42);
    let mut solved = 0;
    for _ in 0..400 {
        let task = random_task(&mut rng);
        if task.goal_pos.iter().any(|g| task.goal_neg.contains(g)) {
            continue;
        }
        let shared = Shared::new(task);
        let opt = bfs_optimum(&shared);
        for mut e in engines(&shared) {
            let plan = run_to_end(e.as_mut(), 100_000);
            match (&plan, opt) {
                (Some(p), Some(o)) => {
                    shared
                        .task
                        .validate(p)
                        .unwrap_or_else(|err| panic!("{}: {err}", e.name()));
                    assert!(p.len() >= o);
                    if e.optimal() {
                        assert_eq!(p.len(), o, "{} not optimal on {:?}", e.name(), shared.task);
                    }
                }
                (Some(p), None) => panic!(
                    "{} found {p:?} on an unsolvable task {:?}",
                    e.name(),
                    shared.task
                ),
                (None, Some(_)) => {
                    // Relaxation-pruned searches must stay complete.
                    panic!("{} missed a plan on {:?}", e.name(), shared.task)
                }
                (None, None) => {}
            }
        }
        if let Some(o) = opt {
            solved += 1;
            let h = LmCut::new(shared.relaxed.clone()).evaluate(&shared.task.initial_state());
            assert!(h.is_some_and(|h| h <= o as u64), "lmcut {h:?} > {o}");
        }
    }
    assert!(solved > 50, "only {solved} random tasks solvable");
}

#[test]
fn relaxation_detects_sokoban_dead_ends() {
    let map = "wwwwww\nw....w\nw.1..w\nwA.0.w\nwwwwww";
    let shared = Shared::new(task_of(
        examples::SOKOBAN,
        &examples::sokoban_problem("dead", map),
    ));
    let t = &shared.task;
    let fact = |n: &str| {
        t.facts
            .iter()
            .position(|f| f == n)
            .unwrap_or_else(|| panic!("{n}")) as u32
    };
    let mut s = crate::planning::task::State::empty(t.facts.len());
    for f in ["(avatar c3_2)", "(box-at b0 c2_2)", "(occupied c2_2)"] {
        s.set(fact(f), true);
    }
    let push = t
        .operators
        .iter()
        .position(|o| o.name == "(push left c3_2 c2_2 c1_2 b0)")
        .unwrap() as u32;
    assert!(t.applicable(&s, push));
    let dead = t.apply(&s, push);
    for kind in [RelaxedKind::Max, RelaxedKind::Add, RelaxedKind::FF] {
        let mut h = RelaxedHeuristic::new(shared.relaxed.clone(), kind);
        assert!(
            h.evaluate(t, &s, None).is_some(),
            "{kind:?} before the push"
        );
        assert_eq!(
            h.evaluate(t, &dead, None),
            None,
            "{kind:?}: box against the left wall"
        );
    }
    assert_eq!(LmCut::new(shared.relaxed.clone()).evaluate(&dead), None);
}

#[test]
fn a_fact_reached_by_free_actions_still_needs_its_supporter() {
    // `prepare` costs nothing, so `ready` has h_add cost 0 without being true: the relaxed
    // plan must still hold `prepare`, the one applicable step, as its preferred operator.
    let domain = "(define (domain free) (:requirements :strips :action-costs)
        (:predicates (ready) (done)) (:functions (total-cost))
        (:action prepare :parameters () :precondition () :effect (ready))
        (:action finish :parameters () :precondition (ready)
         :effect (and (done) (increase (total-cost) 1))))";
    let problem = "(define (problem p) (:domain free) (:init (= (total-cost) 0))
        (:goal (done)) (:metric minimize (total-cost)))";
    let shared = Shared::new(task_of(domain, problem));
    let s = shared.task.initial_state();
    let mut ff = RelaxedHeuristic::new(shared.relaxed.clone(), RelaxedKind::FF);
    let mut pref = Vec::new();
    assert_eq!(ff.evaluate(&shared.task, &s, Some(&mut pref)), Some(1));
    let names: Vec<String> = pref
        .iter()
        .map(|&o| shared.task.operators[o as usize].name.clone())
        .collect();
    assert_eq!(names, ["(prepare)"]);
}

#[test]
fn cost_types_count_free_actions_as_lama_does() {
    // Two free steps and one step of cost 5: h_FF is 5 under the task's costs, 3 when every
    // step costs 1 and 8 under cost + 1; h_add of the goal (a chain) agrees.
    let domain = "(define (domain free) (:requirements :strips :action-costs)
        (:predicates (a) (b) (done)) (:functions (total-cost))
        (:action one :parameters () :precondition () :effect (a))
        (:action two :parameters () :precondition (a) :effect (b))
        (:action three :parameters () :precondition (b)
         :effect (and (done) (increase (total-cost) 5))))";
    let problem = "(define (problem p) (:domain free) (:init (= (total-cost) 0))
        (:goal (done)) (:metric minimize (total-cost)))";
    let shared = Shared::new(task_of(domain, problem));
    let s = shared.task.initial_state();
    for (cost_type, expected) in [
        (CostType::Normal, 5),
        (CostType::One, 3),
        (CostType::PlusOne, 8),
    ] {
        for kind in [RelaxedKind::FF, RelaxedKind::Add] {
            let mut h = RelaxedHeuristic::with_costs(shared.relaxed.clone(), kind, cost_type);
            assert_eq!(
                h.evaluate(&shared.task, &s, None),
                Some(expected),
                "{cost_type:?} {kind:?}"
            );
        }
    }
}

/// A* evaluates a node only when it leaves the open list: on a grid where LM-cut is exact, the
/// search walks straight to the goal and most children generated beside the path are never
/// evaluated (eager evaluation would compute LM-cut for every one of them).
#[test]
fn astar_evaluates_only_the_nodes_it_pops() {
    let k = 12;
    let cell = |x: usize, y: usize| format!("c{x}_{y}");
    let (mut objects, mut adj) = (String::new(), String::new());
    for x in 0..k {
        for y in 0..k {
            objects += &format!(" {}", cell(x, y));
            for (dx, dy) in [(1, 0), (0, 1)] {
                if x + dx < k && y + dy < k {
                    let (a, b) = (cell(x, y), cell(x + dx, y + dy));
                    adj += &format!(" (adj {a} {b}) (adj {b} {a})");
                }
            }
        }
    }
    let domain = "(define (domain grid) (:predicates (at ?c) (adj ?a ?b))
      (:action move :parameters (?a ?b) :precondition (and (at ?a) (adj ?a ?b))
        :effect (and (at ?b) (not (at ?a)))))";
    let problem = format!(
        "(define (problem g) (:domain grid) (:objects{objects}) (:init (at {}){adj})
           (:goal (at {})))",
        cell(0, 0),
        cell(k - 1, k - 1)
    );
    let shared = Shared::new(task_of(domain, &problem));
    let mut e = AStar::new(shared.clone(), AdmissibleKind::PlainLmCut, Bound::default());
    let plan = run_to_end(&mut e, 100_000).unwrap();
    assert_eq!(plan.len(), 2 * (k - 1));
    let st = e.stats();
    assert_eq!(st.expanded, plan.len() as u64, "{st:?}");
    // The initial state and each expanded node; none of the other children (eager: 43).
    assert!(st.evaluated <= st.expanded + 1, "{st:?}");
}

/// The cheapest plan's cost by Dijkstra over the state space (an oracle independent of the
/// engines), or None when no goal state is reachable.
fn dijkstra_cost(task: &Task) -> Option<u64> {
    use std::cmp::Reverse;
    let mut best: StateMap<u64> = StateMap::default();
    let mut open = std::collections::BinaryHeap::new();
    let s0 = task.initial_state();
    best.insert(s0.clone(), 0);
    open.push(Reverse((0u64, s0.0.to_vec())));
    while let Some(Reverse((g, bits))) = open.pop() {
        let s = crate::planning::task::State(bits.into_boxed_slice());
        if best.get(&s).is_some_and(|&b| b < g) {
            continue;
        }
        if task.is_goal(&s) {
            return Some(g);
        }
        for op in 0..task.operators.len() as OpId {
            if task.applicable(&s, op) {
                let t = task.apply(&s, op);
                let tg = g + task.operators[op as usize].cost as u64;
                if best.get(&t).is_none_or(|&b| tg < b) {
                    best.insert(t.clone(), tg);
                    open.push(Reverse((tg, t.0.to_vec())));
                }
            }
        }
    }
    None
}

/// With action costs from 0 to 3, the optimal engines (lazy A* with LM-cut, h_max and blind)
/// find plans exactly as cheap as Dijkstra's.
#[test]
fn random_tasks_with_costs_optimal_engines_agree_with_dijkstra() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut solved = 0;
    for _ in 0..1000 {
        let mut task = random_task(&mut rng);
        for o in &mut task.operators {
            o.cost = rng.gen_range(0..4);
        }
        let best = dijkstra_cost(&task);
        let shared = Shared::new(task);
        for kind in [
            AdmissibleKind::LmCut,
            AdmissibleKind::PlainLmCut,
            AdmissibleKind::HMax,
            AdmissibleKind::Blind,
        ] {
            let mut e = AStar::new(shared.clone(), kind, Bound::default());
            let plan = run_to_end(&mut e, 100_000);
            let cost = plan.as_ref().map(|p| {
                shared.task.validate(p).unwrap();
                shared.task.plan_cost(p)
            });
            assert_eq!(cost, best, "{kind:?} on {:?}", shared.task);
        }
        solved += best.is_some() as usize;
    }
    assert!(solved > 50, "only {solved} random tasks solvable");
}
