//! The facts of one game state that the domain and the problem share: the cases offered, the
//! sprite types present and those some case changes, the cells that are objects, the
//! counters that matter and how far they count, and the cells marked live or dangerous.

use std::sync::Arc;

use crate::gvgai::engine::GameState;
use crate::gvgai::vgdl::{GameDescription, TypeId};

use super::analysis::Analysis;
use super::avoid::danger_cells;
use super::cases::{Case, CaseAct, Content, Dir4};
use super::counters::{Counter, consumable_goal, in_play, stuck_types};
use super::dead_cells::live_cells;
use super::names::Names;
use super::snapshot::AvatarNow;
use super::translator::Translator;
use super::warps::{PlacedWarp, keep_static_warps};
use super::{TranslateError, not_translatable};

/// The cells of a state: contents, size, and which cells are objects.
pub(super) struct Grid {
    pub cells: Vec<Content>,
    pub w: usize,
    pub h: usize,
    /// Per cell: an object of the problem.
    pub ok: Vec<bool>,
}

impl Grid {
    /// The contents of cell (x, y).
    pub fn at(&self, x: usize, y: usize) -> &Content {
        &self.cells[y * self.w + x]
    }
    /// Whether cell (x, y) is an object.
    pub fn ok(&self, x: usize, y: usize) -> bool {
        self.ok[y * self.w + x]
    }
    /// The cell next to (x, y) in direction `d`, if on the grid.
    pub fn neighbour(&self, x: usize, y: usize, d: Dir4) -> Option<(usize, usize)> {
        let (dx, dy) = d.delta();
        let (nx, ny) = (x as i64 + dx as i64, y as i64 + dy as i64);
        (nx >= 0 && ny >= 0 && (nx as usize) < self.w && (ny as usize) < self.h)
            .then_some((nx as usize, ny as usize))
    }
}

/// One state being translated.
pub(super) struct StateModel<'a> {
    pub tr: &'a Translator,
    pub names: Names<'a>,
    pub grid: Grid,
    pub av: AvatarNow,
    pub an: Arc<Analysis>,
    /// The cases offered in this state.
    pub cases: Vec<Case>,
    /// Types that occur in some content.
    pub present: Vec<TypeId>,
    /// The counters that matter: win counters, and loss counters some case changes.
    pub counters: Vec<&'a Counter>,
    /// The win counter planned as cleared cells.
    pub cleared: Option<&'a Counter>,
    /// Exactly one termination wins.
    pub single_win: bool,
    /// The largest number object.
    pub max_n: i64,
    /// The cells that are objects, row by row.
    pub cell_list: Vec<(usize, usize)>,
    /// Goal types with the cells from which a sprite of the type can still be removed.
    pub live: Vec<(TypeId, Vec<bool>)>,
    /// Per cell: the avatar may not enter it.
    pub danger: Vec<bool>,
    pub any_danger: bool,
    /// Directions some case holds in alone (`is-D` predicates).
    pub fixed_dirs: Vec<Dir4>,
    /// The portals of the state with their exit cells (when some case teleports).
    pub warps: Vec<PlacedWarp>,
    /// Remarks on this state.
    pub warnings: Vec<String>,
}

impl<'a> StateModel<'a> {
    /// The facts of `state`; `avoid`: mark the cells next to frozen threats as dangerous.
    pub fn new(
        tr: &'a Translator,
        state: &'a GameState,
        avoid: bool,
    ) -> Result<StateModel<'a>, TranslateError> {
        let desc = &state.rules().desc;
        let snap = tr.snapshot(state);
        let av = snap.avatar.ok_or(TranslateError::NoAvatar)?;
        let (cells, w, h) = (snap.cells, snap.w, snap.h);
        let mut initial: Vec<Content> = cells.clone();
        initial.sort();
        initial.dedup();
        let warps = tr.warps(state, &cells, w);
        let an = tr.analysis(
            initial,
            cells[av.y * w + av.x].clone(),
            warps.iter().map(|(wp, _)| wp.clone()).collect(),
        );
        // While a used sprite lives, another use would do nothing (singletons) or leave two:
        // not offered.
        let cases: Vec<Case> = an
            .cases
            .iter()
            .filter(|c| !(snap.used_alive && c.act == CaseAct::Use))
            .cloned()
            .collect();
        let mut warnings = Vec::new();
        let moved = changed_types(&cases);
        let cases = keep_static_warps(cases, &warps, &moved, &mut warnings);
        let warps = if cases.iter().any(|c| c.warp.is_some()) {
            warps
        } else {
            Vec::new()
        };
        let mut present: Vec<TypeId> = an.contents.iter().flatten().copied().collect();
        present.sort_unstable();
        present.dedup();
        let dynamic = changed_types(&cases);
        let kept_dynamic = tr.note_dynamic(&dynamic);
        let ok = object_cells(&cells, w, &av, &cases, &kept_dynamic);
        let grid = Grid { cells, w, h, ok };
        let names = Names {
            desc,
            transient: &tr.sim.transient,
        };
        let single_win = tr.counters.iter().filter(|c| c.win).count() == 1;
        let cleared = consumable_goal(&tr.counters, &cases, single_win);
        if single_win {
            check_removable(tr, &an, &cases, &grid, desc)?;
        }
        let (counters, max_n) = in_play(&tr.counters, &cases, &grid.cells, cleared);
        let cell_list: Vec<(usize, usize)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.ok(x, y))
            .collect();
        let mut model = StateModel {
            tr,
            names,
            grid,
            av,
            an,
            cases,
            present,
            counters,
            cleared,
            single_win,
            max_n,
            cell_list,
            live: Vec::new(),
            danger: Vec::new(),
            any_danger: false,
            fixed_dirs: Vec::new(),
            warps,
            warnings,
        };
        model.live = model.live_goal_cells(&dynamic);
        model.danger = if avoid {
            danger_cells(&tr.frozen, &model.cases, &model.grid)
        } else {
            vec![false; w * h]
        };
        model.any_danger = model
            .cell_list
            .iter()
            .any(|&(x, y)| model.danger[y * w + x]);
        model.fixed_dirs = fixed_dirs(&model.cases);
        Ok(model)
    }

    /// Dead cells for goal types (one win counter with limit 0): for each such type some
    /// case changes, the cells a sprite of it can still be removed from.
    fn live_goal_cells(&self, dynamic: &[TypeId]) -> Vec<(TypeId, Vec<bool>)> {
        let mut live = Vec::new();
        if !(self.tr.opts.dead_cells && self.single_win) {
            return live;
        }
        let Some(ctr) = self.counters.iter().find(|c| c.win && c.limit == 0) else {
            return live;
        };
        let static_types: Vec<TypeId> = self
            .present
            .iter()
            .copied()
            .filter(|t| !dynamic.contains(t))
            .collect();
        for &t in &ctr.types {
            if dynamic.contains(&t) {
                live.push((
                    t,
                    live_cells(
                        t,
                        &self.cases,
                        &self.grid,
                        &static_types,
                        &self.tr.all_dirs(),
                    ),
                ));
            }
        }
        live
    }

    /// Whether the avatar is oriented (its facing is part of the model).
    pub fn oriented(&self) -> bool {
        self.tr.sim.oriented
    }

    /// Whether the game has several avatar types (the avatar's type is part of the model).
    pub fn multi_type(&self) -> bool {
        self.tr.sim.avatar_types.len() > 1
    }
}

impl Translator {
    /// Adds `dynamic` to the types changed in any state so far; returns them all.
    fn note_dynamic(&self, dynamic: &[TypeId]) -> Vec<TypeId> {
        let mut kept_dynamic = dynamic.to_vec();
        if let Ok(mut seen) = self.seen_dynamic.lock() {
            for &t in dynamic {
                if !seen.contains(&t) {
                    seen.push(t);
                }
            }
            kept_dynamic = seen.clone();
        }
        kept_dynamic
    }
}

/// The directions some case holds in alone.
fn fixed_dirs(cases: &[Case]) -> Vec<Dir4> {
    let mut v: Vec<Dir4> = cases.iter().filter_map(|c| c.dir).collect();
    v.sort();
    v.dedup();
    v
}

/// The types some case adds to or removes from a cell.
fn changed_types(cases: &[Case]) -> Vec<TypeId> {
    let mut dynamic: Vec<TypeId> = Vec::new();
    for c in cases {
        for (a, b) in c.pre.iter().zip(&c.post) {
            if let (Some(a), Some(b)) = (a, b) {
                for &t in a.iter().chain(b) {
                    if a.contains(&t) != b.contains(&t) && !dynamic.contains(&t) {
                        dynamic.push(t);
                    }
                }
            }
        }
    }
    dynamic
}

/// Per cell: an object of the problem. Cells are objects when some case can enter or stand on
/// their content, and the avatar's cell. (Cells holding a sprite some case changes stay
/// objects even when blocked, so that the state is described in full; walls are never
/// objects.)
fn object_cells(
    cells: &[Content],
    w: usize,
    av: &AvatarNow,
    cases: &[Case],
    kept_dynamic: &[TypeId],
) -> Vec<bool> {
    let used: Vec<&Content> = cases.iter().flat_map(|c| c.pre.iter().flatten()).collect();
    cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (i % w, i / w) == (av.x, av.y)
                || used.contains(&c)
                || c.iter().any(|t| kept_dynamic.contains(t))
        })
        .collect()
}

/// A win that needs sprites gone which no modelled action removes cannot be planned: say
/// which (aliens' portals vanish by themselves; boulderdash's exit needs diamonds in the
/// avatar's resources).
fn check_removable(
    tr: &Translator,
    an: &Analysis,
    cases: &[Case],
    grid: &Grid,
    desc: &GameDescription,
) -> Result<(), TranslateError> {
    for ctr in tr.counters.iter().filter(|c| c.win && c.limit == 0) {
        let stuck: Vec<&str> = stuck_types(ctr, cases, &grid.cells)
            .into_iter()
            .map(|t| desc.type_name(t))
            .collect();
        if !stuck.is_empty() {
            let mut why: Vec<String> = an
                .warnings
                .iter()
                .filter(|w| w.contains("unrepresentable"))
                .cloned()
                .collect();
            why.extend(
                tr.warnings
                    .iter()
                    .filter(|w| w.starts_with("frozen"))
                    .cloned(),
            );
            let why = if why.is_empty() {
                String::new()
            } else {
                format!(" ({})", why.join("; "))
            };
            return Err(not_translatable(format!(
                "the win needs {} gone and no modelled action removes it{why}",
                stuck.join(", ")
            )));
        }
    }
    Ok(())
}
