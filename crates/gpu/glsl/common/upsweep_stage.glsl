// Upsweep: a position's count is the sum of its children's counts. Children are contiguous
// (expand appends them together), so a gather needs no atomics; a child marked as a duplicate
// counts what its first occurrence counted. Children in a compact leaf level (COMPACT_LEAF)
// added their counts in themselves. A position whose count came from the TT keeps it; every
// other complete count is stored in the TT.
// Included by upsweep.comp (the node count) and upsweep_stats.comp (a move-type statistics
// run, which sums and stores the positions' statistics as it does their counts).
#ifndef UPSWEEP_STAGE_GLSL
#define UPSWEEP_STAGE_GLSL

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "tt.glsl"
#include "u128.glsl"

// Where the counts of child `c` are: its own, or its first occurrence's.
uint counted_child(uint c) {
    if (has_flag(uint(DEDUP_CHILDREN))) {
        uvec2 child = child_at(c);
        if ((child.y & uint(CHILD_FLAG_DUPLICATE)) != 0u) {
            return child.x;
        }
    }
    return c;
}

#ifdef MOVE_STATS
// The statistics of `index` from those of its children (`range` of them), column by column,
// and in certify their fast statistics unless its own are final (`fast_final`).
void sum_children_stats(uint index, uvec2 range, bool certify, bool fast_final) {
    uint end = range.x + (range.y & uint(CHILD_COUNT_MASK));
    for (uint k = 0u; k < STAT_COLUMNS; k++) {
        u64vec2 exact = u64vec2(0);
        u64vec2 fast = u64vec2(0);
        for (uint c = range.x; c < end; c++) {
            uint counted = counted_child(c);
            exact = add128(exact, stats_at(counted, k));
            if (certify) {
                fast = add128(fast, fast_stats_at(counted, k));
            }
        }
        stats_at(index, k) = exact;
        if (certify && !fast_final) {
            fast_stats_at(index, k) = fast;
        }
    }
}
#endif

void sum_children(uint index) {
    if (is_duplicate(index)) {
        return;
    }
    uvec2 range = child_at(index);
    uint flags = range.y & ~uint(CHILD_COUNT_MASK);
    if ((flags & uint(CHILD_FLAG_RESOLVED)) != 0u) {
        return;
    }
    bool certify = tt.mode == TT_MODE_CERTIFY;
    u64vec2 exact = u64vec2(0);
    u64vec2 fast = u64vec2(0);
    if (has_flag(uint(COMPACT_LEAF))) {
        exact = count_at(index);
        fast = certify ? fast_count_at(index) : exact;
    } else {
        uint end = range.x + (range.y & uint(CHILD_COUNT_MASK));
        for (uint c = range.x; c < end; c++) {
            uint counted = counted_child(c);
            exact = add128(exact, count_at(counted));
            if (certify) {
                fast = add128(fast, fast_count_at(counted));
            }
        }
        count_at(index) = exact;
        if (certify && (flags & uint(CHILD_FLAG_FAST_FINAL)) == 0u) {
            fast_count_at(index) = fast;
        }
#ifdef MOVE_STATS
        sum_children_stats(index, range, certify, (flags & uint(CHILD_FLAG_FAST_FINAL)) != 0u);
#endif
    }
    // A false hit's subtree is searched for the exact count, but the fast table would not
    // have stored it: nothing is stored (as on the CPU).
    if (tt_enabled(step.remaining) && flags == 0u) {
#ifdef MOVE_STATS
        stored_stats_index = index;
#endif
        tt_store(hash_at(index), board_at(index), step.remaining, exact, certify ? fast : exact);
    }
}

void main() {
    tt_stats_begin();
    uint i = level_invocation();
    if (i < level_count()) {
        sum_children(level_offset() + i);
    }
    tt_stats_flush(step.remaining);
}

#endif
