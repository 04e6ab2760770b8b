//! How much device memory the chunk buffers and the table get, and how many positions the
//! chunk buffers then hold.

use crate::gpu::device::DeviceInfo;
use crate::gpu::layouts::{ChildRange, GpuBoard, PositionLayout, INNER_SHARE};

/// The default memory budget for the chunk buffers is this fraction of the device's free
/// memory (the buffers are smaller where the binding limit caps the positions of a chunk).
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

/// Positions the chunk buffers of `layout` hold within `budget` bytes on `info`'s device: as
/// many as the budget and one binding of children (or of the inner levels' boards) allow.
///
/// Offsets and the append counter are 32-bit and cannot wrap: a binding holds fewer than 2^32
/// positions, and an expand reads a level before the compact leaf level, of at most
/// `MAX_INNER_POSITIONS`, whose children number below 2^32. An expand whose appends run past
/// the capacity sets the overflow flag before any child lands outside its level: a child is
/// written only where `first + moves` fits what is left of the capacity, and the subgroup whose
/// append crosses the capacity flags it.
pub(super) fn capacity_for(info: &DeviceInfo, budget: u64, layout: PositionLayout) -> u64 {
    let by_budget = layout.capacity_within(budget);
    let range = u64::from(info.max_storage_buffer_range);
    let by_children = range / size_of::<ChildRange>() as u64;
    let by_boards = range / size_of::<GpuBoard>() as u64 * INNER_SHARE;
    by_budget.min(by_children).min(by_boards)
}

/// What a device's memory is used for unless sizes are asked for (`vkperft devices`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryDefaults {
    /// The main heap's free memory.
    pub free: u64,
    /// The chunk buffers with every table layout, and the positions a chunk holds then.
    pub chunk_bytes: u64,
    pub chunk_positions: u64,
    /// The table a GPU gets: free memory less the chunk buffers and a reserve. `None` for
    /// Vulkan on the CPU, whose memory is the host's: the job's default size stays.
    pub table_bytes: Option<u64>,
}

pub fn memory_defaults(info: &DeviceInfo) -> MemoryDefaults {
    let free = info.free_memory_bytes();
    let layout = PositionLayout::FULL;
    let chunk_positions = capacity_for(info, default_budget(info), layout);
    let chunk_bytes = layout.chunk_bytes(chunk_positions);
    let reserve = (free / TABLE_RESERVE_FRACTION).max(TABLE_RESERVE_MIN);
    MemoryDefaults {
        free,
        chunk_bytes,
        chunk_positions,
        table_bytes: info
            .kind
            .is_gpu()
            .then(|| free.saturating_sub(chunk_bytes).saturating_sub(reserve)),
    }
}
