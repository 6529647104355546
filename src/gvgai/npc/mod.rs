//! The NPC programs of tablero's `EvolvedNPC` sprites: two trees (Patrol, Attack) forming a
//! two-state machine ([`tree`], [`primitives`], [`machine`]), read and written as
//! S-expressions ([`sexpr`]). The engine runs them (`engine::scripted`); `evolve::npc` evolves
//! them.

pub mod machine;
pub mod primitives;
pub mod sexpr;
pub mod tree;

pub use tree::{Individual, Node};

/// No wall strictly between `a` and `b` on the Bresenham line between them; `wall` says
/// whether a cell blocks sight. Shared by this simulator and the VGDL `EvolvedNPC` class.
pub fn line_of_sight(
    a: (i32, i32),
    b: (i32, i32),
    mut wall: impl FnMut((i32, i32)) -> bool,
) -> bool {
    let (mut x, mut y) = a;
    let dx = (b.0 - a.0).abs();
    let dy = -(b.1 - a.1).abs();
    let sx = if a.0 < b.0 { 1 } else { -1 };
    let sy = if a.1 < b.1 { 1 } else { -1 };
    let mut err = dx + dy;
    while (x, y) != b {
        if (x, y) != a && wall((x, y)) {
            return false;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
    true
}
