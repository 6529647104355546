//! The table of reached facts with its indexes, and the semi-naive join that finds the bindings
//! of a schema's positive preconditions among them.

use std::collections::HashMap;

use super::Work;
use super::lift::{Arg, Key, LAtom};

pub(super) struct FactTable {
    pub(super) index: HashMap<Key, u32>,
    pub(super) keys: Vec<Key>,
    pub(super) round: Vec<u32>,
    pub(super) by_pred: Vec<Vec<u32>>,
    /// Facts by (predicate, argument position, object).
    pub(super) by_arg: HashMap<(u32, u32, u32), Vec<u32>>,
}

impl FactTable {
    pub(super) fn insert(&mut self, k: Key, round: u32) -> bool {
        if self.index.contains_key(&k) {
            return false;
        }
        let id = self.keys.len() as u32;
        self.by_pred[k.0 as usize].push(id);
        for (pos, &o) in k.1.iter().enumerate() {
            self.by_arg
                .entry((k.0, pos as u32, o))
                .or_default()
                .push(id);
        }
        self.index.insert(k.clone(), id);
        self.keys.push(k);
        self.round.push(round);
        true
    }
}

/// Which facts an atom may match in the current round of the semi-naive join.
#[derive(Clone, Copy)]
pub(super) enum Window {
    Delta(u32),
    Old(u32),
    Upto(u32),
}

impl Window {
    pub(super) fn ok(self, r: u32) -> bool {
        match self {
            Window::Delta(x) => r == x,
            Window::Old(x) => r < x,
            Window::Upto(x) => r <= x,
        }
    }
}

pub(super) fn bound_value(a: Arg, binding: &[Option<u32>]) -> Option<u32> {
    match a {
        Arg::Obj(o) => Some(o),
        Arg::Var(i) => binding[i],
    }
}

/// What a partial binding must satisfy as soon as its variables are bound: each variable's
/// declared type and the schema's (in)equalities, so that the join never extends a binding
/// that cannot complete.
pub(super) struct Filter<'a> {
    pub(super) domains: &'a [Vec<u32>],
    pub(super) eqs: &'a [(Arg, Arg, bool)],
}

impl Filter<'_> {
    /// Binds `atom`'s variables to the fact arguments `args`, recording them in `newly`;
    /// false (with `newly` still to be unbound by the caller) if the fact does not match or
    /// the extended binding breaks a type or an (in)equality.
    pub(super) fn bind(
        &self,
        atom: &LAtom,
        args: &[u32],
        binding: &mut [Option<u32>],
        newly: &mut Vec<usize>,
    ) -> bool {
        for (a, &o) in atom.args.iter().zip(args) {
            match *a {
                Arg::Obj(x) if x != o => return false,
                Arg::Obj(_) => {}
                Arg::Var(i) => match binding[i] {
                    Some(x) if x != o => return false,
                    Some(_) => {}
                    None => {
                        if self.domains[i].binary_search(&o).is_err() {
                            return false;
                        }
                        binding[i] = Some(o);
                        newly.push(i);
                    }
                },
            }
        }
        self.eqs.iter().all(|&(x, y, eq)| {
            match (bound_value(x, binding), bound_value(y, binding)) {
                (Some(a), Some(b)) => (a == b) == eq,
                _ => true,
            }
        })
    }
}

/// Joins the atoms not yet `used`, picking at each level the atom with the most bound
/// arguments and scanning only the facts indexed under its most selective bound argument.
pub(super) fn join(
    facts: &FactTable,
    atoms: &[(&LAtom, Window)],
    filter: &Filter,
    used: &mut Vec<bool>,
    binding: &mut Vec<Option<u32>>,
    work: &Work,
    out: &mut dyn FnMut(&[Option<u32>]),
) {
    let mut pick: Option<(usize, usize)> = None;
    for (j, (a, _)) in atoms.iter().enumerate() {
        if used[j] {
            continue;
        }
        let nb = a
            .args
            .iter()
            .filter(|&&x| bound_value(x, binding).is_some())
            .count();
        if pick.is_none_or(|(_, best)| nb > best) {
            pick = Some((j, nb));
        }
    }
    let Some((j, _)) = pick else {
        out(binding);
        return;
    };
    let (atom, window) = atoms[j];
    used[j] = true;
    let empty = Vec::new();
    let mut candidates = &facts.by_pred[atom.pred as usize];
    for (k, &x) in atom.args.iter().enumerate() {
        if let Some(o) = bound_value(x, binding) {
            let list = facts
                .by_arg
                .get(&(atom.pred, k as u32, o))
                .unwrap_or(&empty);
            if list.len() < candidates.len() {
                candidates = list;
            }
        }
    }
    let mut newly = Vec::new();
    for &fid in candidates {
        if !work.tick() {
            break;
        }
        if !window.ok(facts.round[fid as usize]) {
            continue;
        }
        let args = &facts.keys[fid as usize].1;
        if filter.bind(atom, args, binding, &mut newly) {
            join(facts, atoms, filter, used, binding, work, out);
        }
        for i in newly.drain(..) {
            binding[i] = None;
        }
    }
    used[j] = false;
}

/// Enumerates completions of a partial binding over the variables `vars` (product of domains).
pub(super) fn complete(
    domains: &[Vec<u32>],
    partial: &[Option<u32>],
    vars: &[usize],
    work: &Work,
    out: &mut dyn FnMut(&[u32]),
) {
    let mut b: Vec<u32> = partial.iter().map(|x| x.unwrap_or(u32::MAX)).collect();
    let free: Vec<usize> = vars
        .iter()
        .copied()
        .filter(|&v| partial[v].is_none())
        .collect();
    // Bound variables must respect their declared types.
    for &v in vars {
        if let Some(o) = partial[v] {
            if domains[v].binary_search(&o).is_err() {
                return;
            }
        }
    }
    fn rec(
        domains: &[Vec<u32>],
        free: &[usize],
        b: &mut Vec<u32>,
        work: &Work,
        out: &mut dyn FnMut(&[u32]),
    ) {
        let Some((&v, rest)) = free.split_first() else {
            if work.tick() {
                out(b);
            }
            return;
        };
        for &o in &domains[v] {
            if work.stopped() {
                return;
            }
            b[v] = o;
            rec(domains, rest, b, work, out);
        }
    }
    rec(domains, &free, &mut b, work, out);
}
