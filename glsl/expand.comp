// Expand: writes the children of every position of a level, appended after the level, and
// records where each position's children are. A level that does not fit sets the overflow flag
// and writes no children, so the host can split the chunk and redo it.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "movegen.glsl"

uint next_child_slot;

void on_move(Pos parent, uint from, uint to, uint kind) {
    boards[next_child_slot] = encode_board(play_move(parent, from, to, kind));
    next_child_slot++;
}

#include "generate.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= step.input_count) {
        return;
    }
    uint index = step.input_offset + i;
    Pos p = decode_board(boards[index]);
    uint moves = count_legal(p);
    uint first = atomicAdd(control.appended, moves);
    if (first + moves > step.output_capacity) {
        atomicOr(control.overflow, 1u);
        children[index] = uvec2(0u, 0u);
        return;
    }
    children[index] = uvec2(step.output_offset + first, moves);
    next_child_slot = step.output_offset + first;
    generate_moves(p);
}
