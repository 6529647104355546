//! GP trees and individuals: a [`Node`] holds one primitive and its children; an
//! [`Individual`] is a Patrol tree and an Attack tree (the two FSM states). Depth, size,
//! node addressing (pre-order index) for the operators, and the type check of each tree
//! against its primitive set.

use super::primitives::{Prim, TreeKind};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node {
    pub prim: Prim,
    pub children: Vec<Node>,
}

impl Node {
    pub fn leaf(prim: Prim) -> Node {
        Node {
            prim,
            children: Vec::new(),
        }
    }

    pub fn new(prim: Prim, children: Vec<Node>) -> Node {
        Node { prim, children }
    }

    /// Edges on the longest root-to-leaf path (a leaf has depth 0).
    pub fn depth(&self) -> usize {
        self.children
            .iter()
            .map(|c| c.depth() + 1)
            .max()
            .unwrap_or(0)
    }

    pub fn size(&self) -> usize {
        1 + self.children.iter().map(Node::size).sum::<usize>()
    }

    /// The node at pre-order index `i` (0 = self).
    pub fn get(&self, mut i: usize) -> Option<&Node> {
        if i == 0 {
            return Some(self);
        }
        i -= 1;
        for c in &self.children {
            let s = c.size();
            if i < s {
                return c.get(i);
            }
            i -= s;
        }
        None
    }

    pub fn get_mut(&mut self, mut i: usize) -> Option<&mut Node> {
        if i == 0 {
            return Some(self);
        }
        i -= 1;
        for c in &mut self.children {
            let s = c.size();
            if i < s {
                return c.get_mut(i);
            }
            i -= s;
        }
        None
    }

    /// Depth of the node at pre-order index `i`.
    pub fn depth_of(&self, mut i: usize) -> Option<usize> {
        if i == 0 {
            return Some(0);
        }
        i -= 1;
        for c in &self.children {
            let s = c.size();
            if i < s {
                return c.depth_of(i).map(|d| d + 1);
            }
            i -= s;
        }
        None
    }

    /// Pre-order indices of nodes satisfying `f`.
    pub fn indices(&self, f: &dyn Fn(&Node) -> bool) -> Vec<usize> {
        fn go(n: &Node, f: &dyn Fn(&Node) -> bool, next: &mut usize, out: &mut Vec<usize>) {
            if f(n) {
                out.push(*next);
            }
            *next += 1;
            for c in &n.children {
                go(c, f, next, out);
            }
        }
        let mut out = Vec::new();
        go(self, f, &mut 0, &mut out);
        out
    }

    /// Every primitive is allowed in `kind` and has its arity.
    pub fn check(&self, kind: TreeKind) -> Result<(), String> {
        if !kind.allows(self.prim) {
            return Err(format!(
                "{} is not allowed in the {} tree",
                self.prim.name(),
                kind.name()
            ));
        }
        if self.children.len() != self.prim.arity() {
            return Err(format!(
                "{} takes {} children, got {}",
                self.prim.name(),
                self.prim.arity(),
                self.children.len()
            ));
        }
        self.children.iter().try_for_each(|c| c.check(kind))
    }
}

/// A GP individual: the two-state machine's trees.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Individual {
    pub patrol: Node,
    pub attack: Node,
}

impl Individual {
    pub fn tree(&self, k: TreeKind) -> &Node {
        match k {
            TreeKind::Patrol => &self.patrol,
            TreeKind::Attack => &self.attack,
        }
    }
    pub fn tree_mut(&mut self, k: TreeKind) -> &mut Node {
        match k {
            TreeKind::Patrol => &mut self.patrol,
            TreeKind::Attack => &mut self.attack,
        }
    }
    pub fn check(&self) -> Result<(), String> {
        self.patrol.check(TreeKind::Patrol)?;
        self.attack.check(TreeKind::Attack)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addressing() {
        // (ProgN2 (SiBloqueado GirarDerecha Avanzar) Avanzar)
        let t = Node::new(
            Prim::ProgN2,
            vec![
                Node::new(
                    Prim::SiBloqueado,
                    vec![Node::leaf(Prim::GirarDerecha), Node::leaf(Prim::Avanzar)],
                ),
                Node::leaf(Prim::Avanzar),
            ],
        );
        assert_eq!(t.size(), 5);
        assert_eq!(t.depth(), 2);
        assert_eq!(t.get(2).map(|n| n.prim), Some(Prim::GirarDerecha));
        assert_eq!(t.get(4).map(|n| n.prim), Some(Prim::Avanzar));
        assert_eq!(t.depth_of(3), Some(2));
        assert_eq!(t.depth_of(4), Some(1));
        assert_eq!(t.indices(&|n| n.children.is_empty()), vec![2, 3, 4]);
        assert!(t.check(TreeKind::Patrol).is_ok());
        assert!(t.check(TreeKind::Attack).is_err());
    }
}
