//! `vkperft work merge` and `vkperft work compare`: each unit's result once, in 128 bits, and
//! only when every unit has one and its results agree.

use super::error::WorkError;
use super::folder::PlanFolder;
use super::journal::JournalScan;
use super::plan_check::{check_paths, PlanFault};
use super::record::JournalRecord;
use super::risk::PlanRisk;
use super::trust::{Requirement, Trust};
use super::unit::Unit;
use crate::backend::Device;
use crate::chess::{MoveStats, TALLIED_COUNT};
use std::collections::{BTreeMap, BTreeSet};

/// The results of each unit, by unit id.
pub fn by_unit(scan: &JournalScan) -> BTreeMap<u64, Vec<&JournalRecord>> {
    let mut results: BTreeMap<u64, Vec<&JournalRecord>> = BTreeMap::new();
    for record in &scan.records {
        results.entry(record.unit).or_default().push(record);
    }
    results
}

/// The distinct counts among `records`, in the order first seen.
fn distinct_counts(records: &[&JournalRecord]) -> Vec<u128> {
    let mut counts: Vec<u128> = Vec::new();
    for record in records {
        if !counts.contains(&record.nodes) {
            counts.push(record.nodes);
        }
    }
    counts
}

/// `sum + paths * nodes`, or an overflow error naming `unit`.
pub fn add_product(
    sum: u128,
    paths: u128,
    nodes: u128,
    unit: u64,
    what: &'static str,
) -> Result<u128, WorkError> {
    paths
        .checked_mul(nodes)
        .and_then(|product| sum.checked_add(product))
        .ok_or(WorkError::Overflow { unit, what })
}

/// The records computed one way on one device: how many, by mode label, seed and device.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Computation {
    pub mode: String,
    pub seed: u64,
    pub device: Device,
    pub records: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Total {
    pub nodes: u128,
    /// The move-type statistics, paths times each unit's, when every unit has a result
    /// counted with `--stats`.
    pub move_stats: Option<MoveStats>,
    /// Per root move (UCI), sorted as perft's divide is.
    pub divide: Vec<(String, u128)>,
    pub units: u64,
    /// The weakest unit's trust: the trust of the total.
    pub trust: Trust,
    /// Each unit's trust, by unit id.
    pub unit_trust: Vec<Trust>,
    /// The mode labels of the records, sorted.
    pub modes: Vec<String>,
    pub seeds: Vec<u64>,
    pub computations: Vec<Computation>,
    /// Units with more than one result (all agree, or there would be no total).
    pub repeated_units: u64,
    /// Units with agreeing fast results of at least two seeds.
    pub independent_units: u64,
    pub risk: PlanRisk,
}

impl Total {
    /// The units whose trust falls short of `requirement`.
    pub fn short_of(&self, requirement: Requirement) -> Vec<u64> {
        (0..)
            .zip(&self.unit_trust)
            .filter(|&(_, &trust)| !requirement.is_met_by(trust))
            .map(|(unit, _)| unit)
            .collect()
    }

    /// How many units reach each trust level, strongest first, levels without a unit left out.
    pub fn trust_counts(&self) -> Vec<(Trust, u64)> {
        let mut counts: BTreeMap<Trust, u64> = BTreeMap::new();
        for &trust in &self.unit_trust {
            *counts.entry(trust).or_default() += 1;
        }
        counts.into_iter().rev().collect()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Merged {
    Total(Box<Total>),
    /// Units whose results disagree: (unit, the distinct counts).
    Disagreeing(Vec<(u64, Vec<u128>)>),
    /// Units without a result.
    Missing(Vec<u64>),
    /// Units whose results agree on the count but not on the move-type statistics.
    StatsDisagreeing(Vec<u64>),
    /// The plan is not what its root makes it: its root moves, depths or paths were changed.
    Inconsistent(Vec<PlanFault>),
}

/// Sums `units` (every unit of `plan`, by id) with the results of `scan`, in checked 128-bit
/// arithmetic, once the units' paths are checked against the root (`plan_check`).
pub fn merge(plan: &PlanFolder, units: &[Unit], scan: &JournalScan) -> Result<Merged, WorkError> {
    let faults = check_paths(plan, units)?;
    if !faults.is_empty() {
        return Ok(Merged::Inconsistent(faults));
    }
    let results = by_unit(scan);
    let disagreeing: Vec<(u64, Vec<u128>)> = results
        .iter()
        .map(|(&unit, records)| (unit, distinct_counts(records)))
        .filter(|(_, counts)| counts.len() > 1)
        .collect();
    if !disagreeing.is_empty() {
        return Ok(Merged::Disagreeing(disagreeing));
    }
    let stats_disagreeing: Vec<u64> = results
        .iter()
        .filter(|(_, records)| {
            let mut counted = records.iter().filter_map(|record| record.move_stats);
            counted
                .next()
                .is_some_and(|first| counted.any(|other| other != first))
        })
        .map(|(&unit, _)| unit)
        .collect();
    if !stats_disagreeing.is_empty() {
        return Ok(Merged::StatsDisagreeing(stats_disagreeing));
    }
    let missing: Vec<u64> = units
        .iter()
        .map(|u| u.id)
        .filter(|id| !results.contains_key(id))
        .collect();
    if !missing.is_empty() {
        return Ok(Merged::Missing(missing));
    }
    let mut nodes = 0u128;
    let mut divide: BTreeMap<String, u128> = plan
        .manifest
        .root_moves
        .iter()
        .map(|m| (m.clone(), 0))
        .collect();
    let (mut modes, mut seeds) = (BTreeSet::new(), BTreeSet::new());
    let mut computations: BTreeMap<(String, u64, Device), u64> = BTreeMap::new();
    let mut unit_trust = Vec::with_capacity(units.len());
    let (mut repeated_units, mut independent_units) = (0, 0);
    let mut move_stats = Some([0u128; TALLIED_COUNT]);
    for unit in units {
        let records = &results[&unit.id];
        if let Some(record) = records.iter().find(|r| r.paths != unit.paths) {
            return Err(WorkError::malformed(
                &plan.journal_dir(),
                format!(
                    "a result for unit {} with {} paths, but the plan's unit has {}",
                    unit.id, record.paths, unit.paths
                ),
            ));
        }
        let count = records[0].nodes;
        nodes = add_product(nodes, unit.paths, count, unit.id, "paths x nodes")?;
        let unit_stats = records.iter().find_map(|record| record.move_stats);
        if let Some((sums, stats)) = move_stats.as_mut().zip(unit_stats) {
            for (sum, value) in sums.iter_mut().zip(stats.values()) {
                *sum = add_product(*sum, unit.paths, value, unit.id, "paths x a statistic")?;
            }
        } else {
            move_stats = None;
        }
        for (mv, paths) in &unit.roots {
            let sum = divide.entry(mv.clone()).or_default();
            *sum = add_product(*sum, *paths, count, unit.id, "a root move's paths x nodes")?;
        }
        for record in records {
            let label = record.method.mode_label();
            modes.insert(label.clone());
            seeds.insert(record.method.seed);
            *computations
                .entry((label, record.method.seed, record.device.clone()))
                .or_default() += 1;
        }
        let trust = Trust::of(records.iter().map(|r| r.method));
        repeated_units += u64::from(records.len() > 1);
        independent_units += u64::from(trust == Trust::Independent);
        unit_trust.push(trust);
    }
    Ok(Merged::Total(Box::new(Total {
        nodes,
        move_stats: move_stats.map(MoveStats::from_values),
        divide: divide.into_iter().collect(),
        units: units.len() as u64,
        trust: unit_trust.iter().copied().min().unwrap_or(Trust::Exact),
        unit_trust,
        modes: modes.into_iter().collect(),
        seeds: seeds.into_iter().collect(),
        computations: computations
            .into_iter()
            .map(|((mode, seed, device), records)| Computation {
                mode,
                seed,
                device,
                records,
            })
            .collect(),
        repeated_units,
        independent_units,
        risk: PlanRisk::of(&results)?,
    })))
}

/// Two computations of one plan, unit by unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Units with results in both.
    pub compared: u64,
    /// Units whose counts differ (within or between the plans): (unit, counts in A, in B).
    pub differing: Vec<(u64, Vec<u128>, Vec<u128>)>,
    pub missing_in_a: u64,
    pub missing_in_b: u64,
}

/// Compares the results of `a` and `b`, which must be the same plan.
pub fn compare(
    a: &PlanFolder,
    a_scan: &JournalScan,
    b: &PlanFolder,
    b_scan: &JournalScan,
) -> Result<Comparison, WorkError> {
    let (ma, mb) = (&a.manifest, &b.manifest);
    let differences = [
        (ma.fen != mb.fen, "the positions differ"),
        (ma.depth != mb.depth, "the depths differ"),
        (ma.split_ply != mb.split_ply, "the split plies differ"),
        (
            ma.units != mb.units || ma.paths != mb.paths,
            "the units differ",
        ),
    ];
    if let Some((_, reason)) = differences.iter().find(|(differs, _)| *differs) {
        return Err(WorkError::DifferentPlans {
            a: a.dir.clone(),
            b: b.dir.clone(),
            reason: reason.to_string(),
        });
    }
    let (results_a, results_b) = (by_unit(a_scan), by_unit(b_scan));
    let mut comparison = Comparison::default();
    for unit in 0..ma.units {
        match (results_a.get(&unit), results_b.get(&unit)) {
            (Some(ra), Some(rb)) => {
                comparison.compared += 1;
                let (ca, cb) = (distinct_counts(ra), distinct_counts(rb));
                if ca.len() > 1 || cb.len() > 1 || ca != cb {
                    comparison.differing.push((unit, ca, cb));
                }
            }
            (ra, rb) => {
                comparison.missing_in_a += u64::from(ra.is_none());
                comparison.missing_in_b += u64::from(rb.is_none());
            }
        }
    }
    Ok(comparison)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_and_sums_that_overflow_name_their_unit() {
        assert_eq!(add_product(5, 3, 7, 0, "x").ok(), Some(26));
        let big = u128::from(u64::MAX) + 1;
        assert!(matches!(
            add_product(0, big, big, 12, "paths x nodes"),
            Err(WorkError::Overflow {
                unit: 12,
                what: "paths x nodes"
            })
        ));
        let error = add_product(u128::MAX, 1, 1, 3, "paths x nodes").err();
        assert_eq!(
            error.map(|e| e.to_string()).as_deref(),
            Some("unit 3: paths x nodes overflows 128 bits: a result is wrong or was crafted; no total")
        );
    }
}
