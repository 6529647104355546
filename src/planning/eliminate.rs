//! Greedy action elimination (Nakhost & Müller 2010): a plan step is dropped, together with
//! every later step that is no longer applicable without it, whenever the rest still reaches
//! the goal. Satisficing searches leave detours (a gripper robot walking back empty-handed, a
//! truck driven to a depot and back); this removes them in time quadratic in the plan length,
//! bounded by a number of operator applications. Costs are non-negative, so the result is
//! never dearer than the input, and it is a valid plan whenever the input is.

use super::task::{OpId, State, Task};
use std::time::Instant;

/// How much work [`eliminate`] may do: operator applications and a deadline (checked every
/// [`CHECK_EVERY`] applications).
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub applications: u64,
    pub deadline: Instant,
}

const CHECK_EVERY: u64 = 1024;

/// Removes redundant steps from a valid `plan` within `budget` (the plan as shortened so
/// far is returned when it runs out).
pub fn eliminate(task: &Task, plan: &[OpId], budget: Budget) -> Vec<OpId> {
    let mut plan = plan.to_vec();
    let mut budget = budget;
    let mut before = task.initial_state();
    let mut i = 0;
    while i < plan.len() {
        match attempt(task, &before, &plan[i + 1..], &mut budget) {
            Attempt::Shorter(rest) => {
                plan.truncate(i);
                plan.extend(rest);
            }
            Attempt::Needed => {
                before = task.apply(&before, plan[i]);
                i += 1;
            }
            Attempt::OutOfBudget => break,
        }
    }
    plan
}

enum Attempt {
    /// Without the step (and the steps that depended on it) the goal is still reached.
    Shorter(Vec<OpId>),
    Needed,
    OutOfBudget,
}

/// Runs `rest` from `state`, skipping the steps that are not applicable.
fn attempt(task: &Task, state: &State, rest: &[OpId], budget: &mut Budget) -> Attempt {
    let mut s = state.clone();
    let mut kept = Vec::with_capacity(rest.len());
    for &op in rest {
        if budget.applications == 0
            || (budget.applications % CHECK_EVERY == 0 && Instant::now() >= budget.deadline)
        {
            return Attempt::OutOfBudget;
        }
        if task.applicable(&s, op) {
            budget.applications -= 1;
            s = task.apply(&s, op);
            kept.push(op);
        }
    }
    if task.is_goal(&s) {
        Attempt::Shorter(kept)
    } else {
        Attempt::Needed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::task::{CondEffect, Operator};
    use std::time::Duration;

    fn unbounded() -> Budget {
        bounded(u64::MAX)
    }

    fn bounded(applications: u64) -> Budget {
        Budget {
            applications,
            deadline: Instant::now() + Duration::from_secs(60),
        }
    }

    fn op(name: &str, pre: FactIdList, add: FactIdList, del: FactIdList) -> Operator {
        Operator {
            name: name.into(),
            pre_pos: pre.to_vec(),
            pre_neg: vec![],
            effects: vec![CondEffect {
                add: add.to_vec(),
                del: del.to_vec(),
                ..Default::default()
            }],
            cost: 1,
        }
    }
    type FactIdList<'a> = &'a [u32];

    /// A corridor a - b - c: the robot starts at a and must reach c.
    fn corridor() -> Task {
        Task {
            facts: vec!["at-a".into(), "at-b".into(), "at-c".into()],
            init: vec![0],
            goal_pos: vec![2],
            operators: vec![
                op("ab", &[0], &[1], &[0]),
                op("ba", &[1], &[0], &[1]),
                op("bc", &[1], &[2], &[1]),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn detours_are_removed_and_the_plan_stays_valid() {
        let t = corridor();
        // a -> b -> a -> b -> c: the walk back and forth is a detour.
        let plan = vec![0, 1, 0, 2];
        assert!(t.validate(&plan).is_ok());
        let short = eliminate(&t, &plan, unbounded());
        assert_eq!(short, vec![0, 2]);
        assert!(t.validate(&short).is_ok());
    }

    #[test]
    fn a_plan_without_detours_is_unchanged() {
        let t = corridor();
        assert_eq!(eliminate(&t, &[0, 2], unbounded()), vec![0, 2]);
    }

    #[test]
    fn the_bound_stops_early_with_a_valid_plan() {
        let t = corridor();
        let plan = vec![0, 1, 0, 1, 0, 2];
        let partial = eliminate(&t, &plan, bounded(2));
        assert!(t.validate(&partial).is_ok());
        assert!(partial.len() <= plan.len());
        assert_eq!(eliminate(&t, &plan, unbounded()), vec![0, 2]);
    }
}
