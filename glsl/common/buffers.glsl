// The buffers and push constants every stage shares. Rust twins: src/gpu/layouts.rs.
#ifndef BUFFERS_GLSL
#define BUFFERS_GLSL

#include "board.glsl"

// Positions of all levels of a chunk, level after level.
layout(std430, set = 0, binding = BINDING_BOARDS) buffer Boards {
    GpuBoard boards[];
};


// Per position: index of its first child, and in `y` the number of children (low bits,
// CHILD_COUNT_MASK) with the CHILD_FLAG_* flags above them (written by expand).
layout(std430, set = 0, binding = BINDING_CHILDREN) buffer Children {
    uvec2 children[];
};

// Per position: the 128-bit leaf count of its subtree as (low, high) words (written by leaf or
// by a TT hit, summed up by upsweep).
layout(std430, set = 0, binding = BINDING_COUNTS) buffer Counts {
    u64vec2 counts[];
};

// certify only: per position, what the fast table alone would have counted, as `counts`.
layout(std430, set = 0, binding = BINDING_FAST_COUNTS) buffer FastCounts {
    u64vec2 fast_counts[];
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

layout(std430, set = 0, binding = BINDING_CONTROL) buffer Control {
    // Children appended so far to the level being written.
    uint appended;
    // Set when a level did not fit: the host splits the chunk and redoes it.
    uint overflow;
} control;

layout(push_constant) uniform Step {
    // The level this dispatch reads.
    uint input_offset;
    uint input_count;
    // Where expand appends children, and how many fit there.
    uint output_offset;
    uint output_capacity;
    // Plies below the input positions: the TT depth of expand and upsweep, and 1 or 2 for leaf.
    uint remaining;
    // DEDUP_* bits: which levels were deduplicated.
    uint dedup;
    // The level's position that this dispatch's first invocation takes, counted from
    // input_offset: a level larger than the device's workgroup limit is dispatched in parts.
    uint first_invocation;
} step;

bool is_duplicate(uint index) {
    return (step.dedup & uint(DEDUP_INPUT)) != 0u
        && (children[index].y & uint(CHILD_FLAG_DUPLICATE)) != 0u;
}

#endif
