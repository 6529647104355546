//! The PDDL writer: model → text that the parser (and other planners) read back.

use super::*;
use std::fmt::Write;

fn typed(list: &[TypedName]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < list.len() {
        let ty = &list[i].ty;
        let mut j = i;
        while j < list.len() && &list[j].ty == ty {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&list[j].name);
            j += 1;
        }
        if ty != "object" || j < list.len() {
            let _ = write!(out, " - {ty}");
        }
        i = j;
    }
    out
}

fn literal(l: &Literal) -> String {
    match l {
        Literal::Pos(a) => a.to_string(),
        Literal::Neg(a) => format!("(not {a})"),
        Literal::Eq(a, b) => format!("(= {} {})", a.as_str(), b.as_str()),
        Literal::NotEq(a, b) => format!("(not (= {} {}))", a.as_str(), b.as_str()),
    }
}

fn condition(c: &Condition) -> String {
    let list = |head: &str, cs: &[Condition]| {
        let mut out = format!("({head}");
        for c in cs {
            out.push(' ');
            out.push_str(&condition(c));
        }
        out.push(')');
        out
    };
    match c {
        Condition::Lit(l) => literal(l),
        Condition::And(cs) => list("and", cs),
        Condition::Or(cs) => list("or", cs),
        Condition::Not(c) => format!("(not {})", condition(c)),
        Condition::Imply(a, b) => format!("(imply {} {})", condition(a), condition(b)),
        Condition::Exists(v, c) => format!("(exists ({}) {})", typed(v), condition(c)),
        Condition::Forall(v, c) => format!("(forall ({}) {})", typed(v), condition(c)),
    }
}

fn num(n: &NumExpr) -> String {
    match n {
        NumExpr::Const(v) => v.to_string(),
        NumExpr::Term(t) => t.to_string(),
    }
}

fn declarations(head: &str, decls: &[PredicateDecl], suffix: &str) -> String {
    let mut s = format!("  ({head}");
    for p in decls {
        if p.params.is_empty() {
            let _ = write!(s, "\n    ({}){suffix}", p.name);
        } else {
            let _ = write!(s, "\n    ({} {}){suffix}", p.name, typed(&p.params));
        }
    }
    s.push_str(")\n");
    s
}

fn effects(es: &[Effect], indent: &str) -> String {
    let one = |e: &Effect| match e {
        Effect::Add(a) => a.to_string(),
        Effect::Del(a) => format!("(not {a})"),
        Effect::When(c, inner) => format!("(when {} {})", condition(c), effects(inner, "")),
        Effect::Forall(v, inner) => format!("(forall ({}) {})", typed(v), effects(inner, "")),
    };
    match es.len() {
        0 => "(and)".into(),
        1 => one(&es[0]),
        _ => {
            let sep = if indent.is_empty() {
                " ".to_string()
            } else {
                format!("\n{indent}")
            };
            format!(
                "(and{sep}{})",
                es.iter().map(one).collect::<Vec<_>>().join(&sep)
            )
        }
    }
}

/// Writes a domain as PDDL text.
pub fn write_domain(d: &Domain) -> String {
    let mut s = format!("(define (domain {})\n", d.name);
    if !d.requirements.is_empty() {
        let _ = writeln!(s, "  (:requirements {})", d.requirements.join(" "));
    }
    if !d.types.is_empty() {
        let list: Vec<TypedName> = d
            .types
            .iter()
            .map(|t| TypedName {
                name: t.name.clone(),
                ty: t.parent.clone(),
            })
            .collect();
        let _ = writeln!(s, "  (:types {})", typed(&list));
    }
    if !d.constants.is_empty() {
        let _ = writeln!(s, "  (:constants {})", typed(&d.constants));
    }
    s.push_str(&declarations(":predicates", &d.predicates, ""));
    if !d.functions.is_empty() {
        s.push_str(&declarations(":functions", &d.functions, " - number"));
    }
    for dr in &d.derived {
        let head = if dr.head.params.is_empty() {
            format!("({})", dr.head.name)
        } else {
            format!("({} {})", dr.head.name, typed(&dr.head.params))
        };
        let _ = writeln!(s, "  (:derived {head}\n    {})", condition(&dr.condition));
    }
    for a in &d.actions {
        let _ = writeln!(s, "  (:action {}", a.name);
        let _ = writeln!(s, "    :parameters ({})", typed(&a.params));
        let _ = writeln!(s, "    :precondition {}", condition(&a.precondition));
        let mut es: Vec<String> = vec![effects(&a.effects, "      ")];
        es.extend(
            a.cost
                .iter()
                .map(|c| format!("(increase (total-cost) {})", num(c))),
        );
        let effect = if es.len() == 1 {
            es.remove(0)
        } else {
            format!("(and {})", es.join("\n      "))
        };
        let _ = writeln!(s, "    :effect {effect})");
    }
    s.push_str(")\n");
    s
}

/// Writes a problem as PDDL text.
pub fn write_problem(p: &Problem) -> String {
    let mut s = format!("(define (problem {})\n", p.name);
    // A problem without `:domain` has an empty domain name: it stays without one.
    if !p.domain.is_empty() {
        let _ = writeln!(s, "  (:domain {})", p.domain);
    }
    let _ = writeln!(s, "  (:objects {})", typed(&p.objects));
    s.push_str("  (:init");
    for a in &p.init {
        let _ = write!(s, "\n    {a}");
    }
    for v in &p.values {
        let _ = write!(s, "\n    (= {} {})", v.term, v.value);
    }
    s.push_str(")\n");
    let _ = write!(s, "  (:goal {})", condition(&p.goal));
    if let Some(Metric::MinimizeTotalCost) = p.metric {
        s.push_str("\n  (:metric minimize (total-cost))");
    }
    s.push_str(")\n");
    s
}
