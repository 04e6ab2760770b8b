//! Errors of the Vulkan backend.

use crate::backend::{BackendError, RunError};
use crate::tt::{mib, TtError, TtMode};
use ash::vk;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GpuError {
    /// The table's configuration cannot be had (the same on every backend).
    #[error(transparent)]
    Table(#[from] TtError),
    #[error("no Vulkan loader found ({0}); install a Vulkan driver (Debian: mesa-vulkan-drivers)")]
    NoLoader(String),
    #[error(
        "no Vulkan driver found; install one (Debian: mesa-vulkan-drivers, or the GPU vendor's)"
    )]
    NoDriver,
    #[error("no Vulkan device found")]
    NoDevice,
    #[error("no usable Vulkan device: {0}")]
    NoUsableDevice(String),
    #[error("device {index} does not exist ({count} device(s) found)")]
    NoSuchDevice { index: usize, count: usize },
    #[error("device {index} ({name}) cannot run vkperft: {reason}")]
    DeviceUnsuitable {
        index: usize,
        name: String,
        reason: String,
    },
    #[error(
        "no pipeline statistics from {0}: the driver lacks VK_KHR_pipeline_executable_properties \
         (lavapipe lacks it; RADV has it, also as a null device with RADV_FORCE_FAMILY=navi21)"
    )]
    NoPipelineStatistics(String),
    #[error("out of GPU memory: {0}")]
    OutOfMemory(String),
    #[error("the GPU device was lost")]
    DeviceLost,
    #[error("a GPU dispatch did not finish within {0} seconds (fence timeout)")]
    Timeout(u64),
    #[error(
        "a search memory budget of {mb} MiB is too small: a chunk needs at least {needed_mb} MiB"
    )]
    BudgetTooSmall { mb: u64, needed_mb: u64 },
    #[error(
        "the transposition table needs {:.1} MiB but {device} has {:.1} MiB of device memory \
         left beside the search buffers",
        mib(*needed),
        mib(*available)
    )]
    TableTooLarge {
        needed: usize,
        available: usize,
        device: String,
    },
    #[error(
        "could not allocate {:.1} MiB of device memory for the transposition table ({reason})",
        mib(*bytes)
    )]
    TableAllocationFailed { bytes: usize, reason: String },
    #[error(
        "a transposition table of {:.1} MiB needs {segments} buffers on this device, more than \
         the {max} vkperft binds",
        mib(*bytes)
    )]
    TooManySegments {
        bytes: usize,
        segments: usize,
        max: usize,
    },
    #[error("a {mode} transposition table on the GPU needs {missing}, which {device} lacks")]
    LacksTableFeatures {
        mode: TtMode,
        device: String,
        missing: String,
    },
    #[error(
        "the transposition table probe of {device} disagrees with the CPU's on crafted buckets, \
         so its table cannot be trusted: {differences}"
    )]
    TableProbeMismatch { device: String, differences: String },
    #[error("{variable}={value} is not {expected}")]
    BadOverride {
        variable: &'static str,
        expected: &'static str,
        value: String,
    },
    #[error(
        "{variable} is set but the validation layer {layer} is not installed (Debian: \
         vulkan-validationlayers)"
    )]
    NoValidationLayer {
        variable: &'static str,
        layer: String,
    },
    #[error("the SPIR-V of the {stage} stage built into vkperft is invalid: {reason}")]
    BadShader { stage: &'static str, reason: String },
    #[error("the {0} buffer is not in host-visible memory, so the host cannot reach it")]
    NotHostVisible(&'static str),
    #[error("the device's warm-up is wrong: start position perft(3) gave {counts}, expected 8902")]
    WarmUpMismatch { counts: String },
    #[error("the probe self-test could not build its table: {0}")]
    SelfTestTable(String),
    /// A diagnostic operation asked of a backend not in the state it needs.
    #[error("cannot {operation}: {reason}")]
    Misuse {
        operation: &'static str,
        reason: &'static str,
    },
    #[error("Vulkan call {call} failed: {result}")]
    Vulkan { call: &'static str, result: String },
}

impl GpuError {
    /// Whether the device itself failed (as opposed to a request it cannot meet, or a fault of
    /// vkperft's own): it should not be trusted with another run.
    pub fn is_device_failure(&self) -> bool {
        matches!(
            self,
            GpuError::OutOfMemory(_)
                | GpuError::DeviceLost
                | GpuError::Timeout(_)
                | GpuError::Vulkan { .. }
        )
    }

    /// Maps a Vulkan result to the error a user can act on.
    pub fn from_vk(call: &'static str, result: vk::Result) -> GpuError {
        match result {
            vk::Result::ERROR_OUT_OF_DEVICE_MEMORY | vk::Result::ERROR_OUT_OF_HOST_MEMORY => {
                GpuError::OutOfMemory(format!("{call}: {result}"))
            }
            vk::Result::ERROR_DEVICE_LOST => GpuError::DeviceLost,
            vk::Result::ERROR_INCOMPATIBLE_DRIVER => GpuError::NoDriver,
            _ => GpuError::Vulkan {
                call,
                result: result.to_string(),
            },
        }
    }
}

/// `result.map_err(vk_error("vkCall"))`.
pub fn vk_error(call: &'static str) -> impl Fn(vk::Result) -> GpuError {
    move |result| GpuError::from_vk(call, result)
}

/// A table's error is the contract's own; every other is the device's.
impl From<GpuError> for BackendError {
    fn from(error: GpuError) -> BackendError {
        match error {
            GpuError::Table(error) => BackendError::Table(error),
            device => BackendError::Device(Box::new(device)),
        }
    }
}

impl From<GpuError> for RunError {
    fn from(error: GpuError) -> RunError {
        RunError::Failed(error.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_vulkan_calls_are_device_failures() {
        for result in [
            vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
            vk::Result::ERROR_DEVICE_LOST,
            vk::Result::ERROR_INITIALIZATION_FAILED,
        ] {
            assert!(GpuError::from_vk("vkQueueSubmit", result).is_device_failure());
        }
        assert!(GpuError::Timeout(60).is_device_failure());
    }

    #[test]
    fn failures_that_are_not_vulkan_calls_leave_the_device_trusted() {
        let not_the_device = [
            GpuError::NoValidationLayer {
                variable: "VKPERFT_VALIDATION",
                layer: "VK_LAYER_KHRONOS_validation".into(),
            },
            GpuError::BadShader {
                stage: "expand",
                reason: "not a multiple of 4 bytes".into(),
            },
            GpuError::NotHostVisible("upload"),
            GpuError::WarmUpMismatch {
                counts: "Some([8901])".into(),
            },
            GpuError::SelfTestTable("no buckets".into()),
            GpuError::Misuse {
                operation: "load a table",
                reason: "no table is prepared",
            },
        ];
        for error in not_the_device {
            assert!(!error.is_device_failure(), "{error}");
        }
    }

    #[test]
    fn each_failure_says_what_failed() {
        assert_eq!(
            GpuError::NotHostVisible("upload").to_string(),
            "the upload buffer is not in host-visible memory, so the host cannot reach it"
        );
        assert_eq!(
            GpuError::Misuse {
                operation: "run a stage",
                reason: "the chunk's first position is not 0",
            }
            .to_string(),
            "cannot run a stage: the chunk's first position is not 0"
        );
        assert_eq!(
            GpuError::WarmUpMismatch {
                counts: "None".into()
            }
            .to_string(),
            "the device's warm-up is wrong: start position perft(3) gave None, expected 8902"
        );
    }
}
