//! Multi-player games (GVG-AI `no_players > 1`): one avatar per player, a joint action per
//! cycle, and a score and result per player.
//!
//! Player 0 keeps the single-player fields of [`GameState`] (`avatar`, `score`, `winner`,
//! `last_action`); players 1.. are [`OtherPlayer`]s, so single-player games carry an empty
//! list. The avatars are assigned as GVG-AI's `createAvatars` does: the level keeps its first
//! `no_players` avatars (in placement order), which are then collected over the sprite order
//! from its end down to its second entry, each type's sprites in creation order, and the
//! collected list reversed. Each avatar updates in player order with its player's action;
//! every scoring effect adds to each player its entry of `scoreChange="a,b"`; terminations
//! give each player its entry of `win="True,False"` (or, with `count_score`, a win to the
//! highest nonzero score).

use super::{GameState, MAX_TICKS, Sprite, SpriteRef, Winner};
use crate::gvgai::engine::rules::{Action, Rules};
use crate::gvgai::vgdl::{CounterRule, Effect, Termination, TypeId};

/// A player other than player 0: its avatar (type, sprite id), score, result and last action.
#[derive(Debug, Clone)]
pub(crate) struct OtherPlayer {
    pub avatar: Option<(TypeId, u32)>,
    pub score: f64,
    pub winner: Winner,
    pub last_action: Action,
}

/// How a seated player models the other players' actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// Uniformly random among their avatar's actions.
    Random,
    /// Always NIL.
    Nil,
    /// Their last action again.
    Repeat,
}

impl Opponent {
    pub fn parse(s: &str) -> Option<Opponent> {
        match s {
            "random" => Some(Opponent::Random),
            "nil" => Some(Opponent::Nil),
            "repeat" => Some(Opponent::Repeat),
            _ => None,
        }
    }
}

/// The player a state is seen by, the opponent model and its generator (splitmix64).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seat {
    player: usize,
    opponent: Opponent,
    rng: u64,
}

impl Seat {
    fn next(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Mix `seed` into the generator (re-seeding a copy for an independent rollout).
    pub(crate) fn reseed(&mut self, seed: i64) {
        self.rng ^= seed as u64;
    }
}

/// Player `p`'s score change for an effect (GVG-AI `getScoreChange(p)`).
fn score_for(effect: &Effect, p: usize) -> i32 {
    effect.scores.get(p).copied().unwrap_or(effect.score_change)
}

impl GameState {
    /// The number of players (GVG-AI `no_players`).
    pub fn players(&self) -> usize {
        1 + self.others.len()
    }

    /// Player `p`'s score (player 0's is [`GameState::score`]).
    pub fn score_of(&self, p: usize) -> f64 {
        match p {
            0 => self.score,
            _ => self.others.get(p - 1).map_or(0.0, |o| o.score),
        }
    }

    /// Player `p`'s result (player 0's is [`GameState::winner`]).
    pub fn winner_of(&self, p: usize) -> Winner {
        match p {
            0 => self.winner,
            _ => self
                .others
                .get(p - 1)
                .map_or(Winner::NoWinner, |o| o.winner),
        }
    }

    /// The action player `p`'s avatar took in the last cycle.
    pub fn last_action_of(&self, p: usize) -> Action {
        match p {
            0 => self.last_action,
            _ => self
                .others
                .get(p - 1)
                .map_or(Action::Nil, |o| o.last_action),
        }
    }

    /// Player `p`'s avatar sprite, if it has one.
    pub fn avatar_of(&self, p: usize) -> Option<&Sprite> {
        self.player_avatar_ref(p).map(|r| self.sprite(r))
    }

    /// Actions player `p`'s avatar accepts (GVG-AI order, without NIL); none once the avatar
    /// is gone.
    pub fn available_actions_of(&self, p: usize) -> &[Action] {
        match self.avatar_of(p) {
            Some(a) => &self.rules.props(a.ty).actions,
            None => &[],
        }
    }

    /// This state seen by player `p`, the other players acting as `opponent` models them
    /// (drawing with `seed`): [`GameState::advance`] then takes `p`'s action. Search
    /// controllers given such a state play for `p` ([`GameState::seated_player`]).
    pub fn seated(&self, p: usize, opponent: Opponent, seed: u64) -> GameState {
        let mut st = self.clone();
        st.seat = Some(Seat {
            player: p.min(self.players() - 1),
            opponent,
            rng: seed,
        });
        st
    }

    /// The player this state is seen by (0 unless [`GameState::seated`]).
    pub fn seated_player(&self) -> usize {
        self.seat.map_or(0, |s| s.player)
    }

    /// One cycle of a seated state: the seated player's `action`, the others' from the
    /// opponent model.
    pub(super) fn advance_seated(&mut self, action: Action, mut seat: Seat) {
        let mut joint = [Action::Nil; 4];
        for (q, slot) in joint.iter_mut().enumerate().take(self.players()) {
            *slot = if q == seat.player {
                action
            } else {
                match seat.opponent {
                    Opponent::Nil => Action::Nil,
                    Opponent::Repeat => self.last_action_of(q),
                    Opponent::Random => {
                        let acts = self.available_actions_of(q);
                        let r = seat.next();
                        match acts.len() {
                            0 => Action::Nil,
                            n => acts[(r % n as u64) as usize],
                        }
                    }
                }
            };
        }
        self.seat = Some(seat);
        let n = self.players();
        self.advance_with(joint[0], &joint[1..n]);
    }

    /// Advance one cycle with a joint action: `actions[p]` is player `p`'s (NIL if missing).
    pub fn advance_joint(&mut self, actions: &[Action]) {
        let first = actions.first().copied().unwrap_or(Action::Nil);
        self.advance_with(first, actions.get(1..).unwrap_or(&[]));
    }

    fn player_avatar_ref(&self, p: usize) -> Option<SpriteRef> {
        if p == 0 {
            return self.avatar_ref();
        }
        self.ref_of(self.others.get(p - 1)?.avatar?)
    }

    /// The player whose avatar is sprite `id` (GVG-AI's `playerID`, 0 for other avatars).
    pub(crate) fn player_of_avatar(&self, id: u32) -> usize {
        self.others
            .iter()
            .position(|o| o.avatar.is_some_and(|(_, a)| a == id))
            .map_or(0, |i| i + 1)
    }

    /// Make `(ty, id)` player `p`'s avatar.
    pub(crate) fn set_avatar_of(&mut self, p: usize, ty: TypeId, id: u32) {
        match p {
            0 => self.avatar = Some((ty, id)),
            _ => {
                if let Some(o) = self.others.get_mut(p - 1) {
                    o.avatar = Some((ty, id));
                }
            }
        }
    }

    /// Keep the first `players` avatars of the level (the others are removed) and assign them
    /// in GVG-AI's `createAvatars` order.
    pub(super) fn keep_player_avatars(&mut self, avatars: &[SpriteRef], players: usize) {
        let mut extra: Vec<u32> = avatars
            .iter()
            .skip(players)
            .map(|r| self.sprite(*r).id)
            .collect();
        extra.sort_unstable();
        if !extra.is_empty() {
            for g in self.groups.iter_mut() {
                g.make_mut().retain(|s| extra.binary_search(&s.id).is_err());
            }
            self.num_sprites -= extra.len();
        }
        let order = self.rules.desc.sprite_order.clone();
        let mut found: Vec<(TypeId, u32)> = Vec::new();
        for &t in order.iter().skip(1).rev() {
            if self.rules.props(t).is_avatar {
                found.extend(self.groups[usize::from(t)].iter().map(|s| (t, s.id)));
            }
        }
        found.reverse();
        self.others = (1..players)
            .map(|p| OtherPlayer {
                avatar: found.get(p).copied(),
                score: 0.0,
                winner: Winner::NoWinner,
                last_action: Action::Nil,
            })
            .collect();
        self.avatar = found.first().copied();
    }

    /// Update the avatars of players 1.. with their actions, in player order.
    pub(super) fn update_other_avatars(&mut self, rules: &Rules, actions: &[Action]) {
        for p in 1..self.players() {
            let Some(r) = self.player_avatar_ref(p) else {
                continue;
            };
            if self.sprite(r).disabled {
                continue;
            }
            let own = self.last_action;
            self.pre_movement(r);
            self.update_avatar(rules, r, actions.get(p - 1).copied().unwrap_or(Action::Nil));
            self.others[p - 1].last_action = self.last_action;
            self.last_action = own;
        }
    }

    /// Players 1.. score effect `effect` `times` times (with `score_override`, that value).
    pub(crate) fn score_others(&mut self, effect: &Effect, over: Option<i32>, times: i32) {
        for (i, o) in self.others.iter_mut().enumerate() {
            if o.avatar.is_some() {
                let sc = over.unwrap_or_else(|| score_for(effect, i + 1));
                o.score += f64::from(sc) * f64::from(times);
            }
        }
    }

    /// `removeScore` in a multi-player game: zero the score of the players whose avatar is
    /// `s1` (no `stype`) or of type `stype`; whether one was.
    pub(crate) fn remove_player_scores(&mut self, s1: SpriteRef, stype: Option<TypeId>) -> bool {
        let id = self.sprite(s1).id;
        let hit = |a: Option<(TypeId, u32)>| match (a, stype) {
            (Some((_, aid)), None) => aid == id,
            (Some((t, _)), Some(st)) => t == st,
            (None, _) => false,
        };
        let mut any = false;
        if hit(self.avatar) {
            self.score = 0.0;
            any = true;
        }
        for o in self.others.iter_mut() {
            if hit(o.avatar) {
                o.score = 0.0;
                any = true;
            }
        }
        any
    }

    /// A termination ends a multi-player game: every player gets its result.
    pub(super) fn end_for_players(&mut self, t: &Termination) {
        let scores: Vec<f64> = (0..self.players()).map(|p| self.score_of(p)).collect();
        let wins = |p: usize| {
            if t.count_score {
                count_score_win(&scores, p)
            } else if p == 0 {
                t.win
            } else {
                t.wins.get(p).copied().unwrap_or(false)
            }
        };
        let result = |w: bool| {
            if w {
                Winner::PlayerWins
            } else {
                Winner::PlayerLoses
            }
        };
        self.winner = result(wins(0));
        for p in 1..self.players() {
            let w = wins(p);
            let o = &mut self.others[p - 1];
            if o.avatar.is_some() {
                o.winner = result(w);
            }
        }
    }

    /// A `Timeout use_counter=True` ends the game: the counters give every player its
    /// result (see [`CounterRule`]).
    pub(super) fn end_by_counters(&mut self, rule: &CounterRule) {
        let n = self.players();
        let c = &self.counters;
        let wins: Vec<bool> = match rule {
            CounterRule::Compare => {
                let equal = c.iter().all(|&v| Some(&v) == c.first());
                (0..n).map(|p| (p == 0) != equal).collect()
            }
            CounterRule::Limits(l) if c.len() == n => {
                let last = c.get(n - 1) == l.get(n - 1);
                (0..n).map(|p| p == 0 && last).collect()
            }
            CounterRule::Limits(_) => vec![false; n],
        };
        let result = |w: bool| {
            if w {
                Winner::PlayerWins
            } else {
                Winner::PlayerLoses
            }
        };
        self.winner = result(wins[0]);
        for (p, o) in self.others.iter_mut().enumerate() {
            if o.avatar.is_some() {
                o.winner = result(wins[p + 1]);
            }
        }
    }

    /// Add an execution's counters: `counter` if `count`, `counterElse` if `count_else`,
    /// each `times` over.
    pub(crate) fn add_counters(&mut self, effect: &Effect, count: (bool, bool), times: i32) {
        for (i, c) in self.counters.iter_mut().enumerate() {
            if count.0 {
                *c = c.wrapping_add(effect.counter.at(i).wrapping_mul(times));
            }
            if count.1 {
                *c = c.wrapping_add(effect.counter_else.at(i).wrapping_mul(times));
            }
        }
    }

    /// The time limit for players 1..: lost unless already won.
    pub(super) fn others_time_limit(&mut self) {
        if self.tick >= MAX_TICKS {
            for o in self.others.iter_mut() {
                if o.winner != Winner::PlayerWins {
                    o.winner = Winner::PlayerLoses;
                }
            }
        }
    }

    /// Forget the avatars of players 1.. that were removed this cycle.
    pub(super) fn forget_removed_avatars(&mut self) {
        for p in 1..self.players() {
            if self.others[p - 1].avatar.is_some() && self.player_avatar_ref(p).is_none() {
                self.others[p - 1].avatar = None;
            }
        }
    }
}

/// GVG-AI `Termination.countScore`: player `p` wins if its score is the highest and not all
/// scores are zero (the maximum starts at player 0's and only nonzero scores raise it).
fn count_score_win(scores: &[f64], p: usize) -> bool {
    let mut max = scores.first().copied().unwrap_or(0.0);
    let mut all0 = max == 0.0;
    for &s in scores.iter().skip(1) {
        if s != 0.0 {
            all0 = false;
            if s > max {
                max = s;
            }
        }
    }
    !all0 && scores.get(p).is_some_and(|&s| s == max)
}

#[cfg(test)]
mod tests {
    use super::count_score_win;

    #[test]
    fn count_score_gives_the_win_to_the_highest_nonzero_score() {
        assert!(count_score_win(&[2.0, 1.0], 0));
        assert!(!count_score_win(&[2.0, 1.0], 1));
        assert!(!count_score_win(&[0.0, 0.0], 0));
        assert!(count_score_win(&[0.0, -5.0], 0));
        assert!(count_score_win(&[3.0, 3.0], 1));
    }
}
