//! `vkperft work run` on a unique-positions plan: the units (partitions of the last ply) of
//! some shards counted one after another, each a pass over the ply before's files on every
//! thread, and each result journaled and synced before the next unit starts. A unit with a
//! result is skipped: its count is exact, so there is nothing to gain by computing it again.

use super::super::error::WorkError;
use super::super::journal::JournalWriter;
use super::folder::UniquePlan;
use super::journal::read_unique_journals;
use super::record::UniqueRecord;
use crate::unique::{count_partition, PartitionCount, PartitionJob, UniqueError};
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

/// Where a run stands before each unit, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UniqueRunProgress {
    /// Units of the chosen shards.
    pub units: u64,
    /// Units of the chosen shards with a result (journaled before or by this run).
    pub done: u64,
    /// Units this run computed, and the seconds they took.
    pub computed: u64,
    pub seconds: f64,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UniqueRunReport {
    pub computed: u64,
    /// Units of the chosen shards that already had a result.
    pub skipped: u64,
    /// This process's journal (none when nothing was left to compute).
    pub journal: Option<PathBuf>,
}

/// Counts every unit of `shards` without a journaled result on `threads` threads, telling
/// `progress` before each, and journals each result. Stops at the first error; what was
/// journaled stays.
pub fn run_unique_units(
    plan: &UniquePlan,
    shards: &[usize],
    threads: usize,
    interrupted: fn() -> bool,
    mut progress: impl FnMut(&UniqueRunProgress),
) -> Result<UniqueRunReport, WorkError> {
    for &shard in shards {
        if shard >= plan.shard_count() {
            return Err(WorkError::NoSuchShard {
                shard,
                shards: plan.shard_count(),
            });
        }
    }
    let done: HashSet<u64> = read_unique_journals(plan)?
        .records
        .iter()
        .map(|record| record.unit)
        .collect();
    let ids: Vec<u64> = shards.iter().flat_map(|&s| plan.unit_ids(s)).collect();
    let mut state = UniqueRunProgress {
        units: ids.len() as u64,
        done: ids.iter().filter(|id| done.contains(id)).count() as u64,
        computed: 0,
        seconds: 0.0,
    };
    let mut report = UniqueRunReport {
        skipped: state.done,
        ..UniqueRunReport::default()
    };
    if state.done == state.units {
        return Ok(report);
    }
    let files = plan.parent_files()?;
    // Opened and tried before the first unit: a read-only or full disk costs no computation.
    let mut journal = JournalWriter::create(&plan.dir)?;
    report.journal = Some(journal.path().to_path_buf());
    journal.probe()?;
    let start = Instant::now();
    for id in ids.into_iter().filter(|id| !done.contains(id)) {
        progress(&state);
        let unit_start = Instant::now();
        let count = count_unit(plan, id, &files, threads, interrupted)?;
        journal.append_line(
            &UniqueRecord {
                plan: plan.seal,
                unit: id,
                count,
                threads,
                seconds: unit_start.elapsed().as_secs_f64(),
            }
            .to_line(),
            id,
        )?;
        report.computed += 1;
        state.done += 1;
        state.computed += 1;
        state.seconds = start.elapsed().as_secs_f64();
    }
    Ok(report)
}

/// Counts unit `id` of `plan` from `files`, the plan's checked [`parent_files`](UniquePlan::parent_files),
/// and checks that the pass expanded every position of the ply before.
pub fn count_unit(
    plan: &UniquePlan,
    id: u64,
    files: &[PathBuf],
    threads: usize,
    interrupted: fn() -> bool,
) -> Result<PartitionCount, WorkError> {
    let count = count_partition(&PartitionJob {
        files,
        ply: plan.manifest.depth,
        range: plan.range(id),
        slots: plan.manifest.slots as usize,
        threads,
        interrupted,
    })?;
    // Each block holds whole positions, so the parents expanded are the ply's positions:
    // fewer means files of another ply or run were put in place of the plan's.
    let parent = plan.manifest.parent();
    if count.parents != parent.unique {
        return Err(UniqueError::corrupt(
            &plan.dir.join(&plan.manifest.parent_files[0].file),
            format!(
                "the files of ply {} hold {} positions, the plan {}",
                parent.ply, count.parents, parent.unique
            ),
        )
        .into());
    }
    Ok(count)
}
