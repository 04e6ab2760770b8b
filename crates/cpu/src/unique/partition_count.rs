//! One partition of a counted ply on its own, read from the ply before's files: what a unit of
//! a unique-positions plan computes. Its set has the slots the plan gave it; a partition with
//! more positions than that is counted in two halves, as [`expand`](super::expand) does.

use super::error::UniqueError;
use super::partition::HashRange;
use super::pass::{fill, PassError, PassInput};
use super::set::{InsertError, PositionSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a partition's count reads and how.
pub struct PartitionJob<'a> {
    /// The positions files of the ply before, in range order.
    pub files: &'a [PathBuf],
    /// The ply counted.
    pub ply: u32,
    pub range: HashRange,
    /// Set entries of each pass.
    pub slots: usize,
    pub threads: usize,
    pub interrupted: fn() -> bool,
}

/// The count of one partition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionCount {
    /// Unique positions in the partition.
    pub unique: u64,
    /// Paths from the root to them.
    pub paths: u128,
    /// Paths to every child of the ply before, in the partition or not: perft(ply). The
    /// partitions of a ply must add up to it.
    pub children_paths: u128,
    /// Distinct positions of the ply before that were expanded.
    pub parents: u64,
    /// Passes over the ply before (more than one where the partition split).
    pub passes: u32,
}

/// Counts the positions of `job`'s range of its ply.
pub fn count_partition(job: &PartitionJob) -> Result<PartitionCount, UniqueError> {
    if job.threads == 0 {
        return Err(UniqueError::NoThreads);
    }
    let mut count = PartitionCount::default();
    let mut pending = vec![job.range];
    while let Some(range) = pending.pop() {
        let parents_done = AtomicU64::new(0);
        let input = PassInput {
            files: job.files,
            threads: job.threads,
            interrupted: job.interrupted,
            parents_done: &parents_done,
        };
        let set = PositionSet::<3>::new(job.slots);
        match fill(&input, range, &set, &mut |_| {}) {
            Ok(paths) => {
                count.unique += set.entries();
                count.paths += paths.in_range;
                count.children_paths = paths.all;
                count.parents = parents_done.load(Ordering::Relaxed);
                count.passes += 1;
            }
            Err(PassError::Insert(InsertError::Full)) => {
                drop(set);
                let ply = job.ply;
                let (low, high) = range.halves().ok_or(UniqueError::PathsOverflow { ply })?;
                pending.push(high);
                pending.push(low);
            }
            Err(PassError::Insert(InsertError::PathsOverflow)) => {
                return Err(UniqueError::PathsOverflow { ply: job.ply })
            }
            Err(PassError::Unique(error)) => return Err(error),
        }
    }
    Ok(count)
}
