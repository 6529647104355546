//! Diplomacy game model (in progress).
