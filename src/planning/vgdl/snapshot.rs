//! A game state read as cell contents: the relevant sprite types on every cell, and the
//! avatar.

use crate::gvgai::engine::GameState;
use crate::gvgai::vgdl::TypeId;

use super::cases::{Content, Dir4};
use super::translator::Translator;

/// The avatar in a snapshot.
#[derive(Debug, Clone, Copy)]
pub(super) struct AvatarNow {
    pub x: usize,
    pub y: usize,
    pub ty: TypeId,
    pub facing: Dir4,
}

/// A game state as cell contents.
pub(super) struct Snapshot {
    pub cells: Vec<Content>,
    pub w: usize,
    pub h: usize,
    pub avatar: Option<AvatarNow>,
    /// A sprite spawned by ACTION_USE is alive.
    pub used_alive: bool,
}

impl Translator {
    /// The relevant contents of every cell of `state` and the avatar. Sprites ACTION_USE
    /// spawned are left out (they expire by themselves; while one lives, `use` is not offered).
    pub(super) fn snapshot(&self, state: &GameState) -> Snapshot {
        let (w, h) = state.grid_size();
        let (w, h) = (w.max(0) as usize, h.max(0) as usize);
        let mut cells: Vec<Content> = vec![Vec::new(); w * h];
        let mut avatar = None;
        let mut used_alive = false;
        for s in state.sprites() {
            if s.disabled || s.killed {
                continue;
            }
            if self.sim.use_spawn.contains(&s.ty) {
                used_alive = true;
                continue;
            }
            let (x, y) = state.cell_of(s);
            if x < 0 || y < 0 || x as usize >= w || y as usize >= h {
                continue;
            }
            let i = y as usize * w + x as usize;
            if state.rules().props(s.ty).is_avatar {
                avatar = Some(AvatarNow {
                    x: x as usize,
                    y: y as usize,
                    ty: s.ty,
                    facing: Dir4::from_dir(s.orientation).unwrap_or(Dir4::Right),
                });
            } else if self.sim.relevant.binary_search(&s.ty).is_ok() && !cells[i].contains(&s.ty) {
                cells[i].push(s.ty);
            }
        }
        for c in cells.iter_mut() {
            c.sort_unstable();
        }
        Snapshot {
            cells,
            w,
            h,
            avatar,
            used_alive,
        }
    }
}
