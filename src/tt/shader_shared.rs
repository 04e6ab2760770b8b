//! The table's constants that the GPU shaders share: the shallowest depth that is probed and
//! stored, the compact entries of depth 2, and the layout of the per-depth statistics counters. Dependency-free: `build.rs`
//! includes this file and passes every entry of [`SHADER_DEFINES`] to the GLSL compiler.

/// Shallowest remaining depth that is probed and stored: a depth-1 count is a popcount, far
/// cheaper than a table access.
pub const MIN_TT_DEPTH: u32 = 2;

/// Deepest remaining depth with statistics of its own; deeper positions are not kept.
pub const MAX_DEPTH: u32 = 64;

/// The one remaining depth the compact entries of a split fast table hold (`compact.rs`).
pub const COMPACT_DEPTH: u32 = 2;
/// Entries per compact bucket (a 32-byte sector).
pub const COMPACT_WAYS: u32 = 4;
/// Bits of a compact entry's count field (the count + 1); the check takes the rest.
pub const COMPACT_COUNT_BITS: u32 = 16;

/// The statistics counters of one depth, as 64-bit words in this order (the GPU's statistics
/// buffer holds `MAX_DEPTH + 1` such groups, depth 0 first).
pub const COUNTER_HITS: u32 = 0;
pub const COUNTER_MISSES: u32 = 1;
pub const COUNTER_STORES: u32 = 2;
pub const COUNTER_OVERWRITES: u32 = 3;
pub const COUNTER_USED_DELTA: u32 = 4;
pub const COUNTER_WRONG_OCCUPIED: u32 = 5;
pub const COUNTER_FALSE_HITS: u32 = 6;
pub const COUNTER_PAYLOAD_SKIPS: u32 = 7;
pub const COUNTERS_PER_DEPTH: u32 = 8;
// Each invocation keeps its counts in four bits per counter of one 32-bit word (tt.glsl).
const _: () = assert!(COUNTERS_PER_DEPTH * 4 <= 32);

pub const SHADER_DEFINES: [(&str, u32); 14] = [
    ("TT_MIN_DEPTH", MIN_TT_DEPTH),
    ("TT_COMPACT_DEPTH", COMPACT_DEPTH),
    ("TT_COMPACT_WAYS", COMPACT_WAYS),
    ("TT_COMPACT_COUNT_BITS", COMPACT_COUNT_BITS),
    ("TT_STATS_MAX_DEPTH", MAX_DEPTH),
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
