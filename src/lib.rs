//! vkperft: exact chess perft on the CPU and on Vulkan GPUs, with a transposition table whose
//! trust the user chooses.

pub mod app;
pub mod chess;
pub mod count;
pub mod cpu;
pub mod engine;
// Vulkan calls are unsafe; `unsafe_code` is denied everywhere else by the package's lints
// (Cargo.toml), but for the specialised generator's BMI2 entry (src/chess/specialized).
#[allow(unsafe_code)]
pub mod gpu;
pub mod hunt;
pub mod plan;
pub mod reference;
pub mod run_control;
pub mod tt;
pub mod unique;
pub mod work;
