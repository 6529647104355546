//! JIC ("Jaime I el Conquistador"): tablero's multi-agent planning Diplomacy
//! bot, after P. Castejón Navarro's thesis (UPV, 2011), then stronger.
//!
//! One agent per own unit ([`agent`]) proposes utility-ranked plans; the
//! [`coordinator`] searches their combinations (exhaustive, partitioned by
//! plan type, greedy, deadlock repair) and sends one order set. Retreats and
//! adjustments are in [`adjust`]; the strong mode ([`strong`]) re-ranks the
//! coordinator's best joint orders with the adjudicator against sampled
//! opponent orders. Every choice the thesis leaves open is described in
//! `protocols/jic.md`.
//!
//! Anytime: a greedy joint action is computed first; the search and the
//! strong evaluation only replace it if they finish inside the deadline
//! (`budget_fraction` of the phase budget, optionally capped by
//! `max_think_seconds`).
//!
//! Memory (thesis "knowledge" module): the previous coordinated movement
//! action and centre count, for deadlock detection; centre counts per year,
//! for draw proposals ([`JicBot::wants_draw`]); how well DumbBot's policy
//! explains each power's observed orders ([`model`]), for the spare rule.

pub mod adjust;
pub mod agent;
pub mod bench;
pub mod config;
pub mod coordinator;
pub mod model;
pub mod strong;

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::budget::Budget;
use crate::diplomacy::model::{Order, PhaseKind, Power, Province, Season};
use crate::diplomacy::{GameView, Player};
use agent::{Board, Plan, all_plans_until};
pub use config::{JicConfig, JicMode, SpareScope};
use coordinator::{Choice, SearchParams, all_valid, improve, partitions, score, search, to_orders};

/// Which coordinator mode produced the last movement orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CoordinatorMode {
    /// Mode 1: exhaustive search.
    #[default]
    FullSearch,
    /// Mode 2: partitioned search.
    Partitioned,
    /// Mode 3: greedy (the search did not beat it in time).
    Greedy,
    /// Mode 4: deadlock repair (plus search of the other units).
    DeadlockRepair,
}

/// Facts about the last decision (for logs, tests and benchmarks).
#[derive(Debug, Clone, Default)]
pub struct DecisionStats {
    /// Time spent.
    pub elapsed: Duration,
    /// Coordinator mode used (movement phases).
    pub mode: CoordinatorMode,
    /// Search nodes visited.
    pub nodes: u64,
    /// Whether every search ran to completion.
    pub complete: bool,
    /// Strong mode: candidates evaluated and sample rounds completed.
    pub candidates: usize,
    /// Strong mode: sample rounds completed.
    pub rounds: usize,
}

#[derive(Debug, Clone, Default)]
struct Memory {
    last_orders: Vec<Order>,
    last_centres: usize,
    stall: u32,
    stalled_targets: BTreeSet<Province>,
    /// (year, centres per power) seen at each spring.
    history: Vec<(i16, Vec<usize>)>,
}

/// The JIC player.
#[derive(Debug, Clone)]
pub struct JicBot {
    config: JicConfig,
    rng: Xoshiro256PlusPlus,
    memory: Memory,
    model: model::OpponentModel,
    stats: DecisionStats,
}

impl JicBot {
    /// A JIC bot with `config`, seeded with `seed` (mixed with `config.seed`).
    pub fn new(config: JicConfig, seed: u64) -> Self {
        let rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ config.seed.rotate_left(17));
        JicBot {
            config,
            rng,
            memory: Memory::default(),
            model: model::OpponentModel::default(),
            stats: DecisionStats::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &JicConfig {
        &self.config
    }

    /// Facts about the last decision.
    pub fn last_stats(&self) -> &DecisionStats {
        &self.stats
    }

    /// The opponent model: what it counted for each power (read-only).
    pub fn opponent_model(&self) -> &model::OpponentModel {
        &self.model
    }

    /// Whether the opponent model explains `p` by DumbBot's policy with the
    /// configured thresholds (`model_match`, `model_match_inferred`).
    pub fn models(&self, p: Power) -> bool {
        self.model
            .modelled(p, self.config.model_match, self.config.model_match_inferred)
    }

    /// Whether JIC would accept / propose a draw: no power's centre count
    /// changed for `draw_after_stalled_years` years (DAIDE `DRW`, resent
    /// every turn by the client while true).
    pub fn wants_draw(&self) -> bool {
        let n = self.config.draw_after_stalled_years as usize;
        let h = &self.memory.history;
        n > 0 && h.len() > n && h[h.len() - 1 - n..].windows(2).all(|w| w[0].1 == w[1].1)
    }

    fn deadline(&self, budget: &Budget, start: Instant) -> Instant {
        let left = budget.deadline.saturating_duration_since(start);
        let mut d = left.mul_f64(self.config.budget_fraction);
        if self.config.max_think_seconds > 0.0 {
            d = d.min(Duration::from_secs_f64(self.config.max_think_seconds));
        }
        start + d
    }

    /// The orders for `view`, within the deadline counted from `start`.
    fn decide(&mut self, view: &GameView, budget: &Budget, start: Instant) -> Vec<Order> {
        let Some(me) = view.me else {
            return Vec::new();
        };
        let deadline = self.deadline(budget, start);
        self.stats = DecisionStats::default();
        let board = Board::new(view, me, self.config.front_depth_cap);
        let strong = self.config.mode == JicMode::Strong;
        let orders = match view.phase.season.kind() {
            PhaseKind::Movement => self.movement(view, &board, start, deadline, budget),
            PhaseKind::Retreat => {
                let spare = if strong {
                    self.spare(view)
                } else {
                    strong::Spare::off()
                };
                adjust::retreats(&board, &view.dislodged, &spare)
            }
            PhaseKind::Adjustment => {
                let d = view.adjustment(me);
                if d > 0 {
                    let cap = strong.then_some(self.config.fleet_share_cap);
                    adjust::builds(&board, d as usize, cap)
                } else {
                    adjust::removals(&board, d.unsigned_abs() as usize)
                }
            }
        };
        self.stats.elapsed = start.elapsed();
        orders
    }

    /// Deadlock detection from memory; returns the fixed (repaired) choices.
    fn deadlock(&mut self, board: &Board, plans: &[Vec<Plan>]) -> Option<Vec<Option<Choice>>> {
        let centres = board.owner.iter().filter(|o| **o == Some(board.me)).count();
        let mut failed: Vec<(usize, Province)> = Vec::new();
        for o in &self.memory.last_orders {
            if let Order::Move { unit, to, .. } = o
                && let Some(i) = plans
                    .iter()
                    .position(|ps| ps.first().is_some_and(|p| p.unit == *unit))
            {
                failed.push((i, to.province));
            }
        }
        let targets: BTreeSet<Province> = failed.iter().map(|f| f.1).collect();
        let repeated: BTreeSet<Province> = targets
            .intersection(&self.memory.stalled_targets)
            .copied()
            .collect();
        if !repeated.is_empty() && centres == self.memory.last_centres {
            self.memory.stall += 1;
            self.memory.stalled_targets = repeated;
        } else {
            self.memory.stall = u32::from(!targets.is_empty());
            self.memory.stalled_targets = targets;
        }
        if self.memory.stall < self.config.deadlock_phases {
            return None;
        }
        let stuck: Vec<(usize, Province)> = failed
            .into_iter()
            .filter(|f| self.memory.stalled_targets.contains(&f.1))
            .collect();
        let k = stuck.len();
        if k == 0 {
            return None;
        }
        let change =
            ((self.config.deadlock_change_fraction * k as f64).ceil() as usize).clamp(1, k);
        let mut order: Vec<usize> = (0..k).collect();
        order.shuffle(&mut self.rng);
        let (changed, kept) = order.split_at(change);
        let mut fixed: Vec<Option<Choice>> = vec![None; plans.len()];
        for &s in kept {
            let (i, dest) = stuck[s];
            let k = plans[i]
                .iter()
                .position(|p| p.dest.province == dest && !p.is_hold())?;
            fixed[i] = Some(Choice::Plan(k));
        }
        for &s in changed {
            let (i, dest) = stuck[s];
            let u = plans[i][0].unit;
            // Prefer supporting a neighbour's (kept) move.
            let support = kept
                .iter()
                .map(|&t| stuck[t])
                .find(|(j, d)| *j != i && board.map.can_reach_province(u.kind, u.location, *d));
            let mut options: Vec<Choice> = Vec::new();
            if let Some((j, _)) = support {
                options.push(Choice::Support(j));
            }
            let mut others: Vec<usize> = (0..plans[i].len())
                .filter(|k| plans[i][*k].dest.province != dest)
                .collect();
            others.shuffle(&mut self.rng);
            options.extend(others.into_iter().map(Choice::Plan));
            // The first option that keeps the fixed set valid.
            fixed[i] = None;
            for c in options {
                fixed[i] = Some(c);
                if all_valid(board.map, plans, &mut fixed) {
                    break;
                }
                fixed[i] = None;
            }
            fixed[i]?;
        }
        all_valid(board.map, plans, &mut fixed).then_some(fixed)
    }

    fn movement(
        &mut self,
        view: &GameView,
        board: &Board,
        start: Instant,
        deadline: Instant,
        budget: &Budget,
    ) -> Vec<Order> {
        let strong = self.config.mode == JicMode::Strong;
        let plans = all_plans_until(board, self.config.max_no_plan, Some(deadline));
        let limits = self.search_limits(start, deadline);
        let greedy = self.greedy(board, &plans, limits);
        let mut kept: Vec<Vec<Option<Choice>>> = Vec::new();
        let (best, mode, complete) = self.coordinate(board, &plans, &greedy, limits, &mut kept);
        self.stats.mode = mode;
        self.stats.complete = complete;
        let mut orders = to_orders(&plans, &best);

        if strong && !budget.expired() && Instant::now() < deadline {
            orders =
                self.strong_choice(view, board, &plans, &best, &greedy, &kept, orders, deadline);
        }
        self.memory.last_orders = orders.clone();
        self.memory.last_centres = board.owner.iter().filter(|o| **o == Some(board.me)).count();
        orders
    }

    /// The coordinator's limits for a movement phase started at `start`: the strong mode
    /// leaves the search 45% of the time to `deadline`, the rest for its evaluation.
    fn search_limits(&self, start: Instant, deadline: Instant) -> Limits {
        let cfg = &self.config;
        let total = deadline.saturating_duration_since(start);
        let until = if cfg.mode == JicMode::Strong {
            start + total.mul_f64(0.45)
        } else {
            deadline
        };
        let nodes = if cfg.max_search_nodes == 0 {
            u64::MAX
        } else {
            cfg.max_search_nodes
        };
        Limits {
            cap: cfg.support_gain_cap,
            deadline: until,
            nodes,
        }
    }

    /// Mode 3, the anytime incumbent: the first valid combination in utility order, repaired.
    fn greedy(
        &mut self,
        board: &Board,
        plans: &[Vec<Plan>],
        limits: Limits,
    ) -> Vec<Option<Choice>> {
        let n = plans.len();
        let all: Vec<usize> = (0..n).collect();
        let r = search(
            board.map,
            plans,
            &all,
            &vec![None; n],
            limits.params(1, true),
        );
        self.stats.nodes += r.nodes;
        let mut assign = r
            .best
            .first()
            .map(|b| b.2.clone())
            .unwrap_or_else(|| vec![None; n]);
        improve(
            board.map,
            plans,
            &mut assign,
            &all,
            limits.cap,
            limits.deadline,
        );
        assign
    }

    /// Modes 1, 2 and 4 against the `greedy` incumbent: deadlock repair fixes some units and
    /// the rest are searched in full or by partitions. Returns the better combination, the
    /// mode that found it and whether every search finished; `kept` gets the candidates.
    fn coordinate(
        &mut self,
        board: &Board,
        plans: &[Vec<Plan>],
        greedy: &[Option<Choice>],
        limits: Limits,
        kept: &mut Vec<Vec<Option<Choice>>>,
    ) -> (Vec<Option<Choice>>, CoordinatorMode, bool) {
        let n = plans.len();
        let cap = limits.cap;
        let (fixed, free, deadlocked) = match self.deadlock(board, plans) {
            Some(f) => {
                let free: Vec<usize> = (0..n).filter(|i| f[*i].is_none()).collect();
                (f, free, true)
            }
            None => (vec![None; n], (0..n).collect(), false),
        };
        let mut complete = true;
        let found = if free.len() <= self.config.full_search_max_units {
            let params = limits.params(self.config.candidates, false);
            let r = search(board.map, plans, &free, &fixed, params);
            self.stats.nodes += r.nodes;
            complete &= r.complete;
            *kept = r.best.iter().map(|b| b.2.clone()).collect();
            r.best
                .first()
                .map(|b| (b.2.clone(), CoordinatorMode::FullSearch))
        } else {
            let part_limits = (limits.deadline, limits.nodes);
            self.partitioned(
                board,
                plans,
                &free,
                &fixed,
                part_limits,
                kept,
                &mut complete,
            )
            .map(|acc| (acc, CoordinatorMode::Partitioned))
        };
        let mut best = greedy.to_vec();
        let mut mode = CoordinatorMode::Greedy;
        if let Some((a, m)) = found
            && score(plans, &a, cap) >= score(plans, &best, cap)
        {
            best = a;
            mode = if deadlocked {
                CoordinatorMode::DeadlockRepair
            } else {
                m
            };
        }
        // The repair is the point of mode 4: keep it unless it found nothing at all.
        if deadlocked
            && mode != CoordinatorMode::DeadlockRepair
            && let Some(repaired) = completed(board, plans, &fixed, &best)
        {
            best = repaired;
            mode = CoordinatorMode::DeadlockRepair;
        }
        (best, mode, complete)
    }

    /// Mode 2: the `free` units searched one partition at a time, in plan-type order, each with
    /// the earlier ones fixed and an equal share of the time and nodes left (`limits`: the
    /// search deadline and node cap), then improved; `None` if a partition has no valid
    /// combination. `kept` gets the last partition's candidates.
    #[allow(clippy::too_many_arguments)]
    fn partitioned(
        &mut self,
        board: &Board,
        plans: &[Vec<Plan>],
        free: &[usize],
        fixed: &[Option<Choice>],
        limits: (Instant, u64),
        kept: &mut Vec<Vec<Option<Choice>>>,
        complete: &mut bool,
    ) -> Option<Vec<Option<Choice>>> {
        let (search_deadline, node_cap) = limits;
        let cfg = &self.config;
        let parts: Vec<Vec<usize>> = partitions(plans, cfg.partition_max_units)
            .into_iter()
            .map(|p| {
                p.into_iter()
                    .filter(|i| free.contains(i))
                    .collect::<Vec<_>>()
            })
            .filter(|p| !p.is_empty())
            .collect();
        let mut acc = fixed.to_vec();
        let mut nodes_left = node_cap;
        for (pi, part) in parts.iter().enumerate() {
            let now = Instant::now();
            let left = search_deadline.saturating_duration_since(now);
            let share = (parts.len() - pi) as u32;
            let params = SearchParams {
                support_gain_cap: cfg.support_gain_cap,
                keep: cfg.candidates,
                deadline: now + left / share,
                first_only: false,
                max_nodes: (nodes_left / u64::from(share)).max(1),
            };
            let r = search(board.map, plans, part, &acc, params);
            nodes_left = nodes_left.saturating_sub(r.nodes);
            self.stats.nodes += r.nodes;
            *complete &= r.complete;
            let b = r.best.first()?;
            acc = b.2.clone();
            if pi + 1 == parts.len() {
                *kept = r.best.iter().map(|b| b.2.clone()).collect();
            }
        }
        let all: Vec<usize> = (0..plans.len()).collect();
        let cap = self.config.support_gain_cap;
        improve(board.map, plans, &mut acc, &all, cap, search_deadline);
        Some(acc)
    }

    /// The configured spare rule for this phase's centre counts (at
    /// `spare_release_value` once we hold `spare_release_centres`).
    fn spare(&self, view: &GameView) -> strong::Spare {
        let cfg = &self.config;
        let mine = view.me.map_or(0, |me| view.centre_count(me));
        let value = if cfg.spare_release_centres > 0 && mine >= cfg.spare_release_centres {
            cfg.spare_release_value
        } else {
            cfg.spare_value
        };
        let mut spare = strong::Spare::new((cfg.spare_centres, value), &view.map, &view.owners);
        if cfg.spare_scope == SpareScope::Unmodelled {
            spare.exempt(|p| {
                self.model
                    .modelled(p, cfg.model_match, cfg.model_match_inferred)
                    || self.model.passive(p)
            });
        }
        spare
    }

    /// Whether the opponent model is needed: the spare rule is on and
    /// limited to unmodelled powers.
    fn models_opponents(&self) -> bool {
        let cfg = &self.config;
        cfg.mode == JicMode::Strong
            && cfg.spare_centres > 0
            && cfg.spare_scope == SpareScope::Unmodelled
    }

    #[allow(clippy::too_many_arguments)]
    fn strong_choice(
        &mut self,
        view: &GameView,
        board: &Board,
        plans: &[Vec<Plan>],
        best: &[Option<Choice>],
        greedy: &[Option<Choice>],
        kept: &[Vec<Option<Choice>>],
        best_orders: Vec<Order>,
        deadline: Instant,
    ) -> Vec<Order> {
        let cap = self.config.support_gain_cap;
        let Some(devs) = deviations(board, plans, best, cap, deadline) else {
            return best_orders;
        };
        let shaping = self.shaping(view, board);
        let mut cands = vec![best_orders.clone()];
        push_new(&mut cands, to_orders(plans, greedy));
        for a in kept.iter().take(self.config.candidates) {
            push_new(&mut cands, to_orders(plans, a));
        }
        for a in devs.into_iter().take(self.config.candidates * 2) {
            push_new(&mut cands, to_orders(plans, &a));
        }
        self.add_variants(board, &shaping, &view.owners, &best_orders, &mut cands);
        if Instant::now() >= deadline {
            return best_orders;
        }
        let samples = self.opponent_samples(view, board.me, deadline);
        let season = if view.phase.season == Season::Fall {
            Season::Fall
        } else {
            Season::Spring
        };
        let mut evals = strong::EvalBudget::new(self.config.max_evaluations, deadline);
        if Instant::now() >= deadline {
            return best_orders;
        }
        let (i, rounds) = strong::choose(
            board.map,
            board.me,
            season,
            &view.units,
            &view.owners,
            &cands,
            &samples,
            &mut evals,
            &shaping,
        );
        self.stats.candidates = cands.len();
        self.stats.rounds = rounds;
        let chosen = cands.swap_remove(i);
        if rounds == 0 {
            return chosen;
        }
        let (orders, evals) = strong::improve(
            board.map,
            board.me,
            season,
            &view.units,
            &view.owners,
            chosen,
            &samples[..rounds],
            &mut evals,
            &shaping,
            &mut self.rng,
        );
        self.stats.candidates += evals;
        orders
    }

    /// The strong mode's evaluation shaping: front pull, survival, spare rule and solo value.
    fn shaping(&self, view: &GameView, board: &Board) -> strong::Shaping {
        let cfg = &self.config;
        strong::Shaping::new(
            strong::FrontPull::new(board.map, board.me, &view.owners, cfg.front_pull),
            (cfg.survival_centres, cfg.survival_value),
            self.spare(view),
            cfg.solo_value,
        )
    }

    /// Adds the strong mode's variants to `cands`: convoy variants and the front pull's
    /// advance of `best_orders`, then the coordinator's and the greedy choice without the
    /// takes the spare rule prices down.
    fn add_variants(
        &self,
        board: &Board,
        shaping: &strong::Shaping,
        owners: &HashMap<Province, Power>,
        best_orders: &[Order],
        cands: &mut Vec<Vec<Order>>,
    ) {
        let cfg = &self.config;
        if cfg.convoys {
            for v in strong::convoy_variants(board, best_orders, cfg.convoy_any_coast) {
                push_new(cands, v);
            }
        }
        if let Some(v) = shaping.pull.advance(board.map, best_orders) {
            push_new(cands, v);
        }
        for k in 0..2.min(cands.len()) {
            if let Some(v) = shaping.spare.spared(owners, &cands[k]) {
                push_new(cands, v);
            }
        }
    }

    /// Sampled opponent orders (DumbBot's and random), taking at most half the time left.
    fn opponent_samples(
        &mut self,
        view: &GameView,
        me: Power,
        deadline: Instant,
    ) -> Vec<Vec<Order>> {
        let cfg = &self.config;
        let now = Instant::now();
        let sample_deadline = now + deadline.saturating_duration_since(now) / 2;
        strong::mixed_samples(
            view,
            me,
            cfg.opponent_samples,
            cfg.dumbbot_sample_share,
            sample_deadline,
            &mut self.rng,
        )
    }

    fn record_history(&mut self, view: &GameView) {
        if view.phase.season != Season::Spring {
            return;
        }
        if self
            .memory
            .history
            .last()
            .is_some_and(|h| h.0 == view.phase.year)
        {
            return;
        }
        let counts: Vec<usize> = (0..view.map.power_count() as u8)
            .map(|p| view.centre_count(Power(p)))
            .collect();
        self.memory.history.push((view.phase.year, counts));
    }
}

/// The coordinator's limits for one movement phase.
#[derive(Debug, Clone, Copy)]
struct Limits {
    /// Support gain cap (hundredths).
    cap: i64,
    /// The search stops at this instant.
    deadline: Instant,
    /// The most search nodes.
    nodes: u64,
}

impl Limits {
    /// A search keeping the best `keep` combinations, or stopping at the first one.
    fn params(self, keep: usize, first_only: bool) -> SearchParams {
        SearchParams {
            support_gain_cap: self.cap,
            keep,
            deadline: self.deadline,
            first_only,
            max_nodes: self.nodes.max(1),
        }
    }
}

/// The `fixed` choices with the unfixed units taken from `best`, if that combination is valid.
fn completed(
    board: &Board,
    plans: &[Vec<Plan>],
    fixed: &[Option<Choice>],
    best: &[Option<Choice>],
) -> Option<Vec<Option<Choice>>> {
    let mut repaired = fixed.to_vec();
    for (r, b) in repaired.iter_mut().zip(best) {
        if r.is_none() {
            *r = *b;
        }
    }
    all_valid(board.map, plans, &mut repaired).then_some(repaired)
}
/// The valid one-unit deviations of `best` (each unit's other plans), best score first;
/// `None` once `deadline` passes.
fn deviations(
    board: &Board,
    plans: &[Vec<Plan>],
    best: &[Option<Choice>],
    cap: i64,
    deadline: Instant,
) -> Option<Vec<Vec<Option<Choice>>>> {
    let mut devs = Vec::new();
    for i in 0..plans.len() {
        if Instant::now() >= deadline {
            return None;
        }
        for k in 0..plans[i].len() {
            let mut a = best.to_vec();
            if a[i] == Some(Choice::Plan(k)) {
                continue;
            }
            a[i] = Some(Choice::Plan(k));
            if all_valid(board.map, plans, &mut a) {
                devs.push((score(plans, &a, cap), a));
            }
        }
    }
    devs.sort_by_key(|d| std::cmp::Reverse(d.0));
    Some(devs.into_iter().map(|d| d.1).collect())
}

/// Pushes `c` onto `cands` unless it is already there.
fn push_new(cands: &mut Vec<Vec<Order>>, c: Vec<Order>) {
    if !cands.contains(&c) {
        cands.push(c);
    }
}

impl Player for JicBot {
    fn orders(&mut self, view: &GameView, budget: Budget) -> Vec<Order> {
        // The opponent model's update counts against the decision deadline.
        let start = Instant::now();
        self.record_history(view);
        if let Some(me) = view.me
            && self.models_opponents()
        {
            let seed = self.config.seed.rotate_left(29) ^ 0x6a1c;
            self.model.update(
                me,
                self.config.model_samples,
                self.config.model_samples_inferred,
                seed,
            );
        }
        self.decide(view, &budget, start)
    }

    fn observe(&mut self, view: &GameView, orders: &[Order]) {
        if self.models_opponents() {
            self.model.observe(view, orders);
        }
    }

    fn position(&mut self, view: &GameView) {
        if self.models_opponents() {
            self.model.position(view);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::CancelFlag;
    use crate::diplomacy::game::{Game, standard_opening};
    use crate::diplomacy::judge::Rules;
    use crate::diplomacy::map::Map;
    use crate::diplomacy::model::Phase;

    fn game() -> Game {
        let map = Map::standard();
        let units = standard_opening(&map);
        Game::new(
            map,
            Phase {
                year: 1901,
                season: Season::Spring,
            },
            units,
            Rules::default(),
        )
        .unwrap()
    }

    fn budget(ms: u64) -> Budget {
        Budget::new(
            Instant::now() + Duration::from_millis(ms),
            CancelFlag::new(),
        )
    }

    #[test]
    fn orders_every_unit_once_in_the_opening() {
        let g = game();
        for mode in [JicMode::Thesis, JicMode::Strong] {
            for (p, _) in g.map().powers() {
                let mut bot = JicBot::new(
                    JicConfig {
                        mode,
                        ..JicConfig::default()
                    },
                    1,
                );
                let orders = bot.orders(&g.view(Some(p)), budget(2000));
                let mine = g.units().iter().filter(|u| u.power == p).count();
                assert_eq!(orders.len(), mine);
                assert!(orders.iter().all(|o| o.power() == p));
                let view = g.view(Some(p));
                for o in &orders {
                    assert!(
                        crate::diplomacy::validate::check_order(&view, p, o, 0).is_ok(),
                        "{o:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn turkey_opens_con_bul() {
        let g = game();
        let tur = g.map().power("TUR").unwrap();
        let mut bot = JicBot::new(JicConfig::thesis(), 1);
        let orders = bot.orders(&g.view(Some(tur)), budget(2000));
        let bul = g.map().province("BUL").unwrap();
        assert!(
            orders
                .iter()
                .any(|o| matches!(o, Order::Move { to, .. } if to.province == bul))
        );
        assert_eq!(bot.last_stats().mode, CoordinatorMode::FullSearch);
    }

    #[test]
    fn observer_gets_no_orders_and_draw_needs_stalled_years() {
        let g = game();
        let mut bot = JicBot::new(JicConfig::default(), 0);
        assert!(bot.orders(&g.view(None), budget(100)).is_empty());
        let view = g.view(Some(Power(0)));
        for y in 0..7 {
            let mut v = view.clone();
            v.phase.year = 1901 + y;
            bot.record_history(&v);
        }
        assert!(bot.wants_draw());
        let mut v = view.clone();
        v.phase.year = 1910;
        v.owners.clear();
        bot.record_history(&v);
        assert!(!bot.wants_draw());
    }

    #[test]
    fn spare_rule_releases_a_leader_near_a_solo() {
        let g = game();
        let map = g.map();
        let (tur, rus) = (map.power("TUR").unwrap(), map.power("RUS").unwrap());
        let mut view = g.view(Some(tur));
        // Russia keeps two home centres; Turkey owns every other centre.
        let kept: Vec<Province> = map.home_centres(rus).take(2).collect();
        for c in map.supply_centres().filter(|c| !kept.contains(c)) {
            view.owners.insert(c, tur);
        }
        let turkish = view.centre_count(tur);
        let config = |release| JicConfig {
            spare_centres: 2,
            spare_value: -1.0,
            spare_release_centres: release,
            spare_release_value: 0.5,
            ..JicConfig::default()
        };
        let price = |release, view: &GameView| {
            let spare = JicBot::new(config(release), 0).spare(view);
            spare.take(&mut spare.counter(), 1000, Some(rus))
        };
        // Russia's last two centres are spared, below the release and with it off.
        assert_eq!(price(0, &view), -1000);
        assert_eq!(price(turkish + 1, &view), -1000);
        // At the release they keep `spare_release_value` of their worth.
        assert_eq!(price(turkish, &view), 500);
        assert_eq!(price(turkish - 1, &view), 500);
    }

    #[test]
    fn unmodelled_scope_spares_only_powers_dumbbot_does_not_explain() {
        // With every power's orders reported, and with only positions and
        // Turkey's own orders (a server that reports nothing else).
        for all_reported in [true, false] {
            spares_only_unmodelled(all_reported);
        }
    }

    fn spares_only_unmodelled(all_reported: bool) {
        let mut g = game();
        let map = g.map().clone();
        let (tur, rus, aus, ger) = (
            map.power("TUR").unwrap(),
            map.power("RUS").unwrap(),
            map.power("AUS").unwrap(),
            map.power("GER").unwrap(),
        );
        let mut jic = JicBot::new(
            JicConfig {
                spare_centres: 2,
                spare_value: -1.0,
                spare_scope: SpareScope::Unmodelled,
                ..JicConfig::default()
            },
            0,
        );
        // Three years in which Russia plays DumbBot, Austria RandBot and
        // everyone else holds.
        let mut dumb = crate::bots::DumbBot::new(5);
        let mut rand = crate::bots::RandBot::new(7);
        while g.phase().year < 1904 {
            jic.position(&g.view(Some(tur)));
            jic.model.update(
                tur,
                jic.config.model_samples,
                jic.config.model_samples_inferred,
                0,
            );
            let mut orders = Vec::new();
            for p in (0..7).map(Power) {
                let view = g.view(Some(p));
                if !view.needs_orders(p) {
                    continue;
                }
                orders.extend(if p == rus {
                    dumb.orders(&view, budget(1000))
                } else if p == aus {
                    rand.orders(&view, budget(1000))
                } else {
                    view.units
                        .iter()
                        .filter(|u| u.power == p && view.phase.season.kind() == PhaseKind::Movement)
                        .map(|u| Order::Hold(*u))
                        .collect()
                });
            }
            let shown: Vec<Order> = orders
                .iter()
                .filter(|o| all_reported || o.power() == tur)
                .cloned()
                .collect();
            jic.observe(&g.view(None), &shown);
            g.process(&orders).unwrap();
        }
        jic.position(&g.view(Some(tur)));
        jic.model.update(
            tur,
            jic.config.model_samples,
            jic.config.model_samples_inferred,
            0,
        );
        let tallies: Vec<_> = (0..7)
            .map(|p| jic.opponent_model().tally(Power(p)))
            .collect();
        assert!(jic.models(rus) && !jic.models(aus), "{tallies:?}");
        let model = jic.opponent_model();
        assert!(model.passive(ger) && !model.passive(aus), "{tallies:?}");
        let inferred = jic.opponent_model().tally(rus).inferred;
        assert_eq!(inferred.seen > 0, !all_reported);
        let mut view = g.view(Some(tur));
        view.owners.retain(|_, p| *p == tur);
        for (p, n) in [(rus, 1), (aus, 1), (ger, 1)] {
            for c in map.home_centres(p).take(n) {
                view.owners.insert(c, p);
            }
        }
        let spare = jic.spare(&view);
        // Russia (modelled) and Germany (passive) are not spared; Austria
        // (moving unlike DumbBot) is.
        assert_eq!(spare.take(&mut spare.counter(), 1000, Some(rus)), 1000);
        assert_eq!(spare.take(&mut spare.counter(), 1000, Some(ger)), 1000);
        assert_eq!(spare.take(&mut spare.counter(), 1000, Some(aus)), -1000);
    }
}
