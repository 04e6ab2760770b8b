//! Checking a certificate against its plan folder: the seal, the journal files' digests, and
//! the total, divide and trust merged again from exactly the journal files it names; then the
//! units of a seeded random sample, which the caller recomputes with a fresh Zobrist seed (with
//! their move-type statistics where the journals have them).

use super::certificate::CertificateClaims;
use super::error::WorkError;
use super::folder::PlanFolder;
use super::journal::{journal_files, read_journal_files};
use super::merge::{merge, Merged};
use super::seal::Sha256Digest;
use super::trust::Trust;
use super::unit::Unit;
use crate::chess::rng::SplitMix64;
use crate::chess::MoveStats;
use crate::engine::move_stats_json;
use std::collections::BTreeSet;

/// What the check of a certificate found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CertificateCheck {
    /// Each claim that does not hold, in words.
    pub failures: Vec<String>,
    /// Journal files in the plan that the certificate does not name (written after it).
    pub unlisted: Vec<String>,
    /// Each unit's count, as the named journals agree on it (empty if they give no total).
    pub counts: Vec<u128>,
    /// Each unit's move-type statistics, as the journals give them (`None` for a unit run
    /// without `--stats`; empty if they give no total).
    pub stats: Vec<Option<MoveStats>>,
    /// Each unit's trust, as the agreement of the journals establishes it (empty if they
    /// give no total).
    pub trust: Vec<Trust>,
}

/// Checks `claims` against `plan`, whose units the caller read (`PlanFolder::read_units`).
pub fn check_certificate(
    plan: &PlanFolder,
    units: &[Unit],
    claims: &CertificateClaims,
) -> Result<CertificateCheck, WorkError> {
    let mut check = CertificateCheck::default();
    if claims.plan.seal != plan.seal.to_string() {
        check.failures.push(format!(
            "the certificate's plan seal {} is not this plan's ({})",
            claims.plan.seal, plan.seal
        ));
    }
    let manifest = &plan.manifest;
    if claims.position != manifest.fen || claims.depth != manifest.depth {
        check.failures.push(format!(
            "the certificate is of depth {} of {}, the plan of depth {} of {}",
            claims.depth, claims.position, manifest.depth, manifest.fen
        ));
    }
    let present = journal_files(plan)?;
    let mut named = Vec::new();
    for claim in &claims.journals {
        if !present.contains(&claim.file) {
            check
                .failures
                .push(format!("journal/{} is missing", claim.file));
            continue;
        }
        let path = plan.journal_dir().join(&claim.file);
        let bytes = std::fs::read(&path).map_err(|e| WorkError::io(&path, e))?;
        let digest = Sha256Digest::of(&bytes);
        if Sha256Digest::parse(&claim.sha256) != Some(digest) {
            check.failures.push(format!(
                "journal/{}: SHA-256 {digest}, the certificate says {}",
                claim.file, claim.sha256
            ));
            continue;
        }
        named.push(claim.file.clone());
    }
    check.unlisted = present
        .iter()
        .filter(|file| !claims.journals.iter().any(|c| &c.file == *file))
        .cloned()
        .collect();
    if !check.failures.is_empty() {
        return Ok(check);
    }
    let scan = read_journal_files(plan, &named)?;
    let total = match merge(plan, units, &scan)? {
        Merged::Total(total) => total,
        Merged::Disagreeing(units) => {
            check.failures.push(format!(
                "the journals disagree on {} units (unit {} first)",
                units.len(),
                units[0].0
            ));
            return Ok(check);
        }
        Merged::StatsDisagreeing(units) => {
            check.failures.push(format!(
                "the journals disagree on the move-type statistics of {} units (unit {} first)",
                units.len(),
                units[0]
            ));
            return Ok(check);
        }
        Merged::Inconsistent(faults) => {
            check
                .failures
                .extend(faults.iter().map(|fault| fault.to_string()));
            return Ok(check);
        }
        Merged::Missing(missing) => {
            check.failures.push(format!(
                "{} units have no result in the journals named (unit {} first)",
                missing.len(),
                missing[0]
            ));
            return Ok(check);
        }
    };
    if claims.total != total.nodes.to_string() {
        check.failures.push(format!(
            "the certificate's total is {}, the journals sum to {}",
            claims.total, total.nodes
        ));
    }
    if claims.stats != total.move_stats.as_ref().map(move_stats_json) {
        check.failures.push(
            "the certificate's move-type statistics are not what the journals sum to".to_string(),
        );
    }
    let divide_sum = claims.divide.iter().try_fold(0u128, |sum, claim| {
        claim
            .nodes
            .parse::<u128>()
            .ok()
            .and_then(|n| sum.checked_add(n))
    });
    if divide_sum.map(|sum| sum.to_string()) != Some(claims.total.clone()) {
        check
            .failures
            .push("the certificate's divide does not add up to its total".to_string());
    }
    let divide: Vec<(String, String)> = total
        .divide
        .iter()
        .map(|(mv, nodes)| (mv.clone(), nodes.to_string()))
        .collect();
    let claimed: Vec<(String, String)> = claims
        .divide
        .iter()
        .map(|c| (c.mv.clone(), c.nodes.clone()))
        .collect();
    if divide != claimed {
        check
            .failures
            .push("the certificate's divide is not the journals' divide".to_string());
    }
    if claims.trust.level != total.trust.name() {
        check.failures.push(format!(
            "the certificate claims trust {:?}, the journals give {:?}",
            claims.trust.level,
            total.trust.name()
        ));
    }
    let mut counts = vec![0; units.len()];
    let mut stats = vec![None; units.len()];
    for record in &scan.records {
        counts[record.unit as usize] = record.nodes;
        stats[record.unit as usize] = record.move_stats;
    }
    check.counts = counts;
    check.stats = stats;
    check.trust = total.unit_trust;
    Ok(check)
}

/// `percent` % of `units` units (at least one), drawn without repetition from `seed`, sorted.
pub fn sample_units(units: u64, percent: f64, seed: u64) -> Result<Vec<u64>, WorkError> {
    if !(percent > 0.0 && percent <= 100.0) {
        return Err(WorkError::SamplePercent(percent));
    }
    let wanted = ((units as f64 * percent / 100.0).ceil() as u64)
        .max(1)
        .min(units);
    // Floyd's algorithm: `wanted` distinct draws in as many steps, whatever `units` is.
    let mut rng = SplitMix64::new(seed);
    let mut chosen = BTreeSet::new();
    for top in units - wanted..units {
        let pick = rng.below(top + 1);
        if !chosen.insert(pick) {
            chosen.insert(top);
        }
    }
    Ok(chosen.into_iter().collect())
}

/// The chance that a sample of `sampled` of `units` units, drawn without repetition, holds none
/// of `forged` forged units: the hypergeometric C(units - forged, sampled) / C(units, sampled),
/// at most (1 - sampled/units)^forged.
pub fn miss_chance(units: u64, sampled: u64, forged: u64) -> f64 {
    if forged > units - sampled.min(units) {
        return 0.0;
    }
    // The product over the forged units of (units - sampled - i) / (units - i).
    (0..forged)
        .map(|i| (units - sampled - i) as f64 / (units - i) as f64)
        .product()
}

/// A Zobrist seed drawn from `seed` that is none of `used`.
pub fn fresh_seed(seed: u64, used: &[u64]) -> u64 {
    // "zobrist" in ASCII: a stream apart from the sample's, which starts from `seed` itself.
    let mut rng = SplitMix64::new(seed ^ 0x007a_6f62_7269_7374);
    loop {
        let candidate = rng.next_u64();
        if !used.contains(&candidate) {
            return candidate;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_distinct_seeded_and_at_least_one_unit() {
        let sample = sample_units(400, 5.0, 42).expect("a sample");
        assert_eq!(sample.len(), 20);
        assert!(sample.windows(2).all(|w| w[0] < w[1]) && sample[19] < 400);
        assert_eq!(sample_units(400, 5.0, 42).ok(), Some(sample.clone()));
        assert_ne!(sample_units(400, 5.0, 43).ok(), Some(sample));
        assert_eq!(sample_units(20, 1.0, 7).map(|s| s.len()).ok(), Some(1));
        assert_eq!(
            sample_units(20, 100.0, 7).ok(),
            Some((0..20).collect::<Vec<u64>>())
        );
        for bad in [0.0, -1.0, 100.5, f64::NAN] {
            assert!(
                matches!(sample_units(20, bad, 7), Err(WorkError::SamplePercent(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_miss_chance_is_hypergeometric() {
        assert_eq!(miss_chance(10, 0, 3), 1.0);
        assert_eq!(miss_chance(10, 10, 1), 0.0);
        assert_eq!(
            miss_chance(10, 8, 3),
            0.0,
            "three forged among two unsampled"
        );
        // C(8, 2) / C(10, 2) = 28 / 45.
        assert!((miss_chance(10, 2, 2) - 28.0 / 45.0).abs() < 1e-15);
        assert!((miss_chance(400, 20, 1) - 0.95).abs() < 1e-15);
        let bound = 0.95f64.powi(100);
        let exact = miss_chance(72_078, 3_604, 100);
        assert!(exact <= bound && exact > bound * 0.99, "{exact} {bound}");
    }

    #[test]
    fn fresh_seeds_avoid_the_seeds_used() {
        let first = fresh_seed(1, &[]);
        assert_ne!(fresh_seed(1, &[first]), first);
        assert_eq!(fresh_seed(1, &[]), first);
    }
}
