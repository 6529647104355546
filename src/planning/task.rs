//! The grounded task: facts, operators with preconditions, add/delete lists and conditional
//! effects; states as bitsets; applying operators; and the plan validator.

use serde::Serialize;
use thiserror::Error;

pub type FactId = u32;
pub type OpId = u32;

/// An effect that fires when its condition holds in the state the operator is applied in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CondEffect {
    pub cond_pos: Vec<FactId>,
    pub cond_neg: Vec<FactId>,
    pub add: Vec<FactId>,
    pub del: Vec<FactId>,
}

/// A ground operator. The effect with empty conditions (if any) is unconditional.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator {
    pub name: String,
    pub pre_pos: Vec<FactId>,
    pub pre_neg: Vec<FactId>,
    pub effects: Vec<CondEffect>,
    pub cost: u32,
}

/// A ground derived-predicate rule: `head` holds when `pre_pos` hold and `pre_neg` do not.
/// Axioms are stratified: the derived facts in `pre_neg` belong to lower layers, which are
/// complete before this layer's least fixpoint is computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axiom {
    pub pre_pos: Vec<FactId>,
    pub pre_neg: Vec<FactId>,
    pub head: FactId,
    pub layer: u32,
}

/// A grounded planning task (STRIPS with negative conditions, conditional effects and
/// derived facts computed by axioms after every step).
#[derive(Debug, Clone, Default)]
pub struct Task {
    pub facts: Vec<String>,
    pub init: Vec<FactId>,
    pub goal_pos: Vec<FactId>,
    pub goal_neg: Vec<FactId>,
    pub operators: Vec<Operator>,
    /// Sorted by layer.
    pub axioms: Vec<Axiom>,
    /// Facts of derived predicates (recomputed, never set by operators or init).
    pub derived_facts: Vec<FactId>,
}

/// A state: the set of true facts as a bitset.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State(pub Box<[u64]>);

impl State {
    pub fn empty(num_facts: usize) -> State {
        State(vec![0u64; num_facts.div_ceil(64).max(1)].into_boxed_slice())
    }
    #[inline]
    pub fn has(&self, f: FactId) -> bool {
        let f = f as usize;
        self.0.get(f / 64).is_some_and(|w| (w >> (f % 64)) & 1 == 1)
    }
    #[inline]
    pub fn set(&mut self, f: FactId, on: bool) {
        let f = f as usize;
        if let Some(w) = self.0.get_mut(f / 64) {
            if on {
                *w |= 1 << (f % 64);
            } else {
                *w &= !(1 << (f % 64));
            }
        }
    }
    /// The true facts in increasing order.
    pub fn facts(&self) -> impl Iterator<Item = FactId> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some((i * 64) as u32 + b)
            })
        })
    }
}

/// Why a plan is not valid.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
pub enum ValidationError {
    #[error("step {step}: unknown operator id {op}")]
    UnknownOperator { step: usize, op: OpId },
    #[error("step {step}: operator {name} is not applicable: {reason}")]
    NotApplicable {
        step: usize,
        name: String,
        reason: String,
    },
    #[error("the plan ends in a state that does not satisfy the goal: {0}")]
    GoalNotReached(String),
}

impl Task {
    pub fn initial_state(&self) -> State {
        let mut s = State::empty(self.facts.len());
        for &f in &self.init {
            s.set(f, true);
        }
        self.evaluate_axioms(&mut s);
        s
    }

    /// Whether each fact is derived (set by axioms, never by operators), by fact id.
    pub fn derived_mask(&self) -> Vec<bool> {
        let mut is_derived = vec![false; self.facts.len()];
        for &f in &self.derived_facts {
            is_derived[f as usize] = true;
        }
        is_derived
    }

    /// Recomputes the derived facts of `s`: the least fixpoint of each layer of axioms in
    /// turn.
    pub fn evaluate_axioms(&self, s: &mut State) {
        if self.axioms.is_empty() {
            return;
        }
        for &f in &self.derived_facts {
            s.set(f, false);
        }
        let mut rest = self.axioms.as_slice();
        while let Some(first) = rest.first() {
            let n = rest.iter().take_while(|a| a.layer == first.layer).count();
            let (layer, tail) = rest.split_at(n);
            Self::fixpoint(layer, s);
            rest = tail;
        }
    }

    fn fixpoint(axioms: &[Axiom], s: &mut State) {
        loop {
            let mut changed = false;
            for a in axioms {
                if !s.has(a.head)
                    && a.pre_pos.iter().all(|&f| s.has(f))
                    && !a.pre_neg.iter().any(|&f| s.has(f))
                {
                    s.set(a.head, true);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    #[inline]
    pub fn applicable(&self, s: &State, op: OpId) -> bool {
        let o = &self.operators[op as usize];
        o.pre_pos.iter().all(|&f| s.has(f)) && !o.pre_neg.iter().any(|&f| s.has(f))
    }

    /// The successor state (the operator is assumed applicable). All effect conditions are
    /// evaluated in `s`; deletes are applied before adds (add wins).
    pub fn apply(&self, s: &State, op: OpId) -> State {
        let o = &self.operators[op as usize];
        let mut next = s.clone();
        let fires = |e: &CondEffect| {
            e.cond_pos.iter().all(|&f| s.has(f)) && !e.cond_neg.iter().any(|&f| s.has(f))
        };
        for e in o.effects.iter().filter(|e| fires(e)) {
            for &f in &e.del {
                next.set(f, false);
            }
        }
        for e in o.effects.iter().filter(|e| fires(e)) {
            for &f in &e.add {
                next.set(f, true);
            }
        }
        self.evaluate_axioms(&mut next);
        next
    }

    pub fn is_goal(&self, s: &State) -> bool {
        self.goal_pos.iter().all(|&f| s.has(f)) && !self.goal_neg.iter().any(|&f| s.has(f))
    }

    pub fn plan_cost(&self, plan: &[OpId]) -> u64 {
        plan.iter()
            .map(|&o| self.operators.get(o as usize).map_or(0, |o| o.cost as u64))
            .sum()
    }

    /// Simulates the plan from the initial state; Ok(final state) iff every step is applicable
    /// and the goal holds at the end.
    pub fn validate(&self, plan: &[OpId]) -> Result<State, ValidationError> {
        let mut s = self.initial_state();
        for (step, &op) in plan.iter().enumerate() {
            let Some(o) = self.operators.get(op as usize) else {
                return Err(ValidationError::UnknownOperator { step, op });
            };
            if let Some(&f) = o.pre_pos.iter().find(|&&f| !s.has(f)) {
                return Err(ValidationError::NotApplicable {
                    step,
                    name: o.name.clone(),
                    reason: format!("{} is false", self.facts[f as usize]),
                });
            }
            if let Some(&f) = o.pre_neg.iter().find(|&&f| s.has(f)) {
                return Err(ValidationError::NotApplicable {
                    step,
                    name: o.name.clone(),
                    reason: format!("{} is true", self.facts[f as usize]),
                });
            }
            s = self.apply(&s, op);
        }
        if let Some(&f) = self.goal_pos.iter().find(|&&f| !s.has(f)) {
            return Err(ValidationError::GoalNotReached(format!(
                "{} is false",
                self.facts[f as usize]
            )));
        }
        if let Some(&f) = self.goal_neg.iter().find(|&&f| s.has(f)) {
            return Err(ValidationError::GoalNotReached(format!(
                "{} is true",
                self.facts[f as usize]
            )));
        }
        Ok(s)
    }

    /// Whether any operator has a conditional effect.
    pub fn has_conditional_effects(&self) -> bool {
        self.operators.iter().any(|o| {
            o.effects
                .iter()
                .any(|e| !e.cond_pos.is_empty() || !e.cond_neg.is_empty())
        })
    }
}

/// Successor generation: each operator is filed under one of its positive preconditions,
/// the one least often true in states sampled by short random walks from the initial state
/// (a fact that rarely holds filters best: an operator is only tested when its fact holds).
/// Operators without positive preconditions are tested in every state.
pub struct SuccessorGenerator {
    by_fact: Vec<Vec<OpId>>,
    always: Vec<OpId>,
}

/// Random walks that sample states for [`SuccessorGenerator::new`]: walks × steps.
const SAMPLE_WALKS: u32 = 4;
const SAMPLE_STEPS: u32 = 32;

impl SuccessorGenerator {
    pub fn new(task: &Task) -> SuccessorGenerator {
        let first = Self::keyed(task, |pre| pre.first().copied());
        let freq = first.fact_frequencies(task);
        Self::keyed(task, |pre| {
            pre.iter()
                .copied()
                .min_by_key(|&f| freq.get(f as usize).copied().unwrap_or(0))
        })
    }

    fn keyed(task: &Task, key: impl Fn(&[FactId]) -> Option<FactId>) -> SuccessorGenerator {
        let mut by_fact = vec![Vec::new(); task.facts.len()];
        let mut always = Vec::new();
        for (i, o) in task.operators.iter().enumerate() {
            match key(&o.pre_pos) {
                Some(f) => by_fact[f as usize].push(i as OpId),
                None => always.push(i as OpId),
            }
        }
        SuccessorGenerator { by_fact, always }
    }

    /// In how many sampled states each fact holds (fixed seed: same task, same generator).
    fn fact_frequencies(&self, task: &Task) -> Vec<u32> {
        let mut freq = vec![0u32; task.facts.len()];
        let mut rng: u64 = 0x5EED_0F5A_3B1E;
        let mut ops = Vec::new();
        for _ in 0..SAMPLE_WALKS {
            let mut s = task.initial_state();
            for _ in 0..SAMPLE_STEPS {
                for f in s.facts() {
                    if let Some(c) = freq.get_mut(f as usize) {
                        *c += 1;
                    }
                }
                self.applicable(task, &s, &mut ops);
                if ops.is_empty() {
                    break;
                }
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = ops[((rng >> 33) % ops.len() as u64) as usize];
                s = task.apply(&s, pick);
            }
        }
        freq
    }

    /// Writes the operators applicable in `s` to `out`, in increasing id order.
    pub fn applicable(&self, task: &Task, s: &State, out: &mut Vec<OpId>) {
        out.clear();
        for f in s.facts() {
            for &op in &self.by_fact[f as usize] {
                if task.applicable(s, op) {
                    out.push(op);
                }
            }
        }
        for &op in &self.always {
            if task.applicable(s, op) {
                out.push(op);
            }
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> Task {
        // facts: 0 a, 1 b, 2 c
        Task {
            facts: vec!["a".into(), "b".into(), "c".into()],
            init: vec![0],
            goal_pos: vec![2],
            goal_neg: vec![0],
            operators: vec![
                Operator {
                    name: "ab".into(),
                    pre_pos: vec![0],
                    pre_neg: vec![1],
                    effects: vec![CondEffect {
                        add: vec![1],
                        ..Default::default()
                    }],
                    cost: 1,
                },
                Operator {
                    name: "bc-cond".into(),
                    pre_pos: vec![1],
                    pre_neg: vec![],
                    effects: vec![
                        CondEffect {
                            cond_pos: vec![0],
                            add: vec![2],
                            del: vec![0],
                            ..Default::default()
                        },
                        CondEffect {
                            cond_neg: vec![0],
                            del: vec![1],
                            ..Default::default()
                        },
                    ],
                    cost: 1,
                },
            ],
            ..Task::default()
        }
    }

    #[test]
    fn validator_accepts_and_rejects() {
        let t = toy();
        assert!(t.validate(&[0, 1]).is_ok());
        assert!(matches!(
            t.validate(&[1]),
            Err(ValidationError::NotApplicable { step: 0, .. })
        ));
        assert!(matches!(
            t.validate(&[0, 0]),
            Err(ValidationError::NotApplicable { step: 1, .. })
        ));
        assert!(matches!(
            t.validate(&[0]),
            Err(ValidationError::GoalNotReached(_))
        ));
        assert!(matches!(
            t.validate(&[7]),
            Err(ValidationError::UnknownOperator { step: 0, op: 7 })
        ));
        // Second application of bc-cond: a is false now, so only the second effect fires.
        let s = t.validate(&[0, 1]).unwrap();
        let s2 = t.apply(&s, 1);
        assert!(!s2.has(1) && s2.has(2));
        // Conditions are evaluated in the old state: the first effect deletes a, but the
        // second (cond ¬a) must not fire in the same step.
        assert!(s.has(1));
    }

    #[test]
    fn bitset_state() {
        let mut s = State::empty(130);
        s.set(129, true);
        s.set(3, true);
        s.set(64, true);
        assert_eq!(s.facts().collect::<Vec<_>>(), vec![3, 64, 129]);
        s.set(64, false);
        assert!(!s.has(64) && s.has(129) && !s.has(500));
    }
}
