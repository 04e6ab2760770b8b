//! How much device memory the chunk buffers and the table get, and how many positions the
//! chunk buffers then hold.

use crate::gpu::chunk_arrays::SegmentLayout;
use crate::gpu::layouts::PositionLayout;
use crate::gpu::vk::device::DeviceInfo;

/// The default memory budget for the chunk buffers is this fraction of the device's free
/// memory.
const DEFAULT_BUDGET_FRACTION: u64 = 4;
/// A GPU's default table leaves this fraction of its free memory (and at least
/// [`TABLE_RESERVE_MIN`]) to the driver and other programs, beside the chunk buffers.
const TABLE_RESERVE_FRACTION: u64 = 20;
const TABLE_RESERVE_MIN: u64 = 512 << 20;
/// A chunk needs room for an item and its children at least.
pub(super) const MIN_CAPACITY: u64 = 1024;

/// The chunk buffers' memory unless one is asked for.
pub fn default_budget(info: &DeviceInfo) -> u64 {
    info.free_memory_bytes() / DEFAULT_BUDGET_FRACTION
}

/// Positions the chunk buffers of `layout` hold within `budget` bytes, their arrays in
/// `segments`: as many as the budget allows, with position indices below 2^31 - 1 and every
/// array within its segments ([`SegmentLayout::max_capacity`]); no storage-buffer binding
/// bounds them, since the shaders reach the arrays by device address.
///
/// Offsets and the append counter are 32-bit position indices and cannot wrap (byte offsets are
/// 64-bit): indices stay below 2^31 - 1, and an expand reads a level before the compact leaf
/// level, of at most `MAX_INNER_POSITIONS`, whose children number below 2^32. An expand whose
/// appends run past the capacity sets the overflow flag before any child lands outside its
/// level: a child is written only where `first + moves` fits what is left of the capacity, and
/// the subgroup whose append crosses the capacity flags it.
pub(super) fn capacity_for(budget: u64, layout: PositionLayout, segments: SegmentLayout) -> u64 {
    segments.max_capacity(layout.capacity_within(budget), layout)
}

/// What a device's memory is used for unless sizes are asked for (`vkperft devices`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryDefaults {
    /// The main heap's free memory.
    pub free: u64,
    /// The chunk buffers with every table layout, and the positions a chunk holds then.
    pub chunk_bytes: u64,
    pub chunk_positions: u64,
    /// The bytes of a chunk array's segments (the device's largest allocation, at most
    /// 2 GiB, a power of two), and how many such a default chunk's arrays take together.
    pub chunk_segment_bytes: u64,
    pub chunk_segments: u64,
    /// The table a GPU gets: free memory less the chunk buffers and a reserve. `None` for
    /// Vulkan on the CPU, whose memory is the host's: the job's default size stays.
    pub table_bytes: Option<u64>,
}

pub fn memory_defaults(info: &DeviceInfo) -> MemoryDefaults {
    let free = info.free_memory_bytes();
    let layout = PositionLayout::FULL;
    let segments = SegmentLayout::for_max_allocation(info.max_memory_allocation_size);
    let chunk_positions = capacity_for(default_budget(info), layout, segments);
    let chunk_bytes = layout.chunk_bytes(chunk_positions);
    let reserve = (free / TABLE_RESERVE_FRACTION).max(TABLE_RESERVE_MIN);
    MemoryDefaults {
        free,
        chunk_bytes,
        chunk_positions,
        chunk_segment_bytes: segments.segment_bytes,
        chunk_segments: segments.segments(chunk_positions, layout),
        table_bytes: info
            .kind
            .is_gpu()
            .then(|| free.saturating_sub(chunk_bytes).saturating_sub(reserve)),
    }
}
