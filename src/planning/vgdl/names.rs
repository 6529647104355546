//! PDDL names of the translation: identifiers made from VGDL type names, the predicates named
//! after a sprite type, cell and number objects, and small builders of terms and atoms.

use crate::gvgai::vgdl::{GameDescription, TypeId};
use crate::planning::pddl::{Atom, Term, TypedName};

use super::cases::Rel;

/// A PDDL identifier for `s`: lower case, other characters as `_`, starting with a letter.
pub(super) fn pddl_name(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 't');
    }
    out
}

/// A typed parameter or object.
pub(super) fn tn(name: &str, ty: &str) -> TypedName {
    TypedName {
        name: name.to_string(),
        ty: ty.to_string(),
    }
}

/// A variable term.
pub(super) fn var(s: &str) -> Term {
    Term::Var(s.to_string())
}

/// An atom over terms.
pub(super) fn atom(p: &str, args: Vec<Term>) -> Atom {
    Atom {
        predicate: p.to_string(),
        args,
    }
}

/// A ground atom over objects.
pub(super) fn ground(p: &str, args: &[&str]) -> Atom {
    Atom {
        predicate: p.to_string(),
        args: args.iter().map(|a| Term::Object(a.to_string())).collect(),
    }
}

/// The object of cell (x, y).
pub(super) fn cell(x: usize, y: usize) -> String {
    format!("c{x}_{y}")
}

/// The object of number `n`.
pub(super) fn num(n: i64) -> String {
    format!("n{n}")
}

/// The predicate relating a direction to a facing relative to it.
pub(super) fn rel(r: Rel) -> &'static str {
    match r {
        Rel::Same => "same",
        Rel::Back => "rel-back",
        Rel::Left => "rel-left",
        Rel::Right => "rel-right",
    }
}

/// Predicates named after the sprite types of one game.
#[derive(Clone, Copy)]
pub(super) struct Names<'a> {
    pub desc: &'a GameDescription,
    /// The transient types, by index.
    pub transient: &'a [TypeId],
}

impl Names<'_> {
    /// The PDDL identifier of type `t`.
    pub fn ty(&self, t: TypeId) -> String {
        pddl_name(self.desc.type_name(t))
    }
    /// `(X-at ?c)`: a sprite of type `t` is on the cell.
    pub fn at(&self, t: TypeId) -> String {
        format!("{}-at", self.ty(t))
    }
    /// `(cleared-X ?c)`: the sprite of type `t` that began on the cell is gone.
    pub fn cleared(&self, t: TypeId) -> String {
        format!("cleared-{}", self.ty(t))
    }
    /// `(calm-X)`: the last move spawned no sprite of transient type `i`.
    pub fn calm(&self, i: usize) -> String {
        format!("calm-{}", self.ty(self.transient[i]))
    }
    /// `(avatar-is-X)`: the avatar's type is `t`.
    pub fn avatar_is(&self, t: TypeId) -> String {
        format!("avatar-is-{}", self.ty(t))
    }
    /// `(live-X ?c)`: a sprite of type `t` can still be removed from the cell.
    pub fn live(&self, t: TypeId) -> String {
        format!("live-{}", self.ty(t))
    }
}
