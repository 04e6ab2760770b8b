//! vkperft's transposition tables (fast, verified and certify entries, the GPU's bucket layout
//! shared with the shaders) and the published reference counts tests and the window compare
//! with.

// `unsafe_code` is denied by the workspace's lints and allowed only on the table's prefetch
// hint and its lazily backed arrays (tt/prefetch.rs, tt/zeroed_array.rs).
pub mod reference;
pub mod tt;

use vkperft_chess::{chess, count};
