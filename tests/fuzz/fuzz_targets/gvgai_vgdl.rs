//! GVG-AI: see `tablero_fuzz::gvgai::vgdl`.
#![no_main]

#[global_allocator]
static ALLOC: tablero_fuzz::Bounded = tablero_fuzz::Bounded;

libfuzzer_sys::fuzz_target!(|data: &[u8]| tablero_fuzz::gvgai::vgdl(data));
