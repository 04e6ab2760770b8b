//! The table's constants that the GPU shaders share: the shallowest depth that is probed and
//! stored, the compact entries of depth 2, and the layout of the per-depth statistics counters. Dependency-free: `build.rs`
//! includes this file and passes every entry of [`SHADER_DEFINES`] to the GLSL compiler.

/// Shallowest remaining depth that is probed and stored: a depth-1 count is a popcount, far
/// cheaper than a table access.
pub const MIN_TT_DEPTH: u32 = 2;

/// Deepest remaining depth the table keeps, with statistics of its own; deeper positions are
/// not kept. Each kept depth has a Zobrist depth key of its own (`crates/chess/src/chess/zobrist.rs` holds
/// 64, asserted in `crates/table/src/tt/table.rs`), and every job's depth is within it (`crates/engine/src/engine/job.rs`).
pub const MAX_TABLE_DEPTH: u32 = 63;

/// Entries per fast bucket, 64-bit words per fast entry, and the bits of a fast data word below
/// its count (the remaining depth + 1): `fast.rs`.
pub const FAST_WAYS: u32 = 4;
pub const FAST_WORDS: u32 = 2;
pub const FAST_DEPTH_BITS: u32 = 8;
/// Exact entries per `verified` bucket, 64-bit words per exact entry, the word each field
/// starts at, and the bits of a tag below its hash bits (the remaining depth + 1): `exact.rs`.
pub const VERIFIED_WAYS: u32 = 2;
pub const EXACT_WORDS: u32 = 8;
pub const EXACT_SEQUENCE: u32 = 0;
pub const EXACT_TAG: u32 = 1;
pub const EXACT_COUNT: u32 = 2;
pub const EXACT_KEY: u32 = 4;
pub const TAG_DEPTH_BITS: u32 = 8;

/// The one remaining depth the compact entries of a split fast table hold (`compact.rs`).
pub const COMPACT_DEPTH: u32 = 2;
/// Entries per compact bucket (a 32-byte sector).
pub const COMPACT_WAYS: u32 = 4;
/// Bits of a compact entry's count field (the count + 1); the check takes the rest.
pub const COMPACT_COUNT_BITS: u32 = 16;

/// The statistics counters of one depth, as 64-bit words in this order (the GPU's statistics
/// buffer holds `MAX_TABLE_DEPTH + 1` such groups, depth 0 first).
pub const COUNTER_HITS: u32 = 0;
pub const COUNTER_MISSES: u32 = 1;
pub const COUNTER_STORES: u32 = 2;
pub const COUNTER_OVERWRITES: u32 = 3;
pub const COUNTER_USED_DELTA: u32 = 4;
pub const COUNTER_WRONG_OCCUPIED: u32 = 5;
pub const COUNTER_FALSE_HITS: u32 = 6;
pub const COUNTER_PAYLOAD_SKIPS: u32 = 7;
pub const COUNTERS_PER_DEPTH: u32 = 8;
// Each invocation keeps its counts in four bits per counter of one 32-bit word (tt_stats.glsl).
const _: () = assert!(COUNTERS_PER_DEPTH * 4 <= 32);

pub const SHADER_DEFINES: [(&str, u32); 24] = [
    ("TT_MIN_DEPTH", MIN_TT_DEPTH),
    ("TT_FAST_WAYS", FAST_WAYS),
    ("TT_FAST_WORDS", FAST_WORDS),
    ("TT_FAST_DEPTH_BITS", FAST_DEPTH_BITS),
    ("TT_VERIFIED_WAYS", VERIFIED_WAYS),
    ("TT_EXACT_WORDS", EXACT_WORDS),
    ("TT_EXACT_SEQUENCE", EXACT_SEQUENCE),
    ("TT_EXACT_TAG", EXACT_TAG),
    ("TT_EXACT_COUNT", EXACT_COUNT),
    ("TT_EXACT_KEY", EXACT_KEY),
    ("TT_TAG_DEPTH_BITS", TAG_DEPTH_BITS),
    ("TT_COMPACT_DEPTH", COMPACT_DEPTH),
    ("TT_COMPACT_WAYS", COMPACT_WAYS),
    ("TT_COMPACT_COUNT_BITS", COMPACT_COUNT_BITS),
    ("TT_STATS_MAX_DEPTH", MAX_TABLE_DEPTH),
    ("TT_STAT_HITS", COUNTER_HITS),
    ("TT_STAT_MISSES", COUNTER_MISSES),
    ("TT_STAT_STORES", COUNTER_STORES),
    ("TT_STAT_OVERWRITES", COUNTER_OVERWRITES),
    ("TT_STAT_USED_DELTA", COUNTER_USED_DELTA),
    ("TT_STAT_WRONG_OCCUPIED", COUNTER_WRONG_OCCUPIED),
    ("TT_STAT_FALSE_HITS", COUNTER_FALSE_HITS),
    ("TT_STAT_PAYLOAD_SKIPS", COUNTER_PAYLOAD_SKIPS),
    ("TT_STAT_FIELDS", COUNTERS_PER_DEPTH),
];
