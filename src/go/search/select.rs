//! Selection: the UCT rule, with the win rate blended with the AMAF (RAVE) win rate when RAVE
//! is on and prior knowledge counted as extra visits; without RAVE (the thesis) unvisited
//! children come first, in uniformly random order.

use super::driver::{Shared, Worker};
use super::tree::Node;
use crate::go::Move;
use rand::Rng;
use std::sync::atomic::Ordering::Relaxed;

/// UCT/RAVE choice among `children` of `parent`.
pub(super) fn select<'a>(
    parent: &Node,
    children: &'a [Node],
    shared: &Shared,
    w: &mut Worker,
    at_root: bool,
) -> &'a Node {
    let params = shared.params;
    let rave = params.rave_equiv > 0.0;
    let forbid_pass = at_root && shared.options.forbid_pass;
    if !rave {
        // Thesis: unvisited children first, uniformly at random.
        let mut unvisited = 0u32;
        let mut pick = None;
        for c in children {
            if forbid_pass && c.mv == Move::Pass {
                continue;
            }
            if c.visits() + c.virtual_loss.load(Relaxed) == 0 {
                unvisited += 1;
                if w.rng.gen_range(0..unvisited) == 0 {
                    pick = Some(c);
                }
            }
        }
        if let Some(c) = pick {
            return c;
        }
    }
    let parent_n = (parent.visits() + parent.virtual_loss.load(Relaxed)).max(1) as f64;
    let log_n = parent_n.ln();
    let mut best = f64::NEG_INFINITY;
    let mut pick = &children[0];
    for c in children {
        if forbid_pass && c.mv == Move::Pass {
            continue;
        }
        let vl = c.virtual_loss.load(Relaxed) as f64;
        let n = (c.visits() + c.prior_visits) as f64 + vl;
        // First-play urgency 1.0 for children without statistics.
        let mut q = if n > 0.0 {
            (c.wins() + c.prior_wins as f64) / n
        } else {
            1.0
        };
        if rave {
            let (visits, wins2) = c.amaf.get();
            let an = f64::from(visits);
            if an > 0.0 {
                let aq = f64::from(wins2) / 2.0 / an;
                let beta = an / (an + n + n * an / params.rave_equiv);
                q = (1.0 - beta) * q + beta * aq;
            }
        }
        let value = q + params.uct_c * (log_n / n.max(1.0)).sqrt();
        if value > best {
            best = value;
            pick = c;
        }
    }
    pick
}
