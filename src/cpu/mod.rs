//! CPU perft: the parallel driver, the searches it runs per task, and the backend the engine
//! drives.

pub mod backend;
pub mod parallel;
pub mod search;
pub mod table_size;

pub use backend::CpuBackend;
