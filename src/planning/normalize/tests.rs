use super::*;
use crate::planning::ground::ground;
use crate::planning::pddl::{parse_domain, parse_problem};
use crate::planning::{examples, task::Task};
use proptest::prelude::*;
use std::collections::HashMap;

#[test]
fn conjunctive_domains_normalise_to_themselves() {
    for ex in examples::all() {
        let d = parse_domain(ex.domain).unwrap();
        let p = parse_problem(&ex.problem).unwrap();
        let n = normalize(&d, &p);
        assert_eq!(n.predicates, d.predicates, "{}", ex.name);
        assert_eq!(n.rules.len(), d.derived.len(), "{}", ex.name);
        for (a, na) in d.actions.iter().zip(&n.actions) {
            let lits: Vec<Literal> = a
                .precondition
                .literals()
                .unwrap()
                .into_iter()
                .cloned()
                .collect();
            assert_eq!(na.precondition, lits, "{}", ex.name);
        }
    }
}

#[test]
fn quantifiers_and_disjunctions_become_axioms() {
    let d = parse_domain(
        "(define (domain d) (:types t)
          (:predicates (p ?x) (q ?x ?y))
          (:action a :parameters (?x - t)
            :precondition (and (p ?x) (or (q ?x ?x) (exists (?x) (q ?x ?x)))
                               (forall (?y - t) (imply (p ?y) (q ?x ?y))))
            :effect (p ?x)))",
    )
    .unwrap();
    let p = parse_problem("(define (problem p) (:domain d) (:goal (and)))").unwrap();
    let n = normalize(&d, &p);
    let x = || Term::Var("?x".into());
    let atom = |name: &str, args: Vec<Term>| Atom {
        predicate: name.into(),
        args,
    };
    assert_eq!(
        n.actions[0].precondition,
        [
            Literal::Pos(atom("p", vec![x()])),
            Literal::Pos(atom("new-axiom@0", vec![x()])),
            Literal::Neg(atom("new-axiom@1", vec![x()])),
        ]
    );
    // The disjunction: one rule per disjunct; the shadowing `exists (?x)` is renamed.
    let or_rules: Vec<&Rule> = n
        .rules
        .iter()
        .filter(|r| r.head.name == "new-axiom@0")
        .collect();
    assert_eq!(or_rules.len(), 2);
    assert_eq!(or_rules[1].vars[0].name, "?x@1");
    // forall ?y (p ?y → q ?x ?y) fails exactly when some ?y of type t has p and not q.
    let fa = n
        .rules
        .iter()
        .find(|r| r.head.name == "new-axiom@1")
        .unwrap();
    assert_eq!(fa.vars[0].ty, "t");
    assert_eq!(fa.body.len(), 2);
}

#[test]
fn universal_quantification_inside_a_rule_makes_a_higher_layer() {
    let d = parse_domain(
        "(define (domain d) (:predicates (p ?x) (r) (s))
          (:action a :parameters () :precondition (or (r) (forall (?y) (p ?y))) :effect (s))
          (:action b :parameters (?x) :effect (p ?x)))",
    )
    .unwrap();
    let p = parse_problem("(define (problem p) (:domain d) (:objects o1 o2) (:goal (s)))").unwrap();
    let t = ground(&d, &p).unwrap();
    let layers: Vec<u32> = t.axioms.iter().map(|a| a.layer).collect();
    assert!(layers.windows(2).all(|w| w[0] <= w[1]), "{layers:?}");
    assert_eq!(layers.last(), Some(&1), "{layers:?}");
    // The plan makes every p true first.
    let r = crate::planning::solve(
        &crate::planning::pddl::write_domain(&d),
        &crate::planning::pddl::write_problem(&p),
        &crate::planning::PlanOptions {
            optimal: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(r.length, 3, "{:?}", r.plan);
}

#[test]
fn a_derived_predicate_that_negates_itself_is_refused_by_name() {
    let d = parse_domain(
        "(define (domain d) (:predicates (p ?x) (q ?x))
          (:derived (q ?x) (not (q ?x)))
          (:action a :parameters (?x) :precondition (q ?x) :effect (p ?x)))",
    )
    .unwrap();
    let p = parse_problem("(define (problem p) (:domain d) (:objects o) (:goal (p o)))").unwrap();
    let e = ground(&d, &p).unwrap_err();
    assert!(
        e.to_string().contains("'q' depends on its own negation"),
        "{e}"
    );
}

// ---- Semantics: the grounded task applies exactly the actions whose condition holds ----

const OBJECTS: [&str; 3] = ["o1", "o2", "o3"];

fn cond_strategy() -> impl Strategy<Value = Condition> {
    let var = prop_oneof![Just("?x"), Just("?y")];
    let term = prop_oneof![
        var.clone().prop_map(|v| Term::Var(v.into())),
        Just(Term::Object("o1".into()))
    ];
    let leaf = prop_oneof![
        (term.clone(), any::<bool>()).prop_map(|(t, pos)| lit(pos, "p", vec![t])),
        (term.clone(), term.clone(), any::<bool>()).prop_map(|(a, b, pos)| lit(
            pos,
            "q",
            vec![a, b]
        )),
        any::<bool>().prop_map(|pos| lit(pos, "r", vec![])),
        (term.clone(), term, any::<bool>()).prop_map(|(a, b, eq)| Condition::Lit(if eq {
            Literal::Eq(a, b)
        } else {
            Literal::NotEq(a, b)
        })),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        let quantified = prop_oneof![Just("?x"), Just("?y")].prop_map(|v| {
            vec![TypedName {
                name: v.into(),
                ty: "object".into(),
            }]
        });
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Condition::And),
            prop::collection::vec(inner.clone(), 0..3).prop_map(Condition::Or),
            inner.clone().prop_map(|c| Condition::Not(Box::new(c))),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| Condition::Imply(Box::new(a), Box::new(b))),
            (quantified.clone(), inner.clone())
                .prop_map(|(v, c)| Condition::Exists(v, Box::new(c))),
            (quantified, inner).prop_map(|(v, c)| Condition::Forall(v, Box::new(c))),
        ]
    })
}

fn lit(pos: bool, p: &str, args: Vec<Term>) -> Condition {
    let a = Atom {
        predicate: p.into(),
        args,
    };
    Condition::Lit(if pos {
        Literal::Pos(a)
    } else {
        Literal::Neg(a)
    })
}

type Facts = std::collections::HashSet<(String, Vec<String>)>;

/// The condition evaluated directly (first-order semantics over [`OBJECTS`]).
fn holds(c: &Condition, env: &HashMap<String, String>, facts: &Facts) -> bool {
    let val = |t: &Term| match t {
        Term::Var(v) => env[v].clone(),
        Term::Object(o) => o.clone(),
    };
    let atom = |a: &Atom| facts.contains(&(a.predicate.clone(), a.args.iter().map(val).collect()));
    let quant = |v: &[TypedName], b: &Condition, all: bool| {
        let mut envs = vec![env.clone()];
        for t in v {
            envs = envs
                .into_iter()
                .flat_map(|e| {
                    OBJECTS.iter().map(move |o| {
                        let mut e = e.clone();
                        e.insert(t.name.clone(), o.to_string());
                        e
                    })
                })
                .collect();
        }
        if all {
            envs.iter().all(|e| holds(b, e, facts))
        } else {
            envs.iter().any(|e| holds(b, e, facts))
        }
    };
    match c {
        Condition::Lit(Literal::Pos(a)) => atom(a),
        Condition::Lit(Literal::Neg(a)) => !atom(a),
        Condition::Lit(Literal::Eq(a, b)) => val(a) == val(b),
        Condition::Lit(Literal::NotEq(a, b)) => val(a) != val(b),
        Condition::And(cs) => cs.iter().all(|c| holds(c, env, facts)),
        Condition::Or(cs) => cs.iter().any(|c| holds(c, env, facts)),
        Condition::Not(c) => !holds(c, env, facts),
        Condition::Imply(a, b) => !holds(a, env, facts) || holds(b, env, facts),
        Condition::Exists(v, b) => quant(v, b, false),
        Condition::Forall(v, b) => quant(v, b, true),
    }
}

/// `act ?x ?y` has the random precondition; `flip ?x` makes `p` fluent; `q` and `r` are static.
fn domain_with(pre: Condition) -> Domain {
    let mut d = parse_domain(
        "(define (domain s) (:predicates (p ?x) (q ?x ?y) (r) (done ?x ?y))
          (:action flip :parameters (?x)
            :effect (and (when (p ?x) (not (p ?x))) (when (not (p ?x)) (p ?x))))
          (:action act :parameters (?x ?y) :effect (done ?x ?y)))",
    )
    .unwrap();
    d.actions[1].precondition = pre;
    d
}

fn applicable_names(t: &Task, s: &crate::planning::task::State) -> Vec<String> {
    let mut names: Vec<String> = (0..t.operators.len() as u32)
        .filter(|&o| t.applicable(s, o) && t.operators[o as usize].name.starts_with("(act "))
        .map(|o| t.operators[o as usize].name.clone())
        .collect();
    names.sort();
    names
}

fn expected_names(pre: &Condition, facts: &Facts) -> Vec<String> {
    let mut names = Vec::new();
    for x in OBJECTS {
        for y in OBJECTS {
            let env = HashMap::from([("?x".to_string(), x.into()), ("?y".to_string(), y.into())]);
            if holds(pre, &env, facts) {
                names.push(format!("(act {x} {y})"));
            }
        }
    }
    names.sort();
    names
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn grounded_actions_apply_exactly_where_the_condition_holds(
        pre in cond_strategy(),
        init in prop::collection::vec(any::<bool>(), 13),
    ) {
        let d = domain_with(pre.clone());
        let mut facts = Facts::new();
        let mut bits = init.into_iter();
        for x in OBJECTS {
            if bits.next() == Some(true) {
                facts.insert(("p".into(), vec![x.into()]));
            }
            for y in OBJECTS {
                if bits.next() == Some(true) {
                    facts.insert(("q".into(), vec![x.into(), y.into()]));
                }
            }
        }
        if bits.next() == Some(true) {
            facts.insert(("r".into(), vec![]));
        }
        let init_text: String = facts
            .iter()
            .map(|(p, args)| format!("({p} {})", args.join(" ")))
            .collect();
        let problem = parse_problem(&format!(
            "(define (problem s1) (:domain s) (:objects o1 o2 o3) (:init {init_text}) (:goal (and)))"
        ))
        .unwrap();
        let task = ground(&d, &problem).unwrap();
        let s0 = task.initial_state();
        prop_assert_eq!(applicable_names(&task, &s0), expected_names(&pre, &facts));
        // After `flip o2` (p of o2 toggled).
        let flip = task.operators.iter().position(|o| o.name == "(flip o2)").unwrap() as u32;
        let s1 = task.apply(&s0, flip);
        let key = ("p".to_string(), vec!["o2".to_string()]);
        if !facts.remove(&key) {
            facts.insert(key);
        }
        prop_assert_eq!(applicable_names(&task, &s1), expected_names(&pre, &facts));
    }
}
