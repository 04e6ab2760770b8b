//! The transposition table in device memory: the CPU's bucket layouts (`crates/table/src/tt/fast.rs`,
//! `crates/table/src/tt/exact.rs`, `crates/table/src/tt/table.rs`), split into segments that shaders reach by device
//! address, so that a table may exceed `maxStorageBufferRange` (128 MiB on lavapipe) and any
//! one allocation.
//!
//! Arrays per mode, each in segments of `1 << segment_shift` buckets:
//! - `fast`: 64-byte lines: the first [`GpuTable::compact_lines`] hold depth 2 alone as two
//!   32-byte buckets of four 8-byte compact entries each (`crates/table/src/tt/compact.rs`, when the memory
//!   is split by depth: `crates/table/src/tt/split.rs`); every other line is a bucket of four 16-byte fast
//!   entries (each holding its depth) for the other depths.
//! - `verified`: 128-byte buckets of two 64-byte exact entries.
//! - `certify`: 64-byte fast buckets and, per bucket, the four 64-byte exact shadows of its
//!   entries (320 bytes per bucket).
//!
//! A table of a move-type statistics run has a third array, the statistics slots of each entry
//! (`crates/table/src/tt/move_stats_slots.rs`, `glsl/common/tt_move_stats.glsl`): 112 bytes per entry, two
//! slots per entry in certify, in segments of the same buckets. Its fast table is never split
//! (a compact entry has no room for them).

use super::error::GpuError;
use super::layouts::{SegmentAddresses, TtParamsHead};
use super::shader_layout::{
    TT_MAX_SEGMENTS, TT_MODE_CERTIFY, TT_MODE_FAST, TT_MODE_OFF, TT_MODE_VERIFIED,
};
use super::vk::buffer::GpuBuffer;
use super::vk::shared::DeviceShared;
use crate::tt::compact::{compact_verifier_mask, COMPACT_WAYS};
use crate::tt::exact::ExactEntry;
use crate::tt::fast::{verifier_mask, FastBucket, FAST_WAYS};
use crate::tt::move_stats_slots::stats_bytes_per_slot;
use crate::tt::split::COMPACT_BUCKETS_PER_LINE;
use crate::tt::{ways, TableShape, TtConfig, TtMode, TtStatsSnapshot};
use std::sync::Arc;

/// No segment is larger than this, whatever the device allows.
const MAX_SEGMENT_BYTES: u64 = 1 << 31;

pub fn mode_code(mode: TtMode) -> u32 {
    match mode {
        TtMode::Off => TT_MODE_OFF,
        TtMode::Fast => TT_MODE_FAST,
        TtMode::Verified => TT_MODE_VERIFIED,
        TtMode::Certify => TT_MODE_CERTIFY,
    }
}

pub struct GpuTable {
    config: TtConfig,
    /// Buckets of the array, compact lines included (a line is a fast bucket's 64 bytes).
    buckets: u64,
    /// Lines at the start of the fast array given to compact depth-2 buckets.
    compact_lines: u64,
    /// Whether the next run may choose `compact_lines` (the table was just cleared).
    share_open: bool,
    bytes: u64,
    segment_shift: u32,
    fast: Vec<GpuBuffer>,
    exact: Vec<GpuBuffer>,
    /// With `config.move_stats`: the statistics slots of each segment's buckets.
    stats: Vec<GpuBuffer>,
}

impl GpuTable {
    /// A table for `config` (a mode other than `off`) with segments of at most
    /// `max_segment_bytes` (the device's storage buffer range).
    pub fn new(
        shared: &Arc<DeviceShared>,
        config: &TtConfig,
        max_segment_bytes: u64,
    ) -> Result<GpuTable, GpuError> {
        let buckets = config.buckets()? as u64;
        let bytes = config.table_bytes()?;
        let has_fast = config.mode != TtMode::Verified;
        let has_exact = config.mode != TtMode::Fast;
        // Bytes of one bucket's exact entries: 2 (verified) or 4 (certify shadows) entries.
        let exact_bucket_bytes =
            (ways(config.mode).unwrap_or(FAST_WAYS) * size_of::<ExactEntry>()) as u64;
        // Bytes of one bucket's statistics slots (none without statistics).
        let stats_bucket_bytes = match config.move_stats {
            true => {
                (ways(config.mode).unwrap_or(FAST_WAYS)
                    * stats_bytes_per_slot(config.mode == TtMode::Certify)) as u64
            }
            false => 0,
        };
        let largest_bucket = if has_exact {
            exact_bucket_bytes
        } else {
            size_of::<FastBucket>() as u64
        }
        .max(stats_bucket_bytes);
        let segment_bytes = max_segment_bytes.min(MAX_SEGMENT_BYTES);
        let segment_shift = (segment_bytes / largest_bucket).max(4).ilog2();
        let segment_buckets = 1u64 << segment_shift;
        let segments = buckets.div_ceil(segment_buckets) as usize;
        if segments > TT_MAX_SEGMENTS as usize {
            return Err(GpuError::TooManySegments {
                bytes,
                segments,
                max: TT_MAX_SEGMENTS as usize,
            });
        }
        let allocation_failed = |err: GpuError| GpuError::TableAllocationFailed {
            bytes,
            reason: err.to_string(),
        };
        let mut table = GpuTable {
            config: *config,
            buckets,
            compact_lines: 0,
            share_open: true,
            bytes: bytes as u64,
            segment_shift,
            fast: Vec::new(),
            exact: Vec::new(),
            stats: Vec::new(),
        };
        for segment in 0..segments as u64 {
            let first = segment * segment_buckets;
            let in_segment = (buckets - first).min(segment_buckets);
            let add = |array: &mut Vec<GpuBuffer>, name: &str, bytes: u64| {
                GpuBuffer::new_addressable(shared, name, bytes)
                    .map(|buffer| array.push(buffer))
                    .map_err(allocation_failed)
            };
            if has_fast {
                add(
                    &mut table.fast,
                    "TT fast buckets",
                    in_segment * size_of::<FastBucket>() as u64,
                )?;
            }
            if has_exact {
                add(
                    &mut table.exact,
                    "TT exact entries",
                    in_segment * exact_bucket_bytes,
                )?;
            }
            if config.move_stats {
                add(
                    &mut table.stats,
                    "TT statistics slots",
                    in_segment * stats_bucket_bytes,
                )?;
            }
        }
        Ok(table)
    }

    pub fn config(&self) -> &TtConfig {
        &self.config
    }

    /// What the slots take, as the CPU table counts it.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Lines of the table: its buckets, compact lines included.
    pub fn lines(&self) -> u64 {
        self.buckets
    }

    /// Lines of the fast array kept for compact depth-2 buckets.
    pub fn compact_lines(&self) -> u64 {
        self.compact_lines
    }

    /// Whether the share of compact lines is still to be chosen: the table is empty.
    pub fn share_open(&self) -> bool {
        self.share_open
    }

    /// The table was cleared: the next run chooses its share.
    pub fn open_share(&mut self) {
        self.share_open = true;
    }

    /// Gives the first `lines` lines to compact depth-2 buckets (fast mode without statistics
    /// only; none otherwise), at most all lines but one, until the table is cleared again. What
    /// the lines held no longer counts: the caller clears them.
    pub fn set_compact_lines(&mut self, lines: u64) {
        self.share_open = false;
        self.compact_lines = if self.config.mode == TtMode::Fast && !self.config.move_stats {
            lines.min(self.buckets - 1)
        } else {
            0
        };
    }

    /// Slots and verifier bits per depth.
    pub fn shape(&self) -> TableShape {
        let ways = ways(self.config.mode).unwrap_or(FAST_WAYS) as u64;
        let compact_buckets = self.compact_lines * COMPACT_BUCKETS_PER_LINE;
        TableShape {
            slots: (self.buckets - self.compact_lines) * ways,
            compact_slots: compact_buckets * COMPACT_WAYS as u64,
            verifier_bits: self.config.verifier_bits,
        }
    }

    pub fn head(&self) -> TtParamsHead {
        let compact_buckets = self.compact_lines * COMPACT_BUCKETS_PER_LINE;
        TtParamsHead {
            mode: mode_code(self.config.mode),
            segment_shift: self.segment_shift,
            buckets: self.buckets - self.compact_lines,
            verifier_mask: verifier_mask(self.config.verifier_bits),
            compact_buckets,
            compact_verifier_mask: if compact_buckets == 0 {
                0
            } else {
                compact_verifier_mask(self.config.verifier_bits)
            },
        }
    }

    pub fn addresses(&self) -> SegmentAddresses {
        let addresses = |array: &[GpuBuffer]| array.iter().map(GpuBuffer::device_address).collect();
        SegmentAddresses {
            fast: addresses(&self.fast),
            exact: addresses(&self.exact),
            stats: addresses(&self.stats),
        }
    }

    /// Every segment buffer, to clear them.
    pub fn buffers(&self) -> impl Iterator<Item = &GpuBuffer> {
        self.fast.iter().chain(&self.exact).chain(&self.stats)
    }

    /// Segments per array.
    pub fn segments(&self) -> usize {
        self.buckets.div_ceil(1 << self.segment_shift) as usize
    }

    /// The statistics from the shaders' counter words.
    pub fn snapshot(&self, words: &[u64]) -> TtStatsSnapshot {
        TtStatsSnapshot::from_depth_words(self.config.mode, &self.shape(), self.bytes(), words)
    }
}
