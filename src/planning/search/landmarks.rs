//! Fact landmarks of the delete relaxation (Zhu & Givan label propagation) with their natural
//! orderings, and the LAMA-style landmark-count heuristic with path-dependent accepted sets.

use super::relaxed::RelaxedTask;
use crate::planning::task::{FactId, OpId, State, Task};

/// Above this many facts, only the goal facts are used as landmarks (labels are n² bits).
const MAX_FACTS_FOR_LABELS: usize = 12_000;

#[derive(Debug, Clone)]
pub struct LandmarkGraph {
    pub facts: Vec<FactId>,
    /// Landmark indices that must be achieved before each landmark.
    pub preds: Vec<Vec<usize>>,
    /// Greedy-necessary successors: landmarks whose every first achiever needs this one
    /// true in the step before (LAMA's orderings for "required again").
    pub succs: Vec<Vec<usize>>,
    pub is_goal: Vec<bool>,
    /// For each task fact, its landmark index if it is one.
    pub index_of: Vec<Option<usize>>,
    /// Operators that add each landmark.
    pub achievers: Vec<Vec<OpId>>,
}

fn words(n: usize) -> usize {
    n.div_ceil(64)
}

impl LandmarkGraph {
    pub fn compute(task: &Task, rt: &RelaxedTask) -> LandmarkGraph {
        let n = task.facts.len();
        let init = task.initial_state();
        let mut lm_facts: Vec<FactId> = task.goal_pos.clone();
        let mut order_pairs: Vec<(FactId, FactId)> = Vec::new();
        let mut necessary_pairs: Vec<(FactId, FactId)> = Vec::new();
        if n <= MAX_FACTS_FOR_LABELS {
            let label = labels(rt, &init, n);
            let mut is_lm = vec![false; n];
            for &g in &task.goal_pos {
                if let Some(l) = &label[g as usize] {
                    for f in bits(l) {
                        is_lm[f] = true;
                    }
                }
            }
            lm_facts = (0..n as u32).filter(|&f| is_lm[f as usize]).collect();
            necessary_pairs = greedy_necessary(rt, &init, &label, &is_lm);
            for &l in &lm_facts {
                if let Some(lab) = &label[l as usize] {
                    for p in bits(lab) {
                        if p as u32 != l {
                            order_pairs.push((p as u32, l));
                        }
                    }
                }
            }
        }
        lm_facts.sort_unstable();
        lm_facts.dedup();
        let mut index_of = vec![None; n];
        for (i, &f) in lm_facts.iter().enumerate() {
            index_of[f as usize] = Some(i);
        }
        let k = lm_facts.len();
        let mut preds = vec![Vec::new(); k];
        let mut succs = vec![Vec::new(); k];
        for (p, l) in order_pairs {
            if let (Some(pi), Some(li)) = (index_of[p as usize], index_of[l as usize]) {
                preds[li].push(pi);
            }
        }
        for (p, l) in necessary_pairs {
            if let (Some(pi), Some(li)) = (index_of[p as usize], index_of[l as usize]) {
                succs[pi].push(li);
            }
        }
        let mut is_goal = vec![false; k];
        for &g in &task.goal_pos {
            if let Some(i) = index_of[g as usize] {
                is_goal[i] = true;
            }
        }
        let mut achievers = vec![Vec::new(); k];
        for (oi, o) in task.operators.iter().enumerate() {
            for e in &o.effects {
                for &q in &e.add {
                    if let Some(i) = index_of[q as usize] {
                        if !achievers[i].contains(&(oi as OpId)) {
                            achievers[i].push(oi as OpId);
                        }
                    }
                }
            }
        }
        LandmarkGraph {
            facts: lm_facts,
            preds,
            succs,
            is_goal,
            index_of,
            achievers,
        }
    }

    pub fn len(&self) -> usize {
        self.facts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// The accepted set of the initial state.
    pub fn initial_accepted(&self, s: &State) -> Box<[u64]> {
        let mut acc = vec![0u64; words(self.len()).max(1)];
        for (i, &f) in self.facts.iter().enumerate() {
            if s.has(f) && self.preds[i].is_empty() {
                acc[i / 64] |= 1 << (i % 64);
            }
        }
        acc.into_boxed_slice()
    }

    /// The accepted set after reaching `s` from a node with accepted set `parent`.
    pub fn progress(&self, parent: &[u64], s: &State) -> Box<[u64]> {
        let mut acc = parent.to_vec();
        let has = |b: &[u64], i: usize| (b[i / 64] >> (i % 64)) & 1 == 1;
        for (i, &f) in self.facts.iter().enumerate() {
            if !has(parent, i) && s.has(f) && self.preds[i].iter().all(|&p| has(parent, p)) {
                acc[i / 64] |= 1 << (i % 64);
            }
        }
        acc.into_boxed_slice()
    }

    /// The landmark-count value: unaccepted landmarks plus accepted ones required again.
    /// Preferred operators: applicable operators achieving a landmark that is next in order.
    pub fn count(
        &self,
        task: &Task,
        acc: &[u64],
        s: &State,
        preferred: Option<&mut Vec<OpId>>,
    ) -> u64 {
        let has = |i: usize| (acc[i / 64] >> (i % 64)) & 1 == 1;
        let mut h = 0u64;
        let mut pref = preferred;
        if let Some(p) = pref.as_deref_mut() {
            p.clear();
        }
        for (i, &f) in self.facts.iter().enumerate() {
            if !has(i) {
                h += 1;
                if let Some(p) = pref.as_deref_mut() {
                    if self.preds[i].iter().all(|&q| has(q)) {
                        for &op in &self.achievers[i] {
                            if task.applicable(s, op) && !p.contains(&op) {
                                p.push(op);
                            }
                        }
                    }
                }
            } else if !s.has(f) && (self.is_goal[i] || self.succs[i].iter().any(|&j| !has(j))) {
                h += 1;
                if let Some(p) = pref.as_deref_mut() {
                    for &op in &self.achievers[i] {
                        if task.applicable(s, op) && !p.contains(&op) {
                            p.push(op);
                        }
                    }
                }
            }
        }
        h
    }
}

/// Zhu & Givan's label propagation: for each fact reachable in the delete relaxation, the
/// set of facts every relaxed path to it needs (itself included); None where unreachable.
fn labels(rt: &RelaxedTask, init: &State, n: usize) -> Vec<Option<Vec<u64>>> {
    let w = words(n);
    // label[f] = None (unreached) or a bitset of the facts needed before f.
    let mut label: Vec<Option<Vec<u64>>> = vec![None; n];
    for f in init.facts() {
        let mut b = vec![0u64; w];
        b[f as usize / 64] |= 1 << (f % 64);
        label[f as usize] = Some(b);
    }
    let mut changed = true;
    let mut la = vec![0u64; w];
    while changed {
        changed = false;
        for a in &rt.actions {
            if a.add.iter().all(|&q| q as usize >= n) {
                continue;
            }
            la.iter_mut().for_each(|x| *x = 0);
            let mut ok = true;
            for &p in &a.pre {
                if p as usize >= n {
                    continue; // TRUE
                }
                match &label[p as usize] {
                    Some(l) => la.iter_mut().zip(l).for_each(|(x, y)| *x |= y),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            for &q in &a.add {
                let q = q as usize;
                if q >= n || init.has(q as u32) {
                    continue;
                }
                match &mut label[q] {
                    None => {
                        let mut b = la.clone();
                        b[q / 64] |= 1 << (q % 64);
                        label[q] = Some(b);
                        changed = true;
                    }
                    Some(l) => {
                        for (i, x) in l.iter_mut().enumerate() {
                            let mut y = la[i];
                            if i == q / 64 {
                                y |= 1 << (q % 64);
                            }
                            let nx = *x & y;
                            if nx != *x {
                                *x = nx;
                                changed = true;
                            }
                        }
                    }
                }
            }
        }
    }
    label
}

/// The greedy-necessary orderings (p, l) between landmark facts: p is a precondition of
/// every relaxed action that adds l and is reachable, for l false initially.
fn greedy_necessary(
    rt: &RelaxedTask,
    init: &State,
    label: &[Option<Vec<u64>>],
    is_lm: &[bool],
) -> Vec<(FactId, FactId)> {
    let n = is_lm.len();
    let mut shared: Vec<Option<Vec<u32>>> = vec![None; n];
    for a in &rt.actions {
        if !a
            .pre
            .iter()
            .all(|&p| p as usize >= n || label[p as usize].is_some())
        {
            continue;
        }
        for &q in &a.add {
            let q = q as usize;
            if q >= n || !is_lm[q] || init.has(q as u32) {
                continue;
            }
            match &mut shared[q] {
                Some(common) => common.retain(|f| a.pre.binary_search(f).is_ok()),
                None => {
                    shared[q] = Some(
                        a.pre
                            .iter()
                            .copied()
                            .filter(|&p| (p as usize) < n)
                            .collect(),
                    )
                }
            }
        }
    }
    let mut pairs = Vec::new();
    for (l, common) in shared.iter().enumerate() {
        for &p in common.iter().flatten() {
            if is_lm[p as usize] && p as usize != l {
                pairs.push((p, l as FactId));
            }
        }
    }
    pairs
}

fn bits(b: &[u64]) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().flat_map(|(i, &w)| {
        (0..64)
            .filter(move |k| (w >> k) & 1 == 1)
            .map(move |k| i * 64 + k)
    })
}
