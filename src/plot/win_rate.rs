//! The win-rate curve of `tablero match --svg`: the first engine's score (wins plus half the
//! draws, over the games played) after each game, its 95 % Wilson interval as a band, and the
//! 50 % line.

use super::chart::{Band, LineChart, Rule, Series};
use crate::tournament::go_match::GameRecord;
use crate::tournament::stats::wilson95;

/// The first engine's (`--black`'s) result in each game, in game order: 1 for a win, 0.5 for
/// a draw, 0 for a loss.
pub fn first_engine_results(records: &[GameRecord]) -> Vec<f64> {
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.game);
    sorted
        .iter()
        .map(|r| match r.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        })
        .collect()
}

/// (games played, score, Wilson 95 % interval) after each game of `results`.
pub fn curve(results: &[f64]) -> Vec<(usize, f64, [f64; 2])> {
    let mut won = 0.0;
    results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            won += r;
            let n = (i + 1) as f64;
            (i + 1, won / n, wilson95(won, n))
        })
        .collect()
}

/// Longest engine name shown in the title, in characters.
const NAME_CHARS: usize = 60;

/// An engine's command line as the title shows it: the program without its folder, the
/// whole cut to [`NAME_CHARS`] characters with an ellipsis.
fn short(command: &str) -> String {
    let command = command.trim();
    let (program, rest) = command.split_once(' ').unwrap_or((command, ""));
    let program = program.rsplit('/').next().unwrap_or(program);
    let name = format!("{program} {rest}");
    let name = name.trim_end();
    if name.chars().count() <= NAME_CHARS {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(NAME_CHARS - 1).collect();
        s.push('…');
        s
    }
}

/// The chart of the first engine's score after each game; `first` and `second` name the
/// engines.
pub fn chart(first: &str, second: &str, results: &[f64]) -> LineChart {
    let points = curve(results);
    let mut c = LineChart::new(
        &format!("{} against {}", short(first), short(second)),
        "games played",
        "score of the first engine",
    );
    c.y_range = Some((0.0, 1.0));
    c.integer_x = true;
    c.bands.push(Band {
        name: "95 % Wilson interval".into(),
        colour: "#4e79a7".into(),
        points: points
            .iter()
            .map(|&(n, _, [lo, hi])| (n as f64, lo, hi))
            .collect(),
    });
    c.series.push(Series {
        name: "score (wins + draws/2)".into(),
        colour: "#1f3f7a".into(),
        points: points.iter().map(|&(n, s, _)| (n as f64, s)).collect(),
        dashed: false,
    });
    c.rules.push(Rule {
        y: 0.5,
        name: "50 %".into(),
    });
    c
}

/// [`chart`] as an SVG document.
pub fn svg(first: &str, second: &str, results: &[f64]) -> String {
    chart(first, second, results).svg()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{count, parse};
    use super::*;

    #[test]
    fn the_band_holds_the_curve_and_narrows() {
        let results: Vec<f64> = (0..40).map(|i| f64::from(u8::from(i % 3 != 0))).collect();
        let pts = curve(&results);
        assert_eq!(pts.len(), 40);
        for &(_, s, [lo, hi]) in &pts {
            assert!(lo <= s && s <= hi, "{lo} <= {s} <= {hi}");
        }
        let width = |i: usize| pts[i].2[1] - pts[i].2[0];
        assert!(width(39) < width(4));
        assert!((pts[39].1 - 26.0 / 40.0).abs() < 1e-12);
        let c = chart("a", "b", &results);
        for (band, line) in c.bands[0].points.iter().zip(&c.series[0].points) {
            assert_eq!(band.0, line.0);
            assert!(band.1 <= line.1 && line.1 <= band.2);
        }
    }

    #[test]
    fn the_svg_has_one_curve_one_band_and_the_half_line() {
        let s = svg("tablero <A>", "gnugo", &[1.0, 0.5, 0.0]);
        parse(&s);
        assert_eq!(count(&s, "polyline", "series"), 1);
        assert_eq!(count(&s, "circle", "point"), 3);
        assert_eq!(count(&s, "polygon", "band"), 1);
        assert_eq!(count(&s, "line", "rule"), 1);
        assert!(s.contains("tablero &lt;A&gt; against gnugo"));
        assert_eq!(s, svg("tablero <A>", "gnugo", &[1.0, 0.5, 0.0]));
        let long = format!("/usr/bin/gnugo --mode gtp {}", "x".repeat(100));
        let title = chart(&long, "/opt/b", &[]).title;
        assert!(title.starts_with("gnugo --mode gtp x"), "{title}");
        assert_eq!(title.chars().count(), NAME_CHARS + " against b".len());
    }

    #[test]
    fn results_follow_the_game_order_and_draws_count_half() {
        let rec = |game, winner| {
            let mut r = GameRecord::empty(game, game % 2);
            r.winner = winner;
            r
        };
        let recs = [rec(2, None), rec(0, Some(1)), rec(1, Some(0))];
        assert_eq!(first_engine_results(&recs), [0.0, 1.0, 0.5]);
    }
}
