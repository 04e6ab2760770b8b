//! vkperft's engine (one thread that runs the window's and the command line's jobs on a
//! backend), plans and their work units (journals, merge, certificate), and test suites.

#![forbid(unsafe_code)]

pub mod engine;
pub mod suite;
pub mod work;

use vkperft_chess::{chess, count, hunt};
use vkperft_cpu::{cpu, unique};
use vkperft_gpu::gpu;
use vkperft_run::{backend, work_counters};
use vkperft_table::{reference, tt};
