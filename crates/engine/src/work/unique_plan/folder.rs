//! A unique-positions plan folder: its manifest, the files of the ply before the last under
//! `plies/`, and `journal/` with the units' results.

use super::super::error::WorkError;
use super::super::folder::JOURNAL_DIR;
use super::super::manifest::MANIFEST_FILE;
use super::super::seal::PlanSeal;
use super::manifest::{is_unique_manifest, UniqueManifest};
use crate::unique::HashRange;
use std::path::{Path, PathBuf};

pub struct UniquePlan {
    pub dir: PathBuf,
    pub manifest: UniqueManifest,
    /// The SHA-256 of `manifest.json`: the plan's identity in its journal records.
    pub seal: PlanSeal,
}

/// Whether the folder `dir` holds a unique-positions plan (a manifest of that kind, sealed or
/// not: reading it checks the rest).
pub fn is_unique_plan(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join(MANIFEST_FILE))
        .is_ok_and(|text| is_unique_manifest(text.trim_end()))
}

impl UniquePlan {
    pub fn open(dir: &Path) -> Result<UniquePlan, WorkError> {
        let (manifest, seal) = UniqueManifest::read(dir)?;
        Ok(UniquePlan {
            dir: dir.to_path_buf(),
            manifest,
            seal,
        })
    }

    pub fn journal_dir(&self) -> PathBuf {
        self.dir.join(JOURNAL_DIR)
    }

    pub fn units(&self) -> u64 {
        self.manifest.partitions
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

    /// The hash range of unit `unit`.
    pub fn range(&self, unit: u64) -> HashRange {
        HashRange::nth_of(unit, self.manifest.partitions)
    }

    /// The files of the ply before the last, checked against the sizes the manifest gives.
    pub fn parent_files(&self) -> Result<Vec<PathBuf>, WorkError> {
        self.manifest
            .parent_files
            .iter()
            .map(|parent| {
                let path = self.dir.join(&parent.file);
                let bytes = std::fs::metadata(&path)
                    .map_err(|e| WorkError::io(&path, e))?
                    .len();
                if bytes != parent.bytes {
                    return Err(WorkError::malformed(
                        &path,
                        format!("{bytes} bytes, the manifest says {}", parent.bytes),
                    ));
                }
                Ok(path)
            })
            .collect()
    }
}
