// Dedup: marks every position of a level that occurs earlier in the same level (a transposition
// within the chunk), so that it is searched once. Each position inserts itself into an
// open-addressing set keyed by its TT hash (which the expand that wrote the level computed
// from its parent's, see tt_child_hash; a compact leaf level's positions are made again from
// their leaf entries, and their hashes from their parents'); a slot held by another position
// makes it a duplicate only if the two boards are equal, so the merge is exact whatever the
// hash. Runs only with a TT; never on a chunk's first level, whose counts go back to the host.
// With DEDUP_CLEAR, a dispatch over the level clears the set first (the set has
// DEDUP_SLOTS_PER_POSITION slots per position of the level). With DEDUP_RESOLVE, after the
// leaf, each duplicate of a compact leaf level adds its first occurrence's counts into its own
// parent.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "movegen.glsl"
#include "tt.glsl"
#include "work.glsl"
#include "leaf_entry.glsl"

#if GPU_TT
// The key of the level's position at `index`, and its hash in `hash` if `hashed`.
GpuBoard level_key(uint index, bool hashed, out u64vec2 hash) {
    if (has_flag(uint(COMPACT_LEAF))) {
        return encode_board(leaf_entry_position(child_at(index), hashed, hash));
    }
    hash = hashed ? hash_at(index) : u64vec2(0);
    return board_at(index);
}

void mark_duplicate(uint index, uint first, uint first_in_level) {
    if (has_flag(uint(COMPACT_LEAF))) {
        // The entry keeps its parent, to add the first occurrence's counts into.
        child_at(index).y = uint(LEAF_ENTRY_DUPLICATE) | first_in_level;
    } else {
        child_at(index) = uvec2(first, uint(CHILD_FLAG_DUPLICATE));
    }
    work_count(WORK_FIELD_DUPLICATES, 1u);
}

void dedup_position(uint i, uint input_offset, uint input_count) {
    uint index = input_offset + i;
    u64vec2 hash;
    GpuBoard board = level_key(index, true, hash);
    uint size = DEDUP_SLOTS_PER_POSITION * input_count;
    uint slot = uint(mul_high64(hash.x, uint64_t(size)));
    if (!has_flag(uint(COMPACT_LEAF))) {
        child_at(index) = uvec2(0u, 0u);
    }
    for (uint probe = 0u; probe < DEDUP_MAX_PROBES; probe++) {
        uint claimed = atomicCompSwap(dedup_slot(slot), 0u, i + 1u);
        if (claimed == 0u) {
            return;
        }
        // A position that claimed a slot is never a duplicate: its entry stays as written.
        uint first = input_offset + claimed - 1u;
        u64vec2 unused;
        if (same_key(level_key(first, false, unused), board)) {
            mark_duplicate(index, first, claimed - 1u);
            return;
        }
        slot = slot + 1u == size ? 0u : slot + 1u;
    }
    // A crowded neighbourhood: searched on its own, which is only slower.
}

void resolve_duplicate(uint index, uint input_offset) {
    uvec2 entry = child_at(index);
    if (leaf_entry_is_duplicate(entry)) {
        // The first occurrence's entry holds (fast count, count) since the leaf.
        uvec2 counted = child_at(input_offset + (entry.y & ~uint(LEAF_ENTRY_DUPLICATE)));
        leaf_entry_add_to_parent(entry.x, counted.y, counted.x);
    }
}
#endif

void main() {
#if GPU_TT
    work_begin();
    uint i = level_invocation();
    uint input_count = level_count();
    if (i < input_count) {
        if (has_flag(uint(DEDUP_CLEAR))) {
            for (uint k = 0u; k < DEDUP_SLOTS_PER_POSITION; k++) {
                dedup_slot(i * DEDUP_SLOTS_PER_POSITION + k) = 0u;
            }
        } else if (has_flag(uint(DEDUP_RESOLVE))) {
            resolve_duplicate(level_offset() + i, level_offset());
        } else {
            dedup_position(i, level_offset(), input_count);
        }
    }
    work_flush(step.remaining);
#endif
}
