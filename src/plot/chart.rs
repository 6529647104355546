//! Line charts: series of (x, y) points, interval bands (a lower and an upper curve, filled
//! between), horizontal reference rules, axes with round-numbered ticks, a grid, axis labels, a
//! title and a legend to the right of the plot.
//!
//! In the SVG every series is a `<polyline class="series">` (with a `<circle class="point">`
//! per point when a series has at most [`MARKER_LIMIT`] points), every band a `<polygon
//! class="band">` and every rule a `<line class="rule">`, each with a `<title>` naming it.

use super::{CHAR_W, Svg, num, points};

/// Series of at most this many points also mark each point with a dot.
pub const MARKER_LIMIT: usize = 40;

/// Left margin (tick labels and the y-axis label).
const LEFT: f64 = 70.0;
/// Top margin (the title).
const TOP: f64 = 40.0;
/// Width of the plot area.
const PLOT_W: f64 = 540.0;
/// Height of the plot area.
const PLOT_H: f64 = 300.0;
/// Bottom margin (tick labels and the x-axis label).
const BOTTOM: f64 = 50.0;

/// A curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    /// Any SVG colour, e.g. `#4e79a7`.
    pub colour: String,
    /// (x, y) in drawing order; points with a non-finite coordinate are left out.
    pub points: Vec<(f64, f64)>,
    /// Drawn dashed.
    pub dashed: bool,
}

/// An interval: filled between `lo` and `hi` at each `x`.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub name: String,
    pub colour: String,
    /// (x, lo, hi) in drawing order.
    pub points: Vec<(f64, f64, f64)>,
}

/// A horizontal reference line, e.g. a 50 % win rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub y: f64,
    pub name: String,
}

/// A line chart; [`LineChart::svg`] draws it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub bands: Vec<Band>,
    pub rules: Vec<Rule>,
    /// The y range shown [default: the data's, widened to round ticks].
    pub y_range: Option<(f64, f64)>,
    /// x ticks at whole numbers only (games, generations, years).
    pub integer_x: bool,
}

/// Maps data coordinates into the plot area.
#[derive(Debug, Clone, Copy)]
struct Frame {
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn px(&self, x: f64) -> f64 {
        LEFT + PLOT_W * (x - self.x.0) / (self.x.1 - self.x.0)
    }

    fn py(&self, y: f64) -> f64 {
        TOP + PLOT_H * (1.0 - (y - self.y.0) / (self.y.1 - self.y.0))
    }
}

/// About `target` round tick values covering `lo..=hi` (a step of 1, 2 or 5 times a power of
/// ten; at least `min_step`), and the decimals their labels need.
pub fn ticks(lo: f64, hi: f64, target: usize, min_step: f64) -> (Vec<f64>, usize) {
    let span = (hi - lo).max(f64::EPSILON);
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
        .max(min_step);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    ((first..=last).map(|i| i as f64 * step).collect(), decimals)
}

/// `lo..hi` widened to the round ticks around it.
fn widen(lo: f64, hi: f64) -> (f64, f64) {
    let (t, _) = ticks(lo, hi, 5, 0.0);
    let step = match t.as_slice() {
        [a, b, ..] => b - a,
        _ => return (lo, hi),
    };
    ((lo / step).floor() * step, (hi / step).ceil() * step)
}

/// `lo..hi`, or `lo..lo + 1` if it is empty or not finite.
fn nonempty(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        (0.0, 1.0)
    } else if hi - lo < 1e-9 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

impl LineChart {
    /// A chart with a title and axis labels and nothing in it.
    pub fn new(title: &str, x_label: &str, y_label: &str) -> LineChart {
        LineChart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            ..LineChart::default()
        }
    }

    /// The data ranges of x and y.
    fn frame(&self) -> Frame {
        let mut xs: Vec<f64> = Vec::new();
        let mut ys: Vec<f64> = Vec::new();
        for s in &self.series {
            for &(x, y) in &s.points {
                xs.push(x);
                ys.push(y);
            }
        }
        for b in &self.bands {
            for &(x, lo, hi) in &b.points {
                xs.push(x);
                ys.extend([lo, hi]);
            }
        }
        ys.extend(self.rules.iter().map(|r| r.y));
        let range = |v: &[f64]| {
            let v = v.iter().copied().filter(|a| a.is_finite());
            let lo = v.clone().fold(f64::INFINITY, f64::min);
            let hi = v.fold(f64::NEG_INFINITY, f64::max);
            nonempty(lo, hi)
        };
        let x = range(&xs);
        let y = match self.y_range {
            Some((lo, hi)) => nonempty(lo, hi),
            None => {
                let (lo, hi) = range(&ys);
                widen(lo, hi)
            }
        };
        Frame { x, y }
    }

    /// The chart as an SVG document.
    pub fn svg(&self) -> String {
        let frame = self.frame();
        let legend_chars = self
            .series
            .iter()
            .map(|s| s.name.chars().count())
            .chain(self.bands.iter().map(|b| b.name.chars().count()))
            .chain(self.rules.iter().map(|r| r.name.chars().count()))
            .max()
            .unwrap_or(0);
        let legend_w = if legend_chars == 0 {
            0.0
        } else {
            40.0 + CHAR_W * legend_chars as f64
        };
        let width = LEFT + PLOT_W + 20.0 + legend_w;
        let mut svg = Svg::new(width, TOP + PLOT_H + BOTTOM);
        self.axes(&mut svg, frame);
        self.draw_bands(&mut svg, frame);
        self.draw_rules(&mut svg, frame);
        self.draw_series(&mut svg, frame);
        self.legend(&mut svg, LEFT + PLOT_W + 20.0);
        svg.text(width / 2.0, 24.0, "middle", &self.title);
        svg.finish()
    }

    /// The grid, the axes, their ticks and labels.
    fn axes(&self, svg: &mut Svg, f: Frame) {
        let (right, bottom) = (LEFT + PLOT_W, TOP + PLOT_H);
        let (yt, yd) = ticks(f.y.0, f.y.1, 5, 0.0);
        for v in yt {
            let y = f.py(v);
            svg.line((LEFT, y), (right, y), "#e0e0e0", &[]);
            svg.text(LEFT - 6.0, y + 4.0, "end", &format!("{v:.yd$}"));
        }
        let min_step = if self.integer_x { 1.0 } else { 0.0 };
        let (xt, xd) = ticks(f.x.0, f.x.1, 8, min_step);
        for v in xt {
            let x = f.px(v);
            svg.line((x, bottom), (x, bottom + 5.0), "black", &[]);
            svg.text(x, bottom + 18.0, "middle", &format!("{v:.xd$}"));
        }
        let axes = format!(
            "M{},{} V{} H{}",
            num(LEFT),
            num(TOP),
            num(bottom),
            num(right)
        );
        svg.element(
            "path",
            &[("d", &axes), ("fill", "none"), ("stroke", "black")],
            None,
        );
        svg.text(LEFT + PLOT_W / 2.0, bottom + 40.0, "middle", &self.x_label);
        let (ly, lx) = (num(TOP + PLOT_H / 2.0), num(18.0));
        let rotate = format!("rotate(-90 {lx} {ly})");
        svg.element(
            "text",
            &[
                ("x", &lx),
                ("y", &ly),
                ("text-anchor", "middle"),
                ("transform", &rotate),
            ],
            Some(&self.y_label),
        );
    }

    fn draw_bands(&self, svg: &mut Svg, f: Frame) {
        for b in &self.bands {
            let finite =
                |p: &&(f64, f64, f64)| p.0.is_finite() && p.1.is_finite() && p.2.is_finite();
            let upper = b
                .points
                .iter()
                .filter(finite)
                .map(|p| (f.px(p.0), f.py(p.2)));
            let lower = b
                .points
                .iter()
                .rev()
                .filter(finite)
                .map(|p| (f.px(p.0), f.py(p.1)));
            let pts = points(upper.chain(lower));
            svg.titled(
                "polygon",
                &[
                    ("class", "band"),
                    ("points", &pts),
                    ("fill", &b.colour),
                    ("fill-opacity", "0.25"),
                    ("stroke", "none"),
                ],
                &b.name,
            );
        }
    }

    fn draw_rules(&self, svg: &mut Svg, f: Frame) {
        for r in &self.rules {
            let (y, x1, x2) = (num(f.py(r.y)), num(LEFT), num(LEFT + PLOT_W));
            svg.titled(
                "line",
                &[
                    ("class", "rule"),
                    ("x1", &x1),
                    ("y1", &y),
                    ("x2", &x2),
                    ("y2", &y),
                    ("stroke", "#777"),
                    ("stroke-dasharray", "2,3"),
                ],
                &r.name,
            );
        }
    }

    fn draw_series(&self, svg: &mut Svg, f: Frame) {
        for s in &self.series {
            let finite: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .map(|(x, y)| (f.px(x), f.py(y)))
                .collect();
            let pts = points(finite.iter().copied());
            let dash = if s.dashed { "6,4" } else { "none" };
            svg.titled(
                "polyline",
                &[
                    ("class", "series"),
                    ("points", &pts),
                    ("fill", "none"),
                    ("stroke", &s.colour),
                    ("stroke-width", "2"),
                    ("stroke-dasharray", dash),
                ],
                &s.name,
            );
            if finite.len() <= MARKER_LIMIT {
                for (x, y) in finite {
                    let (cx, cy) = (num(x), num(y));
                    svg.element(
                        "circle",
                        &[
                            ("class", "point"),
                            ("cx", &cx),
                            ("cy", &cy),
                            ("r", "2.5"),
                            ("fill", &s.colour),
                        ],
                        None,
                    );
                }
            }
        }
    }

    /// One line per series, band and rule, starting at `x`.
    fn legend(&self, svg: &mut Svg, x: f64) {
        let mut y = TOP + 8.0;
        for s in &self.series {
            let dash = if s.dashed { "6,4" } else { "none" };
            svg.line(
                (x, y),
                (x + 24.0, y),
                &s.colour,
                &[("stroke-width", "2"), ("stroke-dasharray", dash)],
            );
            svg.text(x + 30.0, y + 4.0, "start", &s.name);
            y += 18.0;
        }
        for b in &self.bands {
            svg.rect(
                (x, y - 6.0),
                (24.0, 12.0),
                &b.colour,
                &[("fill-opacity", "0.25")],
            );
            svg.text(x + 30.0, y + 4.0, "start", &b.name);
            y += 18.0;
        }
        for r in &self.rules {
            svg.line(
                (x, y),
                (x + 24.0, y),
                "#777",
                &[("stroke-dasharray", "2,3")],
            );
            svg.text(x + 30.0, y + 4.0, "start", &r.name);
            y += 18.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{count, parse};
    use super::*;

    fn chart() -> LineChart {
        let mut c = LineChart::new("t <1>", "x", "y");
        c.series.push(Series {
            name: "a".into(),
            colour: "#000".into(),
            points: (0..5).map(|i| (f64::from(i), f64::from(i * i))).collect(),
            dashed: false,
        });
        c.series.push(Series {
            name: "b".into(),
            colour: "#f00".into(),
            points: vec![(0.0, 1.0), (1.0, f64::NAN), (2.0, 3.0)],
            dashed: true,
        });
        c.bands.push(Band {
            name: "band".into(),
            colour: "#00f".into(),
            points: (0..5).map(|i| (f64::from(i), -1.0, 20.0)).collect(),
        });
        c.rules.push(Rule {
            y: 8.0,
            name: "eight".into(),
        });
        c
    }

    #[test]
    fn a_chart_has_its_series_points_bands_and_rules() {
        let s = chart().svg();
        parse(&s);
        assert_eq!(count(&s, "polyline", "series"), 2);
        assert_eq!(
            count(&s, "circle", "point"),
            5 + 2,
            "the NaN point is left out"
        );
        assert_eq!(count(&s, "polygon", "band"), 1);
        assert_eq!(count(&s, "line", "rule"), 1);
        assert!(s.contains("t &lt;1&gt;"));
        assert_eq!(s, chart().svg(), "deterministic");
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let (t, d) = ticks(0.0, 1.0, 5, 0.0);
        let labels: Vec<String> = t.iter().map(|v| format!("{v:.d$}")).collect();
        assert_eq!(labels, ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        let (t, d) = ticks(1900.0, 1930.0, 8, 1.0);
        assert_eq!((t.first(), t.last(), d), (Some(&1900.0), Some(&1930.0), 0));
        assert_eq!(ticks(0.0, 3.0, 8, 1.0).0, vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(widen(0.3, 9.2), (0.0, 10.0));
    }

    #[test]
    fn an_empty_chart_is_still_a_document() {
        let s = LineChart::new("", "", "").svg();
        parse(&s);
        assert_eq!(count(&s, "polyline", "series"), 0);
    }
}
