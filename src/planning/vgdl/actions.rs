//! One PDDL action per case: parameters `?d` (the direction) and the chain cells `?c0 ...`
//! (the avatar's cell first), then the case's parts in order: the avatar's type and facing,
//! the chain's adjacency (and a teleport's portal-to-exit `warp`), the contents before and after, the avatar's move, the counters it
//! changes and the transient flags. The action's name is built from what it changes.

use std::collections::BTreeMap;

use crate::planning::pddl::{
    Action as PAction, Condition, Conjunction, Effect as PEffect, Literal, TypedName,
};

use super::StepKind;
use super::cases::{ALL_FACINGS, Case, CaseAct, Rel};
use super::model::StateModel;
use super::names::{atom, rel, tn, var};

/// One action schema under construction.
struct Schema {
    params: Vec<TypedName>,
    pre: Conjunction,
    eff: Vec<PEffect>,
    /// Parts of the action's name.
    label: Vec<String>,
}

impl Schema {
    /// A facing relative to `?d`: `?d` itself, or the variable `v` tied to `?d` by rel-*.
    fn rel_var(&mut self, r: Rel, v: &str) -> String {
        if r == Rel::Same {
            return "?d".to_string();
        }
        self.params.push(tn(v, "dir"));
        self.pre
            .push(Literal::Pos(atom(rel(r), vec![var("?d"), var(v)])));
        v.to_string()
    }

    /// The avatar's facing changes from what mask `c.facing` allows to `after`; `None` when
    /// the mask is not one PDDL condition (such cases are split before, see
    /// `analysis::split_facings`).
    fn facing(&mut self, c: &Case, after: Rel) -> Option<()> {
        let to = self.rel_var(after, "?g");
        let m = c.facing;
        let others = ALL_FACINGS & !Rel::Same.bit();
        if m == after.bit() {
            self.pre.push(Literal::Pos(atom("facing", vec![var(&to)])));
        } else if m == ALL_FACINGS || m == others {
            self.params.push(tn("?f", "dir"));
            self.pre.push(Literal::Pos(atom("facing", vec![var("?f")])));
            if m == others {
                self.pre.push(Literal::Neg(atom("facing", vec![var("?d")])));
            }
            self.eff.push(PEffect::Del(atom("facing", vec![var("?f")])));
            self.eff.push(PEffect::Add(atom("facing", vec![var(&to)])));
        } else if m.count_ones() == 1 {
            let r = Rel::ALL
                .into_iter()
                .find(|r| r.bit() == m)
                .unwrap_or(Rel::Same);
            let from = self.rel_var(r, "?f");
            self.pre
                .push(Literal::Pos(atom("facing", vec![var(&from)])));
            self.eff
                .push(PEffect::Del(atom("facing", vec![var(&from)])));
            self.eff.push(PEffect::Add(atom("facing", vec![var(&to)])));
        } else {
            return None;
        }
        if m != after.bit() && after == Rel::Same && c.avatar_to == 0 && c.act == CaseAct::Move {
            self.label.push("turn".into());
        }
        Some(())
    }

    /// The action's name: what it does (`move`, `stay`, `use`) and its label.
    fn name(&mut self, c: &Case) -> String {
        let base = match c.act {
            CaseAct::Use => "use",
            CaseAct::Move if c.avatar_to != 0 => "move",
            CaseAct::Move => "stay",
        };
        if let Some(d) = c.dir {
            self.label.push(d.name().to_string());
        }
        if self.label.is_empty() {
            base.to_string()
        } else {
            format!("{base}_{}", self.label.join("_"))
        }
    }
}

/// The variable of chain cell `i`.
fn cv(i: usize) -> String {
    format!("?c{i}")
}

impl StateModel<'_> {
    /// The actions of the cases (names made unique by a counter suffix), and what each plays
    /// in the engine.
    pub(super) fn actions(&self) -> (Vec<PAction>, BTreeMap<String, StepKind>) {
        let mut actions = Vec::new();
        let mut steps: BTreeMap<String, StepKind> = BTreeMap::new();
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        for c in &self.cases {
            let Some(mut s) = self.case_schema(c) else {
                continue;
            };
            let mut nm = s.name(c);
            let n = names.entry(nm.clone()).or_insert(0);
            *n += 1;
            if *n > 1 {
                nm = format!("{nm}_{n}");
            }
            steps.insert(
                nm.clone(),
                match c.act {
                    CaseAct::Move => StepKind::Move { wait: c.wait },
                    CaseAct::Use => StepKind::Use { wait: c.wait },
                },
            );
            actions.push(PAction {
                name: nm,
                params: s.params,
                precondition: Condition::all(s.pre),
                effects: s.eff,
                cost: Vec::new(),
            });
        }
        (actions, steps)
    }

    /// The schema of case `c`; `None` when its facing mask is not one PDDL condition.
    fn case_schema(&self, c: &Case) -> Option<Schema> {
        let k = c.pre.len();
        let mut s = Schema {
            params: vec![tn("?d", "dir")],
            pre: vec![Literal::Pos(atom("avatar-at", vec![var("?c0")]))],
            eff: Vec::new(),
            label: Vec::new(),
        };
        for i in 0..k {
            s.params.push(tn(&cv(i), "cell"));
        }
        if let Some(d) = c.dir {
            s.pre.push(Literal::Pos(atom(
                &format!("is-{}", d.name()),
                vec![var("?d")],
            )));
        }
        if let Some(t) = c.avatar {
            s.pre
                .push(Literal::Pos(atom(&self.names.avatar_is(t), vec![])));
            if let Some(t2) = c.avatar_after {
                s.eff
                    .push(PEffect::Del(atom(&self.names.avatar_is(t), vec![])));
                s.eff
                    .push(PEffect::Add(atom(&self.names.avatar_is(t2), vec![])));
                s.label.push(format!("as-{}", self.names.ty(t2)));
            }
        }
        if let Some(after) = c.facing_after {
            s.facing(c, after)?;
        }
        // A teleport's last cell is the exit, tied to the portal's cell instead.
        let chain_end = if c.warp.is_some() { k - 1 } else { k };
        for i in 0..chain_end.saturating_sub(1) {
            s.pre.push(Literal::Pos(atom(
                "adj",
                vec![var("?d"), var(&cv(i)), var(&cv(i + 1))],
            )));
        }
        if let Some(p) = c.warp {
            s.pre.push(Literal::Pos(atom(
                "warp",
                vec![var(&cv(p)), var(&cv(k - 1))],
            )));
            s.label.push("warp".into());
        }
        self.contents(c, &mut s);
        if c.avatar_to != 0 {
            if self.any_danger {
                s.pre
                    .push(Literal::Neg(atom("danger", vec![var(&cv(c.avatar_to))])));
            }
            s.eff
                .push(PEffect::Del(atom("avatar-at", vec![var("?c0")])));
            s.eff
                .push(PEffect::Add(atom("avatar-at", vec![var(&cv(c.avatar_to))])));
        }
        self.counter_steps(c, &mut s);
        for (i, &alive) in c.transient.iter().enumerate() {
            let a = atom(&self.names.calm(i), vec![]);
            s.eff.push(if alive {
                PEffect::Del(a)
            } else {
                PEffect::Add(a)
            });
        }
        Some(s)
    }

    /// The contents of each chain cell the case depends on, before (every present type, in or
    /// out) and after (what it removes, and adds); an added goal sprite needs a live cell.
    fn contents(&self, c: &Case, s: &mut Schema) {
        for i in 0..c.pre.len() {
            let (Some(a), Some(b)) = (&c.pre[i], &c.post[i]) else {
                continue;
            };
            for &t in &self.present {
                let lit = atom(&self.names.at(t), vec![var(&cv(i))]);
                s.pre.push(if a.contains(&t) {
                    Literal::Pos(lit.clone())
                } else {
                    Literal::Neg(lit.clone())
                });
                if a.contains(&t) && !b.contains(&t) {
                    s.eff.push(PEffect::Del(lit));
                    if self.cleared.is_some_and(|k| k.types.contains(&t)) {
                        s.eff.push(PEffect::Add(atom(
                            &self.names.cleared(t),
                            vec![var(&cv(i))],
                        )));
                    }
                    s.label.push(format!("{}{i}-gone", self.names.ty(t)));
                } else if !a.contains(&t) && b.contains(&t) {
                    s.eff.push(PEffect::Add(lit.clone()));
                    s.label.push(format!("{}{i}", self.names.ty(t)));
                    if let Some((lt, _)) = self.live.iter().find(|(lt, _)| *lt == t) {
                        s.pre
                            .push(Literal::Pos(atom(&self.names.live(*lt), vec![var(&cv(i))])));
                    }
                }
            }
        }
    }

    /// Each counter the case changes steps along `next` by the case's delta (a loss counter
    /// must stay safe).
    fn counter_steps(&self, c: &Case, s: &mut Schema) {
        for (j, ctr) in self.counters.iter().enumerate() {
            let dl = ctr.delta(c);
            if dl == 0 {
                continue;
            }
            let steps = dl.unsigned_abs() as usize;
            let nv = |s: usize| format!("?n{j}_{s}");
            for n in 0..=steps {
                s.params.push(tn(&nv(n), "num"));
            }
            s.pre.push(Literal::Pos(atom(&ctr.name, vec![var(&nv(0))])));
            for n in 0..steps {
                let (a, b) = if dl > 0 {
                    (nv(n), nv(n + 1))
                } else {
                    (nv(n + 1), nv(n))
                };
                s.pre
                    .push(Literal::Pos(atom("next", vec![var(&a), var(&b)])));
            }
            if !ctr.win {
                s.pre.push(Literal::Pos(atom(
                    &format!("safe-{}", ctr.name),
                    vec![var(&nv(steps))],
                )));
            }
            s.eff.push(PEffect::Del(atom(&ctr.name, vec![var(&nv(0))])));
            s.eff
                .push(PEffect::Add(atom(&ctr.name, vec![var(&nv(steps))])));
        }
    }
}
