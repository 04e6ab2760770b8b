// The buffers and push constants every stage shares. Rust twins: src/gpu/layouts.rs.
#ifndef BUFFERS_GLSL
#define BUFFERS_GLSL

#include "board.glsl"

// Positions of all levels of a chunk, level after level.
layout(std430, set = 0, binding = BINDING_BOARDS) buffer Boards {
    GpuBoard boards[];
};


// Per position: index of its first child, and in `y` the number of children (low bits,
// CHILD_COUNT_MASK) with the CHILD_FLAG_* flags above them (written by expand). In a compact
// leaf level, the position's leaf entry (leaf_entry.glsl). Unlike the buffers below, it holds
// every level of the chunk, the compact leaf level included (Control.capacity).
layout(std430, set = 0, binding = BINDING_CHILDREN) buffer Children {
    uvec2 children[];
};

// Per position: the 128-bit leaf count of its subtree as (low, high) words (written by leaf or
// by a TT hit, summed up by upsweep; a compact leaf level's positions add theirs into their
// parents' instead).
layout(std430, set = 0, binding = BINDING_COUNTS) buffer Counts {
    u64vec2 counts[];
};

// certify only: per position, what the fast table alone would have counted, as `counts`.
layout(std430, set = 0, binding = BINDING_FAST_COUNTS) buffer FastCounts {
    u64vec2 fast_counts[];
};

// The same two buffers as 32-bit words, four per count, for the atomic adds of a compact leaf
// level into its parents' low words: a parent three plies deep counts at most 218^3 leaves,
// below 2^32, so the sum never carries.
layout(std430, set = 0, binding = BINDING_COUNTS) buffer CountWords {
    uint count_words[];
};
layout(std430, set = 0, binding = BINDING_FAST_COUNTS) buffer FastCountWords {
    uint fast_count_words[];
};

// Per position of an expanded level (TT on): its TT key hash, (low, high) words, so that
// upsweep can store without hashing again.
layout(std430, set = 0, binding = BINDING_HASHES) buffer Hashes {
    u64vec2 hashes[];
};

// The dedup set of the level being deduplicated: per slot, index + 1 of the first position of
// the level that claimed it (0 = free). Cleared by the host before each level.
layout(std430, set = 0, binding = BINDING_DEDUP) buffer DedupSet {
    uint dedup_set[];
};

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
        && (children[index].y & uint(CHILD_FLAG_DUPLICATE)) != 0u;
}

#endif
