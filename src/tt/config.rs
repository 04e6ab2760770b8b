//! What the caller asks of the table, and every way that request can fail.

use super::mode::TtMode;
use super::table::slot_bytes;
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
}

impl TtConfig {
    pub fn new(mode: TtMode, bytes: usize) -> TtConfig {
        TtConfig {
            mode,
            bytes,
            verifier_bits: DEFAULT_VERIFIER_BITS,
        }
    }

    /// How many slots of `slot_bytes` the budget holds, after checking every knob; the CPU and
    /// the GPU table size themselves alike.
    pub fn slots(&self) -> Result<usize, TtError> {
        let mode = self.mode;
        let slot_bytes = slot_bytes(mode).ok_or(TtError::ModeOff)?;
        if !(MIN_VERIFIER_BITS..=MAX_VERIFIER_BITS).contains(&self.verifier_bits) {
            return Err(TtError::VerifierBits {
                bits: self.verifier_bits,
            });
        }
        if self.bytes == 0 {
            return Err(TtError::ZeroSize { mode });
        }
        match self.bytes / slot_bytes {
            0 => Err(TtError::TooSmall {
                mode,
                bytes: self.bytes,
                slot_bytes,
            }),
            slots => Ok(slots),
        }
    }

    /// Bytes the table's slots take: [`Self::slots`] whole slots of the mode.
    pub fn table_bytes(&self) -> Result<usize, TtError> {
        let slot_bytes = slot_bytes(self.mode).ok_or(TtError::ModeOff)?;
        Ok(self.slots()? * slot_bytes)
    }
}

const MIB: f64 = 1024.0 * 1024.0;

fn mib(bytes: usize) -> f64 {
    bytes as f64 / MIB
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TtError {
    #[error("--tt off has no transposition table to create")]
    ModeOff,
    #[error(
        "--tt-mb 0 leaves no memory for the transposition table that --tt {mode} needs; \
         give --tt-mb a positive size, or use --tt off"
    )]
    ZeroSize { mode: TtMode },
    #[error(
        "the transposition table budget of {bytes} bytes (--tt-mb) is too small for one \
         --tt {mode} slot of {slot_bytes} bytes"
    )]
    TooSmall {
        mode: TtMode,
        bytes: usize,
        slot_bytes: usize,
    },
    #[error(
        "--verifier-bits {bits} is out of range: the fast verifier keeps \
         {MIN_VERIFIER_BITS} to {MAX_VERIFIER_BITS} bits"
    )]
    VerifierBits { bits: u32 },
    #[error(
        "the transposition table needs {:.1} MiB (--tt-mb) but only {:.1} MiB of memory is \
         available (MemAvailable in /proc/meminfo); choose a smaller --tt-mb",
        mib(*needed),
        mib(*available)
    )]
    MoreThanAvailable { needed: usize, available: usize },
    #[error(
        "could not allocate {:.1} MiB for the transposition table; choose a smaller --tt-mb",
        mib(*bytes)
    )]
    AllocationFailed { bytes: usize },
    #[error(
        "the transposition table needs {:.1} MiB (--tt-mb) but {device} has {:.1} MiB of \
         device memory left beside the search buffers (--gpu-mem-mb); choose a smaller --tt-mb",
        mib(*needed),
        mib(*available)
    )]
    MoreThanDeviceMemory {
        needed: usize,
        available: usize,
        device: String,
    },
    #[error(
        "could not allocate {:.1} MiB of device memory for the transposition table ({reason}); \
         choose a smaller --tt-mb",
        mib(*bytes)
    )]
    DeviceAllocationFailed { bytes: usize, reason: String },
    #[error(
        "a transposition table of {:.1} MiB needs {segments} buffers on this device, more than \
         the {max} vkperft binds; choose a smaller --tt-mb",
        mib(*bytes)
    )]
    TooManySegments {
        bytes: usize,
        segments: usize,
        max: usize,
    },
    #[error(
        "--tt {mode} on the GPU needs {missing}, which {device} lacks; use --tt off or the CPU"
    )]
    DeviceLacks {
        mode: TtMode,
        device: String,
        missing: String,
    },
}
