//! A plan folder: `manifest.json`, the shard files of units, and `journal/` with the results.

use super::checksum::crc32_hex;
use super::error::WorkError;
use super::manifest::{Manifest, MANIFEST_FILE};
use super::unit::Unit;
use std::fs::File;
use std::path::{Path, PathBuf};

pub const JOURNAL_DIR: &str = "journal";

pub struct PlanFolder {
    pub dir: PathBuf,
    pub manifest: Manifest,
}

impl PlanFolder {
    /// Opens the plan in `dir`, checking its manifest (not yet its shards).
    pub fn open(dir: &Path) -> Result<PlanFolder, WorkError> {
        Ok(PlanFolder {
            dir: dir.to_path_buf(),
            manifest: Manifest::read(dir)?,
        })
    }

    pub fn manifest_path(&self) -> PathBuf {
        self.dir.join(MANIFEST_FILE)
    }

    pub fn journal_dir(&self) -> PathBuf {
        self.dir.join(JOURNAL_DIR)
    }

    pub fn shard_count(&self) -> usize {
        self.manifest.shards.len()
    }

    /// The ids of the units of shard `shard`.
    pub fn unit_ids(&self, shard: usize) -> std::ops::Range<u64> {
        self.manifest
            .shards
            .get(shard)
            .map_or(0..0, |s| s.first..s.first + s.units)
    }

    /// The units of shard `shard`, after checking the file against the manifest's checksum.
    pub fn read_shard(&self, shard: usize) -> Result<Vec<Unit>, WorkError> {
        let info = self
            .manifest
            .shards
            .get(shard)
            .ok_or(WorkError::NoSuchShard {
                shard,
                shards: self.shard_count(),
            })?;
        let path = self.dir.join(&info.file);
        let bytes = std::fs::read(&path).map_err(|e| WorkError::io(&path, e))?;
        if crc32_hex(&bytes) != info.crc32 {
            return Err(WorkError::Checksum { path });
        }
        let text =
            String::from_utf8(bytes).map_err(|_| WorkError::malformed(&path, "not UTF-8"))?;
        let units = text
            .lines()
            .enumerate()
            .map(|(index, line)| {
                Unit::parse(line).map_err(|reason| {
                    WorkError::malformed(&path, format!("line {}: {reason}", index + 1))
                })
            })
            .collect::<Result<Vec<Unit>, WorkError>>()?;
        if units.iter().map(|u| u.id).ne(self.unit_ids(shard)) {
            return Err(WorkError::malformed(
                &path,
                format!("not the units of shard {shard} of the manifest"),
            ));
        }
        Ok(units)
    }

    /// Every unit of the plan, by id.
    pub fn read_units(&self) -> Result<Vec<Unit>, WorkError> {
        let mut units: Vec<Unit> = Vec::with_capacity(self.manifest.units as usize);
        for shard in 0..self.shard_count() {
            units.extend(self.read_shard(shard)?);
        }
        Ok(units)
    }
}

/// Makes the entries of `dir` (a file just created or renamed into it) durable.
pub fn sync_dir(dir: &Path) -> Result<(), WorkError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| WorkError::io(dir, e))
}
