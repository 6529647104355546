//! `tablero serve` (placeholder, being written).
