//! CPU perft backends.

pub mod reference;
