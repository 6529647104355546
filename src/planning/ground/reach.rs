//! Relaxed reachability: the fixpoint over rounds that finds the ground actions whose
//! positive preconditions can hold, and the facts their effects add.

use std::collections::HashSet;

use super::join::{FactTable, Filter, Window, complete, join};
use super::lift::{Grounder, Key, LAction, LAtom, LEffect, LLit, val};
use super::{GroundError, Work};

/// The head parameters of a derived rule plus its free (existential) body variables.
pub(super) struct GroundAction {
    pub(super) schema: usize,
    pub(super) binding: Vec<u32>,
}
/// Relaxed reachability: a semi-naive fixpoint over rounds, each finding the bindings whose
/// positive preconditions hold among the facts reached so far (at least one reached in the
/// previous round), keeping the new ground actions and adding what their effects add.
pub(super) struct Reach<'a> {
    pub(super) g: &'a Grounder<'a>,
    pub(super) schemas: &'a [LAction],
    pub(super) work: &'a Work,
    pub(super) facts: FactTable,
    pub(super) actions: Vec<GroundAction>,
    pub(super) seen: HashSet<(usize, Vec<u32>)>,
    /// Conditional adds waiting for their conditions: (condition keys, add keys).
    pub(super) pending: Vec<(Vec<Key>, Vec<Key>)>,
}

impl Reach<'_> {
    pub(super) fn run(&mut self, max_actions: usize) -> Result<(), GroundError> {
        let mut round = 1u32;
        loop {
            let mut found = Vec::new();
            for si in 0..self.schemas.len() {
                self.bindings(si, round, &mut found);
            }
            self.work.check()?;
            self.add_actions(found, max_actions)?;
            let new_facts = self.fire_pending(round);
            self.work.check()?;
            if !new_facts {
                return Ok(());
            }
            round += 1;
        }
    }

    /// The bindings of schema `si` new in `round`: each positive precondition in turn matched
    /// against the previous round's facts, the others against older ones (earlier atoms) or
    /// all (later atoms), so that every binding is found once.
    pub(super) fn bindings(&self, si: usize, round: u32, found: &mut Vec<(usize, Vec<u32>)>) {
        let (g, facts, s) = (self.g, &self.facts, &self.schemas[si]);
        let params: Vec<usize> = (0..s.num_params).collect();
        let mut emit = |b: &[Option<u32>]| {
            complete(&s.domains, b, &params, self.work, &mut |full: &[u32]| {
                if s.eqs
                    .iter()
                    .any(|&(x, y, eq)| (val(x, full) == val(y, full)) != eq)
                {
                    return;
                }
                let static_false = |n: &LAtom| {
                    !g.fluent[n.pred as usize] && facts.index.contains_key(&g.ground_key(n, full))
                };
                if !s.neg.iter().any(static_false) {
                    found.push((si, full[..s.num_params].to_vec()));
                    self.work.found(found.len() + self.actions.len());
                }
            });
        };
        let filter = Filter {
            domains: &s.domains,
            eqs: &s.eqs,
        };
        let mut binding = vec![None; s.domains.len()];
        if s.pos.is_empty() {
            if round == 1 {
                emit(&binding);
            }
            return;
        }
        for i in 0..s.pos.len() {
            let mut order: Vec<(&LAtom, Window)> = vec![(&s.pos[i], Window::Delta(round - 1))];
            for (j, a) in s.pos.iter().enumerate() {
                if j < i {
                    order.push((a, Window::Old(round - 1)));
                } else if j > i {
                    order.push((a, Window::Upto(round - 1)));
                }
            }
            let mut used = vec![false; order.len()];
            // The delta atom goes first: it has the fewest candidate facts.
            used[0] = true;
            let (a0, w0) = order[0];
            let mut newly = Vec::new();
            for &fid in &facts.by_pred[a0.pred as usize] {
                if !w0.ok(facts.round[fid as usize]) {
                    continue;
                }
                let args = &facts.keys[fid as usize].1;
                if filter.bind(a0, args, &mut binding, &mut newly) {
                    let (w, out) = (self.work, &mut emit);
                    join(facts, &order, &filter, &mut used, &mut binding, w, out);
                }
                for v in newly.drain(..) {
                    binding[v] = None;
                }
            }
        }
    }

    /// Keeps the new ground actions and queues what their effects add.
    pub(super) fn add_actions(
        &mut self,
        found: Vec<(usize, Vec<u32>)>,
        max_actions: usize,
    ) -> Result<(), GroundError> {
        for (si, b) in found {
            if !self.seen.insert((si, b.clone())) {
                continue;
            }
            if self.actions.len() >= max_actions {
                return Err(GroundError::TooLarge(max_actions));
            }
            for e in &self.schemas[si].effects {
                self.queue_adds(&self.schemas[si], e, &b);
            }
            self.actions.push(GroundAction {
                schema: si,
                binding: b,
            });
        }
        Ok(())
    }

    /// Queues the adds of effect `e` of a ground action, for each instance of its `forall`
    /// variables whose static conditions hold, with its fluent conditions.
    pub(super) fn queue_adds(&mut self, s: &LAction, e: &LEffect, b: &[u32]) {
        let (g, facts, pending) = (self.g, &self.facts, &mut self.pending);
        each_instance(s, e, b, self.work, &mut |full: &[u32]| {
            let mut conds = Vec::new();
            for c in &e.cond {
                let holds = match c {
                    LLit::Pos(a) => {
                        let k = g.ground_key(a, full);
                        if g.fluent[a.pred as usize] {
                            conds.push(k);
                            true
                        } else {
                            facts.index.contains_key(&k)
                        }
                    }
                    LLit::Neg(a) => {
                        g.fluent[a.pred as usize]
                            || !facts.index.contains_key(&g.ground_key(a, full))
                    }
                    LLit::Eq(x, y) => val(*x, full) == val(*y, full),
                    LLit::NotEq(x, y) => val(*x, full) != val(*y, full),
                };
                if !holds {
                    return;
                }
            }
            let adds: Vec<Key> = e.add.iter().map(|a| g.ground_key(a, full)).collect();
            if !adds.is_empty() {
                pending.push((conds, adds));
            }
        });
    }

    /// Adds the queued facts whose conditions are reached, until nothing changes; true if a
    /// fact is new.
    pub(super) fn fire_pending(&mut self, round: u32) -> bool {
        let mut new_facts = false;
        loop {
            let mut changed = false;
            let mut keep = Vec::with_capacity(self.pending.len());
            for (conds, adds) in self.pending.drain(..) {
                if conds.iter().all(|k| self.facts.index.contains_key(k)) {
                    for k in adds {
                        changed |= self.facts.insert(k, round);
                    }
                } else {
                    keep.push((conds, adds));
                }
            }
            self.pending = keep;
            new_facts |= changed;
            if !changed {
                return new_facts;
            }
        }
    }
}

/// Calls `out` with every instance of effect `e` of the ground action with binding `b`: the
/// binding extended by each value of the effect's `forall` variables.
pub(super) fn each_instance(
    s: &LAction,
    e: &LEffect,
    b: &[u32],
    work: &Work,
    out: &mut dyn FnMut(&[u32]),
) {
    let vars: Vec<usize> = (0..s.num_params)
        .chain(e.forall_vars.iter().map(|(v, _)| *v))
        .collect();
    let mut partial: Vec<Option<u32>> = vec![None; s.domains.len()];
    for (i, &o) in b.iter().enumerate() {
        partial[i] = Some(o);
    }
    complete(&s.domains, &partial, &vars, work, out);
}
