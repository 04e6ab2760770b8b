//! The buffers of the search: one chunk's levels, the table's parameters, keys and
//! statistics, and helpers for their host-visible memory.

use crate::gpu::buffer::GpuBuffer;
use crate::gpu::context::DeviceShared;
use crate::gpu::error::GpuError;
use crate::gpu::layouts::{ChildRange, Control, GpuBoard, GpuU128, TT_PARAMS_BYTES};
use crate::gpu::shader_layout::{DEDUP_SLOTS_PER_POSITION, ZOBRIST_KEYS};
use crate::gpu::tt_table::GpuTable;
use crate::tt::shader_shared::{COUNTERS_PER_DEPTH, MAX_DEPTH};
use gpu_allocator::MemoryLocation;
use std::sync::Arc;

/// Buffers of one chunk's levels, sized for `capacity` positions.
pub struct ChunkBuffers {
    pub boards: GpuBuffer,
    pub children: GpuBuffer,
    pub counts: GpuBuffer,
    pub fast_counts: GpuBuffer,
    pub hashes: GpuBuffer,
    pub dedup: GpuBuffer,
    /// The append counter and overflow flag, in device memory: every expand subgroup does an
    /// atomic on it.
    pub control: GpuBuffer,
    /// `control` copied back after every expand submission.
    pub control_readback: GpuBuffer,
    pub upload: GpuBuffer,
    /// A chunk's item counts, then its items' fast counts.
    pub readback: GpuBuffer,
}

impl ChunkBuffers {
    pub fn new(shared: &Arc<DeviceShared>, capacity: u64) -> Result<ChunkBuffers, GpuError> {
        let local = |name: &str, per_position: usize| {
            GpuBuffer::new(
                shared,
                name,
                capacity * per_position as u64,
                MemoryLocation::GpuOnly,
            )
        };
        Ok(ChunkBuffers {
            boards: local("boards", size_of::<GpuBoard>())?,
            children: local("children", size_of::<ChildRange>())?,
            counts: local("counts", size_of::<GpuU128>())?,
            fast_counts: local("fast counts", size_of::<GpuU128>())?,
            hashes: local("hashes", size_of::<GpuU128>())?,
            dedup: local(
                "dedup set",
                DEDUP_SLOTS_PER_POSITION as usize * size_of::<u32>(),
            )?,
            control: GpuBuffer::new(
                shared,
                "control",
                size_of::<Control>() as u64,
                MemoryLocation::GpuOnly,
            )?,
            control_readback: GpuBuffer::new(
                shared,
                "control readback",
                size_of::<Control>() as u64,
                MemoryLocation::GpuToCpu,
            )?,
            // A chunk has at most a quarter of the capacity in items.
            upload: GpuBuffer::new(
                shared,
                "chunk upload",
                capacity * size_of::<GpuBoard>() as u64 / 4,
                MemoryLocation::CpuToGpu,
            )?,
            readback: GpuBuffer::new(
                shared,
                "chunk readback",
                capacity * 2 * size_of::<GpuU128>() as u64 / 4,
                MemoryLocation::GpuToCpu,
            )?,
        })
    }
}

/// Counter words of the statistics buffer.
const TT_STAT_WORDS: usize = (MAX_DEPTH as usize + 1) * COUNTERS_PER_DEPTH as usize;

/// The transposition table's parameters, keys and statistics (bound whether a table is in use
/// or not), and the table itself when the current run has one.
pub struct TtBuffers {
    pub params: GpuBuffer,
    pub zobrist: GpuBuffer,
    pub stats: GpuBuffer,
    pub stats_readback: GpuBuffer,
    pub table: Option<GpuTable>,
}

impl TtBuffers {
    pub fn new(shared: &Arc<DeviceShared>) -> Result<TtBuffers, GpuError> {
        let stat_bytes = (TT_STAT_WORDS * size_of::<u64>()) as u64;
        let zobrist_bytes = (ZOBRIST_KEYS as usize * size_of::<GpuU128>()) as u64;
        Ok(TtBuffers {
            params: GpuBuffer::new(
                shared,
                "TT parameters",
                TT_PARAMS_BYTES as u64,
                MemoryLocation::GpuOnly,
            )?,
            zobrist: GpuBuffer::new(
                shared,
                "Zobrist keys",
                zobrist_bytes,
                MemoryLocation::GpuOnly,
            )?,
            stats: GpuBuffer::new(shared, "TT statistics", stat_bytes, MemoryLocation::GpuOnly)?,
            stats_readback: GpuBuffer::new(
                shared,
                "TT statistics readback",
                stat_bytes,
                MemoryLocation::GpuToCpu,
            )?,
            table: None,
        })
    }
}

fn unmapped(name: &str) -> GpuError {
    GpuError::Vulkan {
        call: "map",
        result: format!("{name} is not host-visible"),
    }
}

/// Copies `bytes` to the start of a host-visible buffer.
pub fn write_mapped(buffer: &mut GpuBuffer, bytes: &[u8]) -> Result<(), GpuError> {
    let mapped = buffer.mapped_mut().ok_or_else(|| unmapped("upload"))?;
    mapped[..bytes.len()].copy_from_slice(bytes);
    Ok(())
}

/// The host-visible bytes of `buffer`.
pub fn mapped_bytes(buffer: &GpuBuffer) -> Result<&[u8], GpuError> {
    buffer.mapped().ok_or_else(|| unmapped("readback"))
}

/// A `T` from the start of a host-visible buffer.
pub fn read_mapped<T: bytemuck::Pod>(buffer: &GpuBuffer) -> Result<T, GpuError> {
    Ok(bytemuck::pod_read_unaligned(
        &mapped_bytes(buffer)?[..size_of::<T>()],
    ))
}
