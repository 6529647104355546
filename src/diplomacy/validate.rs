//! Order checks a server makes on submission (DAIDE answers them with THX
//! notes): is the unit there and yours, can it reach, is it the right phase,
//! is the build site valid. Orders that pass may still fail in adjudication.

use super::game::GameView;
use super::model::{Location, Order, PhaseKind, Power, ProvinceKind, Unit, UnitType};

/// Why an order was refused on submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderError {
    /// No such unit (at that location, of that type).
    NoSuchUnit,
    /// The unit belongs to another power.
    NotYourUnit,
    /// The convoyed unit is not an army, or an army-only order names a fleet.
    NoSuchArmy,
    /// A fleet-only order names an army.
    NoSuchFleet,
    /// A convoying fleet not in a sea province.
    NotAtSea,
    /// Destination or supported province out of reach.
    NotAdjacent,
    /// A fleet moving to or built in a multi-coast province without a coast.
    NoCoast,
    /// An order type that does not belong in this phase.
    WrongSeason,
    /// A retreat order for a unit that is not dislodged.
    NoRetreatNeeded,
    /// A retreat destination that is not one of the options.
    InvalidRetreat,
    /// A build outside a supply centre.
    NotSupplyCentre,
    /// A build outside the power's home centres.
    NotHomeCentre,
    /// A build in a home centre the power does not own.
    NotYourCentre,
    /// A build in an occupied centre.
    CentreOccupied,
    /// No builds left.
    NoMoreBuilds,
    /// No removals owed.
    NoMoreRemovals,
}

fn find<'a>(view: &'a GameView, u: &Unit) -> Option<&'a Unit> {
    view.units
        .iter()
        .find(|x| x.location.province == u.location.province)
}

fn check_unit(view: &GameView, power: Power, u: &Unit) -> Result<(), OrderError> {
    match find(view, u) {
        None => Err(OrderError::NoSuchUnit),
        Some(x) if x.power != power || u.power != power => Err(OrderError::NotYourUnit),
        Some(x) if x != u => Err(OrderError::NoSuchUnit),
        Some(_) => Ok(()),
    }
}

fn check_other(view: &GameView, u: &Unit) -> Result<(), OrderError> {
    match find(view, u) {
        Some(x) if x.kind == u.kind && x.power == u.power => Ok(()),
        _ => Err(OrderError::NoSuchUnit),
    }
}

/// Checks `order` from `power` against `view`. `adjustments_left` is the
/// number of builds (> 0) or removals (< 0) still open for the power, after
/// the orders it already has standing this phase.
pub fn check_order(
    view: &GameView,
    power: Power,
    order: &Order,
    adjustments_left: i32,
) -> Result<(), OrderError> {
    let map = &view.map;
    let kind = view.phase.season.kind();
    match (kind, order) {
        (PhaseKind::Movement, Order::Hold(u)) => check_unit(view, power, u),
        (PhaseKind::Movement, Order::Move { unit, to, via }) => {
            check_unit(view, power, unit)?;
            check_move(view, unit, *to, via.is_some())
        }
        (PhaseKind::Movement, Order::SupportHold { unit, supported }) => {
            check_unit(view, power, unit)?;
            check_other(view, supported)?;
            if map.can_reach_province(unit.kind, unit.location, supported.location.province) {
                Ok(())
            } else {
                Err(OrderError::NotAdjacent)
            }
        }
        (
            PhaseKind::Movement,
            Order::SupportMove {
                unit,
                supported,
                to,
            },
        ) => {
            check_unit(view, power, unit)?;
            check_other(view, supported)?;
            if map.can_reach_province(unit.kind, unit.location, *to) {
                Ok(())
            } else {
                Err(OrderError::NotAdjacent)
            }
        }
        (PhaseKind::Movement, Order::Convoy { unit, army, .. }) => {
            check_unit(view, power, unit)?;
            if unit.kind != UnitType::Fleet {
                return Err(OrderError::NoSuchFleet);
            }
            if map.info(unit.location.province).map(|i| i.kind) != Some(ProvinceKind::Sea) {
                return Err(OrderError::NotAtSea);
            }
            if army.kind != UnitType::Army {
                return Err(OrderError::NoSuchArmy);
            }
            check_other(view, army).map_err(|_| OrderError::NoSuchArmy)
        }
        (PhaseKind::Retreat, Order::Retreat { unit, .. } | Order::Disband(unit)) => {
            let Some(d) = view.dislodged.iter().find(|d| d.unit == *unit) else {
                return Err(if find(view, unit).is_some() {
                    OrderError::NoRetreatNeeded
                } else {
                    OrderError::NoSuchUnit
                });
            };
            if d.unit.power != power {
                return Err(OrderError::NotYourUnit);
            }
            match order {
                Order::Retreat { to, .. } if !d.retreats.contains(to) => {
                    Err(OrderError::InvalidRetreat)
                }
                _ => Ok(()),
            }
        }
        (PhaseKind::Adjustment, Order::Build(u)) => check_build(view, power, u, adjustments_left),
        (PhaseKind::Adjustment, Order::Remove(u)) => {
            check_unit(view, power, u)?;
            if adjustments_left >= 0 {
                Err(OrderError::NoMoreRemovals)
            } else {
                Ok(())
            }
        }
        (PhaseKind::Adjustment, Order::Waive(p)) => {
            if *p != power {
                Err(OrderError::NotYourUnit)
            } else if adjustments_left <= 0 {
                Err(OrderError::NoMoreBuilds)
            } else {
                Ok(())
            }
        }
        _ => Err(OrderError::WrongSeason),
    }
}

/// A move's geography: adjacent, or an army that may be convoyed between coasts (the
/// adjudicator decides), or a fleet that must name the coast it goes to.
fn check_move(
    view: &GameView,
    unit: &Unit,
    to: Location,
    via_convoy: bool,
) -> Result<(), OrderError> {
    let map = &view.map;
    if via_convoy {
        if unit.kind != UnitType::Army {
            return Err(OrderError::NoSuchArmy);
        }
        return Ok(());
    }
    if map.can_move(unit.kind, unit.location, to) {
        return Ok(());
    }
    let to_info = map.info(to.province).ok_or(OrderError::NotAdjacent)?;
    let from_info = map
        .info(unit.location.province)
        .ok_or(OrderError::NotAdjacent)?;
    match unit.kind {
        // An army may be convoyed between coasts: the adjudicator decides.
        UnitType::Army
            if to.coast.is_none()
                && from_info.kind != ProvinceKind::Inland
                && to_info.kind != ProvinceKind::Inland
                && to_info.kind != ProvinceKind::Sea =>
        {
            Ok(())
        }
        UnitType::Fleet
            if to_info.kind == ProvinceKind::Bicoastal
                && to.coast.is_none()
                && map.can_reach_province(UnitType::Fleet, unit.location, to.province) =>
        {
            Err(OrderError::NoCoast)
        }
        _ => Err(OrderError::NotAdjacent),
    }
}

/// A build: the power's own, vacant home centre, with builds left and a unit that can stand there.
fn check_build(
    view: &GameView,
    power: Power,
    u: &Unit,
    adjustments_left: i32,
) -> Result<(), OrderError> {
    let map = &view.map;
    if u.power != power {
        return Err(OrderError::NotYourUnit);
    }
    if adjustments_left <= 0 {
        return Err(OrderError::NoMoreBuilds);
    }
    let p = u.location.province;
    let info = map.info(p).ok_or(OrderError::NotSupplyCentre)?;
    if !info.supply_centre {
        return Err(OrderError::NotSupplyCentre);
    }
    if !info.home_of.contains(&power) {
        return Err(OrderError::NotHomeCentre);
    }
    if view.owners.get(&p) != Some(&power) {
        return Err(OrderError::NotYourCentre);
    }
    if view.units.iter().any(|x| x.location.province == p) {
        return Err(OrderError::CentreOccupied);
    }
    if map.can_stand(u.kind, u.location) {
        return Ok(());
    }
    Err(match (u.kind, info.kind) {
        (UnitType::Fleet, ProvinceKind::Bicoastal) => OrderError::NoCoast,
        (UnitType::Fleet, _) => OrderError::NoSuchFleet,
        (UnitType::Army, _) => OrderError::NoSuchArmy,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::game::Game;
    use crate::diplomacy::judge::Rules;
    use crate::diplomacy::model::{Coast, Location, Phase, Season};

    fn view() -> GameView {
        Game::standard(Rules::default()).view(None)
    }

    #[test]
    fn movement_checks() {
        let v = view();
        let m = v.map.clone();
        let p = |n: &str| m.province(n).unwrap();
        let at = |n: &str| {
            *v.units
                .iter()
                .find(|u| u.location.province == p(n))
                .unwrap()
        };
        let eng = m.power("ENG").unwrap();
        let fra = m.power("FRA").unwrap();
        let lon = at("LON");
        let mv = |u: Unit, to: Location| Order::Move {
            unit: u,
            to,
            via: None,
        };
        assert_eq!(
            check_order(&v, eng, &mv(lon, Location::new(p("NTH"))), 0),
            Ok(())
        );
        assert_eq!(
            check_order(&v, fra, &mv(lon, Location::new(p("NTH"))), 0),
            Err(OrderError::NotYourUnit)
        );
        assert_eq!(
            check_order(&v, eng, &mv(lon, Location::new(p("PAR"))), 0),
            Err(OrderError::NotAdjacent)
        );
        // An army may try a convoy between coasts.
        assert_eq!(
            check_order(&v, eng, &mv(at("LVP"), Location::new(p("NWY"))), 0),
            Ok(())
        );
        // A fleet into a bicoastal province needs a coast.
        let stp = at("STP");
        let rus = m.power("RUS").unwrap();
        assert_eq!(
            check_order(&v, rus, &mv(stp, Location::new(p("GOB"))), 0),
            Ok(())
        );
        let sev = at("SEV");
        assert_eq!(
            check_order(&v, rus, &mv(sev, Location::new(p("BUL"))), 0),
            Err(OrderError::NotAdjacent)
        );
        let bre = at("BRE");
        let mao = mv(bre, Location::new(p("MAO")));
        assert_eq!(check_order(&v, fra, &mao, 0), Ok(()));
        assert_eq!(
            check_order(&v, fra, &Order::Disband(bre), 0),
            Err(OrderError::WrongSeason)
        );
        // Fleet convoy must be at sea.
        assert_eq!(
            check_order(
                &v,
                eng,
                &Order::Convoy {
                    unit: lon,
                    army: at("LVP"),
                    to: p("NWY")
                },
                0
            ),
            Err(OrderError::NotAtSea)
        );
        // Support reach.
        assert_eq!(
            check_order(
                &v,
                fra,
                &Order::SupportMove {
                    unit: at("PAR"),
                    supported: at("MAR"),
                    to: p("BUR")
                },
                0
            ),
            Ok(())
        );
        assert_eq!(
            check_order(
                &v,
                fra,
                &Order::SupportMove {
                    unit: at("PAR"),
                    supported: at("MAR"),
                    to: p("SPA")
                },
                0
            ),
            Err(OrderError::NotAdjacent)
        );
    }

    #[test]
    fn adjustment_checks() {
        let mut v = view();
        v.phase = Phase {
            year: 1901,
            season: Season::Winter,
        };
        let m = v.map.clone();
        let p = |n: &str| m.province(n).unwrap();
        let rus = m.power("RUS").unwrap();
        v.units.retain(|u| u.location.province != p("STP"));
        let fleet = |l: Location| Unit {
            power: rus,
            kind: UnitType::Fleet,
            location: l,
        };
        let army = |l: Location| Unit {
            power: rus,
            kind: UnitType::Army,
            location: l,
        };
        assert_eq!(
            check_order(&v, rus, &Order::Build(fleet(Location::new(p("STP")))), 1),
            Err(OrderError::NoCoast)
        );
        assert_eq!(
            check_order(
                &v,
                rus,
                &Order::Build(fleet(Location::with_coast(p("STP"), Coast::North))),
                1
            ),
            Ok(())
        );
        assert_eq!(
            check_order(&v, rus, &Order::Build(army(Location::new(p("STP")))), 0),
            Err(OrderError::NoMoreBuilds)
        );
        assert_eq!(
            check_order(&v, rus, &Order::Build(army(Location::new(p("MOS")))), 1),
            Err(OrderError::CentreOccupied)
        );
        assert_eq!(
            check_order(&v, rus, &Order::Build(army(Location::new(p("UKR")))), 1),
            Err(OrderError::NotSupplyCentre)
        );
        assert_eq!(
            check_order(&v, rus, &Order::Build(army(Location::new(p("RUM")))), 1),
            Err(OrderError::NotHomeCentre)
        );
        assert_eq!(check_order(&v, rus, &Order::Waive(rus), 1), Ok(()));
        let mos = *v
            .units
            .iter()
            .find(|u| u.location.province == p("MOS"))
            .unwrap();
        assert_eq!(
            check_order(&v, rus, &Order::Remove(mos), 0),
            Err(OrderError::NoMoreRemovals)
        );
        assert_eq!(check_order(&v, rus, &Order::Remove(mos), -1), Ok(()));
    }
}
