//! Twin of `glsl/upsweep.comp` without a table: a position's count is the sum of its
//! children's (contiguous after expand; a child marked as a duplicate counts its first
//! occurrence's). Children in a compact leaf level added their counts in themselves, and a
//! position whose counts were final before expansion keeps them.

use crate::gpu::layouts::{GpuU128, StepConstants};
use crate::gpu::shader_layout::{
    CHILD_COUNT_MASK, CHILD_FLAG_DUPLICATE, CHILD_FLAG_RESOLVED, COMPACT_LEAF, DEDUP_CHILDREN,
    DEDUP_INPUT,
};
use crate::gpu::twin::buffers::{add128, TwinBuffers};

/// Runs upsweep over `invocations` invocations of `step`'s level.
pub fn upsweep(buffers: &mut TwinBuffers, step: &StepConstants, invocations: u32) {
    if step.flags & COMPACT_LEAF != 0 {
        return;
    }
    for index in buffers.dispatch_range(step, invocations) {
        let range = buffers.children[index as usize];
        let duplicate = step.flags & DEDUP_INPUT != 0 && range.count & CHILD_FLAG_DUPLICATE != 0;
        if duplicate || range.count & CHILD_FLAG_RESOLVED != 0 {
            continue;
        }
        let end = range.first + (range.count & CHILD_COUNT_MASK);
        let mut sum = GpuU128::default();
        for child in range.first..end {
            sum = add128(sum, buffers.counts[counted_child(buffers, step, child)]);
        }
        buffers.counts[index as usize] = sum;
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
