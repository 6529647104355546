//! Typed Diplomacy game model: powers, provinces, coasts, units, locations,
//! orders and turns. Pure data; names live in the [`Map`](super::map::Map).

use std::fmt;

/// A power: index into the map's power list (the server's order, never assumed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Power(pub u8);

/// A province: index into the map's province list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Province(pub u16);

/// The eight coasts DAIDE can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Coast {
    /// North coast.
    North,
    /// North-east coast.
    NorthEast,
    /// East coast.
    East,
    /// South-east coast.
    SouthEast,
    /// South coast.
    South,
    /// South-west coast.
    SouthWest,
    /// West coast.
    West,
    /// North-west coast.
    NorthWest,
}

impl Coast {
    /// All coasts.
    pub const ALL: [Coast; 8] = [
        Coast::North,
        Coast::NorthEast,
        Coast::East,
        Coast::SouthEast,
        Coast::South,
        Coast::SouthWest,
        Coast::West,
        Coast::NorthWest,
    ];

    /// Conventional abbreviation (`NC`, `NEC`, …).
    pub fn abbrev(self) -> &'static str {
        match self {
            Coast::North => "NC",
            Coast::NorthEast => "NEC",
            Coast::East => "EC",
            Coast::SouthEast => "SEC",
            Coast::South => "SC",
            Coast::SouthWest => "SWC",
            Coast::West => "WC",
            Coast::NorthWest => "NWC",
        }
    }
}

/// What kind of terrain a province is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProvinceKind {
    /// Land without coast: armies only.
    Inland,
    /// Water: fleets only.
    Sea,
    /// Land with one coast: armies and fleets.
    Coastal,
    /// Land with several named coasts: armies, and fleets on a named coast.
    Bicoastal,
}

/// Army or fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitType {
    /// Moves over land.
    Army,
    /// Moves over sea and coasts.
    Fleet,
}

/// A place a unit can stand: a province, with a coast for fleets in
/// multi-coast provinces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// The province.
    pub province: Province,
    /// The coast, for fleets in multi-coast provinces only.
    pub coast: Option<Coast>,
}

impl Location {
    /// A location without coast.
    pub fn new(province: Province) -> Self {
        Location {
            province,
            coast: None,
        }
    }
    /// A location on a named coast.
    pub fn with_coast(province: Province, coast: Coast) -> Self {
        Location {
            province,
            coast: Some(coast),
        }
    }
}

impl From<Province> for Location {
    fn from(p: Province) -> Self {
        Location::new(p)
    }
}

/// A unit on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit {
    /// Owner.
    pub power: Power,
    /// Army or fleet.
    pub kind: UnitType,
    /// Where it stands.
    pub location: Location,
}

/// The five seasons (phases) of a Diplomacy year, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Season {
    /// Spring movement.
    Spring,
    /// Spring retreats.
    Summer,
    /// Fall movement.
    Fall,
    /// Fall retreats.
    Autumn,
    /// Adjustments.
    Winter,
}

/// What orders a season takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhaseKind {
    /// Hold, move, support, convoy.
    Movement,
    /// Retreat or disband.
    Retreat,
    /// Build, remove, waive.
    Adjustment,
}

impl Season {
    /// The kind of orders this season takes.
    pub fn kind(self) -> PhaseKind {
        match self {
            Season::Spring | Season::Fall => PhaseKind::Movement,
            Season::Summer | Season::Autumn => PhaseKind::Retreat,
            Season::Winter => PhaseKind::Adjustment,
        }
    }
}

/// A turn: season and year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Phase {
    /// Year (e.g. 1901).
    pub year: i16,
    /// Season.
    pub season: Season,
}

impl Phase {
    /// The phase that follows in the calendar (no phase is skipped here; the
    /// game decides which are skipped).
    pub fn next(self) -> Phase {
        let (season, year) = match self.season {
            Season::Spring => (Season::Summer, self.year),
            Season::Summer => (Season::Fall, self.year),
            Season::Fall => (Season::Autumn, self.year),
            Season::Autumn => (Season::Winter, self.year),
            Season::Winter => (Season::Spring, self.year.saturating_add(1)),
        };
        Phase { year, season }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.season {
            Season::Spring => "S",
            Season::Summer => "S",
            Season::Fall => "F",
            Season::Autumn => "F",
            Season::Winter => "W",
        };
        let k = match self.season.kind() {
            PhaseKind::Movement => "M",
            PhaseKind::Retreat => "R",
            PhaseKind::Adjustment => "A",
        };
        write!(f, "{s}{}{k}", self.year)
    }
}

/// An order, for any phase.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Order {
    /// Stay.
    Hold(Unit),
    /// Move; `via` lists convoying seas when the army asked for a convoy (CTO … VIA).
    Move {
        /// The moving unit.
        unit: Unit,
        /// Destination.
        to: Location,
        /// Explicit convoy route, if any.
        via: Option<Vec<Province>>,
    },
    /// Support a unit holding (or doing anything but moving).
    SupportHold {
        /// The supporter.
        unit: Unit,
        /// The supported unit.
        supported: Unit,
    },
    /// Support a move into a province (coasts are not named).
    SupportMove {
        /// The supporter.
        unit: Unit,
        /// The supported unit.
        supported: Unit,
        /// Where it moves.
        to: Province,
    },
    /// A fleet convoys an army.
    Convoy {
        /// The convoying fleet.
        unit: Unit,
        /// The convoyed army.
        army: Unit,
        /// The army's destination.
        to: Province,
    },
    /// Retreat to a location.
    Retreat {
        /// The dislodged unit.
        unit: Unit,
        /// Where it goes.
        to: Location,
    },
    /// Disband a dislodged unit.
    Disband(Unit),
    /// Build a unit.
    Build(Unit),
    /// Remove a unit in adjustments.
    Remove(Unit),
    /// Waive one build.
    Waive(Power),
}

impl Order {
    /// The unit ordered (none for a waive).
    pub fn unit(&self) -> Option<&Unit> {
        match self {
            Order::Hold(u)
            | Order::Disband(u)
            | Order::Build(u)
            | Order::Remove(u)
            | Order::Move { unit: u, .. }
            | Order::SupportHold { unit: u, .. }
            | Order::SupportMove { unit: u, .. }
            | Order::Convoy { unit: u, .. }
            | Order::Retreat { unit: u, .. } => Some(u),
            Order::Waive(_) => None,
        }
    }

    /// The power giving the order.
    pub fn power(&self) -> Power {
        match self {
            Order::Waive(p) => *p,
            other => other.unit().map(|u| u.power).unwrap_or(Power(0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_cycles() {
        let mut p = Phase {
            year: 1901,
            season: Season::Spring,
        };
        let mut seen = Vec::new();
        for _ in 0..6 {
            seen.push(p.to_string());
            p = p.next();
        }
        assert_eq!(
            seen,
            ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]
        );
        assert_eq!(Season::Winter.kind(), PhaseKind::Adjustment);
    }
}
