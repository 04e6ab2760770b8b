//! The history kept across restarts: one JSON line per run in `history.jsonl` in the window's
//! data folder, the newest [`MAX_RUNS`] kept. A file that is too big or has lines that do not
//! read is not an error at startup: what reads is kept, and the window says what was skipped.

use crate::backend::Device;
use crate::chess::{uci, Position};
use crate::count::Counts;
use crate::engine::PerftResult;
use crate::tt::{TtCounters, TtMode, TtStatsSnapshot};
use crate::work_counters::WorkCounters;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

/// The runs kept: enough to compare a session's modes and backends, small enough to read at
/// once (a run with its divide is a few KiB).
pub const MAX_RUNS: usize = 200;
/// A file larger than this is not read (it cannot be one this window wrote).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// A run as the file keeps it: what the history shows, compares and loads again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredRun {
    /// The position's name in the history: a reference name or the FEN, with the moves walked.
    pub name: String,
    pub fen: String,
    pub depth: u32,
    /// Decimal: counts can exceed 2^64.
    pub nodes: String,
    pub elapsed_s: f64,
    /// `None` for the CPU, else the Vulkan device's name.
    pub device: Option<String>,
    pub threads: usize,
    pub zobrist_seed: u64,
    pub tt_mode: String,
    pub table: Option<StoredTable>,
    /// Each root move in UCI with its count (decimal).
    pub divide: Vec<(String, String)>,
}

/// The table's size and final counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredTable {
    pub slots: u64,
    pub compact_slots: u64,
    pub bytes: u64,
    pub verifier_bits: u32,
    pub probes: u64,
    pub hits: u64,
    pub misses: u64,
    pub stores: u64,
    pub overwrites: u64,
    pub used_slots: u64,
    pub wrong_occupied_probes: u64,
    pub false_hits: u64,
    pub payload_skips: u64,
}

/// Why a stored line is not a run.
#[derive(Debug, Error, PartialEq)]
pub enum StoredRunError {
    #[error("not a run record: {0}")]
    Json(String),
    #[error("its FEN does not read: {0}")]
    Fen(String),
    #[error("`{0}` is not a count")]
    Count(String),
    #[error("`{0}` is not a TT mode")]
    Mode(String),
    #[error("`{mv}` is not a legal move of its position")]
    Move { mv: String },
    #[error("its time is not a number of seconds")]
    Elapsed,
}

impl StoredRun {
    pub fn of(result: &PerftResult, name: &str) -> StoredRun {
        StoredRun {
            name: name.to_string(),
            fen: result.position.to_fen(),
            depth: result.depth,
            nodes: result.counts.nodes.to_string(),
            elapsed_s: result.elapsed.as_secs_f64(),
            device: match &result.device {
                Device::Cpu { .. } => None,
                Device::Vulkan { name } => Some(name.clone()),
            },
            threads: result.threads,
            zobrist_seed: result.zobrist_seed,
            tt_mode: result.tt_mode.name().to_string(),
            table: result.tt.as_ref().map(|tt| StoredTable {
                slots: tt.slots,
                compact_slots: tt.compact_slots,
                bytes: tt.bytes,
                verifier_bits: tt.verifier_bits,
                probes: tt.total.probes,
                hits: tt.total.hits,
                misses: tt.total.misses,
                stores: tt.total.stores,
                overwrites: tt.total.overwrites,
                used_slots: tt.total.used_slots,
                wrong_occupied_probes: tt.total.wrong_occupied_probes,
                false_hits: tt.total.false_hits,
                payload_skips: tt.total.payload_skips,
            }),
            divide: result
                .divide
                .iter()
                .map(|(mv, counts)| (mv.to_string(), counts.nodes.to_string()))
                .collect(),
        }
    }

    /// The result again, without what the file does not keep (move statistics, per-depth
    /// table figures, work counters).
    pub fn result(&self) -> Result<PerftResult, StoredRunError> {
        let position = Position::from_fen(&self.fen)
            .map_err(|error| StoredRunError::Fen(error.to_string()))?;
        let count = |text: &str| {
            text.parse::<u128>()
                .map_err(|_| StoredRunError::Count(text.to_string()))
        };
        let tt_mode: TtMode = self
            .tt_mode
            .parse()
            .map_err(|_| StoredRunError::Mode(self.tt_mode.clone()))?;
        let divide = self
            .divide
            .iter()
            .map(|(text, nodes)| {
                let mv = uci::parse_move(&position, text)
                    .map_err(|_| StoredRunError::Move { mv: text.clone() })?;
                Ok((mv, Counts::exact(count(nodes)?)))
            })
            .collect::<Result<Vec<_>, StoredRunError>>()?;
        let elapsed =
            Duration::try_from_secs_f64(self.elapsed_s).map_err(|_| StoredRunError::Elapsed)?;
        let tt = self.table.as_ref().map(|table| TtStatsSnapshot {
            mode: tt_mode,
            slots: table.slots,
            compact_slots: table.compact_slots,
            bytes: table.bytes,
            // The history keeps the table the run used, not the budget it was allowed.
            budget_bytes: table.bytes,
            verifier_bits: table.verifier_bits,
            total: TtCounters {
                probes: table.probes,
                hits: table.hits,
                misses: table.misses,
                stores: table.stores,
                overwrites: table.overwrites,
                used_slots: table.used_slots,
                occupancy: if table.slots == 0 {
                    0.0
                } else {
                    table.used_slots as f64 / table.slots as f64
                },
                wrong_occupied_probes: table.wrong_occupied_probes,
                false_hits: table.false_hits,
                payload_skips: table.payload_skips,
            },
            per_depth: Vec::new(),
        });
        Ok(PerftResult {
            position,
            depth: self.depth,
            counts: Counts::exact(count(&self.nodes)?),
            divide,
            elapsed,
            device: match &self.device {
                None => Device::Cpu {
                    threads: self.threads,
                },
                Some(name) => Device::Vulkan { name: name.clone() },
            },
            threads: self.threads,
            zobrist_seed: self.zobrist_seed,
            tt_mode,
            tt,
            work: WorkCounters::default(),
            move_stats: false,
            stats_by_depth: Vec::new(),
        })
    }
}

/// The runs read from a history file, and what could not be read.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Oldest first, each with its result.
    pub runs: Vec<(StoredRun, PerftResult)>,
    /// Why the file or some of its lines were skipped, for the window to say.
    pub note: Option<String>,
}

/// The history file in `folder`.
pub fn path_in(folder: &Path) -> PathBuf {
    folder.join("history.jsonl")
}

/// Reads the history at `path`: no file is an empty history; a file over [`MAX_FILE_BYTES`]
/// is not read; lines that do not read are skipped and counted.
pub fn load(path: &Path) -> Loaded {
    let size = match std::fs::metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Loaded::default(),
        Err(error) => return unread(path, &error.to_string()),
        Ok(metadata) => metadata.len(),
    };
    if size > MAX_FILE_BYTES {
        return unread(
            path,
            &format!(
                "it holds {size} bytes, more than the {MAX_FILE_BYTES} this window writes; it \
                 is replaced by the next run's history"
            ),
        );
    }
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) => return unread(path, &error.to_string()),
    };
    let mut loaded = Loaded::default();
    let mut skipped = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let run = serde_json::from_str::<StoredRun>(line)
            .map_err(|error| StoredRunError::Json(error.to_string()))
            .and_then(|run| run.result().map(|result| (run, result)));
        match run {
            Ok(run) => loaded.runs.push(run),
            Err(error) => skipped.push(format!("line {}: {error}", number + 1)),
        }
    }
    let excess = loaded.runs.len().saturating_sub(MAX_RUNS);
    loaded.runs.drain(..excess);
    if let Some(first) = skipped.first() {
        loaded.note = Some(format!(
            "{} of {} skipped {} unreadable line(s) ({first})",
            "The history file",
            path.display(),
            skipped.len()
        ));
    }
    loaded
}

fn unread(path: &Path, reason: &str) -> Loaded {
    Loaded {
        runs: Vec::new(),
        note: Some(format!(
            "The history file {} was not read: {reason}",
            path.display()
        )),
    }
}

/// Writes the newest [`MAX_RUNS`] of `runs` to `path`, aside first and then renamed, so that
/// a crash leaves the old file or the new one, never half of one.
pub fn save(path: &Path, runs: &[StoredRun]) -> Result<(), String> {
    let newest = &runs[runs.len().saturating_sub(MAX_RUNS)..];
    let mut text = String::new();
    for run in newest {
        let line = serde_json::to_string(run).map_err(|error| error.to_string())?;
        text.push_str(&line);
        text.push('\n');
    }
    let failed = |error: std::io::Error| format!("could not write {}: {error}", path.display());
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(failed)?;
    }
    let aside = path.with_extension("jsonl.tmp");
    let mut file = std::fs::File::create(&aside).map_err(failed)?;
    file.write_all(text.as_bytes()).map_err(failed)?;
    file.sync_all().map_err(failed)?;
    std::fs::rename(&aside, path).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::PerftResult;

    fn folder(name: &str) -> PathBuf {
        let folder =
            std::env::temp_dir().join(format!("vkperft-history-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        folder
    }

    #[test]
    fn a_run_round_trips_through_the_file() {
        let result = PerftResult {
            tt_mode: TtMode::Certify,
            tt: Some(TtStatsSnapshot {
                mode: TtMode::Certify,
                slots: 1 << 16,
                compact_slots: 0,
                bytes: 1 << 20,
                budget_bytes: 1 << 20,
                verifier_bits: 8,
                total: TtCounters {
                    probes: 10,
                    hits: 4,
                    false_hits: 1,
                    used_slots: 6,
                    ..TtCounters::default()
                },
                per_depth: Vec::new(),
            }),
            ..PerftResult::sample_on_gpu()
        };
        let stored = StoredRun::of(&result, "startpos");
        let dir = folder("round-trip");
        let path = path_in(&dir);
        assert!(save(&path, std::slice::from_ref(&stored)).is_ok());
        let loaded = load(&path);
        assert_eq!(loaded.note, None);
        let [(run, back)] = &loaded.runs[..] else {
            panic!("one run, got {}", loaded.runs.len());
        };
        assert_eq!(run, &stored);
        assert_eq!(back.counts.nodes, result.counts.nodes);
        assert_eq!(back.divide.len(), result.divide.len());
        assert_eq!(back.device, result.device);
        assert_eq!(back.tt_mode, TtMode::Certify);
        let table = back
            .tt
            .as_ref()
            .map(|tt| (tt.verifier_bits, tt.total.hits, tt.total.false_hits));
        assert_eq!(table, Some((8, 4, 1)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_the_newest_runs_are_kept() {
        let result = PerftResult::sample_on_gpu();
        let runs: Vec<StoredRun> = (0..MAX_RUNS + 5)
            .map(|index| StoredRun::of(&result, &format!("run {index}")))
            .collect();
        let dir = folder("bounded");
        let path = path_in(&dir);
        assert!(save(&path, &runs).is_ok());
        let loaded = load(&path);
        assert_eq!(loaded.runs.len(), MAX_RUNS);
        assert_eq!(loaded.runs[0].0.name, "run 5");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_corrupt_or_huge_file_does_not_stop_the_window() {
        let dir = folder("corrupt");
        let path = path_in(&dir);
        let good = serde_json::to_string(&StoredRun::of(&PerftResult::sample_on_gpu(), "good"))
            .unwrap_or_default();
        let bad_move = good.replace("\"e2e4\"", "\"e2e5\"");
        assert_ne!(bad_move, good, "the test run's divide has e2e4");
        assert!(std::fs::create_dir_all(&dir).is_ok());
        let text = format!("{good}\nnot json\n{bad_move}\n{good}\n");
        assert!(std::fs::write(&path, text).is_ok());
        let loaded = load(&path);
        assert_eq!(loaded.runs.len(), 2);
        let note = loaded.note.unwrap_or_default();
        assert!(
            note.contains("skipped 2 unreadable line(s) (line 2: not a run record"),
            "{note}"
        );

        let huge = vec![b'x'; MAX_FILE_BYTES as usize + 1];
        assert!(std::fs::write(&path, huge).is_ok());
        let loaded = load(&path);
        assert!(loaded.runs.is_empty());
        let note = loaded.note.unwrap_or_default();
        assert!(
            note.contains("was not read: it holds 4194305 bytes"),
            "{note}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
