//! vkperft's integration tests, one module per area, in one test binary: the library and its
//! dependencies are linked once, not once per file. Tests that run the command-line program
//! spawn the binary Cargo builds beside this one (`CARGO_BIN_EXE_vkperft`).

mod common;
mod strategies;

mod bench_peers;
mod chess960;
mod cli;
mod completions_man;
mod differential;
mod docs;
mod fen_errors;
mod fen_properties;
mod gpu;
mod gpu_cli;
mod gpu_tt;
mod gpu_twin;
mod gui;
mod gui_smoke;
mod gui_stats;
mod gui_suite;
mod gui_window;
mod hunt_cli;
mod interrupt;
mod key_properties;
mod keys;
mod material;
mod neutral_stats;
mod null_replies;
mod perft_reference;
mod shader_stats_cli;
mod slurm_cli;
mod source_layout;
mod specialized;
mod specialized_stats;
mod stats_cli;
mod stats_modes;
mod stats_python_chess;
mod suite_cli;
mod tricky;
mod tt_cli;
mod tt_modes;
mod uci;
mod uci_properties;
mod work_cli;
mod work_counters;
