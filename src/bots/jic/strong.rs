//! Strong mode: candidate joint orders (from the coordinator, one-unit
//! deviations, convoy variants) are played with the adjudicator against
//! sampled opponent orders and scored by the resulting position; the best
//! mean wins. Samples are shared by all candidates (common random numbers)
//! and evaluated round by round, so stopping at the deadline is always fair.
//! The chosen candidate is then improved by hill climbing ([`improve`]): one
//! own unit's order at a time is replaced by the alternative (hold, any move,
//! any support of an own order) with the best total over the same samples,
//! keeping the coordinator's constraints ([`consistent`]), until no change
//! helps or the deadline comes.
//!
//! Opponent model (default `dumbbot_sample_share = 1`):
//! every enemy power ordered by a seeded DumbBot, one seed per sample
//! ([`mixed_samples`]). The utility-driven model, for the rest of the
//! share: each enemy unit holds with weight `U(hold)·1.5` or moves
//! with weight `U(dest)` (thesis utilities from its owner's point of view,
//! squared); a unit whose pick collides with a same-power pick holds; each
//! enemy unit standing on a centre its power owns next to one of our units
//! holds with probability 0.6 before that; a holding enemy unit then
//! supports, with probability 0.5 each, a same-power holding unit next to
//! one of ours, or a same-power move into a province one of our units
//! stands in.
//!
//! Position value (from our side, hundredths): centres we will own (fall:
//! after the ownership update; spring: owned and not occupied by an enemy,
//! plus others we occupy at 0.8) ×1000, dislodged own units −600, dislodged
//! enemy units +150, own centres left empty next to an enemy −150 (spring
//! only), plus 0.3 × the thesis utility of every own unit's position; in the
//! fall, +700 per build that an open own home centre makes possible; with
//! `front_pull` > 0, minus that much per move an own unit stands beyond one
//! move from the nearest centre we do not own ([`FrontPull`]; off by default);
//! minus `survival_value` per centre held below `survival_centres` (fall: the
//! centres we will own; spring: own centres we stand on, and empty own
//! centres where our units reaching them are at least the enemies reaching
//! them), so a small power defends its last centres ([`Shaping`]); with
//! `spare_centres` > 0, a centre taken from a power beyond leaving it that
//! many is worth `spare_value` of its price (negative: it costs; by default
//! only for the powers DumbBot's policy does not explain, [`super::model`]),
//! and a fall position that gives a solo earns `solo_value`.

mod samples;
mod search;
mod value;

pub use samples::{mixed_samples, sample_opponents};
pub use search::{EvalBudget, alternatives, choose, consistent, convoy_variants, improve};
pub use value::{FrontPull, PULL_CAP, Shaping, Spare, evaluate};

#[cfg(test)]
mod tests;
