//! Supply centres by year for `tablero diplomacy play --svg`: one line per power in its
//! conventional colour; for one game its counts, for several the mean per power over the
//! games. A game that ended (a solo) before a year counts its final centres in that year.
//! Year Y is the count after Y's autumn (the adjustments of Y's winter); year 1900 is the
//! start.
//!
//! Imports the Diplomacy core for the standard map's power names only.

use std::collections::BTreeSet;

use super::chart::{LineChart, Rule, Series};

/// One game's history: (year, centres per power in the powers' order) by year.
pub type History = Vec<(i16, Vec<usize>)>;

/// Centres that win the standard game.
const SOLO: f64 = 18.0;

/// The colour a power is conventionally drawn in (the webDiplomacy board's, Russia purple on
/// white paper); other names get the general palette.
pub fn power_colour(power: &str, index: usize) -> &'static str {
    match power {
        "AUS" => "#c0392b",
        "ENG" => "#1f3f99",
        "FRA" => "#4fa3e0",
        "GER" => "#555555",
        "ITA" => "#2e9e44",
        "RUS" => "#8e44ad",
        "TUR" => "#d4a017",
        _ => super::palette(index),
    }
}

/// The counts of `history` in `year`: the year's own, else the last one before it (a game
/// over), else none.
fn at(history: &History, year: i16) -> Option<&[usize]> {
    history
        .iter()
        .rev()
        .find(|(y, _)| *y <= year)
        .map(|(_, c)| c.as_slice())
}

/// Per power, (year, mean centres over `games`) for every year any game reached.
pub fn means(powers: usize, games: &[History]) -> Vec<Vec<(f64, f64)>> {
    let years: BTreeSet<i16> = games.iter().flatten().map(|(y, _)| *y).collect();
    let mut out = vec![Vec::with_capacity(years.len()); powers];
    for &year in &years {
        let rows: Vec<&[usize]> = games.iter().filter_map(|h| at(h, year)).collect();
        if rows.is_empty() {
            continue;
        }
        for (p, line) in out.iter_mut().enumerate() {
            let sum: usize = rows.iter().map(|r| r.get(p).copied().unwrap_or(0)).sum();
            line.push((f64::from(year), sum as f64 / rows.len() as f64));
        }
    }
    out
}

/// The chart of `games` (histories with one count per name of `powers`).
pub fn chart(powers: &[&str], games: &[History]) -> LineChart {
    let title = match games.len() {
        1 => "supply centres by year".to_string(),
        n => format!("mean supply centres by year over {n} games"),
    };
    let y_label = if games.len() == 1 {
        "supply centres"
    } else {
        "mean supply centres"
    };
    let mut c = LineChart::new(&title, "year", y_label);
    c.integer_x = true;
    for (p, points) in means(powers.len(), games).into_iter().enumerate() {
        let name = powers.get(p).copied().unwrap_or("?");
        c.series.push(Series {
            name: name.into(),
            colour: power_colour(name, p).into(),
            points,
            dashed: false,
        });
    }
    c.rules.push(Rule {
        y: SOLO,
        name: "solo (18)".into(),
    });
    c
}

/// [`chart`] as an SVG document.
pub fn svg(powers: &[&str], games: &[History]) -> String {
    chart(powers, games).svg()
}

/// [`svg`] for games on the standard map (its powers, in its order).
pub fn svg_standard(games: &[History]) -> String {
    let map = crate::diplomacy::Map::standard();
    let names: Vec<&str> = (0..map.power_count())
        .map(|p| {
            map.power_name(crate::diplomacy::Power(p as u8))
                .unwrap_or("?")
        })
        .collect();
    svg(&names, games)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{count, parse};
    use super::*;

    const POWERS: [&str; 7] = ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"];

    fn game(years: i16, grow: usize) -> History {
        (0..years)
            .map(|i| {
                let mut c = vec![3, 3, 3, 3, 3, 4, 3];
                c[0] += grow * i as usize;
                (1900 + i, c)
            })
            .collect()
    }

    #[test]
    fn one_game_draws_one_line_per_power_and_year() {
        let s = svg(&POWERS, &[game(5, 1)]);
        parse(&s);
        assert_eq!(count(&s, "polyline", "series"), 7);
        assert_eq!(count(&s, "circle", "point"), 7 * 5);
        assert_eq!(count(&s, "line", "rule"), 1);
        assert!(s.contains("#8e44ad"), "Russia's colour");
        assert_eq!(s, svg(&POWERS, &[game(5, 1)]));
    }

    #[test]
    fn several_games_average_and_finished_games_keep_their_last_counts() {
        let m = means(7, &[game(3, 2), game(5, 0)]);
        assert_eq!(m.len(), 7);
        assert_eq!(m[0].len(), 5);
        // 1902: (3 + 4) and 3 → 5; 1904: the first game ended in 1902 with 7.
        assert_eq!(m[0][2], (1902.0, 5.0));
        assert_eq!(m[0][4], (1904.0, 5.0));
        assert_eq!(m[5][0], (1900.0, 4.0));
        let c = chart(&POWERS, &[game(3, 2), game(5, 0)]);
        assert!(c.title.contains("over 2 games"));
    }
}
