//! CPU perft: the parallel driver, the searches it runs per task, the backend the engine
//! drives, and the exact divide other engines are compared with.

pub mod backend;
mod exact_divide;
pub mod parallel;
pub mod search;
pub mod table_size;

pub use backend::CpuBackend;
pub use exact_divide::exact_divide;
