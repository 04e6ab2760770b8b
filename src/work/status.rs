//! How far a plan is: units done, the total so far, shards complete, rate and time left, from
//! the manifest and the journals alone (no shard is read, so watching a large plan is cheap).

use super::folder::PlanFolder;
use super::journal::JournalScan;
use std::collections::{BTreeMap, BTreeSet, HashSet};

#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    pub units: u64,
    /// Units with at least one result.
    pub done: u64,
    /// The sum of paths x count over the units done: the part of the total known so far.
    pub nodes: u128,
    pub shards: usize,
    pub shards_complete: usize,
    /// Units whose results disagree.
    pub conflicts: u64,
    /// Subtree nodes counted per second of computing, over every result.
    pub rate: f64,
    /// Seconds of computing the units left need at the mean time per unit so far (one
    /// process; several share it).
    pub seconds_left: Option<f64>,
    pub torn_lines: usize,
    pub damaged_lines: usize,
}

impl Status {
    pub fn of(plan: &PlanFolder, scan: &JournalScan) -> Status {
        // The first result of each unit counts; the others only for agreement.
        let mut first: BTreeMap<u64, (u128, u128)> = BTreeMap::new();
        let mut conflicting: BTreeSet<u64> = BTreeSet::new();
        let (mut searched, mut seconds) = (0u128, 0f64);
        for record in &scan.records {
            searched += record.nodes;
            seconds += record.seconds;
            let (nodes, _) = *first
                .entry(record.unit)
                .or_insert((record.nodes, record.paths));
            if nodes != record.nodes {
                conflicting.insert(record.unit);
            }
        }
        let shards_complete = plan.shard_count() - incomplete_shards(plan, scan).len();
        let done = first.len() as u64;
        let units = plan.manifest.units;
        let results = scan.records.len();
        Status {
            units,
            done,
            nodes: first.values().map(|&(nodes, paths)| nodes * paths).sum(),
            shards: plan.shard_count(),
            shards_complete,
            conflicts: conflicting.len() as u64,
            rate: if seconds > 0.0 {
                searched as f64 / seconds
            } else {
                0.0
            },
            seconds_left: (results > 0).then(|| seconds / results as f64 * (units - done) as f64),
            torn_lines: scan.torn,
            damaged_lines: scan.damaged.len(),
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "units": self.units,
            "done": self.done,
            "nodes": self.nodes.to_string(),
            "shards": self.shards,
            "shards_complete": self.shards_complete,
            "conflicts": self.conflicts,
            "rate_nps": self.rate,
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
            "Units: {} of {} done ({percent:.1}%)\nNodes so far: {}\nShards complete: {} of {}\n",
            thousands(self.done.into()),
            thousands(self.units.into()),
            thousands(self.nodes),
            self.shards_complete,
            self.shards,
        );
        text += &format!("Rate: {:.1} Mnps\n", self.rate / 1e6);
        if let Some(left) = self.seconds_left {
            text += &format!("Time left: {} (one process)\n", duration_text(left));
        }
        if self.conflicts > 0 {
            text += &format!(
                "Conflicts: {} units have results that disagree\n",
                self.conflicts
            );
        }
        if self.torn_lines + self.damaged_lines > 0 {
            text += &format!(
                "Ignored journal lines: {} torn, {} damaged\n",
                self.torn_lines, self.damaged_lines
            );
        }
        text
    }
}

/// The shards with a unit that has no result yet, in order: what a scheduler still has to run.
pub fn incomplete_shards(plan: &PlanFolder, scan: &JournalScan) -> Vec<usize> {
    let done: HashSet<u64> = scan.records.iter().map(|r| r.unit).collect();
    (0..plan.shard_count())
        .filter(|&shard| !plan.unit_ids(shard).all(|unit| done.contains(&unit)))
        .collect()
}

/// `3725` -> `1h 2m 5s`.
pub fn duration_text(seconds: f64) -> String {
    let whole = seconds.max(0.0).round() as u64;
    let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60);
    match (hours, minutes) {
        (0, 0) => format!("{secs}s"),
        (0, _) => format!("{minutes}m {secs}s"),
        _ => format!("{hours}h {minutes}m {secs}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::duration_text;

    #[test]
    fn durations_read_as_hours_minutes_seconds() {
        assert_eq!(duration_text(0.4), "0s");
        assert_eq!(duration_text(59.0), "59s");
        assert_eq!(duration_text(125.0), "2m 5s");
        assert_eq!(duration_text(3725.0), "1h 2m 5s");
    }
}
