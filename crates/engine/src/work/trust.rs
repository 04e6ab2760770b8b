//! How far a unit's result is trusted: how each record was computed ([`Method`]), the trust a
//! unit's agreeing records give it ([`Trust`]), and what a merge may demand ([`Requirement`]).
//!
//! `off`, `verified` and `certify` give exact counts: `off` has no table, `verified` compares
//! exact keys, and `certify` catches and corrects every false hit of its fast table. `fast`
//! trusts a hash check of `verifier_bits` bits, so a false hit (a wrong count) has a small
//! chance; the same computation with another Zobrist seed fails in another place, so two
//! agreeing results with different seeds are independent evidence.
//!
//! A record's mode is what its line declares, and anyone can write a line: a merge establishes
//! only what it checks itself, the agreement of results computed with different seeds. A unit
//! is [`Trust::Exact`] only once a check recomputed it in an exact mode
//! (`work verify-certificate`).

use crate::tt::{TtMode, DEFAULT_VERIFIER_BITS};
use std::fmt;

/// How a result was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Method {
    pub mode: TtMode,
    /// The width of the fast verifier (`fast`, `certify`; the other modes record the default).
    pub verifier_bits: u32,
    pub seed: u64,
}

impl Method {
    /// Whether the mode's counts are exact (no false hit can enter them).
    pub fn is_exact(&self) -> bool {
        self.mode != TtMode::Fast
    }

    /// The mode as journals and reports name it: `/K` marks a fast verifier narrowed to K bits.
    pub fn mode_label(&self) -> String {
        let narrowed = self.mode.has_verifier() && self.verifier_bits != DEFAULT_VERIFIER_BITS;
        if narrowed {
            format!("{}/{}", self.mode, self.verifier_bits)
        } else {
            self.mode.to_string()
        }
    }

    /// Whether a result computed this way spares a run asked to compute `asked`: an exact
    /// result spares every run; a fast one spares only a fast run with the same seed and a
    /// verifier no wider (another seed is the independent computation, a wider verifier a
    /// stronger one).
    pub fn spares(&self, asked: &Method) -> bool {
        if self.is_exact() {
            return true;
        }
        !asked.is_exact() && self.seed == asked.seed && self.verifier_bits >= asked.verifier_bits
    }
}

/// The trust a unit's results give it, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trust {
    /// Fast results with one Zobrist seed, the widest verifier `verifier_bits` bits.
    OneSeed { verifier_bits: u32 },
    /// Results with one Zobrist seed of which at least one declares an exact mode: exact if
    /// the records are honest, which nothing but a recomputation checks.
    DeclaredExact,
    /// Agreeing results with at least two Zobrist seeds, or a result that a check recomputed
    /// with a seed of its own.
    Independent,
    /// Recomputed in an exact mode by the check itself, agreeing with the journals.
    Exact,
}

impl Trust {
    /// The trust that agreeing results computed by `methods` (at least one) establish.
    pub fn of(methods: impl IntoIterator<Item = Method>) -> Trust {
        let mut seeds = Vec::new();
        let mut widest = 0;
        let mut declared_exact = false;
        for method in methods {
            declared_exact |= method.is_exact();
            if !seeds.contains(&method.seed) {
                seeds.push(method.seed);
            }
            widest = widest.max(method.verifier_bits);
        }
        if seeds.len() >= 2 {
            Trust::Independent
        } else if declared_exact {
            Trust::DeclaredExact
        } else {
            Trust::OneSeed {
                verifier_bits: widest,
            }
        }
    }

    /// The trust of a unit whose journal results have trust `journaled` and which a check
    /// recomputed as `recomputed`, with a Zobrist seed none of its records used, and found
    /// the same count.
    pub fn recomputed(journaled: Trust, recomputed: Method) -> Trust {
        if recomputed.is_exact() {
            Trust::Exact
        } else {
            journaled.max(Trust::Independent)
        }
    }

    /// A short name: `exact`, `independent`, `declared exact`, `one seed` or `one seed, 8-bit
    /// verifier`.
    pub fn name(&self) -> String {
        match self {
            Trust::Exact => "exact".into(),
            Trust::DeclaredExact => "declared exact".into(),
            Trust::Independent => "independent".into(),
            Trust::OneSeed { verifier_bits } if *verifier_bits == DEFAULT_VERIFIER_BITS => {
                "one seed".into()
            }
            Trust::OneSeed { verifier_bits } => format!("one seed, {verifier_bits}-bit verifier"),
        }
    }
}

impl fmt::Display for Trust {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// What `work merge --require` demands of every unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Requirement {
    /// Any result.
    Any,
    /// Agreeing results with two different seeds, or a recomputation with a seed of its own.
    Independent,
    /// A recomputation in an exact mode (`off`, `verified` or `certify`) by the check itself:
    /// records that declare an exact mode are not enough.
    Exact,
}

impl Requirement {
    pub fn is_met_by(self, trust: Trust) -> bool {
        match self {
            Requirement::Any => true,
            Requirement::Independent => trust >= Trust::Independent,
            Requirement::Exact => trust == Trust::Exact,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Requirement::Any => "any",
            Requirement::Independent => "independent",
            Requirement::Exact => "exact",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method(mode: TtMode, verifier_bits: u32, seed: u64) -> Method {
        Method {
            mode,
            verifier_bits,
            seed,
        }
    }

    #[test]
    fn a_narrowed_fast_result_spares_no_exact_run_and_no_wider_or_other_seed() {
        let narrowed = method(TtMode::Fast, 8, 1);
        for exact in [TtMode::Off, TtMode::Verified, TtMode::Certify] {
            assert!(!narrowed.spares(&method(exact, 64, 1)), "{exact}");
            assert!(method(exact, 64, 7).spares(&method(TtMode::Fast, 64, 1)));
            assert!(method(exact, 8, 7).spares(&method(TtMode::Verified, 64, 1)));
        }
        assert!(!narrowed.spares(&method(TtMode::Fast, 64, 1)));
        assert!(narrowed.spares(&method(TtMode::Fast, 8, 1)));
        let full = method(TtMode::Fast, 64, 1);
        assert!(full.spares(&method(TtMode::Fast, 64, 1)));
        assert!(full.spares(&method(TtMode::Fast, 16, 1)));
        assert!(!full.spares(&method(TtMode::Fast, 64, 2)), "another seed");
    }

    #[test]
    fn trust_levels_and_requirements() {
        let fast = |bits, seed| method(TtMode::Fast, bits, seed);
        assert_eq!(Trust::of([fast(8, 1)]), Trust::OneSeed { verifier_bits: 8 });
        assert_eq!(
            Trust::of([fast(8, 1), fast(64, 1)]),
            Trust::OneSeed { verifier_bits: 64 }
        );
        assert_eq!(Trust::of([fast(64, 1), fast(64, 2)]), Trust::Independent);
        let declared = method(TtMode::Off, 64, 1);
        assert_eq!(
            Trust::of([fast(64, 1), method(TtMode::Certify, 8, 1)]),
            Trust::DeclaredExact,
            "a record's mode is a claim"
        );
        assert_eq!(Trust::of([declared]), Trust::DeclaredExact);
        assert_eq!(Trust::of([declared, fast(64, 2)]), Trust::Independent);
        assert!(!Requirement::Exact.is_met_by(Trust::DeclaredExact));
        assert!(!Requirement::Independent.is_met_by(Trust::DeclaredExact));
        assert_eq!(
            Trust::recomputed(Trust::DeclaredExact, fast(64, 9)),
            Trust::Independent
        );
        assert_eq!(
            Trust::recomputed(Trust::OneSeed { verifier_bits: 8 }, declared),
            Trust::Exact
        );
        assert!(Trust::OneSeed { verifier_bits: 8 } < Trust::OneSeed { verifier_bits: 64 });
        assert!(Trust::OneSeed { verifier_bits: 64 } < Trust::DeclaredExact);
        assert!(Trust::DeclaredExact < Trust::Independent);
        assert!(Trust::Independent < Trust::Exact);
        let one = Trust::OneSeed { verifier_bits: 64 };
        assert!(Requirement::Any.is_met_by(one));
        assert!(!Requirement::Independent.is_met_by(one));
        assert!(Requirement::Independent.is_met_by(Trust::Exact));
        assert!(!Requirement::Exact.is_met_by(Trust::Independent));
        assert!(Requirement::Exact.is_met_by(Trust::Exact));
        assert_eq!(one.name(), "one seed");
        assert_eq!(
            Trust::OneSeed { verifier_bits: 8 }.name(),
            "one seed, 8-bit verifier"
        );
        assert_eq!(fast(8, 1).mode_label(), "fast/8");
        assert_eq!(method(TtMode::Verified, 8, 1).mode_label(), "verified");
    }
}
