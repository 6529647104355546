//! Conversions between DAIDE messages (token-level types) and tablero's
//! Diplomacy game model: MDF ⇄ [`Map`], orders, units, turns, coasts.
//!
//! Power and province tokens are matched to the game model *by name* through
//! the current [`TokenTable`] (standard, or from the RM), so a map built from
//! an MDF under a non-standard RM converts the same way. A [`Names`] caches
//! both directions for one (table, map) pair.

use std::collections::HashMap;

use thiserror::Error;

use super::message::{
    AdjList, AdjUnit, CentreGroup, Loc, MapDef, Order as DOrder, Owners, ProvinceAdjacency, Turn,
    Unit as DUnit,
};
use super::token::{
    CoastToken, PhaseToken, PowerToken, ProvinceKind as TokKind, ProvinceToken, TokenTable,
    UnitKind,
};
use crate::diplomacy::{
    Coast, Location, Map, MapBuilder, MapError, Order, Phase, Power, Province, ProvinceKind,
    Season, Unit, UnitType,
};

/// Conversion errors.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConvertError {
    /// A power token with no name in the table, or unknown to the map.
    #[error("unknown power token 0x{0:04X}")]
    UnknownPower(u16),
    /// A province token with no name in the table, or unknown to the map.
    #[error("unknown province token 0x{0:04X}")]
    UnknownProvince(u16),
    /// A map power or province without a token in the table.
    #[error("no token for {0}")]
    NoToken(String),
    /// The MDF does not describe a valid map.
    #[error("invalid map: {0}")]
    Map(#[from] MapError),
    /// A turn year outside the token range.
    #[error("year {0} does not fit a token")]
    Year(i16),
}

/// DAIDE coast token → model coast.
pub fn coast_from_token(c: CoastToken) -> Coast {
    match c {
        CoastToken::Ncs => Coast::North,
        CoastToken::Nec => Coast::NorthEast,
        CoastToken::Ecs => Coast::East,
        CoastToken::Sec => Coast::SouthEast,
        CoastToken::Scs => Coast::South,
        CoastToken::Swc => Coast::SouthWest,
        CoastToken::Wcs => Coast::West,
        CoastToken::Nwc => Coast::NorthWest,
    }
}

/// Model coast → DAIDE coast token.
pub fn coast_to_token(c: Coast) -> CoastToken {
    match c {
        Coast::North => CoastToken::Ncs,
        Coast::NorthEast => CoastToken::Nec,
        Coast::East => CoastToken::Ecs,
        Coast::SouthEast => CoastToken::Sec,
        Coast::South => CoastToken::Scs,
        Coast::SouthWest => CoastToken::Swc,
        Coast::West => CoastToken::Wcs,
        Coast::NorthWest => CoastToken::Nwc,
    }
}

/// DAIDE turn → model phase.
pub fn phase_from_turn(t: Turn) -> Phase {
    let season = match t.season {
        PhaseToken::Spr => Season::Spring,
        PhaseToken::Sum => Season::Summer,
        PhaseToken::Fal => Season::Fall,
        PhaseToken::Aut => Season::Autumn,
        PhaseToken::Win => Season::Winter,
    };
    Phase {
        year: t.year,
        season,
    }
}

/// Model phase → DAIDE turn (years must fit a token: −8192…8191).
pub fn turn_from_phase(p: Phase) -> Result<Turn, ConvertError> {
    if !(-8192..=8191).contains(&p.year) {
        return Err(ConvertError::Year(p.year));
    }
    let season = match p.season {
        Season::Spring => PhaseToken::Spr,
        Season::Summer => PhaseToken::Sum,
        Season::Fall => PhaseToken::Fal,
        Season::Autumn => PhaseToken::Aut,
        Season::Winter => PhaseToken::Win,
    };
    Ok(Turn {
        season,
        year: p.year,
    })
}

fn unit_type(k: UnitKind) -> UnitType {
    match k {
        UnitKind::Amy => UnitType::Army,
        UnitKind::Flt => UnitType::Fleet,
    }
}

fn unit_kind(t: UnitType) -> UnitKind {
    match t {
        UnitType::Army => UnitKind::Amy,
        UnitType::Fleet => UnitKind::Flt,
    }
}

/// Builds a [`Map`] from an MDF. Province kinds come from the token categories;
/// names from `table`; the map's token order from the tokens' numbers (the
/// low byte, by which DAIDE clients index provinces).
pub fn map_from_mdf(def: &MapDef, table: &TokenTable) -> Result<Map, ConvertError> {
    let pname = |p: ProvinceToken| {
        table
            .province_name(p)
            .map(|n| n.to_string())
            .ok_or(ConvertError::UnknownProvince(p.code()))
    };
    let mut b = MapBuilder::new();
    let mut powers: HashMap<PowerToken, Power> = HashMap::new();
    for &p in &def.powers {
        let name = table
            .power_name(p)
            .ok_or(ConvertError::UnknownPower(p.code()))?;
        powers.insert(p, b.power(name.as_str())?);
    }
    let kind = |p: ProvinceToken| match p.kind() {
        TokKind::Inland => ProvinceKind::Inland,
        TokKind::Sea => ProvinceKind::Sea,
        TokKind::Coastal => ProvinceKind::Coastal,
        TokKind::Bicoastal => ProvinceKind::Bicoastal,
    };
    let mut provinces: HashMap<ProvinceToken, Province> = HashMap::new();
    for g in &def.centres {
        for &c in &g.centres {
            let id = b.province(&pname(c)?, kind(c), true)?;
            b.token_key(id, token_number(c))?;
            provinces.insert(c, id);
            let owners: Vec<PowerToken> = match &g.owners {
                Owners::Unowned => Vec::new(),
                Owners::Power(p) => vec![*p],
                Owners::Shared(ps) => ps.clone(),
            };
            for o in owners {
                let pw = *powers.get(&o).ok_or(ConvertError::UnknownPower(o.code()))?;
                b.home(id, pw)?;
            }
        }
    }
    for &p in &def.non_centres {
        let id = b.province(&pname(p)?, kind(p), false)?;
        b.token_key(id, token_number(p))?;
        provinces.insert(p, id);
    }
    let prov = |p: ProvinceToken| {
        provinces
            .get(&p)
            .copied()
            .ok_or(ConvertError::UnknownProvince(p.code()))
    };
    let loc = |l: Loc| -> Result<Location, ConvertError> {
        Ok(match l {
            Loc::Prov(p) => Location::new(prov(p)?),
            Loc::Coast(p, c) => Location::with_coast(prov(p)?, coast_from_token(c)),
        })
    };
    for a in &def.adjacencies {
        let from = prov(a.province)?;
        for list in &a.lists {
            for &to in &list.to {
                match list.unit {
                    AdjUnit::Army => b.army_adjacent(from, loc(to)?.province),
                    AdjUnit::Fleet => b.fleet_adjacent(Location::new(from), loc(to)?),
                    AdjUnit::FleetCoast(c) => {
                        b.fleet_adjacent(Location::with_coast(from, coast_from_token(c)), loc(to)?)
                    }
                }
            }
        }
    }
    Ok(b.build()?)
}

/// A province token's number: its low byte.
fn token_number(p: ProvinceToken) -> u32 {
    u32::from(p.code() & 0xFF)
}

/// Token ⇄ model correspondence for one (table, map) pair.
#[derive(Debug, Clone)]
pub struct Names {
    power_to_model: HashMap<PowerToken, Power>,
    power_to_token: Vec<Option<PowerToken>>,
    prov_to_model: HashMap<ProvinceToken, Province>,
    prov_to_token: Vec<Option<ProvinceToken>>,
}

impl Names {
    /// Matches tokens and map entries by name. Map entries without a token
    /// are allowed (they fail only when converted).
    pub fn new(table: &TokenTable, map: &Map) -> Names {
        let mut power_to_token = vec![None; map.power_count()];
        let mut power_to_model = HashMap::new();
        for (tok, name) in table.powers() {
            if let Some(p) = map.power(name.as_str()) {
                power_to_model.insert(tok, p);
                power_to_token[p.0 as usize] = Some(tok);
            }
        }
        let mut prov_to_token = vec![None; map.province_count()];
        let mut prov_to_model = HashMap::new();
        for (tok, name) in table.provinces() {
            if let Some(p) = map.province(name.as_str()) {
                prov_to_model.insert(tok, p);
                prov_to_token[p.0 as usize] = Some(tok);
            }
        }
        Names {
            power_to_model,
            power_to_token,
            prov_to_model,
            prov_to_token,
        }
    }

    /// Power token → model power.
    pub fn power(&self, t: PowerToken) -> Result<Power, ConvertError> {
        self.power_to_model
            .get(&t)
            .copied()
            .ok_or(ConvertError::UnknownPower(t.code()))
    }

    /// Model power → token.
    pub fn power_token(&self, p: Power) -> Result<PowerToken, ConvertError> {
        self.power_to_token
            .get(p.0 as usize)
            .copied()
            .flatten()
            .ok_or_else(|| ConvertError::NoToken(format!("power #{}", p.0)))
    }

    /// Province token → model province.
    pub fn province(&self, t: ProvinceToken) -> Result<Province, ConvertError> {
        self.prov_to_model
            .get(&t)
            .copied()
            .ok_or(ConvertError::UnknownProvince(t.code()))
    }

    /// Model province → token.
    pub fn province_token(&self, p: Province) -> Result<ProvinceToken, ConvertError> {
        self.prov_to_token
            .get(p.0 as usize)
            .copied()
            .flatten()
            .ok_or_else(|| ConvertError::NoToken(format!("province #{}", p.0)))
    }

    /// DAIDE location → model location.
    pub fn location(&self, l: Loc) -> Result<Location, ConvertError> {
        Ok(match l {
            Loc::Prov(p) => Location::new(self.province(p)?),
            Loc::Coast(p, c) => Location::with_coast(self.province(p)?, coast_from_token(c)),
        })
    }

    /// Model location → DAIDE location.
    pub fn loc(&self, l: Location) -> Result<Loc, ConvertError> {
        let p = self.province_token(l.province)?;
        Ok(match l.coast {
            None => Loc::Prov(p),
            Some(c) => Loc::Coast(p, coast_to_token(c)),
        })
    }

    /// DAIDE unit → model unit.
    pub fn unit(&self, u: &DUnit) -> Result<Unit, ConvertError> {
        Ok(Unit {
            power: self.power(u.power)?,
            kind: unit_type(u.kind),
            location: self.location(u.loc)?,
        })
    }

    /// Model unit → DAIDE unit.
    pub fn daide_unit(&self, u: &Unit) -> Result<DUnit, ConvertError> {
        Ok(DUnit {
            power: self.power_token(u.power)?,
            kind: unit_kind(u.kind),
            loc: self.loc(u.location)?,
        })
    }

    /// DAIDE order → model order.
    pub fn order(&self, o: &DOrder) -> Result<Order, ConvertError> {
        Ok(match o {
            DOrder::Hold(u) => Order::Hold(self.unit(u)?),
            DOrder::Move(u, l) => Order::Move {
                unit: self.unit(u)?,
                to: self.location(*l)?,
                via: None,
            },
            DOrder::SupportHold(u, v) => Order::SupportHold {
                unit: self.unit(u)?,
                supported: self.unit(v)?,
            },
            DOrder::SupportMove(u, v, p) => Order::SupportMove {
                unit: self.unit(u)?,
                supported: self.unit(v)?,
                to: self.province(*p)?,
            },
            DOrder::Convoy(u, v, p) => Order::Convoy {
                unit: self.unit(u)?,
                army: self.unit(v)?,
                to: self.province(*p)?,
            },
            DOrder::ConvoyMove(u, p, via) => Order::Move {
                unit: self.unit(u)?,
                to: Location::new(self.province(*p)?),
                via: Some(
                    via.iter()
                        .map(|s| self.province(*s))
                        .collect::<Result<_, _>>()?,
                ),
            },
            DOrder::Retreat(u, l) => Order::Retreat {
                unit: self.unit(u)?,
                to: self.location(*l)?,
            },
            DOrder::Disband(u) => Order::Disband(self.unit(u)?),
            DOrder::Build(u) => Order::Build(self.unit(u)?),
            DOrder::Remove(u) => Order::Remove(self.unit(u)?),
            DOrder::Waive(p) => Order::Waive(self.power(*p)?),
        })
    }

    /// Model order → DAIDE order. A move with `via` becomes `CTO … VIA`.
    pub fn daide_order(&self, o: &Order) -> Result<DOrder, ConvertError> {
        Ok(match o {
            Order::Hold(u) => DOrder::Hold(self.daide_unit(u)?),
            Order::Move {
                unit,
                to,
                via: None,
            } => DOrder::Move(self.daide_unit(unit)?, self.loc(*to)?),
            Order::Move {
                unit,
                to,
                via: Some(via),
            } => DOrder::ConvoyMove(
                self.daide_unit(unit)?,
                self.province_token(to.province)?,
                via.iter()
                    .map(|p| self.province_token(*p))
                    .collect::<Result<_, _>>()?,
            ),
            Order::SupportHold { unit, supported } => {
                DOrder::SupportHold(self.daide_unit(unit)?, self.daide_unit(supported)?)
            }
            Order::SupportMove {
                unit,
                supported,
                to,
            } => DOrder::SupportMove(
                self.daide_unit(unit)?,
                self.daide_unit(supported)?,
                self.province_token(*to)?,
            ),
            Order::Convoy { unit, army, to } => DOrder::Convoy(
                self.daide_unit(unit)?,
                self.daide_unit(army)?,
                self.province_token(*to)?,
            ),
            Order::Retreat { unit, to } => DOrder::Retreat(self.daide_unit(unit)?, self.loc(*to)?),
            Order::Disband(u) => DOrder::Disband(self.daide_unit(u)?),
            Order::Build(u) => DOrder::Build(self.daide_unit(u)?),
            Order::Remove(u) => DOrder::Remove(self.daide_unit(u)?),
            Order::Waive(p) => DOrder::Waive(self.power_token(*p)?),
        })
    }

    /// The MDF describing `map` (for a server to send).
    pub fn mdf(&self, map: &Map) -> Result<MapDef, ConvertError> {
        let powers = map
            .powers()
            .map(|(p, _)| self.power_token(p))
            .collect::<Result<Vec<_>, _>>()?;
        // Centre groups: one per home owner set, in power order, then UNO.
        let mut groups: Vec<CentreGroup> = Vec::new();
        let mut non_centres = Vec::new();
        for (p, info) in map.provinces() {
            let tok = self.province_token(p)?;
            if !info.supply_centre {
                non_centres.push(tok);
                continue;
            }
            let owners = match info.home_of.as_slice() {
                [] => Owners::Unowned,
                [one] => Owners::Power(self.power_token(*one)?),
                many => Owners::Shared(
                    many.iter()
                        .map(|x| self.power_token(*x))
                        .collect::<Result<_, _>>()?,
                ),
            };
            match groups.iter_mut().find(|g| g.owners == owners) {
                Some(g) => g.centres.push(tok),
                None => groups.push(CentreGroup {
                    owners,
                    centres: vec![tok],
                }),
            }
        }
        let rank = |o: &Owners| match o {
            Owners::Power(p) => powers.iter().position(|x| x == p).unwrap_or(usize::MAX - 1),
            Owners::Shared(_) => usize::MAX - 1,
            Owners::Unowned => usize::MAX,
        };
        groups.sort_by_key(|g| rank(&g.owners));
        let mut adjacencies = Vec::new();
        for (p, info) in map.provinces() {
            let mut lists = Vec::new();
            if info.kind != ProvinceKind::Sea {
                lists.push(AdjList {
                    unit: AdjUnit::Army,
                    to: map
                        .army_neighbours(p)
                        .iter()
                        .map(|q| self.province_token(*q).map(Loc::Prov))
                        .collect::<Result<_, _>>()?,
                });
            }
            match info.kind {
                ProvinceKind::Inland => {}
                ProvinceKind::Sea | ProvinceKind::Coastal => lists.push(AdjList {
                    unit: AdjUnit::Fleet,
                    to: map
                        .fleet_neighbours(Location::new(p))
                        .iter()
                        .map(|l| self.loc(*l))
                        .collect::<Result<_, _>>()?,
                }),
                ProvinceKind::Bicoastal => {
                    for &c in &info.coasts {
                        lists.push(AdjList {
                            unit: AdjUnit::FleetCoast(coast_to_token(c)),
                            to: map
                                .fleet_neighbours(Location::with_coast(p, c))
                                .iter()
                                .map(|l| self.loc(*l))
                                .collect::<Result<_, _>>()?,
                        });
                    }
                }
            }
            adjacencies.push(ProvinceAdjacency {
                province: self.province_token(p)?,
                lists,
            });
        }
        Ok(MapDef {
            powers,
            centres: groups,
            non_centres,
            adjacencies,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daide::message::{Message, parse_message};
    use crate::daide::text::parse_text;
    use crate::diplomacy::map::STANDARD_MAP_TEXT;

    fn describe(m: &Map) -> Vec<String> {
        let mut out = Vec::new();
        for (p, info) in m.provinces() {
            let homes: Vec<_> = info
                .home_of
                .iter()
                .map(|h| m.power_name(*h).unwrap_or("?"))
                .collect();
            out.push(format!(
                "{} {:?} sc={} homes={:?} coasts={:?}",
                info.name, info.kind, info.supply_centre, homes, info.coasts
            ));
            let mut army: Vec<_> = m.army_neighbours(p).iter().map(|q| m.name(*q)).collect();
            army.sort();
            out.push(format!("{} army {:?}", info.name, army));
            let mut locs = vec![Location::new(p)];
            locs.extend(info.coasts.iter().map(|c| Location::with_coast(p, *c)));
            for l in locs {
                let mut f: Vec<_> = m
                    .fleet_neighbours(l)
                    .iter()
                    .map(|x| format!("{}{:?}", m.name(x.province), x.coast))
                    .collect();
                f.sort();
                out.push(format!("{} {:?} fleet {:?}", info.name, l.coast, f));
            }
        }
        out.sort();
        out
    }

    fn standard_mdf() -> MapDef {
        let t = TokenTable::standard();
        let toks = parse_text(STANDARD_MAP_TEXT, &t).unwrap();
        match parse_message(&toks).unwrap() {
            Message::Mdf(Some(d)) => (*d).clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn standard_mdf_builds_the_standard_map() {
        let t = TokenTable::standard();
        let from_mdf = map_from_mdf(&standard_mdf(), &t).unwrap();
        assert_eq!(describe(&from_mdf), describe(&Map::standard()));
    }

    /// Provinces of `m` in its token order.
    fn token_order(m: &Map) -> Vec<String> {
        let mut ps: Vec<Province> = m.provinces().map(|(p, _)| p).collect();
        ps.sort_by_key(|p| m.token_rank(*p));
        ps.iter().map(|p| m.name(*p).to_string()).collect()
    }

    #[test]
    fn token_order_is_the_standard_tables_order() {
        let t = TokenTable::standard();
        let table: Vec<String> = t.provinces().map(|(_, n)| n.to_string()).collect();
        let mut by_code: Vec<(u16, String)> = t
            .provinces()
            .map(|(p, n)| (p.code() & 0xFF, n.to_string()))
            .collect();
        by_code.sort();
        let by_code: Vec<String> = by_code.into_iter().map(|(_, n)| n).collect();
        assert_eq!(table, by_code);
        assert_eq!(token_order(&Map::standard()), table);
        let from_mdf = map_from_mdf(&standard_mdf(), &t).unwrap();
        assert_eq!(token_order(&from_mdf), table);
        // The MDF lists centres first: its province indices differ from the
        // token order, which therefore comes from the token numbers.
        assert_ne!(
            from_mdf
                .provinces()
                .map(|(_, i)| i.name.clone())
                .collect::<Vec<_>>(),
            table
        );
    }

    #[test]
    fn map_to_mdf_and_back() {
        let t = TokenTable::standard();
        let m = Map::standard();
        let names = Names::new(&t, &m);
        let def = names.mdf(&m).unwrap();
        let back = map_from_mdf(&def, &t).unwrap();
        assert_eq!(describe(&back), describe(&m));
        // Through tokens too; the standard MDF is a few kilobytes.
        let msg = Message::Mdf(Some(std::sync::Arc::new(def)));
        let toks = msg.to_tokens();
        assert!(
            toks.len() * 2 > 2000 && toks.len() * 2 < 4000,
            "{}",
            toks.len() * 2
        );
        assert_eq!(parse_message(&toks).unwrap(), msg);
    }

    #[test]
    fn orders_round_trip_through_the_model() {
        let t = TokenTable::standard();
        let m = Map::standard();
        let names = Names::new(&t, &m);
        for s in [
            "SUB ((TUR AMY CON) MTO BUL)",
            "SUB ((ENG FLT BAR) MTO (STP NCS))",
            "SUB ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP)",
            "SUB ((ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY)",
            "SUB ((ENG AMY YOR) CTO NWY VIA (NTH))",
            "SUB ((ENG AMY LVP) SUP (ENG FLT LON))",
            "SUB ((ITA FLT NAP) BLD) ((RUS FLT (STP SCS)) REM) (FRA WVE)",
            "SUB ((RUS FLT (STP SCS)) RTO GOB) ((AUS AMY SER) DSB)",
        ] {
            let Message::Sub { orders, .. } = Message::from_text(s, &t).unwrap() else {
                panic!()
            };
            for o in orders {
                let model = names.order(&o).unwrap();
                assert_eq!(names.daide_order(&model).unwrap(), o, "{s}");
            }
        }
    }

    #[test]
    fn rm_names_drive_the_correspondence() {
        // A table that renames the standard powers: tokens follow names, not codes.
        let mut rm = Vec::new();
        for (i, n) in ["TUR", "RUS", "ITA", "GER", "FRA", "ENG", "AUS"]
            .iter()
            .enumerate()
        {
            rm.extend_from_slice(&(0x4100u16 + i as u16).to_be_bytes());
            rm.extend_from_slice(n.as_bytes());
            rm.push(0);
        }
        for (n, c) in crate::daide::token::STANDARD_PROVINCES {
            rm.extend_from_slice(&c.to_be_bytes());
            rm.extend_from_slice(n.as_bytes());
            rm.push(0);
        }
        let t = TokenTable::from_rm(&rm).unwrap();
        let m = Map::standard();
        let names = Names::new(&t, &m);
        assert_eq!(names.power(PowerToken(0)).unwrap(), m.power("TUR").unwrap());
        assert_eq!(
            names.power_token(m.power("AUS").unwrap()).unwrap(),
            PowerToken(6)
        );
        assert!(names.power(PowerToken(9)).is_err());
    }

    #[test]
    fn phases_and_turns() {
        for s in [
            Season::Spring,
            Season::Summer,
            Season::Fall,
            Season::Autumn,
            Season::Winter,
        ] {
            let p = Phase {
                year: 1901,
                season: s,
            };
            assert_eq!(phase_from_turn(turn_from_phase(p).unwrap()), p);
        }
        assert!(
            turn_from_phase(Phase {
                year: 9000,
                season: Season::Spring
            })
            .is_err()
        );
        for c in Coast::ALL {
            assert_eq!(coast_from_token(coast_to_token(c)), c);
        }
    }
}
