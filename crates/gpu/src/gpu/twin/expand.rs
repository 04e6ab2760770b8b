//! Twin of `glsl/expand.comp`: every position of a level gets space for its children after the
//! level from the append counter, and writes them there (boards, or leaf entries with
//! `COMPACT_LEAF`); a position whose children do not fit flags the overflow and writes none.
//! With a table, a position is probed first: a hit gives its counts and no children, a certify
//! false hit its final fast count; a duplicate gets no children; the children of a level
//! before a deduplicated one get their hashes (`DEDUP_OUTPUT`).

use crate::chess::movegen::legal_moves;
use crate::chess::Position;
use crate::gpu::layouts::{ChildRange, GpuU128, LeafEntry, StepConstants};
use crate::gpu::shader_layout::{
    CHILD_FLAG_FAST_FINAL, CHILD_FLAG_RESOLVED, COMPACT_LEAF, DEDUP_INPUT, DEDUP_OUTPUT,
};
use crate::gpu::twin::buffers::{board_of, play_word, TwinBuffers};
use crate::gpu::twin::table::TwinTable;
use crate::tt::Probe;

/// Runs expand over `invocations` invocations of `step`'s level, with `table` if the run has
/// one.
pub fn expand(
    buffers: &mut TwinBuffers,
    table: Option<&TwinTable>,
    step: &StepConstants,
    invocations: u32,
) {
    let level = buffers.control.levels[step.level as usize];
    let output_offset = level.offset + level.count;
    let compact = step.flags & COMPACT_LEAF != 0;
    let capacity = if compact {
        buffers.control.capacity
    } else {
        buffers.control.inner_capacity
    };
    for index in buffers.dispatch_range(step, invocations) {
        if buffers.is_duplicate(step, index) {
            continue;
        }
        let position = buffers.position(index);
        let Some(flags) = probe(buffers, table, step, index, &position) else {
            continue;
        };
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
            count: count | flags,
        };
        if compact {
            buffers.counts[index as usize] = GpuU128::default();
            if flags & CHILD_FLAG_FAST_FINAL == 0 {
                buffers.fast_counts[index as usize] = GpuU128::default();
            }
        }
        let hashed = !compact && step.flags & DEDUP_OUTPUT != 0;
        for (slot, &m) in (start..).zip(moves.iter()) {
            if compact {
                let entry = LeafEntry {
                    parent: index,
                    play: play_word(m),
                };
                buffers.set_leaf_entry(slot, entry);
            } else {
                let child = position.play(m);
                if let (true, Some(table)) = (hashed, table) {
                    buffers.hashes[slot as usize] = table.hash(&child, step.remaining - 1).into();
                }
                buffers.boards[slot as usize] = board_of(&child);
            }
        }
    }
}

/// The table's answer for the level's position `index`: `None` for a hit (its counts are
/// written, it gets no children), else the flags its children's range carries
/// (`CHILD_FLAG_FAST_FINAL` after a certify false hit, its fast count written). Its hash is
/// left in `hashes` whenever the table is probed.
fn probe(
    buffers: &mut TwinBuffers,
    table: Option<&TwinTable>,
    step: &StepConstants,
    index: u32,
    position: &Position,
) -> Option<u32> {
    let Some(table) = table.filter(|table| table.enabled(step.remaining)) else {
        return Some(0);
    };
    let i = index as usize;
    let hash = if step.flags & DEDUP_INPUT != 0 {
        buffers.hashes[i].into()
    } else {
        let hash = table.hash(position, step.remaining);
        buffers.hashes[i] = hash.into();
        hash
    };
    let certify = table.certifies();
    match table.probe(hash, position, step.remaining) {
        Probe::Hit { exact, fast } => {
            buffers.counts[i] = exact.into();
            if certify {
                buffers.fast_counts[i] = fast.into();
            }
            buffers.children[i] = ChildRange {
                first: 0,
                count: CHILD_FLAG_RESOLVED,
            };
            None
        }
        Probe::FalseHit { fast } => {
            buffers.fast_counts[i] = fast.into();
            Some(CHILD_FLAG_FAST_FINAL)
        }
        Probe::Miss => Some(0),
    }
}
