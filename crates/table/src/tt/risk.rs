//! The false-hit risk of a `b`-bit verifier, shown beside the statistics.
//!
//! With `w` probes that met a slot occupied by another position, each passes a `b`-bit check by
//! chance with probability `2^-b`, so the expected number of false hits is `λ = w / 2^b` and
//! the probability of at least one is `1 - exp(-λ)`. Independently of the table's behaviour,
//! `N` hashed nodes form `N(N-1)/2` pairs, each colliding with probability `2^-b`:
//! `N(N-1) / 2^(b+1)` is the scale of colliding pairs a run of that size invites.

use super::serde_u128;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Risk {
    pub verifier_bits: u32,
    #[serde(with = "serde_u128")]
    pub wrong_occupied_probes: u128,
    /// `λ = w / 2^b`.
    pub expected_false_hits: f64,
    /// `1 - exp(-λ)`, computed as `-expm1(-λ)` so that tiny values keep their precision.
    pub p_false_hit: f64,
    #[serde(with = "serde_u128")]
    pub nodes: u128,
    /// `N(N-1) / 2^(b+1)`.
    pub scale_pairs: f64,
}

impl Risk {
    /// The risk of probes each with its own width: `depths` gives, per depth, the
    /// wrong-occupied probes and the verifier bits they were compared with, so `λ` is the sum
    /// of `w_d / 2^b_d`. `verifier_bits` (the table's width) sets the colliding-pairs scale.
    pub fn by_depth(
        depths: impl IntoIterator<Item = (u64, u32)>,
        verifier_bits: u32,
        nodes: u128,
    ) -> Risk {
        let mut risk = Risk::new(0, verifier_bits, nodes);
        for (wrong, bits) in depths {
            risk.wrong_occupied_probes += u128::from(wrong);
            risk.expected_false_hits += wrong as f64 * (-f64::from(bits)).exp2();
        }
        risk.p_false_hit = p_at_least_one(risk.expected_false_hits);
        risk
    }

    pub fn new(wrong_occupied_probes: u128, verifier_bits: u32, nodes: u128) -> Risk {
        // Powers of two are exact in f64, and scaling by one loses nothing.
        let per_probe = (-f64::from(verifier_bits)).exp2();
        let expected_false_hits = wrong_occupied_probes as f64 * per_probe;
        // N(N-1) is at most about 2^256 ≈ 1.2e77, far inside f64's range.
        let pairs = nodes as f64 * nodes.saturating_sub(1) as f64;
        Risk {
            verifier_bits,
            wrong_occupied_probes,
            expected_false_hits,
            p_false_hit: p_at_least_one(expected_false_hits),
            nodes,
            scale_pairs: pairs * per_probe * 0.5,
        }
    }
}

/// `1 - exp(-λ)`, the chance of at least one event when `λ` are expected; `-expm1(-λ)` keeps
/// tiny values that `1 - exp(-λ)` would round to 0.
pub fn p_at_least_one(lambda: f64) -> f64 {
    -(-lambda).exp_m1()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERFT_15: u128 = 2_015_099_950_053_364_471_960;

    fn close(actual: f64, expected: f64, relative: f64) -> bool {
        ((actual - expected) / expected).abs() < relative
    }

    #[test]
    fn perft_15_at_64_bits() {
        let risk = Risk::new(PERFT_15, 64, PERFT_15);
        assert!(close(risk.expected_false_hits, 109.24, 1e-4));
        assert!(close(risk.scale_pairs, 1.1007e23, 1e-4));
        assert!(risk.p_false_hit > 0.999_999 && risk.p_false_hit <= 1.0);
    }

    #[test]
    fn tiny_lambda_keeps_its_precision() {
        assert!(close(p_at_least_one(1e-20), 1e-20, 1e-12));
        assert_eq!(1.0 - (-1e-20f64).exp(), 0.0);
        // One wrong-occupied probe at 64 bits: λ = 2^-64 ≈ 5.4e-20.
        let risk = Risk::new(1, 64, 2);
        let lambda = 2f64.powi(-64);
        assert_eq!(risk.expected_false_hits, lambda);
        assert!(close(risk.p_false_hit, lambda, 1e-12));
        assert_eq!(risk.scale_pairs, lambda);
    }

    #[test]
    fn sixteen_bits_one_expected_hit() {
        let risk = Risk::new(65_536, 16, 1);
        assert_eq!(risk.expected_false_hits, 1.0);
        assert!(close(risk.p_false_hit, 1.0 - (-1f64).exp(), 1e-12));
        assert_eq!(risk.scale_pairs, 0.0);
    }

    #[test]
    fn largest_node_count_does_not_overflow() {
        let risk = Risk::new(u128::MAX, 8, u128::MAX);
        assert!(risk.scale_pairs.is_finite());
        assert!(close(risk.scale_pairs, 2f64.powi(256 - 9), 1e-12));
        assert_eq!(risk.p_false_hit, 1.0);
    }

    #[test]
    fn each_depth_at_its_own_width() {
        let risk = Risk::by_depth([(1 << 20, 48), (1 << 30, 64), (3, 64)], 64, 10);
        assert_eq!(risk.wrong_occupied_probes, (1 << 20) + (1 << 30) + 3);
        let lambda = 2f64.powi(-28) + 2f64.powi(-34) + 3.0 * 2f64.powi(-64);
        assert!(close(risk.expected_false_hits, lambda, 1e-12));
        assert!(close(risk.p_false_hit, lambda, 1e-6));
        assert_eq!(risk.verifier_bits, 64);
        // One width everywhere: the same as `new`.
        assert_eq!(
            Risk::by_depth([(7, 16), (9, 16)], 16, 5),
            Risk::new(16, 16, 5)
        );
    }

    #[test]
    fn serializes_big_numbers_as_strings() {
        let value = serde_json::to_value(Risk::new(3, 64, PERFT_15)).ok();
        let field = |name: &str| value.as_ref().and_then(|v| v.get(name)).cloned();
        assert_eq!(
            field("nodes"),
            Some(serde_json::Value::String(PERFT_15.to_string()))
        );
        assert_eq!(
            field("wrong_occupied_probes"),
            Some(serde_json::Value::String("3".into()))
        );
        assert_eq!(field("verifier_bits"), Some(serde_json::json!(64)));
    }
}
