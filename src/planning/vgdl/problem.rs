//! The PDDL problem of one state: direction, cell and number objects; the initial facts (the
//! avatar's cell and own state, cell contents, adjacency and portals, danger and live cells, counters
//! and their bounds, transient flags); and the goal (a win counter at zero, cleared cells, or
//! `(won)`).

use crate::planning::pddl::{Atom, Conjunction, Literal, TypedName};

use super::cases::{Dir4, Rel};
use super::model::StateModel;
use super::names::{cell, ground, num, rel, tn};

impl StateModel<'_> {
    /// The objects, initial facts and goal of the state.
    pub(super) fn problem(&self) -> (Vec<TypedName>, Vec<Atom>, Conjunction) {
        let mut objects = Vec::new();
        let mut init = Vec::new();
        self.avatar_facts(&mut objects, &mut init);
        self.cell_facts(&mut objects, &mut init);
        let mut goal = self.counter_facts(&mut objects, &mut init);
        // A transient sprite alive now expires by itself unless the avatar's cell keeps
        // spawning it: the flag says whether it does.
        let spawning = self
            .tr
            .sim
            .spawns_here(self.av.ty, self.grid.at(self.av.x, self.av.y));
        for i in 0..self.tr.sim.transient.len() {
            if !spawning.get(i).copied().unwrap_or(false) {
                init.push(ground(&self.names.calm(i), &[]));
            }
        }
        if let Some(k) = self.cleared {
            for &(x, y) in &self.cell_list {
                for &t in self.grid.at(x, y) {
                    if k.types.contains(&t) {
                        goal.push(Literal::Pos(ground(&self.names.cleared(t), &[&cell(x, y)])));
                    }
                }
            }
            for &i in &k.transient {
                goal.push(Literal::Pos(ground(&self.names.calm(i), &[])));
            }
        }
        if goal.is_empty() {
            goal.push(Literal::Pos(ground("won", &[])));
        }
        (objects, init, goal)
    }

    /// The direction objects, and the avatar's cell, facing (with the relative-facing
    /// relations), the directions of per-direction cases, and the avatar's type.
    fn avatar_facts(&self, objects: &mut Vec<TypedName>, init: &mut Vec<Atom>) {
        let obj_dirs: Vec<Dir4> = if self.oriented() {
            Dir4::ALL.to_vec()
        } else {
            self.tr.all_dirs()
        };
        objects.extend(obj_dirs.iter().map(|d| tn(d.name(), "dir")));
        init.push(ground("avatar-at", &[&cell(self.av.x, self.av.y)]));
        if self.oriented() {
            init.push(ground("facing", &[self.av.facing.name()]));
            for &d in &obj_dirs {
                for r in [Rel::Back, Rel::Left, Rel::Right] {
                    init.push(ground(rel(r), &[d.name(), r.abs(d).name()]));
                }
            }
        }
        for d in &self.fixed_dirs {
            init.push(ground(&format!("is-{}", d.name()), &[d.name()]));
        }
        if self.multi_type() {
            init.push(ground(&self.names.avatar_is(self.av.ty), &[]));
        }
    }

    /// The cell objects with their contents, adjacency, danger and live marks.
    fn cell_facts(&self, objects: &mut Vec<TypedName>, init: &mut Vec<Atom>) {
        let adj_dirs = self.tr.all_dirs();
        for &(x, y) in &self.cell_list {
            objects.push(tn(&cell(x, y), "cell"));
            for &t in self.grid.at(x, y) {
                if self.present.contains(&t) {
                    init.push(ground(&self.names.at(t), &[&cell(x, y)]));
                }
            }
            for &d in &adj_dirs {
                if let Some((nx, ny)) = self.grid.neighbour(x, y, d) {
                    if self.grid.ok(nx, ny) {
                        init.push(ground("adj", &[d.name(), &cell(x, y), &cell(nx, ny)]));
                    }
                }
            }
            if self.danger[y * self.grid.w + x] {
                init.push(ground("danger", &[&cell(x, y)]));
            }
            for (t, lv) in &self.live {
                if lv[y * self.grid.w + x] {
                    init.push(ground(&self.names.live(*t), &[&cell(x, y)]));
                }
            }
            for (w, (ex, ey)) in &self.warps {
                if self.grid.at(x, y).contains(&w.portal) && self.grid.ok(*ex, *ey) {
                    init.push(ground("warp", &[&cell(x, y), &cell(*ex, *ey)]));
                }
            }
        }
    }

    /// The number objects with `next`, each counter's value now and its safe or within
    /// bounds; returns the goal of a single win counter at zero.
    fn counter_facts(&self, objects: &mut Vec<TypedName>, init: &mut Vec<Atom>) -> Conjunction {
        let max_n = self.max_n;
        if !self.counters.is_empty() {
            for n in 0..=max_n {
                objects.push(tn(&num(n), "num"));
                if n < max_n {
                    init.push(ground("next", &[&num(n), &num(n + 1)]));
                }
            }
        }
        let mut goal: Conjunction = Vec::new();
        for ctr in &self.counters {
            let now = ctr.count(&self.grid.cells).clamp(0, max_n);
            init.push(ground(&ctr.name, &[&num(now)]));
            if !ctr.win {
                for n in (ctr.limit as i64 + 1).max(0)..=max_n {
                    init.push(ground(&format!("safe-{}", ctr.name), &[&num(n)]));
                }
            } else if !self.single_win || ctr.limit != 0 {
                for n in 0..=(ctr.limit as i64).min(max_n) {
                    init.push(ground(&format!("within-{}", ctr.name), &[&num(n)]));
                }
            } else {
                goal.push(Literal::Pos(ground(&ctr.name, &["n0"])));
                for &i in &ctr.transient {
                    goal.push(Literal::Pos(ground(&self.names.calm(i), &[])));
                }
            }
        }
        goal
    }
}
