//! Shared parts of tablero's fuzz targets: a bounded allocator (an allocation the input could
//! make proportional to a length field it controls aborts the run, like an out-of-memory), and
//! helpers that split one input into parts.

use std::alloc::{GlobalAlloc, Layout, System};

pub mod config;
pub mod daide;
pub mod daide_game;
pub mod go;
pub mod gtp;
pub mod gvgai;
pub mod planning;

/// Largest single allocation a target may make: anything bigger is a bug in the code under
/// test (every limit tablero has is far smaller), reported as a crash.
pub const MAX_ALLOCATION: usize = 64 << 20;

/// The system allocator with [`MAX_ALLOCATION`] enforced.
pub struct Bounded;

// SAFETY: forwards to the system allocator unchanged; it only refuses (aborts on) oversized
// layouts, before any allocation happens.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Bounded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        check(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        check(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, which is the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        check(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn check(size: usize) {
    if size > MAX_ALLOCATION {
        // Not a panic: the panic machinery allocates. libFuzzer reports the abort as a crash.
        eprintln!("allocation of {size} bytes exceeds the fuzzing bound of {MAX_ALLOCATION}");
        std::process::abort();
    }
}

/// Splits `data` at every byte `sep`, at most `max` parts (the rest stays in the last).
pub fn split_at(data: &[u8], sep: u8, max: usize) -> Vec<&[u8]> {
    data.splitn(max.max(1), |&b| b == sep).collect()
}
