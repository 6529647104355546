//! From s-expressions to the PDDL model, with errors naming line, column and the problem.

use super::sexpr::{SExpr, error_at, parse_single};
use super::*;

struct Ctx<'a> {
    text: &'a str,
}

impl Ctx<'_> {
    fn err(&self, at: &SExpr, msg: impl Into<String>) -> PddlError {
        error_at(self.text, at.offset(), msg)
    }

    fn list<'e>(&self, e: &'e SExpr, what: &str) -> Result<&'e [SExpr], PddlError> {
        match e {
            SExpr::List(items, _) => Ok(items),
            SExpr::Symbol(s, _) => {
                Err(self.err(e, format!("expected a list for {what}, found '{s}'")))
            }
        }
    }

    fn sym<'e>(&self, e: &'e SExpr, what: &str) -> Result<&'e str, PddlError> {
        match e {
            SExpr::Symbol(s, _) => Ok(s),
            SExpr::List(..) => Err(self.err(e, format!("expected {what}, found a list"))),
        }
    }

    fn name(&self, e: &SExpr, what: &str) -> Result<String, PddlError> {
        let s = self.sym(e, what)?;
        if s.starts_with('?') || s.starts_with(':') || s == "-" {
            return Err(self.err(e, format!("expected {what}, found '{s}'")));
        }
        Ok(s.to_string())
    }

    /// `a b - t c - u d` (variables when `vars`).
    fn typed_list(&self, items: &[SExpr], vars: bool) -> Result<Vec<TypedName>, PddlError> {
        let mut out = Vec::new();
        let mut pending: Vec<String> = Vec::new();
        let mut i = 0;
        while i < items.len() {
            let s = self.sym(&items[i], "a name")?;
            if s == "-" {
                let Some(t) = items.get(i + 1) else {
                    return Err(self.err(&items[i], "'-' without a type after it"));
                };
                if let SExpr::List(l, _) = t {
                    if l.first().and_then(|x| self.sym(x, "").ok()) == Some("either") {
                        return Err(self.err(t, "unsupported: 'either' types"));
                    }
                }
                let ty = self.name(t, "a type name")?;
                if pending.is_empty() {
                    return Err(self.err(&items[i], "'-' with no names before it"));
                }
                for n in pending.drain(..) {
                    out.push(TypedName {
                        name: n,
                        ty: ty.clone(),
                    });
                }
                i += 2;
                continue;
            }
            if vars != s.starts_with('?') {
                let msg = if vars {
                    format!("expected a variable (?name), found '{s}'")
                } else {
                    format!("expected a name, found variable '{s}'")
                };
                return Err(self.err(&items[i], msg));
            }
            if s.len() < 2 && vars {
                return Err(self.err(&items[i], "empty variable name"));
            }
            pending.push(s.to_string());
            i += 1;
        }
        for n in pending {
            out.push(TypedName {
                name: n,
                ty: "object".into(),
            });
        }
        Ok(out)
    }

    fn term(&self, e: &SExpr, vars: &[String]) -> Result<Term, PddlError> {
        let s = self.sym(e, "a term")?;
        if s.starts_with('?') {
            if !vars.iter().any(|v| v == s) {
                return Err(self.err(e, format!("unknown variable '{s}'")));
            }
            Ok(Term::Var(s.to_string()))
        } else if s.starts_with(':') || s == "-" {
            Err(self.err(e, format!("expected a term, found '{s}'")))
        } else {
            Ok(Term::Object(s.to_string()))
        }
    }

    fn atom(
        &self,
        e: &SExpr,
        vars: &[String],
        preds: Option<&[PredicateDecl]>,
    ) -> Result<Atom, PddlError> {
        let items = self.list(e, "an atom")?;
        let Some(head) = items.first() else {
            return Err(self.err(e, "empty atom '()'"));
        };
        let predicate = self.name(head, "a predicate name")?;
        let args = items[1..]
            .iter()
            .map(|a| self.term(a, vars))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(preds) = preds {
            match preds.iter().find(|p| p.name == predicate) {
                None => return Err(self.err(head, format!("undeclared predicate '{predicate}'"))),
                Some(p) if p.params.len() != args.len() => {
                    return Err(self.err(
                        e,
                        format!(
                            "predicate '{predicate}' takes {} arguments, given {}",
                            p.params.len(),
                            args.len()
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(Atom { predicate, args })
    }

    fn head_of<'e>(&self, e: &'e SExpr) -> Option<&'e str> {
        match e {
            SExpr::List(items, _) => match items.first() {
                Some(SExpr::Symbol(s, _)) => Some(s.as_str()),
                _ => None,
            },
            _ => None,
        }
    }

    fn conjunction(
        &self,
        e: &SExpr,
        vars: &[String],
        preds: Option<&[PredicateDecl]>,
        out: &mut Conjunction,
    ) -> Result<(), PddlError> {
        let items = self.list(e, "a condition")?;
        match self.head_of(e) {
            None if items.is_empty() => Ok(()), // `()` is the empty conjunction
            Some("and") => {
                for c in &items[1..] {
                    self.conjunction(c, vars, preds, out)?;
                }
                Ok(())
            }
            Some("not") => {
                if items.len() != 2 {
                    return Err(self.err(e, "'not' takes exactly one argument"));
                }
                let inner = &items[1];
                if self.head_of(inner) == Some("=") {
                    let (a, b) = self.equality(inner, vars)?;
                    out.push(Literal::NotEq(a, b));
                } else if matches!(
                    self.head_of(inner),
                    Some("and" | "or" | "not" | "imply" | "exists" | "forall")
                ) {
                    return Err(self.err(
                        inner,
                        "unsupported: 'not' of a compound condition (only literals)",
                    ));
                } else {
                    out.push(Literal::Neg(self.atom(inner, vars, preds)?));
                }
                Ok(())
            }
            Some("=") => {
                let (a, b) = self.equality(e, vars)?;
                out.push(Literal::Eq(a, b));
                Ok(())
            }
            Some(k @ ("or" | "imply" | "exists" | "forall" | "when")) => {
                Err(self.err(e, format!("unsupported in conditions: '{k}'")))
            }
            _ => {
                out.push(Literal::Pos(self.atom(e, vars, preds)?));
                Ok(())
            }
        }
    }

    fn equality(&self, e: &SExpr, vars: &[String]) -> Result<(Term, Term), PddlError> {
        let items = self.list(e, "an equality")?;
        if items.len() != 3 {
            return Err(self.err(e, "'=' takes exactly two terms"));
        }
        Ok((self.term(&items[1], vars)?, self.term(&items[2], vars)?))
    }

    fn effects(
        &self,
        e: &SExpr,
        vars: &[String],
        preds: &[PredicateDecl],
        out: &mut Vec<Effect>,
    ) -> Result<(), PddlError> {
        let items = self.list(e, "an effect")?;
        match self.head_of(e) {
            None if items.is_empty() => Ok(()),
            Some("and") => {
                for c in &items[1..] {
                    self.effects(c, vars, preds, out)?;
                }
                Ok(())
            }
            Some("not") => {
                if items.len() != 2 {
                    return Err(self.err(e, "'not' takes exactly one argument"));
                }
                out.push(Effect::Del(self.atom(&items[1], vars, Some(preds))?));
                Ok(())
            }
            Some("when") => {
                if items.len() != 3 {
                    return Err(self.err(e, "'when' takes a condition and an effect"));
                }
                let mut cond = Vec::new();
                self.conjunction(&items[1], vars, Some(preds), &mut cond)?;
                let mut eff = Vec::new();
                self.effects(&items[2], vars, preds, &mut eff)?;
                if eff
                    .iter()
                    .any(|x| matches!(x, Effect::When(..) | Effect::Forall(..)))
                {
                    return Err(self.err(
                        &items[2],
                        "unsupported: nested 'when'/'forall' inside 'when'",
                    ));
                }
                out.push(Effect::When(cond, eff));
                Ok(())
            }
            Some("forall") => {
                if items.len() != 3 {
                    return Err(self.err(e, "'forall' takes a variable list and an effect"));
                }
                let params =
                    self.typed_list(self.list(&items[1], "the forall variables")?, true)?;
                let mut inner_vars = vars.to_vec();
                inner_vars.extend(params.iter().map(|p| p.name.clone()));
                let mut eff = Vec::new();
                self.effects(&items[2], &inner_vars, preds, &mut eff)?;
                out.push(Effect::Forall(params, eff));
                Ok(())
            }
            Some("increase" | "decrease" | "assign" | "scale-up" | "scale-down") => {
                Err(self.err(e, "unsupported: numeric effects / action costs"))
            }
            _ => {
                out.push(Effect::Add(self.atom(e, vars, Some(preds))?));
                Ok(())
            }
        }
    }

    /// `(define (<kind> name) sections...)`
    fn define<'e>(&self, root: &'e SExpr, kind: &str) -> Result<(String, &'e [SExpr]), PddlError> {
        let items = self.list(root, "the definition")?;
        if items.first().and_then(|x| self.sym(x, "").ok()) != Some("define") {
            return Err(self.err(root, "expected '(define ...)'"));
        }
        let Some(head) = items.get(1) else {
            return Err(self.err(root, format!("expected '({kind} <name>)' after 'define'")));
        };
        let h = self.list(head, &format!("'({kind} <name>)'"))?;
        if h.len() != 2 || self.sym(&h[0], kind)? != kind {
            return Err(self.err(head, format!("expected '({kind} <name>)'")));
        }
        Ok((self.name(&h[1], &format!("a {kind} name"))?, &items[2..]))
    }

    fn section<'e>(&self, e: &'e SExpr) -> Result<(&'e str, &'e [SExpr]), PddlError> {
        let items = self.list(e, "a section")?;
        let Some(first) = items.first() else {
            return Err(self.err(e, "empty section '()'"));
        };
        let key = self.sym(first, "a section keyword")?;
        if !key.starts_with(':') {
            return Err(self.err(
                first,
                format!("expected a section keyword (':...'), found '{key}'"),
            ));
        }
        Ok((key, &items[1..]))
    }
}

fn check_duplicates<'a>(
    ctx: &Ctx,
    at: &SExpr,
    names: impl Iterator<Item = &'a str>,
    what: &str,
) -> Result<(), PddlError> {
    let mut seen = std::collections::HashSet::new();
    for n in names {
        if !seen.insert(n) {
            return Err(ctx.err(at, format!("duplicate {what} '{n}'")));
        }
    }
    Ok(())
}

/// Parses a domain file.
pub fn parse_domain(text: &str) -> Result<Domain, PddlError> {
    let ctx = Ctx { text };
    let root = parse_single(text)?;
    let (name, sections) = ctx.define(&root, "domain")?;
    let mut d = Domain {
        name,
        ..Domain::default()
    };
    for s in sections {
        let (key, body) = ctx.section(s)?;
        match key {
            ":requirements" => {
                for r in body {
                    d.requirements
                        .push(ctx.sym(r, "a requirement")?.to_string());
                }
            }
            ":types" => {
                for t in ctx.typed_list(body, false)? {
                    d.types.push(TypeDecl {
                        name: t.name,
                        parent: t.ty,
                    });
                }
                check_duplicates(&ctx, s, d.types.iter().map(|t| t.name.as_str()), "type")?;
            }
            ":constants" => {
                d.constants = ctx.typed_list(body, false)?;
                check_duplicates(
                    &ctx,
                    s,
                    d.constants.iter().map(|t| t.name.as_str()),
                    "constant",
                )?;
            }
            ":predicates" => {
                for p in body {
                    let items = ctx.list(p, "a predicate declaration")?;
                    let Some(h) = items.first() else {
                        return Err(ctx.err(p, "empty predicate declaration"));
                    };
                    let name = ctx.name(h, "a predicate name")?;
                    let params = ctx.typed_list(&items[1..], true)?;
                    d.predicates.push(PredicateDecl { name, params });
                }
                check_duplicates(
                    &ctx,
                    s,
                    d.predicates.iter().map(|p| p.name.as_str()),
                    "predicate",
                )?;
            }
            ":action" => d.actions.push(parse_action(&ctx, s, body, &d.predicates)?),
            ":derived" => {
                if body.len() != 2 {
                    return Err(ctx.err(s, "':derived' takes a head and a condition"));
                }
                let items = ctx.list(&body[0], "a derived predicate head")?;
                let Some(h) = items.first() else {
                    return Err(ctx.err(&body[0], "empty derived head"));
                };
                let head = PredicateDecl {
                    name: ctx.name(h, "a predicate name")?,
                    params: ctx.typed_list(&items[1..], true)?,
                };
                // Variables of the body not in the head are existentially quantified.
                let mut vars: Vec<String> = head.params.iter().map(|p| p.name.clone()).collect();
                collect_vars(&body[1], &mut vars);
                let mut condition = Vec::new();
                ctx.conjunction(&body[1], &vars, Some(&d.predicates), &mut condition)?;
                d.derived.push(Derived { head, condition });
            }
            ":functions" => {
                return Err(ctx.err(
                    s,
                    "unsupported: ':functions' (numeric fluents / action costs)",
                ));
            }
            other => return Err(ctx.err(s, format!("unknown domain section '{other}'"))),
        }
    }
    // Types used must be declared.
    let declared = |t: &str| t == "object" || d.types.iter().any(|x| x.name == t);
    for t in &d.types {
        if !declared(&t.parent) {
            return Err(ctx.err(
                &root,
                format!(
                    "type '{}' has undeclared parent type '{}'",
                    t.name, t.parent
                ),
            ));
        }
    }
    let check_ty = |tn: &TypedName, ctxs: &str| -> Result<(), PddlError> {
        if declared(&tn.ty) {
            Ok(())
        } else {
            Err(ctx.err(
                &root,
                format!("undeclared type '{}' for '{}' in {ctxs}", tn.ty, tn.name),
            ))
        }
    };
    for c in &d.constants {
        check_ty(c, "the constants")?;
    }
    for p in &d.predicates {
        for a in &p.params {
            check_ty(a, &format!("predicate '{}'", p.name))?;
        }
    }
    for a in &d.actions {
        for p in &a.params {
            check_ty(p, &format!("action '{}'", a.name))?;
        }
    }
    check_duplicates(
        &ctx,
        &root,
        d.actions.iter().map(|a| a.name.as_str()),
        "action",
    )?;
    Ok(d)
}

fn parse_action(
    ctx: &Ctx,
    at: &SExpr,
    body: &[SExpr],
    preds: &[PredicateDecl],
) -> Result<Action, PddlError> {
    let Some(n) = body.first() else {
        return Err(ctx.err(at, "':action' without a name"));
    };
    let name = ctx.name(n, "an action name")?;
    let mut a = Action {
        name,
        params: Vec::new(),
        precondition: Vec::new(),
        effects: Vec::new(),
    };
    let mut i = 1;
    let mut vars: Vec<String> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    while i < body.len() {
        let key = ctx.sym(&body[i], "an action keyword")?;
        let Some(val) = body.get(i + 1) else {
            return Err(ctx.err(&body[i], format!("'{key}' without a value")));
        };
        // Each keyword once: a second `:parameters` would rebind what the first's
        // precondition refers to.
        if seen.contains(&key) {
            return Err(ctx.err(
                &body[i],
                format!("action '{}' has more than one '{key}'", a.name),
            ));
        }
        seen.push(key);
        match key {
            ":parameters" => {
                a.params = ctx.typed_list(ctx.list(val, "the parameter list")?, true)?;
                check_duplicates(
                    ctx,
                    val,
                    a.params.iter().map(|p| p.name.as_str()),
                    "parameter",
                )?;
                vars = a.params.iter().map(|p| p.name.clone()).collect();
            }
            ":precondition" => ctx.conjunction(val, &vars, Some(preds), &mut a.precondition)?,
            ":effect" => ctx.effects(val, &vars, preds, &mut a.effects)?,
            other => return Err(ctx.err(&body[i], format!("unknown action keyword '{other}'"))),
        }
        i += 2;
    }
    Ok(a)
}

/// Parses a problem file. Predicates and objects are checked against the domain when the
/// problem is grounded, not here (a problem can be parsed on its own).
pub fn parse_problem(text: &str) -> Result<Problem, PddlError> {
    let ctx = Ctx { text };
    let root = parse_single(text)?;
    let (name, sections) = ctx.define(&root, "problem")?;
    let mut p = Problem {
        name,
        ..Problem::default()
    };
    let mut have_goal = false;
    for s in sections {
        let (key, body) = ctx.section(s)?;
        match key {
            ":domain" => {
                let Some(d) = body.first() else {
                    return Err(ctx.err(s, "':domain' without a name"));
                };
                p.domain = ctx.name(d, "a domain name")?;
            }
            ":requirements" => {}
            ":objects" => {
                p.objects = ctx.typed_list(body, false)?;
                check_duplicates(&ctx, s, p.objects.iter().map(|t| t.name.as_str()), "object")?;
            }
            ":init" => {
                for f in body {
                    if ctx.head_of(f) == Some("=") {
                        return Err(ctx.err(f, "unsupported: numeric initial values"));
                    }
                    p.init.push(ctx.atom(f, &[], None)?);
                }
            }
            ":goal" => {
                if body.len() != 1 {
                    return Err(ctx.err(s, "':goal' takes exactly one condition"));
                }
                ctx.conjunction(&body[0], &[], None, &mut p.goal)?;
                have_goal = true;
            }
            ":metric" => return Err(ctx.err(s, "unsupported: ':metric'")),
            other => return Err(ctx.err(s, format!("unknown problem section '{other}'"))),
        }
    }
    if !have_goal {
        return Err(ctx.err(&root, "the problem has no ':goal'"));
    }
    Ok(p)
}

fn collect_vars(e: &SExpr, out: &mut Vec<String>) {
    match e {
        SExpr::Symbol(s, _) => {
            if s.starts_with('?') && !out.contains(s) {
                out.push(s.clone());
            }
        }
        SExpr::List(items, _) => items.iter().for_each(|i| collect_vars(i, out)),
    }
}
