//! The transposition table, in the modes the user trusts it with (`--tt`).
//!
//! - `fast`: 16-byte entries, four to a 64-byte bucket, verified by `hash.hi ^ hash.lo`
//!   ([`fast`]); `--verifier-bits` narrows the check to demonstrate false hits.
//! - `verified`: 64-byte entries, two to a bucket, keyed by the exact
//!   [`NybbleBoard`](crate::chess::NybbleBoard) and depth, under a per-entry seqlock
//!   ([`exact`]): no false hits.
//! - `certify`: the fast table plus an exact shadow entry per fast entry; every fast hit is checked
//!   against the shadow and false hits are counted, so the caller keeps an exact total and
//!   can report what the fast total would have been.
//!
//! A store replaces the shallowest entry of its bucket (`replace.rs`). The GPU's fast table
//! may keep depth 2 apart, in compact 8-byte entries ([`compact`], [`split`]).
//! The remaining depth is part of every key: probes and stores take
//! `position_hash ^ zobrist.depth_key(depth)` and the depth itself. Each worker thread takes a
//! [`ThreadStats`] from [`TranspositionTable::thread_stats`]; [`TranspositionTable::snapshot`]
//! sums them at any time.

pub mod compact;
pub mod compact_table;
pub mod exact;
pub mod fast;

mod config;
mod huge_pages;
mod layout;
mod memory;
mod mode;
pub mod move_stats_slots;
// The table's only unsafe code: the prefetch hint (one intrinsic call) and its lazily backed
// arrays. Elsewhere unsafe code is allowed only in crates/gpu/src/gpu/ (src/lib.rs) and the specialised
// generator's slider lookups (crates/chess/src/chess/specialized/mod.rs); the package denies it everywhere
// else (Cargo.toml, tests/integration/source_layout.rs).
#[allow(unsafe_code)]
mod prefetch;
mod replace;
mod report;
mod risk;
mod serde_u128;
pub mod shader_shared;
mod shape;
pub mod split;
mod stats;
pub(crate) mod table;
#[allow(unsafe_code)]
mod zeroed_array;

pub use config::{
    mib, TtConfig, TtError, DEFAULT_VERIFIER_BITS, MAX_VERIFIER_BITS, MIN_VERIFIER_BITS,
};
pub use huge_pages::huge_pages_from_env;
pub use layout::{bucket_bytes, slot_bytes, ways};
pub use memory::{available_memory, MemorySource};
pub use mode::{ParseTtModeError, TtMode};
pub use report::{TtReport, TtStatsSnapshot, NEGLIGIBLE_P_ANY};
pub use risk::{p_at_least_one, Risk};
pub use shader_shared::MIN_TT_DEPTH;
pub use shape::TableShape;
pub use split::{TableSplit, LINE_BYTES};
pub use stats::{DepthStats, ThreadStats, TtCounters, DEPTH_COUNTER_WORDS, MAX_TABLE_DEPTH};
pub use table::testing;
pub use table::{BucketRef, CountsProbe, Probe, ProbedPosition, TranspositionTable};
