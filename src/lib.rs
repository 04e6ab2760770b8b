//! vkperft: exact chess perft on the CPU and on Vulkan GPUs, with a transposition table whose
//! trust the user chooses. This crate is the window; the layers below it are crates of their
//! own (`crates/`), re-exported here under the module names the command line and the tests use.

#![forbid(unsafe_code)]

pub mod app;

pub use vkperft_chess::{chess, child_lines, count, hunt};
pub use vkperft_cpu::{cpu, unique};
pub use vkperft_engine::{engine, suite, work};
pub use vkperft_gpu::gpu;
pub use vkperft_run::{backend, work_counters};
pub use vkperft_table::{reference, tt};
