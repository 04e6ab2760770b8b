//! Twin of `glsl/expand.comp` without a table: every position of a level gets space for its
//! children after the level from the append counter, and writes them there (boards, or leaf
//! entries with `COMPACT_LEAF`); a position whose children do not fit flags the overflow and
//! writes none.

use crate::chess::movegen::legal_moves;
use crate::gpu::layouts::{ChildRange, GpuU128, LeafEntry, StepConstants};
use crate::gpu::shader_layout::COMPACT_LEAF;
use crate::gpu::twin::buffers::{board_of, play_word, TwinBuffers};

/// Runs expand over `invocations` invocations of `step`'s level.
pub fn expand(buffers: &mut TwinBuffers, step: &StepConstants, invocations: u32) {
    let level = buffers.control.levels[step.level as usize];
    let output_offset = level.offset + level.count;
    let compact = step.flags & COMPACT_LEAF != 0;
    let capacity = if compact {
        buffers.control.capacity
    } else {
        buffers.control.inner_capacity
    };
    for index in buffers.dispatch_range(step, invocations) {
        let position = buffers.position(index);
        let moves = legal_moves(&position);
        let count = moves.len() as u32;
        let first = buffers.control.appended;
        buffers.control.appended = first.wrapping_add(count);
        buffers.work.count_expanded(step.remaining);
        if first.wrapping_add(count) > capacity.wrapping_sub(output_offset) {
            buffers.control.overflow |= 1;
            buffers.children[index as usize] = ChildRange::default();
            continue;
        }
        let start = output_offset + first;
        buffers.children[index as usize] = ChildRange {
            first: start,
            count,
        };
        if compact {
            buffers.counts[index as usize] = GpuU128::default();
        }
        for (slot, &m) in (start..).zip(moves.iter()) {
            if compact {
                let entry = LeafEntry {
                    parent: index,
                    play: play_word(m),
                };
                buffers.set_leaf_entry(slot, entry);
            } else {
                buffers.boards[slot as usize] = board_of(&position.play(m));
            }
        }
    }
}
