//! Why a plan cannot be split, read, run or merged.

use crate::unique::UniqueError;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum WorkError {
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        /// Shown in the message, not chained as a source: the error is printed once.
        error: std::io::Error,
    },
    #[error(transparent)]
    Expansion(#[from] UniqueError),
    #[error("--split-ply {split_ply} must be at least 1 and less than --depth {depth}")]
    SplitPly { split_ply: u32, depth: u32 },
    #[error("--depth {depth} is more than {max}")]
    Depth { depth: u32, max: u32 },
    #[error("--depth {depth}: a plan of unique positions counts a ply of at least 2")]
    UniqueDepth { depth: u32 },
    #[error("{}: a plan of unique positions (`work split --unique`): `work run`, `status`, `merge` and `slurm` take it, this command does not", path.display())]
    UniquePlan { path: PathBuf },
    #[error("--shards must be at least 1")]
    NoShards,
    #[error("{}: already exists and is not an empty folder", path.display())]
    OutExists { path: PathBuf },
    #[error("{}: not a plan folder (no manifest.json)", path.display())]
    NotAPlan { path: PathBuf },
    #[error("{}: a plan of format {found}, from another version of vkperft (this one reads format {expected})", path.display())]
    OtherVersion {
        path: PathBuf,
        found: String,
        expected: u32,
    },
    #[error("{}: checksum failed: the file is damaged or was edited", path.display())]
    Checksum { path: PathBuf },
    #[error("{}: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
    #[error("{}:{line}: a result for unit {unit}, but the plan has units 0..{units}", path.display())]
    UnitNotInPlan {
        path: PathBuf,
        line: usize,
        unit: u64,
        units: u64,
    },
    #[error("{}:{line}: a result for unit {unit} of another plan (its seal is not this plan's manifest): a journal copied from another plan folder; move it out of journal/", path.display())]
    OtherPlan {
        path: PathBuf,
        line: usize,
        unit: u64,
    },
    #[error("{}:{line}: a result written by an earlier vkperft (record format 1: no plan seal, no table statistics), which this version cannot tie to its plan; move the file out of journal/ and run its units again", path.display())]
    FormatOneRecord { path: PathBuf, line: usize },
    #[error("{}:{line}: move-type statistics written by an earlier vkperft in the wiki's nine columns (checks with mates, mates of every kind in one count), which cannot be split into the Grand Chess Tree's columns this version journals; move the file out of journal/ and run its units again with --stats", path.display())]
    WikiStatisticsRecord { path: PathBuf, line: usize },
    #[error("{}:{line}: a result of record format {found}, from another version of vkperft (this one reads format {})", path.display(), super::record::RECORD_FORMAT)]
    OtherRecordFormat {
        path: PathBuf,
        line: usize,
        found: String,
    },
    #[error("unit {unit}: {what} overflows 128 bits: a result is wrong or was crafted; no total")]
    Overflow { unit: u64, what: &'static str },
    #[error("{} damaged journal line(s) ({}): a result was changed or corrupted after it was written; `--ignore-damaged` goes on without them", lines.len(), damaged_list(lines))]
    DamagedJournal { lines: Vec<(PathBuf, usize)> },
    #[error("{}: not a certificate of `vkperft work merge`: {reason}", path.display())]
    NotACertificate { path: PathBuf, reason: String },
    #[error("--sample {0}: a percentage above 0 and at most 100")]
    SamplePercent(f64),
    #[error("shard {shard} does not exist: the plan has shards 0..{shards}")]
    NoSuchShard { shard: usize, shards: usize },
    #[error("'{0}' is not a shard range (A..B, A..=B or a single shard)")]
    ShardRange(String),
    #[error("writing the result of unit {unit} to the journal {} failed: {error}; the unit is not counted", path.display())]
    JournalWrite {
        path: PathBuf,
        unit: u64,
        /// Shown in the message, not chained as a source: the error is printed once.
        error: std::io::Error,
    },
    #[error("cannot write the journal {}: {error}; no unit was computed", path.display())]
    JournalProbe {
        path: PathBuf,
        /// Shown in the message, not chained as a source: the error is printed once.
        error: std::io::Error,
    },
    #[error("{var} is not set: it names the environment variable in which the scheduler gives each task its shard")]
    ShardVariableUnset { var: String },
    #[error("{var}={value:?} is not a shard number")]
    ShardVariable { var: String, value: String },
    #[error("--{option} {value:?}: a Slurm option cannot hold a line break, a double quote or a control character")]
    SlurmOption { option: String, value: String },
    #[error("{}: Slurm cannot write logs into a folder whose path holds %, a double quote or a line break; move the plan or reach it through a link", path.display())]
    SlurmLogPath { path: PathBuf },
    #[error("{program} not found: `vkperft work slurm` runs where Slurm's commands do (a login node; Debian: slurm-client)")]
    SchedulerMissing { program: String },
    #[error("`{command}` failed ({status}): {stderr}")]
    SchedulerFailed {
        command: String,
        status: String,
        stderr: String,
    },
    #[error("jobs {jobs} of the plan's last submission are still in the queue ({running} tasks running, {waiting} waiting): their shards would run twice; wait for them, or `scancel {jobs}` first")]
    StillQueued {
        jobs: String,
        running: usize,
        waiting: usize,
    },
    #[error("`{command}` printed {output:?}, not a job id")]
    SchedulerOutput { command: String, output: String },
    #[error("{} and {} are not the same plan: {reason}", a.display(), b.display())]
    DifferentPlans {
        a: PathBuf,
        b: PathBuf,
        reason: String,
    },
}

/// The first few damaged lines as `path:line`, then how many more.
fn damaged_list(lines: &[(PathBuf, usize)]) -> String {
    const LISTED: usize = 5;
    let mut text: Vec<String> = lines
        .iter()
        .take(LISTED)
        .map(|(path, line)| format!("{}:{line}", path.display()))
        .collect();
    if lines.len() > LISTED {
        text.push(format!("and {} more", lines.len() - LISTED));
    }
    text.join(", ")
}

impl WorkError {
    pub fn io(path: &Path, error: std::io::Error) -> WorkError {
        WorkError::Io {
            path: path.to_path_buf(),
            error,
        }
    }

    pub fn malformed(path: &Path, reason: impl Into<String>) -> WorkError {
        WorkError::Malformed {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }

    /// Whether the error lies in what was asked or in the plan's files (rather than in the
    /// machine: disk, permissions).
    pub fn is_input(&self) -> bool {
        !matches!(
            self,
            WorkError::Io { .. }
                | WorkError::JournalWrite { .. }
                | WorkError::JournalProbe { .. }
                | WorkError::SchedulerMissing { .. }
                | WorkError::SchedulerFailed { .. }
                | WorkError::SchedulerOutput { .. }
                | WorkError::Expansion(UniqueError::Io { .. })
        )
    }
}
