//! Twin of `glsl/leaf.comp` without a table: the last two plies fused. A position of the
//! chunk's own level is counted into `counts` (its own moves at one ply remaining, its
//! children's at two); a compact leaf level's entries are made from their parents, add their
//! counts into their parents' low words, and keep (fast count, count) in their entries.

use crate::chess::movegen::{count_legal, legal_moves};
use crate::chess::Position;
use crate::gpu::layouts::{GpuU128, LeafEntry, StepConstants};
use crate::gpu::shader_layout::{COMPACT_LEAF, LEAF_ENTRY_DUPLICATE};
use crate::gpu::twin::buffers::{add_low_word, StageWork, TwinBuffers};

/// Runs the leaf over `invocations` invocations of `step`'s level.
pub fn leaf(buffers: &mut TwinBuffers, step: &StepConstants, invocations: u32) {
    for index in buffers.dispatch_range(step, invocations) {
        if step.flags & COMPACT_LEAF != 0 {
            count_entry(buffers, step, index);
        } else {
            count_item(buffers, step, index);
        }
    }
}

/// The leaves two plies below `position`: each child's legal moves, counted without being
/// made (one count-op per child).
fn count_two_plies(work: &mut StageWork, position: &Position, remaining: u32) -> u64 {
    let moves = legal_moves(position);
    work.leaf_count_ops += moves.len() as u64;
    work.count_expanded(remaining);
    moves.iter().map(|&m| count_legal(&position.play(m))).sum()
}

fn count_item(buffers: &mut TwinBuffers, step: &StepConstants, index: u32) {
    let position = buffers.position(index);
    let count = if step.remaining == 1 {
        buffers.work.leaf_count_ops += 1;
        count_legal(&position)
    } else {
        count_two_plies(&mut buffers.work, &position, step.remaining)
    };
    buffers.counts[index as usize] = GpuU128::from(u128::from(count));
}

fn count_entry(buffers: &mut TwinBuffers, step: &StepConstants, index: u32) {
    let entry = buffers.leaf_entry(index);
    if entry.play & LEAF_ENTRY_DUPLICATE != 0 {
        return;
    }
    let position = buffers.entry_position(entry);
    // Two plies count at most 218^2 leaves: every count below fits a word.
    let count = count_two_plies(&mut buffers.work, &position, step.remaining) as u32;
    add_low_word(&mut buffers.counts[entry.parent as usize], count);
    let counted = LeafEntry {
        parent: count,
        play: count,
    };
    buffers.set_leaf_entry(index, counted);
}
