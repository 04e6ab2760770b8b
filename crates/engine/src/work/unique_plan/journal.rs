//! Reading a unique-positions plan's journals: the same files and guarantees as a perft plan's
//! (a file per process, a sealed line per unit, torn last lines ignored), with records of
//! [`UniqueRecord`]'s format.

use super::super::error::WorkError;
use super::super::journal::{journal_files_in, read_sealed_lines};
use super::super::seal::Sha256Digest;
use super::folder::UniquePlan;
use super::record::UniqueRecord;
use std::path::PathBuf;

/// Every result in a unique-positions plan's journals.
#[derive(Debug, Default)]
pub struct UniqueScan {
    pub records: Vec<UniqueRecord>,
    /// Last lines of a file cut short by a crash.
    pub torn: usize,
    /// Other lines that fail their checksum or are not records.
    pub damaged: Vec<(PathBuf, usize)>,
    /// The files read, with the SHA-256 of the bytes read.
    pub files: Vec<(String, Sha256Digest)>,
}

/// Reads the journals of `plan`: a sealed line of another plan, or for a unit the plan does
/// not have, is an error.
pub fn read_unique_journals(plan: &UniquePlan) -> Result<UniqueScan, WorkError> {
    let dir = plan.journal_dir();
    let mut records = Vec::new();
    let lines = read_sealed_lines(&dir, &journal_files_in(&dir)?, |path, number, line| {
        let Some(record) = UniqueRecord::parse(line) else {
            return Ok(false);
        };
        if record.plan != plan.seal {
            return Err(WorkError::OtherPlan {
                path: path.to_path_buf(),
                line: number,
                unit: record.unit,
            });
        }
        if record.unit >= plan.units() {
            return Err(WorkError::UnitNotInPlan {
                path: path.to_path_buf(),
                line: number,
                unit: record.unit,
                units: plan.units(),
            });
        }
        records.push(record);
        Ok(true)
    })?;
    Ok(UniqueScan {
        records,
        torn: lines.torn,
        damaged: lines.damaged,
        files: lines.files,
    })
}
