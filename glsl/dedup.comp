// Dedup: marks every position of a level that occurs earlier in the same level (a transposition
// within the chunk), so that it is searched once. Each position inserts itself into an
// open-addressing set keyed by its TT hash (which the expand that wrote the level computed
// from its parent's, see tt_child_hash); a slot
// held by another position makes it a duplicate only if the two boards are equal, so the
// merge is exact whatever the hash. Runs only with a TT; never on a chunk's first level, whose
// counts go back to the host. With DEDUP_CLEAR, a dispatch over the level clears the set first
// (the set has DEDUP_SLOTS_PER_POSITION slots per position of the level).
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "tt.glsl"
#include "work.glsl"

#if GPU_TT
void dedup_position(uint i, uint input_offset, uint input_count) {
    uint index = input_offset + i;
    GpuBoard board = boards[index];
    u64vec2 hash = hashes[index];
    uint size = DEDUP_SLOTS_PER_POSITION * input_count;
    uint slot = uint(mul_high64(hash.x, uint64_t(size)));
    children[index] = uvec2(0u, 0u);
    for (uint probe = 0u; probe < DEDUP_MAX_PROBES; probe++) {
        uint claimed = atomicCompSwap(dedup_set[slot], 0u, i + 1u);
        if (claimed == 0u) {
            return;
        }
        uint first = input_offset + claimed - 1u;
        if (same_key(boards[first], board)) {
            children[index] = uvec2(first, uint(CHILD_FLAG_DUPLICATE));
            work_count(WORK_FIELD_DUPLICATES, 1u);
            return;
        }
        slot = slot + 1u == size ? 0u : slot + 1u;
    }
    // A crowded neighbourhood: searched on its own, which is only slower.
}
#endif

void main() {
#if GPU_TT
    work_begin();
    uint i = level_invocation();
    uint input_count = level_count();
    if (i < input_count) {
        if ((step.dedup & uint(DEDUP_CLEAR)) != 0u) {
            for (uint k = 0u; k < DEDUP_SLOTS_PER_POSITION; k++) {
                dedup_set[i * DEDUP_SLOTS_PER_POSITION + k] = 0u;
            }
        } else {
            dedup_position(i, level_offset(), input_count);
        }
    }
    work_flush(step.remaining);
#endif
}
