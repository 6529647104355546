//! `[evolve]`: the parameters of the dungeon GA and the NPC GP (`tablero evolve`), with the
//! checks of their values.

use serde::{Deserialize, Serialize};

use super::ConfigError;

/// `[evolve]`: the dungeon GA and the NPC GP (`tablero evolve`). The thesis gives almost no
/// numbers; every value here is tablero's choice (see `protocols/evolution.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvolveConfig {
    pub dungeon_population: usize,
    pub dungeon_generations: usize,
    pub dungeon_selection: crate::evolve::ga::Selection,
    pub dungeon_tournament: usize,
    pub dungeon_ranking_pressure: f64,
    pub dungeon_shift_epsilon: f64,
    pub dungeon_elitism: usize,
    pub dungeon_crossover_rate: f64,
    pub dungeon_crossover_cuts: usize,
    pub dungeon_cross_edges_min: usize,
    pub dungeon_cross_edges_max: usize,
    pub dungeon_mutation_rate: f64,
    pub dungeon_combined_mutation: crate::evolve::dungeon::Combined,
    pub dungeon_stagnation: usize,
    pub dungeon_init_rooms_min: usize,
    pub dungeon_init_rooms_max: usize,
    pub dungeon_init_edge_factor: f64,
    pub dungeon_room_side_min: u32,
    pub dungeon_room_side_max: u32,
    pub dungeon_enemies_max: u32,
    pub dungeon_chests_max: u32,
    pub dungeon_rooms_weight: f64,
    pub dungeon_window_min: usize,
    pub dungeon_window_max: usize,
    pub dungeon_window_penalty: f64,
    pub dungeon_check_controller: String,
    pub dungeon_check_act_ms: u64,
    pub dungeon_check_expansions: usize,
    pub npc_population: usize,
    pub npc_generations: usize,
    pub npc_tournament: usize,
    pub npc_elitism: usize,
    pub npc_crossover_rate: f64,
    pub npc_mutation_rate: f64,
    pub npc_min_depth: usize,
    pub npc_max_depth: usize,
    pub npc_depth_cap: usize,
    pub npc_turns: usize,
    pub npc_player_hp: u32,
    pub npc_hp: u32,
    pub npc_detection_range: u32,
    pub npc_heal_turns: u32,
    pub npc_threads: usize,
}

impl Default for EvolveConfig {
    fn default() -> Self {
        Self {
            dungeon_population: 100,
            dungeon_generations: 100,
            dungeon_selection: crate::evolve::ga::Selection::Tournament,
            dungeon_tournament: 3,
            dungeon_ranking_pressure: 1.5,
            dungeon_shift_epsilon: 0.01,
            dungeon_elitism: 2,
            dungeon_crossover_rate: 0.8,
            dungeon_crossover_cuts: 1,
            dungeon_cross_edges_min: 1,
            dungeon_cross_edges_max: 3,
            dungeon_mutation_rate: 0.2,
            dungeon_combined_mutation: crate::evolve::dungeon::Combined::One,
            dungeon_stagnation: 0,
            dungeon_init_rooms_min: 15,
            dungeon_init_rooms_max: 40,
            dungeon_init_edge_factor: 1.2,
            dungeon_room_side_min: 4,
            dungeon_room_side_max: 12,
            dungeon_enemies_max: 3,
            dungeon_chests_max: 2,
            dungeon_rooms_weight: 0.4,
            dungeon_window_min: 15,
            dungeon_window_max: 30,
            dungeon_window_penalty: 2.0,
            dungeon_check_controller: "dungeon-bfs".into(),
            dungeon_check_act_ms: 100,
            dungeon_check_expansions: 200_000,
            npc_population: 100,
            npc_generations: 50,
            npc_tournament: 3,
            npc_elitism: 3,
            npc_crossover_rate: 0.8,
            npc_mutation_rate: 0.2,
            npc_min_depth: 2,
            npc_max_depth: 6,
            npc_depth_cap: 8,
            npc_turns: 100,
            npc_player_hp: 3,
            npc_hp: 3,
            npc_detection_range: 5,
            npc_heal_turns: 4,
            npc_threads: 0,
        }
    }
}

impl EvolveConfig {
    /// The dungeon GA's parameters, with the scheme, generations and population given.
    pub fn ga_params(
        &self,
        scheme: crate::evolve::ga::Selection,
        generations: usize,
        population: usize,
    ) -> crate::evolve::dungeon::GaParams {
        use crate::evolve::dungeon as d;
        d::GaParams {
            population,
            generations,
            elitism: self.dungeon_elitism,
            crossover_rate: self.dungeon_crossover_rate,
            mutation_rate: self.dungeon_mutation_rate,
            select: crate::evolve::ga::SelectParams {
                scheme,
                tournament: self.dungeon_tournament,
                ranking_pressure: self.dungeon_ranking_pressure,
                shift_epsilon: self.dungeon_shift_epsilon,
            },
            init: d::InitParams {
                rooms_min: self.dungeon_init_rooms_min,
                rooms_max: self.dungeon_init_rooms_max,
                edge_factor: self.dungeon_init_edge_factor,
                room_side_min: self.dungeon_room_side_min,
                room_side_max: self.dungeon_room_side_max,
                enemies_max: self.dungeon_enemies_max,
                chests_max: self.dungeon_chests_max,
            },
            ops: d::OperatorParams {
                cuts: self.dungeon_crossover_cuts,
                cross_edges_min: self.dungeon_cross_edges_min,
                cross_edges_max: self.dungeon_cross_edges_max,
                combined: self.dungeon_combined_mutation,
            },
            fitness: d::FitnessParams {
                rooms_weight: self.dungeon_rooms_weight,
                window_min: self.dungeon_window_min,
                window_max: self.dungeon_window_max,
                window_penalty: self.dungeon_window_penalty,
            },
            stagnation: self.dungeon_stagnation,
        }
    }

    /// The dungeon GA's parameters as configured.
    pub fn dungeon_params(&self) -> crate::evolve::dungeon::GaParams {
        self.ga_params(
            self.dungeon_selection,
            self.dungeon_generations,
            self.dungeon_population,
        )
    }

    /// Checks this section's value ranges; the first problem found is returned.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        self.validate_rates_and_minimums()?;
        self.validate_dungeon_ranges()?;
        self.validate_depths_and_choices()?;
        Ok(())
    }

    /// The probabilities lie in [0, 1] and the counts reach their minimums.
    fn validate_rates_and_minimums(&self) -> Result<(), ConfigError> {
        let prob = [
            ("dungeon_crossover_rate", self.dungeon_crossover_rate),
            ("dungeon_mutation_rate", self.dungeon_mutation_rate),
            ("npc_crossover_rate", self.npc_crossover_rate),
            ("npc_mutation_rate", self.npc_mutation_rate),
        ];
        for (k, v) in prob {
            if !(0.0..=1.0).contains(&v) {
                return invalid(k, format!("must be a probability in [0, 1], got {v}"));
            }
        }
        let at_least = [
            ("dungeon_population", self.dungeon_population, 2),
            ("dungeon_tournament", self.dungeon_tournament, 1),
            ("dungeon_crossover_cuts", self.dungeon_crossover_cuts, 1),
            ("dungeon_init_rooms_min", self.dungeon_init_rooms_min, 3),
            (
                "dungeon_room_side_min",
                self.dungeon_room_side_min as usize,
                1,
            ),
            (
                "dungeon_check_act_ms",
                self.dungeon_check_act_ms as usize,
                1,
            ),
            ("dungeon_check_expansions", self.dungeon_check_expansions, 1),
            ("npc_population", self.npc_population, 2),
            ("npc_tournament", self.npc_tournament, 1),
            ("npc_max_depth", self.npc_max_depth, 1),
            ("npc_turns", self.npc_turns, 1),
            ("npc_player_hp", self.npc_player_hp as usize, 1),
            ("npc_hp", self.npc_hp as usize, 1),
            ("npc_detection_range", self.npc_detection_range as usize, 1),
        ];
        for (k, v, min) in at_least {
            if v < min {
                return invalid(k, format!("must be at least {min}, got {v}"));
            }
        }
        Ok(())
    }

    /// The dungeon generator's ranges are ordered and its numbers finite and in range.
    fn validate_dungeon_ranges(&self) -> Result<(), ConfigError> {
        if self.dungeon_init_rooms_max < self.dungeon_init_rooms_min {
            return invalid(
                "dungeon_init_rooms_max",
                "must be >= dungeon_init_rooms_min".into(),
            );
        }
        if self.dungeon_room_side_max < self.dungeon_room_side_min {
            return invalid(
                "dungeon_room_side_max",
                "must be >= dungeon_room_side_min".into(),
            );
        }
        if self.dungeon_cross_edges_max < self.dungeon_cross_edges_min {
            return invalid(
                "dungeon_cross_edges_max",
                "must be >= dungeon_cross_edges_min".into(),
            );
        }
        if !(1.0..=2.0).contains(&self.dungeon_ranking_pressure) {
            return invalid(
                "dungeon_ranking_pressure",
                format!("must be in [1, 2], got {}", self.dungeon_ranking_pressure),
            );
        }
        if !(self.dungeon_init_edge_factor.is_finite() && self.dungeon_init_edge_factor >= 0.0) {
            return invalid(
                "dungeon_init_edge_factor",
                "must be a finite number >= 0".into(),
            );
        }
        if !(self.dungeon_shift_epsilon.is_finite() && self.dungeon_shift_epsilon > 0.0) {
            return invalid(
                "dungeon_shift_epsilon",
                "must be a finite number > 0".into(),
            );
        }
        if !(self.dungeon_rooms_weight.is_finite() && self.dungeon_window_penalty.is_finite()) {
            return invalid("dungeon_rooms_weight", "weights must be finite".into());
        }
        if self.dungeon_window_max < self.dungeon_window_min {
            return invalid("dungeon_window_max", "must be >= dungeon_window_min".into());
        }
        Ok(())
    }

    /// The checking controller is known, the NPC tree depths are ordered and capped, and
    /// elitism leaves room for offspring.
    fn validate_depths_and_choices(&self) -> Result<(), ConfigError> {
        if !["dungeon-bfs", "bfs", "iw", "mcts"].contains(&self.dungeon_check_controller.as_str()) {
            return invalid(
                "dungeon_check_controller",
                format!(
                    "must be dungeon-bfs, bfs, iw or mcts, got {:?}",
                    self.dungeon_check_controller
                ),
            );
        }
        if self.npc_min_depth > self.npc_max_depth || self.npc_max_depth > self.npc_depth_cap {
            return invalid(
                "npc_depth_cap",
                "need npc_min_depth <= npc_max_depth <= npc_depth_cap".into(),
            );
        }
        if self.npc_depth_cap > 17 {
            return invalid("npc_depth_cap", "must be at most 17".into());
        }
        if self.dungeon_elitism >= self.dungeon_population
            || self.npc_elitism >= self.npc_population
        {
            return invalid(
                "dungeon_elitism",
                "elitism must be below the population".into(),
            );
        }
        Ok(())
    }
}

/// The error for key `evolve.{key}`.
fn invalid(key: &str, message: String) -> Result<(), ConfigError> {
    Err(ConfigError::invalid(&format!("evolve.{key}"), message))
}
