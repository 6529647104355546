//! Dead cells: for a sprite type the goal needs gone, the cells from which no sequence of
//! cases can remove it (a corner for a Sokoban box). Cases that would put such a sprite there
//! are left out of the model through `(live-X ?c)` preconditions.

use crate::gvgai::vgdl::TypeId;

use super::cases::{Case, Content, Dir4};
use super::model::Grid;

/// One way a case acts on a sprite of the type: the case, the sprite's index in its chain,
/// and whether it removes the sprite (otherwise it moves it to the next cell).
type Removal<'c> = (&'c Case, usize, bool);

/// Cells from which a sprite of type `t` can still be removed (relaxed: other dynamic sprites
/// are assumed out of the way; static contents must match the cases).
pub(super) fn live_cells(
    t: TypeId,
    cases: &[Case],
    grid: &Grid,
    statics: &[TypeId],
    dirs: &[Dir4],
) -> Vec<bool> {
    let (w, h) = (grid.w, grid.h);
    let mut live = vec![false; w * h];
    let uses = removals(t, cases);
    loop {
        let mut changed = false;
        for y in 0..h {
            for x in 0..w {
                if live[y * w + x] || !grid.ok(x, y) {
                    continue;
                }
                'found: for &(c, i, removes) in &uses {
                    let ds = c.dir.as_ref().map(std::slice::from_ref).unwrap_or(dirs);
                    for &d in ds {
                        if let Some((nx, ny)) = fits(grid, statics, c, i, x, y, d) {
                            if removes || live[ny * w + nx] {
                                live[y * w + x] = true;
                                changed = true;
                                break 'found;
                            }
                        }
                    }
                }
            }
        }
        if !changed {
            return live;
        }
    }
}

/// The cases that remove a sprite of type `t` from a chain cell or move it one cell on.
fn removals(t: TypeId, cases: &[Case]) -> Vec<Removal<'_>> {
    let mut uses: Vec<Removal<'_>> = Vec::new();
    // A teleport's exit cell is not on the chain's line.
    for c in cases.iter().filter(|c| c.warp.is_none()) {
        let gone: i64 = c
            .pre
            .iter()
            .zip(&c.post)
            .map(|(a, b)| match (a, b) {
                (Some(a), Some(b)) => a.contains(&t) as i64 - b.contains(&t) as i64,
                _ => 0,
            })
            .sum();
        for i in 1..c.pre.len() {
            let Some(a) = &c.pre[i] else { continue };
            if !a.contains(&t) {
                continue;
            }
            let post_i = c.post[i].as_ref().is_some_and(|b| b.contains(&t));
            if gone > 0 && !post_i {
                uses.push((c, i, true));
            } else if !post_i
                && i + 1 < c.pre.len()
                && c.post[i + 1].as_ref().is_some_and(|b| b.contains(&t))
                && !c.pre[i + 1].as_ref().is_some_and(|b| b.contains(&t))
            {
                uses.push((c, i, false));
            }
        }
    }
    uses
}

/// Whether case `c`, laid along `d` with chain cell `i` on (x, y), fits the grid: every cell
/// an object whose static contents match the case. Returns the cell of chain index `i + 1`
/// (or (x, y) when the chain ends at `i`).
fn fits(
    grid: &Grid,
    statics: &[TypeId],
    c: &Case,
    i: usize,
    x: usize,
    y: usize,
    d: Dir4,
) -> Option<(usize, usize)> {
    let stat =
        |c: &Content| -> Content { c.iter().copied().filter(|x| statics.contains(x)).collect() };
    let (dx, dy) = d.delta();
    let mut next = None;
    for j in 0..c.pre.len() {
        let off = j as i64 - i as i64;
        let cx = x as i64 + off * dx as i64;
        let cy = y as i64 + off * dy as i64;
        if cx < 0 || cy < 0 || cx as usize >= grid.w || cy as usize >= grid.h {
            return None;
        }
        let (cx, cy) = (cx as usize, cy as usize);
        if !grid.ok(cx, cy) {
            return None;
        }
        if let Some(p) = &c.pre[j] {
            if stat(p) != stat(grid.at(cx, cy)) {
                return None;
            }
        }
        if j == i + 1 {
            next = Some((cx, cy));
        }
    }
    Some(next.unwrap_or((x, y)))
}
