//! The `[jic]` configuration section: the thesis parameters (Cuadro 11) and
//! tablero's own knobs for the parts the thesis leaves open.

use serde::{Deserialize, Serialize};

/// Which JIC to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum JicMode {
    /// The thesis's JIC: agents, coordinator, heuristic coordinated utility.
    Thesis,
    /// Thesis JIC plus adjudicator evaluation of the best joint orders
    /// against sampled opponent orders, convoys, and balanced builds.
    #[default]
    Strong,
}

/// Which powers the spare rule protects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SpareScope {
    /// Every power.
    #[default]
    All,
    /// Only the powers the opponent model (DumbBot) does not explain: those
    /// whose observed movement orders match a seeded DumbBot's in their
    /// place less than `model_match` of the time.
    Unmodelled,
}

/// `[jic]`: every key has a default; see `protocols/jic.md`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JicConfig {
    /// `"strong"` (default) or `"thesis"`.
    pub mode: JicMode,
    /// Thesis: at most this many "no plan" (type 10) actions per unit.
    pub max_no_plan: usize,
    /// Thesis: exhaustive combination search when the power has at most this many units.
    pub full_search_max_units: usize,
    /// Thesis: at most this many units with the same plan type in one partition.
    pub partition_max_units: usize,
    /// Thesis: cap on the coordinated-utility gain one order gets from its supports.
    pub support_gain_cap: i64,
    /// Thesis: fraction of the deadlocked units whose action changes in deadlock repair.
    pub deadlock_change_fraction: f64,
    /// Deadlock: consecutive movement phases in which the same own moves
    /// bounced, with an unchanged centre count, before repair starts.
    pub deadlock_phases: u32,
    /// Depth cap of the front-line distance search (Algorithm 2).
    pub front_depth_cap: u32,
    /// Fraction of the phase budget (`min(MTL − margin, think_time)` over
    /// DAIDE, the think time locally) the decision may use; the rest is margin.
    pub budget_fraction: f64,
    /// Hard cap on thinking time per phase, in seconds (0 = only the budget).
    pub max_think_seconds: f64,
    /// Count budget: coordinator search nodes per movement phase (0 = time
    /// only). With the count budgets set and a deadline that is never reached,
    /// the same seed gives the same orders whatever the machine load.
    pub max_search_nodes: u64,
    /// Count budget: adjudicator runs per movement phase in strong mode
    /// (candidate choice and hill climbing; 0 = time only).
    pub max_evaluations: u64,
    /// Strong mode: distinct joint orders from the search evaluated with the adjudicator.
    pub candidates: usize,
    /// Strong mode: sampled opponent order sets per candidate.
    pub opponent_samples: usize,
    /// Strong mode: share of the opponent samples drawn from DumbBot's
    /// policy (each enemy power ordered by a seeded DumbBot); the rest come
    /// from the utility-driven model. Default 1 (against DumbBot the 1-vs-6
    /// solos are three times those of 0 over 35 games, and 3 vs 4 gains too;
    /// `docs/results/diplomacy.md`).
    pub dumbbot_sample_share: f64,
    /// Strong mode: most fleets as a share of own units a build may create
    /// (armies are built instead when a site allows them).
    pub fleet_share_cap: f64,
    /// Strong mode: consider convoys of own armies by own fleets.
    pub convoys: bool,
    /// Strong mode: convoys may also carry an army to any coastal province
    /// where its utility rises (not only to centres we do not own).
    pub convoy_any_coast: bool,
    /// Strong mode: the front pull, hundredths per move an own unit stands
    /// beyond one move from the nearest centre we do not own (armies may
    /// cross the sea); 0 = off. Rear units march to the front.
    pub front_pull: i64,
    /// Strong mode: below this many centres held after the phase, every
    /// missing centre costs `survival_value` more in the evaluation (0 = off;
    /// default 4: fewer JIC seats eliminated in 3 vs 4).
    pub survival_centres: usize,
    /// Strong mode: hundredths per centre under `survival_centres` (a centre
    /// is worth 1000): small powers defend their last centres.
    pub survival_value: i64,
    /// Strong mode: centres taken from a power beyond the point where it
    /// would hold fewer than `spare_centres` keep only `spare_value` of their
    /// worth in the evaluation (0 = off): JIC does not finish off the weak.
    pub spare_centres: usize,
    /// Strong mode: share of its worth that such a centre keeps (-5..1; below
    /// 0 taking it costs).
    pub spare_value: f64,
    /// Strong mode: hundredths added in the fall when the position gives us
    /// a solo (more than half of the centres); 0 = off.
    pub solo_value: i64,
    /// Strong mode: once we own this many centres, spared centres keep
    /// `spare_release_value` of their worth instead of `spare_value` (0 =
    /// never): a leader near a solo may walk through the weak.
    pub spare_release_centres: usize,
    /// Strong mode: `spare_value` once released (-5..1; 1 = the rule is off).
    pub spare_release_value: f64,
    /// Strong mode: which powers the spare rule protects (`"all"` or
    /// `"unmodelled"`).
    pub spare_scope: SpareScope,
    /// Share of a power's observed movement orders that a seeded DumbBot in
    /// its place gives too (in any of `model_samples` samples) at or above
    /// which the power counts as modelled (0..1).
    pub model_match: f64,
    /// The same share where a power's orders were not reported and where its
    /// units ended is compared instead (the positions before and after each
    /// movement phase against the samples' adjudicated outcomes; 0..1).
    pub model_match_inferred: f64,
    /// DumbBot samples per power and phase for `model_match`.
    pub model_samples: usize,
    /// DumbBot samples per power and phase for `model_match_inferred` (the
    /// first `model_samples` of them are the same).
    pub model_samples_inferred: usize,
    /// Years without any centre change after which [`super::JicBot::wants_draw`] is true.
    pub draw_after_stalled_years: u32,
    /// Seed of the bot's pseudo-random choices (deadlock repair, opponent sampling).
    pub seed: u64,
}

impl Default for JicConfig {
    fn default() -> Self {
        Self {
            mode: JicMode::Strong,
            max_no_plan: 2,
            full_search_max_units: 7,
            partition_max_units: 8,
            support_gain_cap: 500,
            deadlock_change_fraction: 0.3,
            deadlock_phases: 2,
            front_depth_cap: 20,
            budget_fraction: 0.1,
            max_think_seconds: 0.0,
            max_search_nodes: 0,
            max_evaluations: 0,
            candidates: 8,
            opponent_samples: 12,
            dumbbot_sample_share: 1.0,
            fleet_share_cap: 0.5,
            convoys: true,
            convoy_any_coast: true,
            front_pull: 0,
            survival_centres: 4,
            survival_value: 2000,
            spare_centres: 2,
            spare_value: -1.0,
            solo_value: 10000,
            spare_release_centres: 0,
            spare_release_value: 1.0,
            spare_scope: SpareScope::Unmodelled,
            model_match: 0.7,
            model_match_inferred: 0.7,
            model_samples: 8,
            model_samples_inferred: 16,
            draw_after_stalled_years: 5,
            seed: 0,
        }
    }
}

impl JicConfig {
    /// The thesis configuration (`mode = "thesis"`, everything else default).
    pub fn thesis() -> Self {
        Self {
            mode: JicMode::Thesis,
            ..Self::default()
        }
    }

    /// Checks value ranges: `Err((key, message))` names the first bad key
    /// (without the `jic.` prefix).
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let within = |k: &'static str, v: f64, lo: f64, hi: f64| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err((k, format!("must be in [{lo}, {hi}], got {v}")))
            }
        };
        let frac = |k: &'static str, v: f64| within(k, v, 0.0, 1.0);
        frac("deadlock_change_fraction", self.deadlock_change_fraction)?;
        frac("budget_fraction", self.budget_fraction)?;
        frac("fleet_share_cap", self.fleet_share_cap)?;
        frac("dumbbot_sample_share", self.dumbbot_sample_share)?;
        frac("model_match", self.model_match)?;
        frac("model_match_inferred", self.model_match_inferred)?;
        within("spare_value", self.spare_value, -5.0, 1.0)?;
        within("spare_release_value", self.spare_release_value, -5.0, 1.0)?;
        let at_least_one = |k: &'static str, v: u64| {
            if v == 0 {
                Err((k, "must be at least 1".to_string()))
            } else {
                Ok(())
            }
        };
        at_least_one("full_search_max_units", self.full_search_max_units as u64)?;
        at_least_one("partition_max_units", self.partition_max_units as u64)?;
        at_least_one("front_depth_cap", u64::from(self.front_depth_cap))?;
        at_least_one("candidates", self.candidates as u64)?;
        at_least_one("opponent_samples", self.opponent_samples as u64)?;
        at_least_one("model_samples", self.model_samples as u64)?;
        at_least_one("model_samples_inferred", self.model_samples_inferred as u64)?;
        let non_negative = |k: &'static str, v: i64| {
            if v < 0 {
                Err((k, format!("must be >= 0, got {v}")))
            } else {
                Ok(())
            }
        };
        non_negative("front_pull", self.front_pull)?;
        non_negative("survival_value", self.survival_value)?;
        non_negative("solo_value", self.solo_value)?;
        non_negative("support_gain_cap", self.support_gain_cap)?;
        if !(self.max_think_seconds >= 0.0 && self.max_think_seconds.is_finite()) {
            return Err((
                "max_think_seconds",
                format!(
                    "must be a finite number >= 0, got {}",
                    self.max_think_seconds
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_thesis_parameters() {
        let c = JicConfig::default();
        assert_eq!(c.full_search_max_units, 7);
        assert_eq!(c.partition_max_units, 8);
        assert_eq!(c.support_gain_cap, 500);
        assert_eq!(c.deadlock_change_fraction, 0.3);
        assert_eq!(c.max_no_plan, 2);
        assert_eq!(c.mode, JicMode::Strong);
        // DumbBot's policy is the opponent model; the front pull is off.
        assert_eq!(c.dumbbot_sample_share, 1.0);
        assert_eq!(c.front_pull, 0);
        // Small powers defend their last four centres.
        assert_eq!((c.survival_centres, c.survival_value), (4, 2000));
        // The spare rule protects the last two centres of the
        // powers DumbBot does not explain; a solo is worth 10000; no release.
        assert_eq!(
            (c.spare_centres, c.spare_value, c.solo_value),
            (2, -1.0, 10000)
        );
        assert_eq!((c.spare_release_centres, c.spare_release_value), (0, 1.0));
        assert_eq!(c.spare_scope, SpareScope::Unmodelled);
        assert_eq!((c.model_match, c.model_samples), (0.7, 8));
        assert!(c.validate().is_ok());
        let bad = JicConfig {
            front_pull: -1,
            ..JicConfig::default()
        };
        assert_eq!(bad.validate().unwrap_err().0, "front_pull");
        let bad = JicConfig {
            survival_value: -1,
            ..JicConfig::default()
        };
        assert_eq!(bad.validate().unwrap_err().0, "survival_value");
        for (spare_value, solo_value, key) in [
            (-5.5, 0, "spare_value"),
            (1.5, 0, "spare_value"),
            (0.0, -1, "solo_value"),
        ] {
            let bad = JicConfig {
                spare_value,
                solo_value,
                ..JicConfig::default()
            };
            assert_eq!(bad.validate().unwrap_err().0, key);
        }
        let bad = JicConfig {
            spare_release_value: 1.5,
            ..JicConfig::default()
        };
        assert_eq!(bad.validate().unwrap_err().0, "spare_release_value");
        let bad = JicConfig {
            model_match: 1.5,
            ..JicConfig::default()
        };
        assert_eq!(bad.validate().unwrap_err().0, "model_match");
        let bad = JicConfig {
            model_samples: 0,
            ..JicConfig::default()
        };
        assert_eq!(bad.validate().unwrap_err().0, "model_samples");
    }

    #[test]
    fn parses_toml_and_rejects_bad_values() {
        let c: JicConfig = toml::from_str("mode = \"thesis\"\ncandidates = 3").unwrap();
        assert_eq!(c.mode, JicMode::Thesis);
        assert_eq!(c.candidates, 3);
        assert!(toml::from_str::<JicConfig>("modee = 1").is_err());
        let c: JicConfig = toml::from_str("spare_scope = \"all\"").unwrap();
        assert_eq!(c.spare_scope, SpareScope::All);
        let err = toml::from_str::<JicConfig>("spare_scope = \"some\"").unwrap_err();
        assert!(err.to_string().contains("unmodelled"), "{err}");
        let bad = JicConfig {
            deadlock_change_fraction: 1.5,
            ..JicConfig::default()
        };
        assert_eq!(bad.validate().unwrap_err().0, "deadlock_change_fraction");
        let bad = JicConfig {
            opponent_samples: 0,
            ..JicConfig::default()
        };
        assert_eq!(bad.validate().unwrap_err().0, "opponent_samples");
    }
}
