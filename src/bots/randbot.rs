//! RandBot (David Norman's AiClient baseline): every unit moves to a uniformly
//! random adjacent place (no conflict checks), dislodged units disband,
//! removals as HoldBot, builds in random open home centres with a random unit
//! type and coast, the rest waived. Seeded.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::util::{build_options, destinations, my_units, open_home_centres};
use crate::budget::Budget;
use crate::diplomacy::{GameView, Order, PhaseKind, Player};

/// Random moves.
#[derive(Debug, Clone)]
pub struct RandBot {
    rng: Xoshiro256PlusPlus,
}

impl RandBot {
    /// A RandBot drawing from `seed`.
    pub fn new(seed: u64) -> Self {
        RandBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Player for RandBot {
    fn orders(&mut self, view: &GameView, _budget: Budget) -> Vec<Order> {
        let Some(me) = view.me else {
            return Vec::new();
        };
        match view.phase.season.kind() {
            PhaseKind::Movement => my_units(view, me)
                .into_iter()
                .map(|u| match destinations(view, &u).choose(&mut self.rng) {
                    Some(to) => Order::Move {
                        unit: u,
                        to: *to,
                        via: None,
                    },
                    None => Order::Hold(u),
                })
                .collect(),
            PhaseKind::Retreat => view
                .dislodged
                .iter()
                .filter(|d| d.unit.power == me)
                .map(|d| Order::Disband(d.unit))
                .collect(),
            PhaseKind::Adjustment => {
                let delta = view.adjustment(me);
                if delta < 0 {
                    return my_units(view, me)
                        .into_iter()
                        .take(delta.unsigned_abs() as usize)
                        .map(Order::Remove)
                        .collect();
                }
                let mut open = open_home_centres(view, me);
                let mut orders = Vec::new();
                for _ in 0..delta {
                    if open.is_empty() {
                        orders.push(Order::Waive(me));
                        continue;
                    }
                    let p = open.swap_remove(self.rng.gen_range(0..open.len()));
                    match build_options(view, me, p).choose(&mut self.rng) {
                        Some(u) => orders.push(Order::Build(*u)),
                        None => orders.push(Order::Waive(me)),
                    }
                }
                orders
            }
        }
    }
}
