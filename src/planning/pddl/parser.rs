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
                let ty = self.type_name(t, vars)?;
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

    /// A type name, or `(either a b …)` (for variables only: an object has one type).
    fn type_name(&self, t: &SExpr, vars: bool) -> Result<String, PddlError> {
        let SExpr::List(l, _) = t else {
            return self.name(t, "a type name");
        };
        if l.first().and_then(|x| self.sym(x, "").ok()) != Some("either") {
            return Err(self.err(t, "expected a type name or '(either ...)', found a list"));
        }
        if !vars {
            return Err(self.err(
                t,
                "unsupported: 'either' as the type of an object or a type (only variables)",
            ));
        }
        if l.len() < 2 {
            return Err(self.err(t, "'either' without member types"));
        }
        let members = l[1..]
            .iter()
            .map(|m| self.name(m, "a type name"))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(format!("(either {})", members.join(" ")))
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

    /// A condition as written; `(and x)` and `(or x)` of one member are `x`.
    fn condition(
        &self,
        e: &SExpr,
        vars: &[String],
        preds: Option<&[PredicateDecl]>,
    ) -> Result<Condition, PddlError> {
        let items = self.list(e, "a condition")?;
        let args = items.get(1..).unwrap_or_default();
        Ok(match self.head_of(e) {
            None if items.is_empty() => Condition::And(Vec::new()),
            Some(j @ ("and" | "or")) => {
                let mut cs = Vec::with_capacity(args.len());
                for c in args {
                    cs.push(self.condition(c, vars, preds)?);
                }
                match (cs.len(), j) {
                    (1, _) => cs.remove(0),
                    (_, "and") => Condition::And(cs),
                    _ => Condition::Or(cs),
                }
            }
            Some("not") => self.negation(e, items, vars, preds)?,
            Some("imply") => {
                let [a, b] = args else {
                    return Err(self.err(e, "'imply' takes exactly two conditions"));
                };
                Condition::Imply(
                    Box::new(self.condition(a, vars, preds)?),
                    Box::new(self.condition(b, vars, preds)?),
                )
            }
            Some(q @ ("exists" | "forall")) => self.quantified(e, q, args, vars, preds)?,
            Some("=") => {
                let (a, b) = self.equality(e, vars)?;
                Condition::Lit(Literal::Eq(a, b))
            }
            Some(k @ ("<" | ">" | "<=" | ">=")) => {
                return Err(self.err(e, format!("unsupported: numeric conditions ('{k}')")));
            }
            Some("when") => return Err(self.err(e, "'when' is an effect, not a condition")),
            _ => Condition::Lit(Literal::Pos(self.atom(e, vars, preds)?)),
        })
    }

    /// `(not φ)`: a negative literal when φ is an atom or an equality.
    fn negation(
        &self,
        e: &SExpr,
        items: &[SExpr],
        vars: &[String],
        preds: Option<&[PredicateDecl]>,
    ) -> Result<Condition, PddlError> {
        let [_, inner] = items else {
            return Err(self.err(e, "'not' takes exactly one argument"));
        };
        Ok(match self.condition(inner, vars, preds)? {
            Condition::Lit(l @ (Literal::Pos(_) | Literal::Eq(..))) => Condition::Lit(l.negated()),
            c => Condition::Not(Box::new(c)),
        })
    }

    /// `(exists (vars) φ)` or `(forall (vars) φ)`.
    fn quantified(
        &self,
        e: &SExpr,
        q: &str,
        args: &[SExpr],
        vars: &[String],
        preds: Option<&[PredicateDecl]>,
    ) -> Result<Condition, PddlError> {
        let [list, body] = args else {
            return Err(self.err(e, format!("'{q}' takes a variable list and a condition")));
        };
        let params = self.typed_list(self.list(list, "the quantified variables")?, true)?;
        let mut inner = vars.to_vec();
        inner.extend(params.iter().map(|p| p.name.clone()));
        let body = Box::new(self.condition(body, &inner, preds)?);
        Ok(if q == "exists" {
            Condition::Exists(params, body)
        } else {
            Condition::Forall(params, body)
        })
    }

    fn equality(&self, e: &SExpr, vars: &[String]) -> Result<(Term, Term), PddlError> {
        let items = self.list(e, "an equality")?;
        if items.len() != 3 {
            return Err(self.err(e, "'=' takes exactly two terms"));
        }
        Ok((self.term(&items[1], vars)?, self.term(&items[2], vars)?))
    }

    /// Effects; `costs` collects `(increase (total-cost) x)` at the action's top level (it is
    /// `None` inside `when` and `forall`, where a cost would be conditional).
    fn effects(
        &self,
        e: &SExpr,
        vars: &[String],
        d: &Domain,
        out: &mut Vec<Effect>,
        mut costs: Option<&mut Vec<NumExpr>>,
    ) -> Result<(), PddlError> {
        let preds = d.predicates.as_slice();
        let items = self.list(e, "an effect")?;
        match self.head_of(e) {
            None if items.is_empty() => {}
            Some("and") => {
                for c in &items[1..] {
                    self.effects(c, vars, d, out, costs.as_deref_mut())?;
                }
            }
            Some("not") => {
                if items.len() != 2 {
                    return Err(self.err(e, "'not' takes exactly one argument"));
                }
                out.push(Effect::Del(self.atom(&items[1], vars, Some(preds))?));
            }
            Some("when") => {
                let [_, c, effect] = items else {
                    return Err(self.err(e, "'when' takes a condition and an effect"));
                };
                let cond = self.condition(c, vars, Some(preds))?;
                let mut eff = Vec::new();
                self.effects(effect, vars, d, &mut eff, None)?;
                if eff
                    .iter()
                    .any(|x| matches!(x, Effect::When(..) | Effect::Forall(..)))
                {
                    return Err(
                        self.err(effect, "unsupported: nested 'when'/'forall' inside 'when'")
                    );
                }
                out.push(Effect::When(cond, eff));
            }
            Some("forall") => {
                let [_, list, effect] = items else {
                    return Err(self.err(e, "'forall' takes a variable list and an effect"));
                };
                let params = self.typed_list(self.list(list, "the forall variables")?, true)?;
                let mut inner_vars = vars.to_vec();
                inner_vars.extend(params.iter().map(|p| p.name.clone()));
                let mut eff = Vec::new();
                self.effects(effect, &inner_vars, d, &mut eff, None)?;
                out.push(Effect::Forall(params, eff));
            }
            Some("increase") => {
                let cost = self.cost_increase(e, items, vars, d)?;
                let Some(costs) = costs else {
                    return Err(self.err(
                        e,
                        "unsupported: an action cost inside 'when' or 'forall' (conditional costs)",
                    ));
                };
                costs.push(cost);
            }
            Some(k @ ("decrease" | "assign" | "scale-up" | "scale-down")) => {
                return Err(self.err(
                    e,
                    format!("unsupported: numeric effect '{k}' (only '(increase (total-cost) …)')"),
                ));
            }
            _ => out.push(Effect::Add(self.atom(e, vars, Some(preds))?)),
        }
        Ok(())
    }

    /// `(increase (total-cost) x)`: the amount, a number or a function term.
    fn cost_increase(
        &self,
        e: &SExpr,
        items: &[SExpr],
        vars: &[String],
        d: &Domain,
    ) -> Result<NumExpr, PddlError> {
        let [_, target, amount] = items else {
            return Err(self.err(e, "'increase' takes a function term and an amount"));
        };
        let target = self.atom(target, vars, None)?;
        if target.predicate != "total-cost" || !target.args.is_empty() {
            return Err(self.err(
                e,
                format!(
                    "unsupported: numeric fluents ('increase' of {target}; only of (total-cost))"
                ),
            ));
        }
        self.function_declared(e, &target, d)?;
        match amount {
            SExpr::Symbol(..) => Ok(NumExpr::Const(self.number(amount)?)),
            SExpr::List(..) => {
                let term = self.atom(amount, vars, None)?;
                self.function_declared(amount, &term, d)?;
                Ok(NumExpr::Term(term))
            }
        }
    }

    /// Checks that a function term names a declared function with its arity.
    fn function_declared(&self, at: &SExpr, term: &Atom, d: &Domain) -> Result<(), PddlError> {
        match d.functions.iter().find(|f| f.name == term.predicate) {
            None => Err(self.err(at, format!("undeclared function '{}'", term.predicate))),
            Some(f) if f.params.len() != term.args.len() => Err(self.err(
                at,
                format!(
                    "function '{}' takes {} arguments, given {}",
                    f.name,
                    f.params.len(),
                    term.args.len()
                ),
            )),
            Some(_) => Ok(()),
        }
    }

    /// A non-negative integer (action costs are integers, as in the IPC).
    fn number(&self, e: &SExpr) -> Result<u64, PddlError> {
        let s = self.sym(e, "a number")?;
        let int = s.strip_suffix(".0").unwrap_or(s);
        int.parse::<u64>().map_err(|_| {
            self.err(
                e,
                format!("expected a non-negative integer, found '{s}' (costs are integers)"),
            )
        })
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
        domain_section(&ctx, s, &mut d)?;
    }
    check_domain_types(&ctx, &root, &d)?;
    check_duplicates(
        &ctx,
        &root,
        d.actions.iter().map(|a| a.name.as_str()),
        "action",
    )?;
    Ok(d)
}

/// Adds one section of a domain's `define` to `d`.
fn domain_section(ctx: &Ctx, s: &SExpr, d: &mut Domain) -> Result<(), PddlError> {
    let (key, body) = ctx.section(s)?;
    match key {
        ":requirements" => {
            for r in body {
                d.requirements.push(requirement(ctx, r)?);
            }
        }
        ":types" => {
            for t in ctx.typed_list(body, false)? {
                d.types.push(TypeDecl {
                    name: t.name,
                    parent: t.ty,
                });
            }
            let decls = d.types.iter().map(|t| format!("{} - {}", t.name, t.parent));
            check_duplicates(
                ctx,
                s,
                decls.collect::<Vec<_>>().iter().map(String::as_str),
                "type",
            )?;
        }
        ":constants" => {
            d.constants = ctx.typed_list(body, false)?;
            check_duplicates(
                ctx,
                s,
                d.constants.iter().map(|t| t.name.as_str()),
                "constant",
            )?;
        }
        ":predicates" => {
            for p in body {
                d.predicates
                    .push(predicate_decl(ctx, p, "a predicate declaration")?);
            }
            check_duplicates(
                ctx,
                s,
                d.predicates.iter().map(|p| p.name.as_str()),
                "predicate",
            )?;
        }
        ":action" => d.actions.push(parse_action(ctx, s, body, d)?),
        ":derived" => d.derived.push(derived(ctx, s, body, d)?),
        ":functions" => {
            d.functions = functions(ctx, body)?;
            check_duplicates(
                ctx,
                s,
                d.functions.iter().map(|f| f.name.as_str()),
                "function",
            )?;
        }
        other => return Err(ctx.err(s, format!("unknown domain section '{other}'"))),
    }
    Ok(())
}

/// `(name ?param - type ...)`: a predicate's declaration or a derived predicate's head.
fn predicate_decl(ctx: &Ctx, p: &SExpr, what: &str) -> Result<PredicateDecl, PddlError> {
    let items = ctx.list(p, what)?;
    let Some(h) = items.first() else {
        return Err(ctx.err(p, format!("empty {}", what.trim_start_matches("a "))));
    };
    Ok(PredicateDecl {
        name: ctx.name(h, "a predicate name")?,
        params: ctx.typed_list(&items[1..], true)?,
    })
}

/// A `:derived` section: a head and a condition.
fn derived(ctx: &Ctx, s: &SExpr, body: &[SExpr], d: &Domain) -> Result<Derived, PddlError> {
    if body.len() != 2 {
        return Err(ctx.err(s, "':derived' takes a head and a condition"));
    }
    let head = predicate_decl(ctx, &body[0], "a derived predicate head")?;
    // Variables of the body not in the head are existentially quantified.
    let mut vars: Vec<String> = head.params.iter().map(|p| p.name.clone()).collect();
    collect_vars(&body[1], &mut vars);
    let condition = ctx.condition(&body[1], &vars, Some(&d.predicates))?;
    Ok(Derived { head, condition })
}

/// Every type a domain uses (parents, constants, parameters) is declared.
fn check_domain_types(ctx: &Ctx, root: &SExpr, d: &Domain) -> Result<(), PddlError> {
    let named = |t: &str| t == "object" || d.types.iter().any(|x| x.name == t);
    let declared = |t: &str| match either_members(t) {
        Some(mut members) => members.all(named),
        None => named(t),
    };
    for t in &d.types {
        if !declared(&t.parent) {
            return Err(ctx.err(
                root,
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
                root,
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
    for f in &d.functions {
        for a in &f.params {
            check_ty(a, &format!("function '{}'", f.name))?;
        }
    }
    for a in &d.actions {
        for p in &a.params {
            check_ty(p, &format!("action '{}'", a.name))?;
        }
    }
    Ok(())
}

fn parse_action(ctx: &Ctx, at: &SExpr, body: &[SExpr], d: &Domain) -> Result<Action, PddlError> {
    let Some(n) = body.first() else {
        return Err(ctx.err(at, "':action' without a name"));
    };
    let name = ctx.name(n, "an action name")?;
    let mut a = Action {
        name,
        params: Vec::new(),
        precondition: Condition::default(),
        effects: Vec::new(),
        cost: Vec::new(),
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
            ":precondition" => a.precondition = ctx.condition(val, &vars, Some(&d.predicates))?,
            ":effect" => ctx.effects(val, &vars, d, &mut a.effects, Some(&mut a.cost))?,
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
                        p.values.push(function_value(&ctx, f)?);
                    } else {
                        p.init.push(ctx.atom(f, &[], None)?);
                    }
                }
            }
            ":goal" => {
                if body.len() != 1 {
                    return Err(ctx.err(s, "':goal' takes exactly one condition"));
                }
                p.goal = ctx.condition(&body[0], &[], None)?;
                have_goal = true;
            }
            ":metric" => p.metric = Some(metric(&ctx, s, body)?),
            other => return Err(ctx.err(s, format!("unknown problem section '{other}'"))),
        }
    }
    if !have_goal {
        return Err(ctx.err(&root, "the problem has no ':goal'"));
    }
    Ok(p)
}

/// The requirements tablero plans with; the others are refused by name.
const SUPPORTED_REQUIREMENTS: &[&str] = &[
    ":strips",
    ":typing",
    ":negative-preconditions",
    ":disjunctive-preconditions",
    ":equality",
    ":existential-preconditions",
    ":universal-preconditions",
    ":quantified-preconditions",
    ":conditional-effects",
    ":adl",
    ":derived-predicates",
    ":action-costs",
];

fn requirement(ctx: &Ctx, r: &SExpr) -> Result<String, PddlError> {
    let name = ctx.sym(r, "a requirement")?;
    if SUPPORTED_REQUIREMENTS.contains(&name) {
        Ok(name.to_string())
    } else if name.starts_with(':') {
        Err(ctx.err(r, format!("unsupported requirement '{name}'")))
    } else {
        Err(ctx.err(
            r,
            format!("expected a requirement (':...'), found '{name}'"),
        ))
    }
}

/// `(:functions (f ?x - t) - number ...)`: numeric functions (the `- number` may be left out).
fn functions(ctx: &Ctx, body: &[SExpr]) -> Result<Vec<PredicateDecl>, PddlError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        if ctx.sym(&body[i], "").ok() == Some("-") {
            match body.get(i + 1).map(|t| ctx.sym(t, "a function type")) {
                Some(Ok("number")) => {}
                Some(Ok(t)) => {
                    return Err(ctx.err(
                        &body[i],
                        format!("unsupported: object fluents (a function of type '{t}')"),
                    ));
                }
                Some(Err(e)) => return Err(e),
                None => return Err(ctx.err(&body[i], "'-' without a type after it")),
            }
            i += 2;
            continue;
        }
        let items = ctx.list(&body[i], "a function declaration")?;
        let Some(h) = items.first() else {
            return Err(ctx.err(&body[i], "empty function declaration"));
        };
        out.push(PredicateDecl {
            name: ctx.name(h, "a function name")?,
            params: ctx.typed_list(&items[1..], true)?,
        });
        i += 1;
    }
    Ok(out)
}

/// `(= (f a b) 5)` in `:init`.
fn function_value(ctx: &Ctx, f: &SExpr) -> Result<FunctionValue, PddlError> {
    let items = ctx.list(f, "a numeric initial value")?;
    let [_, term, value] = items else {
        return Err(ctx.err(f, "'=' in ':init' takes a function term and a number"));
    };
    Ok(FunctionValue {
        term: ctx.atom(term, &[], None)?,
        value: ctx.number(value)?,
    })
}

/// `(:metric minimize (total-cost))`.
fn metric(ctx: &Ctx, at: &SExpr, body: &[SExpr]) -> Result<Metric, PddlError> {
    let [dir, expr] = body else {
        return Err(ctx.err(
            at,
            "':metric' takes 'minimize' or 'maximize' and an expression",
        ));
    };
    let dir = ctx.sym(dir, "'minimize' or 'maximize'")?;
    let total_cost = matches!(expr, SExpr::List(l, _)
        if l.len() == 1 && ctx.sym(&l[0], "").ok() == Some("total-cost"));
    match (dir, total_cost) {
        ("minimize", true) => Ok(Metric::MinimizeTotalCost),
        ("minimize" | "maximize", _) => Err(ctx.err(
            at,
            format!("unsupported: ':metric {dir}' of anything but '(total-cost)' minimised"),
        )),
        _ => Err(ctx.err(
            at,
            format!("expected 'minimize' or 'maximize', found '{dir}'"),
        )),
    }
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
