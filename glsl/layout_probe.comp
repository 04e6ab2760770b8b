// Layout probe: writes back, field by field, what the shader sees in the first board, the
// first children entry, the control block and the push constants, so a test can check that
// the Rust twins in src/gpu/layouts.rs have the offsets the shaders use.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 1) in;

#include "buffers.glsl"

void main() {
    GpuBoard board = boards[0];
    for (uint k = 0u; k < 4u; k++) {
        counts[k] = board.planes[k];
    }
    counts[4] = uint64_t(children[0].x);
    counts[5] = uint64_t(children[0].y);
    counts[6] = uint64_t(control.appended);
    counts[7] = uint64_t(control.overflow);
    counts[8] = uint64_t(step.input_offset);
    counts[9] = uint64_t(step.input_count);
    counts[10] = uint64_t(step.output_offset);
    counts[11] = uint64_t(step.output_capacity);
    counts[12] = uint64_t(step.leaf_depth);
}
