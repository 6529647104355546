//! Supply centres by year in a tournament game (`tablero diplomacy play --svg`): each
//! built-in seat is wrapped so that every spring position it is shown notes every power's
//! centres; the game's final count closes the history. Over DAIDE and locally alike the
//! players see each spring, so the history is the same for both transports.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::budget::Budget;
use crate::diplomacy::{GameView, Order, Phase, Player, Power, Season};

/// Centres per power (map order) at the end of each year; year 1900 is the start.
#[derive(Debug, Clone, Default)]
pub struct CentreLog(Arc<Mutex<BTreeMap<i16, Vec<usize>>>>);

/// A player that notes the centres of the positions it is shown, then plays as `inner`.
struct Noting {
    inner: Box<dyn Player>,
    log: CentreLog,
}

impl Player for Noting {
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        self.inner.orders(view, budget)
    }

    fn observe(&mut self, view: &GameView, orders: &[Order]) {
        self.inner.observe(view, orders);
    }

    fn position(&mut self, view: &GameView) {
        if view.phase.season == Season::Spring {
            let counts = (0..view.map.power_count())
                .map(|p| view.centre_count(Power(p as u8)))
                .collect();
            self.log.note(view.phase.year - 1, counts);
        }
        self.inner.position(view);
    }
}

/// The year whose end a position of `phase` shows: centres change hands after the autumn.
pub fn year_ended(phase: Phase) -> i16 {
    match phase.season {
        Season::Spring | Season::Summer | Season::Fall => phase.year - 1,
        Season::Autumn | Season::Winter => phase.year,
    }
}

impl CentreLog {
    /// `player`, noting into this log.
    pub fn wrap(&self, player: Box<dyn Player>) -> Box<dyn Player> {
        Box::new(Noting {
            inner: player,
            log: self.clone(),
        })
    }

    /// Notes the counts of `year` (the first note of a year stands).
    fn note(&self, year: i16, counts: Vec<usize>) {
        if let Ok(mut log) = self.0.lock() {
            log.entry(year).or_insert(counts);
        }
    }

    /// The history, closed by the game's `final_centres` in the year `final_phase` ends.
    pub fn history(&self, final_phase: Phase, final_centres: &[usize]) -> Vec<(i16, Vec<usize>)> {
        let mut log = self.0.lock().map(|l| l.clone()).unwrap_or_default();
        log.insert(year_ended(final_phase), final_centres.to_vec());
        log.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diplomacy::Game;
    use crate::diplomacy::judge::Rules;

    fn phase(year: i16, season: Season) -> Phase {
        Phase { year, season }
    }

    #[test]
    fn a_spring_position_is_the_end_of_the_year_before() {
        assert_eq!(year_ended(phase(1905, Season::Spring)), 1904);
        assert_eq!(year_ended(phase(1905, Season::Fall)), 1904);
        assert_eq!(year_ended(phase(1905, Season::Winter)), 1905);
    }

    #[test]
    fn positions_and_the_final_count_make_the_history() {
        let game = Game::standard(Rules::default());
        let log = CentreLog::default();
        let hold = |_: &GameView, _: Budget| Vec::new();
        let mut a = log.wrap(Box::new(hold));
        let mut b = log.wrap(Box::new(hold));
        a.position(&game.view(Some(Power(0))));
        b.position(&game.view(Some(Power(1))));
        let history = log.history(phase(1902, Season::Spring), &[5, 3, 3, 3, 3, 4, 1]);
        assert_eq!(
            history,
            [
                (1900, vec![3, 3, 3, 3, 3, 4, 3]),
                (1901, vec![5, 3, 3, 3, 3, 4, 1])
            ]
        );
    }
}
