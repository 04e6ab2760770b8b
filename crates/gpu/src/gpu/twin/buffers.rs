//! The chunk buffers of the twin, as the shaders see them (`glsl/common/buffers.glsl`), and
//! what both sides of a stage need: positions made from boards and leaf entries, 128-bit sums,
//! dispatch ranges.

use crate::chess::movegen::legal_moves;
use crate::chess::moves::Move;
use crate::chess::{NybbleBoard, Position};
use crate::gpu::layouts::{ChildRange, Control, GpuBoard, GpuU128, LeafEntry, StepConstants};
use crate::gpu::shader_layout::{
    CHILD_FLAG_DUPLICATE, CHILD_FLAG_FAST_FINAL, DEDUP_INPUT, DEDUP_SLOTS_PER_POSITION,
    WORKGROUP_SIZE, WORK_DEPTHS,
};
use crate::work_counters::ByDepth;
use std::ops::Range;

/// The move bits of a leaf entry's `play` word: `from | to << 6 | kind << 12`, as
/// [`Move::bits`] has them below its notation bit.
const PLAY_MOVE_BITS: u32 = 0x7fff;

/// The work counters the shaders add (`glsl/common/work.glsl`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StageWork {
    pub leaf_count_ops: u64,
    pub duplicates: u64,
    /// Moves the leaf counted by their null board's replies instead of making them.
    pub null_counted: u64,
    /// Positions whose children a stage made, by the dispatch's remaining depth.
    pub expanded: ByDepth,
}

impl StageWork {
    /// A position at `remaining` plies was expanded (the shaders' last counter takes every
    /// deeper one).
    pub fn count_expanded(&mut self, remaining: u32) {
        self.expanded.add(remaining.min(WORK_DEPTHS - 1), 1);
    }
}

/// One chunk's buffers: `boards`, `counts`, certify's `fast_counts` and TT `hashes` for the
/// levels before the compact leaf level, `children` and the dedup set for every level, the
/// `Control` block, and the work counters.
#[derive(Clone, Debug)]
pub struct TwinBuffers {
    pub boards: Vec<GpuBoard>,
    pub children: Vec<ChildRange>,
    pub counts: Vec<GpuU128>,
    pub fast_counts: Vec<GpuU128>,
    pub hashes: Vec<GpuU128>,
    pub dedup_set: Vec<u32>,
    pub control: Control,
    pub work: StageWork,
}

impl TwinBuffers {
    /// Buffers for `capacity` positions, `inner_capacity` of them before the leaf level.
    pub fn new(capacity: u32, inner_capacity: u32) -> TwinBuffers {
        TwinBuffers {
            boards: vec![GpuBoard::default(); inner_capacity as usize],
            children: vec![ChildRange::default(); capacity as usize],
            counts: vec![GpuU128::default(); inner_capacity as usize],
            fast_counts: vec![GpuU128::default(); inner_capacity as usize],
            hashes: vec![GpuU128::default(); inner_capacity as usize],
            dedup_set: vec![0; (capacity * DEDUP_SLOTS_PER_POSITION) as usize],
            control: Control::default(),
            work: StageWork::default(),
        }
    }

    /// The level's positions a dispatch of `invocations` invocations from
    /// `step.first_invocation` covers (those past the level's count do nothing).
    pub fn dispatch_range(&self, step: &StepConstants, invocations: u32) -> Range<u32> {
        let level = self.control.levels[step.level as usize];
        let first = step.first_invocation.min(level.count);
        let end = step
            .first_invocation
            .saturating_add(invocations)
            .min(level.count);
        level.offset + first..level.offset + end
    }

    /// The invocations an indirect dispatch of `level` runs: its workgroups as the
    /// `Control` block holds them (none after an overflow).
    pub fn indirect_invocations(&self, level: u32) -> u32 {
        let [x, y, z] = self.control.levels[level as usize].groups;
        x.saturating_mul(y)
            .saturating_mul(z)
            .saturating_mul(WORKGROUP_SIZE)
    }

    /// Whether the position at `index` of a level read with `step` is a duplicate, its counts
    /// its first occurrence's (`is_duplicate`).
    pub fn is_duplicate(&self, step: &StepConstants, index: u32) -> bool {
        step.flags & DEDUP_INPUT != 0
            && self.children[index as usize].count & CHILD_FLAG_DUPLICATE != 0
    }

    /// Adds a leaf entry's counts into its parent's low words: `exact`, and in certify `fast`
    /// unless the parent's fast count is final (`leaf_entry_add_to_parent`).
    pub fn add_to_parent(&mut self, parent: u32, exact: u32, fast: u32, certify: bool) {
        add_low_word(&mut self.counts[parent as usize], exact);
        let fast_final = self.children[parent as usize].count & CHILD_FLAG_FAST_FINAL != 0;
        if certify && !fast_final {
            add_low_word(&mut self.fast_counts[parent as usize], fast);
        }
    }

    /// The position at `index` of a level with boards.
    pub fn position(&self, index: u32) -> Position {
        position_of(self.boards[index as usize])
    }

    /// The leaf entry at `index` of a compact leaf level.
    pub fn leaf_entry(&self, index: u32) -> LeafEntry {
        bytemuck::cast(self.children[index as usize])
    }

    pub fn set_leaf_entry(&mut self, index: u32, entry: LeafEntry) {
        self.children[index as usize] = bytemuck::cast(entry);
    }

    /// The position of a leaf entry: its parent's, after its move.
    pub fn entry_position(&self, entry: LeafEntry) -> Position {
        let parent = self.position(entry.parent);
        let m = legal_moves(&parent)
            .iter()
            .copied()
            .find(|&m| play_word(m) == entry.play & PLAY_MOVE_BITS)
            .expect("a leaf entry holds a legal move of its parent");
        parent.play(m)
    }
}

/// The position a board holds (the shaders' `decode_board`).
pub fn position_of(board: GpuBoard) -> Position {
    NybbleBoard {
        planes: board.planes,
    }
    .to_position()
    .expect("the chunk's boards hold legal positions")
}

/// The board of a position (the shaders' `encode_board`).
pub fn board_of(position: &Position) -> GpuBoard {
    NybbleBoard::from_position(position).into()
}

/// A leaf entry's `play` word for move `m` (`leaf_entry_move` in `leaf_entry.glsl`).
pub fn play_word(m: Move) -> u32 {
    u32::from(m.bits()) & PLAY_MOVE_BITS
}

/// `a + b` as the shaders' `add128`.
pub fn add128(a: GpuU128, b: GpuU128) -> GpuU128 {
    (u128::from(a).wrapping_add(u128::from(b))).into()
}

/// Adds `amount` to the low 32-bit word of `value`, without carry (the leaf's `atomicAdd` on a
/// parent's `count_words`).
pub fn add_low_word(value: &mut GpuU128, amount: u32) {
    let low = (value.low as u32).wrapping_add(amount);
    value.low = value.low & !u64::from(u32::MAX) | u64::from(low);
}
