//! Run reports: the per-generation CSV, the hand-written fitness-curve SVG, and the files a
//! `tablero evolve` run leaves in its output directory. This is the only part of `evolve`
//! that does I/O.

use std::fmt::Write as _;
use std::path::Path;

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
    let (w, h) = (640.0, 400.0);
    let (l, r, t, b) = (60.0, 20.0, 40.0, 50.0);
    let gmax = points
        .iter()
        .map(|p| p.generation)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for p in points {
        for v in [p.best, p.mean - p.std, p.mean + p.std, p.best_ever] {
            if v.is_finite() {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let x = |g: usize| l + (w - l - r) * g as f64 / gmax;
    let y = |v: f64| t + (h - t - b) * (1.0 - (v - lo) / (hi - lo));
    let line = |f: &dyn Fn(&CurvePoint) -> f64| {
        points
            .iter()
            .map(|p| format!("{:.1},{:.1}", x(p.generation), y(f(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
        w / 2.0,
        escape(title)
    );
    // Axes and ticks.
    let _ = writeln!(
        s,
        r#"<path d="M{l},{t} V{} H{}" fill="none" stroke="black"/>"#,
        h - b,
        w - r
    );
    for i in 0..=4 {
        let v = lo + (hi - lo) * f64::from(i) / 4.0;
        let _ = writeln!(
            s,
            r##"<line x1="{l}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{v:.2}</text>"##,
            w - r,
            l - 6.0,
            y(v) + 4.0,
            y = y(v)
        );
        let g = (gmax * f64::from(i) / 4.0).round() as usize;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{g}</text>"#,
            x(g),
            h - b + 18.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">generation</text>"#,
        (l + w - r) / 2.0,
        h - 12.0
    );
    // ±std band.
    let upper: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.generation), y(p.mean + p.std)))
        .collect();
    let lower: Vec<String> = points
        .iter()
        .rev()
        .map(|p| format!("{:.1},{:.1}", x(p.generation), y(p.mean - p.std)))
        .collect();
    let _ = writeln!(
        s,
        r##"<polygon points="{} {}" fill="#9ecae1" fill-opacity="0.4" stroke="none"/>"##,
        upper.join(" "),
        lower.join(" ")
    );
    for (name, color, f, dash) in [
        (
            "mean ± std",
            "#3182bd",
            (|p: &CurvePoint| p.mean) as fn(&CurvePoint) -> f64,
            "",
        ),
        ("best of generation", "#e6550d", |p: &CurvePoint| p.best, ""),
        ("best ever", "#31a354", |p: &CurvePoint| p.best_ever, "5,4"),
    ] {
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2" stroke-dasharray="{dash}"><title>{name}</title></polyline>"#,
            line(&f)
        );
    }
    for (i, (name, color)) in [
        ("best ever", "#31a354"),
        ("best of generation", "#e6550d"),
        ("mean ± std", "#3182bd"),
    ]
    .iter()
    .enumerate()
    {
        let yy = t + 14.0 + 16.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" x2="{}" y1="{yy}" y2="{yy}" stroke="{color}" stroke-width="2"/><text x="{}" y="{}">{name}</text>"#,
            w - r - 150.0,
            w - r - 130.0,
            w - r - 125.0,
            yy + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("a &lt;b&gt;"));
        assert_eq!(s.matches("<polyline").count(), 3);
    }
}
