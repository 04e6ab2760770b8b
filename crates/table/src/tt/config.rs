//! What the caller asks of the table, and every way that request can fail.

use super::layout::{bucket_bytes, ways};
use super::memory::MemorySource;
use super::mode::TtMode;
use super::move_stats_slots::stats_bytes_per_slot;
use thiserror::Error;

/// The verifier width used unless `--verifier-bits` narrows it.
pub const DEFAULT_VERIFIER_BITS: u32 = 64;
pub const MIN_VERIFIER_BITS: u32 = 8;
pub const MAX_VERIFIER_BITS: u32 = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtConfig {
    pub mode: TtMode,
    /// Memory budget in bytes; the table uses at most this much.
    pub bytes: usize,
    /// How many low bits of the fast verifier a probe compares (8..=64); a debug knob that
    /// makes false hits frequent enough to watch.
    pub verifier_bits: u32,
    /// Whether every entry carries the move-type statistics of its subtree beside its count
    /// (runs with `--stats`; see [`super::move_stats_slots`]).
    pub move_stats: bool,
}

impl TtConfig {
    pub fn new(mode: TtMode, bytes: usize) -> TtConfig {
        TtConfig {
            mode,
            bytes,
            verifier_bits: DEFAULT_VERIFIER_BITS,
            move_stats: false,
        }
    }

    /// Bytes one bucket takes, with its statistics when the table carries them; `None` for
    /// `off`.
    pub fn bucket_bytes(&self) -> Option<usize> {
        let stats = match self.move_stats {
            true => ways(self.mode)? * stats_bytes_per_slot(self.mode == TtMode::Certify),
            false => 0,
        };
        Some(bucket_bytes(self.mode)? + stats)
    }

    /// How many whole buckets of [`bucket_bytes`] the budget holds, after checking every knob;
    /// the CPU and the GPU table size themselves alike.
    pub fn buckets(&self) -> Result<usize, TtError> {
        let mode = self.mode;
        let bucket_bytes = self.bucket_bytes().ok_or(TtError::ModeOff)?;
        if !(MIN_VERIFIER_BITS..=MAX_VERIFIER_BITS).contains(&self.verifier_bits) {
            return Err(TtError::VerifierBits {
                bits: self.verifier_bits,
            });
        }
        if self.bytes == 0 {
            return Err(TtError::ZeroSize { mode });
        }
        match self.bytes / bucket_bytes {
            0 => Err(TtError::TooSmall {
                mode,
                bytes: self.bytes,
                bucket_bytes,
            }),
            buckets => Ok(buckets),
        }
    }

    /// Entries (slots) of the table: [`Self::buckets`] times the entries of a bucket.
    pub fn slots(&self) -> Result<usize, TtError> {
        let ways = ways(self.mode).ok_or(TtError::ModeOff)?;
        Ok(self.buckets()? * ways)
    }

    /// Bytes the table's buckets take: [`Self::buckets`] whole buckets of the mode, with their
    /// statistics.
    pub fn table_bytes(&self) -> Result<usize, TtError> {
        let bucket_bytes = self.bucket_bytes().ok_or(TtError::ModeOff)?;
        Ok(self.buckets()? * bucket_bytes)
    }

    /// This configuration with no more memory than `slots` entries take (whole buckets, at
    /// least one), where that is less than its budget.
    pub fn at_most_slots(&self, slots: u128) -> Result<TtConfig, TtError> {
        let ways = ways(self.mode).ok_or(TtError::ModeOff)? as u128;
        let bucket_bytes = self.bucket_bytes().ok_or(TtError::ModeOff)? as u128;
        let bytes = slots.div_ceil(ways).max(1).saturating_mul(bucket_bytes);
        Ok(TtConfig {
            bytes: usize::try_from(bytes).map_or(self.bytes, |bytes| bytes.min(self.bytes)),
            ..*self
        })
    }
}

const MIB: f64 = 1024.0 * 1024.0;

/// `bytes` in MiB, for messages.
pub fn mib(bytes: usize) -> f64 {
    bytes as f64 / MIB
}

/// Why a table cannot be had. The messages name no command-line flag: the CLI and the window
/// say which of their settings each error concerns.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TtError {
    #[error("mode off has no transposition table to create")]
    ModeOff,
    #[error("a size of 0 leaves no memory for the {mode} transposition table")]
    ZeroSize { mode: TtMode },
    #[error(
        "a transposition table of {bytes} bytes is too small for one {mode} bucket of \
         {bucket_bytes} bytes"
    )]
    TooSmall {
        mode: TtMode,
        bytes: usize,
        bucket_bytes: usize,
    },
    #[error(
        "{bits} verifier bits are out of range: the fast verifier keeps \
         {MIN_VERIFIER_BITS} to {MAX_VERIFIER_BITS} bits"
    )]
    VerifierBits { bits: u32 },
    #[error(
        "the transposition table needs {:.1} MiB but only {:.1} MiB of memory is available \
         ({limit})",
        mib(*needed),
        mib(*available)
    )]
    MoreThanAvailable {
        needed: usize,
        available: usize,
        limit: MemorySource,
    },
    #[error(
        "could not allocate {:.1} MiB for the transposition table",
        mib(*bytes)
    )]
    AllocationFailed { bytes: usize },
}
