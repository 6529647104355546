//! Run reports: the per-generation CSV, the fitness-curve SVG (a [`crate::plot::chart`]), and the files a
//! `tablero evolve` run leaves in its output directory. This is the only part of `evolve`
//! that does I/O.

use std::fmt::Write as _;
use std::path::Path;

use crate::plot::chart::{Band, LineChart, Series};

/// A point of a fitness curve: (generation, best, mean, std, best ever).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    pub generation: usize,
    pub best: f64,
    pub mean: f64,
    pub std: f64,
    pub best_ever: f64,
}

impl CurvePoint {
    /// The point of one generation from its fitness statistics.
    pub fn new(generation: usize, stats: &crate::evolve::ga::Stats, best_ever: f64) -> Self {
        CurvePoint {
            generation,
            best: stats.best,
            mean: stats.mean,
            std: stats.std,
            best_ever,
        }
    }
}

/// `generation,best,mean,std,best_ever` with a header.
pub fn csv(points: &[CurvePoint]) -> String {
    let mut s = String::from("generation,best,mean,std,best_ever\n");
    for p in points {
        let _ = writeln!(
            s,
            "{},{:.6},{:.6},{:.6},{:.6}",
            p.generation, p.best, p.mean, p.std, p.best_ever
        );
    }
    s
}

/// A line chart of best, mean (with a ±std band) and best-ever fitness per generation.
pub fn svg(title: &str, points: &[CurvePoint]) -> String {
    let line = |name: &str, colour: &str, f: fn(&CurvePoint) -> f64, dashed| Series {
        name: name.into(),
        colour: colour.into(),
        points: points.iter().map(|p| (p.generation as f64, f(p))).collect(),
        dashed,
    };
    let mut chart = LineChart::new(title, "generation", "fitness");
    chart.integer_x = true;
    chart.bands.push(Band {
        name: "mean ± std".into(),
        colour: "#9ecae1".into(),
        points: points
            .iter()
            .map(|p| (p.generation as f64, p.mean - p.std, p.mean + p.std))
            .collect(),
    });
    chart.series = vec![
        line("best ever", "#31a354", |p| p.best_ever, true),
        line("best of generation", "#e6550d", |p| p.best, false),
        line("mean", "#3182bd", |p| p.mean, false),
    ];
    chart.svg()
}

/// Write `text` to `dir/name`, creating `dir`.
pub fn write(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(name), text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_and_svg() {
        let pts: Vec<CurvePoint> = (0..5)
            .map(|g| CurvePoint {
                generation: g,
                best: g as f64,
                mean: g as f64 / 2.0,
                std: 0.5,
                best_ever: g as f64,
            })
            .collect();
        let c = csv(&pts);
        assert_eq!(c.lines().count(), 6);
        assert!(c.lines().nth(2).unwrap().starts_with("1,1.000000,0.500000"));
        let s = svg("a <b>", &pts);
        crate::plot::testing::parse(&s);
        assert!(s.contains("a &lt;b&gt;"));
        assert_eq!(crate::plot::testing::count(&s, "polyline", "series"), 3);
        assert_eq!(crate::plot::testing::count(&s, "polygon", "band"), 1);
        assert_eq!(s, svg("a <b>", &pts));
    }
}
