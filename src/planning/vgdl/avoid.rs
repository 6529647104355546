//! Cautious replanning: the cells next to a frozen sprite the avatar never enters (a monster
//! that kills on contact may step there next tick) are `(danger ?c)`, and moves may not enter
//! them.

use crate::gvgai::vgdl::TypeId;

use super::cases::{Case, Dir4};
use super::model::Grid;

/// Per cell: next to a sprite of a `frozen` type that no case moves the avatar onto.
pub(super) fn danger_cells(frozen: &[TypeId], cases: &[Case], grid: &Grid) -> Vec<bool> {
    let threats: Vec<TypeId> = frozen
        .iter()
        .copied()
        .filter(|&t| {
            !cases.iter().any(|c| {
                c.avatar_to > 0 && c.pre[c.avatar_to].as_ref().is_some_and(|p| p.contains(&t))
            })
        })
        .collect();
    let mut danger: Vec<bool> = vec![false; grid.w * grid.h];
    for y in 0..grid.h {
        for x in 0..grid.w {
            if grid.at(x, y).iter().any(|t| threats.contains(t)) {
                for d in Dir4::ALL {
                    if let Some((nx, ny)) = grid.neighbour(x, y, d) {
                        danger[ny * grid.w + nx] = true;
                    }
                }
            }
        }
    }
    danger
}
