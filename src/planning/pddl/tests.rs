use super::*;
use crate::planning::examples;

#[test]
fn examples_parse_and_round_trip() {
    for ex in examples::all() {
        let d = parse_domain(ex.domain).unwrap_or_else(|e| panic!("{}: {e}", ex.name));
        let p = parse_problem(&ex.problem).unwrap_or_else(|e| panic!("{}: {e}", ex.name));
        let d2 = parse_domain(&write_domain(&d))
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", ex.name, write_domain(&d)));
        let p2 = parse_problem(&write_problem(&p)).unwrap_or_else(|e| panic!("{}: {e}", ex.name));
        assert_eq!(d, d2, "{}", ex.name);
        assert_eq!(p, p2, "{}", ex.name);
        // Writing is a fixpoint.
        assert_eq!(write_domain(&d), write_domain(&d2));
    }
}

#[test]
fn an_action_keyword_given_twice_is_an_error() {
    let d = "(define (domain d) (:predicates (p ?x) (q))
      (:action a :parameters (?x) :precondition (p ?x) :parameters () :effect (q)))";
    let e = parse_domain(d).unwrap_err();
    assert!(e.message.contains("more than one ':parameters'"), "{e}");
    assert_eq!(e.line, 2);
}

#[test]
fn a_problem_without_a_domain_name_round_trips() {
    let p = parse_problem("(define (problem unreachable) (:goal (open)))").unwrap();
    assert_eq!(p.domain, "");
    assert_eq!(parse_problem(&write_problem(&p)), Ok(p));
}

#[test]
fn model_details() {
    let d = parse_domain(examples::BRIEFCASE).unwrap();
    assert_eq!(d.name, "briefcase");
    assert_eq!(d.types.len(), 2);
    let mv = &d.actions[0];
    assert_eq!(mv.params.len(), 2);
    assert_eq!(
        mv.params[1],
        TypedName {
            name: "?to".into(),
            ty: "place".into()
        }
    );
    let pre = mv.precondition.literals().unwrap();
    assert!(matches!(pre[1], Literal::Neg(_)));
    let Effect::Forall(vars, inner) = &mv.effects[2] else {
        panic!("no forall: {:?}", mv.effects)
    };
    assert_eq!(vars[0].name, "?t");
    assert!(matches!(&inner[0], Effect::When(Condition::Lit(_), e) if e.len() == 2));
    let g = parse_domain(examples::GRIPPER).unwrap();
    let pre = g.actions[0].precondition.literals().unwrap();
    assert!(matches!(pre[1], Literal::NotEq(_, _)));
    // Case-insensitive names, comments.
    let p = parse_problem("; c\n(DEFINE (PROBLEM X) (:Domain D) (:objects A) (:init (P A)) (:goal (and (P A) (not (= A A)))))").unwrap();
    assert_eq!(p.name, "x");
    assert_eq!(p.init[0].args[0], Term::Object("a".into()));
    assert_eq!(p.goal.literals().map(|l| l.len()), Some(2));
}

#[test]
fn derived_predicates_round_trip() {
    let text = "(define (domain z) (:predicates (p ?x) (q ?x) (r))
       (:derived (r) (and (p a) (not (q a))))
       (:action go :parameters (?x) :precondition (r) :effect (q ?x)))";
    let d = parse_domain(text).unwrap();
    assert_eq!(d.derived.len(), 1);
    assert_eq!(parse_domain(&write_domain(&d)).unwrap(), d);
}

fn err_domain(text: &str) -> PddlError {
    match parse_domain(text) {
        Err(e) => e,
        Ok(d) => panic!("accepted: {d:?}"),
    }
}

#[test]
fn malformed_domains_are_rejected_with_location() {
    let e = err_domain(
        "(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x) :precondition (q ?x) :effect (p ?x)))",
    );
    assert_eq!(e.line, 3);
    assert!(e.message.contains("undeclared predicate 'q'"), "{e}");
    let e = err_domain(
        "(define (domain d) (:predicates (p ?x))\n(:action a :parameters (?x) :precondition (p ?x ?x) :effect (p ?x)))",
    );
    assert!(e.message.contains("takes 1 arguments, given 2"), "{e}");
    assert_eq!(e.line, 2);
    let e = err_domain(
        "(define (domain d) (:predicates (p ?x))\n(:action a :parameters (?x) :precondition (p ?y) :effect (p ?x)))",
    );
    assert!(e.message.contains("unknown variable '?y'"), "{e}");
    assert_eq!((e.line, e.column), (2, 46));
    let e = err_domain("(define (domain d) (:predicates (p ?x))");
    assert!(e.message.contains("unclosed"), "{e}");
    assert_eq!((e.line, e.column), (1, 1));
    let e = err_domain(
        "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :precondition (>= (f ?x) 1) :effect (p ?x)))",
    );
    assert!(
        e.message.contains("unsupported: numeric conditions ('>=')"),
        "{e}"
    );
    let e = err_domain("(define (domain d) (:requirements :strips :durative-actions))");
    assert!(
        e.message
            .contains("unsupported requirement ':durative-actions'"),
        "{e}"
    );
    let e = err_domain("(define (domain d) (:types a -) (:predicates))");
    assert!(e.message.contains("without a type"), "{e}");
    let e = err_domain("(define (domain d) (:predicates (p ?x - thing)))");
    assert!(e.message.contains("undeclared type 'thing'"), "{e}");
    let e = err_domain("(define (domain d) (:frobnicate))");
    assert!(
        e.message.contains("unknown domain section ':frobnicate'"),
        "{e}"
    );
    let e = err_domain("(define (problem d))");
    assert!(e.message.contains("(domain <name>)"), "{e}");
    let e = err_domain(
        "(define (domain d) (:predicates (p)) (:action a :parameters () :effect (increase (total-cost) 1)))",
    );
    assert!(
        e.message.contains("undeclared function 'total-cost'"),
        "{e}"
    );
    let e = err_domain(
        "(define (domain d) (:predicates (p)) (:functions (total-cost) (fuel) - number) (:action a :parameters () :effect (increase (fuel) 1)))",
    );
    assert!(e.message.contains("unsupported: numeric fluents"), "{e}");
    let e = err_domain(
        "(define (domain d) (:predicates (p ?x)) (:functions (total-cost)) (:action a :parameters () :effect (forall (?x) (increase (total-cost) 1))))",
    );
    assert!(e.message.contains("conditional costs"), "{e}");
    let e = err_domain(
        "(define (domain d) (:predicates (p)) (:functions (total-cost)) (:action a :parameters () :effect (increase (total-cost) -1)))",
    );
    assert!(
        e.message.contains("non-negative integer, found '-1'"),
        "{e}"
    );
    let e = err_domain(
        "(define (domain d) (:predicates (p)) (:functions (total-cost)) (:action a :parameters () :effect (decrease (total-cost) 1)))",
    );
    assert!(e.message.contains("numeric effect 'decrease'"), "{e}");
    let e = err_domain("(define (domain d) (:types a) (:constants c - (either a)) (:predicates))");
    assert!(
        e.message.contains("'either' as the type of an object"),
        "{e}"
    );
    let e = err_domain("(define (domain d) (:predicates (p ?x) (p ?y)))");
    assert!(e.message.contains("duplicate predicate 'p'"), "{e}");
    let e = err_domain(
        "(define (domain d) (:predicates (p ?x)) (:action a :parameters (x) :effect (p ?x)))",
    );
    assert!(e.message.contains("expected a variable"), "{e}");
    let e = err_domain(
        "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition))",
    );
    assert!(e.message.contains("':precondition' without a value"), "{e}");
    let e = err_domain("");
    assert!(e.message.contains("empty input"), "{e}");
}

#[test]
fn malformed_problems_are_rejected_with_location() {
    let e =
        parse_problem("(define (problem p) (:domain d) (:objects a) (:init (p a)))").unwrap_err();
    assert!(e.message.contains("no ':goal'"), "{e}");
    let e = parse_problem("(define (problem p) (:domain d)\n (:init (p ?x)) (:goal (p a)))")
        .unwrap_err();
    assert!(e.message.contains("unknown variable"), "{e}");
    assert_eq!(e.line, 2);
    let e = parse_problem("(define (problem p) (:domain d) (:init (= (f) 3.5)) (:goal (p a)))")
        .unwrap_err();
    assert!(
        e.message.contains("non-negative integer, found '3.5'"),
        "{e}"
    );
    let e = parse_problem(
        "(define (problem p) (:domain d) (:goal (p a)) (:metric maximize (total-cost)))",
    )
    .unwrap_err();
    assert!(e.message.contains("unsupported: ':metric maximize'"), "{e}");
    let e =
        parse_problem("(define (problem p) (:domain d) (:objects a a) (:goal (p a)))").unwrap_err();
    assert!(e.message.contains("duplicate object 'a'"), "{e}");
    let e = parse_problem("(define (problem p) (:domain d) (:goal (p a)) extra)").unwrap_err();
    assert!(e.message.contains("expected a list"), "{e}");
}

/// Random garbage never panics the parser.
#[test]
fn garbage_never_panics() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let base = examples::BLOCKSWORLD.as_bytes();
    for _ in 0..300 {
        let mut t = base.to_vec();
        for _ in 0..rng.gen_range(1..6) {
            if t.is_empty() {
                break;
            }
            let i = rng.gen_range(0..t.len());
            match rng.gen_range(0..3) {
                0 => {
                    t.remove(i);
                }
                1 => t.insert(i, b"()?- ;x"[rng.gen_range(0..7)]),
                _ => t.truncate(i),
            }
        }
        let s = String::from_utf8_lossy(&t);
        let _ = parse_domain(&s);
        let _ = parse_problem(&s);
    }
}

#[test]
fn deep_nesting_is_rejected_not_overflowed() {
    let n = 400;
    let text = format!(
        "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition {}(p){} :effect (p)))",
        "(and ".repeat(n),
        ")".repeat(n)
    );
    assert!(parse_domain(&text).is_ok());
    let text = format!(
        "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition {}(p){} :effect (p)))",
        "(and ".repeat(5000),
        ")".repeat(5000)
    );
    assert!(
        parse_domain(&text)
            .unwrap_err()
            .message
            .contains("nested deeper")
    );
}

/// The lexer cases of Fast Downward's tokenizer: a symbol ends before `?`, `;` comments run
/// to the end of the line (also right after a symbol), names are case-insensitive, and a `-`
/// inside a name is part of it while a `-` standing alone separates a type.
#[test]
fn tokenizer_matches_fast_downward() {
    // zenotravel writes `(aircraft?a)` and `(at?x - locatable ?c - city)`.
    let d = parse_domain(
        "(define (domain zeno) (:requirements :typing)
           (:types aircraft person - locatable locatable city)
           (:predicates (at?x - locatable ?c - city) (aircraft-at ?a - aircraft))
           (:action fly :parameters (?a - aircraft?from ?to - city)
             :precondition (and (at?a ?from)(not (= ?from?to)))
             :effect (and (not (at ?a?from)) (at ?a ?to))))",
    )
    .unwrap();
    assert_eq!(d.predicates[0].params.len(), 2);
    assert_eq!(d.predicates[0].params[0].name, "?x");
    assert_eq!(d.predicates[0].params[0].ty, "locatable");
    assert_eq!(d.predicates[1].name, "aircraft-at");
    let fly = &d.actions[0];
    let params: Vec<(&str, &str)> = fly
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.ty.as_str()))
        .collect();
    assert_eq!(
        params,
        [("?a", "aircraft"), ("?from", "city"), ("?to", "city")]
    );
    let pre = fly.precondition.literals().unwrap();
    let Literal::Pos(at) = pre[0] else {
        panic!("{:?}", fly.precondition)
    };
    assert_eq!(at.args, [Term::Var("?a".into()), Term::Var("?from".into())]);
    assert!(matches!(pre[1], Literal::NotEq(a, b)
        if a == &Term::Var("?from".into()) && b == &Term::Var("?to".into())));
    // Comments glued to a symbol, upper case, a name with '-' and '?' splitting objects.
    let p = parse_problem(
        "(DEFINE (PROBLEM Z1);comment)\n (:DOMAIN Zeno) (:Objects Plane-1 - Aircraft C1 C2 - City)
         (:INIT (AT plane-1 c1);; more\n) (:GOAL (At Plane-1 C2)))",
    )
    .unwrap();
    assert_eq!(p.name, "z1");
    assert_eq!(p.domain, "zeno");
    assert_eq!(p.objects[0].name, "plane-1");
    assert_eq!(p.objects[0].ty, "aircraft");
    assert_eq!(p.objects[2].ty, "city");
    assert_eq!(p.init[0].args[1], Term::Object("c1".into()));
    // A '-' glued to a type is part of a name, as in FD: `?x -t` declares no type.
    let e = err_domain("(define (domain d) (:predicates (p ?x -t)))");
    assert!(e.message.contains("expected a variable"), "{e}");
    // A '?' alone is an empty variable name, located.
    let e = err_domain("(define (domain d) (:predicates (p ? x)))");
    assert!(e.message.contains("empty variable name"), "{e}");
    assert_eq!((e.line, e.column), (1, 36));
}

/// ADL conditions, `either` types and action costs parse as written and round-trip through the
/// writer.
#[test]
fn adl_and_action_costs_round_trip() {
    let domain = "(define (domain adl) (:requirements :adl :action-costs)
      (:types a b)
      (:predicates (p ?x) (q ?x ?y) (r))
      (:functions (total-cost) - number (dist ?x ?y - (either a b)) - number)
      (:derived (r) (exists (?x - a) (or (p ?x) (not (p ?x)))))
      (:action go :parameters (?x - (either a b) ?y)
        :precondition (and (or (p ?x) (imply (r) (q ?x ?y)))
                           (not (and (p ?y) (r)))
                           (forall (?z - a) (exists (?w) (q ?z ?w))))
        :effect (and (p ?y) (when (or (r) (not (p ?x))) (not (p ?x)))
                     (increase (total-cost) (dist ?x ?y)) (increase (total-cost) 2))))";
    let d = parse_domain(domain).unwrap();
    let go = &d.actions[0];
    assert_eq!(go.params[0].ty, "(either a b)");
    assert_eq!(
        go.cost,
        [
            NumExpr::Term(Atom {
                predicate: "dist".into(),
                args: vec![Term::Var("?x".into()), Term::Var("?y".into())]
            }),
            NumExpr::Const(2)
        ]
    );
    let Condition::And(parts) = &go.precondition else {
        panic!("{:?}", go.precondition)
    };
    assert!(matches!(&parts[0], Condition::Or(o) if matches!(o[1], Condition::Imply(..))));
    assert!(matches!(&parts[1], Condition::Not(n) if matches!(**n, Condition::And(_))));
    assert!(matches!(&parts[2], Condition::Forall(v, _) if v[0].ty == "a"));
    assert_eq!(parse_domain(&write_domain(&d)), Ok(d.clone()));
    assert!(d.is_subtype("a", "(either a b)") && !d.is_subtype("a", "(either b)"));
    let problem = "(define (problem p1) (:domain adl) (:objects o1 - a o2 - b)
      (:init (p o1) (= (total-cost) 0) (= (dist o1 o2) 7))
      (:goal (or (p o2) (exists (?v - b) (q o1 ?v))))
      (:metric minimize (total-cost)))";
    let p = parse_problem(problem).unwrap();
    assert_eq!(p.metric, Some(Metric::MinimizeTotalCost));
    assert_eq!(p.values.len(), 2);
    assert_eq!(p.values[1].value, 7);
    assert_eq!(parse_problem(&write_problem(&p)), Ok(p));
}

#[test]
fn a_type_declared_under_two_parents_descends_from_both() {
    // IPC 2006 Storage: `area` is declared under `object` and again under `surface`.
    let d = parse_domain(
        "(define (domain s) (:requirements :typing)
           (:types hoist surface place area - object
                   storearea transitarea - area
                   area crate - surface)
           (:predicates (on ?x - surface)))",
    )
    .unwrap();
    assert!(d.is_subtype("storearea", "surface") && d.is_subtype("storearea", "area"));
    assert!(d.is_subtype("area", "object") && !d.is_subtype("area", "place"));
    assert_eq!(parse_domain(&write_domain(&d)), Ok(d.clone()));
    let twice = parse_domain("(define (domain s) (:types a - object a - object))").unwrap_err();
    assert!(
        twice.message.contains("duplicate type 'a - object'"),
        "{twice}"
    );
}
