//! Backward relevance analysis (Fast Downward's, on facts instead of variables): a fact is
//! relevant when the goal names it, when an axiom names it, or when it is a precondition of
//! an operator, or a condition of an effect, that changes a relevant fact. Everything else
//! cannot matter for reaching the goal: effects on irrelevant facts are dropped, operators
//! left without effects are removed, and irrelevant facts are cleared from the initial
//! state, so that states differing only in them become one state. Kept operators have only
//! relevant conditions, so a plan of the pruned task is a plan of the original.

use super::task::{FactId, Task};

/// Which facts of `task` are relevant.
pub fn relevant_facts(task: &Task) -> Vec<bool> {
    let mut relevant = vec![false; task.facts.len()];
    let mut stack: Vec<FactId> = Vec::new();
    let axiom_facts = task.axioms.iter().flat_map(|a| {
        a.pre_pos
            .iter()
            .chain(&a.pre_neg)
            .chain(std::iter::once(&a.head))
    });
    for &f in task
        .goal_pos
        .iter()
        .chain(&task.goal_neg)
        .chain(axiom_facts)
    {
        mark(f, &mut relevant, &mut stack);
    }
    for &f in &task.derived_facts {
        mark(f, &mut relevant, &mut stack);
    }
    // The effects changing each fact, as (operator, effect) indices.
    let mut changers: Vec<Vec<(u32, u32)>> = vec![Vec::new(); task.facts.len()];
    for (oi, o) in task.operators.iter().enumerate() {
        for (ei, e) in o.effects.iter().enumerate() {
            for &f in e.add.iter().chain(&e.del) {
                if let Some(c) = changers.get_mut(f as usize) {
                    c.push((oi as u32, ei as u32));
                }
            }
        }
    }
    let mut operator_done = vec![false; task.operators.len()];
    while let Some(f) = stack.pop() {
        for &(oi, ei) in &changers[f as usize] {
            let o = &task.operators[oi as usize];
            let e = &o.effects[ei as usize];
            for &c in e.cond_pos.iter().chain(&e.cond_neg) {
                mark(c, &mut relevant, &mut stack);
            }
            if !std::mem::replace(&mut operator_done[oi as usize], true) {
                for &p in o.pre_pos.iter().chain(&o.pre_neg) {
                    mark(p, &mut relevant, &mut stack);
                }
            }
        }
    }
    relevant
}

/// Marks `f` relevant, to be followed if it was not yet.
fn mark(f: FactId, relevant: &mut [bool], stack: &mut Vec<FactId>) {
    if let Some(r) = relevant.get_mut(f as usize)
        && !*r
    {
        *r = true;
        stack.push(f);
    }
}

/// Prunes `task` to its relevant part (see the module docs); returns how many facts and
/// operators were irrelevant.
pub fn prune_irrelevant(task: &mut Task) -> (usize, usize) {
    let relevant = relevant_facts(task);
    let is = |f: &FactId| relevant.get(*f as usize).copied().unwrap_or(true);
    let operators = task.operators.len();
    for o in &mut task.operators {
        for e in &mut o.effects {
            e.add.retain(is);
            e.del.retain(is);
        }
        o.effects.retain(|e| !e.add.is_empty() || !e.del.is_empty());
    }
    task.operators.retain(|o| !o.effects.is_empty());
    task.init.retain(is);
    let facts = relevant.iter().filter(|r| !**r).count();
    (facts, operators - task.operators.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::ground::ground;
    use crate::planning::pddl::{parse_domain, parse_problem};

    const DOMAIN: &str = "(define (domain walk) (:requirements :strips :conditional-effects)
      (:predicates (at ?x) (road ?x ?y) (visited ?x) (lamp) (lit ?x))
      (:action move :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
        :effect (and (at ?y) (not (at ?x)) (visited ?y)))
      (:action switch :parameters () :precondition (at a) :effect (lamp))
      (:action jump :parameters (?x) :precondition (at ?x)
        :effect (when (lit ?x) (at c)))
      (:action light :parameters (?x) :precondition (at ?x) :effect (lit ?x)))";
    const PROBLEM: &str = "(define (problem p) (:domain walk) (:objects a b c)
      (:init (at a) (road a b) (road b c) (visited a) (lamp))
      (:goal (at c)))";

    fn task() -> Task {
        ground(
            &parse_domain(DOMAIN).unwrap(),
            &parse_problem(PROBLEM).unwrap(),
        )
        .unwrap()
    }

    fn fact(t: &Task, name: &str) -> usize {
        t.facts.iter().position(|f| f == name).unwrap()
    }

    #[test]
    fn only_what_leads_to_the_goal_is_relevant() {
        let t = task();
        let relevant = relevant_facts(&t);
        let is = |name: &str| relevant[fact(&t, name)];
        assert!(is("(at c)") && is("(at a)") && is("(at b)"));
        // The condition of an effect that reaches the goal is relevant.
        assert!(is("(lit a)") && is("(lit b)"));
        assert!(!is("(visited b)") && !is("(visited c)") && !is("(lamp)"));
    }

    #[test]
    fn pruning_drops_irrelevant_effects_operators_and_initial_facts() {
        let mut t = task();
        let before = t.operators.len();
        let (facts, operators) = prune_irrelevant(&mut t);
        assert!(facts >= 3, "{facts}");
        // `switch` changes only the lamp.
        assert_eq!(operators, 1);
        assert_eq!(t.operators.len(), before - 1);
        assert!(t.operators.iter().all(|o| !o.name.contains("switch")));
        let (visited, lamp) = (fact(&t, "(visited a)"), fact(&t, "(lamp)"));
        assert!(!t.init.contains(&(visited as FactId)) && !t.init.contains(&(lamp as FactId)));
        for o in &t.operators {
            for e in &o.effects {
                assert!(
                    !e.add
                        .iter()
                        .any(|&f| t.facts[f as usize].starts_with("(visited"))
                );
            }
        }
        // Still solvable, and the plan is a plan of the original task.
        let opts = crate::planning::PlanOptions {
            memory_limit: None,
            timeout: std::time::Duration::from_secs(10),
            optimal: true,
            threads: 1,
            anytime: false,
            planner: None,
        };
        let found = crate::planning::solve_task(t, &opts, std::time::Instant::now()).unwrap();
        assert_eq!(found.cost, 2, "{:?}", found.plan);
        let original = task();
        let ids: Vec<_> = found
            .plan
            .iter()
            .map(|n| {
                original
                    .operators
                    .iter()
                    .position(|o| o.name == *n)
                    .unwrap() as u32
            })
            .collect();
        assert!(original.validate(&ids).is_ok(), "{:?}", found.plan);
    }
}
