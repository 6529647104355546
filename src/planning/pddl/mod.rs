//! PDDL: the lifted model (domain and problem), its parser and its writer.
//!
//! Supported: `:strips`, `:typing` (with `either` types for variables), `:negative-preconditions`,
//! `:equality`, `:disjunctive-preconditions`, `:existential-preconditions`,
//! `:universal-preconditions`, `:quantified-preconditions`, `:conditional-effects` (`when`,
//! `forall` in effects), `:adl`, `:derived-predicates` (free body variables are existential) and
//! `:action-costs` (`:functions`, `(increase (total-cost) …)` at an action's top level, numeric
//! initial values, `(:metric minimize (total-cost))`). Conditions are kept as written; the
//! [`normalize`](crate::planning::normalize) step turns them into conjunctions of literals for
//! the grounder. Anything else (numeric fluents, durative actions, preferences …) is refused with
//! an error naming the feature. Names are case-insensitive and stored lower-case.

mod parser;
mod sexpr;
mod writer;

pub use parser::{parse_domain, parse_problem};
pub use writer::{write_domain, write_problem};

use thiserror::Error;

/// A PDDL syntax or structure error, located at a line and column (1-based).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {message}")]
pub struct PddlError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A name with a type (`?x - block`, `a b - location`); untyped names have type `object`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedName {
    pub name: String,
    pub ty: String,
}

/// A type and its parent (`object` for the roots).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDecl {
    pub name: String,
    pub parent: String,
}

/// A predicate declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PredicateDecl {
    pub name: String,
    pub params: Vec<TypedName>,
}

/// An argument: a variable (`?x`, stored with its `?`) or an object/constant name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Term {
    Var(String),
    Object(String),
}

impl Term {
    pub fn as_str(&self) -> &str {
        match self {
            Term::Var(s) | Term::Object(s) => s,
        }
    }
}

/// A predicate applied to terms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Atom {
    pub predicate: String,
    pub args: Vec<Term>,
}

/// PDDL form: `(predicate arg1 arg2)`.
impl std::fmt::Display for Atom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}", self.predicate)?;
        for t in &self.args {
            write!(f, " {}", t.as_str())?;
        }
        write!(f, ")")
    }
}

/// A literal: an atom or an equality, possibly negated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Literal {
    Pos(Atom),
    Neg(Atom),
    Eq(Term, Term),
    NotEq(Term, Term),
}

impl Literal {
    /// The complementary literal.
    pub fn negated(&self) -> Literal {
        match self {
            Literal::Pos(a) => Literal::Neg(a.clone()),
            Literal::Neg(a) => Literal::Pos(a.clone()),
            Literal::Eq(a, b) => Literal::NotEq(a.clone(), b.clone()),
            Literal::NotEq(a, b) => Literal::Eq(a.clone(), b.clone()),
        }
    }
}

/// A conjunction of literals: the form conditions take after normalisation.
pub type Conjunction = Vec<Literal>;

/// A precondition, goal, effect condition or derived-predicate body, as written. `(not φ)` of
/// an atom or an equality is a negative [`Literal`]; [`Condition::Not`] holds the negation of
/// a compound condition only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    Lit(Literal),
    And(Vec<Condition>),
    Or(Vec<Condition>),
    Not(Box<Condition>),
    Imply(Box<Condition>, Box<Condition>),
    Exists(Vec<TypedName>, Box<Condition>),
    Forall(Vec<TypedName>, Box<Condition>),
}

impl Default for Condition {
    /// The empty conjunction (true).
    fn default() -> Condition {
        Condition::And(Vec::new())
    }
}

impl Condition {
    /// The conjunction of `literals`, in the parser's form (one literal stands alone).
    pub fn all(mut literals: Vec<Literal>) -> Condition {
        if literals.len() == 1 {
            return Condition::Lit(literals.remove(0));
        }
        Condition::And(literals.into_iter().map(Condition::Lit).collect())
    }

    /// The literals of a condition that is a literal or a flat conjunction of literals
    /// (`None` for anything else).
    pub fn literals(&self) -> Option<Vec<&Literal>> {
        match self {
            Condition::Lit(l) => Some(vec![l]),
            Condition::And(cs) => cs
                .iter()
                .map(|c| match c {
                    Condition::Lit(l) => Some(l),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }
}

/// A numeric expression of an action cost: a non-negative integer or a function term whose
/// value the problem's initial state gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumExpr {
    Const(u64),
    Term(Atom),
}

/// An effect: a conjunction of simple effects, conditional effects and universal effects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Add(Atom),
    Del(Atom),
    When(Condition, Vec<Effect>),
    Forall(Vec<TypedName>, Vec<Effect>),
}

/// An action schema. `cost` holds the `(increase (total-cost) x)` effects (summed; none means
/// cost 0 under a `total-cost` metric).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub name: String,
    pub params: Vec<TypedName>,
    pub precondition: Condition,
    pub effects: Vec<Effect>,
    pub cost: Vec<NumExpr>,
}

/// A derived predicate rule `(:derived (p ?x) cond)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    pub head: PredicateDecl,
    pub condition: Condition,
}

/// The problem's metric: only `(:metric minimize (total-cost))` is supported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    MinimizeTotalCost,
}

/// A numeric initial value `(= (f a b) 5)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionValue {
    pub term: Atom,
    pub value: u64,
}

/// A PDDL domain.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Domain {
    pub name: String,
    pub requirements: Vec<String>,
    pub types: Vec<TypeDecl>,
    pub constants: Vec<TypedName>,
    pub predicates: Vec<PredicateDecl>,
    /// `:functions` declarations (numeric, for action costs).
    pub functions: Vec<PredicateDecl>,
    pub derived: Vec<Derived>,
    pub actions: Vec<Action>,
}

/// A PDDL problem.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Problem {
    pub name: String,
    pub domain: String,
    pub objects: Vec<TypedName>,
    pub init: Vec<Atom>,
    pub values: Vec<FunctionValue>,
    pub goal: Condition,
    pub metric: Option<Metric>,
}

impl Domain {
    /// Whether `ty` is `ancestor` or a descendant of it (of one of its members, for an
    /// `(either …)` type). A type declared more than once (`area - object`, then
    /// `area - surface`) descends from every parent it is given, as in Fast Downward.
    pub fn is_subtype(&self, ty: &str, ancestor: &str) -> bool {
        if let Some(mut members) = either_members(ancestor) {
            return members.any(|m| self.is_subtype(ty, m));
        }
        let mut todo = vec![ty];
        let mut seen: Vec<&str> = Vec::new();
        while let Some(cur) = todo.pop() {
            if cur == ancestor {
                return true;
            }
            if !seen.contains(&cur) {
                seen.push(cur);
                let parents = self.types.iter().filter(|t| t.name == cur);
                todo.extend(parents.map(|t| t.parent.as_str()));
            }
        }
        ancestor == "object"
    }
}

/// The member types of an `(either a b …)` type name, as the parser stores it.
pub fn either_members(ty: &str) -> Option<impl Iterator<Item = &str>> {
    ty.strip_prefix("(either ")
        .and_then(|t| t.strip_suffix(')'))
        .map(str::split_whitespace)
}

#[cfg(test)]
mod tests;
