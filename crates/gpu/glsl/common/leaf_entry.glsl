// Compact leaf entries (LEAF_ENTRY_DUPLICATE in crates/gpu/src/gpu/shader_layout.rs): the last expand of a
// chunk writes each position of the leaf level as its parent's index and the move that makes it,
// 8 bytes where a board, hash, count and child range took 72. Dedup and leaf make the move
// again where they need the position, and the leaf adds its counts into the parent's.
#ifndef LEAF_ENTRY_GLSL
#define LEAF_ENTRY_GLSL

#include "buffers.glsl"
#include "tt_child_hash.glsl"

uint leaf_entry_move(uint from, uint to, uint kind) {
    return from | to << 6u | kind << 12u;
}

bool leaf_entry_is_duplicate(uvec2 entry) {
    return (entry.y & uint(LEAF_ENTRY_DUPLICATE)) != 0u;
}

// The position of `entry` (not a duplicate's), at step.remaining plies, and, if `hashed`, its
// TT hash (from the parent's, which the parent's expand left in `hashes`).
Pos leaf_entry_position(uvec2 entry, bool hashed, out u64vec2 hash) {
    Pos parent = decode_board(board_at(entry.x));
    uint from = entry.y & 63u;
    uint to = (entry.y >> 6u) & 63u;
    uint kind = entry.y >> 12u;
    hash = u64vec2(0);
    if (hashed) {
        hash = tt_move_hash(hash_at(entry.x), parent, from, to, kind, step.remaining + 1u);
    }
    Pos child = play_move(parent, from, to, kind);
    if (hashed) {
        hash = tt_child_hash(hash, child);
    }
    return child;
}

// Adds a leaf-level position's counts into its parent's low words (see CountWordsRef). A certify
// false hit's fast count is final already (its expand set it): it gets no fast counts.
void leaf_entry_add_to_parent(uint parent, uint exact, uint fast) {
    atomicAdd(count_low_word(parent), exact);
    if (tt.mode == TT_MODE_CERTIFY
            && (child_at(parent).y & uint(CHILD_FLAG_FAST_FINAL)) == 0u) {
        atomicAdd(fast_count_low_word(parent), fast);
    }
}

#endif
