//! vkperft: exact chess perft on the CPU and on Vulkan GPUs, with a transposition table whose
//! trust the user chooses.

pub mod app;
pub mod backend;
pub mod chess;
pub mod child_lines;
pub mod count;
pub mod cpu;
pub mod engine;
// The main module with unsafe code (Vulkan calls); the only others are the table's prefetch
// hint and lazily backed arrays (src/tt/prefetch.rs, src/tt/zeroed_array.rs) and the
// specialised generator's slider lookups (BMI2 entry and unchecked attack-set loads,
// src/chess/specialized/sliders.rs), each allowed where its module is declared. `unsafe_code` is denied everywhere else by the package's lints (Cargo.toml).
#[allow(unsafe_code)]
pub mod gpu;
pub mod hunt;
pub mod reference;
pub mod suite;
pub mod tt;
pub mod unique;
pub mod work;
pub mod work_counters;
