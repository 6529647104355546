//! The token bound (Sokoban): the sum of each token's shortest path to removal, with a counter
//! that proves every token must go (see the parent module's doc).

use std::collections::HashMap;

use super::agent::{Agent, NONE, PreWalk, exactly_one, groups, touches, uncond};
use crate::planning::task::{FactId, OpId, State, Task};

/// Tokens moved one at a time and removed at sinks, with a counter that forces removing all.
#[derive(Debug, Clone)]
pub(super) struct Tokens {
    pub(super) facts: Vec<FactId>,
    /// Cheapest cost to remove a token at each token fact (u64::MAX: never).
    pub(super) dist: Vec<u64>,
    pub(super) walk: PreWalk,
}

impl Tokens {
    pub(super) fn detect(task: &Task, agent: &Agent) -> Option<Tokens> {
        let g = groups(task);
        let mut names: Vec<&&str> = g.keys().collect();
        names.sort();
        for q in names {
            if let Some(t) = Self::try_family(task, agent, &g, q) {
                return Some(t);
            }
        }
        None
    }

    pub(super) fn try_family(
        task: &Task,
        agent: &Agent,
        g: &HashMap<&str, Vec<FactId>>,
        q: &str,
    ) -> Option<Tokens> {
        let n = task.facts.len();
        let facts = g.get(q)?;
        if facts.iter().any(|&f| agent.cell_of[f as usize] != NONE) {
            return None;
        }
        let mut in_q = vec![false; n];
        for &f in facts {
            in_q[f as usize] = true;
        }
        if task
            .goal_pos
            .iter()
            .chain(&task.goal_neg)
            .any(|&f| in_q[f as usize])
        {
            return None;
        }
        let moves = TokenMoves::of(task, &in_q)?;
        if moves.edges.is_empty() {
            return None;
        }
        let ntok0 = task.init.iter().filter(|&&f| in_q[f as usize]).count() as i64;
        if !has_forcing_counter(task, agent, g, &in_q, &moves.delta, ntok0) {
            return None;
        }
        let dist = removal_costs(n, &moves.edges);
        let walk = PreWalk::new(task, agent, moves.progress);
        Some(Tokens {
            facts: facts.clone(),
            dist,
            walk,
        })
    }

    pub(super) fn evaluate(&mut self, agent: &Agent, s: &State, at: u32, unit: u64) -> Option<u64> {
        let mut h = 0u64;
        let mut any = false;
        for &f in &self.facts {
            if s.has(f) {
                let d = self.dist[f as usize];
                if d == u64::MAX {
                    return None;
                }
                h += d;
                any = true;
            }
        }
        if !any {
            return Some(0);
        }
        let pre = self.walk.distance(agent, s, at)?;
        Some(h + pre * unit)
    }
}

/// What each operator does to the tokens of one family.
struct TokenMoves {
    /// Change in the token count per operator (−1 removes a token, +1 adds one).
    delta: Vec<i64>,
    /// Token edges (from, to or NONE for a removal, cost).
    edges: Vec<(FactId, u32, u64)>,
    /// Operators that touch a token.
    progress: Vec<bool>,
}

impl TokenMoves {
    /// The family's moves, or None when an operator does anything but move, remove or add one
    /// token.
    fn of(task: &Task, in_q: &[bool]) -> Option<TokenMoves> {
        let nops = task.operators.len();
        let mut moves = TokenMoves {
            delta: vec![0i64; nops],
            edges: Vec::new(),
            progress: vec![false; nops],
        };
        for (oi, o) in task.operators.iter().enumerate() {
            if !touches(task, oi as OpId, in_q) {
                continue;
            }
            moves.progress[oi] = true;
            let (add, del) = uncond(task, oi as OpId, in_q)?;
            let c = o.cost as u64;
            match (del.as_slice(), add.as_slice()) {
                ([a], [b]) if o.pre_pos.contains(a) && o.pre_neg.contains(b) => {
                    moves.edges.push((*a, *b, c));
                }
                ([a], []) if o.pre_pos.contains(a) => {
                    moves.delta[oi] = -1;
                    moves.edges.push((*a, NONE, c));
                }
                ([], [b]) if o.pre_neg.contains(b) => moves.delta[oi] = 1,
                _ => return None,
            }
        }
        Some(moves)
    }
}

/// Whether an exactly-one group outside the family (and outside the agent) counts the tokens:
/// every operator that changes the count moves it by exactly that change, and the goal asks
/// for its value 0, so every token must be removed.
fn has_forcing_counter(
    task: &Task,
    agent: &Agent,
    g: &HashMap<&str, Vec<FactId>>,
    in_q: &[bool],
    delta: &[i64],
    ntok0: i64,
) -> bool {
    let mut names: Vec<(&&str, &Vec<FactId>)> = g.iter().collect();
    names.sort();
    names.into_iter().any(|(_, kf)| {
        if kf
            .iter()
            .any(|&f| in_q[f as usize] || agent.cell_of[f as usize] != NONE)
        {
            return false;
        }
        let Some(ft) = exactly_one(task, kf) else {
            return false;
        };
        let Some(&k0) = task.init.iter().find(|f| kf.contains(f)) else {
            return false;
        };
        counter_values(&ft, delta, k0, ntok0).is_some_and(|val| {
            task.goal_pos
                .iter()
                .any(|f| kf.contains(f) && val.get(f) == Some(&0))
        })
    })
}

/// The token count each value of a counter group stands for, propagated from its initial
/// value `k0` (= `ntok0` tokens) along the operators' transitions `ft`; None when an operator
/// changes the count without moving the counter or two paths disagree.
fn counter_values(
    ft: &[(FactId, FactId)],
    delta: &[i64],
    k0: FactId,
    ntok0: i64,
) -> Option<HashMap<FactId, i64>> {
    if ft
        .iter()
        .enumerate()
        .any(|(oi, &(a, b))| delta[oi] != 0 && (a == NONE || a == b))
    {
        return None;
    }
    let mut val: HashMap<FactId, i64> = HashMap::from([(k0, ntok0)]);
    let mut changed = true;
    while changed {
        changed = false;
        for (oi, &(a, b)) in ft.iter().enumerate() {
            if a == NONE || a == b {
                continue;
            }
            if let Some(&va) = val.get(&a) {
                let vb = va + delta[oi];
                match val.get(&b) {
                    None => {
                        val.insert(b, vb);
                        changed = true;
                    }
                    Some(&x) if x != vb => return None,
                    _ => {}
                }
            }
        }
    }
    Some(val)
}

/// Cheapest cost to remove a token from each fact (Dijkstra backwards from the sinks);
/// u64::MAX where no removal is reachable.
fn removal_costs(n: usize, edges: &[(FactId, u32, u64)]) -> Vec<u64> {
    let mut dist = vec![u64::MAX; n];
    let mut rev: Vec<Vec<(FactId, u64)>> = vec![Vec::new(); n];
    let mut heap = std::collections::BinaryHeap::new();
    for &(a, b, c) in edges {
        if b == NONE {
            if c < dist[a as usize] {
                dist[a as usize] = c;
                heap.push(std::cmp::Reverse((c, a)));
            }
        } else {
            rev[b as usize].push((a, c));
        }
    }
    while let Some(std::cmp::Reverse((d, f))) = heap.pop() {
        if d > dist[f as usize] {
            continue;
        }
        for &(a, c) in &rev[f as usize] {
            let nd = d + c;
            if nd < dist[a as usize] {
                dist[a as usize] = nd;
                heap.push(std::cmp::Reverse((nd, a)));
            }
        }
    }
    dist
}
