//! vkperft: exact chess perft on the CPU and on Vulkan GPUs, with a transposition table whose
//! trust the user chooses.

pub mod app;
pub mod backend;
pub mod chess;
pub mod child_lines;
pub mod count;
pub mod cpu;
pub mod engine;
// `unsafe_code` is denied by the package's lints (Cargo.toml) and allowed only where these
// modules are declared: the Vulkan calls (src/gpu/vk/), the table's prefetch hint and lazily
// backed arrays (src/tt/prefetch.rs, src/tt/zeroed_array.rs), and the specialised generator's
// slider lookups (src/chess/specialized/sliders.rs); `source_layout` checks it.
pub mod gpu;
pub mod hunt;
pub mod reference;
pub mod suite;
pub mod tt;
pub mod unique;
pub mod work;
pub mod work_counters;
