// Key probe: writes the TT hash of every input position at `step.remaining` plies, so a test
// can check it against the CPU's Zobrist hash.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "tt.glsl"

void main() {
    uint i = level_invocation();
    if (i < level_count()) {
        uint index = level_offset() + i;
        hash_at(index) = tt_hash(decode_board(board_at(index)), step.remaining);
    }
}
