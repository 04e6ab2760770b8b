//! Twin of `glsl/leaf.comp`: the last two plies fused. A position of the chunk's own level is
//! counted into `counts` (its own moves at one ply remaining, its children's at two); a compact
//! leaf level's entries are made from their parents, add their counts into their parents' low
//! words, and keep (fast count, count) in their entries. With a table, a position two plies
//! from the leaves is probed first and its count stored after (not after a certify false
//! hit, whose fast count is final). At two plies the moves that leave the opponent's replies
//! those of the position with the turn passed are counted by those replies, not made: the CPU
//! generator's rule (`chess::specialized::neutral_moves`), which
//! `glsl/common/null_replies.glsl` must match.

use crate::chess::movegen::{count_legal, legal_moves};
use crate::chess::specialized::neutral_moves;
use crate::chess::Position;
use crate::gpu::layouts::{GpuU128, LeafEntry, StepConstants};
use crate::gpu::shader_layout::{COMPACT_LEAF, LEAF_ENTRY_DUPLICATE};
use crate::gpu::twin::buffers::{StageWork, TwinBuffers};
use crate::gpu::twin::table::TwinTable;
use crate::tt::Probe;

/// Runs the leaf over `invocations` invocations of `step`'s level, with `table` if the run
/// has one.
pub fn leaf(
    buffers: &mut TwinBuffers,
    table: Option<&TwinTable>,
    step: &StepConstants,
    invocations: u32,
) {
    for index in buffers.dispatch_range(step, invocations) {
        if step.flags & COMPACT_LEAF != 0 {
            count_entry(buffers, table, step, index);
        } else {
            count_item(buffers, table, step, index);
        }
    }
}

/// The leaves two plies below `position`: each child's legal moves, counted without being
/// made (one count-op per child), but for the neutral moves, counted by the null board's
/// replies.
fn count_two_plies(work: &mut StageWork, position: &Position, remaining: u32) -> u64 {
    let moves = legal_moves(position);
    work.count_expanded(remaining);
    let neutral = neutral_moves(position).unwrap_or_default();
    let null_replies = if neutral.is_empty() {
        0
    } else {
        count_legal(&passed(position))
    };
    let mut count = neutral.len() as u64 * null_replies;
    for &m in moves.iter() {
        if !neutral.contains(&(m.from(), m.to())) {
            work.leaf_count_ops += 1;
            count += count_legal(&position.play(m));
        }
    }
    work.null_counted += neutral.len() as u64;
    count
}

/// `position` with the turn passed: no en passant square, the same castling rights.
fn passed(position: &Position) -> Position {
    let mut setup = position.to_setup();
    setup.turn = !setup.turn;
    setup.ep_square = None;
    Position::from_setup(&setup).expect("a side not in check may pass its turn")
}

/// (count, fast count) of the leaves two plies below `position`, from the table or counted
/// (and then stored).
fn count_with_table(
    work: &mut StageWork,
    table: Option<&TwinTable>,
    position: &Position,
    remaining: u32,
) -> (u64, u64) {
    let Some(table) = table.filter(|table| table.enabled(remaining)) else {
        let count = count_two_plies(work, position, remaining);
        return (count, count);
    };
    let hash = table.hash(position, remaining);
    let probe = table.probe(hash, position, remaining);
    if let Probe::Hit { exact, fast } = probe {
        return (exact as u64, fast as u64);
    }
    let count = count_two_plies(work, position, remaining);
    match probe {
        Probe::FalseHit { fast } => (count, fast as u64),
        _ => {
            let stored = u128::from(count);
            table.store(hash, position, remaining, stored, stored);
            (count, count)
        }
    }
}

fn count_item(
    buffers: &mut TwinBuffers,
    table: Option<&TwinTable>,
    step: &StepConstants,
    index: u32,
) {
    let position = buffers.position(index);
    let (count, fast) = if step.remaining == 1 {
        buffers.work.leaf_count_ops += 1;
        let count = count_legal(&position);
        (count, count)
    } else {
        count_with_table(&mut buffers.work, table, &position, step.remaining)
    };
    buffers.counts[index as usize] = GpuU128::from(u128::from(count));
    if table.is_some_and(TwinTable::certifies) {
        buffers.fast_counts[index as usize] = GpuU128::from(u128::from(fast));
    }
}

fn count_entry(
    buffers: &mut TwinBuffers,
    table: Option<&TwinTable>,
    step: &StepConstants,
    index: u32,
) {
    let entry = buffers.leaf_entry(index);
    if entry.play & LEAF_ENTRY_DUPLICATE != 0 {
        return;
    }
    let position = buffers.entry_position(entry);
    // Two plies count at most 218^2 leaves: every count below fits a word.
    let (count, fast) = count_with_table(&mut buffers.work, table, &position, step.remaining);
    let (count, fast) = (count as u32, fast as u32);
    let certify = table.is_some_and(TwinTable::certifies);
    buffers.add_to_parent(entry.parent, count, fast, certify);
    let counted = LeafEntry {
        parent: fast,
        play: count,
    };
    buffers.set_leaf_entry(index, counted);
}
