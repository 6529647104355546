//! Terminations as counters `(count-X ?n)`: which terminations become counters (for the
//! game), and per state which of them matter, how far they can count, and whether a win
//! counter over sprites no case adds is planned as cleared cells instead.

use crate::gvgai::engine::Rules;
use crate::gvgai::vgdl::{Termination, TerminationKind, TypeId};

use super::cases::{Case, Content};
use super::names::pddl_name;
use super::{TranslateError, not_translatable};

/// One termination as a counter.
#[derive(Debug, Clone)]
pub(super) struct Counter {
    pub name: String,
    /// Leaf types counted (non-transient).
    pub types: Vec<TypeId>,
    /// Transient types that must be absent.
    pub transient: Vec<usize>,
    pub limit: i32,
    pub win: bool,
}

impl Counter {
    /// How much a case changes the counter.
    pub fn delta(&self, c: &Case) -> i64 {
        let mut d = 0i64;
        for (a, b) in c.pre.iter().zip(&c.post) {
            if let (Some(a), Some(b)) = (a, b) {
                d += b.iter().filter(|t| self.types.contains(t)).count() as i64;
                d -= a.iter().filter(|t| self.types.contains(t)).count() as i64;
            }
        }
        d
    }

    /// The counter's value on the cells of a state.
    pub fn count(&self, cells: &[Content]) -> i64 {
        cells
            .iter()
            .map(|c| c.iter().filter(|t| self.types.contains(t)).count() as i64)
            .sum()
    }

    /// The largest value the counter can reach from `cells` under `cases` (at most
    /// `n_cells`).
    pub fn bound(&self, cases: &[Case], cells: &[Content], n_cells: i64) -> i64 {
        if cases.iter().all(|k| self.delta(k) <= 0) {
            return self.count(cells);
        }
        // Conservation over the types that turn into counted ones.
        let mut cl: Vec<TypeId> = self.types.clone();
        loop {
            let mut grew = false;
            for k in cases {
                for (a, b) in k.pre.iter().zip(&k.post) {
                    if let (Some(a), Some(b)) = (a, b) {
                        let gains = b.iter().any(|t| cl.contains(t) && !a.contains(t));
                        for &t in a {
                            if gains && !b.contains(&t) && !cl.contains(&t) {
                                cl.push(t);
                                grew = true;
                            }
                        }
                    }
                }
            }
            if !grew {
                break;
            }
        }
        let tmp = Counter {
            types: cl,
            ..self.clone()
        };
        if cases.iter().all(|k| tmp.delta(k) <= 0) {
            tmp.count(cells)
        } else {
            n_cells
        }
    }
}

/// The counters of a game's terminations (`transient`: the transient types). Losing
/// conditions that are not counters are left out with a warning; win conditions that are not
/// are refused.
pub(super) fn game_counters(
    rules: &Rules,
    transient: &[TypeId],
    warnings: &mut Vec<String>,
) -> Result<Vec<Counter>, TranslateError> {
    let desc = &rules.desc;
    let mut counters = Vec::new();
    for (k, term) in desc.terminations.iter().enumerate() {
        let (stypes, limit) = match &term.kind {
            TerminationKind::SpriteCounter { stype, limit } => (vec![*stype], *limit),
            TerminationKind::MultiSpriteCounter {
                stypes,
                limit,
                min: false,
            } => (stypes.clone(), *limit),
            TerminationKind::Timeout { .. } if !term.win => continue,
            other => {
                if term.win {
                    return Err(not_translatable(format!(
                        "win condition {other:?} (line {})",
                        term.line
                    )));
                }
                warnings.push(format!(
                    "losing condition on line {} is not modelled",
                    term.line
                ));
                continue;
            }
        };
        let (mut types, tr) = counted_types(rules, term, &stypes, transient)?;
        if stypes.iter().all(|&s| rules.props(s).is_avatar) {
            continue;
        }
        if !tr.is_empty() && limit != 0 {
            return Err(not_translatable(format!(
                "a counter with limit {limit} over the transient sprite {} (line {})",
                desc.type_name(transient[tr[0]]),
                term.line
            )));
        }
        types.sort_unstable();
        types.dedup();
        let names: Vec<String> = stypes
            .iter()
            .map(|&s| pddl_name(desc.type_name(s)))
            .collect();
        let mut name = format!("count-{}", names.join("-"));
        if counters.iter().any(|c: &Counter| c.name == name) {
            name = format!("{name}-{k}");
        }
        counters.push(Counter {
            name,
            types,
            transient: tr,
            limit,
            win: term.win,
        });
    }
    Ok(counters)
}

/// The leaf types a termination over `stypes` counts, and the indices of the transient ones.
fn counted_types(
    rules: &Rules,
    term: &Termination,
    stypes: &[TypeId],
    transient: &[TypeId],
) -> Result<(Vec<TypeId>, Vec<usize>), TranslateError> {
    let mut types = Vec::new();
    let mut tr = Vec::new();
    for &s in stypes {
        for &t in &rules.props(s).subtypes {
            if let Some(i) = transient.iter().position(|&x| x == t) {
                tr.push(i);
            } else if rules.props(t).is_avatar {
                // The avatar never dies in the model (such moves are left out).
                if term.win {
                    return Err(not_translatable(format!(
                        "a win condition counting the avatar (line {})",
                        term.line
                    )));
                }
            } else {
                types.push(t);
            }
        }
    }
    Ok((types, tr))
}

/// Whether a sprite of leaf type `t` is counted by a termination.
pub(super) fn counted(term: &Termination, t: TypeId, rules: &Rules) -> bool {
    let covers = |s: TypeId| rules.props(s).subtypes.contains(&t);
    match &term.kind {
        TerminationKind::SpriteCounter { stype, .. }
        | TerminationKind::SpriteCounterMore { stype, .. }
        | TerminationKind::MultiSpriteCounterSubTypes { stype, .. } => covers(*stype),
        TerminationKind::MultiSpriteCounter { stypes, .. }
        | TerminationKind::StopCounter { stypes, .. } => stypes.iter().any(|&s| covers(s)),
        TerminationKind::Timeout { .. } => false,
    }
}

/// The win counter planned as cleared cells: with one win condition, a counter with limit 0
/// over types no case adds ("consumable"). Each such sprite becomes one `(cleared-X c)` goal
/// per cell that holds one (each must be cleared on its own, which the delete relaxation
/// sees, unlike a counter).
pub(super) fn consumable_goal<'a>(
    counters: &'a [Counter],
    cases: &[Case],
    single_win: bool,
) -> Option<&'a Counter> {
    let added: Vec<TypeId> = cases
        .iter()
        .flat_map(|c| {
            c.pre.iter().zip(&c.post).flat_map(|(a, b)| match (a, b) {
                (Some(a), Some(b)) => b.iter().filter(|t| !a.contains(t)).copied().collect(),
                _ => Vec::new(),
            })
        })
        .collect();
    counters
        .iter()
        .find(|c| single_win && c.win && c.limit == 0 && c.types.iter().all(|t| !added.contains(t)))
}

/// The counters that matter in a state (all but the `cleared` one): win counters, and loss
/// counters some case changes; and the largest value any of them can reach (the largest
/// number object).
pub(super) fn in_play<'a>(
    counters: &'a [Counter],
    cases: &[Case],
    cells: &[Content],
    cleared: Option<&Counter>,
) -> (Vec<&'a Counter>, i64) {
    let counters: Vec<&Counter> = counters
        .iter()
        .filter(|c| cleared.is_none_or(|k| k.name != c.name))
        .filter(|c| c.win || cases.iter().any(|k| c.delta(k) != 0))
        .collect();
    let n_cells = cells.len() as i64;
    let max_n = counters
        .iter()
        .map(|ctr| ctr.bound(cases, cells, n_cells))
        .max()
        .unwrap_or(0)
        .max(0);
    (counters, max_n)
}

/// The types on `cells` that a win counter with limit 0 needs gone and no case removes.
pub(super) fn stuck_types(ctr: &Counter, cases: &[Case], cells: &[Content]) -> Vec<TypeId> {
    ctr.types
        .iter()
        .copied()
        .filter(|&t| cells.iter().any(|c| c.contains(&t)))
        .filter(|&t| {
            let one = Counter {
                types: vec![t],
                ..ctr.clone()
            };
            !cases.iter().any(|k| one.delta(k) < 0)
        })
        .collect()
}
