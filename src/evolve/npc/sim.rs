//! tablero's native NPC game (the thesis's evaluation game and the dungeon game's combat): a
//! grid room, one NPC driven by an evolved [`Individual`] (or by uniformly random actions
//! of its current state), one scripted player (random, aggressive or defensive). Turns: the
//! NPC acts, then the player. Both have hit points; an unblocked hit costs 1. Pure: seeded,
//! no I/O.
//!
//! Semantics (tablero's decisions where the thesis is silent): facing directions; `Avanzar`
//! and `Alejar` move one cell if it is free; `Acercar` steps along a shortest path (BFS, which
//! is A* on a unit grid) toward the player, or turns to face an adjacent player; `Atacar`
//! hits the facing cell; `Bloquear N` blocks hits from the facing direction for N turns;
//! `Curar` idles `heal_turns` turns then gains 1 HP (a hit interrupts it). Attack range =
//! Manhattan distance 1; detection = Manhattan ≤ range, line of sight, not behind.

use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

use super::machine::{Body, Machine};
use super::primitives::{Prim, TreeKind};
use super::tree::Individual;
pub use crate::gvgai::npc::line_of_sight;

pub type Pos = (i32, i32);
/// Directions: 0 up, 1 right, 2 down, 3 left.
pub const DIRS: [Pos; 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

fn add(p: Pos, d: u8) -> Pos {
    let (dx, dy) = DIRS[usize::from(d & 3)];
    (p.0 + dx, p.1 + dy)
}

fn manhattan(a: Pos, b: Pos) -> i32 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// A map: walls and marked cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Arena {
    pub w: i32,
    pub h: i32,
    walls: Vec<bool>,
    /// Cells marked `1`–`9` or `A` (player starts).
    pub player_starts: Vec<Pos>,
    /// Cells marked `e` (NPC starts).
    pub npc_starts: Vec<Pos>,
}

impl Arena {
    /// From text rows: `w` or `#` is a wall, anything else floor; digits and `A` mark player
    /// starts, `e` NPC starts. Cells outside are walls.
    pub fn from_rows(rows: &[&str]) -> Arena {
        let h = rows.len() as i32;
        let w = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
        let mut walls = vec![true; (w * h) as usize];
        let mut player_starts = Vec::new();
        let mut npc_starts = Vec::new();
        for (y, r) in rows.iter().enumerate() {
            for (x, c) in r.chars().enumerate() {
                let p = (x as i32, y as i32);
                walls[y * w as usize + x] = c == 'w' || c == '#';
                if c.is_ascii_digit() || c == 'A' {
                    player_starts.push(p);
                }
                if c == 'e' {
                    npc_starts.push(p);
                }
            }
        }
        Arena {
            w,
            h,
            walls,
            player_starts,
            npc_starts,
        }
    }

    pub fn wall(&self, p: Pos) -> bool {
        p.0 < 0
            || p.1 < 0
            || p.0 >= self.w
            || p.1 >= self.h
            || self.walls[(p.1 * self.w + p.0) as usize]
    }

    pub fn free_cells(&self) -> Vec<Pos> {
        (0..self.h)
            .flat_map(|y| (0..self.w).map(move |x| (x, y)))
            .filter(|&p| !self.wall(p))
            .collect()
    }

    /// No wall strictly between a and b (Bresenham).
    pub fn line_of_sight(&self, a: Pos, b: Pos) -> bool {
        line_of_sight(a, b, |c| self.wall(c))
    }

    /// First step direction of a shortest path from `a` to `b` avoiding walls and `avoid`.
    pub fn step_toward(&self, a: Pos, b: Pos) -> Option<u8> {
        if a == b {
            return None;
        }
        let idx = |p: Pos| (p.1 * self.w + p.0) as usize;
        let mut first = vec![u8::MAX; (self.w * self.h).max(0) as usize];
        let mut q = VecDeque::new();
        for d in 0..4u8 {
            let n = add(a, d);
            if n == b {
                return Some(d);
            }
            if !self.wall(n) && first[idx(n)] == u8::MAX {
                first[idx(n)] = d;
                q.push_back(n);
            }
        }
        while let Some(p) = q.pop_front() {
            for d in 0..4u8 {
                let n = add(p, d);
                if n == b {
                    return Some(first[idx(p)]);
                }
                if !self.wall(n) && n != a && first[idx(n)] == u8::MAX {
                    first[idx(n)] = first[idx(p)];
                    q.push_back(n);
                }
            }
        }
        None
    }
}

/// The scripted player models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// Uniform over move ×4, attack, block, wait (the thesis's player).
    Random,
    /// Walks to the NPC, faces it and attacks.
    Aggressive,
    /// Keeps away (distance ≤ 3: steps away); when adjacent faces the NPC and blocks or
    /// attacks (50/50); otherwise wanders.
    Defensive,
}

pub const PLAYER_KINDS: [PlayerKind; 3] = [
    PlayerKind::Random,
    PlayerKind::Aggressive,
    PlayerKind::Defensive,
];

/// Game parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimParams {
    pub turns: usize,
    pub player_hp: u32,
    pub npc_hp: u32,
    pub detection: u32,
    pub heal_turns: u32,
}

/// Who drives the NPC.
#[derive(Debug, Clone, Copy)]
pub enum Brain<'a> {
    Evolved(&'a Individual),
    /// A uniformly random terminal of the current state each turn.
    Random,
}

/// What happened in an episode: the thesis's Table 5.1 variables.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct EpisodeStats {
    /// Wounds inflicted on the player (FactorAtaque).
    pub wounds: u32,
    /// Hits that reached the player (blocked or not).
    pub golpes: u32,
    pub bloqueos: u32,
    pub curaciones: u32,
    pub golpes_fallados: u32,
    pub casillas_andadas_patrulla: u32,
    pub casillas_exploradas_patrulla: u32,
    /// FactorPatrulla: in one turn SiJugadorDetectado took its yes branch and CambiarEstado
    /// was then reached.
    pub factor_patrulla: bool,
    pub andar_ataque: bool,
    pub andar_patrulla: bool,
    pub player_killed: bool,
    pub npc_killed: bool,
    pub turns: u32,
}

impl EpisodeStats {
    pub fn puntuacion_patrulla(&self) -> f64 {
        f64::from(self.casillas_andadas_patrulla + self.casillas_exploradas_patrulla)
    }
    pub fn puntuacion_ataque(&self) -> f64 {
        f64::from(self.golpes + self.bloqueos + self.curaciones) - f64::from(self.golpes_fallados)
    }
    /// The thesis's final evaluation of one scenario:
    /// FactorAtaque × FactorPatrulla × AndarAtaque × AndarPatrulla × (Patrulla + Ataque).
    pub fn evaluation(&self) -> f64 {
        let gate = f64::from(self.wounds)
            * f64::from(u8::from(self.factor_patrulla))
            * f64::from(u8::from(self.andar_ataque))
            * f64::from(u8::from(self.andar_patrulla));
        gate * (self.puntuacion_patrulla() + self.puntuacion_ataque())
    }
}

#[derive(Debug, Clone)]
struct Agent {
    pos: Pos,
    dir: u8,
    hp: u32,
    max_hp: u32,
    block: u32,
    block_dir: u8,
    heal: u32,
}

struct World<'a> {
    arena: &'a Arena,
    p: SimParams,
    npc: Agent,
    player: Agent,
    state: TreeKind,
    detect_yes: bool,
    walked: Vec<bool>,
    seen: Vec<bool>,
    s: EpisodeStats,
}

impl Agent {
    /// An agent at `pos` facing `dir` with full health `hp`, not blocking or healing.
    fn new(pos: Pos, dir: u8, hp: u32) -> Agent {
        Agent {
            pos,
            dir,
            hp,
            max_hp: hp,
            block: 0,
            block_dir: 0,
            heal: 0,
        }
    }
}

impl World<'_> {
    /// The NPC's turn: a heal in progress goes on, otherwise the brain acts and the NPC looks.
    fn npc_turn(&mut self, brain: Brain<'_>, machine: &mut Machine, rng: &mut Xoshiro256PlusPlus) {
        if self.npc.heal > 0 {
            self.npc.heal -= 1;
            if self.npc.heal == 0 {
                self.npc.hp = (self.npc.hp + 1).min(self.npc.max_hp);
                self.s.curaciones += 1;
            }
            return;
        }
        self.detect_yes = false;
        match brain {
            Brain::Evolved(ind) => {
                machine.state = self.state;
                machine.step(ind, self);
            }
            Brain::Random => {
                let set = self.state.terminals();
                let a = set[rng.gen_range(0..set.len())];
                self.act(a);
            }
        }
        self.look();
    }

    /// The player's action `a`: 0-3 turn and step that way, 4 strike ahead, 5 block.
    fn player_acts(&mut self, a: u8) {
        match a {
            0..=3 => {
                self.player.dir = a;
                let to = add(self.player.pos, a);
                if !self.arena.wall(to) && to != self.npc.pos {
                    self.player.pos = to;
                }
            }
            4 if add(self.player.pos, self.player.dir) == self.npc.pos => {
                if self.npc.block > 0 && self.npc.block_dir == (self.player.dir + 2) % 4 {
                    self.s.bloqueos += 1;
                } else {
                    self.npc.hp = self.npc.hp.saturating_sub(1);
                    self.npc.heal = 0;
                }
            }
            5 => {
                self.player.block = 1;
                self.player.block_dir = self.player.dir;
            }
            _ => {}
        }
    }

    fn idx(&self, q: Pos) -> usize {
        (q.1 * self.arena.w + q.0) as usize
    }

    fn free_for_npc(&self, q: Pos) -> bool {
        !self.arena.wall(q) && q != self.player.pos
    }

    fn npc_move(&mut self, d: u8) {
        let to = add(self.npc.pos, d);
        if self.free_for_npc(to) {
            self.npc.pos = to;
            match self.state {
                TreeKind::Patrol => {
                    self.s.andar_patrulla = true;
                    let i = self.idx(to);
                    if !self.walked[i] {
                        self.walked[i] = true;
                        self.s.casillas_andadas_patrulla += 1;
                    }
                }
                TreeKind::Attack => self.s.andar_ataque = true,
            }
        }
    }

    fn look(&mut self) {
        if self.state != TreeKind::Patrol {
            return;
        }
        let mut q = self.npc.pos;
        for _ in 0..=self.p.detection {
            if self.arena.wall(q) {
                break;
            }
            let i = self.idx(q);
            if !self.seen[i] {
                self.seen[i] = true;
                self.s.casillas_exploradas_patrulla += 1;
            }
            q = add(q, self.npc.dir);
        }
    }

    fn detected(&self) -> bool {
        let (n, p) = (self.npc.pos, self.player.pos);
        let (dx, dy) = DIRS[usize::from(self.npc.dir)];
        manhattan(n, p) <= self.p.detection as i32
            && (p.0 - n.0) * dx + (p.1 - n.1) * dy >= 0
            && self.arena.line_of_sight(n, p)
    }
}

impl Body for World<'_> {
    fn test(&mut self, p: Prim) -> bool {
        let ahead = add(self.npc.pos, self.npc.dir);
        match p {
            Prim::SiJugador => ahead == self.player.pos,
            Prim::SiBloqueado => self.arena.wall(ahead),
            Prim::SiJugadorEnRango => manhattan(self.npc.pos, self.player.pos) <= 1,
            Prim::SiJugadorDetectado => {
                let yes = self.detected();
                if yes {
                    self.detect_yes = true;
                }
                yes
            }
            Prim::VidaIA => 2 * self.npc.hp <= self.npc.max_hp,
            Prim::VidaJugador => 2 * self.player.hp <= self.player.max_hp,
            _ => false,
        }
    }

    fn act(&mut self, p: Prim) {
        match p {
            Prim::Avanzar => self.npc_move(self.npc.dir),
            Prim::GirarIzquierda => self.npc.dir = (self.npc.dir + 3) % 4,
            Prim::GirarDerecha => self.npc.dir = (self.npc.dir + 1) % 4,
            Prim::CambiarEstado => {
                if self.detect_yes {
                    self.s.factor_patrulla = true;
                }
                self.state = TreeKind::Attack;
            }
            Prim::Bloquear(n) => {
                self.npc.block = u32::from(n);
                self.npc.block_dir = self.npc.dir;
            }
            Prim::Atacar => {
                if add(self.npc.pos, self.npc.dir) == self.player.pos {
                    self.s.golpes += 1;
                    let blocked =
                        self.player.block > 0 && self.player.block_dir == (self.npc.dir + 2) % 4;
                    if !blocked {
                        self.player.hp = self.player.hp.saturating_sub(1);
                        self.s.wounds += 1;
                    }
                } else {
                    self.s.golpes_fallados += 1;
                }
            }
            Prim::Acercar => {
                let (n, pl) = (self.npc.pos, self.player.pos);
                if manhattan(n, pl) == 1 {
                    if let Some(d) = (0..4u8).find(|&d| add(n, d) == pl) {
                        self.npc.dir = d;
                    }
                } else if let Some(d) = self.arena.step_toward(n, pl) {
                    self.npc.dir = d;
                    self.npc_move(d);
                }
            }
            Prim::Alejar => self.npc_move((self.npc.dir + 2) % 4),
            Prim::Curar => self.npc.heal = self.p.heal_turns.max(1),
            _ => {}
        }
    }
}

/// Player actions: 0–3 move/face, 4 attack, 5 block, 6 wait.
fn player_action<R: Rng>(w: &World, kind: PlayerKind, rng: &mut R) -> u8 {
    let (me, npc) = (w.player.pos, w.npc.pos);
    let face = (0..4u8).find(|&d| add(me, d) == npc);
    match kind {
        PlayerKind::Random => rng.gen_range(0..7),
        PlayerKind::Aggressive => match face {
            Some(d) if d == w.player.dir => 4,
            Some(d) => d,
            None => w
                .arena
                .step_toward(me, npc)
                .unwrap_or_else(|| rng.gen_range(0..4)),
        },
        PlayerKind::Defensive => match face {
            Some(d) if d == w.player.dir => {
                if rng.gen_bool(0.5) {
                    4
                } else {
                    5
                }
            }
            Some(d) => d,
            None if manhattan(me, npc) <= 3 => {
                let best = (0..4u8)
                    .filter(|&d| !w.arena.wall(add(me, d)))
                    .max_by_key(|&d| (manhattan(add(me, d), npc), u8::MAX - d));
                best.unwrap_or(6)
            }
            None => {
                let a = rng.gen_range(0..5);
                if a == 4 { 6 } else { a }
            }
        },
    }
}

/// One episode. `npc_start` = (cell, facing).
pub fn episode(
    arena: &Arena,
    npc_start: (Pos, u8),
    player_start: Pos,
    player: PlayerKind,
    brain: Brain,
    p: &SimParams,
    seed: u64,
) -> EpisodeStats {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let cells = (arena.w * arena.h).max(0) as usize;
    let mut w = World {
        arena,
        p: *p,
        npc: Agent::new(npc_start.0, npc_start.1 & 3, p.npc_hp),
        player: Agent::new(player_start, rng.gen_range(0..4), p.player_hp),
        state: TreeKind::Patrol,
        detect_yes: false,
        walked: vec![false; cells],
        seen: vec![false; cells],
        s: EpisodeStats::default(),
    };
    let mut machine = Machine::default();
    w.look();
    for t in 0..p.turns {
        w.s.turns = t as u32 + 1;
        w.npc_turn(brain, &mut machine, &mut rng);
        if w.player.hp == 0 {
            w.s.player_killed = true;
            break;
        }
        // Player turn.
        let a = player_action(&w, player, &mut rng);
        w.player_acts(a);
        w.npc.block = w.npc.block.saturating_sub(1);
        if a != 5 {
            w.player.block = w.player.block.saturating_sub(1);
        }
        if w.npc.hp == 0 {
            w.s.npc_killed = true;
            break;
        }
    }
    w.s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::npc::sexpr::parse_individual;

    fn params() -> SimParams {
        SimParams {
            turns: 100,
            player_hp: 3,
            npc_hp: 3,
            detection: 5,
            heal_turns: 4,
        }
    }

    const ROOM: [&str; 7] = [
        "#########",
        "#.......#",
        "#.......#",
        "#...#...#",
        "#.......#",
        "#.......#",
        "#########",
    ];

    #[test]
    fn a_hunter_kills_a_passive_target() {
        // Patrol: turn until the player is detected, then switch; Attack: approach and hit.
        let ind = parse_individual(
            "(npc v1 (patrol (SiJugadorDetectado CambiarEstado (SiBloqueado GirarDerecha Avanzar))) (attack (SiJugadorEnRango Atacar Acercar)))",
        )
        .unwrap();
        let a = Arena::from_rows(&ROOM);
        let mut scored = 0;
        for seed in 0..20 {
            let s = episode(
                &a,
                ((1, 1), 1),
                (7, 5),
                PlayerKind::Random,
                Brain::Evolved(&ind),
                &params(),
                seed,
            );
            assert!(s.factor_patrulla && s.andar_patrulla, "{s:?}");
            assert!(s.wounds >= 1, "{s:?}");
            let gate = f64::from(s.wounds) * f64::from(u8::from(s.andar_ataque));
            assert_eq!(
                s.evaluation(),
                gate * (s.puntuacion_patrulla() + s.puntuacion_ataque())
            );
            if s.evaluation() > 0.0 {
                scored += 1;
            }
        }
        assert!(scored >= 10, "{scored}");
    }

    #[test]
    fn do_nothing_individuals_score_zero() {
        let ind = parse_individual("(npc v1 (patrol GirarDerecha) (attack (Bloquear 1)))").unwrap();
        let a = Arena::from_rows(&ROOM);
        for (k, kind) in PLAYER_KINDS.iter().enumerate() {
            let s = episode(
                &a,
                ((1, 1), 1),
                (7, 5),
                *kind,
                Brain::Evolved(&ind),
                &params(),
                k as u64,
            );
            assert_eq!(s.evaluation(), 0.0);
            assert_eq!(s.wounds, 0);
        }
    }

    #[test]
    fn line_of_sight_and_paths() {
        let a = Arena::from_rows(&ROOM);
        assert!(!a.line_of_sight((2, 3), (6, 3)));
        assert!(a.line_of_sight((2, 2), (6, 2)));
        assert_eq!(a.step_toward((3, 3), (5, 3)).map(|d| d % 2), Some(0));
        assert_eq!(a.step_toward((1, 1), (3, 1)), Some(1));
    }

    #[test]
    fn episodes_are_seeded() {
        let a = Arena::from_rows(&ROOM);
        let run = |seed| {
            episode(
                &a,
                ((1, 1), 1),
                (7, 5),
                PlayerKind::Random,
                Brain::Random,
                &params(),
                seed,
            )
        };
        assert_eq!(run(5), run(5));
    }
}
