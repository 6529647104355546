//! Game state and phase sequencing: the position (units, centre owners,
//! dislodged units), the current phase, and the transitions between phases
//! with the standard skips (no retreat phase without dislodged units, no
//! adjustment phase when nobody adjusts), ownership updates after the fall,
//! elimination and solo detection.
//!
//! Orders come in per phase as one list for all powers; missing orders follow
//! the rules (units hold, dislodged units disband, missing removals go by
//! civil disorder, missing builds are waived).

use std::collections::HashMap;

use super::judge::{Dislodgement, JudgeError, MovementOutcome, Rules, adjudicate_movement};
use super::map::Map;
use super::model::{Order, Phase, PhaseKind, Power, Province, Season, Unit};
use super::phases::{
    AdjustmentOutcome, RetreatOutcome, adjudicate_adjustments, adjudicate_retreats,
    adjustment_delta, initial_ownership, update_ownership,
};

/// What one processed phase produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhaseReport {
    /// A movement phase.
    Movement(MovementOutcome),
    /// A retreat phase.
    Retreat(RetreatOutcome),
    /// An adjustment phase.
    Adjustment(AdjustmentOutcome),
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Game {
    map: std::sync::Arc<Map>,
    rules: Rules,
    phase: Phase,
    units: Vec<Unit>,
    owners: HashMap<Province, Power>,
    dislodged: Vec<Dislodgement>,
}

impl Game {
    /// The standard game: the standard map and its opening position in Spring 1901.
    pub fn standard(rules: Rules) -> Game {
        let map = Map::standard();
        let units = standard_opening(&map);
        let spring_1901 = Phase {
            year: 1901,
            season: Season::Spring,
        };
        // The standard opening is a valid position on the standard map, so `new` cannot fail.
        match Game::new(map, spring_1901, units, rules) {
            Ok(game) => game,
            Err(e) => unreachable!("the standard opening is invalid: {e}"),
        }
    }

    /// A game on `map` at `phase` with the given units and initial ownership
    /// (home centres owned by their powers).
    pub fn new(map: Map, phase: Phase, units: Vec<Unit>, rules: Rules) -> Result<Game, JudgeError> {
        // Validate the position once.
        adjudicate_movement(&map, &units, &[], rules)?;
        let owners = initial_ownership(&map);
        Ok(Game {
            map: std::sync::Arc::new(map),
            rules,
            phase,
            units,
            owners,
            dislodged: Vec::new(),
        })
    }

    /// A game from an arbitrary position (e.g. a server's NOW and SCO).
    pub fn from_position(
        map: Map,
        phase: Phase,
        units: Vec<Unit>,
        owners: HashMap<Province, Power>,
        dislodged: Vec<Dislodgement>,
        rules: Rules,
    ) -> Result<Game, JudgeError> {
        adjudicate_movement(&map, &units, &[], rules)?;
        Ok(Game {
            map: std::sync::Arc::new(map),
            rules,
            phase,
            units,
            owners,
            dislodged,
        })
    }

    /// The map.
    pub fn map(&self) -> &Map {
        &self.map
    }
    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Units on the board (dislodged ones excluded).
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// Units that must retreat this phase.
    pub fn dislodged(&self) -> &[Dislodgement] {
        &self.dislodged
    }
    /// Supply-centre owners.
    pub fn owners(&self) -> &HashMap<Province, Power> {
        &self.owners
    }

    /// Centres owned by `power`.
    pub fn centre_count(&self, power: Power) -> usize {
        self.owners.values().filter(|p| **p == power).count()
    }

    /// Builds (> 0) or removals (< 0) owed by `power` in an adjustment phase.
    pub fn adjustment(&self, power: Power) -> i32 {
        adjustment_delta(&self.units, &self.owners, power)
    }

    /// Whether `power` has neither centres nor units.
    pub fn is_eliminated(&self, power: Power) -> bool {
        self.centre_count(power) == 0
            && !self.units.iter().any(|u| u.power == power)
            && !self.dislodged.iter().any(|d| d.unit.power == power)
    }

    /// The number of centres needed for a solo ([`Map::solo_threshold`]).
    pub fn solo_threshold(&self) -> usize {
        self.map.solo_threshold()
    }

    /// The power with a solo victory, if any.
    pub fn solo_winner(&self) -> Option<Power> {
        let need = self.solo_threshold();
        self.map
            .powers()
            .map(|(p, _)| p)
            .find(|p| self.centre_count(*p) >= need)
    }

    /// Processes the current phase with `orders` (all powers) and moves on to
    /// the next phase that needs orders.
    pub fn process(&mut self, orders: &[Order]) -> Result<PhaseReport, JudgeError> {
        let report = match self.phase.season.kind() {
            PhaseKind::Movement => {
                let out = adjudicate_movement(&self.map, &self.units, orders, self.rules)?;
                self.units = out.units.clone();
                self.dislodged = out.dislodged.clone();
                PhaseReport::Movement(out)
            }
            PhaseKind::Retreat => {
                let out = adjudicate_retreats(&self.dislodged, orders);
                self.units.extend(out.retreated.iter().copied());
                self.units.sort();
                self.dislodged.clear();
                PhaseReport::Retreat(out)
            }
            PhaseKind::Adjustment => {
                let out = adjudicate_adjustments(
                    &self.map,
                    &self.units,
                    &self.owners,
                    orders,
                    self.rules,
                );
                self.units = out.units.clone();
                PhaseReport::Adjustment(out)
            }
        };
        self.advance();
        Ok(report)
    }

    /// Moves to the next phase that needs orders, applying the fall ownership
    /// update on the way.
    fn advance(&mut self) {
        loop {
            let leaving = self.phase;
            // Ownership changes once the fall is over (after its retreats).
            if leaving.season == Season::Autumn
                || (leaving.season == Season::Fall && self.dislodged.is_empty())
            {
                update_ownership(&self.map, &self.units, &mut self.owners);
            }
            self.phase = leaving.next();
            let needed = match self.phase.season.kind() {
                PhaseKind::Movement => true,
                PhaseKind::Retreat => !self.dislodged.is_empty(),
                PhaseKind::Adjustment => self.map.powers().any(|(p, _)| self.adjustment(p) != 0),
            };
            if needed {
                return;
            }
            // A skipped fall-retreat phase must not update ownership twice.
            if self.phase.season == Season::Autumn {
                self.phase = self.phase.next();
                let needed = self.map.powers().any(|(p, _)| self.adjustment(p) != 0);
                if needed {
                    return;
                }
            }
        }
    }
}

/// What a player sees of the game at one phase: enough for a bot to order.
/// Built by the DAIDE client from MDF/HLO/SCO/NOW, or from a [`Game`].
#[derive(Debug, Clone)]
pub struct GameView {
    /// The map.
    pub map: std::sync::Arc<Map>,
    /// The power played (None for an observer).
    pub me: Option<Power>,
    /// The phase to order for.
    pub phase: Phase,
    /// Units on the board (dislodged ones excluded).
    pub units: Vec<Unit>,
    /// Units that must retreat, with their options.
    pub dislodged: Vec<Dislodgement>,
    /// Supply-centre owners.
    pub owners: HashMap<Province, Power>,
}

impl GameView {
    /// Centres owned by `power`.
    pub fn centre_count(&self, power: Power) -> usize {
        self.owners.values().filter(|p| **p == power).count()
    }

    /// Builds (> 0) or removals (< 0) owed by `power`.
    pub fn adjustment(&self, power: Power) -> i32 {
        adjustment_delta(&self.units, &self.owners, power)
    }

    /// Whether `power` has anything to order this phase.
    pub fn needs_orders(&self, power: Power) -> bool {
        match self.phase.season.kind() {
            PhaseKind::Movement => self.units.iter().any(|u| u.power == power),
            PhaseKind::Retreat => self.dislodged.iter().any(|d| d.unit.power == power),
            PhaseKind::Adjustment => self.adjustment(power) != 0,
        }
    }
}

impl Game {
    /// The view of `me` (or an observer) at the current phase.
    pub fn view(&self, me: Option<Power>) -> GameView {
        GameView {
            map: self.map.clone(),
            me,
            phase: self.phase,
            units: self.units.clone(),
            dislodged: self.dislodged.clone(),
            owners: self.owners.clone(),
        }
    }
}

/// The standard opening position (S1901) on the standard map.
pub fn standard_opening(map: &Map) -> Vec<Unit> {
    use super::model::{Coast, Location, UnitType};
    const START: [(&str, &str, &str); 22] = [
        ("AUS", "A", "VIE"),
        ("AUS", "A", "BUD"),
        ("AUS", "F", "TRI"),
        ("ENG", "F", "LON"),
        ("ENG", "F", "EDI"),
        ("ENG", "A", "LVP"),
        ("FRA", "F", "BRE"),
        ("FRA", "A", "PAR"),
        ("FRA", "A", "MAR"),
        ("GER", "F", "KIE"),
        ("GER", "A", "BER"),
        ("GER", "A", "MUN"),
        ("ITA", "F", "NAP"),
        ("ITA", "A", "ROM"),
        ("ITA", "A", "VEN"),
        ("RUS", "A", "WAR"),
        ("RUS", "A", "MOS"),
        ("RUS", "F", "SEV"),
        ("RUS", "F", "STP/SC"),
        ("TUR", "F", "ANK"),
        ("TUR", "A", "CON"),
        ("TUR", "A", "SMY"),
    ];
    START
        .iter()
        .filter_map(|(pw, t, l)| {
            let (prov, coast) = match l.split_once('/') {
                Some((p, _)) => (p, Some(Coast::South)),
                None => (*l, None),
            };
            Some(Unit {
                power: map.power(pw)?,
                kind: if *t == "A" {
                    UnitType::Army
                } else {
                    UnitType::Fleet
                },
                location: Location {
                    province: map.province(prov)?,
                    coast,
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::model::{Location, UnitType};
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn start() -> Game {
        Game::standard(Rules::default())
    }

    #[test]
    fn holding_skips_retreats_and_adjustments() {
        let mut g = start();
        assert_eq!(g.units().len(), 22);
        g.process(&[]).unwrap();
        assert_eq!(g.phase().to_string(), "F1901M");
        g.process(&[]).unwrap();
        assert_eq!(g.phase().to_string(), "S1902M");
        assert_eq!(g.centre_count(g.map().power("RUS").unwrap()), 4);
        assert_eq!(g.solo_threshold(), 18);
        assert_eq!(g.solo_winner(), None);
    }

    #[test]
    fn taking_a_neutral_centre_gives_a_build() {
        let mut g = start();
        let m = g.map().clone();
        let p = |n: &str| m.province(n).unwrap();
        let bud = *g
            .units()
            .iter()
            .find(|u| u.location.province == p("BUD"))
            .unwrap();
        g.process(&[Order::Move {
            unit: bud,
            to: Location::new(p("SER")),
            via: None,
        }])
        .unwrap();
        assert_eq!(g.phase().to_string(), "F1901M");
        // Ownership only changes at the end of the fall.
        assert_eq!(g.centre_count(bud.power), 3);
        g.process(&[]).unwrap();
        assert_eq!(g.phase().to_string(), "W1901A");
        assert_eq!(g.centre_count(bud.power), 4);
        assert_eq!(g.adjustment(bud.power), 1);
        let build = Unit {
            location: Location::new(p("BUD")),
            ..bud
        };
        let PhaseReport::Adjustment(out) = g.process(&[Order::Build(build)]).unwrap() else {
            panic!()
        };
        assert!(out.civil_disorder.is_empty());
        assert_eq!(g.phase().to_string(), "S1902M");
        assert_eq!(g.units().len(), 23);
    }

    #[test]
    fn dislodgement_leads_to_a_retreat_phase() {
        let map = Map::standard();
        let p = |n: &str| map.province(n).unwrap();
        let aus = map.power("AUS").unwrap();
        let rus = map.power("RUS").unwrap();
        let a = |pw, n: &str| Unit {
            power: pw,
            kind: UnitType::Army,
            location: Location::new(p(n)),
        };
        let units = vec![a(aus, "GAL"), a(rus, "UKR"), a(rus, "WAR")];
        let mut g = Game::new(
            map.clone(),
            Phase {
                year: 1901,
                season: Season::Spring,
            },
            units.clone(),
            Rules::default(),
        )
        .unwrap();
        g.process(&[
            Order::Move {
                unit: units[1],
                to: Location::new(p("GAL")),
                via: None,
            },
            Order::SupportMove {
                unit: units[2],
                supported: units[1],
                to: p("GAL"),
            },
        ])
        .unwrap();
        assert_eq!(g.phase().to_string(), "S1901R");
        assert_eq!(g.dislodged().len(), 1);
        g.process(&[Order::Retreat {
            unit: units[0],
            to: Location::new(p("BOH")),
        }])
        .unwrap();
        assert_eq!(g.phase().to_string(), "F1901M");
        assert!(g.units().iter().any(|u| u.location.province == p("BOH")));
    }

    /// Random legal-ish play for a few years keeps the invariants.
    #[test]
    fn random_games_keep_invariants() {
        for seed in 0..3u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut g = start();
            for _ in 0..30 {
                let m = g.map().clone();
                let orders: Vec<Order> = match g.phase().season.kind() {
                    PhaseKind::Movement => g
                        .units()
                        .iter()
                        .map(|u| {
                            let to: Vec<Location> = match u.kind {
                                UnitType::Army => m
                                    .army_neighbours(u.location.province)
                                    .iter()
                                    .map(|p| Location::new(*p))
                                    .collect(),
                                UnitType::Fleet => m.fleet_neighbours(u.location).to_vec(),
                            };
                            match to.choose(&mut rng) {
                                Some(t) if rng.gen_bool(0.8) => Order::Move {
                                    unit: *u,
                                    to: *t,
                                    via: None,
                                },
                                _ => Order::Hold(*u),
                            }
                        })
                        .collect(),
                    PhaseKind::Retreat => g
                        .dislodged()
                        .iter()
                        .map(|d| match d.retreats.choose(&mut rng) {
                            Some(to) => Order::Retreat {
                                unit: d.unit,
                                to: *to,
                            },
                            None => Order::Disband(d.unit),
                        })
                        .collect(),
                    PhaseKind::Adjustment => Vec::new(),
                };
                let before = g.phase();
                g.process(&orders).unwrap();
                assert!(g.phase() > before);
                let mut provs: Vec<_> = g.units().iter().map(|u| u.location.province).collect();
                provs.sort();
                provs.dedup();
                assert_eq!(provs.len(), g.units().len(), "two units in one province");
                if g.phase().season == Season::Spring {
                    for (p, _) in m.powers() {
                        let units = g.units().iter().filter(|u| u.power == p).count();
                        assert!(
                            units <= g.centre_count(p),
                            "more units than centres after winter"
                        );
                    }
                }
            }
        }
    }
}
