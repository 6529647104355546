//! Players and a local game runner: complete games with players called
//! directly (no protocol), for `tablero diplomacy play`, tests and benches.
//!
//! The [`Player`] trait is what every Diplomacy bot implements; the DAIDE
//! client drives the same trait over the network.

use std::time::{Duration, Instant};

use super::game::{Game, GameView};
use super::judge::{JudgeError, Rules};
use super::model::{Order, Phase, Power};
use crate::budget::{Budget, CancelFlag};

/// What a bot must provide: orders for `view.me` in `view.phase`, within `budget`.
pub trait Player: Send + 'static {
    /// The orders for this phase (units left without orders hold / disband).
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order>;

    /// Every power's orders of a resolved phase, with the position they
    /// were given in (`view.me` is `None`): what DAIDE reveals after each
    /// phase (`ORD`). Called before the next [`Player::orders`]; it must
    /// return at once (store now, think in `orders`). Default: ignored.
    fn observe(&mut self, _view: &GameView, _orders: &[Order]) {}

    /// The position at the start of every phase (`view.me` is the player's
    /// power), whether or not the player has anything to order: what DAIDE's
    /// `NOW` shows every power. Called before that phase's
    /// [`Player::orders`] and after the previous phase's [`Player::observe`];
    /// it must return at once. Successive positions show where every unit
    /// ended each movement phase ([`super::infer`]), also on servers that
    /// report no other power's orders. Default: ignored.
    fn position(&mut self, _view: &GameView) {}
}

impl<F> Player for F
where
    F: FnMut(&GameView, Budget) -> Vec<Order> + Send + 'static,
{
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        self(view, budget)
    }
}

impl Player for Box<dyn Player> {
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        (**self).orders(view, budget)
    }
    fn observe(&mut self, view: &GameView, orders: &[Order]) {
        (**self).observe(view, orders)
    }
    fn position(&mut self, view: &GameView) {
        (**self).position(view)
    }
}

/// How a local game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A solo.
    Solo {
        /// The winner.
        winner: Power,
        /// The year of the win.
        year: i16,
    },
    /// The year cap was reached: a draw among the survivors.
    Draw {
        /// The surviving powers.
        survivors: Vec<Power>,
    },
}

/// The result of one local game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// How it ended.
    pub outcome: Outcome,
    /// Centres per power at the end (power order of the map).
    pub centres: Vec<usize>,
    /// Year each power was eliminated in, if it was.
    pub eliminated: Vec<Option<i16>>,
    /// The last phase reached.
    pub final_phase: Phase,
}

/// Settings of a local game.
#[derive(Debug, Clone)]
pub struct LocalGame {
    /// Last year played (the game is a draw after it).
    pub end_year: i16,
    /// Thinking time per player per phase.
    pub think_time: Duration,
    /// Adjudication rules.
    pub rules: Rules,
}

impl Default for LocalGame {
    fn default() -> Self {
        LocalGame {
            end_year: 1930,
            think_time: Duration::from_secs(1),
            rules: Rules::default(),
        }
    }
}

impl LocalGame {
    /// Plays a standard game; `players[i]` plays the map's power `i`.
    pub fn play_standard(&self, players: &mut [Box<dyn Player>]) -> Result<GameRecord, JudgeError> {
        let game = Game::standard(self.rules);
        self.play(game, players)
    }

    /// Plays `game` to the end; `players[i]` plays power `i` (missing players hold).
    pub fn play(
        &self,
        mut game: Game,
        players: &mut [Box<dyn Player>],
    ) -> Result<GameRecord, JudgeError> {
        let n = game.map().power_count();
        let mut eliminated: Vec<Option<i16>> = vec![None; n];
        loop {
            let phase = game.phase();
            if let Some(winner) = game.solo_winner() {
                return Ok(self.record(
                    &game,
                    Outcome::Solo {
                        winner,
                        year: phase.year,
                    },
                    eliminated,
                ));
            }
            if phase.year > self.end_year {
                let survivors = (0..n as u8)
                    .map(Power)
                    .filter(|p| !game.is_eliminated(*p))
                    .collect();
                return Ok(self.record(&game, Outcome::Draw { survivors }, eliminated));
            }
            let mut orders = Vec::new();
            for (i, player) in players.iter_mut().enumerate().take(n) {
                let me = Power(i as u8);
                let view = game.view(Some(me));
                player.position(&view);
                if !view.needs_orders(me) {
                    continue;
                }
                let budget = Budget::new(Instant::now() + self.think_time, CancelFlag::new());
                // A player may only order its own units.
                orders.extend(
                    player
                        .orders(&view, budget)
                        .into_iter()
                        .filter(|o| o.power() == me),
                );
            }
            let seen = game.view(None);
            for player in players.iter_mut().take(n) {
                player.observe(&seen, &orders);
            }
            game.process(&orders)?;
            for (i, e) in eliminated.iter_mut().enumerate() {
                if e.is_none() && game.is_eliminated(Power(i as u8)) {
                    *e = Some(phase.year);
                }
            }
        }
    }

    fn record(&self, game: &Game, outcome: Outcome, eliminated: Vec<Option<i16>>) -> GameRecord {
        let centres = (0..game.map().power_count() as u8)
            .map(|p| game.centre_count(Power(p)))
            .collect();
        GameRecord {
            outcome,
            centres,
            eliminated,
            final_phase: game.phase(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::model::{Location, UnitType};

    fn hold() -> Box<dyn Player> {
        Box::new(|view: &GameView, _: Budget| {
            view.units
                .iter()
                .filter(|u| Some(u.power) == view.me)
                .map(|u| Order::Hold(*u))
                .collect()
        })
    }

    #[test]
    fn all_hold_is_a_seven_way_draw_at_the_cap() {
        let mut players: Vec<Box<dyn Player>> = (0..7).map(|_| hold()).collect();
        let g = LocalGame {
            end_year: 1903,
            ..LocalGame::default()
        };
        let r = g.play_standard(&mut players).unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Draw {
                survivors: (0..7).map(Power).collect()
            }
        );
        assert_eq!(r.centres.iter().sum::<usize>(), 22);
        assert_eq!(r.final_phase.year, 1904);
    }

    #[test]
    fn players_cannot_order_other_powers_units() {
        // Power 0 orders every unit on the board to move; only its own count.
        let greedy: Box<dyn Player> = Box::new(|view: &GameView, _: Budget| {
            view.units
                .iter()
                .filter_map(|u| {
                    let to = match u.kind {
                        UnitType::Army => view
                            .map
                            .army_neighbours(u.location.province)
                            .first()
                            .map(|p| Location::new(*p)),
                        UnitType::Fleet => view.map.fleet_neighbours(u.location).first().copied(),
                    }?;
                    Some(Order::Move {
                        unit: *u,
                        to,
                        via: None,
                    })
                })
                .collect()
        });
        let mut players: Vec<Box<dyn Player>> = vec![greedy];
        let g = LocalGame {
            end_year: 1901,
            ..LocalGame::default()
        };
        let r = g.play_standard(&mut players).unwrap();
        assert!(matches!(r.outcome, Outcome::Draw { .. }));
    }

    /// What a [`Watcher`] saw: phase, `view.me`, orders.
    type Seen = std::sync::Arc<std::sync::Mutex<Vec<(Phase, Option<Power>, Vec<Order>)>>>;

    /// Holds and records what it observes.
    struct Watcher(Seen);

    impl Player for Watcher {
        fn orders(&mut self, view: &GameView, _: Budget) -> Vec<Order> {
            view.units
                .iter()
                .filter(|u| Some(u.power) == view.me)
                .map(|u| Order::Hold(*u))
                .collect()
        }
        fn observe(&mut self, view: &GameView, orders: &[Order]) {
            let seen = (view.phase, view.me, orders.to_vec());
            self.0.lock().unwrap().push(seen);
        }
    }

    #[test]
    fn players_observe_every_powers_orders_with_the_position_they_were_given_in() {
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut players: Vec<Box<dyn Player>> = (0..7).map(|_| hold()).collect();
        players[3] = Box::new(Watcher(log.clone()));
        let g = LocalGame {
            end_year: 1901,
            ..LocalGame::default()
        };
        g.play_standard(&mut players).unwrap();
        let log = log.lock().unwrap();
        // Spring and fall 1901 (no retreats, no adjustments when all hold).
        assert_eq!(log.len(), 2);
        assert_eq!(
            log[0].0,
            Phase {
                year: 1901,
                season: crate::diplomacy::Season::Spring
            }
        );
        assert_eq!(log[0].1, None);
        assert_eq!(log[0].2.len(), 22);
        let powers: std::collections::BTreeSet<u8> = log[0].2.iter().map(|o| o.power().0).collect();
        assert_eq!(powers.len(), 7);
    }
}
