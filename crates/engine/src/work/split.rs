//! `vkperft work split`: the unique positions at the split ply become the units of a plan
//! folder, in key order, cut into consecutive shards. The same request gives the same bytes.
//!
//! A split that fails or is interrupted removes what it wrote; one killed outright leaves a
//! folder without a manifest holding only a split's own files, which the next split into it
//! clears.

use super::error::WorkError;
use super::folder::{sync_dir, PLIES_DIR};
use super::manifest::{Manifest, ShardInfo, FORMAT, MANIFEST_FILE};
use super::unit::Unit;
use crate::backend::MAX_DEPTH;
use crate::chess::movegen::legal_moves;
use crate::chess::Position;
use crate::unique::{available_threads, expand, ExpansionOptions, UniqueError};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// All units in one file while their number is unknown; removed once the shards are written.
const ALL_UNITS_FILE: &str = "units.tmp";

#[derive(Clone, Debug)]
pub struct SplitRequest {
    pub root: Position,
    pub depth: u32,
    pub split_ply: u32,
    pub shards: usize,
    pub out: PathBuf,
    /// Memory for deduplicating the split ply, in bytes.
    pub memory_bytes: usize,
    /// Where sorted runs go while splitting (default: the plan folder).
    pub scratch_parent: Option<PathBuf>,
    /// Polled while splitting: once it says so, the split stops and removes what it wrote.
    pub interrupted: fn() -> bool,
}

impl SplitRequest {
    fn check(&self) -> Result<(), WorkError> {
        if self.depth > MAX_DEPTH {
            return Err(WorkError::Depth {
                depth: self.depth,
                max: MAX_DEPTH,
            });
        }
        if self.split_ply == 0 || self.split_ply >= self.depth {
            return Err(WorkError::SplitPly {
                split_ply: self.split_ply,
                depth: self.depth,
            });
        }
        if self.shards == 0 {
            return Err(WorkError::NoShards);
        }
        Ok(())
    }
}

/// Writes the plan folder of `request` and returns its manifest.
pub fn split(request: &SplitRequest) -> Result<Manifest, WorkError> {
    request.check()?;
    in_plan_folder(&request.out, || write_plan(request))
}

/// Runs `write` into the plan folder `out`, made for it (or cleared of a killed split's
/// leftovers); if it fails, what it wrote is removed, and the folder if it was made here.
pub(super) fn in_plan_folder<M>(
    out: &Path,
    write: impl FnOnce() -> Result<M, WorkError>,
) -> Result<M, WorkError> {
    let created = !out.exists();
    if !created {
        clear_leftovers(out)?;
    }
    std::fs::create_dir_all(out).map_err(|e| WorkError::io(out, e))?;
    let written = write();
    if written.is_err() {
        // Best effort: the error says what went wrong, and a leftover is cleared next time.
        let _ = remove_split_files(out);
        if created {
            let _ = std::fs::remove_dir(out);
        }
    }
    written
}

/// Whether `name` is a file a split writes before its manifest (or its scratch folder, or
/// the plies a unique-positions plan keeps).
fn is_split_file(name: &str) -> bool {
    let shard = name
        .strip_prefix("shard-")
        .and_then(|rest| rest.strip_suffix(".jsonl"))
        .is_some_and(|number| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()));
    shard
        || name == ALL_UNITS_FILE
        || name == format!("{MANIFEST_FILE}.tmp")
        || name.starts_with(".vkperft-unique-")
        || name == PLIES_DIR
}

/// Refuses `out` unless it is an empty folder or what a split killed before its manifest
/// left there, which it removes.
fn clear_leftovers(out: &Path) -> Result<(), WorkError> {
    let refuse = || WorkError::OutExists {
        path: out.to_path_buf(),
    };
    if !out.is_dir() || out.join(MANIFEST_FILE).exists() {
        return Err(refuse());
    }
    for entry in std::fs::read_dir(out).map_err(|e| WorkError::io(out, e))? {
        let entry = entry.map_err(|e| WorkError::io(out, e))?;
        if !entry.file_name().to_str().is_some_and(is_split_file) {
            return Err(refuse());
        }
    }
    remove_split_files(out)
}

/// Removes the files and scratch folders of a split from `out`.
fn remove_split_files(out: &Path) -> Result<(), WorkError> {
    for entry in std::fs::read_dir(out).map_err(|e| WorkError::io(out, e))? {
        let entry = entry.map_err(|e| WorkError::io(out, e))?;
        if !entry.file_name().to_str().is_some_and(is_split_file) {
            continue;
        }
        let path = entry.path();
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.map_err(|e| WorkError::io(&path, e))?;
    }
    Ok(())
}

fn write_plan(request: &SplitRequest) -> Result<Manifest, WorkError> {
    let out = &request.out;
    let root_moves: Vec<String> = legal_moves(&request.root)
        .iter()
        .map(|m| m.to_string())
        .collect();
    let all_path = out.join(ALL_UNITS_FILE);
    let (units, paths) = write_all_units(request, &root_moves, &all_path)?;
    let shards = write_shards(out, &all_path, units, request.shards)?;
    std::fs::remove_file(&all_path).map_err(|e| WorkError::io(&all_path, e))?;

    let manifest = Manifest {
        format: FORMAT,
        tool: format!("vkperft {}", env!("CARGO_PKG_VERSION")),
        fen: request.root.to_fen(),
        depth: request.depth,
        split_ply: request.split_ply,
        units,
        paths: paths.to_string(),
        root_moves,
        shards,
    };
    // Written aside and renamed: a folder with a manifest is a whole plan.
    let staged = out.join(format!("{MANIFEST_FILE}.tmp"));
    write_synced(&staged, manifest.to_text().as_bytes())?;
    let final_path = out.join(MANIFEST_FILE);
    std::fs::rename(&staged, &final_path).map_err(|e| WorkError::io(&final_path, e))?;
    sync_dir(out)?;
    Ok(manifest)
}

/// Expands to the split ply and writes every unit to `path`; returns their number and paths.
fn write_all_units(
    request: &SplitRequest,
    root_moves: &[String],
    path: &Path,
) -> Result<(u64, u128), WorkError> {
    let file = File::create(path).map_err(|e| WorkError::io(path, e))?;
    let mut all = BufWriter::with_capacity(1 << 20, file);
    let options = ExpansionOptions {
        memory_bytes: request.memory_bytes,
        scratch_parent: request
            .scratch_parent
            .clone()
            .unwrap_or_else(|| request.out.clone()),
        threads: available_threads(),
        state_dir: None,
        by_root_move: true,
        keep_last_ply: false,
        interrupted: request.interrupted,
    };
    let (mut units, mut paths) = (0u64, 0u128);
    expand(
        &request.root,
        request.split_ply,
        &options,
        |_| {},
        Some(&mut |position| {
            let fen = position
                .key
                .to_position()
                .map_err(|e| UniqueError::BadKey(e.to_string()))?
                .to_fen();
            let unit = Unit {
                id: units,
                fen,
                depth: request.depth - request.split_ply,
                paths: position.paths(),
                roots: position
                    .roots
                    .iter()
                    .map(|&(index, paths)| (root_moves[usize::from(index)].clone(), paths))
                    .collect(),
            };
            units += 1;
            paths += unit.paths;
            all.write_all(unit.to_line().as_bytes())
                .map_err(|e| UniqueError::io(path, e))
        }),
    )?;
    all.flush().map_err(|e| WorkError::io(path, e))?;
    Ok((units, paths))
}

/// Cuts the units of `all_path` into `shards` files of consecutive units, as even as can be.
fn write_shards(
    out: &Path,
    all_path: &Path,
    units: u64,
    shards: usize,
) -> Result<Vec<ShardInfo>, WorkError> {
    let file = File::open(all_path).map_err(|e| WorkError::io(all_path, e))?;
    let mut lines = BufReader::with_capacity(1 << 20, file).lines();
    let mut infos = Vec::with_capacity(shards);
    let count = shards as u64;
    for shard in 0..count {
        let first = units * shard / count;
        let end = units * (shard + 1) / count;
        let name = format!("shard-{shard:05}.jsonl");
        let path = out.join(&name);
        let file = File::create(&path).map_err(|e| WorkError::io(&path, e))?;
        let mut writer = BufWriter::with_capacity(1 << 20, file);
        let mut crc = crc32fast::Hasher::new();
        for _ in first..end {
            let mut line = lines
                .next()
                .unwrap_or_else(|| Err(std::io::ErrorKind::UnexpectedEof.into()))
                .map_err(|e| WorkError::io(all_path, e))?;
            line.push('\n');
            crc.update(line.as_bytes());
            writer
                .write_all(line.as_bytes())
                .map_err(|e| WorkError::io(&path, e))?;
        }
        writer
            .into_inner()
            .map_err(|e| WorkError::io(&path, e.into_error()))?
            .sync_all()
            .map_err(|e| WorkError::io(&path, e))?;
        infos.push(ShardInfo {
            file: name,
            first,
            units: end - first,
            crc32: format!("{:08x}", crc.finalize()),
        });
    }
    Ok(infos)
}

pub(super) fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), WorkError> {
    let mut file = File::create(path).map_err(|e| WorkError::io(path, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| WorkError::io(path, e))
}
