// Layout probe: writes back, field by field, what the shader sees in the first board, the
// first children entry (both at the chunk's first position), the control block (its last
// level), the push constants and the TT parameters, so a test can check that the Rust twins in crates/gpu/src/gpu/layouts.rs have the offsets the shaders use. Each
// value v goes out as the 128-bit count (v, ~v), which checks the `u64vec2` layout as well.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

layout(local_size_x = 1) in;

#include "buffers.glsl"
#include "tt.glsl"

uint probed = 0u;

void write_back(uint64_t value) {
    count_at(chunk_arrays.first_position + probed) = u64vec2(value, ~value);
    probed++;
}

void main() {
    uint first = chunk_arrays.first_position;
    GpuBoard board = board_at(first);
    for (uint k = 0u; k < 4u; k++) {
        write_back(board.planes[k]);
    }
    write_back(uint64_t(child_at(first).x));
    write_back(uint64_t(child_at(first).y));
    write_back(uint64_t(control.appended));
    write_back(uint64_t(control.overflow));
    write_back(uint64_t(control.capacity));
    write_back(uint64_t(control.inner_capacity));
    write_back(uint64_t(control.max_groups_x));
    Level last = control.levels[MAX_LEVELS - 1];
    write_back(uint64_t(last.offset));
    write_back(uint64_t(last.count));
    write_back(uint64_t(last.groups_x));
    write_back(uint64_t(last.groups_y));
    write_back(uint64_t(last.groups_z));
    write_back(uint64_t(step.level));
    write_back(uint64_t(step.remaining));
    write_back(uint64_t(step.flags));
    write_back(uint64_t(step.first_invocation));
    write_back(uint64_t(tt.mode));
    write_back(uint64_t(tt.segment_shift));
    write_back(tt.buckets);
    write_back(tt.verifier_mask);
    write_back(tt.compact_buckets);
    write_back(tt.compact_verifier_mask);
    write_back(tt.fast_segments[0]);
    write_back(tt.fast_segments[TT_MAX_SEGMENTS - 1]);
    write_back(tt.exact_segments[0]);
    write_back(tt.exact_segments[TT_MAX_SEGMENTS - 1]);
    write_back(tt.stats_segments[0]);
    write_back(tt.stats_segments[TT_MAX_SEGMENTS - 1]);
}
