// The buffers and push constants every stage shares. Rust twins: crates/gpu/src/gpu/layouts.rs.
#ifndef BUFFERS_GLSL
#define BUFFERS_GLSL

#include "board.glsl"

// A chunk's level arrays, each in segments of 1 << segment_shift bytes (a power of two, so no
// element straddles two) that are allocations of their own, reached by device address: an
// array may exceed one storage-buffer binding (maxStorageBufferRange) and one allocation
// (crates/gpu/src/gpu/chunk_arrays.rs). Element i of an array lies at byte i * its size, in segment
// byte >> segment_shift; byte offsets are 64-bit. Positions are indexed from first_position
// on (0 but for the VKPERFT_CHUNK_FIRST_POSITION debug knob, which puts a chunk's bytes past
// 4 GiB); a segment no position reaches has address 0.
layout(std430, set = 0, binding = BINDING_CHUNK_ARRAYS) readonly buffer ChunkArrays {
    uint segment_shift;
    // The index of a chunk's first position: level 0 starts there.
    uint first_position;
    // Per array (CHUNK_BOARDS...), the addresses of its segments.
    uint64_t segments[CHUNK_ARRAYS * CHUNK_MAX_SEGMENTS];
} chunk_arrays;

uint64_t chunk_address(uint array, uint64_t byte_offset) {
    uint segment = uint(byte_offset >> chunk_arrays.segment_shift);
    uint64_t within = byte_offset & ((uint64_t(1) << chunk_arrays.segment_shift) - uint64_t(1));
    return chunk_arrays.segments[array * CHUNK_MAX_SEGMENTS + segment] + within;
}

// Per position of the levels before the compact leaf level: its board.
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoardRef {
    GpuBoard value;
};

// Per position: index of its first child, and in `y` the number of children (low bits,
// CHILD_COUNT_MASK) with the CHILD_FLAG_* flags above them (written by expand). In a compact
// leaf level, the position's leaf entry (leaf_entry.glsl). Unlike the arrays below, it holds
// every level of the chunk, the compact leaf level included (Control.capacity).
layout(buffer_reference, std430, buffer_reference_align = 8) buffer ChildRef {
    uvec2 value;
};

// Per position: the 128-bit leaf count of its subtree as (low, high) words (written by leaf or
// by a TT hit, summed up by upsweep; a compact leaf level's positions add theirs into their
// parents' instead). The same array holds certify's fast counts (what the fast table alone
// would have counted) and, with a TT, each expanded position's TT key hash, so that upsweep
// can store without hashing again.
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ValueRef {
    u64vec2 value;
};

// In a move-type statistics run, per position of the levels before the compact leaf level:
// the statistics of its subtree, STAT_COLUMNS 128-bit values in the order of STAT_*, each a
// sum over the last ply's moves as the count is (the leaf counts them, a table hit gives them,
// upsweep sums them). In certify, the fast array holds what the fast table alone would have
// counted, as fast counts do.
#define STATS_ELEMENT(array, i, column) CHUNK_ELEMENT(ValueRef, array, \
    uint64_t(i) * uint64_t(STAT_COLUMNS) + uint64_t(column), 16).value
#define stats_at(i, column) STATS_ELEMENT(CHUNK_STATS, i, column)
#define fast_stats_at(i, column) STATS_ELEMENT(CHUNK_FAST_STATS, i, column)

// A count as 32-bit words, for the atomic adds of a compact leaf level into its parents' low
// words: a parent three plies deep counts at most 218^3 leaves, below 2^32, so the sum never
// carries.
layout(buffer_reference, std430, buffer_reference_align = 16) buffer CountWordsRef {
    uint words[4];
};

// The dedup set of the level being deduplicated: per slot, index + 1 of the first position of
// the level that claimed it (0 = free). Slots are counted from the level's start, after
// first_position * DEDUP_SLOTS_PER_POSITION slots that no level uses.
layout(buffer_reference, std430, buffer_reference_align = 4) buffer DedupSlotRef {
    uint value;
};

// The arrays' elements, as lvalues: macros, not functions (see tt_buckets.glsl's segments).
#define CHUNK_ELEMENT(Ref, array, index, bytes) \
    Ref(chunk_address(array, uint64_t(index) * uint64_t(bytes)))
#define board_at(i) CHUNK_ELEMENT(BoardRef, CHUNK_BOARDS, i, 32).value
#define child_at(i) CHUNK_ELEMENT(ChildRef, CHUNK_CHILDREN, i, 8).value
#define count_at(i) CHUNK_ELEMENT(ValueRef, CHUNK_COUNTS, i, 16).value
#define fast_count_at(i) CHUNK_ELEMENT(ValueRef, CHUNK_FAST_COUNTS, i, 16).value
#define hash_at(i) CHUNK_ELEMENT(ValueRef, CHUNK_HASHES, i, 16).value
#define count_low_word(i) CHUNK_ELEMENT(CountWordsRef, CHUNK_COUNTS, i, 16).words[0]
#define fast_count_low_word(i) CHUNK_ELEMENT(CountWordsRef, CHUNK_FAST_COUNTS, i, 16).words[0]
#define dedup_slot(slot) CHUNK_ELEMENT(DedupSlotRef, CHUNK_DEDUP, \
    uint64_t(chunk_arrays.first_position) * uint64_t(DEDUP_SLOTS_PER_POSITION) + uint64_t(slot), \
    4).value

// One level of a chunk: where its positions are, how many, and the workgroups that cover them
// (a VkDispatchIndirectCommand at byte 8, which the level's indirect dispatches read).
struct Level {
    uint offset;
    uint count;
    uint groups_x;
    uint groups_y;
    uint groups_z;
    uint unused[3];
};

// Written by the host at the start of a chunk (level 0 and the limits), then by `next_level`
// after each expand: the chunk's levels are known on the device, so a whole chunk can be
// recorded at once with indirect dispatches.
layout(std430, set = 0, binding = BINDING_CONTROL) buffer Control {
    // Children appended so far to the level being written.
    uint appended;
    // Set when a level did not fit: the host splits the chunk and redoes it.
    uint overflow;
    // Positions the chunk's levels may hold: where the space expand appends to ends, for the
    // compact leaf level (`children` alone), and for the levels before it (every buffer).
    uint capacity;
    uint inner_capacity;
    // Workgroups along x of one dispatch (the device's limit); a larger level adds rows in y.
    uint max_groups_x;
    uint unused[3];
    Level levels[MAX_LEVELS];
} control;

layout(push_constant) uniform Step {
    // The level this dispatch reads.
    uint level;
    // Plies below the input positions: the TT depth of expand and upsweep, and 1 or 2 for leaf.
    uint remaining;
    // DEDUP_* bits (which levels were deduplicated, what dedup does) and COMPACT_LEAF.
    uint flags;
    // The level's position that this dispatch's first invocation takes: a level dispatched from
    // the host goes out in parts (0 for an indirect dispatch, which covers the whole level).
    uint first_invocation;
} step;

uint level_offset() {
    return control.levels[step.level].offset;
}

uint level_count() {
    return control.levels[step.level].count;
}

// This invocation's position in the level, counted from its offset; workgroups go along x,
// then y (gl_NumWorkGroups.x is the row length).
uint level_invocation() {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    return step.first_invocation + group * WORKGROUP_SIZE + gl_LocalInvocationID.x;
}

bool has_flag(uint flag) {
    return (step.flags & flag) != 0u;
}

bool is_duplicate(uint index) {
    return (step.flags & uint(DEDUP_INPUT)) != 0u
        && (child_at(index).y & uint(CHILD_FLAG_DUPLICATE)) != 0u;
}

#endif
