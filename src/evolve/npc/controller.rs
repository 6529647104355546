//! `--controller evolved:FILE`: an evolved individual as a GVG-AI avatar controller. The
//! thesis's "player" becomes the nearest NPC sprite; the facing direction is the avatar's
//! orientation when it has one, else a heading kept by the controller. One acting terminal
//! per tick through the same [`Machine`] as the simulator. Mapping: `Avanzar` → move ahead;
//! turns update the heading (and play NIL); `Atacar` → USE; `Bloquear`, `Curar` and
//! `CambiarEstado` → NIL; `Acercar` → first step of a shortest path to the target over cells
//! the avatar can enter; `Alejar` → move opposite to the heading. `SiBloqueado` = the cell
//! ahead holds a sprite the avatar steps back from (or is outside); ranges as in the
//! simulator; `VidaIA`/`VidaJugador` = avatar/target health ≤ half its maximum (false when
//! the game has no health).

use std::collections::{HashSet, VecDeque};
use std::path::Path;

use super::machine::{Body, Machine};
use super::primitives::Prim;
use super::sexpr;
use super::tree::Individual;
use crate::budget::Budget;
use crate::gvgai::controllers::Controller;
use crate::gvgai::engine::{Action, Category, GameState};
use crate::gvgai::vgdl::{Dir, EffectKind, TypeId};

/// Why an individual cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
    #[error("{path}: {source}")]
    Parse {
        path: String,
        source: sexpr::SexprError,
    },
}

/// Read and parse an individual file.
pub fn load(path: &Path) -> Result<Individual, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|e| LoadError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    sexpr::parse_individual(&text).map_err(|source| LoadError::Parse {
        path: path.display().to_string(),
        source,
    })
}

pub struct Evolved {
    ind: Individual,
    machine: Machine,
    heading: u8,
}

impl Evolved {
    pub fn new(ind: Individual) -> Evolved {
        Evolved {
            ind,
            machine: Machine::default(),
            heading: 2,
        }
    }
}

const DIRS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
const MOVES: [Action; 4] = [Action::Up, Action::Right, Action::Down, Action::Left];

fn dir_index(d: Dir) -> Option<u8> {
    let v = [Dir::UP, Dir::RIGHT, Dir::DOWN, Dir::LEFT];
    v.iter().position(|x| *x == d).map(|i| i as u8)
}

/// Sprite types the avatar steps back from.
fn blockers(state: &GameState) -> HashSet<TypeId> {
    let rules = state.rules();
    let mut out = HashSet::new();
    let Some(av) = state.avatar() else {
        return out;
    };
    let mine = &rules.props(av.ty).itypes;
    for (a, b, effects) in &rules.pairs {
        let steps_back = effects
            .iter()
            .any(|&e| matches!(rules.effects[e].kind, EffectKind::StepBack { .. }));
        if steps_back && mine.contains(a) {
            out.extend(rules.props(*b).subtypes.iter().copied());
        }
    }
    out
}

struct View<'a> {
    me: (i32, i32),
    target: Option<((i32, i32), i32, i32)>,
    hp: (i32, i32),
    blocked: HashSet<(i32, i32)>,
    size: (i32, i32),
    heading: &'a mut u8,
    oriented: bool,
    action: Action,
}

impl View<'_> {
    fn wall(&self, c: (i32, i32)) -> bool {
        c.0 < 0 || c.1 < 0 || c.0 >= self.size.0 || c.1 >= self.size.1 || self.blocked.contains(&c)
    }
    fn ahead(&self) -> (i32, i32) {
        let (dx, dy) = DIRS[usize::from(*self.heading)];
        (self.me.0 + dx, self.me.1 + dy)
    }
    fn step_toward(&self, goal: (i32, i32)) -> Option<u8> {
        let mut first: std::collections::HashMap<(i32, i32), u8> = Default::default();
        let mut q = VecDeque::new();
        for d in 0..4u8 {
            let n = (
                self.me.0 + DIRS[d as usize].0,
                self.me.1 + DIRS[d as usize].1,
            );
            if n == goal {
                return Some(d);
            }
            if !self.wall(n) && !first.contains_key(&n) {
                first.insert(n, d);
                q.push_back(n);
            }
        }
        while let Some(p) = q.pop_front() {
            let d0 = first.get(&p).copied()?;
            for (dx, dy) in DIRS {
                let n = (p.0 + dx, p.1 + dy);
                if n == goal {
                    return Some(d0);
                }
                if !self.wall(n) && n != self.me && !first.contains_key(&n) {
                    first.insert(n, d0);
                    q.push_back(n);
                }
            }
        }
        None
    }
    fn go(&mut self, d: u8) {
        if !self.oriented {
            *self.heading = d;
        }
        self.action = MOVES[usize::from(d & 3)];
    }
}

impl Body for View<'_> {
    fn test(&mut self, p: Prim) -> bool {
        let dist = self
            .target
            .map(|(t, _, _)| (t.0 - self.me.0).abs() + (t.1 - self.me.1).abs());
        match p {
            Prim::SiJugador => self.target.is_some_and(|(t, _, _)| t == self.ahead()),
            Prim::SiBloqueado => self.wall(self.ahead()),
            Prim::SiJugadorEnRango => dist.is_some_and(|d| d <= 1),
            Prim::SiJugadorDetectado => dist.is_some_and(|d| d <= 5),
            Prim::VidaIA => self.hp.1 > 0 && 2 * self.hp.0 <= self.hp.1,
            Prim::VidaJugador => self.target.is_some_and(|(_, h, m)| m > 0 && 2 * h <= m),
            _ => false,
        }
    }
    fn act(&mut self, p: Prim) {
        let h = *self.heading;
        match p {
            Prim::Avanzar => self.go(h),
            Prim::GirarIzquierda => *self.heading = (h + 3) % 4,
            Prim::GirarDerecha => *self.heading = (h + 1) % 4,
            Prim::Atacar => self.action = Action::Use,
            Prim::Alejar => self.action = MOVES[usize::from((h + 2) % 4)],
            Prim::Acercar => {
                if let Some((t, _, _)) = self.target
                    && let Some(d) = self.step_toward(t)
                {
                    self.go(d);
                }
            }
            _ => {}
        }
    }
}

impl Controller for Evolved {
    fn name(&self) -> &'static str {
        "evolved"
    }
    fn act(&mut self, state: &GameState, _budget: &Budget) -> Action {
        let Some(av) = state.avatar() else {
            return Action::Nil;
        };
        let me = state.cell_of(av);
        let oriented = state.rules().props(av.ty).is_oriented;
        if oriented && let Some(d) = dir_index(av.orientation) {
            self.heading = d;
        }
        let hp = (av.health, av.max_health);
        let target = state
            .sprites()
            .filter(|s| !s.killed && state.category(s) == Category::Npc)
            .map(|s| (state.cell_of(s), s.health, s.max_health))
            .min_by_key(|(c, _, _)| (c.0 - me.0).abs() + (c.1 - me.1).abs());
        let kinds = blockers(state);
        let blocked = state
            .sprites()
            .filter(|s| !s.killed && kinds.contains(&s.ty))
            .map(|s| state.cell_of(s))
            .collect();
        let mut view = View {
            me,
            target,
            hp,
            blocked,
            size: state.grid_size(),
            heading: &mut self.heading,
            oriented,
            action: Action::Nil,
        };
        self.machine.step(&self.ind, &mut view);
        let a = view.action;
        if state.available_actions().contains(&a) {
            a
        } else {
            Action::Nil
        }
    }
}
