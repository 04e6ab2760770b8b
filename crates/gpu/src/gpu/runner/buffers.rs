//! The buffers of one chunk's levels (the table's are [`super::table_state::TableState`]'s), and
//! helpers for host-visible memory.

use super::table_state::TT_STAT_BYTES;
use crate::gpu::chunk_arrays::{ChunkArrays, SegmentLayout};
use crate::gpu::error::GpuError;
#[cfg(doc)]
use crate::gpu::layouts::inner_positions;
use crate::gpu::layouts::{Control, GpuBoard, GpuU128, PositionLayout};
use crate::gpu::scheduler::ITEMS_SHARE;
use crate::gpu::shader_layout::{STAT_COLUMNS, WORK_WORDS};
use crate::gpu::vk::buffer::GpuBuffer;
use crate::gpu::vk::context::SLOTS;
use crate::gpu::vk::shared::DeviceShared;
use gpu_allocator::MemoryLocation;
use std::sync::Arc;

/// Buffers of one chunk's levels, sized for `capacity` positions of `layout`, of which
/// [`inner_positions`] outside the compact leaf level (the arrays the layout leaves out hold
/// one position, to have something to point at), and the host-visible ones of each submission
/// slot.
pub struct ChunkBuffers {
    /// The level arrays, in segments (`gpu/chunk_arrays.rs`).
    pub arrays: ChunkArrays,
    /// The `Control` block (append counter, overflow flag, the chunk's levels), in device
    /// memory: every expand subgroup does an atomic on it.
    pub control: GpuBuffer,
    /// The work counters of the run (`glsl/common/work.glsl`).
    pub work: GpuBuffer,
    /// One per submission slot.
    pub slots: Vec<SlotBuffers>,
}

/// The host-visible buffers of a chunk in one submission slot (see `Context::submit`).
pub struct SlotBuffers {
    /// The chunk's items.
    pub upload: GpuBuffer,
    /// The chunk's item counts, then its items' fast counts (see [`readback_values`]).
    pub readback: GpuBuffer,
    /// `control` as the chunk's last expand left it.
    pub control_readback: GpuBuffer,
    /// The table's statistics after the chunk.
    pub stats_readback: GpuBuffer,
    /// The work counters after the chunk.
    pub work_readback: GpuBuffer,
}

impl ChunkBuffers {
    /// The buffers of a chunk of `capacity` positions with `layout`, its arrays in `segments`
    /// (which `capacity` must fit). The `ChunkArrays` block is still to be uploaded.
    pub fn new(
        shared: &Arc<DeviceShared>,
        segments: SegmentLayout,
        capacity: u64,
        layout: PositionLayout,
    ) -> Result<ChunkBuffers, GpuError> {
        Ok(ChunkBuffers {
            arrays: ChunkArrays::new(shared, segments, capacity, layout)?,
            control: GpuBuffer::new(
                shared,
                "control",
                size_of::<Control>() as u64,
                MemoryLocation::GpuOnly,
            )?,
            work: GpuBuffer::new(shared, "work counters", WORK_BYTES, MemoryLocation::GpuOnly)?,
            slots: (0..SLOTS)
                .map(|_| SlotBuffers::new(shared, capacity, layout))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// The 128-bit values read back per item of a chunk with `layout`: its count and fast count,
/// and in a statistics run its statistics and fast statistics after every item's counts
/// (`STAT_COLUMNS` each).
pub const fn readback_values(layout: PositionLayout) -> u64 {
    match layout.move_stats {
        true => 2 * (1 + STAT_COLUMNS as u64),
        false => 2,
    }
}

impl SlotBuffers {
    fn new(
        shared: &Arc<DeviceShared>,
        capacity: u64,
        layout: PositionLayout,
    ) -> Result<SlotBuffers, GpuError> {
        let items = capacity / ITEMS_SHARE;
        let host_visible = |name: &str, bytes: u64, location: MemoryLocation| {
            GpuBuffer::new(shared, name, bytes, location)
        };
        Ok(SlotBuffers {
            upload: host_visible(
                "chunk upload",
                items * size_of::<GpuBoard>() as u64,
                MemoryLocation::CpuToGpu,
            )?,
            readback: host_visible(
                "chunk readback",
                items * readback_values(layout) * size_of::<GpuU128>() as u64,
                MemoryLocation::GpuToCpu,
            )?,
            control_readback: host_visible(
                "control readback",
                size_of::<Control>() as u64,
                MemoryLocation::GpuToCpu,
            )?,
            stats_readback: host_visible(
                "TT statistics readback",
                TT_STAT_BYTES,
                MemoryLocation::GpuToCpu,
            )?,
            work_readback: host_visible(
                "work counters readback",
                WORK_BYTES,
                MemoryLocation::GpuToCpu,
            )?,
        })
    }
}

/// Bytes of the work counters buffer.
pub const WORK_BYTES: u64 = WORK_WORDS as u64 * size_of::<u32>() as u64;

/// Copies `bytes` to the start of a host-visible buffer.
pub fn write_mapped(buffer: &mut GpuBuffer, bytes: &[u8]) -> Result<(), GpuError> {
    let mapped = buffer
        .mapped_mut()
        .ok_or(GpuError::NotHostVisible("upload"))?;
    mapped[..bytes.len()].copy_from_slice(bytes);
    Ok(())
}

/// The host-visible bytes of `buffer`.
pub fn mapped_bytes(buffer: &GpuBuffer) -> Result<&[u8], GpuError> {
    buffer.mapped().ok_or(GpuError::NotHostVisible("readback"))
}

/// A `T` from the start of a host-visible buffer.
pub fn read_mapped<T: bytemuck::Pod>(buffer: &GpuBuffer) -> Result<T, GpuError> {
    Ok(bytemuck::pod_read_unaligned(
        &mapped_bytes(buffer)?[..size_of::<T>()],
    ))
}
