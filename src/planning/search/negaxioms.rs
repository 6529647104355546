//! Negated axioms for the delete relaxation (Fast Downward's `approximate_negative_cycles`).
//! A derived fact `d` is false exactly when every rule deriving it has a false body literal,
//! so `¬d` is derived by one rule per choice of a negated literal from each rule's body (the
//! body conjunction turned into disjunctive normal form). Without these rules a condition
//! `¬d` would have to be dropped from the relaxation, and a goal guarded by "no part is
//! missing" (Assembly's completion, a derived `exists` under `not`) would look reachable in
//! one step from every state. Where the rules cannot be computed exactly, the condition is
//! left out, which keeps the relaxation an over-approximation: `d` depends positively on a
//! derived fact of its own layer (possibly a cycle), or the normal form has more than
//! [`MAX_RULES`] conjunctions.

use crate::planning::task::{FactId, Task};
use std::collections::{HashMap, HashSet};

/// The most rules one negated derived fact may get before it is left out.
const MAX_RULES: usize = 64;

/// A literal: a fact, `true` when it must hold, `false` when it must not.
pub type Lit = (FactId, bool);

/// The negated-axiom rules of the derived facts the relaxation needs negated.
#[derive(Debug, Default)]
pub struct NegatedAxioms {
    /// For each derived fact `d` whose negation has exact rules: the bodies deriving `¬d`.
    /// An empty body list means `¬d` is never derived; a body with no literals means `¬d`
    /// always holds (no rule derives `d`).
    pub rules: HashMap<FactId, Vec<Vec<Lit>>>,
}

impl NegatedAxioms {
    /// The rules for every fact of `wanted` that is derived, and for the lower-layer derived
    /// facts their bodies negate in turn.
    pub fn new(task: &Task, wanted: impl IntoIterator<Item = FactId>) -> NegatedAxioms {
        let mut by_head: HashMap<FactId, Vec<usize>> = HashMap::new();
        for (i, a) in task.axioms.iter().enumerate() {
            by_head.entry(a.head).or_default().push(i);
        }
        let is_derived = task.derived_mask();
        let mut layer_of: HashMap<FactId, u32> = HashMap::new();
        for a in &task.axioms {
            layer_of.insert(a.head, a.layer);
        }
        let ctx = Context {
            task,
            by_head,
            is_derived,
            layer_of,
        };
        let mut out = NegatedAxioms::default();
        let mut tried: HashSet<FactId> = HashSet::new();
        let mut work: Vec<FactId> = wanted
            .into_iter()
            .filter(|&f| ctx.is_derived[f as usize])
            .collect();
        while let Some(d) = work.pop() {
            if !tried.insert(d) {
                continue;
            }
            if let Some(bodies) = ctx.negate(d) {
                for lit in bodies.iter().flatten() {
                    if !lit.1 && ctx.is_derived[lit.0 as usize] {
                        work.push(lit.0);
                    }
                }
                out.rules.insert(d, bodies);
            }
        }
        out
    }
}

struct Context<'a> {
    task: &'a Task,
    by_head: HashMap<FactId, Vec<usize>>,
    is_derived: Vec<bool>,
    layer_of: HashMap<FactId, u32>,
}

impl Context<'_> {
    /// The bodies deriving `¬d`, or None when they cannot be computed exactly.
    fn negate(&self, d: FactId) -> Option<Vec<Vec<Lit>>> {
        let Some(rules) = self.by_head.get(&d) else {
            return Some(vec![Vec::new()]);
        };
        let layer = self.layer_of.get(&d).copied().unwrap_or(0);
        let mut dnf: Vec<Vec<Lit>> = vec![Vec::new()];
        for &r in rules {
            let a = &self.task.axioms[r];
            let cyclic = a.pre_pos.iter().any(|&f| {
                self.is_derived[f as usize] && self.layer_of.get(&f).copied() == Some(layer)
            });
            if cyclic {
                return None;
            }
            // The rule is false when one of its literals is: ¬f for each positive f, f for
            // each negative one.
            let choices: Vec<Lit> = a
                .pre_pos
                .iter()
                .map(|&f| (f, false))
                .chain(a.pre_neg.iter().map(|&f| (f, true)))
                .collect();
            dnf = product(&dnf, &choices)?;
        }
        Some(dnf)
    }
}

/// Each conjunction of `dnf` extended by each literal of `choices` (contradictions dropped,
/// duplicates merged); None past [`MAX_RULES`].
fn product(dnf: &[Vec<Lit>], choices: &[Lit]) -> Option<Vec<Vec<Lit>>> {
    let mut out: Vec<Vec<Lit>> = Vec::new();
    for conj in dnf {
        for &lit in choices {
            if conj.contains(&(lit.0, !lit.1)) {
                continue;
            }
            let mut c = conj.clone();
            if !c.contains(&lit) {
                c.push(lit);
                c.sort_unstable();
            }
            if !out.contains(&c) {
                out.push(c);
                if out.len() > MAX_RULES {
                    return None;
                }
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::task::Axiom;

    fn task(axioms: Vec<Axiom>, facts: usize, derived: Vec<FactId>) -> Task {
        Task {
            facts: (0..facts).map(|i| format!("f{i}")).collect(),
            derived_facts: derived,
            axioms,
            ..Task::default()
        }
    }

    fn axiom(pre_pos: Vec<FactId>, pre_neg: Vec<FactId>, head: FactId, layer: u32) -> Axiom {
        Axiom {
            pre_pos,
            pre_neg,
            head,
            layer,
        }
    }

    #[test]
    fn a_derived_exists_under_not_needs_every_witness_gone() {
        // d <- ¬f0 ; d <- ¬f1 (d: some part is missing). ¬d <- f0 ∧ f1.
        let t = task(
            vec![axiom(vec![], vec![0], 2, 0), axiom(vec![], vec![1], 2, 0)],
            3,
            vec![2],
        );
        let n = NegatedAxioms::new(&t, [2]);
        assert_eq!(n.rules[&2], vec![vec![(0, true), (1, true)]]);
    }

    #[test]
    fn each_rule_contributes_one_false_literal() {
        // d <- f0 ∧ f1 ; d <- f2. ¬d <- ¬f0 ∧ ¬f2 | ¬f1 ∧ ¬f2.
        let t = task(
            vec![
                axiom(vec![0, 1], vec![], 3, 0),
                axiom(vec![2], vec![], 3, 0),
            ],
            4,
            vec![3],
        );
        let n = NegatedAxioms::new(&t, [3]);
        assert_eq!(
            n.rules[&3],
            vec![vec![(0, false), (2, false)], vec![(1, false), (2, false)]]
        );
    }

    #[test]
    fn lower_layers_are_negated_in_turn_and_cycles_are_left_out() {
        // e (layer 0) <- f0 ; d (layer 1) <- e. c (layer 0) <- c ∧ f0 is cyclic.
        let t = task(
            vec![
                axiom(vec![0], vec![], 1, 0),
                axiom(vec![1], vec![], 2, 1),
                axiom(vec![3, 0], vec![], 3, 0),
            ],
            4,
            vec![1, 2, 3],
        );
        let n = NegatedAxioms::new(&t, [2, 3]);
        assert_eq!(n.rules[&2], vec![vec![(1, false)]]);
        assert_eq!(n.rules[&1], vec![vec![(0, false)]]);
        assert!(!n.rules.contains_key(&3));
    }

    #[test]
    fn a_derived_fact_without_rules_is_always_false() {
        let t = task(vec![], 2, vec![1]);
        assert_eq!(
            NegatedAxioms::new(&t, [1]).rules[&1],
            vec![Vec::<Lit>::new()]
        );
    }
}
