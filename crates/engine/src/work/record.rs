//! A journal record: one finished unit, with what it counted, how far it is trusted (mode,
//! verifier width, Zobrist seed), what computed it, its table statistics and the seal of the
//! plan it belongs to, as one sealed JSON line.
//!
//! Line format 2 (this version):
//! `{"format":2,"plan":"<sha-256 of manifest.json>","unit":5,"nodes":"8902","paths":"2",
//! "mode":"fast","verifier_bits":64,"seed":"0x766b7065726674","backend":"cpu","threads":2,
//! "probes":10,"wrong_occupied_probes":1,"false_hits":0,"payload_skips":0,"seconds":0.25,
//! "crc32":"..."}`; a Vulkan record has `"device":"<name>"` instead of `threads`. Counts that
//! can pass 2^53 are decimal strings. A unit run with `--stats` adds its move-type statistics,
//! `"stats":{"captures":"34",...}` (the key of every counted column, `chess::MoveStat::TALLIED`,
//! decimal strings). A line with the wiki's nine columns that earlier versions wrote is refused
//! with its own error: checks with mates and mates of every kind in one count cannot be split
//! into the Grand Chess Tree's columns; any other set of keys is malformed. Lines of format 1 (mode as
//! text such as `"fast/12"`, no plan seal, no statistics) are refused: they cannot say which
//! plan they belong to.

use super::checksum::seal;
use super::seal::PlanSeal;
use super::trust::Method;
use crate::backend::{BackendKind, Device};
use crate::chess::{MoveStat, MoveStats, TALLIED_COUNT};
use crate::tt::{TtMode, MAX_VERIFIER_BITS, MIN_VERIFIER_BITS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The record format this version writes and reads.
pub const RECORD_FORMAT: u32 = 2;

/// The table statistics of one unit's run (all zero without a table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    pub probes: u64,
    /// Entries of other positions that probes compared against: each could pass the
    /// verifier by chance (the risk model's `w`).
    pub wrong_occupied_probes: u64,
    /// Of those, the ones compact depth-2 slots compared (the GPU's split fast table): their
    /// verifier keeps at most 48 bits (`tt::compact`).
    pub compact_wrong_occupied_probes: u64,
    /// `certify`: false hits the shadow keys caught (and corrected).
    pub false_hits: u64,
    /// Stores skipped because the count did not fit the fast payload.
    pub payload_skips: u64,
}

impl TableStats {
    /// The statistics counted since `earlier`, a snapshot of the same table's counters (which
    /// run on while a table is kept from one job to the next); `None` if a counter went back,
    /// so that these belong to a table of its own.
    pub fn since(&self, earlier: &TableStats) -> Option<TableStats> {
        Some(TableStats {
            probes: self.probes.checked_sub(earlier.probes)?,
            wrong_occupied_probes: self
                .wrong_occupied_probes
                .checked_sub(earlier.wrong_occupied_probes)?,
            compact_wrong_occupied_probes: self
                .compact_wrong_occupied_probes
                .checked_sub(earlier.compact_wrong_occupied_probes)?,
            false_hits: self.false_hits.checked_sub(earlier.false_hits)?,
            payload_skips: self.payload_skips.checked_sub(earlier.payload_skips)?,
        })
    }
}

/// One finished unit.
#[derive(Clone, Debug, PartialEq)]
pub struct JournalRecord {
    /// The seal of the plan the unit belongs to.
    pub plan: PlanSeal,
    pub unit: u64,
    /// The unit's subtree count.
    pub nodes: u128,
    /// The unit's paths from the root, as the plan had them.
    pub paths: u128,
    pub method: Method,
    pub device: Device,
    pub table: TableStats,
    pub seconds: f64,
    /// The unit's move-type statistics, when it was run with `--stats`.
    pub move_stats: Option<MoveStats>,
}

#[derive(Serialize, Deserialize)]
struct RecordLine {
    format: u32,
    plan: String,
    unit: u64,
    nodes: String,
    paths: String,
    mode: String,
    verifier_bits: u32,
    seed: String,
    backend: BackendKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    threads: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    device: Option<String>,
    probes: u64,
    wrong_occupied_probes: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    compact_wrong_occupied_probes: u64,
    false_hits: u64,
    payload_skips: u64,
    seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stats: Option<BTreeMap<String, String>>,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// Why a line with a good checksum is not a record of this version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordProblem {
    /// A line of format 1, written before records carried their plan's seal.
    FormatOne,
    /// A line of a later format.
    OtherFormat(String),
    /// Statistics in the wiki's nine columns, as versions before the Grand Chess Tree's
    /// columns journaled them.
    WikiStatistics,
    /// Not a record (its fields are missing or wrong).
    Malformed,
}

impl JournalRecord {
    /// The record's journal line, sealed, with its newline.
    pub fn to_line(&self) -> String {
        let (threads, device) = match &self.device {
            Device::Cpu { threads } => (Some(*threads), None),
            Device::Vulkan { name } => (None, Some(name.clone())),
        };
        let line = RecordLine {
            format: RECORD_FORMAT,
            plan: self.plan.to_string(),
            unit: self.unit,
            nodes: self.nodes.to_string(),
            paths: self.paths.to_string(),
            mode: self.method.mode.to_string(),
            verifier_bits: self.method.verifier_bits,
            seed: format!("{:#x}", self.method.seed),
            backend: self.device.kind(),
            threads,
            device,
            probes: self.table.probes,
            wrong_occupied_probes: self.table.wrong_occupied_probes,
            compact_wrong_occupied_probes: self.table.compact_wrong_occupied_probes,
            false_hits: self.table.false_hits,
            payload_skips: self.table.payload_skips,
            seconds: self.seconds,
            stats: self.move_stats.map(|stats| {
                MoveStat::TALLIED
                    .iter()
                    .zip(stats.values())
                    .map(|(stat, value)| (stat.key().to_string(), value.to_string()))
                    .collect()
            }),
        };
        let json = serde_json::to_string(&line).expect("a record always serializes");
        format!("{}\n", seal(&json))
    }

    /// Parses a line whose checksum is good.
    pub fn parse(line: &str) -> Result<JournalRecord, RecordProblem> {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|_| RecordProblem::Malformed)?;
        match &value["format"] {
            serde_json::Value::Null if value.get("mode").is_some() => {
                return Err(RecordProblem::FormatOne)
            }
            format if *format == RECORD_FORMAT => {}
            serde_json::Value::Null => return Err(RecordProblem::Malformed),
            other => return Err(RecordProblem::OtherFormat(other.to_string())),
        }
        let line: RecordLine =
            serde_json::from_value(value).map_err(|_| RecordProblem::Malformed)?;
        if !(MIN_VERIFIER_BITS..=MAX_VERIFIER_BITS).contains(&line.verifier_bits) {
            return Err(RecordProblem::Malformed);
        }
        let device = match (line.backend, line.threads, line.device) {
            (BackendKind::Cpu, Some(threads), None) => Device::Cpu { threads },
            (BackendKind::Vulkan, None, Some(name)) => Device::Vulkan { name },
            _ => return Err(RecordProblem::Malformed),
        };
        let number = |text: &str| text.parse::<u128>().map_err(|_| RecordProblem::Malformed);
        let move_stats = match &line.stats {
            Some(stats) if stats.len() == TALLIED_COUNT => {
                let mut values = [0; TALLIED_COUNT];
                for (value, stat) in values.iter_mut().zip(MoveStat::TALLIED) {
                    *value = number(stats.get(stat.key()).ok_or(RecordProblem::Malformed)?)?;
                }
                Some(MoveStats::from_values(values))
            }
            // The columns earlier versions journaled: the wiki's.
            Some(stats)
                if stats.len() == MoveStat::WIKI.len()
                    && MoveStat::WIKI
                        .iter()
                        .all(|stat| stats.contains_key(stat.key())) =>
            {
                return Err(RecordProblem::WikiStatistics)
            }
            Some(_) => return Err(RecordProblem::Malformed),
            None => None,
        };
        Ok(JournalRecord {
            plan: PlanSeal::parse(&line.plan).ok_or(RecordProblem::Malformed)?,
            unit: line.unit,
            nodes: number(&line.nodes)?,
            paths: number(&line.paths)?,
            method: Method {
                mode: line
                    .mode
                    .parse::<TtMode>()
                    .map_err(|_| RecordProblem::Malformed)?,
                verifier_bits: line.verifier_bits,
                seed: crate::chess::parse_seed(&line.seed).map_err(|_| RecordProblem::Malformed)?,
            },
            device,
            table: TableStats {
                probes: line.probes,
                wrong_occupied_probes: line.wrong_occupied_probes,
                compact_wrong_occupied_probes: line.compact_wrong_occupied_probes,
                false_hits: line.false_hits,
                payload_skips: line.payload_skips,
            },
            seconds: line.seconds,
            move_stats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::checksum::is_sealed;

    fn record(unit: u64, device: Device) -> JournalRecord {
        JournalRecord {
            plan: PlanSeal::of(b"manifest"),
            unit,
            nodes: u128::from(u64::MAX) * 3,
            paths: 2,
            method: Method {
                mode: TtMode::Fast,
                verifier_bits: 8,
                seed: 0x0076_6b70_6572_6674,
            },
            device,
            table: TableStats {
                probes: 10,
                wrong_occupied_probes: 4,
                compact_wrong_occupied_probes: 3,
                false_hits: 0,
                payload_skips: 1,
            },
            seconds: 0.25,
            move_stats: None,
        }
    }

    #[test]
    fn a_record_with_statistics_round_trips_and_a_missing_one_is_malformed() {
        let mut with_stats = record(3, Device::Cpu { threads: 1 });
        with_stats.move_stats = Some(MoveStats::from_values(std::array::from_fn(|i| {
            u128::from(u64::MAX) + i as u128
        })));
        let line = with_stats.to_line();
        assert!(
            line.contains(r#""stalemates":"18446744073709551627""#),
            "{line}"
        );
        assert_eq!(JournalRecord::parse(line.trim_end()), Ok(with_stats));
        let damaged = line
            .trim_end()
            .replace(r#","stalemates":"18446744073709551627""#, "");
        assert_eq!(
            JournalRecord::parse(&damaged),
            Err(RecordProblem::Malformed),
            "{damaged}"
        );
        let start = line.find(r#""stats":"#).expect("a stats object");
        let end = start + line[start..].find('}').expect("its end") + 1;
        let wiki: Vec<String> = MoveStat::WIKI
            .iter()
            .map(|stat| format!(r#""{}":"1""#, stat.key()))
            .collect();
        let earlier = format!(
            r#"{}"stats":{{{}}}{}"#,
            &line[..start],
            wiki.join(","),
            line[end..].trim_end()
        );
        assert_eq!(
            JournalRecord::parse(&earlier),
            Err(RecordProblem::WikiStatistics),
            "{earlier}"
        );
    }

    #[test]
    fn records_round_trip_through_sealed_lines() {
        for device in [
            Device::Cpu { threads: 2 },
            Device::Vulkan {
                name: "NVIDIA H200".into(),
            },
        ] {
            let line = record(5, device.clone()).to_line();
            assert!(is_sealed(line.trim_end()));
            assert!(line.contains(r#""seed":"0x766b7065726674""#), "{line}");
            assert!(
                line.contains(r#""mode":"fast","verifier_bits":8"#),
                "{line}"
            );
            assert_eq!(JournalRecord::parse(line.trim_end()), Ok(record(5, device)));
        }
    }

    #[test]
    fn statistics_since_an_earlier_snapshot_of_a_kept_table() {
        let earlier = TableStats {
            probes: 10,
            wrong_occupied_probes: 4,
            compact_wrong_occupied_probes: 1,
            false_hits: 1,
            payload_skips: 0,
        };
        let later = TableStats {
            probes: 25,
            wrong_occupied_probes: 4,
            compact_wrong_occupied_probes: 2,
            false_hits: 3,
            payload_skips: 2,
        };
        assert_eq!(
            later.since(&earlier),
            Some(TableStats {
                probes: 15,
                wrong_occupied_probes: 0,
                compact_wrong_occupied_probes: 1,
                false_hits: 2,
                payload_skips: 2,
            })
        );
        assert_eq!(earlier.since(&later), None, "a new table");
    }

    #[test]
    fn old_and_future_lines_are_told_apart_from_damage() {
        let old = seal(
            r#"{"unit":0,"nodes":"20","paths":"1","mode":"fast/12","seed":"0x1","backend":"cpu","device":"1 thread(s)","seconds":0.1}"#,
        );
        assert_eq!(JournalRecord::parse(&old), Err(RecordProblem::FormatOne));
        let line = record(1, Device::Cpu { threads: 1 }).to_line();
        let future = line.replace(r#""format":2"#, r#""format":3"#);
        assert_eq!(
            JournalRecord::parse(future.trim_end()),
            Err(RecordProblem::OtherFormat("3".into()))
        );
        for broken in [
            line.replace(r#""mode":"fast""#, r#""mode":"quick""#),
            line.replace(r#""backend":"cpu""#, r#""backend":"vulkan""#),
            line.replace(r#""nodes":""#, r#""nodes":"x"#),
            line.replace(r#""plan":""#, r#""plan":"0"#),
            line.replace(r#""verifier_bits":8"#, r#""verifier_bits":65"#),
        ] {
            assert_eq!(
                JournalRecord::parse(broken.trim_end()),
                Err(RecordProblem::Malformed),
                "{broken}"
            );
        }
    }
}
