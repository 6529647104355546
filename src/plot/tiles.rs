//! Tile maps: a grid of cells, each holding a stack of kinds (bottom first), drawn as coloured
//! squares with a legend naming the kinds. The bottom kind of a cell fills it; each kind above
//! is a smaller square inside, so a key on a floor shows both.
//!
//! In the SVG every drawn kind of every cell is a `<rect class="tile">`, grouped by kind and
//! stacking level in a `<g>` whose `<title>` names the kind, and every legend entry a `<rect
//! class="swatch">`.

use std::collections::BTreeMap;

use super::{CHAR_W, Svg, num};

/// Largest tile side in pixels.
const MAX_TILE: f64 = 32.0;
/// Smallest tile side in pixels.
const MIN_TILE: f64 = 6.0;
/// The longest side of the map is drawn at most this wide (down to [`MIN_TILE`] per tile).
const MAX_MAP: f64 = 720.0;

/// A kind of tile.
#[derive(Debug, Clone, PartialEq)]
pub struct Kind {
    pub name: String,
    /// Any SVG colour.
    pub colour: String,
}

/// A grid of stacked kinds; [`TileMap::svg`] draws it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TileMap {
    pub title: String,
    pub width: usize,
    pub height: usize,
    /// Row-major, `width × height` cells, each a stack of indices into `kinds` (bottom first).
    /// Missing cells and unknown indices are left empty.
    pub cells: Vec<Vec<usize>>,
    /// The legend, in this order.
    pub kinds: Vec<Kind>,
}

impl TileMap {
    /// The side of one tile in pixels.
    fn tile(&self) -> f64 {
        let longest = self.width.max(self.height).max(1) as f64;
        (MAX_MAP / longest).floor().clamp(MIN_TILE, MAX_TILE)
    }

    /// The map as an SVG document: title, grid, and the legend to its right.
    pub fn svg(&self) -> String {
        let t = self.tile();
        let (left, top) = (10.0, 40.0);
        let (map_w, map_h) = (t * self.width as f64, t * self.height as f64);
        let legend_chars = self
            .kinds
            .iter()
            .map(|k| k.name.chars().count())
            .max()
            .unwrap_or(0);
        let legend_x = left + map_w + 20.0;
        let legend_h = 18.0 * self.kinds.len() as f64;
        let title_w = CHAR_W * self.title.chars().count() as f64;
        let width = (legend_x + 28.0 + CHAR_W * legend_chars as f64 + 10.0).max(title_w + 20.0);
        let height = top + map_h.max(legend_h) + 10.0;
        let mut svg = Svg::new(width, height);
        svg.text(width / 2.0, 24.0, "middle", &self.title);
        svg.rect(
            (left, top),
            (map_w, map_h),
            "#f4f4f4",
            &[("stroke", "#999")],
        );
        self.tiles(&mut svg, (left, top), t);
        for (i, k) in self.kinds.iter().enumerate() {
            let y = top + 18.0 * i as f64;
            let (x, yy) = (num(legend_x), num(y));
            svg.titled(
                "rect",
                &[
                    ("class", "swatch"),
                    ("x", &x),
                    ("y", &yy),
                    ("width", "14"),
                    ("height", "14"),
                    ("fill", &k.colour),
                    ("stroke", "#333"),
                ],
                &k.name,
            );
            svg.text(legend_x + 20.0, y + 11.0, "start", &k.name);
        }
        svg.finish()
    }

    /// The tiles, one group per stacking level and kind (bottom level first, so that a kind
    /// above lies on the one below): each kind of a stack is inset a little more than the one
    /// below it.
    fn tiles(&self, svg: &mut Svg, (left, top): (f64, f64), t: f64) {
        let mut layers: BTreeMap<(usize, usize), Vec<(usize, usize)>> = BTreeMap::new();
        for (i, stack) in self.cells.iter().enumerate().take(self.width * self.height) {
            let known = stack.iter().filter(|&&k| k < self.kinds.len());
            for (level, &k) in known.enumerate() {
                let cell = (i % self.width, i / self.width);
                layers.entry((level, k)).or_default().push(cell);
            }
        }
        for ((level, k), cells) in layers {
            let Some(kind) = self.kinds.get(k) else {
                continue;
            };
            let inset = (t * 0.18 * level as f64).min(t * 0.4);
            let side = num(t - 2.0 * inset);
            svg.open("g", &[("fill", &kind.colour)]);
            svg.element("title", &[], Some(&kind.name));
            for (x, y) in cells {
                let px = num(left + t * x as f64 + inset);
                let py = num(top + t * y as f64 + inset);
                let attrs = [
                    ("class", "tile"),
                    ("x", px.as_str()),
                    ("y", py.as_str()),
                    ("width", side.as_str()),
                    ("height", side.as_str()),
                ];
                svg.element("rect", &attrs, None);
            }
            svg.close("g");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{count, parse};
    use super::*;

    fn map() -> TileMap {
        TileMap {
            title: "a & b".into(),
            width: 3,
            height: 2,
            cells: vec![vec![0], vec![], vec![0, 1], vec![1], vec![0, 1, 9], vec![]],
            kinds: vec![
                Kind {
                    name: "wall".into(),
                    colour: "#333".into(),
                },
                Kind {
                    name: "<key>".into(),
                    colour: "orange".into(),
                },
            ],
        }
    }

    #[test]
    fn every_known_kind_of_every_cell_is_a_tile() {
        let s = map().svg();
        parse(&s);
        assert_eq!(
            count(&s, "rect", "tile"),
            1 + 2 + 1 + 2,
            "unknown index 9 left out"
        );
        assert_eq!(count(&s, "rect", "swatch"), 2);
        let doc = parse(&s);
        let key_tiles = doc
            .descendants()
            .filter(|n| n.has_tag_name("g"))
            .filter(|g| g.children().any(|c| c.text() == Some("<key>")))
            .flat_map(|g| g.children().filter(|c| c.has_tag_name("rect")))
            .count();
        assert_eq!(key_tiles, 3);
        assert_eq!(s, map().svg(), "deterministic");
    }

    #[test]
    fn big_maps_get_small_tiles() {
        let mut m = map();
        assert_eq!(m.tile(), MAX_TILE);
        m.width = 1000;
        assert_eq!(m.tile(), MIN_TILE);
        m.width = 60;
        assert_eq!(m.tile(), 12.0);
    }
}
