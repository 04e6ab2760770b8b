// The transposition table on the GPU: the CPU's entry and bucket layouts (crates/table/src/tt/fast.rs,
// crates/table/src/tt/exact.rs), probe and store rules, replacement rule and statistics (crates/table/src/tt/table.rs,
// crates/table/src/tt/replace.rs, crates/table/src/tt/stats.rs), byte for byte. This file is what the stages include;
// the parts, each in its own file: tt_params.glsl (parameters, keys, counters), tt_hash.glsl
// (a position's hash), tt_child_hash.glsl (a child's, for the stages that make moves; not
// included here), tt_buckets.glsl (layouts and addressing), tt_stats.glsl, tt_probe.glsl and
// tt_store.glsl.
//
// The table's arrays are split into segments, each its own buffer, reached through device
// addresses (`TtParams`): line (bucket) b lives in segment b >> segment_shift. So a table may
// exceed maxStorageBufferRange and any single allocation limit.
//
// Buckets: fast, four 16-byte entries (verification, data = count << 8 | depth + 1) in one
// 64-byte line; verified, two 64-byte exact entries; certify, a fast bucket and the four exact
// shadows of its entries. A store replaces the same key, else the first empty entry, else the
// shallowest entry, ties broken by the key (`tt_victim`).
//
// A split fast table (crates/table/src/tt/split.rs) gives remaining depth 2 the first lines of the fast
// array as compact buckets, two to a line: four 8-byte entries (count + 1 in bits 0-15, bits
// 16-63 of the hash's high word above) in one 32-byte sector, read whole and written by one
// atomic swap each (crates/table/src/tt/compact.rs, its Rust twin). Deeper depths use the lines after them.
//
// Hashes are 128-bit as (low, high) words: `Zobrist::hash` of the position XOR the key of its
// remaining depth, computed here from the decoded position and the uploaded Zobrist keys.
//
// Concurrency (every invocation of a dispatch may probe and store at once), under the Vulkan
// memory model (tt_extensions.glsl; the device enables vulkanMemoryModel and its device scope):
// - fast: each 16-byte entry is read as one 128-bit access (16-byte aligned), with no lock; a
//   store writes the verification word, then swaps the data word atomically (the swap returns
//   the data it replaced, whose depth field is the vacated depth: exact occupancy counts). A
//   read that races a store may see the two words of different stores, or, formally, an
//   undefined value (a data race in the model gives undefined values, not undefined
//   behaviour). Whatever it sees is accepted only if verification ^ data equals the probe's
//   check: a pair no store wrote passes with the same 2^-bits chance as another position's
//   entry, which the risk model already counts.
// - verified and certify: the exact entry is a seqlock, as on the CPU, with every word an
//   atomic at device scope so that no access is a data race. A writer takes the slot with a
//   compare-and-swap from an even to the next odd sequence (acquire: it sees the previous
//   writer's fields; another writer busy: the store is skipped, never waited for), a release
//   fence, relaxed stores of the fields, then a release store of the next even value. A reader
//   does an acquire load of the sequence, relaxed loads of the fields, an acquire fence and a
//   relaxed load of the sequence again, and treats an odd or changed value as a miss. If the
//   reader saw any field of a store, the writer's release fence synchronizes with the reader's
//   acquire fence, so the second load sees that store's odd sequence or a later one: a torn
//   entry (fields of two stores, or of a store in progress) is never accepted. certify's fast
//   entry is read and written as two atomic words inside the same protocol.
//
// build.rs builds every stage twice: with GPU_TT = 1 for devices that have buffer device
// addresses, 64-bit buffer atomics and the Vulkan memory model, and with GPU_TT = 0, where the
// table functions below are stubs and only `--tt off` runs. The hash is in both.
#ifndef TT_GLSL
#define TT_GLSL

#include "tt_params.glsl"
#include "tt_hash.glsl"

// --- The probe's answer, whatever the build

// What the fast table alone would have counted below `index`: kept only in certify, the one
// mode where it can differ from the count (the host reads it only then).
void set_fast_count(uint index, u64vec2 count) {
    if (tt.mode == TT_MODE_CERTIFY) {
        fast_count_at(index) = count;
    }
}

const uint PROBE_MISS = 0u;
const uint PROBE_HIT = 1u;
// certify: the fast table accepted another position's entry.
const uint PROBE_FALSE_HIT = 2u;

struct Probe {
    uint kind;
    // HIT: the true count.
    u64vec2 exact;
    // HIT and FALSE_HIT: what the fast table answered.
    uint64_t fast;
#ifdef MOVE_STATS
    // HIT and FALSE_HIT, for the entry's statistics (tt_move_stats.glsl): the way of its bucket
    // that answered; for an exact entry the sequence it was read at, for a fast entry its two
    // words as read.
    uint way;
    uint64_t sequence;
    uint64_t fast_data;
#endif
};

#if GPU_TT

#include "tt_stats.glsl"
#ifdef MOVE_STATS
#include "tt_move_stats.glsl"
#endif
#include "tt_probe.glsl"
#include "tt_store.glsl"

#else

// Built for a device without device addresses, 64-bit atomics or the memory model: no TT.

bool tt_enabled(uint depth) {
    return false;
}

void tt_stats_begin() {}

void tt_stats_flush(uint depth) {}

Probe tt_probe(u64vec2 hash, GpuBoard key, uint depth) {
    Probe probe;
    probe.kind = PROBE_MISS;
    probe.exact = u64vec2(0);
    probe.fast = uint64_t(0);
    return probe;
}

void tt_store(u64vec2 hash, GpuBoard key, uint depth, u64vec2 exact, u64vec2 fast) {}

#ifdef MOVE_STATS
bool tt_copy_stats(Probe probe, u64vec2 hash, uint index) {
    return false;
}

uint stored_stats_index;
#endif

#endif

#endif
