//! Subcommand groups of the `tablero` binary that live outside `main.rs`.

pub mod gvgai;
