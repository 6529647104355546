//! The Diplomacy map: powers, provinces (kind, supply centres, home centres,
//! coasts), army adjacency and fleet adjacency per coast.
//!
//! A [`Map`] is built with a [`MapBuilder`] — from an MDF (the DAIDE layer
//! converts one), from a definition in MDF text syntax
//! ([`Map::parse_definition`]), or the built-in standard map
//! ([`Map::standard`], `standard.mdf`). Nothing else assumes a power order or
//! adjacency. (The `diplomacy` crate's own standard map is *not* used: its
//! 0.2.0 data lacks eleven borders of the standard board, e.g. GAL–UKR and
//! every GOB coast but BAL; a unit test pins the difference.)
//!
//! The map also holds the equivalent `diplomacy` crate map used by the
//! adjudicator ([`super::judge`]); the crate names coasts only N/E/S/W, so each
//! province's coasts are mapped onto those labels by position (a province can
//! have at most four coasts).

use std::collections::{BTreeSet, HashMap};

use diplomacy_judge as dj;
use thiserror::Error;

use super::model::{Coast, Location, Power, Province, ProvinceKind, UnitType};

/// Static facts about one province.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvinceInfo {
    /// Short name (DAIDE: 3 letters, upper case).
    pub name: String,
    /// Terrain kind.
    pub kind: ProvinceKind,
    /// Whether it is a supply centre.
    pub supply_centre: bool,
    /// Powers for which it is a home centre (usually 0 or 1).
    pub home_of: Vec<Power>,
    /// Named coasts (bicoastal provinces only).
    pub coasts: Vec<Coast>,
}

/// Map construction errors.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MapError {
    /// Two provinces or powers with one name.
    #[error("duplicate name {0}")]
    DuplicateName(String),
    /// An index out of range.
    #[error("unknown province or power index {0}")]
    UnknownIndex(usize),
    /// An adjacency between places that cannot hold the unit type.
    #[error("{unit:?} adjacency {from} – {to} is impossible for the terrain")]
    BadAdjacency {
        /// Unit type of the adjacency.
        unit: UnitType,
        /// One end.
        from: String,
        /// Other end.
        to: String,
    },
    /// A fleet location whose coast does not fit the province.
    #[error("fleet location {0} has a missing or unexpected coast")]
    BadCoast(String),
    /// More than four coasts on one province (the adjudicator's limit).
    #[error("province {0} has more than four coasts")]
    TooManyCoasts(String),
    /// A malformed map definition text.
    #[error("bad map definition: {0}")]
    Definition(String),
    /// The adjudicator's map builder refused the map.
    #[error("adjudicator map rejected: {0}")]
    Judge(String),
}

/// Incremental map construction with validation in [`MapBuilder::build`].
#[derive(Debug, Clone, Default)]
pub struct MapBuilder {
    powers: Vec<String>,
    provinces: Vec<ProvinceInfo>,
    army: BTreeSet<(Province, Province)>,
    fleet: BTreeSet<(Location, Location)>,
    /// Explicit token-order keys (see [`MapBuilder::token_key`]).
    token_keys: HashMap<Province, u32>,
}

impl MapBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a power.
    pub fn power(&mut self, name: &str) -> Result<Power, MapError> {
        if self.powers.iter().any(|p| p == name) || self.powers.len() >= u8::MAX as usize {
            return Err(MapError::DuplicateName(name.to_string()));
        }
        self.powers.push(name.to_string());
        Ok(Power((self.powers.len() - 1) as u8))
    }

    /// Adds a province (home centres and coasts are added separately).
    pub fn province(
        &mut self,
        name: &str,
        kind: ProvinceKind,
        supply_centre: bool,
    ) -> Result<Province, MapError> {
        if self.provinces.iter().any(|p| p.name == name)
            || self.provinces.len() >= u16::MAX as usize
        {
            return Err(MapError::DuplicateName(name.to_string()));
        }
        self.provinces.push(ProvinceInfo {
            name: name.to_string(),
            kind,
            supply_centre,
            home_of: Vec::new(),
            coasts: Vec::new(),
        });
        Ok(Province((self.provinces.len() - 1) as u16))
    }

    fn info_mut(&mut self, p: Province) -> Result<&mut ProvinceInfo, MapError> {
        self.provinces
            .get_mut(p.0 as usize)
            .ok_or(MapError::UnknownIndex(p.0 as usize))
    }

    /// Marks `p` as a home centre of `power`.
    pub fn home(&mut self, p: Province, power: Power) -> Result<(), MapError> {
        if power.0 as usize >= self.powers.len() {
            return Err(MapError::UnknownIndex(power.0 as usize));
        }
        let info = self.info_mut(p)?;
        if !info.home_of.contains(&power) {
            info.home_of.push(power);
        }
        Ok(())
    }

    /// Gives `p` a key in the map's token order (DAIDE: the number of the
    /// province's token). Provinces are ranked by key, then by index;
    /// provinces without a key come after all keyed ones, in definition order.
    pub fn token_key(&mut self, p: Province, key: u32) -> Result<(), MapError> {
        self.info_mut(p)?;
        self.token_keys.insert(p, key);
        Ok(())
    }

    /// Declares an army adjacency (symmetric).
    pub fn army_adjacent(&mut self, a: Province, b: Province) {
        if a != b {
            self.army.insert((a.min(b), a.max(b)));
        }
    }

    /// Declares a fleet adjacency between two locations (symmetric).
    pub fn fleet_adjacent(&mut self, a: Location, b: Location) {
        if a.province != b.province {
            self.fleet.insert((a.min(b), a.max(b)));
        }
    }

    /// Validates and builds the map.
    pub fn build(mut self) -> Result<Map, MapError> {
        let n = self.provinces.len();
        let check = |p: Province| {
            if (p.0 as usize) < n {
                Ok(())
            } else {
                Err(MapError::UnknownIndex(p.0 as usize))
            }
        };
        // Coasts come from the fleet adjacencies.
        for &(a, b) in &self.fleet {
            check(a.province)?;
            check(b.province)?;
            for l in [a, b] {
                if let Some(c) = l.coast {
                    let info = &mut self.provinces[l.province.0 as usize];
                    if !info.coasts.contains(&c) {
                        info.coasts.push(c);
                    }
                }
            }
        }
        for info in &mut self.provinces {
            info.coasts.sort();
            if info.coasts.len() > 4 {
                return Err(MapError::TooManyCoasts(info.name.clone()));
            }
        }
        let name = |p: Province| self.provinces[p.0 as usize].name.clone();
        let mut army = vec![Vec::new(); n];
        for &(a, b) in &self.army {
            check(a)?;
            check(b)?;
            let land = |p: Province| self.provinces[p.0 as usize].kind != ProvinceKind::Sea;
            if !land(a) || !land(b) {
                return Err(MapError::BadAdjacency {
                    unit: UnitType::Army,
                    from: name(a),
                    to: name(b),
                });
            }
            army[a.0 as usize].push(b);
            army[b.0 as usize].push(a);
        }
        let mut fleet: HashMap<Location, Vec<Location>> = HashMap::new();
        for &(a, b) in &self.fleet {
            for l in [a, b] {
                let info = &self.provinces[l.province.0 as usize];
                let ok = match info.kind {
                    ProvinceKind::Inland => false,
                    ProvinceKind::Sea | ProvinceKind::Coastal => l.coast.is_none(),
                    ProvinceKind::Bicoastal => l.coast.is_some(),
                };
                if !ok {
                    return Err(MapError::BadCoast(format!(
                        "{}{}",
                        info.name,
                        l.coast
                            .map(|c| format!("/{}", c.abbrev()))
                            .unwrap_or_default()
                    )));
                }
            }
            fleet.entry(a).or_default().push(b);
            fleet.entry(b).or_default().push(a);
        }
        for v in army.iter_mut() {
            v.sort();
        }
        for v in fleet.values_mut() {
            v.sort();
        }
        let by_name = self
            .provinces
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), Province(i as u16)))
            .collect();
        let token_rank = token_ranks(n, &self.token_keys);
        let mut map = Map {
            powers: self.powers,
            provinces: self.provinces,
            army,
            fleet,
            by_name,
            token_rank,
            judge: dj::geo::Map::default(),
        };
        map.judge = map.build_judge_map()?;
        Ok(map)
    }
}

/// An immutable, validated map.
#[derive(Debug, Clone)]
pub struct Map {
    powers: Vec<String>,
    provinces: Vec<ProvinceInfo>,
    army: Vec<Vec<Province>>,
    fleet: HashMap<Location, Vec<Location>>,
    by_name: HashMap<String, Province>,
    /// Position of each province in the token order.
    token_rank: Vec<u16>,
    judge: dj::geo::Map,
}

/// The standard map's provinces in the order of their DAIDE tokens (the
/// standard representation table: inland, sea, coastal and bicoastal
/// provinces, non-centres before centres within each kind). Bots that must
/// break ties as the DAIDE reference clients do walk provinces in this order.
pub const STANDARD_TOKEN_ORDER: [&str; 75] = [
    "BOH", "BUR", "GAL", "RUH", "SIL", "TYR", "UKR", "BUD", "MOS", "MUN", "PAR", "SER", "VIE",
    "WAR", "ADR", "AEG", "BAL", "BAR", "BLA", "EAS", "ECH", "GOB", "GOL", "HEL", "ION", "IRI",
    "MAO", "NAO", "NTH", "NWG", "SKA", "TYS", "WES", "ALB", "APU", "ARM", "CLY", "FIN", "GAS",
    "LVN", "NAF", "PIC", "PIE", "PRU", "SYR", "TUS", "WAL", "YOR", "ANK", "BEL", "BER", "BRE",
    "CON", "DEN", "EDI", "GRE", "HOL", "KIE", "LON", "LVP", "MAR", "NAP", "NWY", "POR", "ROM",
    "RUM", "SEV", "SMY", "SWE", "TRI", "TUN", "VEN", "BUL", "SPA", "STP",
];

/// Ranks `n` provinces by (key, index); unkeyed provinces come last.
fn token_ranks(n: usize, keys: &HashMap<Province, u32>) -> Vec<u16> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| {
        let key = keys.get(&Province(i as u16)).copied();
        (key.is_none(), key, i)
    });
    let mut rank = vec![0u16; n];
    for (r, i) in order.into_iter().enumerate() {
        rank[i] = r as u16;
    }
    rank
}

/// The built-in standard map, in MDF text syntax (names as words).
pub const STANDARD_MAP_TEXT: &str = include_str!("standard.mdf");

/// Maximum bracket nesting accepted by [`Map::parse_definition`].
const MAX_DEPTH: usize = 16;

/// A bracketed expression of the map-definition text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

fn read_sx(text: &str) -> Result<Vec<Sx>, MapError> {
    let bad = |m: &str| MapError::Definition(m.to_string());
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    let mut word = String::new();
    let flush = |word: &mut String, stack: &mut Vec<Vec<Sx>>| {
        if !word.is_empty() {
            if let Some(top) = stack.last_mut() {
                top.push(Sx::Atom(std::mem::take(word).to_ascii_uppercase()));
            }
        }
    };
    for c in text.chars() {
        match c {
            '(' => {
                flush(&mut word, &mut stack);
                if stack.len() > MAX_DEPTH {
                    return Err(bad("brackets nested too deep"));
                }
                stack.push(Vec::new());
            }
            ')' => {
                flush(&mut word, &mut stack);
                let done = stack.pop().ok_or_else(|| bad("unbalanced ')'"))?;
                stack
                    .last_mut()
                    .ok_or_else(|| bad("unbalanced ')'"))?
                    .push(Sx::List(done));
            }
            c if c.is_whitespace() => flush(&mut word, &mut stack),
            c if c.is_ascii_alphanumeric() => word.push(c),
            other => {
                return Err(MapError::Definition(format!(
                    "unexpected character {other:?}"
                )));
            }
        }
    }
    flush(&mut word, &mut stack);
    match (stack.pop(), stack.is_empty()) {
        (Some(top), true) => Ok(top),
        _ => Err(bad("unbalanced '('")),
    }
}

/// Parses a coast name (`NCS`, `NEC`, …).
pub fn coast_from_name(s: &str) -> Option<Coast> {
    Some(match s {
        "NCS" => Coast::North,
        "NEC" => Coast::NorthEast,
        "ECS" => Coast::East,
        "SEC" => Coast::SouthEast,
        "SCS" => Coast::South,
        "SWC" => Coast::SouthWest,
        "WCS" => Coast::West,
        "NWC" => Coast::NorthWest,
        _ => return None,
    })
}

/// One adjacency list of a map definition: where a unit of `unit` type (a
/// fleet on `coast`) can move from the province it belongs to.
struct Adj {
    unit: UnitType,
    coast: Option<Coast>,
    to: Vec<(String, Option<Coast>)>,
}

/// A province's adjacency lists, under its name.
type ProvinceAdjacency = (String, Vec<Adj>);

/// A name in a map definition.
fn sx_atom(s: &Sx) -> Result<String, MapError> {
    match s {
        Sx::Atom(a) => Ok(a.clone()),
        Sx::List(_) => Err(MapError::Definition("expected a name, found a list".into())),
    }
}

/// The adjacency section of a map definition: `(PROV (AMY …) (FLT …) ((FLT coast) …))…`.
fn adjacencies_of(adjs: &[Sx]) -> Result<Vec<ProvinceAdjacency>, MapError> {
    let bad = |m: String| MapError::Definition(m);
    let mut adjacency: Vec<ProvinceAdjacency> = Vec::new();
    for entry in adjs {
        let Sx::List(items) = entry else {
            return Err(bad("adjacency entry must be a list".into()));
        };
        let (first, rest) = items
            .split_first()
            .ok_or_else(|| bad("empty adjacency entry".into()))?;
        let prov = sx_atom(first)?;
        let mut lists = Vec::new();
        for l in rest {
            lists.push(adjacency_list(&prov, l)?);
        }
        adjacency.push((prov, lists));
    }
    Ok(adjacency)
}

/// One adjacency list of province `prov`: `(AMY …)`, `(FLT …)` or `((FLT coast) …)`,
/// each destination a name or `(name coast)`.
fn adjacency_list(prov: &str, l: &Sx) -> Result<Adj, MapError> {
    let bad = |m: String| MapError::Definition(m);
    let Sx::List(l) = l else {
        return Err(bad(format!("{prov}: adjacency list must be a list")));
    };
    let (head, locs) = l
        .split_first()
        .ok_or_else(|| bad(format!("{prov}: empty adjacency list")))?;
    let (unit, coast) = match head {
        Sx::Atom(a) if a == "AMY" => (UnitType::Army, None),
        Sx::Atom(a) if a == "FLT" => (UnitType::Fleet, None),
        Sx::List(fc) => match fc.as_slice() {
            [Sx::Atom(f), Sx::Atom(c)] if f == "FLT" => (
                UnitType::Fleet,
                Some(coast_from_name(c).ok_or_else(|| bad(format!("bad coast {c}")))?),
            ),
            _ => return Err(bad(format!("{prov}: bad (FLT coast)"))),
        },
        _ => {
            return Err(bad(format!(
                "{prov}: adjacency list must start with AMY or FLT"
            )));
        }
    };
    let mut to = Vec::new();
    for loc in locs {
        to.push(match loc {
            Sx::Atom(a) => (a.clone(), None),
            Sx::List(pc) => match pc.as_slice() {
                [Sx::Atom(p), Sx::Atom(c)] => (
                    p.clone(),
                    Some(coast_from_name(c).ok_or_else(|| bad(format!("bad coast {c}")))?),
                ),
                _ => return Err(bad(format!("{prov}: bad (province coast)"))),
            },
        });
    }
    Ok(Adj { unit, coast, to })
}

/// A province's kind, inferred from its adjacency lists.
fn kind_of(adjacency: &[ProvinceAdjacency], name: &str) -> ProvinceKind {
    let lists = adjacency.iter().find(|(p, _)| p == name).map(|(_, l)| l);
    let lists: &[Adj] = lists.map(Vec::as_slice).unwrap_or(&[]);
    let army = lists.iter().any(|l| l.unit == UnitType::Army);
    let fleet = lists.iter().any(|l| l.unit == UnitType::Fleet);
    if lists.iter().any(|l| l.coast.is_some()) {
        ProvinceKind::Bicoastal
    } else {
        match (army, fleet) {
            (true, true) => ProvinceKind::Coastal,
            (false, true) => ProvinceKind::Sea,
            _ => ProvinceKind::Inland,
        }
    }
}

/// Adds the provinces: the supply centres of each centre group, then the
/// non-centres. Returns each centre with the names of the powers it is a
/// home centre of (none for `UNO`).
fn add_provinces(
    b: &mut MapBuilder,
    centre_groups: &[Sx],
    non_centres: &[Sx],
    adjacency: &[ProvinceAdjacency],
) -> Result<Vec<(String, Vec<String>)>, MapError> {
    let bad = |m: String| MapError::Definition(m);
    let mut homes: Vec<(String, Vec<String>)> = Vec::new();
    for g in centre_groups {
        let Sx::List(items) = g else {
            return Err(bad("centre group must be a list".into()));
        };
        let (owner, centres) = items
            .split_first()
            .ok_or_else(|| bad("empty centre group".into()))?;
        let owners: Vec<String> = match owner {
            Sx::Atom(a) if a == "UNO" => Vec::new(),
            Sx::Atom(a) => vec![a.clone()],
            Sx::List(ps) => ps.iter().map(sx_atom).collect::<Result<_, _>>()?,
        };
        for c in centres {
            let name = sx_atom(c)?;
            b.province(&name, kind_of(adjacency, &name), true)?;
            homes.push((name, owners.clone()));
        }
    }
    for n in non_centres {
        let name = sx_atom(n)?;
        b.province(&name, kind_of(adjacency, &name), false)?;
    }
    Ok(homes)
}

/// The province named `n` among those added so far.
fn lookup(b: &MapBuilder, n: &str) -> Result<Province, MapError> {
    b.provinces
        .iter()
        .position(|p| p.name == n)
        .map(|i| Province(i as u16))
        .ok_or_else(|| MapError::Definition(format!("unknown province {n}")))
}

/// Marks each centre as a home centre of its powers.
fn add_homes(b: &mut MapBuilder, homes: &[(String, Vec<String>)]) -> Result<(), MapError> {
    for (prov, owners) in homes {
        let p = lookup(b, prov)?;
        for o in owners {
            let pw = b
                .powers
                .iter()
                .position(|x| x == o)
                .ok_or_else(|| MapError::Definition(format!("unknown power {o}")))?;
            b.home(p, Power(pw as u8))?;
        }
    }
    Ok(())
}

/// Adds the army and fleet adjacencies.
fn add_adjacencies(b: &mut MapBuilder, adjacency: &[ProvinceAdjacency]) -> Result<(), MapError> {
    for (prov, lists) in adjacency {
        let from = lookup(b, prov)?;
        for l in lists {
            for (to, coast) in &l.to {
                let to_p = lookup(b, to)?;
                match l.unit {
                    UnitType::Army => b.army_adjacent(from, to_p),
                    UnitType::Fleet => b.fleet_adjacent(
                        Location {
                            province: from,
                            coast: l.coast,
                        },
                        Location {
                            province: to_p,
                            coast: *coast,
                        },
                    ),
                }
            }
        }
    }
    Ok(())
}

impl Map {
    /// The standard map (7 powers, 75 provinces, 34 centres), DAIDE names.
    #[allow(clippy::panic)] // Built-in data that the unit tests parse: an error is a bug.
    pub fn standard() -> Map {
        // Built-in data, checked by the unit tests; failing here is a bug.
        match Self::parse_definition(STANDARD_MAP_TEXT)
            .and_then(|m| m.with_token_order(&STANDARD_TOKEN_ORDER))
        {
            Ok(m) => m,
            Err(e) => panic!("built-in standard map is invalid: {e}"),
        }
    }

    /// The map with its token order given by province names, first to last;
    /// provinces not named follow in definition order.
    fn with_token_order(mut self, names: &[&str]) -> Result<Map, MapError> {
        let mut keys = HashMap::new();
        for (i, name) in names.iter().enumerate() {
            let p = self
                .province(name)
                .ok_or_else(|| MapError::Definition(format!("unknown province {name}")))?;
            if keys.insert(p, i as u32).is_some() {
                return Err(MapError::DuplicateName((*name).to_string()));
            }
        }
        self.token_rank = token_ranks(self.provinces.len(), &keys);
        Ok(self)
    }

    /// A province's position in the map's token order: the order of the
    /// provinces' DAIDE tokens for a map built from an MDF or the standard
    /// map ([`STANDARD_TOKEN_ORDER`]), definition order otherwise. DAIDE
    /// clients such as David Norman's index provinces by token number, so
    /// their ties fall in this order.
    pub fn token_rank(&self, p: Province) -> usize {
        self.token_rank
            .get(p.0 as usize)
            .map_or(usize::MAX, |r| *r as usize)
    }

    /// Builds a map from a definition in MDF text syntax with names as words:
    /// `[MDF] (powers) ((centre groups) (non-centres)) (adjacencies)`.
    /// Province kinds are inferred: only fleet lists → sea, only army → inland,
    /// coast-specific fleet lists → bicoastal, otherwise coastal.
    pub fn parse_definition(text: &str) -> Result<Map, MapError> {
        let bad = |m: String| MapError::Definition(m);
        let mut top = read_sx(text)?;
        if top.first() == Some(&Sx::Atom("MDF".into())) {
            top.remove(0);
        }
        let [Sx::List(powers), Sx::List(provs), Sx::List(adjs)] = top.as_slice() else {
            return Err(bad("expected (powers) (provinces) (adjacencies)".into()));
        };
        let [Sx::List(centre_groups), Sx::List(non_centres)] = provs.as_slice() else {
            return Err(bad("expected ((centre groups) (non-centres))".into()));
        };
        // Gather everything first: kinds depend on the adjacency lists.
        let adjacency = adjacencies_of(adjs)?;
        let mut b = MapBuilder::new();
        for p in powers {
            b.power(&sx_atom(p)?)?;
        }
        let homes = add_provinces(&mut b, centre_groups, non_centres, &adjacency)?;
        add_homes(&mut b, &homes)?;
        add_adjacencies(&mut b, &adjacency)?;
        b.build()
    }

    /// The powers' names, in map order.
    pub fn powers(&self) -> impl Iterator<Item = (Power, &str)> {
        self.powers
            .iter()
            .enumerate()
            .map(|(i, n)| (Power(i as u8), n.as_str()))
    }

    /// Number of powers.
    pub fn power_count(&self) -> usize {
        self.powers.len()
    }

    /// The number of centres needed for a solo: more than half of all centres.
    pub fn solo_threshold(&self) -> usize {
        self.supply_centres().count() / 2 + 1
    }

    /// A power's name.
    pub fn power_name(&self, p: Power) -> Option<&str> {
        self.powers.get(p.0 as usize).map(String::as_str)
    }

    /// The power called `name`.
    pub fn power(&self, name: &str) -> Option<Power> {
        self.powers
            .iter()
            .position(|p| p == name)
            .map(|i| Power(i as u8))
    }

    /// All provinces with their facts.
    pub fn provinces(&self) -> impl Iterator<Item = (Province, &ProvinceInfo)> {
        self.provinces
            .iter()
            .enumerate()
            .map(|(i, p)| (Province(i as u16), p))
    }

    /// Number of provinces.
    pub fn province_count(&self) -> usize {
        self.provinces.len()
    }

    /// Facts about one province.
    pub fn info(&self, p: Province) -> Option<&ProvinceInfo> {
        self.provinces.get(p.0 as usize)
    }

    /// The province called `name`.
    pub fn province(&self, name: &str) -> Option<Province> {
        self.by_name.get(name).copied()
    }

    /// A province's name ("???" for an unknown index).
    pub fn name(&self, p: Province) -> &str {
        self.info(p).map(|i| i.name.as_str()).unwrap_or("???")
    }

    /// Supply centres.
    pub fn supply_centres(&self) -> impl Iterator<Item = Province> + '_ {
        self.provinces()
            .filter(|(_, i)| i.supply_centre)
            .map(|(p, _)| p)
    }

    /// Home centres of `power`.
    pub fn home_centres(&self, power: Power) -> impl Iterator<Item = Province> + '_ {
        self.provinces()
            .filter(move |(_, i)| i.home_of.contains(&power))
            .map(|(p, _)| p)
    }

    /// Provinces an army in `p` can move to.
    pub fn army_neighbours(&self, p: Province) -> &[Province] {
        self.army
            .get(p.0 as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Locations a fleet at `l` can move to.
    pub fn fleet_neighbours(&self, l: Location) -> &[Location] {
        self.fleet.get(&l).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Locations a unit of `kind` at `l` can move to directly (armies: the
    /// provinces' army locations; fleets: coast-specific locations).
    pub fn move_targets(&self, kind: UnitType, l: Location) -> Vec<Location> {
        match kind {
            UnitType::Army => self
                .army_neighbours(l.province)
                .iter()
                .map(|p| Location::new(*p))
                .collect(),
            UnitType::Fleet => self.fleet_neighbours(l).to_vec(),
        }
    }

    /// Whether a unit of `kind` at `from` can move directly to `to`.
    pub fn can_move(&self, kind: UnitType, from: Location, to: Location) -> bool {
        match kind {
            UnitType::Army => {
                to.coast.is_none() && self.army_neighbours(from.province).contains(&to.province)
            }
            UnitType::Fleet => self.fleet_neighbours(from).contains(&to),
        }
    }

    /// Whether a unit of `kind` at `from` can reach province `to` on some coast
    /// (the reach needed to support into it).
    pub fn can_reach_province(&self, kind: UnitType, from: Location, to: Province) -> bool {
        match kind {
            UnitType::Army => self.army_neighbours(from.province).contains(&to),
            UnitType::Fleet => self.fleet_neighbours(from).iter().any(|l| l.province == to),
        }
    }

    /// Whether a unit of `kind` may stand at `l`.
    pub fn can_stand(&self, kind: UnitType, l: Location) -> bool {
        let Some(info) = self.info(l.province) else {
            return false;
        };
        match (kind, info.kind) {
            (UnitType::Army, ProvinceKind::Sea) => false,
            (UnitType::Army, _) => l.coast.is_none(),
            (UnitType::Fleet, ProvinceKind::Inland) => false,
            (UnitType::Fleet, ProvinceKind::Bicoastal) => {
                l.coast.is_some_and(|c| info.coasts.contains(&c))
            }
            (UnitType::Fleet, _) => l.coast.is_none(),
        }
    }

    /// The adjudicator's view of this map.
    pub(crate) fn judge_map(&self) -> &dj::geo::Map {
        &self.judge
    }

    /// The adjudicator's coast label for a coast of a province.
    pub(crate) fn judge_coast(&self, l: Location) -> Option<dj::geo::Coast> {
        const LABELS: [dj::geo::Coast; 4] = [
            dj::geo::Coast::North,
            dj::geo::Coast::East,
            dj::geo::Coast::South,
            dj::geo::Coast::West,
        ];
        let c = l.coast?;
        let info = self.info(l.province)?;
        // Keep the natural label when possible (the standard map's NC/SC/EC).
        let natural = match c {
            Coast::North => Some(dj::geo::Coast::North),
            Coast::East => Some(dj::geo::Coast::East),
            Coast::South => Some(dj::geo::Coast::South),
            Coast::West => Some(dj::geo::Coast::West),
            _ => None,
        };
        let all_natural = info
            .coasts
            .iter()
            .all(|c| matches!(c, Coast::North | Coast::East | Coast::South | Coast::West));
        if all_natural {
            natural
        } else {
            let i = info.coasts.iter().position(|x| *x == c)?;
            LABELS.get(i).copied()
        }
    }

    /// Inverse of [`Map::judge_coast`].
    pub(crate) fn coast_from_judge(&self, p: Province, c: Option<dj::geo::Coast>) -> Option<Coast> {
        let c = c?;
        let info = self.info(p)?;
        info.coasts
            .iter()
            .copied()
            .find(|&mine| self.judge_coast(Location::with_coast(p, mine)) == Some(c))
    }

    /// The adjudicator's region key for a location.
    pub(crate) fn region_key(&self, l: Location) -> dj::geo::RegionKey {
        dj::geo::RegionKey::new(self.name(l.province).to_string(), self.judge_coast(l))
    }

    fn build_judge_map(&self) -> Result<dj::geo::Map, MapError> {
        use dj::geo::{SupplyCenter, Terrain};
        let jerr = |e: dj::geo::builder::MapError| MapError::Judge(format!("{e:?}"));
        let mut provinces = dj::geo::builder::ProvinceRegistry::default();
        for info in &self.provinces {
            let supply_center = if !info.supply_centre {
                SupplyCenter::None
            } else if let Some(p) = info.home_of.first() {
                SupplyCenter::Home(self.power_name(*p).unwrap_or("?").into())
            } else {
                SupplyCenter::Neutral
            };
            provinces
                .register(dj::geo::Province {
                    short_name: info.name.clone(),
                    supply_center,
                })
                .map_err(jerr)?;
        }
        let mut regions = provinces.finish();
        for (p, info) in self.provinces() {
            let main = match info.kind {
                ProvinceKind::Sea => Terrain::Sea,
                ProvinceKind::Inland | ProvinceKind::Bicoastal => Terrain::Land,
                ProvinceKind::Coastal => Terrain::Coast,
            };
            regions.register(&info.name, None, main).map_err(jerr)?;
            for &c in &info.coasts {
                regions
                    .register(
                        &info.name,
                        self.judge_coast(Location::with_coast(p, c)),
                        Terrain::Sea,
                    )
                    .map_err(jerr)?;
            }
        }
        let mut borders = regions.finish();
        let key = |l: Location| self.region_key(l).to_string();
        let mut fleet_pairs: BTreeSet<(Location, Location)> = BTreeSet::new();
        for (a, ns) in &self.fleet {
            for b in ns {
                fleet_pairs.insert(((*a).min(*b), (*a).max(*b)));
            }
        }
        for (ai, ns) in self.army.iter().enumerate() {
            let a = Province(ai as u16);
            for &b in ns.iter().filter(|&&b| b > a) {
                let (la, lb) = (Location::new(a), Location::new(b));
                let terrain = if fleet_pairs.remove(&(la, lb)) {
                    Terrain::Coast
                } else {
                    Terrain::Land
                };
                borders
                    .register(&key(la), &key(lb), terrain)
                    .map_err(jerr)?;
            }
        }
        for (a, b) in fleet_pairs {
            borders
                .register(&key(a), &key(b), Terrain::Sea)
                .map_err(jerr)?;
        }
        Ok(borders.finish())
    }
}

#[cfg(test)]
mod tests;
