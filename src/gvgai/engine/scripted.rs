//! `EvolvedNPC`: tablero's VGDL extension (not in GVG-AI) for NPCs driven by an evolved
//! two-tree policy (`crate::gvgai::npc`, evolved by `evolve::npc`). Declared as
//! `enemy > EvolvedNPC policy=FILE stype=claw healthPoints=3`, where `policy` names the
//! S-expression file of an individual (relative to the game file's directory) or is
//! `random` (a uniformly random terminal of the current state each tick, the GP's baseline).
//!
//! Each tick the sprite runs one turn of the individual's two-state machine (the same
//! [`Machine`] as the native simulator and the `evolved:` controller) on its own view of the
//! game: the "player" is the avatar, walls are the sprites this NPC type steps back from
//! (`enemy wall > stepBack`) and the level border, the facing direction is the sprite's
//! orientation (random at its first tick). Terminals: `Avanzar` moves ahead, the turns rotate,
//! `Alejar` steps back keeping the orientation, `Acercar` faces an adjacent avatar or takes the
//! first step of a shortest path to it (BFS over non-wall cells), `Atacar` spawns the first
//! `stype` sprite in the facing cell (nothing without `stype`), `Curar` idles
//! [`HEAL_TICKS`] ticks then gains 1 health point up to its maximum (losing health
//! interrupts it), `Bloquear N` parries, for this tick's collisions and the next N − 1
//! ticks', every `subtractHealthPoints` hit by an oriented sprite facing the NPC head-on (a
//! sword swung at its face; `GameState::npc_blocks`), `CambiarEstado` only switches state.
//! Conditions: `SiJugador` avatar in the facing cell, `SiBloqueado` wall in
//! the facing cell, `SiJugadorEnRango` Manhattan distance ≤ 1, `SiJugadorDetectado` Manhattan
//! distance ≤ [`DETECTION_RANGE`] with line of sight and not behind, `VidaIA`/`VidaJugador`
//! health ≤ half the maximum. Random draws (first facing, the `random` policy) come from the
//! game's seeded generator, so a game stays a function of its seed. The parsed individual is
//! shared through an `Arc` in the rules; a state copy only copies each NPC's small
//! `NpcMemory`.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use super::EngineError;
use super::rules::{Rules, TypeProps};
use super::state::{GameState, SpriteRef};
use crate::gvgai::npc::Individual;
use crate::gvgai::npc::machine::{Body, Machine};
use crate::gvgai::npc::primitives::{Prim, TreeKind};
use crate::gvgai::npc::sexpr;
use crate::gvgai::vgdl::{Dir, EffectKind, GameDescription, Other, SpriteClass, TypeId};

/// `SiJugadorDetectado` range (Manhattan, cells), as the simulator's default.
pub const DETECTION_RANGE: i32 = 5;
/// Ticks `Curar` idles before it heals.
pub const HEAL_TICKS: i32 = 4;
/// Largest policy file read.
const MAX_POLICY_BYTES: u64 = 1 << 20;

/// What drives an `EvolvedNPC`.
#[derive(Debug, Clone, PartialEq)]
pub enum NpcPolicy {
    /// A uniformly random terminal of the current state each tick.
    Random,
    /// An evolved individual (shared by every state of the game).
    Evolved(Arc<Individual>),
}

/// An `EvolvedNPC` type's resolved policy and its walls.
#[derive(Debug, Clone, PartialEq)]
pub struct Scripted {
    pub policy: NpcPolicy,
    /// Sprite types this NPC steps back from (sorted).
    pub blockers: Vec<TypeId>,
}

/// Resolve a `policy=` value: `random`, or a file (relative to `base` when given).
pub fn load_policy(value: &str, base: Option<&Path>) -> Result<NpcPolicy, String> {
    if value == "random" {
        return Ok(NpcPolicy::Random);
    }
    let path = match base {
        Some(b) if Path::new(value).is_relative() => b.join(value),
        _ => Path::new(value).to_path_buf(),
    };
    let shown = path.display().to_string();
    let meta = std::fs::metadata(&path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if meta.len() > MAX_POLICY_BYTES {
        return Err(format!("{shown} is larger than {MAX_POLICY_BYTES} bytes"));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let ind = sexpr::parse_individual(&text).map_err(|e| format!("{shown}: {e}"))?;
    Ok(NpcPolicy::Evolved(Arc::new(ind)))
}

/// Fill `props[t].scripted` for every `EvolvedNPC` type; the same file is parsed once.
pub(crate) fn resolve_policies(
    desc: &GameDescription,
    props: &mut [TypeProps],
    base: Option<&Path>,
) -> Result<(), EngineError> {
    let mut loaded: Vec<(String, NpcPolicy)> = Vec::new();
    for t in 0..props.len() {
        if props[t].class != Some(SpriteClass::EvolvedNPC) {
            continue;
        }
        let ty = &desc.types[t];
        let Some(value) = ty.params.policy.as_deref() else {
            if ty.children.is_empty() {
                return Err(EngineError::Invalid {
                    message: format!(
                        "line {}: sprite \"{}\" (EvolvedNPC) needs policy=FILE or policy=random",
                        ty.line, ty.name
                    ),
                });
            }
            continue;
        };
        let policy = match loaded.iter().find(|(v, _)| v == value) {
            Some((_, p)) => p.clone(),
            None => {
                let p = load_policy(value, base).map_err(|m| EngineError::Invalid {
                    message: format!(
                        "line {}: sprite \"{}\" (EvolvedNPC) policy: {m}",
                        ty.line, ty.name
                    ),
                })?;
                loaded.push((value.to_string(), p.clone()));
                p
            }
        };
        let mut blockers = Vec::new();
        for it in &desc.interactions {
            if let (true, Other::Sprite(b), EffectKind::StepBack { .. }) =
                (ty.itypes.contains(&it.first), it.other, &it.effect.kind)
            {
                blockers.extend(props[usize::from(b)].subtypes.iter().copied());
            }
        }
        blockers.sort_unstable();
        blockers.dedup();
        props[t].scripted = Some(Scripted { policy, blockers });
    }
    Ok(())
}

/// What one `EvolvedNPC` sprite remembers between ticks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct NpcMemory {
    pub id: u32,
    pub machine: Machine,
    /// Ticks of `Curar` left (0: not healing) and the health it started with.
    pub heal: i32,
    pub heal_hp: i32,
    /// Ticks of `Bloquear` left (this tick's collisions included) and the heading it guards.
    pub block: i32,
    pub block_heading: u8,
}

/// Headings clockwise from up (right turn = +1).
const HEADINGS: [Dir; 4] = [Dir::UP, Dir::RIGHT, Dir::DOWN, Dir::LEFT];

fn heading_of(d: Dir) -> Option<usize> {
    HEADINGS.iter().position(|h| *h == d)
}

fn step(c: (i32, i32), h: usize) -> (i32, i32) {
    let d = HEADINGS[h & 3];
    (c.0 + d.x as i32, c.1 + d.y as i32)
}

fn manhattan(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// The NPC's view of the game for one decision: conditions read it, the chosen terminal is
/// recorded and applied afterwards.
struct View<'a> {
    st: &'a GameState,
    blockers: &'a [TypeId],
    me: (i32, i32),
    heading: usize,
    /// The avatar's cell and health (health, max).
    player: Option<((i32, i32), i32, i32)>,
    hp: (i32, i32),
    walls: Option<Vec<bool>>,
    chosen: Option<Prim>,
}

impl View<'_> {
    fn walls(&mut self) -> &[bool] {
        if self.walls.is_none() {
            let (w, h) = self.st.grid_size();
            let mut v = vec![false; (w.max(0) * h.max(0)) as usize];
            for &t in self.blockers {
                for s in self.st.sprites_of(t) {
                    if s.killed {
                        continue;
                    }
                    let (x, y) = self.st.cell_of(s);
                    if x >= 0 && y >= 0 && x < w && y < h {
                        v[(y * w + x) as usize] = true;
                    }
                }
            }
            self.walls = Some(v);
        }
        self.walls.as_deref().unwrap_or(&[])
    }

    fn wall(&mut self, c: (i32, i32)) -> bool {
        let (w, h) = self.st.grid_size();
        if c.0 < 0 || c.1 < 0 || c.0 >= w || c.1 >= h {
            return true;
        }
        self.walls()[(c.1 * w + c.0) as usize]
    }

    /// No wall strictly between a and b (Bresenham, as the simulator).
    fn line_of_sight(&mut self, a: (i32, i32), b: (i32, i32)) -> bool {
        crate::gvgai::npc::line_of_sight(a, b, |c| self.wall(c))
    }

    /// First heading of a shortest path from the NPC to `goal` over non-wall cells.
    fn step_toward(&mut self, goal: (i32, i32)) -> Option<usize> {
        let (w, h) = self.st.grid_size();
        let me = self.me;
        let mut first = vec![u8::MAX; (w.max(0) * h.max(0)) as usize];
        let idx = |c: (i32, i32)| (c.1 * w + c.0) as usize;
        let mut q = VecDeque::new();
        for d in 0..4 {
            let n = step(me, d);
            if n == goal {
                return Some(d);
            }
            if !self.wall(n) && first[idx(n)] == u8::MAX {
                first[idx(n)] = d as u8;
                q.push_back(n);
            }
        }
        while let Some(c) = q.pop_front() {
            for d in 0..4 {
                let n = step(c, d);
                if n == goal {
                    return Some(usize::from(first[idx(c)]));
                }
                if n != me && !self.wall(n) && first[idx(n)] == u8::MAX {
                    first[idx(n)] = first[idx(c)];
                    q.push_back(n);
                }
            }
        }
        None
    }
}

impl Body for View<'_> {
    fn test(&mut self, p: Prim) -> bool {
        let ahead = step(self.me, self.heading);
        match p {
            Prim::SiJugador => self.player.is_some_and(|(c, _, _)| c == ahead),
            Prim::SiBloqueado => self.wall(ahead),
            Prim::SiJugadorEnRango => self
                .player
                .is_some_and(|(c, _, _)| manhattan(c, self.me) <= 1),
            Prim::SiJugadorDetectado => {
                let Some((c, _, _)) = self.player else {
                    return false;
                };
                let d = HEADINGS[self.heading];
                let front = (c.0 - self.me.0) * d.x as i32 + (c.1 - self.me.1) * d.y as i32;
                manhattan(c, self.me) <= DETECTION_RANGE
                    && front >= 0
                    && self.line_of_sight(self.me, c)
            }
            Prim::VidaIA => self.hp.1 > 0 && 2 * self.hp.0 <= self.hp.1,
            Prim::VidaJugador => self.player.is_some_and(|(_, h, m)| m > 0 && 2 * h <= m),
            _ => false,
        }
    }

    fn act(&mut self, p: Prim) {
        self.chosen = Some(p);
    }
}

impl GameState {
    /// Whether a blocking `EvolvedNPC` parries a hit (`subtractHealthPoints`) by `hitter`:
    /// the hitter faces the NPC's guarded heading head-on (an oriented sprite such as a sword
    /// pointing the opposite way), as the simulator's block.
    pub(crate) fn npc_blocks(&self, npc: SpriteRef, hitter: Option<SpriteRef>) -> bool {
        let (Some(h), Some(_)) = (hitter, self.rules.props(npc.ty).scripted.as_ref()) else {
            return false;
        };
        let id = self.sprite(npc).id;
        let Some(m) = self.npcs.iter().find(|m| m.id == id && m.block > 0) else {
            return false;
        };
        heading_of(self.sprite(h).orientation)
            .is_some_and(|d| d == (usize::from(m.block_heading) + 2) % 4)
    }

    /// One tick of an `EvolvedNPC` sprite.
    pub(crate) fn update_scripted(&mut self, rules: &Rules, r: SpriteRef) {
        let p = rules.props(r.ty);
        let Some(sc) = p.scripted.as_ref() else {
            return;
        };
        let slot = self.npc_slot(self.sprite(r).id);
        if self.npcs[slot].block > 0 {
            self.npcs[slot].block -= 1;
        }
        let heading = match heading_of(self.sprite(r).orientation) {
            Some(h) => h,
            None => {
                let h = self.rng.next_int_bounded(4) as usize;
                self.sprite_mut(r).orientation = HEADINGS[h];
                h
            }
        };
        let (hp, max_hp) = (self.sprite(r).health, self.sprite(r).max_health);
        if self.healing(r, slot) {
            return;
        }
        let mut machine = std::mem::take(&mut self.npcs[slot].machine);
        let random_pick = match &sc.policy {
            NpcPolicy::Random => {
                let set = machine.state.terminals();
                let k = self.rng.next_int_bounded(set.len() as i32) as usize;
                let prim = set[k];
                if prim == Prim::CambiarEstado {
                    machine.state = TreeKind::Attack;
                }
                Some(prim)
            }
            NpcPolicy::Evolved(_) => None,
        };
        let me = self.cell_of(self.sprite(r));
        let player = self
            .avatar()
            .filter(|a| !a.disabled && !a.killed)
            .map(|a| (self.cell_of(a), a.health, a.max_health));
        let mut view = View {
            st: self,
            blockers: &sc.blockers,
            me,
            heading,
            player,
            hp: (hp, max_hp),
            walls: None,
            chosen: random_pick,
        };
        if let NpcPolicy::Evolved(ind) = &sc.policy {
            machine.step(ind, &mut view);
        }
        let chosen = view.chosen.unwrap_or(Prim::Curar);
        // Acercar's direction needs the view (walls); decide it before the view is dropped.
        let approach = match (chosen, player) {
            (Prim::Acercar, Some((c, _, _))) if manhattan(c, me) == 1 => {
                (0..4).find(|&d| step(me, d) == c).map(|d| (d, false))
            }
            (Prim::Acercar, Some((c, _, _))) => view.step_toward(c).map(|d| (d, true)),
            _ => None,
        };
        self.npcs[slot].machine = machine;
        self.act_scripted(rules, r, slot, chosen, heading, approach);
    }

    /// The memory slot of the NPC with sprite id `id`, made on its first tick.
    fn npc_slot(&mut self, id: u32) -> usize {
        match self.npcs.iter().position(|m| m.id == id) {
            Some(i) => i,
            None => {
                self.npcs.push(NpcMemory {
                    id,
                    ..NpcMemory::default()
                });
                self.npcs.len() - 1
            }
        }
    }

    /// Whether the NPC spends this tick healing (a hit breaks the healing off); the last
    /// healing tick gives it one health point.
    fn healing(&mut self, r: SpriteRef, slot: usize) -> bool {
        let (hp, max_hp) = (self.sprite(r).health, self.sprite(r).max_health);
        let (heal, heal_hp) = (self.npcs[slot].heal, self.npcs[slot].heal_hp);
        if heal <= 0 {
            return false;
        }
        if hp < heal_hp {
            self.npcs[slot].heal = 0;
            return false;
        }
        self.npcs[slot].heal = heal - 1;
        if heal == 1 {
            self.sprite_mut(r).health = (hp + 1).min(max_hp);
        }
        true
    }

    /// Carries out the primitive an NPC chose, facing `heading`; `approach` is Acercar's
    /// direction and whether it moves there.
    fn act_scripted(
        &mut self,
        rules: &Rules,
        r: SpriteRef,
        slot: usize,
        chosen: Prim,
        heading: usize,
        approach: Option<(usize, bool)>,
    ) {
        let speed = self.sprite(r).speed;
        let hp = self.sprite(r).health;
        match chosen {
            Prim::Avanzar => {
                self.active_movement(r, HEADINGS[heading], speed);
            }
            Prim::GirarIzquierda => self.sprite_mut(r).orientation = HEADINGS[(heading + 3) % 4],
            Prim::GirarDerecha => self.sprite_mut(r).orientation = HEADINGS[(heading + 1) % 4],
            Prim::Alejar => {
                self.active_movement(r, HEADINGS[heading].reversed(), speed);
            }
            Prim::Acercar => {
                if let Some((d, moves)) = approach {
                    self.sprite_mut(r).orientation = HEADINGS[d];
                    if moves {
                        self.active_movement(r, HEADINGS[d], speed);
                    }
                }
            }
            Prim::Atacar => {
                if let Some(&st) = rules.props(r.ty).stype.first() {
                    let b = self.block;
                    let (x, y) = (self.sprite(r).x, self.sprite(r).y);
                    let d = HEADINGS[heading];
                    let (nx, ny) = (x + d.x as i32 * b, y + d.y as i32 * b);
                    if let Some(n) = self.add_sprite(st, nx, ny, false) {
                        if rules.props(st).is_oriented {
                            self.sprite_mut(n).orientation = d;
                        }
                    }
                }
            }
            Prim::Curar => {
                let m = &mut self.npcs[slot];
                m.heal = HEAL_TICKS;
                m.heal_hp = hp;
            }
            Prim::Bloquear(n) => {
                let m = &mut self.npcs[slot];
                m.block = i32::from(n);
                m.block_heading = heading as u8;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gvgai::engine::{Action, Game};

    const GAME: &str = "BasicGame square_size=10
  SpriteSet
    enemy > EvolvedNPC policy=POLICY stype=claw healthPoints=3
    claw > Flicker limit=0
    avatar > MovingAvatar healthPoints=3
  LevelMapping
    e > enemy
  InteractionSet
    avatar wall > stepBack
    enemy wall avatar > stepBack
    avatar claw > subtractHealthPoints value=1
    claw avatar > killSprite
  TerminationSet
    SpriteCounter stype=avatar win=False
";
    const LEVEL: &str = "wwwwwwwww\nwA      w\nw       w\nw   w   w\nw      ew\nwwwwwwwww\n";
    const HUNTER: &str = "(npc v1 (patrol (SiJugadorDetectado CambiarEstado (SiBloqueado GirarDerecha Avanzar))) (attack (SiJugadorEnRango Atacar Acercar)))";

    fn game(policy: &str, dir: Option<&Path>) -> Result<Game, EngineError> {
        Game::from_texts_in("t", &GAME.replace("POLICY", policy), &[LEVEL], dir)
    }

    fn play(g: &Game, seed: i64, ticks: usize) -> GameState {
        let mut st = g.start(0, seed).unwrap();
        for _ in 0..ticks {
            if st.is_over() {
                break;
            }
            st.advance(Action::Nil);
        }
        st
    }

    #[test]
    fn bad_policies_are_clear_errors() {
        let err = |r: Result<Game, EngineError>| r.err().map(|e| e.to_string()).unwrap_or_default();
        let no_policy = Game::from_texts("t", &GAME.replace("policy=POLICY ", ""), &[LEVEL]);
        assert!(err(no_policy).contains("needs policy=FILE or policy=random"));
        let missing = err(game("no/such/file.sexp", None));
        assert!(
            missing.contains("line 3") && missing.contains("cannot read"),
            "{missing}"
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("bad.sexp"),
            "(npc v1 (patrol Atacar) (attack Atacar))",
        )
        .unwrap();
        let bad = err(game("bad.sexp", Some(dir.path())));
        assert!(bad.contains("not allowed in the patrol tree"), "{bad}");
    }

    #[test]
    fn an_evolved_hunter_wounds_a_passive_avatar_and_the_file_is_relative_to_the_game() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("hunter.sexp"), HUNTER).unwrap();
        std::fs::write(
            dir.path().join("t.txt"),
            GAME.replace("POLICY", "hunter.sexp"),
        )
        .unwrap();
        std::fs::write(dir.path().join("t_lvl0.txt"), LEVEL).unwrap();
        let g = Game::load(dir.path(), "t").unwrap();
        let wounds = |g: &Game| -> Vec<i32> {
            (0..10)
                .map(|s| 3 - play(g, s, 80).avatar().map_or(3, |a| a.health))
                .collect()
        };
        let hunter = wounds(&g);
        assert!(hunter.iter().filter(|&&w| w > 0).count() >= 8, "{hunter:?}");
        // The random policy hurts the avatar less.
        let random = wounds(&game("random", None).unwrap());
        assert!(
            random.iter().sum::<i32>() < hunter.iter().sum::<i32>(),
            "{random:?} {hunter:?}"
        );
    }

    #[test]
    fn same_seed_same_game_and_copies_share_the_policy() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("h.sexp"), HUNTER).unwrap();
        for policy in ["random", "h.sexp"] {
            let g = game(policy, Some(dir.path())).unwrap();
            let trace = |seed| {
                let mut st = g.start(0, seed).unwrap();
                let mut out = Vec::new();
                for _ in 0..40 {
                    st.advance(Action::Nil);
                    let e = st.rules.desc.type_id("enemy").unwrap();
                    out.extend(st.sprites_of(e).iter().map(|s| (s.x, s.y)));
                    out.push((st.key() as i32, 0));
                }
                out
            };
            assert_eq!(trace(3), trace(3), "{policy}");
            // A copy taken mid-game plays on exactly as the original.
            let mut a = play(&g, 5, 10);
            let mut b = a.clone();
            for _ in 0..20 {
                a.advance(Action::Nil);
                b.advance(Action::Nil);
            }
            assert_eq!(a.key(), b.key());
        }
        let g = game("h.sexp", Some(dir.path())).unwrap();
        let e = g.rules.desc.type_id("enemy").unwrap();
        let Some(Scripted {
            policy: NpcPolicy::Evolved(ind),
            ..
        }) = &g.rules.props(e).scripted
        else {
            panic!("no evolved policy");
        };
        let before = Arc::strong_count(ind);
        let copies: Vec<GameState> = (0..5).map(|_| play(&g, 1, 3)).collect();
        assert_eq!(Arc::strong_count(ind), before);
        assert_eq!(copies.len(), 5);
    }
}
