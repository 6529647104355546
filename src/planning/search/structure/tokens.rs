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
        // Per operator: change in the token count and the token edge (from, to or NONE).
        let nops = task.operators.len();
        let mut delta = vec![0i64; nops];
        let mut edges: Vec<(FactId, u32, u64)> = Vec::new();
        let mut progress = vec![false; nops];
        for (oi, o) in task.operators.iter().enumerate() {
            if !touches(task, oi as OpId, &in_q) {
                continue;
            }
            progress[oi] = true;
            let (add, del) = uncond(task, oi as OpId, &in_q)?;
            let c = o.cost as u64;
            match (del.as_slice(), add.as_slice()) {
                ([a], [b]) if o.pre_pos.contains(a) && o.pre_neg.contains(b) => {
                    edges.push((*a, *b, c));
                }
                ([a], []) if o.pre_pos.contains(a) => {
                    delta[oi] = -1;
                    edges.push((*a, NONE, c));
                }
                ([], [b]) if o.pre_neg.contains(b) => delta[oi] = 1,
                _ => return None,
            }
        }
        if edges.is_empty() {
            return None;
        }
        // A counter (exactly-one group) that moves by exactly the token-count change.
        let ntok0 = task.init.iter().filter(|&&f| in_q[f as usize]).count() as i64;
        let mut names: Vec<(&&str, &Vec<FactId>)> = g.iter().collect();
        names.sort();
        let mut forced = false;
        for (_, kf) in names {
            if kf
                .iter()
                .any(|&f| in_q[f as usize] || agent.cell_of[f as usize] != NONE)
            {
                continue;
            }
            let Some(ft) = exactly_one(task, kf) else {
                continue;
            };
            let mut val: HashMap<FactId, i64> = HashMap::new();
            let Some(&k0) = task.init.iter().find(|f| kf.contains(f)) else {
                continue;
            };
            val.insert(k0, ntok0);
            let mut ok = true;
            // Every operator changing the count moves the counter; propagate values.
            for (oi, &(a, b)) in ft.iter().enumerate() {
                if delta[oi] != 0 && (a == NONE || a == b) {
                    ok = false;
                }
            }
            if !ok {
                continue;
            }
            let mut changed = true;
            while changed && ok {
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
                            Some(&x) if x != vb => ok = false,
                            _ => {}
                        }
                    }
                }
            }
            if ok
                && task
                    .goal_pos
                    .iter()
                    .any(|f| kf.contains(f) && val.get(f) == Some(&0))
            {
                forced = true;
                break;
            }
        }
        if !forced {
            return None;
        }
        // Cheapest removal cost per token fact (Dijkstra backwards from the sinks).
        let mut dist = vec![u64::MAX; n];
        let mut rev: Vec<Vec<(FactId, u64)>> = vec![Vec::new(); n];
        let mut heap = std::collections::BinaryHeap::new();
        for &(a, b, c) in &edges {
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
        let walk = PreWalk::new(task, agent, progress);
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
