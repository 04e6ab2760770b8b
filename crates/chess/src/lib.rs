//! vkperft's chess: positions and their validation, move generation (the reference generator
//! and the specialised one the CPU backend counts with), perft on one thread, the child lines
//! of a divide, and the UCI engines a hunt compares against.

// `unsafe_code` is denied by the workspace's lints and allowed only on the module of the
// specialised generator's slider lookups (chess/specialized/sliders.rs), which calls into its
// BMI2 build after run-time detection.
pub mod chess;
pub mod child_lines;
pub mod count;
pub mod hunt;
