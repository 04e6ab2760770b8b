//! vkperft's run contract: what a backend is asked (a request, a plan of work items), what it
//! answers (counts, statistics, progress, errors) and the work it counts on the way.

#![forbid(unsafe_code)]

pub mod backend;
pub mod work_counters;

use vkperft_chess::{chess, count};
use vkperft_table::tt;
