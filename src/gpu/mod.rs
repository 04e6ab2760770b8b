//! The Vulkan compute backend. All unsafe Vulkan code of the project lives in this module,
//! wrapped in types that free what they own when dropped.
//!
//! - [`device`]: instance creation, the device list (`vkperft devices`) and device choice;
//! - [`context`]: the logical device, queue, allocator and command submission;
//! - [`buffer`]: buffers from `gpu-allocator`;
//! - [`pipelines`]: the compute stages compiled from `glsl/` by `build.rs`;
//! - [`layouts`]: Rust twins of the structs the shaders see;
//! - [`tables`]: the ray tables uploaded for the shaders;
//! - [`tt_table`]: the transposition table in device memory;
//! - [`shader_stats`]: the driver's compiler statistics of the stages (`vkperft shader-stats`);
//! - [`backend`]: the breadth-first perft driver (its chunks, buffers, table and diagnostics
//!   in `backend/`).

pub mod backend;
pub mod buffer;
pub mod context;
pub mod device;
pub mod error;
pub mod layouts;
pub mod options;
pub mod pipelines;
pub mod shader_layout;
pub mod shader_stats;
pub mod slider_attacks;
pub mod tables;
pub mod tt_table;

pub use backend::{memory_defaults, MemoryDefaults, ScheduleStats, VulkanBackend};
pub use device::{list_devices, DeviceInfo, DeviceKind};
pub use error::GpuError;
pub use options::{GpuOptions, SelfTestProbe, Submissions, MAX_WORKGROUPS_VARIABLE};
