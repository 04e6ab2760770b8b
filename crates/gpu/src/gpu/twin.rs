//! The CPU twin of the search stages: `expand`, `dedup`, `leaf`, `upsweep` and `next_level` over
//! `Vec`s of the buffer layouts the shaders use (`gpu/layouts.rs`), one file per stage as the
//! shaders have (`glsl/*.comp`), and an executor that runs the scheduler's chunks with them. So
//! the scheduler and the work counters are tested on any machine, and each shader against its
//! twin on any device (`tests/integration/gpu_twin.rs`).
//!
//! The table variants are twinned too: [`TwinTable`] is the CPU's table, laid out as the GPU's
//! byte for byte, probed and stored where the shaders' `tt_probe` and `tt_store` are; the
//! executor runs the chunk's stage program (`gpu/chunk_shape.rs`) with or without one, its
//! levels deduplicated when it has one. A fast table split by depth has no twin.
//!
//! Where the device leaves an order free the twin takes one: invocations run in order, so an
//! expand hands out child slots in the order of its positions, each position's moves come in
//! the CPU generator's order, and dedup's first occurrence is the earliest. Tests compare what
//! does not depend on it: each position's children as a set, which positions are searched,
//! counts, level sizes, the overflow flag, the work counters and the entries a table holds
//! (where no store replaces another key's, so that the order of stores cannot matter).

pub mod buffers;
pub mod dedup;
pub mod executor;
pub mod expand;
pub mod leaf;
pub mod next_level;
pub mod table;
#[cfg(test)]
mod tests;
pub mod upsweep;

pub use buffers::TwinBuffers;
pub use executor::TwinExecutor;
pub use table::TwinTable;
