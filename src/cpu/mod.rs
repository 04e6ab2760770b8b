//! CPU perft backends: a single-thread reference and the parallel driver.

pub mod parallel;
pub mod reference;
pub mod search;
