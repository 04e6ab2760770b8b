// Upsweep: a position's count is the sum of its children's counts. Children are contiguous
// (expand appends them together), so a gather needs no atomics.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= step.input_count) {
        return;
    }
    uint index = step.input_offset + i;
    uvec2 range = children[index];
    uint64_t sum = uint64_t(0);
    for (uint c = range.x; c < range.x + range.y; c++) {
        sum += counts[c];
    }
    counts[index] = sum;
}
