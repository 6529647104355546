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

fn conjunction(c: &Conjunction) -> String {
    match c.len() {
        0 => "(and)".into(),
        1 => literal(&c[0]),
        _ => format!(
            "(and {})",
            c.iter().map(literal).collect::<Vec<_>>().join(" ")
        ),
    }
}

fn effects(es: &[Effect], indent: &str) -> String {
    let one = |e: &Effect| match e {
        Effect::Add(a) => a.to_string(),
        Effect::Del(a) => format!("(not {a})"),
        Effect::When(c, inner) => format!("(when {} {})", conjunction(c), effects(inner, "")),
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
    s.push_str("  (:predicates");
    for p in &d.predicates {
        if p.params.is_empty() {
            let _ = write!(s, "\n    ({})", p.name);
        } else {
            let _ = write!(s, "\n    ({} {})", p.name, typed(&p.params));
        }
    }
    s.push_str(")\n");
    for dr in &d.derived {
        let head = if dr.head.params.is_empty() {
            format!("({})", dr.head.name)
        } else {
            format!("({} {})", dr.head.name, typed(&dr.head.params))
        };
        let _ = writeln!(s, "  (:derived {head}\n    {})", conjunction(&dr.condition));
    }
    for a in &d.actions {
        let _ = writeln!(s, "  (:action {}", a.name);
        let _ = writeln!(s, "    :parameters ({})", typed(&a.params));
        let _ = writeln!(s, "    :precondition {}", conjunction(&a.precondition));
        let _ = writeln!(s, "    :effect {})", effects(&a.effects, "      "));
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
    s.push_str(")\n");
    let _ = writeln!(s, "  (:goal {}))", conjunction(&p.goal));
    s
}
