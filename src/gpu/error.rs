//! Errors of the Vulkan backend.

use ash::vk;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GpuError {
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
    #[error("out of GPU memory: {0}")]
    OutOfMemory(String),
    #[error("the GPU device was lost")]
    DeviceLost,
    #[error("a GPU dispatch did not finish within {0} seconds (fence timeout)")]
    Timeout(u64),
    #[error("--gpu-mem-mb {mb} is too small: a chunk needs at least {needed_mb} MiB")]
    BudgetTooSmall { mb: u64, needed_mb: u64 },
    #[error("Vulkan call {call} failed: {result}")]
    Vulkan { call: &'static str, result: String },
}

impl GpuError {
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
