//! The Vulkan compute backend.
//!
//! - [`vk`]: the thin wrappers of Vulkan (instance, device, buffers, pipelines, submission and
//!   command recording), the backend's only unsafe code;
//! - [`layouts`]: Rust twins of the structs the shaders see;
//! - [`tables`]: the ray tables uploaded for the shaders;
//! - [`tt_table`]: the transposition table in device memory;
//! - [`chunk_arrays`]: a chunk's level arrays in segments reached by device address;
//! - [`shader_stats`]: the driver's compiler statistics of the stages (`vkperft shader-stats`);
//! - [`scheduler`]: which items go to the device together, whole or in parts, and what
//!   follows an overflow, behind an executor trait;
//! - [`chunk_shape`], [`level_work`]: a chunk's stages level by level and what its levels
//!   count, for every executor;
//! - [`backend`]: the Vulkan backend, the breadth-first perft driver: the scheduler and the
//!   device runner;
//! - [`runner`]: the device runner, the scheduler's executor on a device (its chunks,
//!   buffers, table and diagnostics in `runner/`);
//! - [`twin`]: the CPU twin of the search stages and the scheduler's executor on the CPU.

pub mod backend;
pub mod chunk_arrays;
pub mod chunk_shape;
pub mod error;
pub mod layouts;
pub mod level_work;
pub mod options;
pub mod runner;
pub mod scheduler;
pub mod shader_layout;
pub mod shader_stats;
pub mod slider_attacks;
pub mod tables;
pub mod tt_table;
pub mod twin;
#[allow(unsafe_code)]
pub mod vk;

pub use backend::{ScheduleStats, VulkanBackend};
pub use runner::{memory_defaults, DeviceRunner, MemoryDefaults};
pub use vk::device::{list_devices, DeviceInfo, DeviceKind};
// The paths the CLI, the engine and the tests name.
pub use error::GpuError;
pub use options::{GpuOptions, SelfTestProbe, Submissions, MAX_WORKGROUPS_VARIABLE};
pub use vk::{device, pipelines};
