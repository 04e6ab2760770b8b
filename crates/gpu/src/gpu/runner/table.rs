//! The transposition table of the GPU backend (its state is [`TableState`]): set up per run,
//! its parameters and keys uploaded, its statistics read back.
//!
//! [`TableState`]: super::table_state::TableState

use super::buffers::{mapped_bytes, write_mapped};
use super::DeviceRunner;
use crate::backend::plan::Plan;
use crate::chess::zobrist::MAX_DEPTH_KEYS;
use crate::chess::Zobrist;
use crate::gpu::error::GpuError;
use crate::gpu::layouts::{
    tt_params_bytes, GpuU128, PositionLayout, SegmentAddresses, TtParamsHead,
};
use crate::gpu::shader_layout::ZOBRIST_DEPTH_KEYS;
use crate::gpu::tt_table::GpuTable;
use crate::gpu::vk::buffer::GpuBuffer;
use crate::gpu::vk::recorder::Recorder;
use crate::tt::split::{compact_lines, DistinctEstimate};
use crate::tt::{TtConfig, TtMode, TtStatsSnapshot};
use gpu_allocator::MemoryLocation;

// The shaders' key buffer holds every depth key the CPU has.
const _: () = assert!(ZOBRIST_DEPTH_KEYS as usize == MAX_DEPTH_KEYS);

impl DeviceRunner {
    /// Sets up the table of the next runs: none for `off`, else a cleared table of `config`
    /// (reallocated only when the configuration changed) with the keys of `zobrist`, and
    /// zeroed statistics. After an error, [`Self::drop_table`] leaves the shaders pointing at
    /// no table, never at the freed memory of the old one.
    pub(crate) fn prepare_table(
        &mut self,
        config: &TtConfig,
        zobrist: &Zobrist,
    ) -> Result<(), GpuError> {
        if config.mode == TtMode::Off {
            self.drop_table()?;
            self.use_layout(PositionLayout::for_config(config))?;
            return Ok(());
        }
        if let Some(distrust) = &self.table.distrust {
            return Err(distrust.clone());
        }
        let info = self.context.info();
        if !info.supports_tt() {
            return Err(GpuError::LacksTableFeatures {
                mode: config.mode,
                device: info.name.clone(),
                missing: info.tt_missing.join(", "),
            });
        }
        self.use_layout(PositionLayout::for_config(config))?;
        let reusable = self
            .table
            .current
            .as_ref()
            .is_some_and(|table| table.config() == config);
        if !reusable {
            self.drop_table()?;
            let info = self.context.info();
            let needed = config.table_bytes()?;
            let search_bytes = self.layout.chunk_bytes(u64::from(self.capacity));
            let available = info.memory_bytes().saturating_sub(search_bytes) as usize;
            if needed > available {
                return Err(GpuError::TableTooLarge {
                    needed,
                    available,
                    device: info.name.clone(),
                });
            }
            let max_segment_bytes = u64::from(info.max_storage_buffer_range);
            self.table.current = Some(GpuTable::new(
                &self.context.shared,
                config,
                max_segment_bytes,
            )?);
        }
        let Some(table) = &self.table.current else {
            unreachable!("created just above");
        };
        self.upload_zobrist(zobrist)?;
        self.start_table(table)?;
        if let Some(table) = &mut self.table.current {
            table.open_share();
        }
        self.table.counts = vec![0; (self.table.stats.size / size_of::<u64>() as u64) as usize];
        Ok(())
    }

    /// No table: the shaders point at none before its memory is freed.
    pub(crate) fn drop_table(&mut self) -> Result<(), GpuError> {
        self.upload_no_table()?;
        self.table.current = None;
        Ok(())
    }

    /// Points the shaders at `table` as it is shaped now, and clears it and the statistics.
    fn start_table(&self, table: &GpuTable) -> Result<(), GpuError> {
        self.upload(
            &self.table.params,
            &tt_params_bytes(&table.head(), &table.addresses()),
        )?;
        self.context.submit_and_wait(|recorder| {
            for buffer in table.buffers().chain([&self.table.stats]) {
                recorder.fill_zero(buffer);
            }
            recorder.barrier();
        })?;
        Ok(())
    }

    /// Shares a fast table's lines between depth 2 and the deeper depths as the runner's
    /// [`crate::tt::TableSplit`] says for the run `plan` starts
    /// (`crates/table/src/tt/split.rs`), if the table is fresh from [`Self::prepare_table`]: a
    /// table kept from an earlier job keeps its share and its entries.
    pub(super) fn split_table(&mut self, plan: &Plan) -> Result<(), GpuError> {
        let Some(table) = &self.table.current else {
            return Ok(());
        };
        if !table.share_open() {
            return Ok(());
        }
        let estimate = plan.items.first().map(|item| DistinctEstimate {
            launch: item.remaining,
            items: plan.items.len() as f64,
            growth: plan.growth,
        });
        let lines = compact_lines(self.table.split, table.lines(), estimate.as_ref());
        self.share_compact_lines(lines)
    }

    /// Gives the first `lines` lines of the prepared table to depth 2's compact buckets, as
    /// [`GpuTable::set_compact_lines`] allows. A new share starts from an empty table and
    /// zeroed statistics.
    pub fn share_compact_lines(&mut self, lines: u64) -> Result<(), GpuError> {
        let Some(table) = &mut self.table.current else {
            return Ok(());
        };
        let before = table.compact_lines();
        table.set_compact_lines(lines);
        if table.compact_lines() == before {
            return Ok(());
        }
        let Some(table) = &self.table.current else {
            unreachable!("shared just above");
        };
        self.start_table(table)?;
        self.table.counts.fill(0);
        Ok(())
    }

    /// The table's statistics as of the last finished chunk that counted; `None` without a
    /// table.
    pub fn tt_snapshot(&self) -> Result<Option<TtStatsSnapshot>, GpuError> {
        Ok(self
            .table
            .current
            .as_ref()
            .map(|table| table.snapshot(&self.table.counts)))
    }

    /// Adds the statistics of the chunk that ended in `slot` (and did not overflow).
    pub(super) fn count_chunk_stats(&mut self, slot: usize) -> Result<(), GpuError> {
        let readback = &self.buffers.slots[slot].stats_readback;
        let words: Vec<u64> = bytemuck::pod_collect_to_vec(mapped_bytes(readback)?);
        for (sum, word) in self.table.counts.iter_mut().zip(words) {
            *sum = sum.wrapping_add(word);
        }
        Ok(())
    }

    /// Segments per table array of the current table (0 without one).
    pub fn tt_segments(&self) -> usize {
        self.table.current.as_ref().map_or(0, GpuTable::segments)
    }

    /// Records the copy of the table's statistics to `slot`'s readback.
    pub(super) fn record_stats_readback(&self, recorder: &Recorder, slot: usize) {
        let stats = &self.table.stats;
        let readback = &self.buffers.slots[slot].stats_readback;
        recorder.copy(stats, 0, readback, 0, stats.size);
    }

    /// Points the shaders at no table (mode off).
    pub(super) fn upload_no_table(&self) -> Result<(), GpuError> {
        let no_table = tt_params_bytes(&TtParamsHead::default(), &SegmentAddresses::default());
        self.upload(&self.table.params, &no_table)
    }

    /// Uploads the keys of `zobrist`, as (low, high) words.
    pub(super) fn upload_zobrist(&self, zobrist: &Zobrist) -> Result<(), GpuError> {
        let keys: Vec<GpuU128> = zobrist.key_table().into_iter().map(GpuU128::from).collect();
        self.upload(&self.table.zobrist, bytemuck::cast_slice(&keys))
    }

    /// Copies `bytes` to the start of the device-local `target` through a staging buffer.
    pub(super) fn upload(&self, target: &GpuBuffer, bytes: &[u8]) -> Result<(), GpuError> {
        let mut staging = GpuBuffer::new(
            &self.context.shared,
            "staging",
            bytes.len() as u64,
            MemoryLocation::CpuToGpu,
        )?;
        write_mapped(&mut staging, bytes)?;
        self.context.submit_and_wait(|recorder| {
            recorder.copy(&staging, 0, target, 0, bytes.len() as u64);
        })?;
        Ok(())
    }
}
