//! How far a plan is: units done, the total so far, shards complete, rate and time left, from
//! the manifest and the journals alone (no shard is read, so watching a large plan is cheap).

use super::error::WorkError;
use super::folder::PlanFolder;
use super::journal::JournalScan;
use super::merge::{add_product, by_unit};
use super::risk::PlanRisk;
use super::trust::Trust;
use std::collections::HashSet;

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
    /// The weakest trust among the units done (`None` before the first result).
    pub trust: Option<Trust>,
    pub risk: PlanRisk,
}

impl Status {
    pub fn of(plan: &PlanFolder, scan: &JournalScan) -> Result<Status, WorkError> {
        let results = by_unit(scan);
        // The first result of each unit counts; the others only for agreement.
        let (mut nodes, mut searched, mut seconds) = (0u128, 0u128, 0f64);
        let mut conflicts = 0;
        let mut trust: Option<Trust> = None;
        for (&unit, records) in &results {
            let first = records[0];
            nodes = add_product(nodes, first.paths, first.nodes, unit, "paths x nodes")?;
            for record in records {
                searched = add_product(searched, 1, record.nodes, unit, "the nodes searched")?;
                seconds += record.seconds;
            }
            conflicts += u64::from(records.iter().any(|r| r.nodes != first.nodes));
            let unit_trust = Trust::of(records.iter().map(|r| r.method));
            trust = Some(trust.map_or(unit_trust, |t| t.min(unit_trust)));
        }
        let shards_complete = plan.shard_count() - incomplete_shards(plan, scan).len();
        let done = results.len() as u64;
        let units = plan.manifest.units;
        let count = scan.records.len();
        Ok(Status {
            units,
            done,
            nodes,
            shards: plan.shard_count(),
            shards_complete,
            conflicts,
            rate: if seconds > 0.0 {
                searched as f64 / seconds
            } else {
                0.0
            },
            seconds_left: (count > 0).then(|| seconds / count as f64 * (units - done) as f64),
            torn_lines: scan.torn,
            damaged_lines: scan.damaged.len(),
            trust,
            risk: PlanRisk::of(&results)?,
        })
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
            "trust": self.trust.map(|t| t.name()),
            "risk": self.risk.to_json(),
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
        if let Some(trust) = self.trust {
            text += &format!("Trust so far: {trust} (the weakest unit done)\n");
        }
        text += &self.risk.to_text();
        text += &journal_lines_text(
            self.seconds_left,
            self.conflicts,
            self.torn_lines,
            self.damaged_lines,
        );
        text
    }
}

/// The last lines of a plan's status, either kind: the time left (one process), units whose
/// results disagree, journal lines ignored.
pub(super) fn journal_lines_text(
    seconds_left: Option<f64>,
    conflicts: u64,
    torn_lines: usize,
    damaged_lines: usize,
) -> String {
    let mut text = String::new();
    if let Some(left) = seconds_left {
        text += &format!("Time left: {} (one process)\n", duration_text(left));
    }
    if conflicts > 0 {
        text += &format!("Conflicts: {conflicts} units have results that disagree\n");
    }
    if torn_lines + damaged_lines > 0 {
        text += &format!("Ignored journal lines: {torn_lines} torn, {damaged_lines} damaged\n");
    }
    text
}

/// The shards with a unit that has no result yet, in order: what a scheduler still has to run.
pub fn incomplete_shards(plan: &PlanFolder, scan: &JournalScan) -> Vec<usize> {
    let done: HashSet<u64> = scan.records.iter().map(|r| r.unit).collect();
    shards_without(plan.shard_count(), |shard| plan.unit_ids(shard), &done)
}

/// Of `shards` shards whose units `unit_ids` gives, those with a unit not in `done`.
pub(super) fn shards_without(
    shards: usize,
    unit_ids: impl Fn(usize) -> std::ops::Range<u64>,
    done: &HashSet<u64>,
) -> Vec<usize> {
    (0..shards)
        .filter(|&shard| !unit_ids(shard).all(|unit| done.contains(&unit)))
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
