//! What a caller chooses of the Vulkan backend: the device, memory, debug knobs and how chunks
//! are submitted.

use super::slider_attacks::SliderAttacks;
#[cfg(doc)]
use super::slider_attacks::SLIDER_ATTACKS_VARIABLE;
use super::vk::device::DeviceInfo;
use crate::tt::TableSplit;

/// The environment variable that lowers the workgroups per dispatch (a debug override).
pub const MAX_WORKGROUPS_VARIABLE: &str = "VKPERFT_MAX_WORKGROUPS";

/// How the Vulkan backend opens its device and runs on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GpuOptions {
    /// Device index from `vkperft devices`; `None` picks the preferred device.
    pub device: Option<usize>,
    /// Memory for the chunk buffers in bytes; `None` for the default.
    pub memory_budget: Option<u64>,
    /// Workgroups per dispatch, below the device's limit: a debug knob that makes every level
    /// go out in parts. `None`: [`MAX_WORKGROUPS_VARIABLE`] if set, else the device's limit.
    pub max_workgroups: Option<u32>,
    /// How the move generator finds slider attacks; `None`: [`SLIDER_ATTACKS_VARIABLE`] if set,
    /// else what suits the device.
    pub slider_attacks: Option<SliderAttacks>,
    /// When a chunk goes to the device in one submission.
    pub submissions: Submissions,
    /// How a fast table's memory is shared between depth 2 and the deeper depths.
    pub table_split: TableSplit,
    /// The probe the opening's self-test checks: a debug knob (a wrong probe shows what a
    /// device whose table cannot be trusted does).
    pub self_test: SelfTestProbe,
    /// Debug knobs of the chunk arrays in segments: the bytes of their segments
    /// and the index of a chunk's first position; `None`: `VKPERFT_CHUNK_SEGMENT_BYTES` and
    /// `VKPERFT_CHUNK_FIRST_POSITION` if set, else the device's largest segment and 0.
    pub chunk_segment_bytes: Option<u64>,
    pub chunk_first_position: Option<u32>,
}

/// When a chunk goes to the device in one submission rather than level by level in parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Submissions {
    /// Whole once a chunk of the same depth was timed, with as many items and positions as
    /// that chunk's rates say fit the submission target; the first chunk of each depth, and
    /// the next after a whole one overran, go in parts.
    #[default]
    Paced,
    /// Every chunk whole, as many items as the buffers allow (halved after an overflow, doubled
    /// again after a chunk that fit), whatever it takes on the device: the schedule does not
    /// depend on measured times (for tests, and devices that no watchdog resets).
    Whole,
    /// `Whole` on a GPU that drives no display (`DeviceInfo::headless`: no watchdog resets it,
    /// so long submissions cost only cancellation latency), else `Paced`.
    Auto,
}

impl Submissions {
    pub fn name(self) -> &'static str {
        match self {
            Submissions::Paced => "paced",
            Submissions::Whole => "whole",
            Submissions::Auto => "auto",
        }
    }

    /// What `self` means on `info`'s device: never `Auto`.
    pub fn resolve(self, info: &DeviceInfo) -> Submissions {
        match self {
            Submissions::Auto if info.headless => Submissions::Whole,
            Submissions::Auto => Submissions::Paced,
            chosen => chosen,
        }
    }
}

/// Which build of the probe the self-test runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SelfTestProbe {
    /// The probe every stage is built with.
    #[default]
    Shipped,
    /// The exact entries probed in a loop, which lavapipe 22.3 miscompiles: to show that the
    /// self-test catches a wrong probe.
    LoopedExactWays,
}
