//! PDDL: the lifted model (domain and problem), its parser and its writer.
//!
//! Supported subset: `:strips`, `:typing`, `:negative-preconditions`, `:equality`,
//! `:conditional-effects` (`when`, `forall` in effects) and `:derived-predicates` (free body
//! variables are existential; the grounder refuses negated derived atoms inside rules).
//! Names are case-insensitive and stored lower-case.

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

/// A precondition, goal or effect condition: a conjunction of literals.
pub type Conjunction = Vec<Literal>;

/// An effect: a conjunction of simple effects, conditional effects and universal effects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Add(Atom),
    Del(Atom),
    When(Conjunction, Vec<Effect>),
    Forall(Vec<TypedName>, Vec<Effect>),
}

/// An action schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub name: String,
    pub params: Vec<TypedName>,
    pub precondition: Conjunction,
    pub effects: Vec<Effect>,
}

/// A derived predicate rule `(:derived (p ?x) cond)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    pub head: PredicateDecl,
    pub condition: Conjunction,
}

/// A PDDL domain.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Domain {
    pub name: String,
    pub requirements: Vec<String>,
    pub types: Vec<TypeDecl>,
    pub constants: Vec<TypedName>,
    pub predicates: Vec<PredicateDecl>,
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
    pub goal: Conjunction,
}

impl Domain {
    /// The parent of a type (`None` for `object` or an undeclared type).
    pub fn parent_of(&self, ty: &str) -> Option<&str> {
        self.types
            .iter()
            .find(|t| t.name == ty)
            .map(|t| t.parent.as_str())
    }

    /// Whether `ty` is `ancestor` or a descendant of it.
    pub fn is_subtype(&self, ty: &str, ancestor: &str) -> bool {
        let mut cur = ty;
        for _ in 0..=self.types.len() {
            if cur == ancestor {
                return true;
            }
            match self.parent_of(cur) {
                Some(p) if p != cur => cur = p,
                _ => return ancestor == "object",
            }
        }
        false
    }
}

#[cfg(test)]
mod tests;
