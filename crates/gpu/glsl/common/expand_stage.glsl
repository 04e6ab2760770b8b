// Expand: writes the children of every position of a level, appended after the level, and
// records where each position's children are. With a TT, a position is probed first: a hit
// gives its counts and no children. A level that does not fit sets the overflow flag and
// writes no children, so the host can split the chunk and redo it. With COMPACT_LEAF the level
// written is the chunk's leaf level, as leaf entries (leaf_entry.glsl), and each expanded
// position's counts start at 0 for its children to add into.
//
// Space for children is handed out by one atomic per subgroup on the device-local append
// counter (the subgroup's total), each invocation taking its prefix of it.
// Included by expand.comp (the node count) and expand_stats.comp (a move-type statistics run,
// where a table hit gives the position's statistics beside its counts).
#ifndef EXPAND_STAGE_GLSL
#define EXPAND_STAGE_GLSL

layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "movegen.glsl"
#include "tt.glsl"
#include "tt_child_hash.glsl"
#include "work.glsl"
#include "leaf_entry.glsl"

uint next_child_slot;
// The position being expanded, for the leaf entries of its children (COMPACT_LEAF).
uint parent_index;
// The parent's TT hash, when the level being written is deduplicated (DEDUP_OUTPUT).
u64vec2 parent_hash;

void on_move(Pos parent, uint from, uint to, uint kind) {
    if (has_flag(uint(COMPACT_LEAF))) {
        child_at(next_child_slot) = uvec2(parent_index, leaf_entry_move(from, to, kind));
        next_child_slot++;
        return;
    }
    bool hashed = has_flag(uint(DEDUP_OUTPUT));
    u64vec2 move_hash = hashed ? tt_move_hash(parent_hash, parent, from, to, kind, step.remaining) : u64vec2(0);
    Pos child = play_move(parent, from, to, kind);
    board_at(next_child_slot) = encode_board(child);
    if (hashed) {
        hash_at(next_child_slot) = tt_child_hash(move_hash, child);
    }
    next_child_slot++;
}

#include "generate.glsl"

// The number of children `index` gets space for, after the table probe: 0 for a duplicate and
// a table hit (`expands` false: they get no children and their `children` entry is already
// set). `flags` gets CHILD_FLAG_FAST_FINAL on a certify false hit.
uint children_needed(uint index, out bool expands, out uint flags) {
    expands = false;
    flags = 0u;
    if (is_duplicate(index)) {
        return 0u;
    }
    GpuBoard board = board_at(index);
    Pos p = decode_board(board);
    if (tt_enabled(step.remaining)) {
        u64vec2 hash;
        if (has_flag(uint(DEDUP_INPUT))) {
            hash = hash_at(index);
        } else {
            hash = tt_hash(p, step.remaining);
            hash_at(index) = hash;
        }
        Probe probe = tt_probe(hash, board, step.remaining);
#ifdef MOVE_STATS
        if (probe.kind != PROBE_MISS && !tt_copy_stats(probe, hash, index)) {
            probe.kind = PROBE_MISS;
        }
#endif
        if (probe.kind == PROBE_HIT) {
            count_at(index) = probe.exact;
            set_fast_count(index, u64vec2(probe.fast, uint64_t(0)));
            child_at(index) = uvec2(0u, uint(CHILD_FLAG_RESOLVED));
            return 0u;
        }
        if (probe.kind == PROBE_FALSE_HIT) {
            set_fast_count(index, u64vec2(probe.fast, uint64_t(0)));
            flags = uint(CHILD_FLAG_FAST_FINAL);
        }
    }
    expands = true;
    return count_legal(p);
}

// Writes the `moves` children of `index` from slot `first` of the level being appended (which
// starts at `output_offset`), or flags the overflow when they do not fit.
void write_children(uint index, uint output_offset, uint first, uint moves, uint flags) {
    bool compact = has_flag(uint(COMPACT_LEAF));
    uint capacity = compact ? control.capacity : control.inner_capacity;
    if (first + moves > capacity - output_offset) {
        atomicOr(control.overflow, 1u);
        child_at(index) = uvec2(0u, 0u);
        return;
    }
    child_at(index) = uvec2(output_offset + first, moves | flags);
    next_child_slot = output_offset + first;
    if (compact) {
        parent_index = index;
        count_at(index) = u64vec2(0);
        if ((flags & uint(CHILD_FLAG_FAST_FINAL)) == 0u) {
            set_fast_count(index, u64vec2(0));
        }
    } else if (has_flag(uint(DEDUP_OUTPUT))) {
        // children_needed left the hash in `hashes` whenever this level uses the table.
        bool hashed = has_flag(uint(DEDUP_INPUT)) || tt_enabled(step.remaining);
        parent_hash = hashed ? hash_at(index) : tt_hash(decode_board(board_at(index)), step.remaining);
    }
    generate_moves(index);
}

void main() {
    work_begin();
    tt_stats_begin();
    uint i = level_invocation();
    uint input_offset = level_offset();
    uint input_count = level_count();
    uint index = input_offset + i;
    bool expands = false;
    uint flags = 0u;
    uint moves = 0u;
    if (i < input_count) {
        moves = children_needed(index, expands, flags);
    }
    // In uniform control flow: every invocation of the subgroup takes part.
    uint total = subgroupAdd(moves);
    uint base = 0u;
    if (subgroupElect() && total != 0u) {
        base = atomicAdd(control.appended, total);
    }
    uint first = subgroupBroadcastFirst(base) + subgroupExclusiveAdd(moves);
    if (expands) {
        write_children(index, input_offset + input_count, first, moves, flags);
        work_count(WORK_FIELD_EXPANDED, 1u);
    }
    // The work counters first: on lavapipe (Mesa 22.3) an invocation that looped more often
    // than others of its SIMD group through tt_stats_flush's barriers loses stores after it.
    work_flush(step.remaining);
    tt_stats_flush(step.remaining);
}

#endif
