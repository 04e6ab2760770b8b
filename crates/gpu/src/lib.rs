//! vkperft's Vulkan backend: the device runner, the search stages (GLSL compiled to SPIR-V by
//! this crate's build script) and the CPU twin of each, the scheduler that sizes chunks.

// `unsafe_code` is denied by the workspace's lints and allowed only on the Vulkan calls
// (gpu/vk/).
pub mod gpu;

use vkperft_chess::{chess, count};
use vkperft_run::{backend, work_counters};
use vkperft_table::tt;
