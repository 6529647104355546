//! Helpers shared by the GVG-AI tests that replay runs recorded from the Java framework
//! (`benches/tools/gvgai-java/TraceCorpus.java`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use tablero::gvgai::engine::Action;

/// The actions of a run: splitmix64 from the seed; each draw picks one of `N U D L R S` and
/// repeats it 1–4 times (the recorder's `actions`).
pub fn actions(seed: i64, n: usize) -> Vec<Action> {
    let mut out = Vec::with_capacity(n);
    let mut s = seed as u64;
    while out.len() < n {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let a = Action::from_char(b"NUDLRS"[(z % 6) as usize] as char).unwrap();
        let run = 1 + ((z >> 40) & 3) as usize;
        for _ in 0..run.min(n - out.len()) {
            out.push(a);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first actions of seed 1000, as `TraceCorpus.actions(1000, 40)` gives them.
    #[test]
    fn action_sequences_follow_the_recorder() {
        let a: String = actions(1000, 40).iter().map(|a| a.to_char()).collect();
        assert_eq!(a, "RRRUUUUULUUUNNNDDSSSDDDDLSSSRRRUUUULLRRR");
    }
}
