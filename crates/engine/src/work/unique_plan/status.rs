//! How far a unique-positions plan is: units done, the positions counted so far, shards
//! complete and the time left, from the manifest and the journals alone.

use super::super::status::{journal_lines_text, shards_without};
use super::folder::UniquePlan;
use super::journal::UniqueScan;
use super::merge::unique_by_unit;
use std::collections::HashSet;

#[derive(Clone, Debug, PartialEq)]
pub struct UniqueStatus {
    pub units: u64,
    /// Units with at least one result.
    pub done: u64,
    /// Unique positions in the units done.
    pub unique: u128,
    pub shards: usize,
    pub shards_complete: usize,
    /// Units whose results disagree.
    pub conflicts: u64,
    /// Seconds the units left need at the mean time per unit so far (one process; several
    /// share it).
    pub seconds_left: Option<f64>,
    pub torn_lines: usize,
    pub damaged_lines: usize,
}

impl UniqueStatus {
    pub fn of(plan: &UniquePlan, scan: &UniqueScan) -> UniqueStatus {
        let results = unique_by_unit(scan);
        let unique = results
            .values()
            .map(|records| u128::from(records[0].count.unique))
            .sum();
        let conflicts = results
            .values()
            .filter(|records| records.iter().any(|r| r.count != records[0].count))
            .count() as u64;
        let seconds: f64 = scan.records.iter().map(|r| r.seconds).sum();
        let done = results.len() as u64;
        let count = scan.records.len();
        UniqueStatus {
            units: plan.units(),
            done,
            unique,
            shards: plan.shard_count(),
            shards_complete: plan.shard_count() - incomplete_unique_shards(plan, scan).len(),
            conflicts,
            seconds_left: (count > 0)
                .then(|| seconds / count as f64 * (plan.units() - done) as f64),
            torn_lines: scan.torn,
            damaged_lines: scan.damaged.len(),
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "kind": "unique",
            "units": self.units,
            "done": self.done,
            "unique": self.unique.to_string(),
            "shards": self.shards,
            "shards_complete": self.shards_complete,
            "conflicts": self.conflicts,
            "seconds_left": self.seconds_left,
            "torn_lines": self.torn_lines,
            "damaged_lines": self.damaged_lines,
        })
    }

    /// Lines for people.
    pub fn to_text(&self) -> String {
        use crate::count::thousands;
        let percent = if self.units > 0 {
            self.done as f64 * 100.0 / self.units as f64
        } else {
            100.0
        };
        let mut text = format!(
            "Units (partitions): {} of {} done ({percent:.1}%)\nUnique positions so far: {}\nShards complete: {} of {}\n",
            thousands(self.done.into()),
            thousands(self.units.into()),
            thousands(self.unique),
            self.shards_complete,
            self.shards,
        );
        text += &journal_lines_text(
            self.seconds_left,
            self.conflicts,
            self.torn_lines,
            self.damaged_lines,
        );
        text
    }
}

/// The shards with a unit that has no result yet, in order: what a scheduler still has to run.
pub fn incomplete_unique_shards(plan: &UniquePlan, scan: &UniqueScan) -> Vec<usize> {
    let done: HashSet<u64> = scan.records.iter().map(|r| r.unit).collect();
    shards_without(plan.shard_count(), |shard| plan.unit_ids(shard), &done)
}
