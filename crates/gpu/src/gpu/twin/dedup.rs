//! Twin of `glsl/dedup.comp`: each position of a level inserts itself into an open-addressing
//! set keyed by its TT hash, and one whose slot holds an equal board is marked a duplicate of
//! it; `DEDUP_CLEAR` clears the level's slots first, and `DEDUP_RESOLVE`, after the leaf, adds
//! each duplicate leaf entry's first occurrence's count into its own parent. The twin inserts
//! in the level's order, so a first occurrence is the earliest; the device may take any.

use crate::chess::{Hash128, Zobrist};
use crate::gpu::layouts::{ChildRange, GpuBoard, LeafEntry, StepConstants};
use crate::gpu::shader_layout::{
    CHILD_FLAG_DUPLICATE, COMPACT_LEAF, DEDUP_CLEAR, DEDUP_MAX_PROBES, DEDUP_RESOLVE,
    DEDUP_SLOTS_PER_POSITION, LEAF_ENTRY_DUPLICATE,
};
use crate::gpu::twin::buffers::{board_of, TwinBuffers};

/// Runs dedup over `invocations` invocations of `step`'s level; `zobrist` gives the hashes of
/// a compact leaf level's positions (the device makes them from their parents' hashes), and
/// `certify` resolves fast counts beside counts.
pub fn dedup(
    buffers: &mut TwinBuffers,
    zobrist: &Zobrist,
    certify: bool,
    step: &StepConstants,
    invocations: u32,
) {
    let offset = buffers.control.levels[step.level as usize].offset;
    for index in buffers.dispatch_range(step, invocations) {
        let i = index - offset;
        if step.flags & DEDUP_CLEAR != 0 {
            let slots = i * DEDUP_SLOTS_PER_POSITION..(i + 1) * DEDUP_SLOTS_PER_POSITION;
            buffers.dedup_set[slots.start as usize..slots.end as usize].fill(0);
        } else if step.flags & DEDUP_RESOLVE != 0 {
            resolve_duplicate(buffers, index, offset, certify);
        } else {
            insert(buffers, zobrist, step, index, offset);
        }
    }
}

/// The board of the level's position at `index` and its TT hash.
fn level_key(
    buffers: &TwinBuffers,
    zobrist: &Zobrist,
    step: &StepConstants,
    index: u32,
) -> (GpuBoard, Hash128) {
    if step.flags & COMPACT_LEAF != 0 {
        let position = buffers.entry_position(buffers.leaf_entry(index));
        let hash = zobrist.hash(&position) ^ zobrist.depth_key(step.remaining);
        (board_of(&position), hash)
    } else {
        let hash = Hash128::from(buffers.hashes[index as usize]);
        (buffers.boards[index as usize], hash)
    }
}

fn insert(
    buffers: &mut TwinBuffers,
    zobrist: &Zobrist,
    step: &StepConstants,
    index: u32,
    offset: u32,
) {
    let compact = step.flags & COMPACT_LEAF != 0;
    let (board, hash) = level_key(buffers, zobrist, step, index);
    let count = buffers.control.levels[step.level as usize].count;
    let size = DEDUP_SLOTS_PER_POSITION * count;
    let mut slot = ((u128::from(hash.lo) * u128::from(size)) >> 64) as u32;
    if !compact {
        buffers.children[index as usize] = ChildRange::default();
    }
    for _ in 0..DEDUP_MAX_PROBES {
        let claimed = buffers.dedup_set[slot as usize];
        if claimed == 0 {
            buffers.dedup_set[slot as usize] = index - offset + 1;
            return;
        }
        let first = offset + claimed - 1;
        if level_key(buffers, zobrist, step, first).0 == board {
            if compact {
                let entry = buffers.leaf_entry(index);
                let duplicate = LeafEntry {
                    play: LEAF_ENTRY_DUPLICATE | (claimed - 1),
                    ..entry
                };
                buffers.set_leaf_entry(index, duplicate);
            } else {
                buffers.children[index as usize] = ChildRange {
                    first,
                    count: CHILD_FLAG_DUPLICATE,
                };
            }
            buffers.work.duplicates += 1;
            return;
        }
        slot = if slot + 1 == size { 0 } else { slot + 1 };
    }
    // A crowded neighbourhood: searched on its own, which is only slower.
}

fn resolve_duplicate(buffers: &mut TwinBuffers, index: u32, offset: u32, certify: bool) {
    let entry = buffers.leaf_entry(index);
    if entry.play & LEAF_ENTRY_DUPLICATE == 0 {
        return;
    }
    // The first occurrence's entry holds (fast count, count) since the leaf.
    let counted = buffers.leaf_entry(offset + (entry.play & !LEAF_ENTRY_DUPLICATE));
    buffers.add_to_parent(entry.parent, counted.play, counted.parent, certify);
}
