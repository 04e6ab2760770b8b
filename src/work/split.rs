//! `vkperft work split`: the unique positions at the split ply become the units of a plan
//! folder, in key order, cut into consecutive shards. The same request gives the same bytes.

use super::error::WorkError;
use super::folder::sync_dir;
use super::manifest::{Manifest, ShardInfo, FORMAT, MANIFEST_FILE};
use super::unit::Unit;
use crate::backend::MAX_DEPTH;
use crate::chess::movegen::legal_moves;
use crate::chess::Position;
use crate::unique::{expand, ExpansionOptions, UniqueError};
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
    let out = &request.out;
    let empty_folder = out.is_dir()
        && std::fs::read_dir(out)
            .map_err(|e| WorkError::io(out, e))?
            .next()
            .is_none();
    if out.exists() && !empty_folder {
        return Err(WorkError::OutExists { path: out.clone() });
    }
    std::fs::create_dir_all(out).map_err(|e| WorkError::io(out, e))?;

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
        by_root_move: true,
    };
    let (mut units, mut paths) = (0u64, 0u128);
    expand(
        &request.root,
        request.split_ply,
        &options,
        |_| {},
        |position| {
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
        },
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

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), WorkError> {
    let mut file = File::create(path).map_err(|e| WorkError::io(path, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| WorkError::io(path, e))
}
