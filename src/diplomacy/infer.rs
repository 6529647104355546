//! What two successive positions show of a movement phase: where each unit
//! ended.
//!
//! Every server shows every position (DAIDE `NOW`), but not every server
//! reports every power's orders (`ORD`). Between the position a movement
//! phase was ordered in and the next position (the retreat phase that
//! follows it, or the phase after that), each unit either moved to a
//! province it can reach, or stayed: a failed move, a hold, a support and a
//! convoy all look alike, and a dislodged unit is listed (with its retreat
//! options) where it stood. [`infer_outcomes`] reconstructs the successful
//! moves by matching each power's units before to its units after; builds,
//! which appear only in an adjustment phase's successor, match nothing and
//! are ignored.

use super::judge::Dislodgement;
use super::map::Map;
use super::model::{Location, Order, ProvinceKind, Unit, UnitType};

/// Where a unit ended a movement phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// It is where it was (it held, supported, convoyed, failed to move or
    /// was dislodged).
    Stayed,
    /// It moved to this location.
    Moved(Location),
}

impl Outcome {
    /// The order that reproduces this outcome for `unit` if nothing
    /// interferes: a move to where it went, else a hold.
    pub fn as_order(self, unit: Unit) -> Order {
        match self {
            Outcome::Stayed => Order::Hold(unit),
            Outcome::Moved(to) => Order::Move {
                unit,
                to,
                via: None,
            },
        }
    }
}

/// A unit after the phase, and whether it was dislodged (listed at the
/// location it was dislodged from).
#[derive(Debug, Clone, Copy)]
struct After {
    unit: Unit,
    dislodged: bool,
}

/// The outcome of every unit in `before` (same order), given the units on
/// the board after the phase and the units it dislodged; `None` for a unit
/// no unit after can be (not seen when `after` directly follows the
/// movement phase).
///
/// A unit matches a unit of the same power and type after the phase: in
/// the same province (it stayed), or, not dislodged, in a province it can
/// move to (armies also between two coastal provinces, by convoy, when no
/// direct move explains them). Stays are taken first; the units left move
/// along augmenting paths, so a column that advanced (`A BER-MUN`,
/// `A MUN-BUR`) is read as two moves.
pub fn infer_outcomes(
    map: &Map,
    before: &[Unit],
    after: &[Unit],
    dislodged: &[Dislodgement],
) -> Vec<Option<Outcome>> {
    let after: Vec<After> = after
        .iter()
        .map(|u| After {
            unit: *u,
            dislodged: false,
        })
        .chain(dislodged.iter().map(|d| After {
            unit: d.unit,
            dislodged: true,
        }))
        .collect();
    let mut matching = Matching {
        map,
        before,
        after: &after,
        of_after: vec![None; after.len()],
        of_before: vec![None; before.len()],
    };
    for (b, u) in before.iter().enumerate() {
        let stay = after.iter().enumerate().position(|(a, x)| {
            matching.of_after[a].is_none()
                && same_kind(u, &x.unit)
                && x.unit.location.province == u.location.province
        });
        if let Some(a) = stay {
            matching.of_after[a] = Some(b);
            matching.of_before[b] = Some(a);
        }
    }
    for convoy in [false, true] {
        for b in 0..before.len() {
            if matching.of_before[b].is_none() {
                let mut visited = vec![false; after.len()];
                matching.augment(b, convoy, &mut visited);
            }
        }
    }
    before
        .iter()
        .zip(&matching.of_before)
        .map(|(u, a)| {
            a.map(|a| {
                let to = after[a].unit.location;
                if to.province == u.location.province {
                    Outcome::Stayed
                } else {
                    Outcome::Moved(to)
                }
            })
        })
        .collect()
}

fn same_kind(a: &Unit, b: &Unit) -> bool {
    a.power == b.power && a.kind == b.kind
}

/// A bipartite matching of units before to units after.
struct Matching<'a> {
    map: &'a Map,
    before: &'a [Unit],
    after: &'a [After],
    of_after: Vec<Option<usize>>,
    of_before: Vec<Option<usize>>,
}

impl Matching<'_> {
    /// Whether `b` can be the unit `a` after the phase.
    fn edge(&self, b: usize, a: usize, convoy: bool) -> bool {
        let (u, x) = (&self.before[b], &self.after[a]);
        if !same_kind(u, &x.unit) {
            return false;
        }
        if x.unit.location.province == u.location.province {
            return true;
        }
        if x.dislodged {
            return false;
        }
        if self.map.can_move(u.kind, u.location, x.unit.location) {
            return true;
        }
        convoy
            && u.kind == UnitType::Army
            && self.coastal(u.location)
            && self.coastal(x.unit.location)
    }

    fn coastal(&self, l: Location) -> bool {
        self.map
            .info(l.province)
            .is_some_and(|i| matches!(i.kind, ProvinceKind::Coastal | ProvinceKind::Bicoastal))
    }

    /// Kuhn's augmenting path from the unmatched `b`, taking a free unit
    /// after the phase before moving a matched one on (so that stays are
    /// kept wherever a shorter explanation exists).
    fn augment(&mut self, b: usize, convoy: bool, visited: &mut [bool]) -> bool {
        let free = (0..self.after.len())
            .find(|&a| !visited[a] && self.of_after[a].is_none() && self.edge(b, a, convoy));
        if let Some(a) = free {
            visited[a] = true;
            self.link(b, a);
            return true;
        }
        for a in 0..self.after.len() {
            if visited[a] || !self.edge(b, a, convoy) {
                continue;
            }
            visited[a] = true;
            if let Some(other) = self.of_after[a]
                && self.augment(other, convoy, visited)
            {
                self.link(b, a);
                return true;
            }
        }
        false
    }

    fn link(&mut self, b: usize, a: usize) {
        self.of_after[a] = Some(b);
        self.of_before[b] = Some(a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::model::{Coast, Power};

    fn unit(map: &Map, power: &str, kind: UnitType, at: &str) -> Unit {
        let (name, coast) = match at.split_once('/') {
            Some((p, "NC")) => (p, Some(Coast::North)),
            Some((p, _)) => (p, Some(Coast::South)),
            None => (at, None),
        };
        Unit {
            power: map.power(power).unwrap_or(Power(0)),
            kind,
            location: Location {
                province: map.province(name).unwrap(),
                coast,
            },
        }
    }

    fn army(map: &Map, power: &str, at: &str) -> Unit {
        unit(map, power, UnitType::Army, at)
    }

    fn fleet(map: &Map, power: &str, at: &str) -> Unit {
        unit(map, power, UnitType::Fleet, at)
    }

    fn moved(map: &Map, to: &str) -> Option<Outcome> {
        Some(Outcome::Moved(Location::new(map.province(to).unwrap())))
    }

    #[test]
    fn moves_and_stays() {
        let map = Map::standard();
        let before = [
            army(&map, "GER", "MUN"),
            army(&map, "GER", "BER"),
            fleet(&map, "GER", "KIE"),
            army(&map, "FRA", "PAR"),
            fleet(&map, "ENG", "LON"),
        ];
        // Germany advances in a column (BER-MUN, MUN-BUR), KIE holds; Paris
        // holds; London goes to the Channel.
        let after = [
            army(&map, "GER", "BUR"),
            army(&map, "GER", "MUN"),
            fleet(&map, "GER", "KIE"),
            army(&map, "FRA", "PAR"),
            fleet(&map, "ENG", "ECH"),
        ];
        let out = infer_outcomes(&map, &before, &after, &[]);
        assert_eq!(
            out,
            vec![
                moved(&map, "BUR"),
                moved(&map, "MUN"),
                Some(Outcome::Stayed),
                Some(Outcome::Stayed),
                moved(&map, "ECH"),
            ]
        );
    }

    #[test]
    fn dislodged_units_stayed_and_their_dislodgers_moved() {
        let map = Map::standard();
        let before = [
            army(&map, "AUS", "BUD"),
            army(&map, "AUS", "GAL"),
            army(&map, "RUS", "RUM"),
        ];
        // A GAL S A BUD-RUM dislodges the Russian army.
        let after = [army(&map, "AUS", "GAL"), army(&map, "AUS", "RUM")];
        let out = Dislodgement {
            unit: army(&map, "RUS", "RUM"),
            attacker_from: None,
            retreats: vec![Location::new(map.province("UKR").unwrap())],
        };
        let outcomes = infer_outcomes(&map, &before, &after, &[out]);
        assert_eq!(
            outcomes,
            vec![
                moved(&map, "RUM"),
                Some(Outcome::Stayed),
                Some(Outcome::Stayed)
            ]
        );
        // A dislodged unit never reads as a move, even next to an empty
        // province it could have gone to.
        let before = [army(&map, "RUS", "WAR")];
        let out = Dislodgement {
            unit: army(&map, "RUS", "WAR"),
            attacker_from: None,
            retreats: vec![],
        };
        assert_eq!(
            infer_outcomes(&map, &before, &[], &[out]),
            vec![Some(Outcome::Stayed)]
        );
    }

    #[test]
    fn builds_do_not_count_and_other_powers_units_do_not_match() {
        let map = Map::standard();
        let before = [army(&map, "GER", "MUN"), fleet(&map, "RUS", "STP/SC")];
        // A new German army in Berlin (a build) and a Russian army in Munich's
        // neighbour Bohemia (not German) explain nothing; the fleet goes to
        // the Gulf of Bothnia on its south coast.
        let after = [
            army(&map, "GER", "MUN"),
            army(&map, "GER", "BER"),
            army(&map, "RUS", "BOH"),
            fleet(&map, "RUS", "GOB"),
        ];
        assert_eq!(
            infer_outcomes(&map, &before, &after, &[]),
            vec![Some(Outcome::Stayed), moved(&map, "GOB")]
        );
        // A unit that left and that no unit after can be is unknown.
        let before = [army(&map, "GER", "MUN")];
        let after = [army(&map, "GER", "PAR")];
        assert_eq!(infer_outcomes(&map, &before, &after, &[]), vec![None]);
    }

    #[test]
    fn convoyed_armies_move_between_coasts() {
        let map = Map::standard();
        let before = [army(&map, "ENG", "LON"), fleet(&map, "ENG", "NTH")];
        let after = [army(&map, "ENG", "NWY"), fleet(&map, "ENG", "NTH")];
        assert_eq!(
            infer_outcomes(&map, &before, &after, &[]),
            vec![moved(&map, "NWY"), Some(Outcome::Stayed)]
        );
    }
}
