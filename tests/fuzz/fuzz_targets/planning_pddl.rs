//! Planning: see `tablero_fuzz::planning::pddl`.
#![no_main]

#[global_allocator]
static ALLOC: tablero_fuzz::Bounded = tablero_fuzz::Bounded;

libfuzzer_sys::fuzz_target!(|data: &[u8]| tablero_fuzz::planning::pddl(data));
