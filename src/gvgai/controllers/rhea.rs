//! Rolling-horizon evolution (in the manner of GVG-AI's `sampleRHEA`): a population of fixed
//! length action sequences is evolved with the forward model, each individual scored by the
//! value of the state at the end of its sequence (played from a re-seeded copy of the current
//! state). Anytime: generations run until the act's deadline (the clock is checked before every
//! forward-model advance) and the first action of the best individual is played. Between acts
//! the population is kept with every sequence shifted by one action and a random action
//! appended (the shift buffer).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Clock, Controller, choices, value};
use crate::budget::Budget;
use crate::gvgai::engine::{Action, GameState};

/// RHEA settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RheaParams {
    /// Individuals per generation (at least 2).
    pub population: usize,
    /// Actions per individual (at least 1).
    pub horizon: usize,
    /// Probability that each action of an offspring is replaced by a random one.
    pub mutation_rate: f64,
    /// Tournament size for parent selection.
    pub tournament: usize,
    /// Individuals kept unchanged into the next generation.
    pub elites: usize,
    /// Cap on individual evaluations per act (the deadline normally ends the search first).
    pub max_evaluations: usize,
    /// Stop this long before the deadline.
    pub margin: std::time::Duration,
}

impl Default for RheaParams {
    fn default() -> Self {
        RheaParams {
            population: 10,
            horizon: 10,
            mutation_rate: 0.1,
            tournament: 2,
            elites: 1,
            max_evaluations: 1_000_000,
            margin: super::SAFETY_MARGIN,
        }
    }
}

#[derive(Debug, Clone)]
struct Individual {
    genes: Vec<usize>,
    fitness: f64,
    evaluated: bool,
}

/// Rolling-horizon evolutionary algorithm.
pub struct Rhea {
    rng: Xoshiro256PlusPlus,
    params: RheaParams,
    population: Vec<Individual>,
    /// Number of actions the population was built for.
    n_actions: usize,
    /// Evaluations done by the last act (for reporting and tests).
    pub last_evaluations: usize,
}

impl Rhea {
    pub fn new(seed: u64, params: RheaParams) -> Self {
        let params = RheaParams {
            population: params.population.max(2),
            horizon: params.horizon.max(1),
            tournament: params.tournament.max(1),
            elites: params.elites.min(params.population.max(2) - 1),
            ..params
        };
        Rhea {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            params,
            population: Vec::new(),
            n_actions: 0,
            last_evaluations: 0,
        }
    }

    fn random_individual(&mut self) -> Individual {
        let n = self.n_actions;
        Individual {
            genes: (0..self.params.horizon)
                .map(|_| self.rng.gen_range(0..n))
                .collect(),
            fitness: f64::NEG_INFINITY,
            evaluated: false,
        }
    }

    /// Shift every individual by one action (the first was just played) and append a random
    /// action; rebuild the population if the action set changed.
    fn prepare(&mut self, n_actions: usize) {
        if n_actions != self.n_actions || self.population.is_empty() {
            self.n_actions = n_actions;
            self.population = (0..self.params.population)
                .map(|_| self.random_individual())
                .collect();
            return;
        }
        for i in 0..self.population.len() {
            let g = self.rng.gen_range(0..n_actions);
            let ind = &mut self.population[i];
            ind.genes.remove(0);
            ind.genes.push(g);
            ind.evaluated = false;
        }
    }

    /// Play `genes` from a re-seeded copy of `root`; `None` if the clock ran out first.
    fn evaluate(
        &mut self,
        root: &GameState,
        actions: &[Action],
        genes: &[usize],
        clock: &Clock,
    ) -> Option<f64> {
        let mut s = root.clone();
        s.reseed(self.rng.r#gen());
        for &g in genes {
            if s.is_over() {
                break;
            }
            if clock.done() {
                return None;
            }
            s.advance(actions[g]);
        }
        Some(value(&s))
    }

    fn tournament(&mut self) -> usize {
        let n = self.population.len();
        let mut best = self.rng.gen_range(0..n);
        for _ in 1..self.params.tournament {
            let c = self.rng.gen_range(0..n);
            if self.population[c].fitness > self.population[best].fitness {
                best = c;
            }
        }
        best
    }

    fn offspring(&mut self) -> Individual {
        let a = self.tournament();
        let b = self.tournament();
        let mut genes = Vec::with_capacity(self.params.horizon);
        for i in 0..self.params.horizon {
            let parent = if self.rng.r#gen::<bool>() { a } else { b };
            genes.push(self.population[parent].genes[i]);
        }
        for g in genes.iter_mut() {
            if self.rng.r#gen::<f64>() < self.params.mutation_rate {
                *g = self.rng.gen_range(0..self.n_actions);
            }
        }
        Individual {
            genes,
            fitness: f64::NEG_INFINITY,
            evaluated: false,
        }
    }

    fn sort(&mut self) {
        self.population
            .sort_by(|x, y| y.fitness.total_cmp(&x.fitness));
    }
}

impl Controller for Rhea {
    fn name(&self) -> &'static str {
        "rhea"
    }

    fn act(&mut self, state: &GameState, budget: &Budget) -> Action {
        let actions = choices(state);
        self.prepare(actions.len());
        let clock = Clock::new(budget, self.params.margin);
        let mut evals = 0;
        // Evaluate the shifted population, then evolve generation after generation.
        'search: loop {
            for i in 0..self.population.len() {
                if self.population[i].evaluated {
                    continue;
                }
                if evals >= self.params.max_evaluations {
                    break 'search;
                }
                let genes = std::mem::take(&mut self.population[i].genes);
                let f = self.evaluate(state, &actions, &genes, &clock);
                self.population[i].genes = genes;
                match f {
                    Some(f) => {
                        self.population[i].fitness = f;
                        self.population[i].evaluated = true;
                        evals += 1;
                    }
                    None => break 'search,
                }
            }
            self.sort();
            let mut next: Vec<Individual> = self.population[..self.params.elites].to_vec();
            while next.len() < self.params.population {
                let child = self.offspring();
                next.push(child);
            }
            // Keep the evaluated parents if the clock stops the next generation early.
            let parents = std::mem::replace(&mut self.population, next);
            if clock.done() || evals >= self.params.max_evaluations {
                self.population = parents;
                break;
            }
        }
        self.last_evaluations = evals;
        // Best evaluated individual (evaluated ones first after sorting).
        let best = self
            .population
            .iter()
            .filter(|i| i.evaluated)
            .max_by(|x, y| x.fitness.total_cmp(&y.fitness))
            .or_else(|| self.population.first());
        match best.and_then(|b| b.genes.first()) {
            Some(&g) if g < actions.len() => actions[g],
            _ => actions[self.rng.gen_range(0..actions.len())],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::CancelFlag;
    use crate::gvgai::controllers::play;
    use crate::gvgai::engine::Game;
    use std::time::{Duration, Instant};

    use crate::gvgai::controllers::tests::CORRIDOR;

    #[test]
    fn rhea_walks_to_a_goal_beyond_one_step() {
        let game = Game::from_texts(
            "corridor",
            CORRIDOR,
            &["wwwwwwwwwww\nwtA     gw\nwwwwwwwwwww\n"],
        )
        .unwrap();
        // A count-based budget, so that the machine's load does not change the result.
        let params = RheaParams {
            max_evaluations: 200,
            ..RheaParams::default()
        };
        let mut c = Rhea::new(7, params);
        let r = play(&game, 0, 1, &mut c, Duration::from_secs(10)).unwrap();
        assert!(r.outcome.win, "{r:?}");
        assert!(r.outcome.ticks < 40, "{r:?}");
    }

    #[test]
    fn same_seed_same_choices_under_an_evaluation_cap() {
        let game = crate::gvgai::games::shipped("butterflies").unwrap();
        let params = RheaParams {
            max_evaluations: 60,
            ..RheaParams::default()
        };
        let run = || {
            let mut c = Rhea::new(11, params);
            let mut s = game.start(0, 3).unwrap();
            let mut seq = String::new();
            for _ in 0..30 {
                let b = Budget::new(Instant::now() + Duration::from_secs(5), CancelFlag::new());
                let a = c.act(&s, &b);
                assert_eq!(c.last_evaluations, 60);
                seq.push(a.to_char());
                s.advance(a);
            }
            seq
        };
        assert_eq!(run(), run());
    }
}
