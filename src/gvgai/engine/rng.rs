//! A pseudo-random generator with the exact sequence of `java.util.Random` (the 48-bit linear
//! congruential generator documented in the Java API), so that a seeded tablero game draws the
//! same numbers as a GVG-AI game run with the same seed.

const MULT: u64 = 0x5_DEEC_E66D;
const ADD: u64 = 0xB;
const MASK: u64 = (1 << 48) - 1;

/// `java.util.Random`-compatible generator. Cheap to copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JavaRandom {
    state: u64,
}

impl JavaRandom {
    pub fn new(seed: i64) -> Self {
        JavaRandom {
            state: (seed as u64 ^ MULT) & MASK,
        }
    }

    fn next(&mut self, bits: u32) -> i32 {
        self.state = self.state.wrapping_mul(MULT).wrapping_add(ADD) & MASK;
        (self.state >> (48 - bits)) as u32 as i32
    }

    pub fn next_int(&mut self) -> i32 {
        self.next(32)
    }

    /// Uniform in `0..bound`; `bound <= 0` yields 0 (Java would throw).
    pub fn next_int_bounded(&mut self, bound: i32) -> i32 {
        if bound <= 0 {
            return 0;
        }
        let m = bound - 1;
        let mut r = self.next(31);
        if bound & m == 0 {
            return ((i64::from(bound) * i64::from(r)) >> 31) as i32;
        }
        let mut u = r;
        loop {
            r = u % bound;
            if u.wrapping_sub(r).wrapping_add(m) >= 0 {
                return r;
            }
            u = self.next(31);
        }
    }

    pub fn next_double(&mut self) -> f64 {
        let hi = i64::from(self.next(26));
        let lo = i64::from(self.next(27));
        ((hi << 27) + lo) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    pub fn next_float(&mut self) -> f32 {
        self.next(24) as f32 / (1u32 << 24) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_java_util_random() {
        // Known values of new java.util.Random(42).
        let mut r = JavaRandom::new(42);
        assert_eq!(r.next_int(), -1170105035);
        let mut r = JavaRandom::new(42);
        assert_eq!(r.next_int_bounded(10), 0);
        assert_eq!(r.next_int_bounded(10), 3);
        let mut r = JavaRandom::new(0);
        assert_eq!(r.next_int(), -1155484576);
        let mut r = JavaRandom::new(42);
        let d = r.next_double();
        assert!((d - 0.7275636800328681).abs() < 1e-15, "{d}");
    }

    #[test]
    fn bounded_stays_in_range() {
        let mut r = JavaRandom::new(7);
        for b in 1..50 {
            for _ in 0..50 {
                let v = r.next_int_bounded(b);
                assert!((0..b).contains(&v));
            }
        }
        let f = r.next_float();
        assert!((0.0..1.0).contains(&f));
    }
}
