//! Every unsafe call of the Vulkan backend, behind safe types that free what they own when
//! dropped; the rest of `gpu/` is safe code built on them.
//!
//! - [`device`]: instance creation, the device list (`vkperft devices`) and device choice;
//! - [`shared`]: the logical device and its memory allocator;
//! - [`context`]: the queue, command buffers and fences, and command submission;
//! - [`recorder`]: the commands a submission records (its safety contract);
//! - [`buffer`]: buffers from `gpu-allocator`;
//! - [`pipelines`]: the compute stages compiled from `glsl/` by `build.rs`;
//! - [`executable_stats`]: the driver's compiler statistics of a pipeline.

pub mod buffer;
pub mod context;
pub mod device;
pub mod executable_stats;
pub mod pipelines;
pub mod recorder;
pub mod shared;
