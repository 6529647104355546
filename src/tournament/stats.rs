//! Match statistics: Wilson score intervals for win rates.

/// The 95% Wilson score interval for `wins` successes (draws as halves) out of `n` games.
pub fn wilson95(wins: f64, n: f64) -> [f64; 2] {
    if n <= 0.0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let p = wins / n;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    // At p = 0 or p = 1 the bound is exactly 0 or 1 (no floating-point residue).
    let lo = if wins <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if wins >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [lo, hi]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // 90 of 100: [0.8256, 0.9448] (standard tables).
        let [lo, hi] = wilson95(90.0, 100.0);
        assert!(
            (lo - 0.8256).abs() < 1e-3 && (hi - 0.9448).abs() < 1e-3,
            "{lo} {hi}"
        );
        let [lo, hi] = wilson95(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3);
        assert_eq!(wilson95(0.0, 0.0), [0.0, 1.0]);
        assert_eq!(wilson95(0.0, 6.0)[0], 0.0);
        assert_eq!(wilson95(6.0, 6.0)[1], 1.0);
    }
}
