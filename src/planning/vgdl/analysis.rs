//! The cases of a set of cell contents: the simulator runs every modelled act in every
//! direction until the contents it produces are closed, cases found in every direction
//! become one action schema over `?d`, and facing masks a PDDL condition cannot say are split.
//! Results are cached per set of initial contents.

use std::sync::Arc;

use crate::gvgai::vgdl::TypeId;

use super::cases::{ALL_FACINGS, Case, CaseAct, Content, Dir4, Rel, Simulator, Warp};
use super::translator::Translator;

/// Cases for one set of initial contents.
pub(super) struct Analysis {
    pub cases: Vec<Case>,
    pub contents: Vec<Content>,
    pub warnings: Vec<String>,
}

/// The cases of one act in one direction.
type PerDir = Vec<(CaseAct, Dir4, Vec<Case>)>;

impl Translator {
    /// The cases for the `initial` contents with the avatar on `avatar_on` and the portals
    /// `warps` (cached).
    pub(super) fn analysis(
        &self,
        initial: Vec<Content>,
        avatar_on: Content,
        warps: Vec<Warp>,
    ) -> Arc<Analysis> {
        let mut key = initial.clone();
        key.push(avatar_on.clone());
        key.push(vec![TypeId::MAX]);
        for w in &warps {
            let mut k = vec![TypeId::MAX, w.portal, w.exit];
            k.extend(&w.exit_content);
            key.push(k);
        }
        if let Ok(c) = self.cache.lock() {
            if let Some(a) = c.get(&key) {
                return Arc::clone(a);
            }
        }
        let mut known = initial;
        let sim = Simulator {
            warps,
            ..self.sim.clone()
        };
        let (per_dir, pruned_all) = self.close_contents(&sim, &mut known, avatar_on);
        let mut all = split_facings(self.merge_directions(&per_dir));
        all.sort();
        all.dedup();
        let mut warnings = Vec::new();
        if all
            .iter()
            .any(|c| c.dir.is_some() && c.act == CaseAct::Move)
        {
            warnings.push("direction-dependent interactions: some moves are per direction".into());
        }
        for (k, n) in pruned_all {
            if k != "nothing happens" {
                warnings.push(format!("left out {n} action outcome(s): {k}"));
            }
        }
        let a = Arc::new(Analysis {
            cases: all,
            contents: known,
            warnings,
        });
        if let Ok(mut c) = self.cache.lock() {
            if c.len() > 256 {
                c.clear();
            }
            c.insert(key, Arc::clone(&a));
        }
        a
    }

    /// Simulates every act in every direction, in rounds until the contents (`known`, and
    /// those under the avatar) are closed under all of them; the cases of the last round and
    /// the prune reasons with their counts.
    fn close_contents(
        &self,
        sim: &Simulator,
        known: &mut Vec<Content>,
        avatar_on: Content,
    ) -> (PerDir, Vec<(String, usize)>) {
        let mut on = vec![avatar_on];
        let mut pruned = Vec::new();
        let mut per_dir: PerDir = Vec::new();
        let mut pruned_all: Vec<(String, usize)> = Vec::new();
        for _round in 0..6 {
            let sizes = (known.len(), on.len());
            per_dir.clear();
            pruned_all.clear();
            let acts = self
                .directions
                .iter()
                .map(|&d| (CaseAct::Move, d))
                .chain(self.use_dirs.iter().map(|&d| (CaseAct::Use, d)));
            for (act, d) in acts {
                let cs = sim.cases_for(act, d, known, &mut on, &mut pruned);
                per_dir.push((act, d, cs));
                for (k, n) in pruned.drain(..) {
                    match pruned_all
                        .iter_mut()
                        .find(|(k2, _): &&mut (String, usize)| *k2 == k)
                    {
                        Some((_, m)) => *m += n,
                        None => pruned_all.push((k, n)),
                    }
                }
            }
            if (known.len(), on.len()) == sizes {
                break;
            }
        }
        (per_dir, pruned_all)
    }

    /// A case found in every move direction is one action schema over `?d`; the others
    /// (direction-dependent interactions, a missile's one direction) are per direction.
    fn merge_directions(&self, per_dir: &PerDir) -> Vec<Case> {
        let mut all: Vec<Case> = Vec::new();
        for (act, d, cs) in per_dir {
            for c in cs {
                let everywhere = self.directions.iter().all(|d2| {
                    per_dir
                        .iter()
                        .any(|(a2, dd, cs2)| a2 == act && dd == d2 && cs2.contains(c))
                });
                let mut c = c.clone();
                if !everywhere {
                    c.dir = Some(*d);
                }
                all.push(c);
            }
        }
        all
    }
}

/// Cases whose facing mask is not one PDDL condition (one facing, all, or all but `Same`)
/// are split into one case per facing.
fn split_facings(cases: Vec<Case>) -> Vec<Case> {
    let others = ALL_FACINGS & !Rel::Same.bit();
    let mut out = Vec::new();
    for c in cases {
        let m = c.facing;
        let ok = m == 0
            || m.count_ones() == 1
            || (c.facing_after.is_some() && (m == ALL_FACINGS || m == others));
        if ok {
            out.push(c);
        } else {
            for r in Rel::ALL {
                if m & r.bit() != 0 {
                    let mut c2 = c.clone();
                    c2.facing = r.bit();
                    out.push(c2);
                }
            }
        }
    }
    out
}
