// The move-type statistics beside a table's entries, in runs with --stats: the slots of
// crates/table/src/tt/move_stats_slots.rs. Per entry one slot (fast, verified) or two (certify: the exact
// writer's statistics, then those of the fast count it stored), each STAT_COLUMNS 64-bit words
// and a seal, in segments parallel to the buckets' (a bucket's slots lie in the statistics
// segment of its own segment's index). Built with GPU_TT and MOVE_STATS only.
//
// Consistency, as on the CPU: verified and certify read and write the slots inside the exact
// entry's seqlock (a probe's copy ends by reading the sequence again); fast has no lock: a
// store writes the statistics and their seal before the entry, and a probe takes them only if
// the seal matches the entry's two words it accepted (a slot torn between two stores, or left
// by another entry's, fails it but by a 2^-64 chance).
#ifndef TT_MOVE_STATS_GLSL
#define TT_MOVE_STATS_GLSL

#include "tt_buckets.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer StatsSegment {
    // Per slot: STAT_COLUMNS statistics, then the seal (fast only).
    uint64_t words[];
};

#define stats_segment(b) StatsSegment(tt.stats_segments[(b).segment])

const uint SLOT_WORDS = STAT_COLUMNS + 1u;
const uint64_t SEAL_MIX = 0x9e3779b97f4a7c15UL;

uint64_t rotate_left64(uint64_t x, uint bits) {
    return (x << bits) | (x >> (64u - bits));
}

// `seal` of crates/table/src/tt/move_stats_slots.rs, word by word: begun from the entry's two words, each
// statistic mixed in by a multiply and a rotation, so that words of two stores do not cancel.
uint64_t seal_begin(uint64_t check, uint64_t data) {
    return check ^ rotate_left64(data, 32u);
}

uint64_t seal_add(uint64_t seal, uint64_t word) {
    return rotate_left64((seal ^ word) * SEAL_MIX, 27u);
}

// The first word of slot `copy` (0: the exact or only statistics; 1: certify's fast ones) of
// entry `way` of bucket `b`.
uint slot_base(Bucket b, uint way, uint copy) {
    uint ways = tt.mode == TT_MODE_VERIFIED ? VERIFIED_WAYS : FAST_WAYS;
    uint copies = tt.mode == TT_MODE_CERTIFY ? 2u : 1u;
    return ((b.index * ways + way) * copies + copy) * SLOT_WORDS;
}

// Copies the statistics of the entry that answered `probe` (a hit, or a certify false hit) to
// position `index`: a hit's to stats_at and, in certify, its fast count's to fast_stats_at; a
// false hit's fast count's to fast_stats_at. False when they may not belong to that entry (a
// store raced the read): the probe is then taken as a miss.
bool tt_copy_stats(Probe probe, u64vec2 hash, uint index) {
    Bucket b = tt_bucket(hash);
    StatsSegment slots = stats_segment(b);
    if (tt.mode == TT_MODE_FAST) {
        uint base = slot_base(b, probe.way, 0u);
        uint64_t seal = seal_begin(probe.sequence, probe.fast_data);
        for (uint k = 0u; k < STAT_COLUMNS; k++) {
            uint64_t word = TT_LOAD(slots.words[base + k], gl_SemanticsRelaxed);
            stats_at(index, k) = u64vec2(word, uint64_t(0));
            seal = seal_add(seal, word);
        }
        return TT_LOAD(slots.words[base + STAT_COLUMNS], gl_SemanticsRelaxed) == seal;
    }
    if (probe.kind == PROBE_HIT) {
        uint base = slot_base(b, probe.way, 0u);
        for (uint k = 0u; k < STAT_COLUMNS; k++) {
            stats_at(index, k) = u64vec2(TT_LOAD(slots.words[base + k], gl_SemanticsRelaxed),
                uint64_t(0));
        }
    }
    if (tt.mode == TT_MODE_CERTIFY) {
        uint base = slot_base(b, probe.way, 1u);
        for (uint k = 0u; k < STAT_COLUMNS; k++) {
            fast_stats_at(index, k) = u64vec2(TT_LOAD(slots.words[base + k], gl_SemanticsRelaxed),
                uint64_t(0));
        }
    }
    // The seqlock's read ends here: an entry that changed since the probe read it is a miss.
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    uint word = (b.index * exact_ways() + probe.way) * EXACT_WORDS + EXACT_SEQUENCE;
    return TT_LOAD(exact_segment(b).words[word], gl_SemanticsRelaxed) == probe.sequence;
}

// The position whose statistics (stats_at, and in certify fast_stats_at) tt_store writes
// beside the counts it is given: set by the caller before each store.
uint stored_stats_index;

// Whether the statistics tt_store would write fit a slot's 64-bit words (a count that fits
// an entry bounds them; a store whose statistics do not fit is not made: a payload skip).
bool stored_stats_fit() {
    bool certify = tt.mode == TT_MODE_CERTIFY;
    for (uint k = 0u; k < STAT_COLUMNS; k++) {
        if (stats_at(stored_stats_index, k).y != uint64_t(0)
                || (certify && fast_stats_at(stored_stats_index, k).y != uint64_t(0))) {
            return false;
        }
    }
    return true;
}

// Writes slot `copy` of entry `way` of bucket `b` from the stored position's statistics (copy
// 1 from its fast ones), inside the entry's lock.
void write_stats_slot(Bucket b, uint way, uint copy) {
    StatsSegment slots = stats_segment(b);
    uint base = slot_base(b, way, copy);
    for (uint k = 0u; k < STAT_COLUMNS; k++) {
        uint64_t word = copy == 0u ? stats_at(stored_stats_index, k).x
            : fast_stats_at(stored_stats_index, k).x;
        TT_STORE(slots.words[base + k], word, gl_SemanticsRelaxed);
    }
}

// fast: writes the slot of entry `way` of bucket `b`, then the seal of the entry's two words
// about to be stored (`verification`, `data`) and the statistics.
void write_sealed_stats_slot(Bucket b, uint way, uint64_t verification, uint64_t data) {
    StatsSegment slots = stats_segment(b);
    uint base = slot_base(b, way, 0u);
    uint64_t seal = seal_begin(verification, data);
    for (uint k = 0u; k < STAT_COLUMNS; k++) {
        uint64_t word = stats_at(stored_stats_index, k).x;
        TT_STORE(slots.words[base + k], word, gl_SemanticsRelaxed);
        seal = seal_add(seal, word);
    }
    TT_STORE(slots.words[base + STAT_COLUMNS], seal, gl_SemanticsRelaxed);
}

#endif
