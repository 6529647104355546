//! The task built from the reached ground actions: fact ids, the initial state, operators with
//! their conditional effects and costs, axioms, and the goal.

use std::collections::HashMap;

use super::join::FactTable;
use super::lift::{Grounder, Key, LAction, LCost, LEffect, LLit, val};
use super::reach::each_instance;
use super::{GroundError, Work};
use crate::planning::pddl::{Literal, Problem};
use crate::planning::task::{Axiom, CondEffect, FactId, Operator};

/// Task fact ids of the reached facts: fluent facts only, in the order reached.
pub(super) struct Ids<'a> {
    pub(super) facts: &'a FactTable,
    pub(super) id: HashMap<u32, FactId>,
    pub(super) names: Vec<String>,
}

impl<'a> Ids<'a> {
    pub(super) fn new(g: &Grounder, facts: &'a FactTable) -> Self {
        let mut ids = Ids {
            facts,
            id: HashMap::new(),
            names: Vec::new(),
        };
        for (i, k) in facts.keys.iter().enumerate() {
            if g.fluent[k.0 as usize] {
                ids.id.insert(i as u32, ids.names.len() as FactId);
                ids.names.push(g.fact_name(k));
            }
        }
        ids
    }

    /// The task fact of a reached fluent fact.
    pub(super) fn of(&self, k: &Key) -> Option<FactId> {
        self.facts
            .index
            .get(k)
            .and_then(|i| self.id.get(i))
            .copied()
    }

    /// Whether a fact is reached (static facts: whether it holds).
    pub(super) fn reached(&self, k: &Key) -> bool {
        self.facts.index.contains_key(k)
    }
}

pub(super) fn sorted(mut v: Vec<FactId>) -> Vec<FactId> {
    v.sort_unstable();
    v.dedup();
    v
}

pub(super) fn ground_init(
    g: &Grounder,
    ids: &Ids,
    problem: &Problem,
) -> Result<Vec<FactId>, GroundError> {
    let mut init = Vec::new();
    for a in &problem.init {
        let la = g.latom(a, &HashMap::new())?;
        init.extend(ids.of(&g.ground_key(&la, &[])));
    }
    Ok(sorted(init))
}

/// Builds the task's operators and axioms from the reached ground actions.
pub(super) struct Build<'a> {
    pub(super) g: &'a Grounder<'a>,
    pub(super) ids: &'a Ids<'a>,
    pub(super) work: &'a Work,
}

impl Build<'_> {
    /// A ground action's fluent preconditions, positive and negative; None if they contradict.
    pub(super) fn preconditions(
        &self,
        s: &LAction,
        b: &[u32],
    ) -> Option<(Vec<FactId>, Vec<FactId>)> {
        let (g, ids) = (self.g, self.ids);
        let pos = s.pos.iter().filter_map(|a| ids.of(&g.ground_key(a, b)));
        let neg = s.neg.iter().filter(|a| g.fluent[a.pred as usize]);
        let pre_pos = sorted(pos.collect());
        let pre_neg = sorted(neg.filter_map(|a| ids.of(&g.ground_key(a, b))).collect());
        let contradiction = pre_pos.iter().any(|f| pre_neg.binary_search(f).is_ok());
        (!contradiction).then_some((pre_pos, pre_neg))
    }

    /// The axiom of a ground derived-predicate rule, if its head is reached.
    pub(super) fn axiom(&self, s: &LAction, b: &[u32]) -> Result<Option<Axiom>, GroundError> {
        let (g, ids) = (self.g, self.ids);
        let Some((pre_pos, pre_neg)) = self.preconditions(s, b) else {
            return Ok(None);
        };
        let head = &s.effects[0].add[0];
        Ok(ids.of(&g.ground_key(head, b)).map(|id| Axiom {
            pre_pos,
            pre_neg,
            head: id,
            layer: g.layer[head.pred as usize],
        }))
    }

    /// The operator of a ground action; None if it can never apply or changes nothing.
    pub(super) fn operator(&self, s: &LAction, b: &[u32]) -> Result<Option<Operator>, GroundError> {
        let Some((pre_pos, pre_neg)) = self.preconditions(s, b) else {
            return Ok(None);
        };
        let mut uncond = CondEffect::default();
        let mut conds: Vec<CondEffect> = Vec::new();
        for e in &s.effects {
            each_instance(s, e, b, self.work, &mut |full: &[u32]| {
                let Some(ce) = self.instance(e, full, &pre_pos, &pre_neg) else {
                    return;
                };
                if ce.cond_pos.is_empty() && ce.cond_neg.is_empty() {
                    uncond.add.extend(ce.add);
                    uncond.del.extend(ce.del);
                } else if !ce.add.is_empty() || !ce.del.is_empty() {
                    conds.push(ce);
                }
            });
        }
        uncond.add = sorted(uncond.add);
        uncond.del = sorted(uncond.del);
        let mut effects = Vec::new();
        if !uncond.add.is_empty() || !uncond.del.is_empty() {
            effects.push(uncond);
        }
        effects.extend(conds);
        if effects.is_empty() {
            return Ok(None);
        }
        let mut name = format!("({}", s.name);
        for &o in &b[..s.num_params] {
            name.push(' ');
            name.push_str(&self.g.objects[o as usize]);
        }
        name.push(')');
        let cost = self.cost(s, b, &name)?;
        Ok(Some(Operator {
            name,
            pre_pos,
            pre_neg,
            effects,
            cost,
        }))
    }

    /// A ground action's cost: the sum of its cost terms under a `total-cost` metric, else 1.
    pub(super) fn cost(&self, s: &LAction, b: &[u32], name: &str) -> Result<u32, GroundError> {
        if !self.g.metric {
            return Ok(1);
        }
        let mut total: u64 = 0;
        for c in &s.cost {
            let v = match c {
                LCost::Const(v) => *v,
                LCost::Term(f, args) => {
                    let key = (
                        f.clone(),
                        args.iter().map(|&a| val(a, b)).collect::<Vec<_>>(),
                    );
                    let Some(&v) = self.g.values.get(&key) else {
                        let mut term = format!("({f}");
                        for &o in &key.1 {
                            term.push(' ');
                            term.push_str(&self.g.objects[o as usize]);
                        }
                        return Err(GroundError::MissingValue(format!("{term}) of {name}")));
                    };
                    v
                }
            };
            total = total.saturating_add(v);
        }
        u32::try_from(total).map_err(|_| GroundError::CostTooLarge(name.to_string()))
    }

    /// One instance of an effect: its fluent conditions (without those the precondition
    /// implies) and what it adds and deletes; None if it can never fire.
    pub(super) fn instance(
        &self,
        e: &LEffect,
        full: &[u32],
        pre_pos: &[FactId],
        pre_neg: &[FactId],
    ) -> Option<CondEffect> {
        let (g, ids) = (self.g, self.ids);
        let mut ce = CondEffect::default();
        for c in &e.cond {
            match c {
                LLit::Pos(a) => {
                    let k = g.ground_key(a, full);
                    if g.fluent[a.pred as usize] {
                        // A fluent condition never reached never holds.
                        ce.cond_pos.push(ids.of(&k)?);
                    } else if !ids.reached(&k) {
                        return None;
                    }
                }
                LLit::Neg(a) => {
                    let k = g.ground_key(a, full);
                    if g.fluent[a.pred as usize] {
                        ce.cond_neg.extend(ids.of(&k));
                    } else if ids.reached(&k) {
                        return None;
                    }
                }
                LLit::Eq(x, y) if val(*x, full) != val(*y, full) => return None,
                LLit::NotEq(x, y) if val(*x, full) == val(*y, full) => return None,
                LLit::Eq(..) | LLit::NotEq(..) => {}
            }
        }
        ce.cond_pos.retain(|f| pre_pos.binary_search(f).is_err());
        ce.cond_neg.retain(|f| pre_neg.binary_search(f).is_err());
        if ce.cond_pos.iter().any(|f| pre_neg.binary_search(f).is_ok())
            || ce.cond_neg.iter().any(|f| pre_pos.binary_search(f).is_ok())
        {
            return None;
        }
        ce.add = e
            .add
            .iter()
            .filter_map(|a| ids.of(&g.ground_key(a, full)))
            .collect();
        ce.del = e
            .del
            .iter()
            .filter_map(|a| ids.of(&g.ground_key(a, full)))
            .collect();
        ce.cond_pos.sort_unstable();
        ce.cond_neg.sort_unstable();
        Some(ce)
    }
}

/// The goal's fluent facts, positive and negative; an error if a static part is false.
pub(super) fn ground_goal(
    g: &Grounder,
    ids: &Ids,
    goal: &[Literal],
) -> Result<(Vec<FactId>, Vec<FactId>), GroundError> {
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    let unreachable = |what: String| Err(GroundError::GoalUnreachable(what));
    for l in goal {
        match g.llit(l, &HashMap::new())? {
            LLit::Pos(a) => {
                let k = g.ground_key(&a, &[]);
                if g.fluent[a.pred as usize] {
                    match ids.of(&k) {
                        Some(f) => pos.push(f),
                        None => return unreachable(g.fact_name(&k)),
                    }
                } else if !ids.reached(&k) {
                    return unreachable(g.fact_name(&k));
                }
            }
            LLit::Neg(a) => {
                let k = g.ground_key(&a, &[]);
                if g.fluent[a.pred as usize] {
                    neg.extend(ids.of(&k));
                } else if ids.reached(&k) {
                    return unreachable(format!("(not {})", g.fact_name(&k)));
                }
            }
            LLit::Eq(x, y) if val(x, &[]) != val(y, &[]) => {
                return unreachable("an equality of distinct objects".into());
            }
            LLit::NotEq(x, y) if val(x, &[]) == val(y, &[]) => {
                return unreachable("an inequality of an object with itself".into());
            }
            LLit::Eq(..) | LLit::NotEq(..) => {}
        }
    }
    Ok((sorted(pos), sorted(neg)))
}
