//! Unique positions per ply (OEIS A083276 for the start position), in partitions that each fit
//! a memory budget: each ply's positions are split by a hash of their exact key, each partition
//! expands the previous ply from disk and keeps its own children in memory, and the plies kept
//! go to disk sorted and prefix-coded. Its last ply is also the unit set of a work plan
//! (`vkperft work split`), and the partitions of a ply can be counted one at a time (the
//! units of a unique-positions plan, `vkperft work split --unique`).

mod error;
mod expansion;
mod folder;
mod key;
mod partition;
mod partition_count;
mod pass;
mod ply_file;
mod set;
#[cfg(test)]
mod tests;

pub use error::UniqueError;
pub use expansion::{
    available_threads, counted_ply_partitions, expand, kept_ply_files, never_interrupted,
    smallest_budget, ExpansionOptions, LastPly, PlyCount, Progress, UniquePosition,
};
pub use key::KEY_BYTES;
pub use partition::HashRange;
pub use partition_count::{count_partition, PartitionCount, PartitionJob};
