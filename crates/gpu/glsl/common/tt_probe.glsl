// The probe: compact, fast and exact buckets read as crates/table/src/tt/table.rs and crates/table/src/tt/compact.rs read
// them. Built with GPU_TT only; included by tt.glsl after the Probe type.
#ifndef TT_PROBE_GLSL
#define TT_PROBE_GLSL

#include "tt_buckets.glsl"
#include "tt_stats.glsl"

// What a consistent read of an exact entry found (and, for certify, its fast entry beside it).
struct ExactRead {
    bool consistent;
    uint64_t tag;
    u64vec2 count;
    GpuBoard key;
    uint64_t fast_verification;
    uint64_t fast_data;
#ifdef MOVE_STATS
    // The sequence the entry was read at, for its statistics' copy (tt_move_stats.glsl).
    uint64_t sequence;
#endif
};

// Entry `way` of bucket `b`.
ExactRead read_exact(Bucket b, uint way, bool with_fast) {
    ExactSegment entries = exact_segment(b);
    uint base = (b.index * exact_ways() + way) * EXACT_WORDS;
    ExactRead read;
    uint64_t before = TT_LOAD(entries.words[base + EXACT_SEQUENCE], gl_SemanticsAcquire);
    read.tag = TT_LOAD(entries.words[base + EXACT_TAG], gl_SemanticsRelaxed);
    read.count = u64vec2(TT_LOAD(entries.words[base + EXACT_COUNT], gl_SemanticsRelaxed),
        TT_LOAD(entries.words[base + EXACT_COUNT + 1u], gl_SemanticsRelaxed));
    for (uint k = 0u; k < 4u; k++) {
        read.key.planes[k] = TT_LOAD(entries.words[base + EXACT_KEY + k], gl_SemanticsRelaxed);
    }
    read.fast_verification = uint64_t(0);
    read.fast_data = uint64_t(0);
    if (with_fast) {
        FastWords fast = fast_words(b);
        uint word = (b.index * FAST_WAYS + way) * FAST_WORDS;
        read.fast_verification = TT_LOAD(fast.words[word], gl_SemanticsRelaxed);
        read.fast_data = TT_LOAD(fast.words[word + 1u], gl_SemanticsRelaxed);
    }
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    uint64_t after = TT_LOAD(entries.words[base + EXACT_SEQUENCE], gl_SemanticsRelaxed);
    read.consistent = (before & uint64_t(1)) == uint64_t(0) && after == before;
#ifdef MOVE_STATS
    read.sequence = before;
#endif
    return read;
}

bool same_key(GpuBoard a, GpuBoard b) {
    return a.planes[0] == b.planes[0] && a.planes[1] == b.planes[1]
        && a.planes[2] == b.planes[2] && a.planes[3] == b.planes[3];
}

// The entry holds the position whose tag and key are given (exact entries).
bool holds(ExactRead read, uint64_t tag, GpuBoard key) {
    return read.tag == tag && same_key(read.key, key);
}

bool exact_empty(uint64_t tag) {
    return (tag & TAG_DEPTH_MASK) == uint64_t(0);
}

// Whether a fast entry with these words accepts a probe whose check is `check`.
bool fast_accepts(uint64_t verification, uint64_t data, uint64_t check) {
    return data != uint64_t(0) && ((verification ^ data ^ check) & tt.verifier_mask) == uint64_t(0);
}

// One entry of an exact bucket for `tt_probe`: the first entry that accepts answers, and an
// occupied entry of another key counts as a wrong-occupied probe. An entry a writer is busy on
// is passed over.
void probe_exact_entry(inout Probe probe, Bucket b, uint way, bool certify, uint64_t tag,
        GpuBoard key, uint64_t check) {
    ExactRead read = read_exact(b, way, certify);
    if (!read.consistent) {
        return;
    }
    bool same = holds(read, tag, key);
    if (!exact_empty(read.tag) && !same) {
        tt_count(TT_STAT_WRONG_OCCUPIED);
    }
    if (probe.kind != PROBE_MISS) {
        return;
    }
    if (!certify) {
        if (same) {
            probe.kind = PROBE_HIT;
            probe.exact = read.count;
            probe.fast = read.count.x;
        }
    } else if (fast_accepts(read.fast_verification, read.fast_data, check)) {
        probe.kind = same ? PROBE_HIT : PROBE_FALSE_HIT;
        probe.exact = read.count;
        probe.fast = read.fast_data >> FAST_DEPTH_BITS;
    }
#ifdef MOVE_STATS
    if (probe.kind != PROBE_MISS) {
        probe.way = way;
        probe.sequence = read.sequence;
    }
#endif
}

// Every entry of the bucket is compared; the first that accepts answers, and each occupied
// entry of another key counts as a wrong-occupied probe.
// One entry of a fast or compact bucket for `tt_probe`: an occupied entry of another key (by
// the full check, whatever the verifier width) counts as a wrong-occupied probe; the first
// occupied entry whose kept check bits match answers with its count.
void probe_counted_entry(inout Probe probe, bool occupied, bool same_key, bool accepted,
        uint64_t count) {
    if (occupied && !same_key) {
        tt_count(TT_STAT_WRONG_OCCUPIED);
    }
    if (probe.kind == PROBE_MISS && occupied && accepted) {
        probe.kind = PROBE_HIT;
        probe.exact = u64vec2(count, uint64_t(0));
        probe.fast = count;
    }
}

Probe tt_probe(u64vec2 hash, GpuBoard key, uint depth) {
    Probe probe;
    probe.kind = PROBE_MISS;
    probe.exact = u64vec2(0);
    probe.fast = uint64_t(0);
#ifdef MOVE_STATS
    probe.way = 0u;
    probe.sequence = uint64_t(0);
    probe.fast_data = uint64_t(0);
#endif
    if (tt_compact(depth)) {
        Bucket b = compact_bucket(hash);
        u64vec4 entries = compact_segment(b).sectors[b.index];
        uint64_t check = compact_check(hash);
        for (uint way = 0u; way < TT_COMPACT_WAYS; way++) {
            uint64_t entry = entries[way];
            uint64_t stored = entry & COMPACT_COUNT_MASK;
            probe_counted_entry(probe, stored != uint64_t(0),
                (entry & ~COMPACT_COUNT_MASK) == check,
                ((entry ^ check) & tt.compact_verifier_mask) == uint64_t(0), stored - uint64_t(1));
        }
    } else if (tt.mode == TT_MODE_FAST) {
        Bucket b = tt_bucket(hash);
        uint64_t check = fast_check(hash);
        FastSegment entries = fast_segment(b);
        for (uint way = 0u; way < FAST_WAYS; way++) {
            u64vec2 entry = entries.entries[b.index * FAST_WAYS + way];
#ifdef MOVE_STATS
            bool answered = probe.kind != PROBE_MISS;
#endif
            probe_counted_entry(probe, entry.y != uint64_t(0), (entry.x ^ entry.y) == check,
                fast_accepts(entry.x, entry.y, check), entry.y >> FAST_DEPTH_BITS);
#ifdef MOVE_STATS
            if (!answered && probe.kind != PROBE_MISS) {
                probe.way = way;
                probe.sequence = entry.x;
                probe.fast_data = entry.y;
            }
#endif
        }
    } else {
        Bucket b = tt_bucket(hash);
        uint64_t check = fast_check(hash);
        bool certify = tt.mode == TT_MODE_CERTIFY;
        uint64_t tag = tag_of(hash, depth);
#ifdef TT_EXACT_PROBE_LOOPED
        // The form lavapipe miscompiles (below), built only for the probe self-test's test.
        for (uint way = 0u; way < exact_ways(); way++) {
            probe_exact_entry(probe, b, way, certify, tag, key, check);
        }
#else
        // Unrolled, for a lavapipe bug (Mesa 22.3.6, llvmpipe): a memory barrier without
        // execution scope (OpMemoryBarrier, or an atomic's acquire or release) in a loop that
        // the SIMD groups of a workgroup pass different numbers of times loses every later
        // store of the group that passed it more often, as if it were a workgroup execution
        // barrier. Here a group whose invocations all skipped the probe leaves the loop after
        // one pass: looped, the seqlock's acquires lost the probe's answers and statistics.
        // The probe self-test (crates/gpu/src/gpu/runner/probe_self_test.rs) catches the looped form.
        probe_exact_entry(probe, b, 0u, certify, tag, key, check);
        probe_exact_entry(probe, b, 1u, certify, tag, key, check);
        if (certify) {
            probe_exact_entry(probe, b, 2u, certify, tag, key, check);
            probe_exact_entry(probe, b, 3u, certify, tag, key, check);
        }
#endif
    }
    if (probe.kind == PROBE_HIT) {
        tt_count(TT_STAT_HITS);
    } else {
        // A false hit is also a miss: it does not give the count.
        tt_count(TT_STAT_MISSES);
        if (probe.kind == PROBE_FALSE_HIT) {
            tt_count(TT_STAT_FALSE_HITS);
        }
    }
    return probe;
}

#endif
