// Leaf: the last two plies fused. For remaining depth 2, every move is made and the child's
// legal moves are counted without being generated, but for the node count's neutral moves,
// counted by the replies of the board with the turn passed (null_replies.glsl); for remaining
// depth 1, the position's own moves are counted. With a TT, a depth-2 position is probed first
// and its count stored after.
// A chunk's own level (its items) is read from `boards` and counted into `counts`; a compact
// leaf level (COMPACT_LEAF) is made from its leaf entries, each adding its counts into its
// parent's and leaving them in its entry for its duplicates (dedup's DEDUP_RESOLVE).
// Included by leaf.comp (the node count) and leaf_stats.comp (the move-type statistics, which
// tallies every column of the moves it counts into the level's `stats` beside its counts; a
// statistics run's leaf level is never compact, its positions having no room for them, and
// may be deduplicated like any other level after the chunk's own).
#ifndef LEAF_STAGE_GLSL
#define LEAF_STAGE_GLSL

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "movegen.glsl"
#include "tt.glsl"
#include "work.glsl"
#include "leaf_entry.glsl"

#ifdef MOVE_STATS
#include "move_stats.glsl"
#define LEAF_MOVES(position) tally_moves(position)

// The tally of position `index`'s moves as its statistics, and with `fast_too` as those the
// fast table alone would have counted (certify keeps them apart).
void write_tally(uint index, bool fast_too) {
    for (uint k = 0u; k < STAT_COLUMNS; k++) {
        u64vec2 value = u64vec2(uint64_t(tally_value(k)), uint64_t(0));
        stats_at(index, k) = value;
        if (fast_too && tt.mode == TT_MODE_CERTIFY) {
            fast_stats_at(index, k) = value;
        }
    }
}
#else
#define LEAF_MOVES(position) count_legal(position)
#endif

// The level's position `index`, made again from its leaf entry in a compact leaf level, with
// its TT hash if `hashed`.
Pos level_position(uint index, bool hashed, out u64vec2 hash) {
    if (has_flag(uint(COMPACT_LEAF))) {
        return leaf_entry_position(child_at(index), hashed, hash);
    }
    hash = u64vec2(0);
    Pos p = decode_board(board_at(index));
    if (hashed) {
        hash = tt_hash(p, step.remaining);
    }
    return p;
}

// The generator reads its position again for every group of moves and every move (see
// generate.glsl); a leaf entry's is made again each time. Holding it in registers instead
// costs more than a GPU's register budget; in shared memory, lavapipe (Mesa 22.3) loses the
// invocation's stores after the generator's loop.
Pos generator_level_position(uint index) {
    u64vec2 unused;
    return level_position(index, false, unused);
}
#define GENERATOR_POSITION(index) generator_level_position(index)

#ifndef MOVE_STATS
#include "null_replies.glsl"
#endif

uint64_t leaf_sum;

void on_move(Pos parent, uint from, uint to, uint kind) {
#ifndef MOVE_STATS
    // The node count makes only the moves that change the opponent's replies. The slot has a
    // salt (0: a square is below 64, but the compiler cannot tell) so that its reads stay here
    // rather than being held in registers through the generator's loop.
    uint slot = gl_LocalInvocationIndex + (to >> 6u);
    if (is_neutral(parent, slot, from, to, kind)) {
        leaf_sum += uint64_t(null_load(slot, NULL_REPLIES));
        work_count(WORK_FIELD_NULL_COUNTED, 1u);
        return;
    }
#endif
    leaf_sum += uint64_t(LEAF_MOVES(play_move(parent, from, to, kind)));
    // A child whose moves are counted: a leaf count-op, added in shared memory.
    work_count(WORK_FIELD_LEAF_COUNT_OPS, 1u);
}

#include "generate.glsl"

// The leaves two plies below the level's position `index`, from the table or counted; `fast`
// is what the fast table alone gives, the count but for a certify false hit.
uint64_t count_two_plies(uint index, out uint64_t fast) {
    bool tt_on = tt_enabled(step.remaining);
    bool false_hit = false;
    if (tt_on) {
        u64vec2 hash;
        GpuBoard key = encode_board(level_position(index, true, hash));
        Probe probe = tt_probe(hash, key, step.remaining);
#ifdef MOVE_STATS
        if (probe.kind != PROBE_MISS && !tt_copy_stats(probe, hash, index)) {
            probe.kind = PROBE_MISS;
        }
#endif
        fast = probe.fast;
        if (probe.kind == PROBE_HIT) {
            return probe.exact.x;
        }
        // certify: the fast table's answer is final; the children give the exact count.
        false_hit = probe.kind == PROBE_FALSE_HIT;
    }
#ifdef MOVE_STATS
    tally_clear();
#endif
    leaf_sum = uint64_t(0);
#ifndef MOVE_STATS
    null_replies_begin(index);
#endif
    generate_moves(index);
    work_count(WORK_FIELD_EXPANDED, 1u);
    uint64_t count = leaf_sum;
#ifdef MOVE_STATS
    write_tally(index, !false_hit);
#endif
    if (!false_hit) {
        fast = count;
        if (tt_on) {
            // The key and hash are made again rather than held through the generation. `again`
            // is 0 (a leaf count is far below 2^63) but no constant to the compiler, which would
            // otherwise reuse the values made before the generation and hold them through it.
            uint again = uint(count >> 63);
            u64vec2 hash;
            GpuBoard key = encode_board(level_position(index + again, true, hash));
            u64vec2 stored = u64vec2(count, uint64_t(0));
#ifdef MOVE_STATS
            stored_stats_index = index;
#endif
            tt_store(hash, key, step.remaining, stored, stored);
        }
    }
    return count;
}

// A position of the chunk's own level.
void count_item(uint index) {
#ifdef MOVE_STATS
    if (is_duplicate(index)) {
        return;
    }
#endif
    if (step.remaining == 1u) {
#ifdef MOVE_STATS
        tally_clear();
#endif
        u64vec2 count = u64vec2(uint64_t(LEAF_MOVES(decode_board(board_at(index)))), uint64_t(0));
        count_at(index) = count;
        set_fast_count(index, count);
#ifdef MOVE_STATS
        write_tally(index, true);
#endif
        work_count(WORK_FIELD_LEAF_COUNT_OPS, 1u);
        return;
    }
    uint64_t fast;
    uint64_t count = count_two_plies(index, fast);
    count_at(index) = u64vec2(count, uint64_t(0));
    set_fast_count(index, u64vec2(fast, uint64_t(0)));
}

#ifndef MOVE_STATS
// A position of a compact leaf level; a duplicate is counted by dedup's DEDUP_RESOLVE.
void count_entry(uint index) {
    uvec2 entry = child_at(index);
    if (leaf_entry_is_duplicate(entry)) {
        return;
    }
    uint64_t fast;
    // Two plies count at most 218^2 leaves: every count below fits a word.
    uint count = uint(count_two_plies(index, fast));
    leaf_entry_add_to_parent(entry.x, count, uint(fast));
    child_at(index) = uvec2(uint(fast), count);
}
#endif

void main() {
    work_begin();
    tt_stats_begin();
    uint i = level_invocation();
    if (i < level_count()) {
        uint index = level_offset() + i;
#ifdef MOVE_STATS
        count_item(index);
#else
        if (has_flag(uint(COMPACT_LEAF))) {
            count_entry(index);
        } else {
            count_item(index);
        }
#endif
    }
    // The work counters first: on lavapipe (Mesa 22.3) an invocation that looped more often
    // than others of its SIMD group through tt_stats_flush's barriers loses stores after it.
    work_flush(step.remaining);
    tt_stats_flush(step.remaining);
}

#endif
