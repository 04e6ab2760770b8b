// The store: the replacement rule of crates/table/src/tt/replace.rs (crates/table/src/tt/compact.rs for compact buckets)
// and the exact entries' seqlock. Built with GPU_TT only.
#ifndef TT_STORE_GLSL
#define TT_STORE_GLSL

#include "tt_buckets.glsl"
#include "tt_stats.glsl"

// --- Store

// The replacement rule (crates/table/src/tt/replace.rs), folded over a bucket's entries in order.
struct Victim {
    uint same;
    uint empty;
    // The shallowest entry, scanning from `start` round the bucket: (way - start) % ways is
    // its place in the scan, and the first of equally shallow entries in scan order wins.
    uint shallowest;
    uint shallowest_depth;
    uint shallowest_place;
};

const uint NO_WAY = 0xffffffffu;

Victim victim_begin() {
    Victim v;
    v.same = NO_WAY;
    v.empty = NO_WAY;
    v.shallowest = NO_WAY;
    v.shallowest_depth = NO_DEPTH;
    v.shallowest_place = NO_WAY;
    return v;
}

// Entry `way` of a bucket of `ways` (a power of two), scanned from `start`: empty, the key
// being stored, or another key of `depth`.
void victim_add(inout Victim v, uint way, uint ways, uint start, bool empty, bool same,
        uint depth) {
    uint place = (way - start) & (ways - 1u);
    if (empty) {
        v.empty = v.empty == NO_WAY ? way : v.empty;
    } else if (same) {
        v.same = v.same == NO_WAY ? way : v.same;
    } else if (depth < v.shallowest_depth
            || (depth == v.shallowest_depth && place < v.shallowest_place)) {
        v.shallowest = way;
        v.shallowest_depth = depth;
        v.shallowest_place = place;
    }
}

// The entry a store overwrites: the same key, else the first empty entry, else the shallowest
// (ties: the first from the key's start).
uint tt_victim(Victim v) {
    if (v.same != NO_WAY) {
        return v.same;
    }
    if (v.empty != NO_WAY) {
        return v.empty;
    }
    return v.shallowest;
}

// `tie_start` of crates/table/src/tt/replace.rs.
uint tie_start(uint64_t check) {
    return uint(check >> 32);
}

// Takes an exact entry's write lock: false when another writer holds it (skip the store).
bool lock_exact(ExactSegment entries, uint base, out uint64_t stable) {
    stable = TT_LOAD(entries.words[base + EXACT_SEQUENCE], gl_SemanticsRelaxed);
    if ((stable & uint64_t(1)) != uint64_t(0)) {
        return false;
    }
    uint64_t seen = atomicCompSwap(entries.words[base + EXACT_SEQUENCE], stable,
        stable + uint64_t(1), gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire,
        gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    if (seen != stable) {
        return false;
    }
    // Orders the odd sequence before every field store that follows.
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    return true;
}

void unlock_exact(ExactSegment entries, uint base, uint64_t stable) {
    TT_STORE(entries.words[base + EXACT_SEQUENCE], stable + uint64_t(2), gl_SemanticsRelease);
}

// Records the counts of `key` at `depth` remaining plies in the entry of its bucket the
// replacement rule picks: fast keeps `fast`, verified keeps `exact`, certify keeps `fast` in
// the fast entry and `exact` in the shadow. A fast count that does not fit 56 bits is never
// stored (a payload skip).
// The compact store (crates/table/src/tt/compact.rs, `compact_victim`): the same check, else the first
// empty entry, else the entry the check's low bits pick.
void store_compact(u64vec2 hash, u64vec2 count) {
    if (count.y != uint64_t(0) || count.x > MAX_COMPACT_COUNT) {
        tt_count(TT_STAT_PAYLOAD_SKIPS);
        return;
    }
    Bucket b = compact_bucket(hash);
    FastWords words = fast_words(b);
    uint base = b.index * TT_COMPACT_WAYS;
    uint64_t check = compact_check(hash);
    uint same = NO_WAY;
    uint empty = NO_WAY;
    for (uint way = 0u; way < TT_COMPACT_WAYS; way++) {
        uint64_t entry = TT_LOAD(words.words[base + way], gl_SemanticsRelaxed);
        if ((entry & COMPACT_COUNT_MASK) == uint64_t(0)) {
            empty = empty == NO_WAY ? way : empty;
        } else if ((entry & ~COMPACT_COUNT_MASK) == check) {
            same = same == NO_WAY ? way : same;
        }
    }
    uint picked = uint(check >> TT_COMPACT_COUNT_BITS) & (TT_COMPACT_WAYS - 1u);
    uint way = same != NO_WAY ? same : (empty != NO_WAY ? empty : picked);
    uint64_t replaced = atomicExchange(words.words[base + way], check | (count.x + uint64_t(1)));
    bool was_occupied = (replaced & COMPACT_COUNT_MASK) != uint64_t(0);
    tt_count_store(was_occupied ? TT_COMPACT_DEPTH : NO_DEPTH,
        was_occupied && (replaced & ~COMPACT_COUNT_MASK) != check);
}

void tt_store(u64vec2 hash, GpuBoard key, uint depth, u64vec2 exact, u64vec2 fast) {
    if (tt_compact(depth)) {
        store_compact(hash, fast);
        return;
    }
#ifdef MOVE_STATS
    if (!stored_stats_fit()) {
        tt_count(TT_STAT_PAYLOAD_SKIPS);
        return;
    }
#endif
    Bucket b = tt_bucket(hash);
    uint64_t check = fast_check(hash);
    bool has_fast = tt.mode != TT_MODE_VERIFIED;
    if (has_fast && (fast.y != uint64_t(0) || (fast.x >> (64u - FAST_DEPTH_BITS)) != uint64_t(0))) {
        tt_count(TT_STAT_PAYLOAD_SKIPS);
        return;
    }
    uint64_t data = (fast.x << FAST_DEPTH_BITS) | uint64_t(depth + 1u);
    FastWords fast_entries = fast_words(b);
    uint ways = has_fast ? FAST_WAYS : VERIFIED_WAYS;
    uint64_t tag = tag_of(hash, depth);
    ExactSegment entries = exact_segment(b);
    Victim v = victim_begin();
    uint start = tie_start(check);
    if (has_fast) {
        // fast and certify choose from the fast bucket, the same key by the full check; atomic
        // loads, since certify accesses its fast words only atomically.
        for (uint way = 0u; way < FAST_WAYS; way++) {
            uint word = (b.index * FAST_WAYS + way) * FAST_WORDS;
            uint64_t verification = TT_LOAD(fast_entries.words[word], gl_SemanticsRelaxed);
            uint64_t stored = TT_LOAD(fast_entries.words[word + 1u], gl_SemanticsRelaxed);
            victim_add(v, way, FAST_WAYS, start, stored == uint64_t(0),
                (verification ^ stored) == check, uint(stored & FAST_DEPTH_MASK) - 1u);
        }
    } else {
        // verified chooses by the tags, read without the lock: only a hint.
        for (uint way = 0u; way < VERIFIED_WAYS; way++) {
            uint64_t stored = TT_LOAD(entries.words[(b.index * VERIFIED_WAYS + way) * EXACT_WORDS
                + EXACT_TAG], gl_SemanticsRelaxed);
            victim_add(v, way, VERIFIED_WAYS, start, exact_empty(stored), stored == tag,
                uint(stored & TAG_DEPTH_MASK) - 1u);
        }
    }
    uint way = tt_victim(v);
    uint fast_word = (b.index * FAST_WAYS + way) * FAST_WORDS;
    if (tt.mode == TT_MODE_FAST) {
        // The victim's verification as read just before the store: the replaced entry's own
        // unless another writer raced this one (only the overwrite count can then be off).
        uint64_t old_verification = TT_LOAD(fast_entries.words[fast_word], gl_SemanticsRelaxed);
#ifdef MOVE_STATS
        write_sealed_stats_slot(b, way, check ^ data, data);
#endif
        TT_STORE(fast_entries.words[fast_word], check ^ data, gl_SemanticsRelaxed);
        uint64_t replaced = atomicExchange(fast_entries.words[fast_word + 1u], data);
        uint previous = uint(replaced & FAST_DEPTH_MASK);
        tt_count_store(previous == 0u ? NO_DEPTH : previous - 1u,
            previous != 0u && (old_verification ^ replaced) != check);
        return;
    }
    uint base = (b.index * ways + way) * EXACT_WORDS;
    uint64_t stable;
    if (!lock_exact(entries, base, stable)) {
        return;
    }
    uint64_t old_tag = TT_LOAD(entries.words[base + EXACT_TAG], gl_SemanticsRelaxed);
    bool same = old_tag == tag;
    for (uint k = 0u; k < 4u; k++) {
        same = same
            && TT_LOAD(entries.words[base + EXACT_KEY + k], gl_SemanticsRelaxed) == key.planes[k];
    }
    if (has_fast) {
        TT_STORE(fast_entries.words[fast_word], check ^ data, gl_SemanticsRelaxed);
        TT_STORE(fast_entries.words[fast_word + 1u], data, gl_SemanticsRelaxed);
    }
    TT_STORE(entries.words[base + EXACT_TAG], tag, gl_SemanticsRelaxed);
    TT_STORE(entries.words[base + EXACT_COUNT], exact.x, gl_SemanticsRelaxed);
    TT_STORE(entries.words[base + EXACT_COUNT + 1u], exact.y, gl_SemanticsRelaxed);
    for (uint k = 0u; k < 4u; k++) {
        TT_STORE(entries.words[base + EXACT_KEY + k], key.planes[k], gl_SemanticsRelaxed);
    }
#ifdef MOVE_STATS
    write_stats_slot(b, way, 0u);
    if (has_fast) {
        write_stats_slot(b, way, 1u);
    }
#endif
    unlock_exact(entries, base, stable);
    bool old_empty = exact_empty(old_tag);
    tt_count_store(old_empty ? NO_DEPTH : uint(old_tag & TAG_DEPTH_MASK) - 1u, !old_empty && !same);
}

#endif
