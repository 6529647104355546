//! Normalisation, the first step of translation: conditions as written (`or`, `imply`, `not`
//! of compound conditions, `exists`, `forall`) become conjunctions of literals the grounder
//! reads, with new derived predicates where a conjunction cannot say it.
//!
//! A condition is first put in negation normal form (`imply` rewritten, negations pushed to
//! the literals). In a conjunction, a literal stays; a disjunction or an existential becomes a
//! new derived atom `new-axiom@N(free variables)` with one rule per disjunct (an existential's
//! variables become the rule's own variables, which the semantics of rules quantifies
//! existentially); `forall v. φ` becomes the negated atom of the axiom for `exists v. ¬φ`.
//! Negated derived atoms inside rule bodies make the axioms stratified (the grounder orders
//! them in layers). A domain without these constructs normalises to itself: same predicates, same order.

use super::pddl::{
    Action, Atom, Condition, Conjunction, Domain, Effect, Literal, NumExpr, PredicateDecl, Problem,
    Term, TypedName,
};
use std::collections::HashSet;

/// An action whose precondition and effect conditions are conjunctions of literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalAction {
    pub name: String,
    pub params: Vec<TypedName>,
    pub precondition: Conjunction,
    pub effects: Vec<NormalEffect>,
    pub cost: Vec<NumExpr>,
}

/// An effect whose conditions are conjunctions of literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NormalEffect {
    Add(Atom),
    Del(Atom),
    When(Conjunction, Vec<NormalEffect>),
    Forall(Vec<TypedName>, Vec<NormalEffect>),
}

/// A rule `head(params) :- ∃ vars. body`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub head: PredicateDecl,
    pub vars: Vec<TypedName>,
    pub body: Conjunction,
}

/// A domain and goal in normal form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalTask {
    /// The domain's predicates, then the heads of the new derived predicates.
    pub predicates: Vec<PredicateDecl>,
    pub actions: Vec<NormalAction>,
    /// The domain's derived-predicate rules, then the new ones.
    pub rules: Vec<Rule>,
    pub goal: Conjunction,
}

/// Normalises a domain and a problem's goal.
pub fn normalize(domain: &Domain, problem: &Problem) -> NormalTask {
    let mut n = Normalizer {
        taken: domain.predicates.iter().map(|p| p.name.clone()).collect(),
        next: 0,
        predicates: domain.predicates.clone(),
        rules: Vec::new(),
    };
    for d in &domain.derived {
        n.derived_rules(&d.head, &d.condition);
    }
    let actions = domain.actions.iter().map(|a| n.action(a)).collect();
    let goal = n.conjunction(&problem.goal, &[]);
    NormalTask {
        predicates: n.predicates,
        actions,
        rules: n.rules,
        goal,
    }
}

/// A condition in negation normal form.
#[derive(Debug, Clone)]
enum Nnf {
    Lit(Literal),
    And(Vec<Nnf>),
    Or(Vec<Nnf>),
    Exists(Vec<TypedName>, Box<Nnf>),
    Forall(Vec<TypedName>, Box<Nnf>),
}

/// The negation normal form of `c` (of `¬c` when `neg`).
fn nnf(c: &Condition, neg: bool) -> Nnf {
    let junction = |cs: &[Condition], or: bool| {
        let parts = cs.iter().map(|c| nnf(c, neg)).collect();
        if or != neg {
            Nnf::Or(parts)
        } else {
            Nnf::And(parts)
        }
    };
    match c {
        Condition::Lit(l) => Nnf::Lit(if neg { l.negated() } else { l.clone() }),
        Condition::And(cs) => junction(cs, false),
        Condition::Or(cs) => junction(cs, true),
        Condition::Not(c) => nnf(c, !neg),
        Condition::Imply(a, b) => {
            let parts = vec![nnf(a, !neg), nnf(b, neg)];
            if neg { Nnf::And(parts) } else { Nnf::Or(parts) }
        }
        Condition::Exists(v, b) | Condition::Forall(v, b) => {
            let body = Box::new(nnf(b, neg));
            if matches!(c, Condition::Exists(..)) != neg {
                Nnf::Exists(v.clone(), body)
            } else {
                Nnf::Forall(v.clone(), body)
            }
        }
    }
}

/// The negation of a condition in negation normal form.
fn dual(n: &Nnf) -> Nnf {
    match n {
        Nnf::Lit(l) => Nnf::Lit(l.negated()),
        Nnf::And(ns) => Nnf::Or(ns.iter().map(dual).collect()),
        Nnf::Or(ns) => Nnf::And(ns.iter().map(dual).collect()),
        Nnf::Exists(v, b) => Nnf::Forall(v.clone(), Box::new(dual(b))),
        Nnf::Forall(v, b) => Nnf::Exists(v.clone(), Box::new(dual(b))),
    }
}

/// Pushes the variables of `terms` not bound in `bound` and not yet in `out`, in order.
fn free_in_terms<'t>(terms: impl Iterator<Item = &'t Term>, bound: &[&str], out: &mut Vec<String>) {
    for t in terms {
        if let Term::Var(v) = t {
            if !bound.contains(&v.as_str()) && !out.contains(v) {
                out.push(v.clone());
            }
        }
    }
}

fn literal_terms(l: &Literal) -> Vec<&Term> {
    match l {
        Literal::Pos(a) | Literal::Neg(a) => a.args.iter().collect(),
        Literal::Eq(x, y) | Literal::NotEq(x, y) => vec![x, y],
    }
}

/// The free variables of `n`, in order of first appearance.
fn free_vars<'n>(n: &'n Nnf, bound: &mut Vec<&'n str>, out: &mut Vec<String>) {
    match n {
        Nnf::Lit(l) => free_in_terms(literal_terms(l).into_iter(), bound, out),
        Nnf::And(ns) | Nnf::Or(ns) => ns.iter().for_each(|n| free_vars(n, bound, out)),
        Nnf::Exists(v, b) | Nnf::Forall(v, b) => {
            let depth = bound.len();
            bound.extend(v.iter().map(|t| t.name.as_str()));
            free_vars(b, bound, out);
            bound.truncate(depth);
        }
    }
}

/// `n` with the free occurrences of variable `from` renamed to `to`.
fn rename(n: &Nnf, from: &str, to: &str) -> Nnf {
    let term = |t: &Term| match t {
        Term::Var(v) if v == from => Term::Var(to.to_string()),
        t => t.clone(),
    };
    let atom = |a: &Atom| Atom {
        predicate: a.predicate.clone(),
        args: a.args.iter().map(term).collect(),
    };
    match n {
        Nnf::Lit(Literal::Pos(a)) => Nnf::Lit(Literal::Pos(atom(a))),
        Nnf::Lit(Literal::Neg(a)) => Nnf::Lit(Literal::Neg(atom(a))),
        Nnf::Lit(Literal::Eq(x, y)) => Nnf::Lit(Literal::Eq(term(x), term(y))),
        Nnf::Lit(Literal::NotEq(x, y)) => Nnf::Lit(Literal::NotEq(term(x), term(y))),
        Nnf::And(ns) => Nnf::And(ns.iter().map(|n| rename(n, from, to)).collect()),
        Nnf::Or(ns) => Nnf::Or(ns.iter().map(|n| rename(n, from, to)).collect()),
        Nnf::Exists(v, _) | Nnf::Forall(v, _) if v.iter().any(|t| t.name == from) => n.clone(),
        Nnf::Exists(v, b) => Nnf::Exists(v.clone(), Box::new(rename(b, from, to))),
        Nnf::Forall(v, b) => Nnf::Forall(v.clone(), Box::new(rename(b, from, to))),
    }
}

/// The disjuncts of `n` (nested disjunctions flattened).
fn disjuncts(n: &Nnf, out: &mut Vec<Nnf>) {
    match n {
        Nnf::Or(ns) => ns.iter().for_each(|n| disjuncts(n, out)),
        n => out.push(n.clone()),
    }
}

struct Normalizer {
    taken: HashSet<String>,
    next: usize,
    predicates: Vec<PredicateDecl>,
    rules: Vec<Rule>,
}

impl Normalizer {
    fn action(&mut self, a: &Action) -> NormalAction {
        NormalAction {
            name: a.name.clone(),
            params: a.params.clone(),
            precondition: self.conjunction(&a.precondition, &a.params),
            effects: self.effects(&a.effects, &a.params),
            cost: a.cost.clone(),
        }
    }

    fn effects(&mut self, es: &[Effect], scope: &[TypedName]) -> Vec<NormalEffect> {
        es.iter()
            .map(|e| match e {
                Effect::Add(a) => NormalEffect::Add(a.clone()),
                Effect::Del(a) => NormalEffect::Del(a.clone()),
                Effect::When(c, inner) => {
                    NormalEffect::When(self.conjunction(c, scope), self.effects(inner, scope))
                }
                Effect::Forall(v, inner) => {
                    let mut s = scope.to_vec();
                    s.extend(v.iter().cloned());
                    NormalEffect::Forall(v.clone(), self.effects(inner, &s))
                }
            })
            .collect()
    }

    /// `c` as a conjunction of literals over the variables of `scope`.
    fn conjunction(&mut self, c: &Condition, scope: &[TypedName]) -> Conjunction {
        let mut out = Vec::new();
        self.conjoin(&nnf(c, false), scope, &mut out);
        out
    }

    fn conjoin(&mut self, n: &Nnf, scope: &[TypedName], out: &mut Conjunction) {
        match n {
            Nnf::Lit(l) => out.push(l.clone()),
            Nnf::And(ns) => {
                for n in ns {
                    self.conjoin(n, scope, out);
                }
            }
            Nnf::Or(_) | Nnf::Exists(..) => out.push(Literal::Pos(self.axiom(n, scope))),
            Nnf::Forall(v, b) => out.push(self.universal(v, b, scope)),
        }
    }

    /// `forall v. b` as the negated atom of the axiom for its counterexample `exists v. ¬b`.
    fn universal(&mut self, v: &[TypedName], b: &Nnf, scope: &[TypedName]) -> Literal {
        let witness = Nnf::Exists(v.to_vec(), Box::new(dual(b)));
        Literal::Neg(self.axiom(&witness, scope))
    }

    /// A new derived predicate over the free variables of `n` that holds exactly when `n`
    /// does; its atom.
    fn axiom(&mut self, n: &Nnf, scope: &[TypedName]) -> Atom {
        let mut free = Vec::new();
        free_vars(n, &mut Vec::new(), &mut free);
        let params: Vec<TypedName> = scope
            .iter()
            .filter(|v| free.contains(&v.name))
            .cloned()
            .collect();
        let head = PredicateDecl {
            name: self.fresh_predicate(),
            params,
        };
        self.predicates.push(head.clone());
        let mut ds = Vec::new();
        disjuncts(n, &mut ds);
        for d in &ds {
            self.rule(&head, d, scope.to_vec(), Vec::new());
        }
        Atom {
            predicate: head.name,
            args: head
                .params
                .iter()
                .map(|p| Term::Var(p.name.clone()))
                .collect(),
        }
    }

    /// The rules of a derived predicate of the domain: one per disjunct of its body, whose
    /// variables not in the head are existential (of type `object`).
    fn derived_rules(&mut self, head: &PredicateDecl, body: &Condition) {
        let mut ds = Vec::new();
        disjuncts(&nnf(body, false), &mut ds);
        for d in &ds {
            let mut free = Vec::new();
            free_vars(d, &mut Vec::new(), &mut free);
            let vars: Vec<TypedName> = free
                .into_iter()
                .filter(|v| !head.params.iter().any(|p| &p.name == v))
                .map(|name| TypedName {
                    name,
                    ty: "object".into(),
                })
                .collect();
            let mut scope = head.params.clone();
            scope.extend(vars.iter().cloned());
            self.rule(head, d, scope, vars);
        }
    }

    /// One rule `head :- ∃ vars. d` (`d` a conjunction of literals and existentials).
    fn rule(
        &mut self,
        head: &PredicateDecl,
        d: &Nnf,
        mut scope: Vec<TypedName>,
        mut vars: Vec<TypedName>,
    ) {
        let mut body = Vec::new();
        self.rule_body(d, &mut scope, &mut vars, &mut body);
        self.rules.push(Rule {
            head: head.clone(),
            vars,
            body,
        });
    }

    fn rule_body(
        &mut self,
        n: &Nnf,
        scope: &mut Vec<TypedName>,
        vars: &mut Vec<TypedName>,
        out: &mut Conjunction,
    ) {
        match n {
            Nnf::Lit(l) => out.push(l.clone()),
            Nnf::And(ns) => {
                for n in ns {
                    self.rule_body(n, scope, vars, out);
                }
            }
            Nnf::Exists(vs, b) => {
                let mut body = (**b).clone();
                for v in vs {
                    let name = fresh_var(&v.name, scope);
                    if name != v.name {
                        body = rename(&body, &v.name, &name);
                    }
                    let tv = TypedName {
                        name,
                        ty: v.ty.clone(),
                    };
                    scope.push(tv.clone());
                    vars.push(tv);
                }
                self.rule_body(&body, scope, vars, out);
            }
            Nnf::Or(_) => out.push(Literal::Pos(self.axiom(n, scope))),
            Nnf::Forall(v, b) => out.push(self.universal(v, b, scope)),
        }
    }

    fn fresh_predicate(&mut self) -> String {
        loop {
            let name = format!("new-axiom@{}", self.next);
            self.next += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

/// `name`, or `name@k` for the first `k` that no variable of `scope` is called.
fn fresh_var(name: &str, scope: &[TypedName]) -> String {
    let free = |n: &str| !scope.iter().any(|v| v.name == n);
    if free(name) {
        return name.to_string();
    }
    (1..)
        .map(|k| format!("{name}@{k}"))
        .find(|n| free(n))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
