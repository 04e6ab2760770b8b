//! The journal: one sealed JSON line per finished unit, appended and synced to disk before the
//! next unit starts. Each process writes a file of its own (`journal/journal-<ns>-<pid>.jsonl`,
//! created exclusively), so processes never share a file and need no lock; a line torn by a
//! crash fails its checksum and is ignored.

use super::checksum::is_sealed;
use super::error::WorkError;
use super::folder::{sync_dir, PlanFolder, JOURNAL_DIR};
use super::record::{JournalRecord, RecordProblem};
use super::seal::Sha256Digest;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// This process's journal file.
pub struct JournalWriter {
    file: File,
    path: PathBuf,
}

impl JournalWriter {
    /// A new journal file of this process in the journal folder of the plan in `plan_dir`.
    pub fn create(plan_dir: &Path) -> Result<JournalWriter, WorkError> {
        let dir = plan_dir.join(JOURNAL_DIR);
        if !dir.is_dir() {
            std::fs::create_dir_all(&dir).map_err(|e| WorkError::io(&dir, e))?;
            sync_dir(plan_dir)?;
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

    /// Writes a block to the journal, waits until it is on disk, and truncates it away: a disk
    /// that is full or fails shows before any unit is computed, not after the first. Cut short
    /// by a crash, the block is a torn last line, which readers ignore.
    pub fn probe(&mut self) -> Result<(), WorkError> {
        const PROBE: [u8; 4096] = [b' '; 4096];
        self.file
            .write_all(&PROBE)
            .and_then(|()| self.file.sync_data())
            .and_then(|()| self.file.set_len(0))
            .and_then(|()| self.file.sync_data())
            .map_err(|error| WorkError::JournalProbe {
                path: self.path.clone(),
                error,
            })
    }

    /// Appends `record` in one write and waits until it is on disk. After an error the line
    /// may be partly written: it then fails its checksum, and the caller must stop.
    pub fn append(&mut self, record: &JournalRecord) -> Result<(), WorkError> {
        self.append_line(&record.to_line(), record.unit)
    }

    /// Appends `line` (sealed, with its newline), unit `unit`'s result, as [`Self::append`].
    pub fn append_line(&mut self, line: &str, unit: u64) -> Result<(), WorkError> {
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|error| WorkError::JournalWrite {
                path: self.path.clone(),
                unit,
                error,
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
    /// The files read, by name in the journal folder, with the SHA-256 of the bytes read.
    pub files: Vec<(String, Sha256Digest)>,
}

/// The names of the journal files of `plan`, sorted.
pub fn journal_files(plan: &PlanFolder) -> Result<Vec<String>, WorkError> {
    journal_files_in(&plan.journal_dir())
}

/// The names of the journal files in the journal folder `dir`, sorted.
pub fn journal_files_in(dir: &Path) -> Result<Vec<String>, WorkError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(WorkError::io(dir, e)),
    };
    let mut names = Vec::new();
    for entry in entries {
        let name = entry.map_err(|e| WorkError::io(dir, e))?.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".jsonl") {
            names.push(name.into_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// Reads the journals of `plan`.
pub fn read_journals(plan: &PlanFolder) -> Result<JournalScan, WorkError> {
    read_journal_files(plan, &journal_files(plan)?)
}

/// Reads the journal files `names` of `plan`. A line with a good checksum is an error if it
/// belongs to another plan (another seal, or a unit the plan does not have) or to another
/// record format.
pub fn read_journal_files(plan: &PlanFolder, names: &[String]) -> Result<JournalScan, WorkError> {
    let mut records = Vec::new();
    let lines = read_sealed_lines(&plan.journal_dir(), names, |path, number, line| {
        let record = match JournalRecord::parse(line) {
            Ok(record) => record,
            Err(RecordProblem::Malformed) => return Ok(false),
            Err(RecordProblem::FormatOne) => {
                return Err(WorkError::FormatOneRecord {
                    path: path.to_path_buf(),
                    line: number,
                })
            }
            Err(RecordProblem::WikiStatistics) => {
                return Err(WorkError::WikiStatisticsRecord {
                    path: path.to_path_buf(),
                    line: number,
                })
            }
            Err(RecordProblem::OtherFormat(found)) => {
                return Err(WorkError::OtherRecordFormat {
                    path: path.to_path_buf(),
                    line: number,
                    found,
                })
            }
        };
        if record.plan != plan.seal {
            return Err(WorkError::OtherPlan {
                path: path.to_path_buf(),
                line: number,
                unit: record.unit,
            });
        }
        if record.unit >= plan.manifest.units {
            return Err(WorkError::UnitNotInPlan {
                path: path.to_path_buf(),
                line: number,
                unit: record.unit,
                units: plan.manifest.units,
            });
        }
        records.push(record);
        Ok(true)
    })?;
    Ok(JournalScan {
        records,
        torn: lines.torn,
        damaged: lines.damaged,
        files: lines.files,
    })
}

/// What reading a journal folder's files found besides the lines it took.
#[derive(Debug, Default)]
pub struct SealedLines {
    /// Last lines of a file that fail their checksum: a write cut short by a crash.
    pub torn: usize,
    /// Other lines that fail their checksum, or that `take` found malformed.
    pub damaged: Vec<(PathBuf, usize)>,
    /// The files read, by name, with the SHA-256 of the bytes read.
    pub files: Vec<(String, Sha256Digest)>,
}

/// Reads the files `names` of the journal folder `dir` and hands each line that passes its
/// checksum to `take` (the file, the line's number, the line), which says whether it is a
/// record (`false`: damaged) or fails the read.
pub fn read_sealed_lines(
    dir: &Path,
    names: &[String],
    mut take: impl FnMut(&Path, usize, &str) -> Result<bool, WorkError>,
) -> Result<SealedLines, WorkError> {
    let mut scan = SealedLines::default();
    for name in names {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).map_err(|e| WorkError::io(&path, e))?;
        scan.files.push((name.clone(), Sha256Digest::of(&bytes)));
        let text = String::from_utf8_lossy(&bytes);
        let mut lines: Vec<&str> = text.split('\n').collect();
        let complete = text.ends_with('\n') || text.is_empty();
        if complete {
            lines.pop();
        }
        let last = lines.len();
        for (index, line) in lines.into_iter().enumerate() {
            let number = index + 1;
            if !is_sealed(line) {
                if number == last && !complete {
                    scan.torn += 1;
                } else {
                    scan.damaged.push((path.clone(), number));
                }
                continue;
            }
            if !take(&path, number, line)? {
                scan.damaged.push((path.clone(), number));
            }
        }
    }
    Ok(scan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Device;
    use crate::tt::TtMode;
    use crate::work::record::TableStats;
    use crate::work::seal::PlanSeal;
    use crate::work::trust::Method;

    /// A journal on a disk with no space left: every write to /dev/full fails with ENOSPC.
    fn full_disk_journal() -> JournalWriter {
        let path = PathBuf::from("/dev/full");
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("/dev/full opens");
        JournalWriter { file, path }
    }

    /// A full disk (here /dev/full) fails the probe before any unit.
    #[test]
    fn a_full_disk_fails_the_probe() {
        let mut journal = full_disk_journal();
        let error = journal.probe().expect_err("no space");
        assert!(matches!(error, WorkError::JournalProbe { .. }), "{error}");
        assert!(
            error.to_string().contains("no unit was computed"),
            "{error}"
        );
    }

    /// A probe leaves an empty journal file behind it.
    #[test]
    fn a_probe_leaves_the_journal_empty() {
        let dir = std::env::temp_dir().join(format!("vkperft-probe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let path = dir.join("journal.jsonl");
        let file = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
            .expect("created");
        let mut journal = JournalWriter {
            file,
            path: path.clone(),
        };
        journal.probe().expect("written");
        assert_eq!(std::fs::metadata(&path).map(|m| m.len()).ok(), Some(0));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A full disk (here /dev/full) fails the append with an error that names the unit.
    #[test]
    fn a_failed_write_is_an_error_naming_the_unit() {
        let mut journal = full_disk_journal();
        let record = JournalRecord {
            plan: PlanSeal::of(b""),
            unit: 9,
            nodes: 1,
            paths: 1,
            method: Method {
                mode: TtMode::Off,
                verifier_bits: 64,
                seed: 0,
            },
            device: Device::Cpu { threads: 1 },
            table: TableStats::default(),
            seconds: 0.0,
            move_stats: None,
        };
        let error = journal.append(&record).expect_err("no space");
        let text = error.to_string();
        assert!(matches!(error, WorkError::JournalWrite { unit: 9, .. }));
        assert!(
            text.contains("unit 9") && text.contains("not counted"),
            "{text}"
        );
    }
}
