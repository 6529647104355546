//! The PDDL domain of one state: the predicates (cell contents, adjacency, counters, the
//! avatar's own state, cleared/live/danger cells), one action per case (see `actions`), and
//! the `won` axioms for goals with several win conditions or a non-zero limit.

use std::collections::BTreeMap;

use crate::planning::pddl::{
    Condition, Derived, Domain, Literal, PredicateDecl, TypeDecl, TypedName,
};

use super::StepKind;
use super::cases::Rel;
use super::model::StateModel;
use super::names::{atom, rel, tn, var};

fn decl(name: impl Into<String>, params: Vec<TypedName>) -> PredicateDecl {
    PredicateDecl {
        name: name.into(),
        params,
    }
}

impl StateModel<'_> {
    /// The domain named `gname`, and what each of its actions plays in the engine.
    pub(super) fn domain(&self, gname: &str) -> (Domain, BTreeMap<String, StepKind>) {
        let mut predicates = self.fact_predicates();
        predicates.extend(self.avatar_predicates());
        let (actions, steps) = self.actions();
        let derived = self.won_axioms();
        if self.needs_won() {
            predicates.push(decl("won", vec![]));
        }
        let mut requirements = vec![
            ":strips".to_string(),
            ":typing".to_string(),
            ":negative-preconditions".to_string(),
        ];
        if !derived.is_empty() {
            requirements.push(":derived-predicates".into());
        }
        let domain = Domain {
            name: gname.to_string(),
            requirements,
            types: ["cell", "dir", "num"]
                .iter()
                .map(|t| TypeDecl {
                    name: t.to_string(),
                    parent: "object".into(),
                })
                .collect(),
            constants: vec![],
            predicates,
            functions: vec![],
            derived,
            actions,
        };
        (domain, steps)
    }

    /// Whether the goal is `(won)`: several win conditions, or a win counter with a limit.
    pub(super) fn needs_won(&self) -> bool {
        !self.single_win || self.counters.iter().any(|c| c.win && c.limit != 0)
    }

    /// Predicates of the cells and counters: the avatar's cell, adjacency, contents,
    /// counters with their bounds, transient flags, cleared and live cells.
    fn fact_predicates(&self) -> Vec<PredicateDecl> {
        let mut predicates = vec![
            decl("avatar-at", vec![tn("?c", "cell")]),
            decl(
                "adj",
                vec![tn("?d", "dir"), tn("?a", "cell"), tn("?b", "cell")],
            ),
        ];
        for &t in &self.present {
            predicates.push(decl(self.names.at(t), vec![tn("?c", "cell")]));
        }
        if !self.counters.is_empty() {
            predicates.push(decl("next", vec![tn("?a", "num"), tn("?b", "num")]));
        }
        for ctr in &self.counters {
            predicates.push(decl(ctr.name.clone(), vec![tn("?n", "num")]));
            if !ctr.win {
                predicates.push(decl(format!("safe-{}", ctr.name), vec![tn("?n", "num")]));
            } else if !self.single_win || ctr.limit != 0 {
                predicates.push(decl(format!("within-{}", ctr.name), vec![tn("?n", "num")]));
            }
        }
        for i in 0..self.tr.sim.transient.len() {
            predicates.push(decl(self.names.calm(i), vec![]));
        }
        if let Some(k) = self.cleared {
            for &t in &k.types {
                predicates.push(decl(self.names.cleared(t), vec![tn("?c", "cell")]));
            }
        }
        for (t, _) in &self.live {
            predicates.push(decl(self.names.live(*t), vec![tn("?c", "cell")]));
        }
        if !self.warps.is_empty() {
            predicates.push(decl("warp", vec![tn("?a", "cell"), tn("?b", "cell")]));
        }
        predicates
    }

    /// Predicates of the avatar's own state (facing, type), of per-direction cases, and of
    /// danger cells.
    fn avatar_predicates(&self) -> Vec<PredicateDecl> {
        let mut predicates = Vec::new();
        if self.oriented() {
            predicates.push(decl("facing", vec![tn("?d", "dir")]));
            for r in [Rel::Back, Rel::Left, Rel::Right] {
                predicates.push(decl(rel(r), vec![tn("?d", "dir"), tn("?f", "dir")]));
            }
        }
        for d in &self.fixed_dirs {
            predicates.push(decl(format!("is-{}", d.name()), vec![tn("?d", "dir")]));
        }
        if self.multi_type() {
            for &t in &self.tr.sim.avatar_types {
                predicates.push(decl(self.names.avatar_is(t), vec![]));
            }
        }
        if self.any_danger {
            predicates.push(decl("danger", vec![tn("?c", "cell")]));
        }
        predicates
    }

    /// `(won)` holds when some win counter is within its limit with its transient sprites
    /// calm; empty unless the goal is `(won)`.
    fn won_axioms(&self) -> Vec<Derived> {
        if !self.needs_won() {
            return Vec::new();
        }
        let mut derived = Vec::new();
        for ctr in self.counters.iter().filter(|c| c.win) {
            let mut cond = vec![
                Literal::Pos(atom(&ctr.name, vec![var("?n")])),
                Literal::Pos(atom(&format!("within-{}", ctr.name), vec![var("?n")])),
            ];
            for &i in &ctr.transient {
                cond.push(Literal::Pos(atom(&self.names.calm(i), vec![])));
            }
            derived.push(Derived {
                head: decl("won", vec![]),
                condition: Condition::all(cond),
            });
        }
        derived
    }
}
