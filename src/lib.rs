//! tablero: a networked game-bot server.
//!
//! Layers (arrows point down only): CLI / daemon → protocols (`gtp`, `daide`, GVG-AI line adapter)
//! → players (Go search, Diplomacy bots, GVG-AI controllers) → pure game cores (`go`, `diplomacy`,
//! `gvgai`, `planning`, `evolve`). See `ARCHITECTURE.md`.

pub mod bots;
pub mod budget;
pub mod config;
pub mod controllers;
pub mod daemon;
pub mod daide;
pub mod diplomacy;
pub mod evolve;
pub mod go;
pub mod gtp;
pub mod gvgai;
pub mod gvgai_line;
pub mod net;
pub mod planning;
pub mod plot;
pub mod tournament;
