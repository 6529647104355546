//! Sprites and their per-type groups: resources of one sprite, copy-on-write groups, sprite
//! lookup by reference or id, and GVG-AI's `addSprite` / `killSprite`.

use std::sync::{Arc, OnceLock};

use super::GameState;
use crate::gvgai::vgdl::{Dir, TypeId};

/// The gravity `waterPhysics` gives a sprite (GVG-AI `WaterPhysics`).
pub const WATER_GRAVITY: f64 = 0.2;

/// One sprite. Dead sprites stay in their group (flagged) until the end of the cycle.
#[derive(Debug, Clone)]
pub struct Sprite {
    pub ty: TypeId,
    pub id: u32,
    pub x: i32,
    pub y: i32,
    /// Position at the start of this cycle's update (GVG-AI `lastrect`).
    pub lx: i32,
    pub ly: i32,
    pub orientation: Dir,
    /// Whether the sprite moves along and takes orientations (GVG-AI `is_oriented`): its
    /// type's, or set by `transformToSingleton takeOrientation=True`.
    pub oriented: bool,
    /// Speed (type default; effects such as setSpeedForAll change it per sprite).
    pub speed: f64,
    /// Remaining lifetime (`timeToLive`), -1 for none.
    pub ttl: i32,
    /// Cycles since the last move (for sprites of inert types it may lag until their group is
    /// next written; the engine pays the difference before using it).
    pub lastmove: i32,
    pub killed: bool,
    pub disabled: bool,
    pub first_tick: bool,
    /// RandomNPC repeat counter, or SpawnPoint production count.
    pub counter: i32,
    pub prev_action: Dir,
    pub age: i32,
    pub start: i32,
    pub health: i32,
    pub max_health: i32,
    /// Resource type → amount, sorted by type.
    pub resources: Vec<(TypeId, i32)>,
    pub from_avatar: bool,
    /// Steered avatars: the heading in radians (GVG-AI `rotation`).
    pub rotation: f64,
    /// CarAvatar: driving backwards (its `facing` is 1).
    pub reversing: bool,
    /// Standing on solid ground (GVG-AI `on_ground`): no gravity while it holds.
    pub on_ground: bool,
    /// `waterPhysics` set its gravity to [`WATER_GRAVITY`] (else its type's).
    pub in_water: bool,
    /// A spawner's own types once `updateSpawnType` changed them (GVG-AI `itype`, or
    /// BomberRandomMissile's `itypesMissile`); `None`: its type's `stype` (`stypeMissile`).
    pub spawns: Option<Arc<[TypeId]>>,
}

impl Sprite {
    /// GVG-AI `preMovement`: the start of the sprite's update records where it was and counts
    /// one more cycle since it last moved.
    #[inline]
    pub(crate) fn pre_movement(&mut self) {
        self.lx = self.x;
        self.ly = self.y;
        self.lastmove += 1;
    }

    /// A sprite of type `ty` at (x, y) with no properties of its type yet: no speed, no
    /// orientation, no time to live, no health.
    pub(crate) fn at(ty: TypeId, id: u32, x: i32, y: i32) -> Sprite {
        Sprite {
            ty,
            id,
            x,
            y,
            lx: x,
            ly: y,
            orientation: Dir::NONE,
            oriented: false,
            speed: 0.0,
            ttl: -1,
            lastmove: 0,
            killed: false,
            disabled: false,
            first_tick: false,
            counter: 0,
            prev_action: Dir::NONE,
            age: 0,
            start: -1,
            health: 0,
            max_health: 0,
            resources: Vec::new(),
            from_avatar: false,
            rotation: 0.0,
            reversing: false,
            on_ground: false,
            in_water: false,
            spawns: None,
        }
    }

    /// Its gravity: [`WATER_GRAVITY`] once `waterPhysics` touched it, else `type_gravity`.
    pub(crate) fn gravity(&self, type_gravity: f64) -> f64 {
        if self.in_water {
            WATER_GRAVITY
        } else {
            type_gravity
        }
    }

    pub fn amount(&self, res: TypeId) -> i32 {
        self.resources
            .iter()
            .find(|(t, _)| *t == res)
            .map(|(_, v)| *v)
            .unwrap_or(0)
    }

    pub(crate) fn set_amount(&mut self, res: TypeId, v: i32) {
        match self.resources.binary_search_by_key(&res, |(t, _)| *t) {
            Ok(i) => self.resources[i].1 = v,
            Err(i) => self.resources.insert(i, (res, v)),
        }
    }

    /// GVG-AI `modifyResource`: never below zero.
    pub(crate) fn modify(&mut self, res: TypeId, delta: i32) {
        let v = self.amount(res).saturating_add(delta).max(0);
        self.set_amount(res, v);
    }
}

/// The sprites of one type. Groups of inert types (walls, floors) are shared between copies
/// until written; the others are owned, so writing them costs no atomic operations.
#[derive(Debug, Clone)]
pub(crate) enum Group {
    Owned(Vec<Sprite>),
    Shared(Arc<SharedGroup>),
}

/// An inert type's sprites, shared between copies, with an index of them by grid cell that
/// the first collision query after a write builds (every copy sharing the group then uses it).
#[derive(Debug, Default)]
pub(crate) struct SharedGroup {
    sprites: Vec<Sprite>,
    cells: OnceLock<Option<CellIndex>>,
    /// [`Group::unmoved`], computed once per write.
    unmoved: OnceLock<bool>,
}

impl Clone for SharedGroup {
    /// A clone is made to be written: it starts without an index.
    fn clone(&self) -> Self {
        SharedGroup {
            sprites: self.sprites.clone(),
            cells: OnceLock::new(),
            unmoved: OnceLock::new(),
        }
    }
}

impl std::ops::Deref for Group {
    type Target = Vec<Sprite>;
    fn deref(&self) -> &Vec<Sprite> {
        match self {
            Group::Owned(v) => v,
            Group::Shared(a) => &a.sprites,
        }
    }
}

impl Group {
    pub(super) fn shared() -> Group {
        Group::Shared(Arc::new(SharedGroup::default()))
    }

    pub(super) fn make_mut(&mut self) -> &mut Vec<Sprite> {
        match self {
            Group::Owned(v) => v,
            Group::Shared(a) => {
                let g = Arc::make_mut(a);
                g.cells.take();
                g.unmoved.take();
                &mut g.sprites
            }
        }
    }

    /// Whether every sprite is enabled and where it was at the start of its last update (a
    /// shared group answers from its cache until written).
    pub(super) fn unmoved(&self) -> bool {
        let scan = |v: &[Sprite]| !v.iter().any(|s| s.x != s.lx || s.y != s.ly || s.disabled);
        match self {
            Group::Owned(v) => scan(v),
            Group::Shared(a) => *a.unmoved.get_or_init(|| scan(&a.sprites)),
        }
    }

    /// The cell index of a shared group (built now if the group was written since the last
    /// query), `None` for an owned group or one spread too thinly for a grid.
    pub(super) fn cell_index(&self, block: i32) -> Option<&CellIndex> {
        match self {
            Group::Owned(_) => None,
            Group::Shared(a) => a
                .cells
                .get_or_init(|| CellIndex::build(&a.sprites, block))
                .as_ref(),
        }
    }
}

/// The sprites of a group by the grid cell of their top-left corner, each cell's sprites in
/// group order (a compressed row layout over the cells the group spans).
#[derive(Debug)]
pub(crate) struct CellIndex {
    block: BlockDiv,
    /// The first column and row of the grid, and its size in cells.
    col0: i32,
    row0: i32,
    cols: i32,
    rows: i32,
    /// Every sprite is at a multiple of the block size (walls and floors are): a query then
    /// needs only the cells its square covers, not also those to its left and above.
    aligned: bool,
    /// `items[starts[c]..starts[c + 1]]` are the group indices in cell `c` (row-major).
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl CellIndex {
    /// Cells per sprite above which a grid would be mostly empty: the group is scanned instead.
    const MAX_CELLS_PER_SPRITE: i64 = 16;

    pub(super) fn build(sprites: &[Sprite], block: i32) -> Option<CellIndex> {
        if sprites.is_empty() || block <= 0 {
            return None;
        }
        let block = BlockDiv::new(block);
        let (mut c0, mut r0, mut c1, mut r1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        let mut aligned = true;
        for s in sprites {
            let ((c, dx), (r, dy)) = (block.div_rem(s.x), block.div_rem(s.y));
            (c0, r0, c1, r1) = (c0.min(c), r0.min(r), c1.max(c), r1.max(r));
            aligned &= dx == 0 && dy == 0;
        }
        let cols = i64::from(c1) - i64::from(c0) + 1;
        let rows = i64::from(r1) - i64::from(r0) + 1;
        let n = cols * rows;
        if n > Self::MAX_CELLS_PER_SPRITE * sprites.len() as i64 + 1024 {
            return None;
        }
        let slot = |s: &Sprite| {
            let (c, r) = (block.div_rem(s.x).0, block.div_rem(s.y).0);
            ((i64::from(r - r0)) * cols + i64::from(c - c0)) as usize
        };
        // Counts become each cell's end, then filling backwards moves every end to its start.
        let mut starts = vec![0u32; n as usize + 1];
        for s in sprites {
            starts[slot(s)] += 1;
        }
        for i in 1..starts.len() - 1 {
            starts[i] += starts[i - 1];
        }
        starts[n as usize] = sprites.len() as u32;
        let mut items = vec![0u32; sprites.len()];
        for (i, s) in sprites.iter().enumerate().rev() {
            let k = slot(s);
            starts[k] -= 1;
            items[starts[k] as usize] = i as u32;
        }
        Some(CellIndex {
            block,
            col0: c0,
            row0: r0,
            cols: cols as i32,
            rows: rows as i32,
            aligned,
            starts,
            items,
        })
    }

    /// Adds to `out` the indices of every sprite whose block-sized square at its position
    /// may overlap the block-sized square at (x, y): those in the cells such a square's
    /// corner can be in, in ascending order. Returns false, with `out` incomplete, when they
    /// do not fit in it.
    #[inline(never)]
    pub(super) fn near(&self, x: i32, y: i32, out: &mut Candidates) -> bool {
        let b = self.block.b;
        // A square at v = q·b + r overlaps corners in (v - b, v + b): cells q - 1 (unless
        // r = b - 1) to q + 1 (if r > 0); aligned corners in [v, v + b): cells q to q + 1.
        let span = |v: i32, first: i32, len: i32| {
            let (q, r) = self.block.div_rem(v);
            let lo = if self.aligned || r == b - 1 {
                q
            } else {
                q.saturating_sub(1)
            };
            let hi = if r > 0 { q.saturating_add(1) } else { q };
            (lo.max(first), hi.min(first + len - 1))
        };
        let (c_lo, c_hi) = span(x, self.col0, self.cols);
        let (r_lo, r_hi) = span(y, self.row0, self.rows);
        for r in r_lo..=r_hi {
            for c in c_lo..=c_hi {
                let k = ((r - self.row0) * self.cols + (c - self.col0)) as usize;
                let (a, z) = (self.starts[k] as usize, self.starts[k + 1] as usize);
                for &i in &self.items[a..z] {
                    if !out.push(i) {
                        return false;
                    }
                }
            }
        }
        // One cell's sprites are in group order already.
        if c_lo < c_hi || r_lo < r_hi {
            out.sort();
        }
        true
    }
}

/// Division by a block size b > 0 as a multiplication (the grid's hot path divides every
/// position): with l = ⌈log₂ b⌉, m = ⌊2^(32+l) / b⌋ + 1 gives ⌊n / b⌋ = ⌊n·m / 2^(32+l)⌋ for
/// every 0 ≤ n < 2³² (Granlund and Montgomery 1994, theorem 4.2).
#[derive(Debug, Clone, Copy)]
struct BlockDiv {
    b: i32,
    m: u64,
    shift: u32,
}

impl BlockDiv {
    /// Needs `b` > 0.
    fn new(b: i32) -> BlockDiv {
        let b = b.max(1);
        let l = 32 - (b as u32 - 1).leading_zeros();
        let shift = 32 + l;
        BlockDiv {
            b,
            m: ((1u128 << shift) / b as u128) as u64 + 1,
            shift,
        }
    }

    /// `v` divided by the block size, rounded down, and the remainder (in `0..b`): those of
    /// `i32::div_euclid`.
    #[inline]
    fn div_rem(&self, v: i32) -> (i32, i32) {
        let div = |n: u32| ((u128::from(n) * u128::from(self.m)) >> self.shift) as i32;
        let q = if v >= 0 {
            div(v as u32)
        } else {
            // ⌊v / b⌋ = -⌊(-v - 1) / b⌋ - 1 for v < 0.
            -div(!(v as u32)) - 1
        };
        (q, v.wrapping_sub(q.wrapping_mul(self.b)))
    }
}

/// A bounded list of group indices, kept on the stack.
pub(super) struct Candidates {
    len: usize,
    items: [u32; Self::CAP],
}

impl Candidates {
    const CAP: usize = 32;

    pub(super) fn new() -> Candidates {
        Candidates {
            len: 0,
            items: [0; Self::CAP],
        }
    }

    fn push(&mut self, i: u32) -> bool {
        if self.len == Self::CAP {
            return false;
        }
        self.items[self.len] = i;
        self.len += 1;
        true
    }

    fn sort(&mut self) {
        self.items[..self.len].sort_unstable();
    }

    /// The indices, in ascending order once [`CellIndex::near`] has filled them.
    pub(super) fn sorted(&self) -> &[u32] {
        &self.items[..self.len]
    }
}

/// A sprite's place: its type group and index in it (valid within one cycle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpriteRef {
    pub ty: TypeId,
    pub idx: u32,
}

impl GameState {
    pub(crate) fn avatar_ref(&self) -> Option<SpriteRef> {
        self.ref_of(self.avatar?)
    }

    /// Where sprite `id` of type `ty` is now.
    pub(crate) fn ref_of(&self, (ty, id): (TypeId, u32)) -> Option<SpriteRef> {
        let idx = self.groups[usize::from(ty)]
            .iter()
            .position(|s| s.id == id)?;
        Some(SpriteRef {
            ty,
            idx: idx as u32,
        })
    }

    pub(crate) fn sprite(&self, r: SpriteRef) -> &Sprite {
        &self.groups[usize::from(r.ty)][r.idx as usize]
    }

    /// Write access to a group: unshares it and pays any owed `lastmove` increments (only
    /// inert groups are shared, and only they owe increments).
    #[inline]
    pub(crate) fn group_mut(&mut self, t: TypeId) -> &mut Vec<Sprite> {
        let i = usize::from(t);
        match &mut self.groups[i] {
            Group::Owned(v) => v,
            g @ Group::Shared(_) => {
                let lag = std::mem::take(&mut self.inert_lag[i]);
                let v = g.make_mut();
                if lag > 0 {
                    for s in v.iter_mut() {
                        s.lastmove += lag;
                    }
                }
                v
            }
        }
    }

    #[inline]
    pub(crate) fn sprite_mut(&mut self, r: SpriteRef) -> &mut Sprite {
        &mut self.group_mut(r.ty)[r.idx as usize]
    }

    /// Sprites of `t` and subtypes, including dead/disabled ones (GVG-AI `getNumSprites`).
    pub(super) fn count_all(&self, t: TypeId) -> usize {
        self.rules
            .props(t)
            .subtypes
            .iter()
            .map(|&s| self.groups[usize::from(s)].len())
            .sum()
    }

    /// GVG-AI `addSprite`: honours singletons unless `force`.
    pub(crate) fn add_sprite(
        &mut self,
        t: TypeId,
        x: i32,
        y: i32,
        force: bool,
    ) -> Option<SpriteRef> {
        if self.num_sprites > self.rules.max_sprites {
            return None;
        }
        let rules = Arc::clone(&self.rules);
        let p = rules.props(t);
        p.class?;
        if !force {
            for &it in &p.itypes {
                if rules.props(it).singleton && self.count_all(it) > 0 {
                    return None;
                }
            }
        }
        let sprite = Sprite {
            orientation: p.orientation,
            oriented: p.is_oriented,
            speed: p.speed,
            ttl: p.time_to_live,
            first_tick: true,
            health: p.health,
            max_health: p.max_health,
            ..Sprite::at(t, self.next_id, x, y)
        };
        self.next_id += 1;
        self.num_sprites += 1;
        let g = self.group_mut(t);
        g.push(sprite);
        Some(SpriteRef {
            ty: t,
            idx: (g.len() - 1) as u32,
        })
    }

    /// GVG-AI `killSprite`: an avatar that is not being transformed is only disabled.
    pub(crate) fn kill(&mut self, r: SpriteRef, transformed: bool) {
        let is_avatar = self.rules.props(r.ty).is_avatar;
        let s = self.sprite_mut(r);
        if is_avatar && !transformed {
            s.disabled = true;
        } else if !s.killed {
            s.killed = true;
            self.kill_list.push(r);
        }
    }

    pub(super) fn find_sprite(&self, t: TypeId, id: u32) -> Option<&Sprite> {
        self.groups[usize::from(t)].iter().find(|s| s.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn at(x: i32, y: i32) -> Sprite {
        Sprite::at(0, 0, x, y)
    }

    /// Every sprite whose square overlaps the queried one is among the candidates, for
    /// positions on and off the grid, negative ones and several sprites per cell; in groups
    /// of sprites all on the grid (which look only at the cells the query covers) and mixed.
    #[test]
    fn cell_index_finds_every_overlapping_sprite() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for (block, on_grid) in [1, 7, 10, 50]
            .into_iter()
            .flat_map(|b| [(b, 0.5), (b, 1.0)])
        {
            let mut group = Group::shared();
            for _ in 0..200 {
                let (x, y) = (
                    rng.gen_range(-3 * block..20 * block),
                    rng.gen_range(-3 * block..20 * block),
                );
                let (x, y) = if rng.gen_bool(on_grid) {
                    (x / block * block, y / block * block)
                } else {
                    (x, y)
                };
                group.make_mut().push(at(x, y));
            }
            let Some(index) = group.cell_index(block) else {
                panic!("no index for a dense group");
            };
            for _ in 0..500 {
                let (x, y) = (
                    rng.gen_range(-5 * block..22 * block),
                    rng.gen_range(-5 * block..22 * block),
                );
                let mut near = Candidates::new();
                assert!(index.near(x, y, &mut near), "more candidates than fit");
                let near = near.sorted().to_vec();
                assert!(
                    near.windows(2).all(|w| w[0] < w[1]),
                    "a sprite listed twice"
                );
                for (i, s) in group.iter().enumerate() {
                    let overlaps =
                        x < s.x + block && s.x < x + block && y < s.y + block && s.y < y + block;
                    assert!(
                        !overlaps || near.contains(&(i as u32)),
                        "block {block}: sprite {i} at ({}, {}) missed from ({x}, {y})",
                        s.x,
                        s.y
                    );
                }
            }
        }
    }

    /// The division by multiplication is `div_euclid` for every block size up to 4096 and
    /// beyond, at the ends of the range and around every multiple of the block.
    #[test]
    fn block_division_is_euclidean_division() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let blocks = (1..=4096).chain([65_535, 65_536, 1 << 20, i32::MAX - 1, i32::MAX]);
        for b in blocks {
            let d = BlockDiv::new(b);
            let edges = [i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX - 1, i32::MAX];
            let near_multiples = (-3..=3).flat_map(|k: i32| {
                let m = k.saturating_mul(b);
                [m.saturating_sub(1), m, m.saturating_add(1)]
            });
            let random = (0..64).map(|_| rng.r#gen::<i32>());
            for v in edges.into_iter().chain(near_multiples).chain(random) {
                assert_eq!(
                    d.div_rem(v),
                    (v.div_euclid(b), v.rem_euclid(b)),
                    "{v} / {b}"
                );
            }
        }
    }

    /// A write drops the index and the cached `unmoved`; copies share them until then.
    #[test]
    fn a_write_rebuilds_the_index_and_the_moved_check() {
        let mut group = Group::shared();
        group.make_mut().extend([at(0, 0), at(10, 0)]);
        let copy = group.clone();
        assert!(group.unmoved());
        let mut near = Candidates::new();
        assert!(
            group
                .cell_index(10)
                .is_some_and(|ix| ix.near(15, 0, &mut near))
        );
        assert_eq!(near.sorted(), &[1]);
        group.make_mut()[0].x = 20;
        assert!(!group.unmoved(), "a moved sprite is not seen");
        let mut near = Candidates::new();
        assert!(
            group
                .cell_index(10)
                .is_some_and(|ix| ix.near(15, 0, &mut near))
        );
        assert_eq!(near.sorted(), &[0, 1]);
        assert!(copy.unmoved(), "the copy was written through");
        let mut near = Candidates::new();
        assert!(
            copy.cell_index(10)
                .is_some_and(|ix| ix.near(15, 0, &mut near))
        );
        assert_eq!(near.sorted(), &[1]);
    }

    /// A group spread far beyond its size gets no grid.
    #[test]
    fn a_sparse_group_is_scanned() {
        let mut group = Group::shared();
        group
            .make_mut()
            .extend([at(0, 0), at(1_000_000, 1_000_000)]);
        assert!(group.cell_index(10).is_none());
        assert!(Group::Owned(vec![at(0, 0)]).cell_index(10).is_none());
    }
}
