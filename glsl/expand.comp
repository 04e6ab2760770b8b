// Expand: writes the children of every position of a level, appended after the level, and
// records where each position's children are. With a TT, a position is probed first: a hit
// gives its counts and no children. A level that does not fit sets the overflow flag and
// writes no children, so the host can split the chunk and redo it.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "movegen.glsl"
#include "tt.glsl"

uint next_child_slot;

void on_move(Pos parent, uint from, uint to, uint kind) {
    boards[next_child_slot] = encode_board(play_move(parent, from, to, kind));
    next_child_slot++;
}

#include "generate.glsl"

void expand_position(uint index) {
    if (is_duplicate(index)) {
        return;
    }
    GpuBoard board = boards[index];
    Pos p = decode_board(board);
    uint flags = 0u;
    if (tt_enabled(step.remaining)) {
        u64vec2 hash;
        if ((step.dedup & uint(DEDUP_INPUT)) != 0u) {
            hash = hashes[index];
        } else {
            hash = tt_hash(p, step.remaining);
            hashes[index] = hash;
        }
        Probe probe = tt_probe(hash, board, step.remaining);
        if (probe.kind == PROBE_HIT) {
            counts[index] = probe.exact;
            set_fast_count(index, u64vec2(probe.fast, uint64_t(0)));
            children[index] = uvec2(0u, uint(CHILD_FLAG_RESOLVED));
            return;
        }
        if (probe.kind == PROBE_FALSE_HIT) {
            set_fast_count(index, u64vec2(probe.fast, uint64_t(0)));
            flags = uint(CHILD_FLAG_FAST_FINAL);
        }
    }
    uint moves = count_legal(p);
    uint first = atomicAdd(control.appended, moves);
    if (first + moves > step.output_capacity) {
        atomicOr(control.overflow, 1u);
        children[index] = uvec2(0u, 0u);
        return;
    }
    children[index] = uvec2(step.output_offset + first, moves | flags);
    next_child_slot = step.output_offset + first;
    generate_moves(p);
}

void main() {
    tt_stats_begin();
    uint i = step.first_invocation + gl_GlobalInvocationID.x;
    if (i < step.input_count) {
        expand_position(step.input_offset + i);
    }
    tt_stats_flush(step.remaining);
}
