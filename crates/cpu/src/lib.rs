//! vkperft's CPU backend (the specialised generator on every core, with the table) and the
//! unique positions per ply.

#![forbid(unsafe_code)]

pub mod cpu;
pub mod unique;

use vkperft_chess::{chess, count};
use vkperft_run::{backend, work_counters};
use vkperft_table::tt;
