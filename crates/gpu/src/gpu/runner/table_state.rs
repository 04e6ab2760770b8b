//! The GPU table's state, as the device runner holds it: its buffers, the table in use, how
//! a fast table is split, its statistics words and whether the device's probe is trusted
//! (`table.rs` sets it up and reads it back).

use crate::gpu::error::GpuError;
use crate::gpu::layouts::{GpuU128, TT_PARAMS_BYTES};
use crate::gpu::shader_layout::ZOBRIST_KEYS;
use crate::gpu::tt_table::GpuTable;
use crate::gpu::vk::buffer::GpuBuffer;
use crate::gpu::vk::shared::DeviceShared;
use crate::tt::shader_shared::{COUNTERS_PER_DEPTH, MAX_TABLE_DEPTH};
use crate::tt::{TableSplit, TtMode};
use gpu_allocator::MemoryLocation;
use std::sync::Arc;

/// Bytes of the statistics buffer: its counters are 64-bit words.
pub(super) const TT_STAT_BYTES: u64 =
    ((MAX_TABLE_DEPTH as usize + 1) * COUNTERS_PER_DEPTH as usize * size_of::<u64>()) as u64;

/// The GPU table's state: the parameters, keys and statistics buffers (bound whether a table
/// is in use or not), the table of the current runs, how a fast table is split, the
/// statistics summed over the chunks that counted, and whether the device's probe is trusted.
pub struct TableState {
    pub params: GpuBuffer,
    pub zobrist: GpuBuffer,
    /// The statistics words (`glsl/common/tt_stats.glsl`), copied back into a slot's
    /// `stats_readback` after each chunk.
    pub stats: GpuBuffer,
    /// The table the runs use; `None` for `--tt off`.
    pub current: Option<GpuTable>,
    /// How a fresh fast table shares its lines between depth 2 and the deeper depths.
    pub split: TableSplit,
    /// The statistics words summed over the chunks that counted: each chunk starts them at
    /// zero on the device, and they are added here after it unless it overflowed (its
    /// results, and so its probes, are thrown away).
    pub counts: Vec<u64>,
    /// Why the table cannot be trusted on this device (its probe disagreed with the CPU's at
    /// the opening): table modes are refused with it, `--tt off` still runs.
    pub distrust: Option<GpuError>,
}

impl TableState {
    /// No table yet, its fast tables to be split as `split` says.
    pub fn new(shared: &Arc<DeviceShared>, split: TableSplit) -> Result<TableState, GpuError> {
        let zobrist_bytes = (ZOBRIST_KEYS as usize * size_of::<GpuU128>()) as u64;
        let buffer = |name, bytes| GpuBuffer::new(shared, name, bytes, MemoryLocation::GpuOnly);
        Ok(TableState {
            params: buffer("TT parameters", TT_PARAMS_BYTES as u64)?,
            zobrist: buffer("Zobrist keys", zobrist_bytes)?,
            stats: buffer("TT statistics", TT_STAT_BYTES)?,
            current: None,
            split,
            counts: Vec::new(),
            distrust: None,
        })
    }

    /// Whether the current runs certify: their fast counts are read back beside the exact.
    pub fn certifies(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|table| table.config().mode == TtMode::Certify)
    }
}
