//! The journal: one sealed JSON line per finished unit, appended and synced to disk before the
//! next unit starts. Each process writes a file of its own (`journal/journal-<ns>-<pid>.jsonl`,
//! created exclusively), so processes never share a file and need no lock; a line torn by a
//! crash fails its checksum and is ignored.

use super::checksum::{is_sealed, seal};
use super::error::WorkError;
use super::folder::{sync_dir, PlanFolder};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// One finished unit.
#[derive(Clone, Debug, PartialEq)]
pub struct JournalRecord {
    pub unit: u64,
    /// The unit's subtree count.
    pub nodes: u128,
    /// The unit's paths from the root, as the plan had them.
    pub paths: u128,
    /// The table mode (`off`, `fast`, `verified`, `certify`), with `/K` for a fast verifier
    /// narrowed to K bits.
    pub mode: String,
    pub seed: u64,
    pub backend: String,
    pub device: String,
    pub seconds: f64,
}

#[derive(Serialize, Deserialize)]
struct RecordLine {
    unit: u64,
    nodes: String,
    paths: String,
    mode: String,
    seed: String,
    backend: String,
    device: String,
    seconds: f64,
}

impl JournalRecord {
    /// The record's journal line, sealed, with its newline.
    pub fn to_line(&self) -> String {
        let line = RecordLine {
            unit: self.unit,
            nodes: self.nodes.to_string(),
            paths: self.paths.to_string(),
            mode: self.mode.clone(),
            seed: format!("{:#x}", self.seed),
            backend: self.backend.clone(),
            device: self.device.clone(),
            seconds: self.seconds,
        };
        let json = serde_json::to_string(&line).expect("a record always serializes");
        format!("{}\n", seal(&json))
    }

    fn parse(line: &str) -> Option<JournalRecord> {
        let parsed: RecordLine = serde_json::from_str(line).ok()?;
        Some(JournalRecord {
            unit: parsed.unit,
            nodes: parsed.nodes.parse().ok()?,
            paths: parsed.paths.parse().ok()?,
            mode: parsed.mode,
            seed: crate::engine::parse_seed(&parsed.seed).ok()?,
            backend: parsed.backend,
            device: parsed.device,
            seconds: parsed.seconds,
        })
    }
}

/// This process's journal file.
pub struct JournalWriter {
    file: File,
    path: PathBuf,
}

impl JournalWriter {
    /// A new journal file of this process in the plan's journal folder.
    pub fn create(plan: &PlanFolder) -> Result<JournalWriter, WorkError> {
        let dir = plan.journal_dir();
        if !dir.is_dir() {
            std::fs::create_dir_all(&dir).map_err(|e| WorkError::io(&dir, e))?;
            sync_dir(&plan.dir)?;
        }
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |t| t.as_nanos());
        let path = dir.join(format!("journal-{nanos}-{}.jsonl", std::process::id()));
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| WorkError::io(&path, e))?;
        sync_dir(&dir)?;
        Ok(JournalWriter { file, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record` in one write and waits until it is on disk. After an error the line
    /// may be partly written: it then fails its checksum, and the caller must stop.
    pub fn append(&mut self, record: &JournalRecord) -> Result<(), WorkError> {
        self.file
            .write_all(record.to_line().as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| WorkError::JournalWrite {
                path: self.path.clone(),
                unit: record.unit,
                source,
            })
    }
}

/// Every result in a plan's journals.
#[derive(Debug, Default)]
pub struct JournalScan {
    pub records: Vec<JournalRecord>,
    /// Last lines of a file that fail their checksum: a write cut short by a crash.
    pub torn: usize,
    /// Other lines that fail their checksum or do not parse: damage after the fact.
    pub damaged: Vec<(PathBuf, usize)>,
}

/// Reads the journals of `plan`. A line with a good checksum for a unit the plan does not have
/// is an error (a journal from another plan).
pub fn read_journals(plan: &PlanFolder) -> Result<JournalScan, WorkError> {
    let dir = plan.journal_dir();
    let mut scan = JournalScan::default();
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(scan),
        Err(e) => return Err(WorkError::io(&dir, e)),
    };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|e| WorkError::io(&dir, e))?;
    files.retain(|path| path.extension().is_some_and(|ext| ext == "jsonl"));
    files.sort();
    for path in files {
        let bytes = std::fs::read(&path).map_err(|e| WorkError::io(&path, e))?;
        let text = String::from_utf8_lossy(&bytes);
        let mut lines: Vec<&str> = text.split('\n').collect();
        let complete = text.ends_with('\n') || text.is_empty();
        if complete {
            lines.pop();
        }
        let last = lines.len();
        for (index, line) in lines.into_iter().enumerate() {
            let record = is_sealed(line)
                .then(|| JournalRecord::parse(line))
                .flatten();
            match record {
                Some(record) if record.unit >= plan.manifest.units => {
                    return Err(WorkError::UnitNotInPlan {
                        path,
                        line: index + 1,
                        unit: record.unit,
                        units: plan.manifest.units,
                    });
                }
                Some(record) => scan.records.push(record),
                None if index + 1 == last && !complete => scan.torn += 1,
                None => scan.damaged.push((path.clone(), index + 1)),
            }
        }
    }
    Ok(scan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(unit: u64) -> JournalRecord {
        JournalRecord {
            unit,
            nodes: u128::from(u64::MAX) * 3,
            paths: 2,
            mode: "fast/8".into(),
            seed: 0x0076_6b70_6572_6674,
            backend: "cpu".into(),
            device: "2 thread(s)".into(),
            seconds: 0.25,
        }
    }

    #[test]
    fn records_round_trip_through_sealed_lines() {
        let line = record(5).to_line();
        assert!(is_sealed(line.trim_end()));
        assert!(line.contains(r#""seed":"0x766b7065726674""#), "{line}");
        assert_eq!(JournalRecord::parse(line.trim_end()), Some(record(5)));
    }

    /// A full disk (here /dev/full) fails the append with an error that names the unit.
    #[test]
    fn a_failed_write_is_an_error_naming_the_unit() {
        let path = PathBuf::from("/dev/full");
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("/dev/full opens");
        let mut journal = JournalWriter { file, path };
        let error = journal.append(&record(9)).expect_err("no space");
        let text = error.to_string();
        assert!(matches!(error, WorkError::JournalWrite { unit: 9, .. }));
        assert!(
            text.contains("unit 9") && text.contains("not counted"),
            "{text}"
        );
    }
}
