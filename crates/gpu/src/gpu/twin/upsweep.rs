//! Twin of `glsl/upsweep.comp`: a position's count is the sum of its children's (contiguous
//! after expand; a child marked as a duplicate counts its first occurrence's). Children in a
//! compact leaf level added their counts in themselves, and a position whose counts were final
//! before expansion (a table hit) keeps them. With a table, every other complete count is
//! stored, but a certify false hit's (the fast table would not have stored it).

use crate::gpu::layouts::{GpuU128, StepConstants};
use crate::gpu::shader_layout::{
    CHILD_COUNT_MASK, CHILD_FLAG_DUPLICATE, CHILD_FLAG_FAST_FINAL, CHILD_FLAG_RESOLVED,
    COMPACT_LEAF, DEDUP_CHILDREN,
};
use crate::gpu::twin::buffers::{add128, TwinBuffers};
use crate::gpu::twin::table::TwinTable;

/// Runs upsweep over `invocations` invocations of `step`'s level, with `table` if the run has
/// one.
pub fn upsweep(
    buffers: &mut TwinBuffers,
    table: Option<&TwinTable>,
    step: &StepConstants,
    invocations: u32,
) {
    let certify = table.is_some_and(TwinTable::certifies);
    for index in buffers.dispatch_range(step, invocations) {
        let range = buffers.children[index as usize];
        let flags = range.count & !CHILD_COUNT_MASK;
        if buffers.is_duplicate(step, index) || flags & CHILD_FLAG_RESOLVED != 0 {
            continue;
        }
        let i = index as usize;
        let (exact, fast) = if step.flags & COMPACT_LEAF != 0 {
            let exact = buffers.counts[i];
            (
                exact,
                if certify {
                    buffers.fast_counts[i]
                } else {
                    exact
                },
            )
        } else {
            let end = range.first + (range.count & CHILD_COUNT_MASK);
            let (mut exact, mut fast) = (GpuU128::default(), GpuU128::default());
            for child in range.first..end {
                let counted = counted_child(buffers, step, child);
                exact = add128(exact, buffers.counts[counted]);
                fast = add128(fast, buffers.fast_counts[counted]);
            }
            buffers.counts[i] = exact;
            if certify && flags & CHILD_FLAG_FAST_FINAL == 0 {
                buffers.fast_counts[i] = fast;
            }
            (exact, if certify { fast } else { exact })
        };
        if let Some(table) = table.filter(|table| table.enabled(step.remaining) && flags == 0) {
            let position = buffers.position(index);
            let hash = buffers.hashes[i].into();
            table.store(hash, &position, step.remaining, exact.into(), fast.into());
        }
    }
}

/// Where the counts of `child` are: its own, or its first occurrence's.
fn counted_child(buffers: &TwinBuffers, step: &StepConstants, child: u32) -> usize {
    let range = buffers.children[child as usize];
    if step.flags & DEDUP_CHILDREN != 0 && range.count & CHILD_FLAG_DUPLICATE != 0 {
        range.first as usize
    } else {
        child as usize
    }
}
