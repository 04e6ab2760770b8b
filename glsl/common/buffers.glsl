// The buffers and push constants every stage shares. Rust twins: src/gpu/layouts.rs.
#ifndef BUFFERS_GLSL
#define BUFFERS_GLSL

#include "board.glsl"

// Positions of all levels of a chunk, level after level.
layout(std430, set = 0, binding = BINDING_BOARDS) buffer Boards {
    GpuBoard boards[];
};

// Per position: index of its first child and number of children (written by expand).
layout(std430, set = 0, binding = BINDING_CHILDREN) buffer Children {
    uvec2 children[];
};

// Per position: leaf count of its subtree (written by leaf, summed up by upsweep).
layout(std430, set = 0, binding = BINDING_COUNTS) buffer Counts {
    uint64_t counts[];
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
    // leaf: remaining depth of the input positions (1 or 2).
    uint leaf_depth;
} step;

#endif
