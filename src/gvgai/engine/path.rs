//! GVG-AI's path finder for path-chasing NPCs (`PathAltChaser` and variants): at level start,
//! a uniform-cost search from every free cell over the grid of non-obstacle cells (obstacles
//! are the game's `obs=` types), with 4-neighbourhood in the order up, down, left, right.
//! Ties between equal-cost cells are broken exactly like `java.util.PriorityQueue` (a binary
//! heap), so the chosen shortest paths — and hence the NPC moves — match GVG-AI.

use std::sync::OnceLock;

use crate::gvgai::vgdl::Dir;

const NONE: u16 = u16::MAX;

/// First steps of GVG-AI's cached paths between all pairs of free cells. GVG-AI searches from
/// every cell at level start; here the search from a cell runs the first time a path from it
/// is asked for (the result is the same, and most levels ask from a few cells only). Copies
/// of a game share the table, so each search runs once per level.
#[derive(Debug, Clone)]
pub struct PathTable {
    width: usize,
    height: usize,
    /// `obstacle[x * height + y]`: the cell is blocked.
    obstacle: Vec<bool>,
    horizontal_only: bool,
    /// `parents[start][cell]`: the cell's predecessor on the path from `start`.
    parents: Vec<OnceLock<Box<[u16]>>>,
}

/// A binary min-heap with `java.util.PriorityQueue`'s sift rules (ties are not reordered).
struct JavaHeap {
    items: Vec<(u32, u16)>,
}

impl JavaHeap {
    fn push(&mut self, item: (u32, u16)) {
        let mut k = self.items.len();
        self.items.push(item);
        while k > 0 {
            let parent = (k - 1) >> 1;
            if item.0 >= self.items[parent].0 {
                break;
            }
            self.items[k] = self.items[parent];
            k = parent;
        }
        self.items[k] = item;
    }

    fn pop(&mut self) -> Option<(u32, u16)> {
        let n = self.items.len().checked_sub(1)?;
        let result = self.items[0];
        let x = self.items[n];
        self.items.truncate(n);
        if n > 0 {
            let mut k = 0;
            let half = n >> 1;
            while k < half {
                let mut child = 2 * k + 1;
                let right = child + 1;
                if right < n && self.items[child].0 > self.items[right].0 {
                    child = right;
                }
                if x.0 <= self.items[child].0 {
                    break;
                }
                self.items[k] = self.items[child];
                k = child;
            }
            self.items[k] = x;
        }
        Some(result)
    }
}

impl PathTable {
    /// `obstacle[x * height + y]` marks blocked cells; `horizontal_only` restricts moves to
    /// left/right (GVG-AI does so when the avatar has exactly three actions).
    pub fn new(width: usize, height: usize, obstacle: &[bool], horizontal_only: bool) -> PathTable {
        let cells = width * height;
        PathTable {
            width,
            height,
            obstacle: obstacle[..cells].to_vec(),
            horizontal_only,
            parents: (0..cells).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The uniform-cost search from free cell `start`: every reached cell's predecessor.
    fn search(&self, start: usize) -> Box<[u16]> {
        let (width, height) = (self.width as i64, self.height as i64);
        let mut parents = vec![NONE; self.width * self.height].into_boxed_slice();
        let neigh: &[(i64, i64)] = if self.horizontal_only {
            &[(-1, 0), (1, 0)]
        } else {
            &[(0, -1), (0, 1), (-1, 0), (1, 0)]
        };
        let blocked = |x: i64, y: i64| -> bool {
            x < 0 || y < 0 || x >= width || y >= height || self.obstacle[(x * height + y) as usize]
        };
        let mut heap = JavaHeap {
            items: vec![(0, start as u16)],
        };
        while let Some((cost, node)) = heap.pop() {
            let (x, y) = (i64::from(node) / height, i64::from(node) % height);
            for &(dx, dy) in neigh {
                let (nx, ny) = (x + dx, y + dy);
                if blocked(nx, ny) {
                    continue;
                }
                let n = (nx * height + ny) as usize;
                // Reached cells are those with a predecessor, and the start.
                if n != start && parents[n] == NONE {
                    parents[n] = node;
                    heap.push((cost + 1, n as u16));
                }
            }
        }
        parents
    }

    /// Direction of the first step of the cached path from cell `from` to cell `to`, if
    /// GVG-AI has such a path (none when equal, blocked or unreachable).
    pub fn first_step(&self, from: (i64, i64), to: (i64, i64)) -> Option<Dir> {
        let inside = |(x, y): (i64, i64)| {
            x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
        };
        if !inside(from) || !inside(to) || from == to {
            return None;
        }
        let start = from.0 as usize * self.height + from.1 as usize;
        if self.obstacle[start] {
            return None;
        }
        let mut node = to.0 as usize * self.height + to.1 as usize;
        let row = self.parents[start].get_or_init(|| self.search(start));
        loop {
            let p = row[node];
            if p == NONE {
                return None;
            }
            if usize::from(p) == start {
                break;
            }
            node = usize::from(p);
        }
        let (px, py) = ((start / self.height) as i64, (start % self.height) as i64);
        let (nx, ny) = ((node / self.height) as i64, (node % self.height) as i64);
        let mut d = Dir::NONE;
        if px < nx {
            d = Dir::RIGHT;
        }
        if px > nx {
            d = Dir::LEFT;
        }
        if py < ny {
            d = Dir::DOWN;
        }
        if py > ny {
            d = Dir::UP;
        }
        Some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_pops_in_cost_order() {
        let mut h = JavaHeap { items: Vec::new() };
        for (c, v) in [(3, 0), (1, 1), (2, 2), (1, 3), (0, 4)] {
            h.push((c, v));
        }
        let costs: Vec<u32> = std::iter::from_fn(|| h.pop()).map(|(c, _)| c).collect();
        assert_eq!(costs, [0, 1, 1, 2, 3]);
    }

    #[test]
    fn paths_go_around_walls() {
        // 3x3 with the centre blocked: from (0,1) to (2,1) the path exists, first step up
        // (up is explored first).
        let mut obstacle = vec![false; 9];
        obstacle[3 + 1] = true;
        let t = PathTable::new(3, 3, &obstacle, false);
        assert_eq!(t.first_step((0, 1), (2, 1)), Some(Dir::UP));
        assert_eq!(t.first_step((0, 0), (1, 0)), Some(Dir::RIGHT));
        assert_eq!(t.first_step((0, 0), (0, 0)), None);
        assert_eq!(t.first_step((0, 0), (1, 1)), None);
    }

    #[test]
    fn a_search_runs_once_per_start_cell_asked_from() {
        let t = PathTable::new(64, 64, &[false; 64 * 64], false);
        let built = |t: &PathTable| t.parents.iter().filter(|r| r.get().is_some()).count();
        assert_eq!(built(&t), 0);
        assert_eq!(t.first_step((3, 3), (60, 3)), Some(Dir::RIGHT));
        assert_eq!(t.first_step((3, 3), (3, 0)), Some(Dir::UP));
        assert_eq!(built(&t), 1);
        assert_eq!(t.first_step((5, 9), (5, 10)), Some(Dir::DOWN));
        assert_eq!(built(&t), 2);
    }
}
