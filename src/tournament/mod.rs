//! Matches and tournaments between engines: the GTP controller client, the Go match runner
//! (`tablero match`) with its referee clock, Diplomacy tournaments, GVG-AI sweeps, evolution
//! over seeds, planning benchmarks, the statistics they report, and the sharding of these
//! batch runs with the merge of their records.

pub mod centre_log;
pub mod diplomacy;
pub mod evolve_seeds;
pub mod go_match;
pub mod go_tactics;
pub mod gtp_client;
pub mod gvgai_sweep;
pub mod plan_bench;
pub mod referee_clock;
pub mod shard;
pub mod stats;
