//! `vkperft work merge` on a unique-positions plan: the ply's count, the sum of its
//! partitions' counts, once every unit has a result and the results of each unit agree. Keys
//! are exact, so a partition's count carries no hash risk; what is checked is that the
//! partitions cover the ply exactly once: their paths must add up to the paths of every
//! child of the ply before, perft(depth), which every unit counts by itself.

use super::folder::UniquePlan;
use super::journal::UniqueScan;
use super::record::UniqueRecord;
use std::collections::BTreeMap;

/// The results of each unit, by unit id.
pub fn unique_by_unit(scan: &UniqueScan) -> BTreeMap<u64, Vec<&UniqueRecord>> {
    let mut results: BTreeMap<u64, Vec<&UniqueRecord>> = BTreeMap::new();
    for record in &scan.records {
        results.entry(record.unit).or_default().push(record);
    }
    results
}

#[derive(Clone, Debug, PartialEq)]
pub struct UniqueTotal {
    /// Unique positions at the plan's depth.
    pub unique: u128,
    /// Paths to them: perft(depth).
    pub paths: u128,
    pub units: u64,
    /// Units with more than one result (all agree, or there would be no total).
    pub repeated_units: u64,
    /// Passes over the ply before, over the first result of each unit.
    pub passes: u64,
    /// Seconds of computing, over every result.
    pub seconds: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum UniqueMerged {
    Total(UniqueTotal),
    /// Units without a result.
    Missing(Vec<u64>),
    /// Units whose results differ.
    Disagreeing(Vec<u64>),
    /// The partitions' paths do not add up to the children's: they do not cover the ply
    /// exactly once (or units counted different files).
    PathsMismatch {
        partitions: u128,
        children: Vec<u128>,
    },
}

/// Sums the units of `plan` from `scan`.
pub fn merge_unique(plan: &UniquePlan, scan: &UniqueScan) -> UniqueMerged {
    let results = unique_by_unit(scan);
    let missing: Vec<u64> = (0..plan.units())
        .filter(|unit| !results.contains_key(unit))
        .collect();
    if !missing.is_empty() {
        return UniqueMerged::Missing(missing);
    }
    let disagreeing: Vec<u64> = results
        .iter()
        .filter(|(_, records)| records.iter().any(|r| r.count != records[0].count))
        .map(|(&unit, _)| unit)
        .collect();
    if !disagreeing.is_empty() {
        return UniqueMerged::Disagreeing(disagreeing);
    }
    let mut total = UniqueTotal {
        unique: 0,
        paths: 0,
        units: plan.units(),
        repeated_units: 0,
        passes: 0,
        seconds: 0.0,
    };
    let mut children: Vec<u128> = Vec::new();
    for records in results.values() {
        let first = &records[0].count;
        // At most 2^64 units of at most 2^64 positions and 2^120 paths (56-bit paths of
        // 2^64 positions): no sum here can pass 128 bits.
        total.unique += u128::from(first.unique);
        total.paths += first.paths;
        total.passes += u64::from(first.passes);
        total.repeated_units += u64::from(records.len() > 1);
        total.seconds += records.iter().map(|r| r.seconds).sum::<f64>();
        if !children.contains(&first.children_paths) {
            children.push(first.children_paths);
        }
    }
    if children != [total.paths] {
        return UniqueMerged::PathsMismatch {
            partitions: total.paths,
            children,
        };
    }
    UniqueMerged::Total(total)
}
