//! Portals: GVG-AI's `teleportToExit` puts the avatar on a random sprite of the portal's
//! `stype`. Where the level has exactly one sprite of that type the move is deterministic and
//! the translation models it: the simulator adds the exit's cell to chains through the portal
//! ([`Warp`], see `cases`), and the problem ties each portal cell to its exit cell by the
//! static `(warp ?portal ?exit)`.

use crate::gvgai::engine::{GameState, Rules};
use crate::gvgai::vgdl::{EffectKind, Other, TypeId};

use super::cases::{Case, Content, Warp};
use super::translator::Translator;

/// A warp of one state with its exit cell (x, y).
pub(super) type PlacedWarp = (Warp, (usize, usize));

/// Leaf types with an `stype` that some `teleportToExit` of an avatar names as the second
/// sprite.
pub(super) fn portal_types(rules: &Rules) -> Vec<TypeId> {
    let desc = &rules.desc;
    let avatar_types: Vec<TypeId> = (0..desc.types.len() as TypeId)
        .filter(|&t| rules.props(t).is_avatar)
        .collect();
    (0..desc.types.len() as TypeId)
        .filter(|&t| {
            let p = rules.props(t);
            desc.types[usize::from(t)].children.is_empty()
                && !p.stype.is_empty()
                && desc.interactions.iter().any(|i| {
                    matches!(i.effect.kind, EffectKind::TeleportToExit)
                        && matches!(i.other, Other::Sprite(o) if p.itypes.contains(&o))
                        && avatar_types
                            .iter()
                            .any(|&a| rules.props(a).itypes.contains(&i.first))
                })
        })
        .collect()
}

impl Translator {
    /// The warps of `state` (relevant contents `cells`, `w` cells wide): each portal type
    /// present whose exit type has exactly one live sprite.
    pub(super) fn warps(&self, state: &GameState, cells: &[Content], w: usize) -> Vec<PlacedWarp> {
        let rules = state.rules();
        let live = |t: TypeId| {
            state
                .sprites()
                .filter(move |s| s.ty == t && !s.disabled && !s.killed)
        };
        let mut warps = Vec::new();
        for &portal in &self.portals {
            let Some(&exit) = rules.props(portal).stype.first() else {
                continue;
            };
            if live(portal).next().is_none() {
                continue;
            }
            let mut exits = live(exit);
            let (Some(s), None) = (exits.next(), exits.next()) else {
                continue;
            };
            let (x, y) = state.cell_of(s);
            let i = y.max(0) as usize * w + x.max(0) as usize;
            let (Some(content), true) = (cells.get(i), x >= 0 && y >= 0 && (x as usize) < w) else {
                continue;
            };
            let warp = Warp {
                portal,
                exit,
                exit_content: content.clone(),
            };
            warps.push((warp, (x as usize, y as usize)));
        }
        warps
    }
}

/// Teleports are modelled only while their portals and exits stay where they are: when some
/// case adds or removes one of those types (`dynamic`), the teleport cases are dropped.
pub(super) fn keep_static_warps(
    cases: Vec<Case>,
    warps: &[PlacedWarp],
    dynamic: &[TypeId],
    warnings: &mut Vec<String>,
) -> Vec<Case> {
    let moving = warps
        .iter()
        .any(|(w, _)| dynamic.contains(&w.portal) || dynamic.contains(&w.exit));
    if !moving {
        return cases;
    }
    warnings.push("portals or their exits move: teleports are not modelled".into());
    cases.into_iter().filter(|c| c.warp.is_none()).collect()
}
