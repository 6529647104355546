//! Dungeon → VGDL: lays the rooms of a dungeon (a connected room graph with its markers)
//! out on a tile grid and realises every edge as a pair of portals, so the level has exactly
//! the graph's topology. The game description is `data/evolve/evodungeon.txt` with one
//! entrance (`Portal`) type and one arrival type per edge end added (characters from U+0100
//! on); the level uses ` ` (empty) floor, `w` wall, `A` avatar (start room), `k` key, `x` exit door
//! (end room), `e` enemy, `c` chest. Enemies are static guards ([`render`], the level the
//! playability check plays) or `EvolvedNPC` sprites with a policy ([`render_with`]): the
//! template's lines tagged `#@static` / `#@npc` select the variant.
//!
//! Layout: rooms in row-major order on a grid of ⌈√n⌉ columns; each column is as wide as its
//! widest room and each row as tall as its tallest, with one wall tile between rooms. A
//! room's interior is width × height tiles, enlarged (the shorter side first) when it cannot
//! hold its portals, contents and markers. Contents go on distinct random interior cells:
//! portals first, then markers, enemies and chests.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

use super::genome::Dungeon;

/// The game template.
pub const GAME_TEMPLATE: &str = include_str!("../../../data/evolve/evodungeon.txt");

/// First character used for portal types.
const PORTAL_BASE: u32 = 0x100;
/// Characters available for portal types (U+0100 … U+024F).
const PORTAL_CHARS: usize = 0x150;

/// Why a dungeon cannot be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("the dungeon lacks its {0} room")]
    MissingMarker(&'static str),
    #[error("the dungeon has {0} edges; at most {max} can be rendered", max = PORTAL_CHARS / 4)]
    TooManyEdges(usize),
    #[error("the dungeon is not connected")]
    Disconnected,
    #[error("NPC policy \"{0}\" cannot be written into a game file (empty, whitespace or '#')")]
    BadPolicy(String),
}

/// A room's interior rectangle in the level (tiles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rect {
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

/// A rendered level.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub game: String,
    pub level: String,
    pub rooms: Vec<Rect>,
}

fn portal_char(i: usize) -> char {
    char::from_u32(PORTAL_BASE + i as u32).unwrap_or('?')
}

/// What the dungeon's enemies are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Enemies {
    /// Static guards: touching one kills the avatar (the deterministic level of the check).
    Static,
    /// Moving `EvolvedNPC` sprites with this `policy=` value (`random` or a file relative to
    /// the game file; no whitespace or `#`).
    Npc(String),
}

/// Render `d` (seeded placement of contents) with static guards.
pub fn render(d: &Dungeon, seed: u64) -> Result<Rendered, RenderError> {
    render_with(d, seed, &Enemies::Static)
}

/// Render `d` with the given enemies; the level text does not depend on `enemies`.
pub fn render_with(d: &Dungeon, seed: u64, enemies: &Enemies) -> Result<Rendered, RenderError> {
    if let Enemies::Npc(p) = enemies {
        if p.is_empty() || p.contains(|c: char| c.is_whitespace() || c == '#') {
            return Err(RenderError::BadPolicy(p.clone()));
        }
    }
    let (Some(start), Some(key), Some(end)) = (d.start, d.key, d.end) else {
        let which = if d.start.is_none() {
            "start"
        } else if d.key.is_none() {
            "key"
        } else {
            "end"
        };
        return Err(RenderError::MissingMarker(which));
    };
    if d.components().len() != 1 {
        return Err(RenderError::Disconnected);
    }
    let m = d.edges.len();
    if 4 * m > PORTAL_CHARS {
        return Err(RenderError::TooManyEdges(m));
    }
    let n = d.len();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let adj = d.adjacency();
    let sizes = interior_sizes(d, &adj, [start, key, end]);
    let cols = (1..=n).find(|c| c * c >= n).unwrap_or(1);
    let rows = n.div_ceil(cols);
    let mut col_w = vec![0; cols];
    let mut row_h = vec![0; rows];
    for (r, &(w, h)) in sizes.iter().enumerate() {
        col_w[r % cols] = col_w[r % cols].max(w);
        row_h[r / cols] = row_h[r / cols].max(h);
    }
    let width = 1 + col_w.iter().map(|w| w + 1).sum::<usize>();
    let height = 1 + row_h.iter().map(|h| h + 1).sum::<usize>();
    let mut grid = vec![vec!['w'; width]; height];
    let mut rects = Vec::with_capacity(n);
    for (r, &(w, h)) in sizes.iter().enumerate() {
        let x = 1 + col_w[..r % cols].iter().map(|w| w + 1).sum::<usize>();
        let y = 1 + row_h[..r / cols].iter().map(|h| h + 1).sum::<usize>();
        for row in grid.iter_mut().skip(y).take(h) {
            for c in row.iter_mut().skip(x).take(w) {
                *c = '.';
            }
        }
        rects.push(Rect { x, y, w, h });
    }
    let mut free: Vec<Vec<(usize, usize)>> = rects
        .iter()
        .map(|rc| {
            let mut cells: Vec<(usize, usize)> = (0..rc.h)
                .flat_map(|dy| (0..rc.w).map(move |dx| (rc.x + dx, rc.y + dy)))
                .collect();
            cells.shuffle(&mut rng);
            cells
        })
        .collect();
    let mut put = |room: usize, c: char, grid: &mut Vec<Vec<char>>| {
        if let Some((x, y)) = free[room].pop() {
            grid[y][x] = c;
        }
    };
    // Portal j (0..2m): entrance char j, arrival char 2m + j. Edge i: (a→b) is 2i, (b→a) 2i+1.
    let mut entrances = String::new();
    let mut arrivals = String::new();
    let mut mapping = String::new();
    for (i, &(a, b)) in d.edges.iter().enumerate() {
        for (j, from, to) in [(2 * i, a, b), (2 * i + 1, b, a)] {
            let en = portal_char(j);
            let ar = portal_char(2 * m + j);
            put(from, en, &mut grid);
            put(to, ar, &mut grid);
            entrances.push_str(&format!("      en{j} > stype=ar{j}\n"));
            arrivals.push_str(&format!("      ar{j} >\n"));
            mapping.push_str(&format!("    {en} > en{j}\n    {ar} > ar{j}\n"));
        }
    }
    put(start, 'A', &mut grid);
    put(key, 'k', &mut grid);
    put(end, 'x', &mut grid);
    for (r, room) in d.rooms.iter().enumerate() {
        for _ in 0..room.enemies {
            put(r, 'e', &mut grid);
        }
        for _ in 0..room.chests {
            put(r, 'c', &mut grid);
        }
    }
    let game = game_text(enemies, &entrances, &arrivals, &mapping);
    Ok(Rendered {
        level: level_text(&grid, &rects),
        game,
        rooms: rects,
    })
}

/// Each room's interior (width, height): its genome size, grown until every portal end,
/// enemy, chest and marker it holds has a cell.
fn interior_sizes(d: &Dungeon, adj: &[Vec<usize>], markers: [usize; 3]) -> Vec<(usize, usize)> {
    (0..d.len())
        .map(|r| {
            let room = d.rooms[r];
            let need = 2 * adj[r].len()
                + room.enemies as usize
                + room.chests as usize
                + markers.iter().filter(|&&x| x == r).count();
            let (mut w, mut h) = (room.width.max(1) as usize, room.height.max(1) as usize);
            while w * h < need {
                if w <= h {
                    w += 1;
                } else {
                    h += 1;
                }
            }
            (w, h)
        })
        .collect()
}

/// The VGDL game: the template with the enemies' lines and the portals filled in.
fn game_text(enemies: &Enemies, entrances: &str, arrivals: &str, mapping: &str) -> String {
    let mut game = String::new();
    for line in GAME_TEMPLATE.lines() {
        let line = match (line.split_once("#@"), enemies) {
            (Some((body, "static")), Enemies::Static) => body.trim_end().to_string(),
            (Some((body, "npc")), Enemies::Npc(policy)) => {
                body.trim_end().replace("@POLICY", policy)
            }
            (Some((_, "static" | "npc")), _) => continue,
            _ => line.to_string(),
        };
        let line = line.as_str();
        match line.trim() {
            "# @entrances" => game.push_str(entrances),
            "# @arrivals" => game.push_str(arrivals),
            "# @mapping" => game.push_str(mapping),
            _ => {
                game.push_str(line);
                game.push('\n');
            }
        }
    }
    game
}

/// The level text of `grid`.
fn level_text(grid: &[Vec<char>], rects: &[Rect]) -> String {
    // Floor is an empty cell (no sprite), and wall tiles no room touches (not even
    // diagonally) are left empty: nothing can reach them, and fewer sprites make the forward
    // model (and the playability check) faster.
    let interior = |x: usize, y: usize| {
        rects
            .iter()
            .any(|rc| x >= rc.x && x < rc.x + rc.w && y >= rc.y && y < rc.y + rc.h)
    };
    let mut level = String::new();
    for (y, row) in grid.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let out = match c {
                '.' => ' ',
                'w' => {
                    let near = (y.saturating_sub(1)..=y + 1)
                        .any(|yy| (x.saturating_sub(1)..=x + 1).any(|xx| interior(xx, yy)));
                    if near { 'w' } else { ' ' }
                }
                other => other,
            };
            level.push(out);
        }
        level.push('\n');
    }
    level
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::evolve::dungeon::genome::Room;
    use crate::gvgai::controllers::{Bfs, play};
    use crate::gvgai::engine::Game;
    use std::time::Duration;

    pub fn small() -> Dungeon {
        let r = |w, h, e, c| Room {
            width: w,
            height: h,
            enemies: e,
            chests: c,
        };
        Dungeon {
            rooms: vec![r(5, 4, 0, 1), r(4, 4, 1, 0), r(6, 4, 1, 1), r(4, 5, 0, 0)],
            edges: vec![(0, 1), (1, 2), (1, 3)],
            start: Some(0),
            key: Some(2),
            end: Some(3),
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn level_has_every_element_and_parses() {
        let r = render(&small(), 1).unwrap();
        let count = |c: char| r.level.chars().filter(|&x| x == c).count();
        assert_eq!(
            (count('A'), count('k'), count('x'), count('e'), count('c')),
            (1, 1, 1, 2, 2)
        );
        assert_eq!(r.level.chars().filter(|c| *c as u32 >= 0x100).count(), 12);
        let g = Game::from_texts("evodungeon", &r.game, &[&r.level]).unwrap();
        let s = g.start(0, 1).unwrap();
        assert!(s.avatar().is_some());
        // Enclosed: every cell inside a room has only room cells and walls around it.
        let grid: Vec<Vec<char>> = r.level.lines().map(|l| l.chars().collect()).collect();
        for rc in &r.rooms {
            for y in rc.y - 1..=rc.y + rc.h {
                for x in rc.x - 1..=rc.x + rc.w {
                    let inside = x >= rc.x && x < rc.x + rc.w && y >= rc.y && y < rc.y + rc.h;
                    if !inside {
                        assert_eq!(grid[y][x], 'w', "({x}, {y})\n{}", r.level);
                    }
                }
            }
        }
    }

    #[test]
    fn bfs_wins_the_rendered_level() {
        let r = render(&small(), 4).unwrap();
        let g = Game::from_texts("evodungeon", &r.game, &[&r.level]).unwrap();
        let mut c = Bfs::iw();
        let res = play(&g, 0, 1, &mut c, Duration::from_millis(200)).unwrap();
        assert!(res.outcome.win, "{res:?}\n{}", r.level);
    }

    #[test]
    fn missing_marker_and_disconnected_are_refused() {
        let mut d = small();
        d.key = None;
        assert_eq!(render(&d, 1), Err(RenderError::MissingMarker("key")));
        let mut d = small();
        d.edges.pop();
        assert_eq!(render(&d, 1), Err(RenderError::Disconnected));
    }
}
