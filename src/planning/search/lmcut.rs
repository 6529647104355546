//! LM-cut (Helmert & Domshlak 2009) over the relaxed task of [`super::relaxed`], with
//! incremental h_max updates between cuts.
//!
//! LM-cut's value depends on which of an action's dearest preconditions it chooses, and
//! three rules decide it (see [`dearest`], `update_hmax` and `break_ties`): the dearest
//! precondition reached last by grounding; a choice kept while it stays dearest; and for
//! zero-cost actions in the goal zone, a precondition already in the zone (then, for actions
//! free in the task itself, one on the zone's border). Against taking the first dearest
//! precondition everywhere and the zone's border too, A* expands 599 nodes instead of 864 on
//! parking-opt11 pfile03-011 (Fast Downward: 643), 2,895 instead of 5,810 on elevators-sat08
//! p01 (4,410), 734 instead of 1,123 on spider-opt18 p01 (785) and 19 instead of 696 on
//! freecell 3-2; scanalyzer-sat11 p01 is the exception (869 against 491).

use super::relaxed::{
    AXIOM_OP, Costs, Flat, GOAL_OP, INF, RelaxedTask, Scratch, op_cost_of, propagate_full,
};
use crate::planning::task::State;

/// LM-cut (Helmert & Domshlak 2009) on the split relaxation with shared operator costs,
/// seeded with the goal landmarks that need no search: a goal fact false in the state needs
/// one of its achievers, and when no operator achieves two goal facts these landmarks are
/// disjoint. Each gets its cheapest achiever's cost, which is subtracted from its achievers
/// (a cost partitioning, so the sum stays admissible) before LM-cut runs on the rest. Plain
/// LM-cut can count a cut of moves once for several goal cells (Zen Puzzle: it valued a
/// state with 26 unvisited tiles at 14); the seed never counts less than the unvisited tiles.
/// The result is also at least h_max.
///
/// After each cut, h_max is updated incrementally as in Fast Downward: only the facts whose
/// cheapest support got cheaper are revisited, from the effects of the cut operators.
pub struct LmCut {
    pub rt: std::sync::Arc<RelaxedTask>,
    /// Goal facts whose achievers achieve no other goal fact, with their achieving operators
    /// and the cheapest achiever's cost.
    seeds: Vec<(u32, Vec<u32>, u64)>,
    in_state: Vec<bool>,
    sc: Scratch,
    cost: Vec<u64>,
    adders: Vec<Vec<u32>>,
    /// The relaxed actions of each operator (one per conditional effect).
    op_actions: Vec<Vec<u32>>,
    /// Each relaxed action's precondition choice (its dearest precondition under h_max;
    /// `u32::MAX` when unreachable) and that precondition's h_max value.
    pcf: Vec<u32>,
    pcf_cost: Vec<u64>,
    /// The actions each fact is the chosen precondition of.
    by_pcf: ByChoice,
    in_goal_zone: Vec<bool>,
    reached: Vec<bool>,
    queue: Vec<u32>,
    /// The operators whose cost was lowered last (by the seeds or a cut).
    cut_ops: Vec<u32>,
}

impl LmCut {
    pub fn new(rt: std::sync::Arc<RelaxedTask>) -> Self {
        let mut adders = vec![Vec::new(); rt.num_facts];
        let mut op_actions = vec![Vec::new(); rt.op_cost.len()];
        for (ai, a) in rt.actions.iter().enumerate() {
            for &q in &a.add {
                adders[q as usize].push(ai as u32);
            }
            if a.op < AXIOM_OP {
                op_actions[a.op as usize].push(ai as u32);
            }
        }
        // Goal facts: the preconditions of the goal action.
        let goals: Vec<u32> = rt
            .actions
            .iter()
            .find(|a| a.op == GOAL_OP)
            .map(|a| {
                a.pre
                    .iter()
                    .copied()
                    .filter(|&f| f != rt.true_fact)
                    .collect()
            })
            .unwrap_or_default();
        let mut is_goal = vec![false; rt.num_facts];
        for &g in &goals {
            is_goal[g as usize] = true;
        }
        // Goal facts added by each operator (over all its effects).
        let mut op_goals: Vec<Vec<u32>> = vec![Vec::new(); rt.op_cost.len()];
        for a in &rt.actions {
            if a.op < AXIOM_OP {
                for &q in &a.add {
                    if is_goal[q as usize] && !op_goals[a.op as usize].contains(&q) {
                        op_goals[a.op as usize].push(q);
                    }
                }
            }
        }
        let mut seeds = Vec::new();
        for &g in &goals {
            let mut ops: Vec<u32> = Vec::new();
            let mut exclusive = true;
            for &ai in &adders[g as usize] {
                let a = &rt.actions[ai as usize];
                if a.op >= AXIOM_OP {
                    exclusive = false; // derived: no operator landmark
                    break;
                }
                if op_goals[a.op as usize].len() > 1 {
                    exclusive = false;
                    break;
                }
                ops.push(a.op);
            }
            ops.sort_unstable();
            ops.dedup();
            if exclusive && !ops.is_empty() {
                let c = ops
                    .iter()
                    .map(|&o| rt.op_cost[o as usize])
                    .min()
                    .unwrap_or(0);
                seeds.push((g, ops, c));
            }
        }
        LmCut {
            seeds,
            in_state: Vec::new(),
            rt,
            sc: Scratch::default(),
            cost: Vec::new(),
            adders,
            op_actions,
            pcf: Vec::new(),
            pcf_cost: Vec::new(),
            by_pcf: ByChoice::default(),
            in_goal_zone: Vec::new(),
            reached: Vec::new(),
            queue: Vec::new(),
            cut_ops: Vec::new(),
        }
    }

    pub fn evaluate(&mut self, s: &State) -> Option<u64> {
        let rt = self.rt.clone();
        self.cost.clear();
        self.cost.extend_from_slice(&rt.op_cost);
        // h_max under the full costs (also the dead-end test).
        self.propagate(&rt, s);
        let hmax = self.sc.fact_cost[rt.goal_fact as usize];
        if hmax == INF {
            return None;
        }
        self.choose_preconditions(&rt);
        let mut h = self.seed(&rt, s);
        self.update_hmax(&rt);
        #[cfg(test)]
        self.assert_hmax_exact(&rt, s);
        while self.sc.fact_cost[rt.goal_fact as usize] > 0 {
            self.mark_goal_zone(&rt);
            let m = self.cut(&rt, s);
            if m == INF || m == 0 {
                // Cannot happen for a correct cut; stay admissible by stopping here.
                break;
            }
            h += m;
            self.cut_ops.sort_unstable();
            self.cut_ops.dedup();
            for &o in &self.cut_ops {
                self.cost[o as usize] -= m;
            }
            self.update_hmax(&rt);
            #[cfg(test)]
            self.assert_hmax_exact(&rt, s);
        }
        Some(h.max(hmax))
    }

    /// Test builds check every incremental update against a full propagation under the same
    /// costs: the same h_max values and the same precondition choices.
    #[cfg(test)]
    fn assert_hmax_exact(&self, rt: &RelaxedTask, s: &State) {
        let mut full = Scratch::default();
        let costs = Costs {
            op: &self.cost,
            small: rt.flat.small_costs,
        };
        propagate_full(rt, s, costs, false, false, &mut full);
        assert_eq!(
            full.fact_cost, self.sc.fact_cost,
            "incremental h_max is off"
        );
        for (ai, a) in rt.actions.iter().enumerate() {
            let (first, cost) = dearest(&a.pre, &full.fact_cost);
            let chosen = self.pcf[ai];
            assert_eq!(cost, self.pcf_cost[ai], "choice of {ai} is off");
            assert_eq!(
                first == u32::MAX,
                chosen == u32::MAX,
                "choice of {ai} is off"
            );
            if chosen != u32::MAX {
                assert!(a.pre.contains(&chosen) && full.fact_cost[chosen as usize] == cost);
            }
        }
    }

    /// Lowers the h_max values (and the precondition choices) after the operators in
    /// `cut_ops` got cheaper: a Dijkstra from the effects of their actions that revisits an
    /// action only when its chosen precondition got cheaper. The h_max values equal a full
    /// propagation's under the new costs, and every choice is a dearest precondition.
    fn update_hmax(&mut self, rt: &RelaxedTask) {
        let flat = &rt.flat;
        let small = flat.small_costs;
        let sc = &mut self.sc;
        sc.queue.reset();
        for &o in &self.cut_ops {
            for &ai in &self.op_actions[o as usize] {
                let ai = ai as usize;
                if self.pcf[ai] != u32::MAX {
                    lower_adds(
                        flat,
                        sc,
                        ai,
                        self.pcf_cost[ai] + self.cost[o as usize],
                        small,
                    );
                }
            }
        }
        while let Some((c, f)) = sc.queue.pop() {
            if c > sc.fact_cost[f as usize] {
                continue;
            }
            // Only the actions whose chosen precondition is `f` can change: walk its list
            // (an action that moves goes to another fact's list, so `next` is read first).
            let mut next = self.by_pcf.head[f as usize];
            while next != NIL {
                let ai = next as usize;
                next = self.by_pcf.next[ai];
                if self.pcf_cost[ai] <= c {
                    continue;
                }
                let old = self.pcf_cost[ai];
                let (last, pc) = dearest(&rt.actions[ai].pre, &sc.fact_cost);
                // The choice stays while it is still a dearest precondition.
                let p = if sc.fact_cost[f as usize] == pc {
                    f
                } else {
                    last
                };
                if p != f {
                    self.by_pcf.unlink(f, ai as u32);
                    self.by_pcf.link(p, ai as u32);
                }
                self.pcf[ai] = p;
                self.pcf_cost[ai] = pc;
                if pc < old {
                    let v = pc + op_cost_of(flat.op[ai], &self.cost);
                    lower_adds(flat, sc, ai, v, small);
                }
            }
        }
    }

    /// h_max under the current (reduced) costs.
    fn propagate(&mut self, rt: &RelaxedTask, s: &State) {
        let costs = Costs {
            op: &self.cost,
            small: rt.flat.small_costs,
        };
        propagate_full(rt, s, costs, false, false, &mut self.sc);
    }

    /// The seeds' share: each goal not true in `s` adds its cheapest achiever's cost, which
    /// is taken off its achievers (listed in `cut_ops`).
    fn seed(&mut self, rt: &RelaxedTask, s: &State) -> u64 {
        let mut h = 0u64;
        self.cut_ops.clear();
        if self.seeds.is_empty() {
            return h;
        }
        self.in_state.clear();
        self.in_state.resize(rt.num_facts, false);
        for f in rt.state_facts(s) {
            if (f as usize) < rt.num_facts {
                self.in_state[f as usize] = true;
            }
        }
        for (g, ops, c) in &self.seeds {
            if !self.in_state[*g as usize] && *c > 0 {
                h += c;
                for &o in ops {
                    self.cost[o as usize] -= c;
                    self.cut_ops.push(o);
                }
            }
        }
        h
    }

    /// Each action's precondition choice function: its dearest precondition under h_max.
    fn choose_preconditions(&mut self, rt: &RelaxedTask) {
        self.pcf.clear();
        self.pcf_cost.clear();
        self.by_pcf.reset(rt.num_facts, rt.actions.len());
        for (ai, a) in rt.actions.iter().enumerate() {
            let (p, c) = dearest(&a.pre, &self.sc.fact_cost);
            self.pcf.push(p);
            self.pcf_cost.push(c);
            if p != u32::MAX {
                self.by_pcf.link(p, ai as u32);
            }
        }
    }

    /// The goal zone: backwards from GOAL over zero-cost actions.
    fn mark_goal_zone(&mut self, rt: &RelaxedTask) {
        self.in_goal_zone.clear();
        self.in_goal_zone.resize(rt.num_facts, false);
        self.in_goal_zone[rt.goal_fact as usize] = true;
        self.queue.clear();
        self.queue.push(rt.goal_fact);
        while let Some(f) = self.queue.pop() {
            for k in 0..self.adders[f as usize].len() {
                let ai = self.adders[f as usize][k] as usize;
                if self.pcf[ai] == u32::MAX || op_cost_of(rt.flat.op[ai], &self.cost) != 0 {
                    continue;
                }
                self.break_ties(rt, ai);
                let p = self.pcf[ai];
                if !self.in_goal_zone[p as usize] {
                    self.in_goal_zone[p as usize] = true;
                    self.queue.push(p);
                }
            }
        }
    }

    /// Among the dearest preconditions of the zero-cost action `ai`, prefers one already in
    /// the goal zone, so that the zone does not grow through an arbitrary tie and the cuts
    /// stay small (freecell: without it, h = 8 in the initial state where Fast Downward has
    /// 13). An action that is free in the task itself (not made free by earlier cuts) next
    /// prefers a precondition on the zone's border, which only operators with a cost achieve:
    /// chains of free actions (labyrinth's card moves) then end at a cut. For actions made
    /// free by cuts the border rule swells the goal zone: freecell 3-2 takes 76 expansions
    /// with it, 19 without.
    fn break_ties(&mut self, rt: &RelaxedTask, ai: usize) {
        let cost = self.pcf_cost[ai];
        let pre = &rt.actions[ai].pre;
        let tied = |p: &&u32| self.sc.fact_cost[**p as usize] == cost;
        let in_zone = pre
            .iter()
            .filter(tied)
            .find(|&&p| self.in_goal_zone[p as usize]);
        let on_border = || {
            if op_cost_of(rt.flat.op[ai], &rt.op_cost) != 0 {
                return None;
            }
            pre.iter().filter(tied).find(|&&p| {
                self.adders[p as usize]
                    .iter()
                    .all(|&a| op_cost_of(rt.flat.op[a as usize], &self.cost) != 0)
            })
        };
        let Some(&p) = in_zone.or_else(on_border) else {
            return;
        };
        let old = self.pcf[ai];
        if p != old {
            self.by_pcf.unlink(old, ai as u32);
            self.by_pcf.link(p, ai as u32);
            self.pcf[ai] = p;
        }
    }

    /// The cut: forward from the state without entering the goal zone, the operators of
    /// the actions crossing into it (in `cut_ops`); their least cost.
    fn cut(&mut self, rt: &RelaxedTask, s: &State) -> u64 {
        let nf = rt.num_facts;
        self.reached.clear();
        self.reached.resize(nf, false);
        self.queue.clear();
        for f in rt.state_facts(s) {
            if (f as usize) < nf && !self.reached[f as usize] {
                self.reached[f as usize] = true;
                self.queue.push(f);
            }
        }
        self.cut_ops.clear();
        let mut m = INF;
        let flat = &rt.flat;
        while let Some(f) = self.queue.pop() {
            let mut next = self.by_pcf.head[f as usize];
            while next != NIL {
                let ai = next as usize;
                next = self.by_pcf.next[ai];
                let adds = flat.adds(ai);
                if adds.iter().any(|&q| self.in_goal_zone[q as usize]) {
                    // Into the goal zone: in the cut, and (as in Fast Downward) its other
                    // effects are not explored.
                    let op = flat.op[ai];
                    if op < AXIOM_OP {
                        m = m.min(self.cost[op as usize]);
                        self.cut_ops.push(op);
                    }
                    continue;
                }
                for &q in adds {
                    if !self.reached[q as usize] {
                        self.reached[q as usize] = true;
                        self.queue.push(q);
                    }
                }
            }
        }
        m
    }
}

const NIL: u32 = u32::MAX;

/// Relaxed actions grouped by a fact of theirs: one intrusive doubly linked list per fact, so
/// an action moves between facts in O(1) and a walk visits exactly the actions of its fact.
#[derive(Debug, Default)]
struct ByChoice {
    head: Vec<u32>,
    next: Vec<u32>,
    prev: Vec<u32>,
}

impl ByChoice {
    /// Empty lists for `facts` facts and `actions` actions.
    fn reset(&mut self, facts: usize, actions: usize) {
        self.head.clear();
        self.head.resize(facts, NIL);
        self.next.resize(actions, NIL);
        self.prev.resize(actions, NIL);
    }

    fn link(&mut self, f: u32, ai: u32) {
        let h = self.head[f as usize];
        self.next[ai as usize] = h;
        self.prev[ai as usize] = NIL;
        if h != NIL {
            self.prev[h as usize] = ai;
        }
        self.head[f as usize] = ai;
    }

    fn unlink(&mut self, f: u32, ai: u32) {
        let (p, n) = (self.prev[ai as usize], self.next[ai as usize]);
        if p == NIL {
            self.head[f as usize] = n;
        } else {
            self.next[p as usize] = n;
        }
        if n != NIL {
            self.prev[n as usize] = p;
        }
    }
}

/// The last of the dearest preconditions and its cost, or `(u32::MAX, INF)` when one is
/// unreachable. Preconditions are sorted by fact id, and grounding numbers facts in the
/// order its reachability analysis reaches them, so among ties this is the fact reached
/// last: a fixed order close to Fast Downward's, whose h_max supporter is the precondition
/// its exploration settled last.
fn dearest(pre: &[u32], fact_cost: &[u64]) -> (u32, u64) {
    let mut best = (u32::MAX, 0);
    for &p in pre {
        let c = fact_cost[p as usize];
        if c == INF {
            return (u32::MAX, INF);
        }
        if best.0 == u32::MAX || c >= best.1 {
            best = (p, c);
        }
    }
    best
}

/// Lowers the cost of the facts relaxed action `ai` adds to `v` where that is cheaper.
fn lower_adds(flat: &Flat, sc: &mut Scratch, ai: usize, v: u64, small: bool) {
    for &q in flat.adds(ai) {
        if v < sc.fact_cost[q as usize] {
            sc.fact_cost[q as usize] = v;
            sc.queue.push(small, v, q);
        }
    }
}
