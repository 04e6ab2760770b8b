// Leaf: the last two plies fused. For remaining depth 2, every move is made and the child's
// legal moves are counted without being generated; for remaining depth 1, the position's own
// moves are counted.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "movegen.glsl"

uint64_t leaf_sum;

void on_move(Pos parent, uint from, uint to, uint kind) {
    leaf_sum += uint64_t(count_legal(play_move(parent, from, to, kind)));
}

#include "generate.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= step.input_count) {
        return;
    }
    uint index = step.input_offset + i;
    Pos p = decode_board(boards[index]);
    if (step.leaf_depth == 1u) {
        counts[index] = uint64_t(count_legal(p));
    } else {
        leaf_sum = uint64_t(0);
        generate_moves(p);
        counts[index] = leaf_sum;
    }
}
