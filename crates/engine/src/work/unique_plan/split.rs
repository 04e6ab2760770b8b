//! `vkperft work split --unique`: a plan whose units are the partitions of one ply of unique
//! positions. The split counts plies 1 to depth - 1 on this machine and keeps the last of them
//! in the plan folder (`plies/`, sorted and prefix-coded); each unit is one hash range of the
//! last ply, counted by a pass over those files, so the units depend on nothing but the plan
//! folder and run in any order on any machine that reads it. A deeper ply is a plan of its own:
//! its split counts the plies before it again (about a tenth of the last ply's work, which grows
//! with the partitions times the children of the ply before).
//!
//! As for a perft plan, a split that fails or is interrupted removes what it wrote, and one
//! killed outright leaves a folder without a manifest that the next split into it clears.

use super::super::error::WorkError;
use super::super::folder::{sync_dir, PLIES_DIR};
use super::super::manifest::UNIQUE_KIND;
use super::super::manifest::{FORMAT, MANIFEST_FILE};
use super::super::split::{in_plan_folder, write_synced};
use super::manifest::{ParentFile, PlyLine, UniqueManifest, UnitShard};
use crate::chess::Position;
use crate::unique::{
    counted_ply_partitions, expand, kept_ply_files, ExpansionOptions, UniqueError,
};
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct UniqueSplitRequest {
    pub root: Position,
    /// The ply whose unique positions the plan counts (at least 2).
    pub depth: u32,
    pub shards: usize,
    pub out: PathBuf,
    /// Memory of the split's expansion, and of each unit's set and buffers, in bytes.
    pub memory_bytes: usize,
    /// Threads of the split's expansion (and of the units, as the memory plan assumes).
    pub threads: usize,
    /// Cut the last ply into at least this many partitions (more where memory needs).
    pub min_partitions: u64,
    /// Polled while splitting: once it says so, the split stops and removes what it wrote.
    pub interrupted: fn() -> bool,
}

/// Writes the plan folder of `request` and returns its manifest.
pub fn split_unique(request: &UniqueSplitRequest) -> Result<UniqueManifest, WorkError> {
    if request.depth < 2 {
        return Err(WorkError::UniqueDepth {
            depth: request.depth,
        });
    }
    if request.shards == 0 {
        return Err(WorkError::NoShards);
    }
    in_plan_folder(&request.out, || write_plan(request))
}

fn write_plan(request: &UniqueSplitRequest) -> Result<UniqueManifest, WorkError> {
    let out = &request.out;
    let plies_dir = out.join(PLIES_DIR);
    let last = request.depth - 1;
    let options = ExpansionOptions {
        memory_bytes: request.memory_bytes,
        threads: request.threads,
        scratch_parent: out.clone(),
        state_dir: Some(plies_dir.clone()),
        by_root_move: false,
        keep_last_ply: true,
        interrupted: request.interrupted,
    };
    let counts = expand(&request.root, last, &options, |_| {}, None)?;
    let parent = counts.last().expect("at least one ply");
    let before = counts.len().checked_sub(2).map_or(1, |i| counts[i].unique);
    let (partitions, slots) = counted_ply_partitions(
        parent,
        before,
        request.memory_bytes,
        request.threads,
        request.min_partitions,
    );
    let mut parent_files = Vec::new();
    for path in kept_ply_files(&request.root, &plies_dir, last, false)? {
        let bytes = std::fs::metadata(&path)
            .map_err(|e| UniqueError::io(&path, e))?
            .len();
        let file = path
            .strip_prefix(out)
            .expect("the plies are in the plan folder")
            .to_string_lossy()
            .into_owned();
        parent_files.push(ParentFile { file, bytes });
    }
    let count = request.shards as u64;
    let shards = (0..count)
        .map(|shard| {
            let first = partitions * shard / count;
            UnitShard {
                first,
                units: partitions * (shard + 1) / count - first,
            }
        })
        .collect();
    let manifest = UniqueManifest {
        format: FORMAT,
        kind: UNIQUE_KIND.into(),
        tool: format!("vkperft {}", env!("CARGO_PKG_VERSION")),
        fen: request.root.to_fen(),
        depth: request.depth,
        plies: counts
            .iter()
            .map(|c| PlyLine {
                ply: c.ply,
                unique: c.unique,
                paths: c.paths.to_string(),
            })
            .collect(),
        parent_files,
        partitions,
        slots: slots as u64,
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
