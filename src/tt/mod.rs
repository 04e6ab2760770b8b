//! The transposition table, in the modes the user trusts it with (`--tt`).

pub mod exact;
pub mod fast;

mod config;
mod memory;
mod mode;
mod report;
mod risk;
mod serde_u128;
mod stats;

pub use config::{TtConfig, TtError, DEFAULT_VERIFIER_BITS, MAX_VERIFIER_BITS, MIN_VERIFIER_BITS};
pub use memory::available_memory;
pub use mode::{ParseTtModeError, TtMode};
pub use report::{TtReport, TtStatsSnapshot};
pub use risk::{p_at_least_one, Risk};
pub use stats::{Counts, DepthStats, ThreadStats, MAX_DEPTH};
