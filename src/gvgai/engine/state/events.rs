//! Event handling of a cycle: timed effects, end-of-screen effects and pairwise collision
//! effects, each executed with its score.

use super::sprite::{Candidates, CellIndex, Group, Sprite};
use super::{GameState, SpriteRef};
use crate::gvgai::engine::rules::Rules;
use crate::gvgai::vgdl::{EffectKind, TypeId};

/// Sprites of one type from which a collision test looks them up by grid cell instead of
/// testing each.
const INDEXED_SPAN: usize = 16;

/// Cell indices of owned groups (sprites that move) for one cycle's collision passes: built
/// when a pass with many first sprites (queries to pay for the index) first asks for one,
/// and given up for the rest of the cycle at the first executed effect, which may move
/// sprites (where effects run often, rebuilding would cost more than the scans it saves).
/// Shared groups keep their own.
#[derive(Default)]
struct PassIndices {
    built: Vec<(TypeId, Option<CellIndex>)>,
    /// An effect ran: no more indices of owned groups this cycle.
    stale: bool,
}

impl PassIndices {
    /// The index of `t` if one was built.
    fn get(&self, t: TypeId) -> Option<&CellIndex> {
        let (_, index) = self.built.iter().find(|(ty, _)| *ty == t)?;
        index.as_ref()
    }

    fn effect_ran(&mut self) {
        self.built.clear();
        self.stale = true;
    }
}

/// Whether the block-sized squares at `(x, y)` and at `s`'s position overlap.
#[inline]
fn squares_overlap((x, y): (i32, i32), s: &Sprite, w: i32) -> bool {
    x < s.x + w && s.x < x + w && y < s.y + w && s.y < y + w
}

/// One pairwise effect's pass over one span of first sprites: the effect, whether it runs on
/// all of a first sprite's collisions at once, the second sprites (type, count at the start
/// of the pass), and whether the span has enough first sprites to pay for building a second
/// group's cell index.
#[derive(Clone, Copy)]
struct PairPass<'a> {
    e: usize,
    batch: bool,
    spans2: &'a [(TypeId, usize)],
    may_index: bool,
}

/// A scheduled timed effect.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timer {
    pub at: i32,
    /// The `addTimer` effect whose delegate runs, or the native timed effect.
    pub effect: usize,
    /// For native timed effects: the sprite type it applies to.
    pub native: Option<TypeId>,
    pub timer: i32,
    pub repeating: bool,
}

/// Scheduled timed effects in GVG-AI's order (its `TreeSet` of `TimeEffect`s): by time, and
/// among equal times the newest first. A binary heap, so that adding a timer and taking the
/// next one cost O(log n) as in Java, however many there are (an `addTimer` effect adds one
/// per collision).
#[derive(Debug, Clone, Default)]
pub(crate) struct Timers {
    heap: std::collections::BinaryHeap<Queued>,
    /// Timers added so far: the next one's sequence number.
    added: u64,
}

/// A timer with its sequence number, ordered so that the heap's greatest is the next to run.
#[derive(Debug, Clone, Copy)]
struct Queued {
    seq: u64,
    timer: Timer,
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.timer.at.cmp(&self.timer.at)).then(self.seq.cmp(&other.seq))
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Queued {}

impl Timers {
    pub(crate) fn push(&mut self, timer: Timer) {
        self.heap.push(Queued {
            seq: self.added,
            timer,
        });
        self.added += 1;
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Takes the next timer if it is due at `tick`.
    pub(crate) fn pop_due(&mut self, tick: i32) -> Option<Timer> {
        if self.heap.peek()?.timer.at > tick {
            return None;
        }
        self.heap.pop().map(|q| q.timer)
    }

    /// The timers in the order they run.
    pub(crate) fn in_order(&self) -> Vec<Timer> {
        let mut queued: Vec<Queued> = self.heap.iter().copied().collect();
        queued.sort_unstable_by(|a, b| b.cmp(a));
        queued.into_iter().map(|q| q.timer).collect()
    }
}

impl GameState {
    /// The sprites of `t` and its subtypes at this moment.
    fn snapshot(&self, t: TypeId, out: &mut Vec<SpriteRef>) {
        out.clear();
        for &st in &self.rules.props(t).subtypes {
            for i in 0..self.groups[usize::from(st)].len() {
                out.push(SpriteRef {
                    ty: st,
                    idx: i as u32,
                });
            }
        }
    }

    /// GVG-AI `eventHandling`: due timers, end-of-screen effects, then pairwise effects.
    pub(super) fn event_handling(&mut self, rules: &Rules) {
        self.run_timers(rules);
        self.run_eos_effects(rules);
        self.run_pair_effects(rules);
    }

    /// Timed effects that are due (GVG-AI TreeSet order: by time, newest first among equal
    /// times); repeating ones are scheduled again.
    fn run_timers(&mut self, rules: &Rules) {
        while let Some(first) = self.timers.pop_due(self.tick) {
            match first.native {
                None => self.run_add_timer(rules, first.effect),
                Some(t) => self.run_native_timer(rules, first.effect, t),
            }
            if first.repeating {
                self.timers.push(Timer {
                    at: self.tick.saturating_add(first.timer),
                    ..first
                });
            }
        }
    }

    /// An `addTimer` effect `e` comes due: its delegate runs once, on no sprite.
    fn run_add_timer(&mut self, rules: &Rules, e: usize) {
        let effect = &rules.effects[e];
        if let EffectKind::AddTimer { delegate, .. } = &effect.kind {
            self.run_effect(rules, &delegate.kind, usize::MAX, None, None);
            if self.apply_score[e] {
                self.score += f64::from(effect.score_change);
                if !self.others.is_empty() {
                    self.score_others(effect, None, 1);
                }
            }
        }
    }

    /// A native timed effect `e` comes due: it runs on every live sprite of `t` and its
    /// subtypes, sprites created meanwhile included.
    fn run_native_timer(&mut self, rules: &Rules, e: usize, t: TypeId) {
        let effect = &rules.effects[e];
        for &st in &rules.props(t).subtypes {
            let mut i = 0;
            while i < self.groups[usize::from(st)].len() {
                let r = SpriteRef {
                    ty: st,
                    idx: i as u32,
                };
                let s = self.sprite(r);
                if !s.killed && !s.disabled {
                    self.run_effect(rules, &effect.kind, e, Some(r), None);
                    self.score += f64::from(effect.score_change);
                    if !self.others.is_empty() {
                        self.score_others(effect, None, 1);
                    }
                    // The timed effect's own flags count, whatever its delegate did.
                    if !self.counters.is_empty() {
                        self.add_counters(effect, (effect.count, effect.count_else), 1);
                    }
                }
                i += 1;
            }
        }
    }

    /// End-of-screen effects on the live sprites outside the level.
    fn run_eos_effects(&mut self, rules: &Rules) {
        let mut list = Vec::new();
        for &t in &rules.eos_types {
            for &e in &rules.eos_effects[usize::from(t)] {
                self.snapshot(t, &mut list);
                for &r in &list {
                    let s = self.sprite(r);
                    if self.at_edge(s) && !s.killed && !s.disabled {
                        self.execute(rules, e, Some(r), None);
                    }
                }
            }
        }
    }

    /// Pairwise effects. Sprite lists are re-read for every effect; candidates for each first
    /// sprite are taken at its turn, and re-checked before each execution.
    fn run_pair_effects(&mut self, rules: &Rules) {
        let mut spans1: Vec<(TypeId, usize)> = Vec::new();
        let mut spans2: Vec<(TypeId, usize)> = Vec::new();
        let mut hits: Vec<SpriteRef> = Vec::new();
        let mut firsts: Vec<u32> = Vec::new();
        let mut indices = PassIndices::default();
        for (a, b, effs) in &rules.pairs {
            for &e in effs {
                if self.shielded(rules, *a, *b, e) {
                    continue;
                }
                let batch = matches!(
                    rules.effects[e].kind,
                    EffectKind::WallBounce | EffectKind::WallReverse
                );
                self.spans(rules, *a, &mut spans1);
                if spans1.is_empty() {
                    continue;
                }
                self.spans(rules, *b, &mut spans2);
                if spans2.is_empty() {
                    continue;
                }
                let pass = PairPass {
                    e,
                    batch,
                    spans2: &spans2,
                    // Decided per span of first sprites, by `pair_span`.
                    may_index: false,
                };
                for &span in &spans1 {
                    self.pair_span(rules, &pass, span, &mut indices, &mut hits, &mut firsts);
                }
            }
        }
    }

    /// Effect `pass.e` between each of the first `n1` sprites of `t1`, in order, and the
    /// sprites of `pass.spans2` it overlaps. When `t1`'s sprites are indexed by cell and
    /// outnumber the second sprites, only those near a second sprite are visited (the others
    /// overlap nothing); that set is taken again after every executed effect, which may have
    /// moved sprites.
    fn pair_span(
        &mut self,
        rules: &Rules,
        pass: &PairPass,
        (t1, n1): (TypeId, usize),
        indices: &mut PassIndices,
        hits: &mut Vec<SpriteRef>,
        firsts: &mut Vec<u32>,
    ) {
        let ground = rules.props(t1).checks_ground;
        let pass = &PairPass {
            may_index: n1 >= INDEXED_SPAN,
            ..*pass
        };
        let mut near = pass.may_index
            && !ground
            && self.firsts_near((t1, n1), pass.spans2, 0, indices, firsts);
        let (mut i1, mut k) = (0, 0);
        loop {
            if near {
                let Some(&i) = firsts.get(k) else { break };
                (i1, k) = (i as usize, k + 1);
            } else if i1 >= n1 {
                break;
            }
            let s1 = SpriteRef {
                ty: t1,
                idx: i1 as u32,
            };
            let ran = self.collide(rules, pass, s1, ground, indices, hits);
            i1 += 1;
            if ran {
                indices.effect_ran();
                if near {
                    near = self.firsts_near((t1, n1), pass.spans2, i1, indices, firsts);
                    k = 0;
                }
            }
        }
    }

    /// Puts in `out`, in ascending order, the indices in `from..n1` of the sprites of `t1`
    /// whose squares may overlap a sprite of `spans2`: found through `t1`'s cell index if it
    /// has one (building one here would cost more than it saves), else by comparing
    /// positions. Asked for at least `INDEXED_SPAN` first sprites. False (and `out` not to be
    /// used) when that would not pay or is not possible: sprites of different sizes, second
    /// sprites about as many as the first, or a cell too crowded for the lookup.
    #[inline(never)]
    fn firsts_near(
        &self,
        (t1, n1): (TypeId, usize),
        spans2: &[(TypeId, usize)],
        from: usize,
        indices: &mut PassIndices,
        out: &mut Vec<u32>,
    ) -> bool {
        out.clear();
        let n2: usize = spans2.iter().map(|&(_, n)| n).sum();
        if self.rules.sized || 2 * n2 > n1 {
            return false;
        }
        let group = &self.groups[usize::from(t1)];
        let index = match group {
            Group::Shared(_) => group.cell_index(self.block),
            Group::Owned(_) => indices.get(t1),
        };
        let Some(index) = index else {
            let w = self.block;
            for (i, s1) in group[from..n1].iter().enumerate() {
                let hit = spans2.iter().any(|&(t2, m)| {
                    self.groups[usize::from(t2)][..m]
                        .iter()
                        .any(|s2| squares_overlap((s1.x, s1.y), s2, w))
                });
                if hit {
                    out.push((from + i) as u32);
                }
            }
            return true;
        };
        for &(t2, m) in spans2 {
            for sp in &self.groups[usize::from(t2)][..m] {
                let mut near = Candidates::new();
                if !index.near(sp.x, sp.y, &mut near) {
                    return false;
                }
                let range = from as u32..n1 as u32;
                out.extend(near.sorted().iter().filter(|i| range.contains(i)));
            }
        }
        out.sort_unstable();
        out.dedup();
        true
    }

    /// Effect `pass.e` between `s1` and each sprite of `pass.spans2` it overlaps now;
    /// whether an effect ran.
    #[inline]
    fn collide(
        &mut self,
        rules: &Rules,
        pass: &PairPass,
        s1: SpriteRef,
        ground: bool,
        indices: &mut PassIndices,
        hits: &mut Vec<SpriteRef>,
    ) -> bool {
        self.overlapping(s1, pass, indices, hits);
        if ground {
            self.check_ground_all(s1, pass.spans2);
        }
        if pass.batch {
            if hits.is_empty() {
                return false;
            }
            self.execute_batch(rules, pass.e, s1, hits);
            return true;
        }
        let mut ran = false;
        for &s2 in hits.iter() {
            if ground && !self.sprite(s1).killed {
                self.check_ground(s1, s2);
            }
            if !self.sprite(s1).killed && self.intersects(s1, s2) {
                self.execute(rules, pass.e, Some(s1), Some(s2));
                ran = true;
            }
        }
        ran
    }

    /// Every collision test of a ground-checking `s1` against the sprites of `spans` looks
    /// for ground under it.
    #[inline(never)]
    fn check_ground_all(&mut self, s1: SpriteRef, spans: &[(TypeId, usize)]) {
        for &(t2, n2) in spans {
            for i2 in 0..n2 {
                let s2 = SpriteRef {
                    ty: t2,
                    idx: i2 as u32,
                };
                if s2 != s1 {
                    self.check_ground(s1, s2);
                }
            }
        }
    }

    /// Whether a `shieldFrom` of this cycle blocks effect `e` between types `a` and `b`.
    fn shielded(&self, rules: &Rules, a: TypeId, b: TypeId, e: usize) -> bool {
        if self.shields.is_empty() {
            return false;
        }
        let fname = rules.effects[e].kind.function_name();
        self.shields
            .iter()
            .any(|(x, y, f)| *x == a && *y == b && f == fname)
    }

    /// The cell index of `t`'s sprites: a shared group's own, else the one built for these
    /// passes, built now if `may_build` (`None` for a group too spread for a grid).
    fn index_of<'a>(
        &'a self,
        t: TypeId,
        indices: &'a mut PassIndices,
        may_build: bool,
    ) -> Option<&'a CellIndex> {
        let group = &self.groups[usize::from(t)];
        if let Group::Shared(_) = group {
            return group.cell_index(self.block);
        }
        let k = match indices.built.iter().position(|(ty, _)| *ty == t) {
            Some(k) => k,
            None if indices.stale || !may_build => return None,
            None => {
                indices.built.push((t, CellIndex::build(group, self.block)));
                indices.built.len() - 1
            }
        };
        indices.built[k].1.as_ref()
    }

    /// The sprites of `pass.spans2` that overlap `s1` now (`s1` itself excluded), in span
    /// order.
    fn overlapping(
        &self,
        s1: SpriteRef,
        pass: &PairPass,
        indices: &mut PassIndices,
        hits: &mut Vec<SpriteRef>,
    ) {
        hits.clear();
        let spans = pass.spans2;
        if self.rules.sized {
            return self.overlapping_sized(s1, spans, hits);
        }
        let w = self.block;
        let (t1, i1) = (s1.ty, s1.idx as usize);
        let (x1, y1) = {
            let sp = &self.groups[usize::from(t1)][i1];
            (sp.x, sp.y)
        };
        let overlaps = |sp: &Sprite| squares_overlap((x1, y1), sp, w);
        for &(t2, n2) in spans {
            let group = &self.groups[usize::from(t2)];
            if n2 >= INDEXED_SPAN
                && let Some(index) = self.index_of(t2, indices, pass.may_index)
            {
                let mut near = Candidates::new();
                if index.near(x1, y1, &mut near) {
                    for &i2 in near.sorted() {
                        let i2 = i2 as usize;
                        if i2 < n2 && overlaps(&group[i2]) && !(t2 == t1 && i2 == i1) {
                            hits.push(SpriteRef {
                                ty: t2,
                                idx: i2 as u32,
                            });
                        }
                    }
                    continue;
                }
            }
            for (i2, sp) in group[..n2].iter().enumerate() {
                if overlaps(sp) && !(t2 == t1 && i2 == i1) {
                    hits.push(SpriteRef {
                        ty: t2,
                        idx: i2 as u32,
                    });
                }
            }
        }
    }

    /// [`GameState::overlapping`] for sprites of different sizes.
    #[inline(never)]
    fn overlapping_sized(
        &self,
        s1: SpriteRef,
        spans: &[(TypeId, usize)],
        hits: &mut Vec<SpriteRef>,
    ) {
        let a = self.rect(s1);
        for &(t2, n2) in spans {
            for i2 in 0..n2 {
                let s2 = SpriteRef {
                    ty: t2,
                    idx: i2 as u32,
                };
                if s2 != s1 && a.intersects(self.rect(s2)) {
                    hits.push(s2);
                }
            }
        }
    }

    /// The (type, count) spans of `t` and its subtypes at this moment.
    fn spans(&self, rules: &Rules, t: TypeId, out: &mut Vec<(TypeId, usize)>) {
        out.clear();
        for &st in &rules.props(t).subtypes {
            let n = self.groups[usize::from(st)].len();
            if n > 0 {
                out.push((st, n));
            }
        }
    }

    /// Run the batch effect `e` (`wallBounce`) on `s1` and every sprite it hits at once, with
    /// its score times the number of sprites the effect counted.
    #[inline(never)]
    fn execute_batch(&mut self, rules: &Rules, e: usize, s1: SpriteRef, hits: &[SpriteRef]) {
        let reverse = matches!(rules.effects[e].kind, EffectKind::WallReverse);
        let n = self.wall_bounce_batch(s1, hits, reverse);
        let effect = &rules.effects[e];
        if self.apply_score[e] {
            self.score += f64::from(effect.score_change) * f64::from(n);
            if !self.others.is_empty() {
                self.score_others(effect, None, n);
            }
        }
        if !self.counters.is_empty() {
            self.add_counters(effect, (effect.count, effect.count_else), n);
        }
    }

    /// Run effect `e` and add its score (unless the effect has turned its score off).
    fn execute(&mut self, rules: &Rules, e: usize, s1: Option<SpriteRef>, s2: Option<SpriteRef>) {
        let effect = &rules.effects[e];
        let out = self.run_effect(rules, &effect.kind, e, s1, s2);
        if let Some(a) = out.apply_score {
            self.apply_score[e] = a;
        }
        if self.apply_score[e] {
            let sc = out.score_override.unwrap_or(effect.score_change);
            self.score += f64::from(sc);
            if !self.others.is_empty() {
                self.score_others(effect, out.score_override, 1);
            }
        }
        if !self.counters.is_empty() {
            let count = out.counted.unwrap_or((effect.count, effect.count_else));
            self.add_counters(effect, count, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Timer, Timers};

    fn timer(at: i32, effect: usize) -> Timer {
        Timer {
            at,
            effect,
            native: None,
            timer: 0,
            repeating: false,
        }
    }

    #[test]
    fn timers_run_by_time_and_newest_first_among_equal_times() {
        let mut timers = Timers::default();
        for (at, effect) in [(5, 0), (3, 1), (5, 2), (3, 3), (9, 4), (5, 5)] {
            timers.push(timer(at, effect));
        }
        let order: Vec<usize> = timers.in_order().iter().map(|t| t.effect).collect();
        assert_eq!(order, [3, 1, 5, 2, 0, 4]);
        assert!(timers.pop_due(2).is_none(), "nothing is due before tick 3");
        let mut ran = Vec::new();
        while let Some(t) = timers.pop_due(5) {
            ran.push(t.effect);
        }
        assert_eq!(ran, [3, 1, 5, 2, 0]);
        timers.push(timer(9, 6));
        let rest: Vec<usize> = std::iter::from_fn(|| timers.pop_due(i32::MAX))
            .map(|t| t.effect)
            .collect();
        assert_eq!(rest, [6, 4]);
    }
}
