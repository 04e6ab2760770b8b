// The table's parameters, the Zobrist keys and the statistics counters, as the host uploads
// them (crates/gpu/src/gpu/layouts.rs: TtParamsHead; crates/gpu/src/gpu/runner/table.rs).
#ifndef TT_PARAMS_GLSL
#define TT_PARAMS_GLSL

#include "buffers.glsl"

layout(std430, set = 0, binding = BINDING_TT_PARAMS) readonly buffer TtParams {
    uint mode;
    // Buckets per segment: 1 << segment_shift.
    uint segment_shift;
    uint64_t buckets;
    // The low verifier bits a fast probe compares.
    uint64_t verifier_mask;
    // Compact depth-2 buckets at the start of the fast array (0: none).
    uint64_t compact_buckets;
    // The check bits a compact probe compares, in place.
    uint64_t compact_verifier_mask;
    uint64_t fast_segments[TT_MAX_SEGMENTS];
    uint64_t exact_segments[TT_MAX_SEGMENTS];
    // A table with move-type statistics (tt_move_stats.glsl): each segment's statistics slots
    // (0 without).
    uint64_t stats_segments[TT_MAX_SEGMENTS];
} tt;

layout(std430, set = 0, binding = BINDING_ZOBRIST) readonly buffer ZobristKeys {
    u64vec2 zobrist[ZOBRIST_KEYS];
};

// Per remaining depth, TT_STAT_FIELDS counters (the order of TT_STAT_*).
layout(std430, set = 0, binding = BINDING_TT_STATS) buffer TtStats {
    uint64_t tt_stats[];
};

#endif
