//! One game cycle (GVG-AI `advance`): sprite updates in order, events, removal of killed
//! sprites, terminations and the time limit.

use std::sync::Arc;

use super::{GameState, MAX_TICKS, SpriteRef, Winner};
use crate::gvgai::engine::rules::{Action, Rules};
use crate::gvgai::vgdl::{TerminationKind, TypeId};

impl GameState {
    /// Advance one game cycle with the avatar's `action` (GVG-AI `advance`). Does nothing once
    /// the game is over.
    /// In a multi-player game the other players play NIL, unless the state is seen by one
    /// player ([`GameState::seated`]): then `action` is that player's and the others act as
    /// its opponent model says.
    pub fn advance(&mut self, action: Action) {
        match self.seat {
            None => self.advance_with(action, &[]),
            Some(seat) => self.advance_seated(action, seat),
        }
    }

    /// One cycle with player 0's `action` and the actions of players 1.. in `others`.
    pub(super) fn advance_with(&mut self, action: Action, others: &[Action]) {
        if self.over {
            return;
        }
        let rules = Arc::clone(&self.rules);
        self.pulled.clear();
        if let Some(a) = self.avatar_ref() {
            if !self.sprite(a).disabled {
                self.pre_movement(a);
                self.update_avatar(&rules, a, action);
            }
        }
        if !self.others.is_empty() {
            self.update_other_avatars(&rules, others);
        }
        for &t in rules.desc.sprite_order.iter().rev() {
            let p = rules.props(t);
            if p.is_avatar {
                continue;
            }
            if p.inert {
                self.update_inert_group(t);
            } else {
                self.update_group(&rules, t);
            }
        }
        self.event_handling(&rules);
        self.clear_all();
        self.termination_handling(&rules);
        self.apply_time_limit();
        self.tick += 1;
    }

    /// Static sprites without behaviour: only the start-of-cycle bookkeeping. An unmoved
    /// group only owes the increment (and stays shared).
    fn update_inert_group(&mut self, t: TypeId) {
        if !self.groups[usize::from(t)].unmoved() {
            for s in self.group_mut(t).iter_mut() {
                if !s.disabled {
                    s.pre_movement();
                }
            }
        } else if !self.groups[usize::from(t)].is_empty() {
            self.inert_lag[usize::from(t)] += 1;
        }
    }

    /// Update the enabled sprites of `t` that exist at the start of its turn, in creation
    /// order.
    fn update_group(&mut self, rules: &Rules, t: TypeId) {
        let n = self.groups[usize::from(t)].len();
        for i in 0..n {
            let r = SpriteRef {
                ty: t,
                idx: i as u32,
            };
            // One access reads `disabled` and starts the update.
            let s = self.sprite_mut(r);
            if s.disabled {
                continue;
            }
            s.pre_movement();
            self.update_sprite(rules, r);
        }
    }

    /// GVG-AI's time limit: the cycle at `MAX_TICKS` ends the game, lost unless already won.
    fn apply_time_limit(&mut self) {
        if self.tick >= MAX_TICKS {
            self.over = true;
            if self.winner != Winner::PlayerWins {
                self.winner = Winner::PlayerLoses;
            }
            self.others_time_limit();
        }
    }

    /// Remove the sprites killed this cycle (path chasers keep their targets' last positions)
    /// and lift this cycle's shields.
    fn clear_all(&mut self) {
        if !self.kill_list.is_empty() {
            let removed = self.kill_list.len();
            if !self.chase.is_empty() {
                for k in 0..self.kill_list.len() {
                    let r = self.kill_list[k];
                    let (id, x, y) = {
                        let s = self.sprite(r);
                        (s.id, s.x, s.y)
                    };
                    for m in self.chase.iter_mut() {
                        if m.target == Some((r.ty, id)) {
                            m.tx = x;
                            m.ty = y;
                        }
                    }
                }
            }
            // Every killed sprite is on the kill list: only the groups it names are filtered.
            self.kill_list.sort_unstable_by_key(|r| r.ty);
            self.kill_list.dedup_by_key(|r| r.ty);
            for k in 0..self.kill_list.len() {
                let t = self.kill_list[k].ty;
                self.group_mut(t).retain(|s| !s.killed);
            }
            self.num_sprites -= removed;
            self.kill_list.clear();
            if self.avatar.is_some() && self.avatar_ref().is_none() {
                self.avatar = None;
            }
            if !self.others.is_empty() {
                self.forget_removed_avatars();
            }
        }
        self.shields.clear();
    }

    /// The first termination that holds ends the game with its result.
    fn termination_handling(&mut self, rules: &Rules) {
        for t in &rules.desc.terminations {
            if self.termination_holds(rules, &t.kind) {
                self.over = true;
                if let TerminationKind::Timeout {
                    counters: Some(rule),
                    ..
                } = &t.kind
                {
                    self.end_by_counters(rule);
                    return;
                }
                if t.count_score || !self.others.is_empty() {
                    self.end_for_players(t);
                    return;
                }
                self.winner = if t.win {
                    Winner::PlayerWins
                } else {
                    Winner::PlayerLoses
                };
                return;
            }
        }
    }

    /// How many of the subtypes of `t` (itself included) have sprites, as GVG-AI's
    /// `MultiSpriteCounterSubTypes` counts them.
    pub(crate) fn subtypes_with_sprites(&self, rules: &Rules, t: TypeId) -> i64 {
        rules
            .props(t)
            .subtypes
            .iter()
            .filter(|&&st| self.count(st) > 0 && !self.groups[usize::from(st)].is_empty())
            .count() as i64
    }

    /// Whether termination `kind` holds now (`StopCounter` never does: it sets `can_end`).
    fn termination_holds(&mut self, rules: &Rules, kind: &TerminationKind) -> bool {
        let can_end = self.can_end;
        match kind {
            TerminationKind::SpriteCounter { stype, limit } => {
                self.count(*stype) as i64 <= i64::from(*limit) && can_end
            }
            TerminationKind::MultiSpriteCounterSubTypes {
                stype,
                limit,
                subtypes,
            } => {
                self.count(*stype) as i64 == i64::from(*limit)
                    && can_end
                    && self.subtypes_with_sprites(rules, *stype) == i64::from(*subtypes)
            }
            TerminationKind::SpriteCounterMore { stype, limit } => {
                self.count(*stype) as i64 >= i64::from(*limit) && can_end
            }
            TerminationKind::MultiSpriteCounter { stypes, limit, min } => {
                let sum: i64 = stypes.iter().map(|&s| self.count(s) as i64).sum();
                (sum == i64::from(*limit) || (*min && sum > i64::from(*limit))) && can_end
            }
            TerminationKind::StopCounter { stypes, limit, min } => {
                let sum: i64 = stypes.iter().map(|&s| self.count(s) as i64).sum();
                self.can_end = if *min {
                    sum <= i64::from(*limit)
                } else {
                    sum != i64::from(*limit)
                };
                false
            }
            TerminationKind::Timeout { limit, .. } => self.tick >= *limit,
        }
    }
}
