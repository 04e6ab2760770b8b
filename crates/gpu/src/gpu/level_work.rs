//! What a chunk's levels count towards the work counters, as both executors (the
//! device runner and the CPU twin) read them from the chunk's `Control` block.

use crate::gpu::layouts::{Control, PositionLayout};
use crate::work_counters::ChunkWork;

/// A chunk of items `remaining` plies deep ended with `control` (overflowed or not), its first
/// `levels` levels known: the positions they hold were written (level 0, the items, was
/// uploaded), and an overflowed chunk's were wasted. Returns the positions in every known
/// level, the items included.
pub fn count_written_levels(
    work: &mut ChunkWork,
    layout: PositionLayout,
    control: &Control,
    remaining: u32,
    levels: u32,
) -> u64 {
    // Every level after the items is written; a level before the leaf level has the leaf
    // level's buffers and its own.
    let leaf_bytes = u128::from(layout.leaf_bytes());
    let inner_bytes = leaf_bytes + u128::from(layout.inner_bytes());
    let overflowed = control.overflow != 0;
    let known = levels.min(remaining.saturating_sub(1)) as usize;
    for (level, written) in control.levels.iter().enumerate().take(known).skip(1) {
        let depth = remaining - level as u32;
        let positions = u64::from(written.count);
        work.positions_written.add(depth, positions);
        if depth == 2 {
            let bytes = u128::from(positions) * leaf_bytes;
            work.bytes_written += bytes;
            work.leaf_level_bytes += bytes;
        } else {
            work.bytes_written += u128::from(positions) * inner_bytes;
        }
        if overflowed {
            work.wasted_positions += positions;
        }
    }
    control.levels[..known.max(1)]
        .iter()
        .map(|level| u64::from(level.count))
        .sum()
}
