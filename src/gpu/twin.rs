//! The CPU twin of the search stages: `expand`, `dedup`, `leaf`, `upsweep` and `next_level` over
//! `Vec`s of the buffer layouts the shaders use (`gpu/layouts.rs`), one file per stage as the
//! shaders have (`glsl/*.comp`), and an executor that runs the scheduler's chunks with them. So
//! the scheduler and the work counters are tested on any machine, and each shader against its
//! twin on any device (`tests/integration/gpu_twin.rs`).
//!
//! The stages are twinned without a table: the table variants' probes and stores have no twin
//! here (the tables have their own Rust twins in `src/tt/`, and the probe self-test checks the
//! shaders' probe against them), so the executor runs chunks without a table, where no level
//! is deduplicated; the dedup stage's twin is tested against the device on its own.
//!
//! Where the device leaves an order free the twin takes one: invocations run in order, so an
//! expand hands out child slots in the order of its positions, each position's moves come in
//! the CPU generator's order, and dedup's first occurrence is the earliest. Tests compare what
//! does not depend on it: each position's children as a set, which positions are searched,
//! counts, level sizes, the overflow flag and the work counters.

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
