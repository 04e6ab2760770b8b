// Leaf: the last two plies fused. For remaining depth 2, every move is made and the child's
// legal moves are counted without being generated; for remaining depth 1, the position's own
// moves are counted. With a TT, a depth-2 position is probed first and its count stored after.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "movegen.glsl"
#include "tt.glsl"
#include "work.glsl"

uint64_t leaf_sum;

void on_move(Pos parent, uint from, uint to, uint kind) {
    leaf_sum += uint64_t(count_legal(play_move(parent, from, to, kind)));
    // A child whose moves are counted: a leaf count-op, added in shared memory.
    work_count(WORK_FIELD_LEAF_COUNT_OPS, 1u);
}

#include "generate.glsl"

void count_position(uint index) {
    if (is_duplicate(index)) {
        return;
    }
    if (step.remaining == 1u) {
        u64vec2 count = u64vec2(uint64_t(count_legal(decode_board(boards[index]))), uint64_t(0));
        counts[index] = count;
        set_fast_count(index, count);
        work_count(WORK_FIELD_LEAF_COUNT_OPS, 1u);
        return;
    }
    bool tt_on = tt_enabled(step.remaining);
    bool false_hit = false;
    if (tt_on) {
        u64vec2 hash;
        if ((step.dedup & uint(DEDUP_INPUT)) != 0u) {
            hash = hashes[index];
        } else {
            hash = tt_hash(decode_board(boards[index]), step.remaining);
            hashes[index] = hash;
        }
        Probe probe = tt_probe(hash, boards[index], step.remaining);
        if (probe.kind == PROBE_HIT) {
            counts[index] = probe.exact;
            set_fast_count(index, u64vec2(probe.fast, uint64_t(0)));
            return;
        }
        false_hit = probe.kind == PROBE_FALSE_HIT;
        if (false_hit) {
            // certify: the fast table's answer is final; the children give the exact count.
            set_fast_count(index, u64vec2(probe.fast, uint64_t(0)));
        }
    }
    leaf_sum = uint64_t(0);
    generate_moves(index);
    work_count(WORK_FIELD_EXPANDED, 1u);
    u64vec2 count = u64vec2(leaf_sum, uint64_t(0));
    counts[index] = count;
    if (!false_hit) {
        set_fast_count(index, count);
        if (tt_on) {
            // The key and hash are read again rather than held through the generation. `again`
            // is 0 (a leaf count is far below 2^63) but no constant to the compiler, which would
            // otherwise reuse the values read before the generation and hold them through it.
            uint again = uint(count.x >> 63);
            tt_store(hashes[index + again], boards[index + again], step.remaining, count, count);
        }
    }
}

void main() {
    work_begin();
    tt_stats_begin();
    uint i = level_invocation();
    if (i < level_count()) {
        count_position(level_offset() + i);
    }
    // The work counters first: on lavapipe (Mesa 22.3) an invocation that looped more often
    // than others of its SIMD group through tt_stats_flush's barriers loses stores after it.
    work_flush(step.remaining);
    tt_stats_flush(step.remaining);
}
