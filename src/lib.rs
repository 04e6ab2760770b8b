//! vkperft: exact chess perft on the CPU and on Vulkan GPUs, with a transposition table whose
//! trust the user chooses.

pub mod app;
pub mod chess;
pub mod count;
pub mod cpu;
pub mod engine;
pub mod gpu;
pub mod reference;
pub mod run_control;
pub mod tt;
