//! A unique-positions plan's journal record: one counted partition, as one sealed JSON line:
//! `{"format":1,"kind":"unique","plan":"<sha-256 of manifest.json>","unit":3,"unique":"822518",
//! "paths":"4865609","children_paths":"4865609","parents":72078,"passes":1,"threads":2,
//! "seconds":0.5,"crc32":"..."}`. Counts that can pass 2^53 are decimal strings.

use super::super::checksum::seal;
use super::super::manifest::UNIQUE_KIND;
use super::super::seal::PlanSeal;
use crate::unique::PartitionCount;
use serde::{Deserialize, Serialize};

/// The record format this version writes and reads.
pub const UNIQUE_RECORD_FORMAT: u32 = 1;

/// One counted partition.
#[derive(Clone, Debug, PartialEq)]
pub struct UniqueRecord {
    pub plan: PlanSeal,
    pub unit: u64,
    pub count: PartitionCount,
    pub threads: usize,
    pub seconds: f64,
}

#[derive(Serialize, Deserialize)]
struct RecordLine {
    format: u32,
    kind: String,
    plan: String,
    unit: u64,
    unique: String,
    paths: String,
    children_paths: String,
    parents: u64,
    passes: u32,
    threads: usize,
    seconds: f64,
}

impl UniqueRecord {
    /// The record's journal line, sealed, with its newline.
    pub fn to_line(&self) -> String {
        let line = RecordLine {
            format: UNIQUE_RECORD_FORMAT,
            kind: UNIQUE_KIND.into(),
            plan: self.plan.to_string(),
            unit: self.unit,
            unique: self.count.unique.to_string(),
            paths: self.count.paths.to_string(),
            children_paths: self.count.children_paths.to_string(),
            parents: self.count.parents,
            passes: self.count.passes,
            threads: self.threads,
            seconds: self.seconds,
        };
        let object = serde_json::to_string(&line).expect("a record always serializes");
        format!("{}\n", seal(&object))
    }

    /// The record of a sealed line; `None` for a line that is not one of this format.
    pub fn parse(line: &str) -> Option<UniqueRecord> {
        let line: RecordLine = serde_json::from_str(line).ok()?;
        if line.format != UNIQUE_RECORD_FORMAT || line.kind != UNIQUE_KIND {
            return None;
        }
        Some(UniqueRecord {
            plan: PlanSeal::parse(&line.plan)?,
            unit: line.unit,
            count: PartitionCount {
                unique: line.unique.parse().ok()?,
                paths: line.paths.parse().ok()?,
                children_paths: line.children_paths.parse().ok()?,
                parents: line.parents,
                passes: line.passes,
            },
            threads: line.threads,
            seconds: line.seconds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::checksum::is_sealed;

    #[test]
    fn records_round_trip_through_their_sealed_line() {
        let record = UniqueRecord {
            plan: PlanSeal::of(b"manifest"),
            unit: 3,
            count: PartitionCount {
                unique: 822_518,
                paths: u128::from(u64::MAX) + 7,
                children_paths: 4_865_609,
                parents: 72_078,
                passes: 2,
            },
            threads: 2,
            seconds: 0.5,
        };
        let line = record.to_line();
        let line = line.trim_end();
        assert!(is_sealed(line), "{line}");
        assert_eq!(UniqueRecord::parse(line), Some(record));
        assert_eq!(
            UniqueRecord::parse(&line.replace("\"unique\":\"", "\"unique\":\"x")),
            None
        );
        assert_eq!(
            UniqueRecord::parse(&line.replace("\"format\":1", "\"format\":2")),
            None
        );
    }
}
