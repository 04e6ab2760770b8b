//! Rust twins of what the shaders see (`glsl/common/buffers.glsl`, `glsl/common/board.glsl`),
//! with their sizes pinned. The `layout_probe` shader checks the offsets at run time (see the
//! tests of the backend).

use super::shader_layout::{
    DEDUP_SLOTS_PER_POSITION, MAX_LEVELS, STAT_COLUMNS, TT_MAX_SEGMENTS, WORKGROUP_SIZE,
};
use crate::chess::moves::MAX_MOVES;
use crate::chess::{Hash128, NybbleBoard};
use crate::tt::{TtConfig, TtMode};
use bytemuck::{Pod, Zeroable};

/// `GpuBoard`: the NybbleBoard's four bit planes (32 bytes, 8-byte aligned in std430).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Pod, Zeroable)]
pub struct GpuBoard {
    pub planes: [u64; 4],
}

const _: () = assert!(size_of::<GpuBoard>() == 32);

impl From<NybbleBoard> for GpuBoard {
    fn from(board: NybbleBoard) -> GpuBoard {
        GpuBoard {
            planes: board.planes,
        }
    }
}

/// `children[i]` (a `uvec2`): first child index and number of children.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct ChildRange {
    pub first: u32,
    pub count: u32,
}

const _: () = assert!(size_of::<ChildRange>() == 8);

/// `children[i]` of a compact leaf level (a `uvec2`): the parent's index and the move
/// (`LEAF_ENTRY_DUPLICATE` in `shader_layout.rs` gives the word's other meanings).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct LeafEntry {
    pub parent: u32,
    pub play: u32,
}

const _: () = assert!(size_of::<LeafEntry>() == size_of::<ChildRange>());

/// A `Level` of the `Control` block: where a level's positions are, how many, and the
/// workgroups that cover them (a `VkDispatchIndirectCommand` at [`LEVEL_GROUPS_OFFSET`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Level {
    pub offset: u32,
    pub count: u32,
    pub groups: [u32; 3],
    pub unused: [u32; 3],
}

const _: () = assert!(size_of::<Level>() == 32);

/// Bytes from the start of a `Level` to its workgroup counts.
pub const LEVEL_GROUPS_OFFSET: u64 = 8;

impl Level {
    /// A level of `count` positions from `offset`, dispatched with at most `max_groups_x`
    /// workgroups along x (as `next_level.comp` sets them).
    pub fn new(offset: u32, count: u32, max_groups_x: u32) -> Level {
        let groups = count.div_ceil(WORKGROUP_SIZE);
        let along_x = groups.min(max_groups_x);
        let along_y = if along_x == 0 {
            1
        } else {
            groups.div_ceil(along_x)
        };
        Level {
            offset,
            count,
            groups: [along_x, along_y, 1],
            unused: [0; 3],
        }
    }
}

/// The `Control` block: the append counter and overflow flag of the level being written, the
/// chunk's limits (positions of every level, positions of the levels before the compact leaf
/// level), and its levels.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub struct Control {
    pub appended: u32,
    pub overflow: u32,
    pub capacity: u32,
    pub inner_capacity: u32,
    pub max_groups_x: u32,
    pub unused: [u32; 3],
    pub levels: [Level; MAX_LEVELS as usize],
}

const _: () = assert!(size_of::<Control>() == 32 + 32 * MAX_LEVELS as usize);

impl Control {
    /// Bytes from the start of the block to level `level`'s workgroup counts.
    pub const fn groups_offset(level: u32) -> u64 {
        (size_of::<Control>() - size_of::<[Level; MAX_LEVELS as usize]>()) as u64
            + level as u64 * size_of::<Level>() as u64
            + LEVEL_GROUPS_OFFSET
    }
}

impl Default for Control {
    fn default() -> Control {
        Zeroable::zeroed()
    }
}

/// The `Step` push constants.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct StepConstants {
    /// The level the dispatch reads (its offset and count are in the `Control` block).
    pub level: u32,
    /// Plies below the input positions.
    pub remaining: u32,
    /// `DEDUP_*` and `COMPACT_LEAF` bits.
    pub flags: u32,
    /// The level's position of the dispatch's first invocation: a level dispatched by the host
    /// goes out in parts (`record_dispatch` advances it part by part); 0 for an indirect
    /// dispatch.
    pub first_invocation: u32,
}

const _: () = assert!(size_of::<StepConstants>() == 16);

/// A 128-bit count or hash as the shaders hold it (`u64vec2`): low word, high word.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct GpuU128 {
    pub low: u64,
    pub high: u64,
}

const _: () = assert!(size_of::<GpuU128>() == 16);

impl From<GpuU128> for u128 {
    fn from(value: GpuU128) -> u128 {
        u128::from(value.high) << 64 | u128::from(value.low)
    }
}

impl From<u128> for GpuU128 {
    fn from(value: u128) -> GpuU128 {
        GpuU128 {
            low: value as u64,
            high: (value >> 64) as u64,
        }
    }
}

/// A hash as the shaders hold it: `Hash128::lo` is the low word.
impl From<Hash128> for GpuU128 {
    fn from(hash: Hash128) -> GpuU128 {
        GpuU128 {
            low: hash.lo,
            high: hash.hi,
        }
    }
}

impl From<GpuU128> for Hash128 {
    fn from(words: GpuU128) -> Hash128 {
        Hash128 {
            hi: words.high,
            lo: words.low,
        }
    }
}

/// A chunk's levels before its compact leaf level hold at most this share (1 / this) of its
/// positions: they are about the leaf level's size over its parents' branching factor, a few
/// percent, unless most parents are table hits.
pub const INNER_SHARE: u64 = 4;

/// The levels before the compact leaf level hold at most this many positions: their children
/// then number below 2^32 (fewer than MAX_MOVES each), so an expand's 32-bit append counter
/// and offsets cannot wrap, whatever the level that overflows.
pub const MAX_INNER_POSITIONS: u64 = u32::MAX as u64 / MAX_MOVES as u64;

/// Positions the levels before the compact leaf level may hold in a chunk of `capacity`.
pub const fn inner_positions(capacity: u64) -> u64 {
    let share = capacity / INNER_SHARE;
    if share < MAX_INNER_POSITIONS {
        share
    } else {
        MAX_INNER_POSITIONS
    }
}

/// What a chunk keeps per position. Every level but the compact leaf level keeps its board,
/// child range and count; with a table also its TT hash and dedup set slots; in certify also
/// its fast count; in a move-type statistics run also its statistics (and in certify its fast
/// statistics), `STAT_COLUMNS` 128-bit values each. The compact leaf level keeps one leaf entry per position (its counts go to
/// its parent), and with a table its dedup set slots. Buffers a run does not use are left out
/// of the memory budget, so that more positions fit without a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionLayout {
    pub table: bool,
    pub fast_counts: bool,
    pub move_stats: bool,
}

impl PositionLayout {
    /// Every buffer of a node count: for the diagnostics, and the layout a budget must fit.
    /// A statistics run's layout is checked against the budget when it starts.
    pub const FULL: PositionLayout = PositionLayout {
        table: true,
        fast_counts: true,
        move_stats: false,
    };

    /// A node count without a table.
    pub const PLAIN: PositionLayout = PositionLayout {
        table: false,
        fast_counts: false,
        move_stats: false,
    };

    /// What a run of a table of `config` keeps (its mode, and whether it counts statistics).
    pub fn for_config(config: &TtConfig) -> PositionLayout {
        PositionLayout {
            table: config.mode != TtMode::Off,
            fast_counts: config.mode == TtMode::Certify,
            move_stats: config.move_stats,
        }
    }

    /// Device memory of one position of the compact leaf level: its entry and dedup slots.
    pub const fn leaf_bytes(self) -> u64 {
        let mut bytes = size_of::<LeafEntry>();
        if self.table {
            bytes += DEDUP_SLOTS_PER_POSITION as usize * size_of::<u32>();
        }
        bytes as u64
    }

    /// Device memory of one position of the other levels, beyond what a leaf position takes
    /// (every position has a `children` slot and dedup slots).
    pub const fn inner_bytes(self) -> u64 {
        let mut bytes = size_of::<GpuBoard>() + size_of::<GpuU128>();
        if self.table {
            bytes += size_of::<GpuU128>();
        }
        if self.fast_counts {
            bytes += size_of::<GpuU128>();
        }
        let stats_bytes = STAT_COLUMNS as usize * size_of::<GpuU128>();
        if self.move_stats {
            bytes += stats_bytes;
        }
        if self.move_stats && self.fast_counts {
            bytes += stats_bytes;
        }
        bytes as u64
    }

    /// Device memory per position of a chunk's capacity: a leaf position, and the share of an
    /// inner one (below [`MAX_INNER_POSITIONS`]).
    pub const fn bytes(self) -> u64 {
        self.leaf_bytes() + self.inner_bytes() / INNER_SHARE
    }

    /// Device memory of the chunk buffers for `capacity` positions.
    pub const fn chunk_bytes(self, capacity: u64) -> u64 {
        capacity * self.leaf_bytes() + inner_positions(capacity) * self.inner_bytes()
    }

    /// The most positions whose chunk buffers fit `budget` bytes.
    pub const fn capacity_within(self, budget: u64) -> u64 {
        let at_share = budget / self.bytes();
        if at_share / INNER_SHARE <= MAX_INNER_POSITIONS {
            at_share
        } else {
            budget.saturating_sub(MAX_INNER_POSITIONS * self.inner_bytes()) / self.leaf_bytes()
        }
    }
}

const _: () = assert!(PositionLayout::FULL.leaf_bytes() == 16);
const _: () = assert!(PositionLayout::FULL.inner_bytes() == 80);
const _: () = assert!(PositionLayout::FULL
    .inner_bytes()
    .is_multiple_of(INNER_SHARE));
const _: () = assert!(PositionLayout::FULL.bytes() == 36);
const _: () = assert!(PositionLayout::PLAIN.bytes() == 20);
// A certify statistics run: 80 bytes and two sets of 13 128-bit statistics per inner position.
const _: () = assert!(
    PositionLayout {
        move_stats: true,
        ..PositionLayout::FULL
    }
    .inner_bytes()
        == 496
);

/// The head of the `TtParams` block; the three arrays of `TT_MAX_SEGMENTS` segment addresses
/// (fast buckets, exact entries, statistics slots) follow it (see [`tt_params_bytes`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct TtParamsHead {
    pub mode: u32,
    /// 64-byte lines per segment: `1 << segment_shift`.
    pub segment_shift: u32,
    /// Buckets of the table every depth without compact buckets probes: fast buckets (one
    /// line each) after the compact lines, or the exact modes' buckets.
    pub buckets: u64,
    pub verifier_mask: u64,
    /// Compact depth-2 buckets (`crates/table/src/tt/compact.rs`), two to a line, in the first lines of the
    /// fast array; 0 when depth 2 shares the table (always outside `fast`).
    pub compact_buckets: u64,
    /// The check bits a compact probe compares, in place (bits 16-63).
    pub compact_verifier_mask: u64,
}

const _: () = assert!(size_of::<TtParamsHead>() == 40);

/// Device addresses of each array's segments (0 past the last one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SegmentAddresses {
    pub fast: Vec<u64>,
    pub exact: Vec<u64>,
    pub stats: Vec<u64>,
}

/// Bytes of the whole `TtParams` block.
pub const TT_PARAMS_BYTES: usize =
    size_of::<TtParamsHead>() + 3 * TT_MAX_SEGMENTS as usize * size_of::<u64>();

/// The `TtParams` block as the shaders read it.
pub fn tt_params_bytes(head: &TtParamsHead, segments: &SegmentAddresses) -> Vec<u8> {
    let mut bytes = bytemuck::bytes_of(head).to_vec();
    for addresses in [&segments.fast, &segments.exact, &segments.stats] {
        let mut words = addresses.clone();
        words.resize(TT_MAX_SEGMENTS as usize, 0);
        bytes.extend_from_slice(bytemuck::cast_slice(&words));
    }
    debug_assert_eq!(bytes.len(), TT_PARAMS_BYTES);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunk buffers use most of any budget and never more, below the inner levels' cap and
    /// above it (where the leaf level takes the rest).
    #[test]
    fn capacity_within_a_budget_fits_it() {
        let certify_stats = TtConfig {
            move_stats: true,
            ..TtConfig::new(TtMode::Certify, 0)
        };
        for layout in [
            PositionLayout::FULL,
            PositionLayout::PLAIN,
            PositionLayout::for_config(&certify_stats),
        ] {
            for budget in [48 << 10, 32 << 20, 4 << 30, 40 << 30] {
                let capacity = layout.capacity_within(budget);
                let bytes = layout.chunk_bytes(capacity);
                assert!(bytes <= budget, "{layout:?} {budget}: {bytes}");
                assert!(
                    bytes as f64 >= 0.99 * budget as f64,
                    "{layout:?} {budget}: {bytes}"
                );
            }
        }
        let capped = PositionLayout::FULL.capacity_within(40 << 30);
        assert_eq!(inner_positions(capped), MAX_INNER_POSITIONS);
    }
}
