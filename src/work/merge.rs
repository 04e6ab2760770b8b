//! `vkperft work merge` and `vkperft work compare`: each unit's result once, in 128 bits, and
//! only when every unit has one and its results agree.

use super::error::WorkError;
use super::folder::PlanFolder;
use super::journal::{JournalRecord, JournalScan};
use super::unit::Unit;
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Total {
    pub nodes: u128,
    /// Per root move (UCI), sorted as perft's divide is.
    pub divide: Vec<(String, u128)>,
    pub units: u64,
    pub modes: Vec<String>,
    pub seeds: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Merged {
    Total(Total),
    /// Units whose results disagree: (unit, the distinct counts).
    Disagreeing(Vec<(u64, Vec<u128>)>),
    /// Units without a result.
    Missing(Vec<u64>),
}

/// Sums `units` (every unit of `plan`, by id) with the results of `scan`.
pub fn merge(plan: &PlanFolder, units: &[Unit], scan: &JournalScan) -> Result<Merged, WorkError> {
    let results = by_unit(scan);
    let disagreeing: Vec<(u64, Vec<u128>)> = results
        .iter()
        .map(|(&unit, records)| (unit, distinct_counts(records)))
        .filter(|(_, counts)| counts.len() > 1)
        .collect();
    if !disagreeing.is_empty() {
        return Ok(Merged::Disagreeing(disagreeing));
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
    for unit in units {
        let records = &results[&unit.id];
        let record = records[0];
        if record.paths != unit.paths {
            return Err(WorkError::malformed(
                &plan.journal_dir(),
                format!(
                    "a result for unit {} with {} paths, but the plan's unit has {}: a journal of another plan",
                    unit.id, record.paths, unit.paths
                ),
            ));
        }
        nodes += unit.paths * record.nodes;
        for (mv, paths) in &unit.roots {
            *divide.entry(mv.clone()).or_default() += paths * record.nodes;
        }
        for record in records {
            modes.insert(record.mode.clone());
            seeds.insert(record.seed);
        }
    }
    Ok(Merged::Total(Total {
        nodes,
        divide: divide.into_iter().collect(),
        units: units.len() as u64,
        modes: modes.into_iter().collect(),
        seeds: seeds.into_iter().collect(),
    }))
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
