//! The two-state machine that runs an individual: one acting terminal per turn. Each turn
//! the current state's tree is walked from where the last turn stopped (from the root when
//! it has finished): `ProgN` runs its children in order, a conditional asks the body and
//! walks its first child when the condition holds, and the first terminal reached acts and
//! ends the turn. `CambiarEstado` switches Patrol → Attack at once and drops the rest of the
//! Patrol walk (it uses the turn). The same machine drives the simulator's NPCs and the
//! `evolved:` GVG-AI controller.

use super::primitives::{Prim, TreeKind};
use super::tree::{Individual, Node};

/// What the machine asks of the world.
pub trait Body {
    /// Evaluate a condition primitive.
    fn test(&mut self, p: Prim) -> bool;
    /// Perform a terminal (for `CambiarEstado` the machine has already switched state).
    fn act(&mut self, p: Prim);
}

/// Machine state: the current tree and the walk's pending nodes (pre-order indices).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Machine {
    pub state: TreeKind,
    pending: Vec<usize>,
}

impl Default for Machine {
    fn default() -> Self {
        Machine {
            state: TreeKind::Patrol,
            pending: Vec::new(),
        }
    }
}

/// Pre-order indices of the children of the node at `i`.
fn child_indices(n: &Node, i: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(n.children.len());
    let mut at = i + 1;
    for c in &n.children {
        out.push(at);
        at += c.size();
    }
    out
}

impl Machine {
    /// Play one turn; returns the terminal that acted.
    pub fn step(&mut self, ind: &Individual, body: &mut dyn Body) -> Prim {
        let tree = ind.tree(self.state);
        // A well-formed tree reaches a terminal within `size` pops after a restart.
        for _ in 0..2 * tree.size() + 2 {
            let i = self.pending.pop().unwrap_or_default();
            let Some(n) = tree.get(i) else {
                self.pending.clear();
                continue;
            };
            match n.prim {
                Prim::ProgN2 | Prim::ProgN3 => {
                    let mut c = child_indices(n, i);
                    c.reverse();
                    self.pending.extend(c);
                }
                p if p.arity() == 2 => {
                    let c = child_indices(n, i);
                    let yes = body.test(p);
                    self.pending.push(if yes { c[0] } else { c[1] });
                }
                Prim::CambiarEstado => {
                    if self.state == TreeKind::Patrol {
                        self.state = TreeKind::Attack;
                        self.pending.clear();
                    }
                    body.act(Prim::CambiarEstado);
                    return Prim::CambiarEstado;
                }
                p => {
                    body.act(p);
                    return p;
                }
            }
        }
        self.pending.clear();
        Prim::Curar
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gvgai::npc::sexpr::parse_individual;

    struct Log {
        cond: bool,
        acts: Vec<Prim>,
    }
    impl Body for Log {
        fn test(&mut self, _p: Prim) -> bool {
            self.cond
        }
        fn act(&mut self, p: Prim) {
            self.acts.push(p);
        }
    }

    #[test]
    fn one_terminal_per_turn_resuming_the_walk() {
        let ind = parse_individual(
            "(npc v1 (patrol (ProgN3 Avanzar (SiBloqueado GirarDerecha GirarIzquierda) CambiarEstado)) (attack (ProgN2 Atacar Alejar)))",
        )
        .unwrap();
        let mut m = Machine::default();
        let mut b = Log {
            cond: true,
            acts: Vec::new(),
        };
        for _ in 0..6 {
            m.step(&ind, &mut b);
        }
        use Prim::*;
        assert_eq!(
            b.acts,
            vec![Avanzar, GirarDerecha, CambiarEstado, Atacar, Alejar, Atacar]
        );
        assert_eq!(m.state, TreeKind::Attack);
    }
}
