//! Matches and tournaments between engines: the GTP controller client, the Go match runner
//! (`tablero match`) with its referee clock, and the statistics they report.

pub mod centre_log;
pub mod diplomacy;
pub mod go_match;
pub mod gtp_client;
pub mod referee_clock;
pub mod stats;
