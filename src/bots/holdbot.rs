//! HoldBot (David Norman's AiClient baseline): every unit holds, every
//! dislodged unit disbands, removals take the first units in province order,
//! builds are all waived.

use super::util::my_units;
use crate::budget::Budget;
use crate::diplomacy::{GameView, Order, PhaseKind, Player};

/// Holds everything.
#[derive(Debug, Clone, Default)]
pub struct HoldBot;

impl HoldBot {
    /// A HoldBot (it has no random state).
    pub fn new() -> Self {
        HoldBot
    }
}

impl Player for HoldBot {
    fn orders(&mut self, view: &GameView, _budget: Budget) -> Vec<Order> {
        let Some(me) = view.me else {
            return Vec::new();
        };
        match view.phase.season.kind() {
            PhaseKind::Movement => my_units(view, me).into_iter().map(Order::Hold).collect(),
            PhaseKind::Retreat => view
                .dislodged
                .iter()
                .filter(|d| d.unit.power == me)
                .map(|d| Order::Disband(d.unit))
                .collect(),
            PhaseKind::Adjustment => {
                let delta = view.adjustment(me);
                if delta < 0 {
                    my_units(view, me)
                        .into_iter()
                        .take(delta.unsigned_abs() as usize)
                        .map(Order::Remove)
                        .collect()
                } else {
                    (0..delta).map(|_| Order::Waive(me)).collect()
                }
            }
        }
    }
}
