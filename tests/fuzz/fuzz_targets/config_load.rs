//! Configuration: see `tablero_fuzz::config::load`.
#![no_main]

#[global_allocator]
static ALLOC: tablero_fuzz::Bounded = tablero_fuzz::Bounded;

libfuzzer_sys::fuzz_target!(|data: &[u8]| tablero_fuzz::config::load(data));
