//! The thesis's typed primitive sets: which functions and terminals each tree (Patrol,
//! Attack) may use, with their arities and S-expression names. The Attack set is the
//! thesis's final one (`VidaIA`, `VidaJugador`, `Acercar`, `Alejar`, `Curar`).

use serde::{Deserialize, Serialize};

/// The two trees of an individual (the two FSM states).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TreeKind {
    Patrol,
    Attack,
}

/// One primitive. Conditionals run their first child when the condition holds (the thesis's
/// examples list the "yes" branch first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Prim {
    // Functions.
    ProgN2,
    ProgN3,
    /// The player is in the adjacent cell in the facing direction (Patrol only).
    SiJugador,
    /// The cell ahead is a wall or outside the map.
    SiBloqueado,
    /// The player is within attack range (Manhattan distance 1).
    SiJugadorEnRango,
    /// The player is within detection range, in line of sight and not behind (Patrol only).
    SiJugadorDetectado,
    /// The NPC has at most half its hit points (Attack only).
    VidaIA,
    /// The player has at most half their hit points (Attack only).
    VidaJugador,
    // Terminals.
    Avanzar,
    GirarIzquierda,
    GirarDerecha,
    CambiarEstado,
    /// Block attacks from the facing direction for N turns (N = 1, 2, 3).
    Bloquear(u8),
    Atacar,
    Acercar,
    Alejar,
    Curar,
}

pub const PATROL_FUNCTIONS: &[Prim] = &[
    Prim::ProgN2,
    Prim::ProgN3,
    Prim::SiJugador,
    Prim::SiBloqueado,
    Prim::SiJugadorEnRango,
    Prim::SiJugadorDetectado,
];
pub const PATROL_TERMINALS: &[Prim] = &[
    Prim::Avanzar,
    Prim::GirarIzquierda,
    Prim::GirarDerecha,
    Prim::CambiarEstado,
];
pub const ATTACK_FUNCTIONS: &[Prim] = &[
    Prim::ProgN2,
    Prim::ProgN3,
    Prim::SiBloqueado,
    Prim::SiJugadorEnRango,
    Prim::VidaIA,
    Prim::VidaJugador,
];
pub const ATTACK_TERMINALS: &[Prim] = &[
    Prim::Bloquear(1),
    Prim::Bloquear(2),
    Prim::Bloquear(3),
    Prim::Atacar,
    Prim::Acercar,
    Prim::Alejar,
    Prim::Curar,
];

impl TreeKind {
    pub fn functions(self) -> &'static [Prim] {
        match self {
            TreeKind::Patrol => PATROL_FUNCTIONS,
            TreeKind::Attack => ATTACK_FUNCTIONS,
        }
    }
    pub fn terminals(self) -> &'static [Prim] {
        match self {
            TreeKind::Patrol => PATROL_TERMINALS,
            TreeKind::Attack => ATTACK_TERMINALS,
        }
    }
    pub fn allows(self, p: Prim) -> bool {
        self.functions().contains(&p) || self.terminals().contains(&p)
    }
    pub fn name(self) -> &'static str {
        match self {
            TreeKind::Patrol => "patrol",
            TreeKind::Attack => "attack",
        }
    }
}

impl Prim {
    pub fn arity(self) -> usize {
        match self {
            Prim::ProgN3 => 3,
            Prim::ProgN2
            | Prim::SiJugador
            | Prim::SiBloqueado
            | Prim::SiJugadorEnRango
            | Prim::SiJugadorDetectado
            | Prim::VidaIA
            | Prim::VidaJugador => 2,
            _ => 0,
        }
    }
    pub fn is_conditional(self) -> bool {
        self.arity() == 2 && self != Prim::ProgN2
    }
    /// The S-expression name (`Bloquear` takes its N as an argument: `(Bloquear 2)`).
    pub fn name(self) -> &'static str {
        match self {
            Prim::ProgN2 => "ProgN2",
            Prim::ProgN3 => "ProgN3",
            Prim::SiJugador => "SiJugador",
            Prim::SiBloqueado => "SiBloqueado",
            Prim::SiJugadorEnRango => "SiJugadorEnRango",
            Prim::SiJugadorDetectado => "SiJugadorDetectado",
            Prim::VidaIA => "VidaIA",
            Prim::VidaJugador => "VidaJugador",
            Prim::Avanzar => "Avanzar",
            Prim::GirarIzquierda => "GirarIzquierda",
            Prim::GirarDerecha => "GirarDerecha",
            Prim::CambiarEstado => "CambiarEstado",
            Prim::Bloquear(_) => "Bloquear",
            Prim::Atacar => "Atacar",
            Prim::Acercar => "Acercar",
            Prim::Alejar => "Alejar",
            Prim::Curar => "Curar",
        }
    }
    /// Every primitive, for name lookup.
    pub const ALL: [Prim; 19] = [
        Prim::ProgN2,
        Prim::ProgN3,
        Prim::SiJugador,
        Prim::SiBloqueado,
        Prim::SiJugadorEnRango,
        Prim::SiJugadorDetectado,
        Prim::VidaIA,
        Prim::VidaJugador,
        Prim::Avanzar,
        Prim::GirarIzquierda,
        Prim::GirarDerecha,
        Prim::CambiarEstado,
        Prim::Bloquear(1),
        Prim::Bloquear(2),
        Prim::Bloquear(3),
        Prim::Atacar,
        Prim::Acercar,
        Prim::Alejar,
        Prim::Curar,
    ];
    /// Contrary action pairs for intron rule 1 (tablero's choice: the two turns, and
    /// approach/retreat).
    pub fn contrary(a: Prim, b: Prim) -> bool {
        matches!(
            (a, b),
            (Prim::GirarIzquierda, Prim::GirarDerecha)
                | (Prim::GirarDerecha, Prim::GirarIzquierda)
                | (Prim::Acercar, Prim::Alejar)
                | (Prim::Alejar, Prim::Acercar)
        )
    }
}
