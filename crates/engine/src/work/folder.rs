//! A plan folder: `manifest.json`, the shard files of units, and `journal/` with the results.

use super::error::WorkError;
use super::manifest::Manifest;
use super::seal::PlanSeal;
use super::unit::Unit;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// The folder of a plan that holds its journal files.
pub const JOURNAL_DIR: &str = "journal";
/// The folder of a unique-positions plan that holds the plies its split counted.
pub const PLIES_DIR: &str = "plies";

pub struct PlanFolder {
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// The SHA-256 of `manifest.json`: the plan's identity in its journal records.
    pub seal: PlanSeal,
}

impl PlanFolder {
    /// Opens the plan in `dir`, checking its manifest (not yet its shards).
    pub fn open(dir: &Path) -> Result<PlanFolder, WorkError> {
        let (manifest, seal) = Manifest::read(dir)?;
        Ok(PlanFolder {
            dir: dir.to_path_buf(),
            manifest,
            seal,
        })
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

    /// The units of shard `shard`, read one at a time, after checking the whole file against
    /// the manifest's checksum.
    pub fn shard_units(&self, shard: usize) -> Result<ShardUnits, WorkError> {
        let info = self
            .manifest
            .shards
            .get(shard)
            .ok_or(WorkError::NoSuchShard {
                shard,
                shards: self.shard_count(),
            })?;
        let path = self.dir.join(&info.file);
        let open = || {
            File::open(&path)
                .map(|file| BufReader::with_capacity(1 << 20, file))
                .map_err(|e| WorkError::io(&path, e))
        };
        let mut crc = crc32fast::Hasher::new();
        let mut reader = open()?;
        loop {
            let chunk = reader.fill_buf().map_err(|e| WorkError::io(&path, e))?;
            if chunk.is_empty() {
                break;
            }
            crc.update(chunk);
            let read = chunk.len();
            reader.consume(read);
        }
        if format!("{:08x}", crc.finalize()) != info.crc32 {
            return Err(WorkError::Checksum { path });
        }
        Ok(ShardUnits {
            lines: open()?.lines(),
            expected: self.unit_ids(shard),
            line: 0,
            path,
            failed: false,
        })
    }

    /// Every unit of the plan, by id.
    pub fn read_units(&self) -> Result<Vec<Unit>, WorkError> {
        let mut units: Vec<Unit> = Vec::with_capacity(self.manifest.units as usize);
        for shard in 0..self.shard_count() {
            for unit in self.shard_units(shard)? {
                units.push(unit?);
            }
        }
        Ok(units)
    }
}

/// The units of a shard file, line by line; the first error ends them.
pub struct ShardUnits {
    lines: std::io::Lines<BufReader<File>>,
    expected: std::ops::Range<u64>,
    line: usize,
    path: PathBuf,
    failed: bool,
}

impl ShardUnits {
    fn unit(&mut self, line: Option<std::io::Result<String>>) -> Option<Result<Unit, WorkError>> {
        let path = &self.path;
        let number = self.line;
        let unit = match (line, self.expected.next()) {
            (None, None) => return None,
            (Some(line), Some(id)) => line
                .map_err(|e| WorkError::io(path, e))
                .and_then(|line| {
                    Unit::parse(&line).map_err(|reason| {
                        WorkError::malformed(path, format!("line {number}: {reason}"))
                    })
                })
                .and_then(|unit| {
                    if unit.id == id {
                        Ok(unit)
                    } else {
                        Err(WorkError::malformed(
                            path,
                            format!("line {number}: unit {}, expected unit {id}", unit.id),
                        ))
                    }
                }),
            _ => Err(WorkError::malformed(
                path,
                "not the units the manifest gives this shard",
            )),
        };
        Some(unit)
    }
}

impl Iterator for ShardUnits {
    type Item = Result<Unit, WorkError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        self.line += 1;
        let line = self.lines.next();
        let unit = self.unit(line);
        self.failed = matches!(unit, Some(Err(_)));
        unit
    }
}

/// Makes the entries of `dir` (a file just created or renamed into it) durable.
pub fn sync_dir(dir: &Path) -> Result<(), WorkError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| WorkError::io(dir, e))
}
