// The transposition table on the GPU: the CPU's entry and bucket layouts (src/tt/fast.rs,
// src/tt/exact.rs), probe and store rules, replacement rule and statistics (src/tt/table.rs,
// src/tt/replace.rs, src/tt/stats.rs), byte for byte.
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
// A split fast table (src/tt/split.rs) gives remaining depth 2 the first lines of the fast
// array as compact buckets, two to a line: four 8-byte entries (count + 1 in bits 0-15, bits
// 16-63 of the hash's high word above) in one 32-byte sector, read whole and written by one
// atomic swap each (src/tt/compact.rs, its Rust twin). Deeper depths use the lines after them.
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

#include "buffers.glsl"

layout(std430, set = 0, binding = BINDING_TT_PARAMS) readonly buffer TtParams {
    uint mode;
    // Buckets per segment: 1 << segment_shift.
    uint segment_shift;
    uint64_t buckets;
    // The low verifier bits a fast probe compares.
    uint64_t verifier_mask;
    // Compact depth-2 buckets at the start of the fast array (0: none).
    uint64_t compact_buckets;
    // The check bits a compact probe compares, in place.
    uint64_t compact_verifier_mask;
    uint64_t fast_segments[TT_MAX_SEGMENTS];
    uint64_t exact_segments[TT_MAX_SEGMENTS];
} tt;

layout(std430, set = 0, binding = BINDING_ZOBRIST) readonly buffer ZobristKeys {
    u64vec2 zobrist[ZOBRIST_KEYS];
};

// Per remaining depth, TT_STAT_FIELDS counters (the order of TT_STAT_*).
layout(std430, set = 0, binding = BINDING_TT_STATS) buffer TtStats {
    uint64_t tt_stats[];
};

u64vec2 add128(u64vec2 a, u64vec2 b) {
    uint64_t low = a.x + b.x;
    return u64vec2(low, a.y + b.y + (low < a.x ? uint64_t(1) : uint64_t(0)));
}

// The keys of the castling rooks (Pos.castling_files): one per back-rank square, a1..h1 then
// a8..h8, the order of the bits.
u64vec2 castling_keys(uint castling_files) {
    u64vec2 keys = u64vec2(0);
    while (castling_files != 0u) {
        keys ^= zobrist[ZOBRIST_CASTLING + findLSB(castling_files)];
        castling_files &= castling_files - 1u;
    }
    return keys;
}

// `Zobrist::hash(p) ^ Zobrist::depth_key(depth)`.
u64vec2 tt_hash(Pos p, uint depth) {
    u64vec2 hash = zobrist[ZOBRIST_DEPTH + depth % ZOBRIST_DEPTH_KEYS];
    for (uint r = 0u; r < 6u; r++) {
        uint64_t white = p.role[r] & p.color[WHITE];
        while (white != uint64_t(0)) {
            hash ^= zobrist[ZOBRIST_PIECES + r * 64u + lsb64(white)];
            white &= white - uint64_t(1);
        }
        uint64_t black = p.role[r] & p.color[BLACK];
        while (black != uint64_t(0)) {
            hash ^= zobrist[ZOBRIST_PIECES + (6u + r) * 64u + lsb64(black)];
            black &= black - uint64_t(1);
        }
    }
    if (p.turn == BLACK) {
        hash ^= zobrist[ZOBRIST_BLACK_TO_MOVE];
    }
    hash ^= castling_keys(p.castling_files);
    if (p.ep != NO_SQUARE) {
        hash ^= zobrist[ZOBRIST_EP_FILE + (p.ep & 7u)];
    }
    return hash;
}

// The child hash follows moves, so it exists only where moves are made (with movegen.glsl).
#ifdef MOVEGEN_GLSL
u64vec2 piece_key(uint color, uint role, uint sq) {
    return zobrist[ZOBRIST_PIECES + (6u * color + role) * 64u + sq];
}

// The child hash in two parts: `tt_move_hash` before the move is made, from the parent, and
// `tt_child_hash` after, from what only play_move works out (the child's castling rights and
// ep square), so that parent and child are never held at once.
//
// `tt_hash(p, depth)` changed by everything the move `from`-`to` of `p` changes but the child's
// castling rights and ep square (p's are taken out).
u64vec2 tt_move_hash(u64vec2 hash, Pos p, uint from, uint to, uint kind, uint depth) {
    uint us = p.turn;
    uint them = us ^ 1u;
    hash ^= zobrist[ZOBRIST_DEPTH + depth % ZOBRIST_DEPTH_KEYS]
        ^ zobrist[ZOBRIST_DEPTH + (depth - 1u) % ZOBRIST_DEPTH_KEYS]
        ^ zobrist[ZOBRIST_BLACK_TO_MOVE]
        ^ castling_keys(p.castling_files);
    if (p.ep != NO_SQUARE) {
        hash ^= zobrist[ZOBRIST_EP_FILE + (p.ep & 7u)];
    }
    uint moved = role_on(p, square_bb(from));
    if (kind == KIND_CASTLE) {
        // The king takes its own rook in the move's encoding; both land beside each other.
        hash ^= piece_key(us, ROOK, to) ^ piece_key(us, ROOK, castling_rook_to(from, to));
        to = castling_king_to(from, to);
    } else {
        uint captured = role_on(p, square_bb(to));
        if (captured != NO_ROLE) {
            hash ^= piece_key(them, captured, to);
        }
    }
    uint landed = kind >= KIND_PROMOTE_KNIGHT ? KNIGHT + (kind - KIND_PROMOTE_KNIGHT) : moved;
    hash ^= piece_key(us, moved, from) ^ piece_key(us, landed, to);
    if (kind == KIND_EN_PASSANT) {
        hash ^= piece_key(them, PAWN, us == WHITE ? to - 8u : to + 8u);
    }
    return hash;
}

// `tt_hash(c, depth - 1)` for the child `c` whose move gave `move_hash`.
u64vec2 tt_child_hash(u64vec2 move_hash, Pos c) {
    move_hash ^= castling_keys(c.castling_files);
    if (c.ep != NO_SQUARE) {
        move_hash ^= zobrist[ZOBRIST_EP_FILE + (c.ep & 7u)];
    }
    return move_hash;
}
#endif

// --- Probe

// What the fast table alone would have counted below `index`: kept only in certify, the one
// mode where it can differ from the count (the host reads it only then).
void set_fast_count(uint index, u64vec2 count) {
    if (tt.mode == TT_MODE_CERTIFY) {
        fast_counts[index] = count;
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
};

#if GPU_TT

layout(buffer_reference, std430, buffer_reference_align = 64) coherent buffer FastSegment {
    // Per bucket FAST_WAYS entries (verification, data), each read whole.
    u64vec2 entries[];
};

// The same memory as single words, for the atomic accesses of stores and of certify.
layout(buffer_reference, std430, buffer_reference_align = 64) buffer FastWords {
    uint64_t words[];
};

// The same memory as compact buckets, each one 32-byte sector read whole.
layout(buffer_reference, std430, buffer_reference_align = 64) coherent buffer CompactSegment {
    u64vec4 sectors[];
};

layout(buffer_reference, std430, buffer_reference_align = 64) buffer ExactSegment {
    // Per entry: sequence, tag, count low, count high, key planes 0-3; accessed only atomically.
    // Per bucket: 2 entries (verified) or FAST_WAYS shadows (certify).
    uint64_t words[];
};

const uint FAST_WORDS = 2u;
const uint FAST_WAYS = 4u;
const uint VERIFIED_WAYS = 2u;
// The data word of a fast entry: count << FAST_DEPTH_BITS | depth + 1.
const uint FAST_DEPTH_BITS = 8u;
const uint64_t FAST_DEPTH_MASK = uint64_t(0xff);
const uint EXACT_WORDS = 8u;
const uint EXACT_SEQUENCE = 0u;
const uint EXACT_TAG = 1u;
const uint EXACT_COUNT = 2u;
const uint EXACT_KEY = 4u;
const uint64_t TAG_DEPTH_MASK = uint64_t(0xff);

// The high 64 bits of a * b.
uint64_t mul_high64(uint64_t a, uint64_t b) {
    uint64_t mask = uint64_t(0xffffffffu);
    uint64_t a_low = a & mask;
    uint64_t a_high = a >> 32;
    uint64_t b_low = b & mask;
    uint64_t b_high = b >> 32;
    uint64_t low_low = a_low * b_low;
    uint64_t high_low = a_high * b_low;
    uint64_t low_high = a_low * b_high;
    uint64_t cross = (low_low >> 32) + (high_low & mask) + low_high;
    return a_high * b_high + (high_low >> 32) + (cross >> 32);
}

bool tt_enabled(uint depth) {
    return tt.mode != TT_MODE_OFF && depth >= TT_MIN_DEPTH && depth <= TT_STATS_MAX_DEPTH;
}

// Whether `depth` is kept in compact buckets.
bool tt_compact(uint depth) {
    return depth == TT_COMPACT_DEPTH && tt.compact_buckets != uint64_t(0);
}

// --- Statistics: each invocation counts its own probe and store, the workgroup adds them up
// in shared memory, and one atomic per nonzero sum goes to the buffer, so counters are not
// fought over.

// Four bits per field (TT_STAT_FIELDS <= 8, asserted in src/tt/shader_shared.rs): an
// invocation counts one probe and one store, so no field passes 15, and one register holds
// what would otherwise take eight through the whole move generation.
uint tt_counted;
// Remaining depth of the entry a store replaced, or NO_DEPTH.
const uint NO_DEPTH = 0xffffffffu;
uint tt_vacated_depth;

// The workgroup's sums: per field, and the slots vacated per depth.
shared uint tt_group_counted[TT_STAT_FIELDS];
shared uint tt_group_vacated[TT_STATS_MAX_DEPTH + 1];

void tt_stats_begin() {
    tt_counted = 0u;
    tt_vacated_depth = NO_DEPTH;
}

void tt_count(uint field) {
    tt_counted += 1u << (4u * field);
}

// The workgroup's shared sums are written before the barrier and read after it by other
// invocations: it makes them available and visible (the Vulkan memory model).
#define TT_GROUP_BARRIER() controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, \
    gl_StorageSemanticsShared, \
    gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible)

// Every invocation of the dispatch calls this at the end of main, outside any branch that
// depends on the invocation (it has workgroup barriers); `depth` is the dispatch's remaining
// depth. Invocation l clears, then adds to the buffer, field l and the depths l + k *
// WORKGROUP_SIZE.
void tt_stats_flush(uint depth) {
    if (tt.mode == TT_MODE_OFF || depth > TT_STATS_MAX_DEPTH) {
        return;
    }
    uint l = gl_LocalInvocationIndex;
    if (l < uint(TT_STAT_FIELDS)) {
        tt_group_counted[l] = 0u;
    }
    for (uint d = l; d <= TT_STATS_MAX_DEPTH; d += WORKGROUP_SIZE) {
        tt_group_vacated[d] = 0u;
    }
    TT_GROUP_BARRIER();
    for (uint f = 0u; f < uint(TT_STAT_FIELDS); f++) {
        uint count = (tt_counted >> (4u * f)) & 15u;
        if (count != 0u) {
            atomicAdd(tt_group_counted[f], count);
        }
    }
    if (tt_vacated_depth != NO_DEPTH) {
        atomicAdd(tt_group_vacated[tt_vacated_depth], 1u);
    }
    TT_GROUP_BARRIER();
    if (l < uint(TT_STAT_FIELDS) && tt_group_counted[l] != 0u) {
        atomicAdd(tt_stats[depth * TT_STAT_FIELDS + l], uint64_t(tt_group_counted[l]));
    }
    for (uint d = l; d <= TT_STATS_MAX_DEPTH; d += WORKGROUP_SIZE) {
        uint vacated = tt_group_vacated[d];
        if (vacated != 0u) {
            atomicAdd(tt_stats[d * TT_STAT_FIELDS + TT_STAT_USED_DELTA],
                uint64_t(0) - uint64_t(vacated));
        }
    }
}

// A store filled a slot at `depth` that held an entry of depth `previous` (NO_DEPTH: empty).
void tt_count_store(uint previous, bool overwrite) {
    tt_count(TT_STAT_STORES);
    tt_count(TT_STAT_USED_DELTA);
    if (overwrite) {
        tt_count(TT_STAT_OVERWRITES);
    }
    tt_vacated_depth = previous;
}

// --- Buckets

struct Bucket {
    uint segment;
    // The bucket's index within its segment.
    uint index;
};

Bucket bucket_at_line(uint64_t line) {
    Bucket b;
    b.segment = uint(line >> tt.segment_shift);
    b.index = uint(line & ((uint64_t(1) << tt.segment_shift) - uint64_t(1)));
    return b;
}

// The bucket of a depth kept in the table's buckets, after the compact lines.
Bucket tt_bucket(u64vec2 hash) {
    return bucket_at_line(mul_high64(hash.x, tt.buckets) + (tt.compact_buckets >> 1));
}

// The compact bucket of `hash`: `index` counts sectors within the segment.
Bucket compact_bucket(u64vec2 hash) {
    uint64_t sector = mul_high64(hash.x, tt.compact_buckets);
    Bucket b = bucket_at_line(sector >> 1);
    b.index = b.index * 2u + uint(sector & uint64_t(1));
    return b;
}

// The segments holding bucket `b`: macros, not functions, because the inliner of SPIRV-Tools
// 2022.4 (Debian 12's glslc) keeps a function's buffer-reference result in a variable that it
// does not decorate as the specification requires (AliasedPointer or RestrictPointer), which
// the validation layer rejects.
#define fast_segment(b) FastSegment(tt.fast_segments[(b).segment])
#define fast_words(b) FastWords(tt.fast_segments[(b).segment])
#define exact_segment(b) ExactSegment(tt.exact_segments[(b).segment])
#define compact_segment(b) CompactSegment(tt.fast_segments[(b).segment])

const uint64_t COMPACT_COUNT_MASK = (uint64_t(1) << TT_COMPACT_COUNT_BITS) - uint64_t(1);
// The largest count a compact entry holds (its field holds the count + 1).
const uint64_t MAX_COMPACT_COUNT = COMPACT_COUNT_MASK - uint64_t(1);

uint64_t compact_check(u64vec2 hash) {
    return hash.y & ~COMPACT_COUNT_MASK;
}

// Entries per bucket of the exact array (verified: its entries; certify: the shadows).
uint exact_ways() {
    return tt.mode == TT_MODE_VERIFIED ? VERIFIED_WAYS : FAST_WAYS;
}

uint64_t fast_check(u64vec2 hash) {
    return hash.x ^ hash.y;
}

uint64_t tag_of(u64vec2 hash, uint depth) {
    return (hash.y & ~TAG_DEPTH_MASK) | uint64_t(depth + 1u);
}

// Device-scope atomic loads and stores of table words, with the given semantics.
#define TT_LOAD(word, semantics) \
    atomicLoad(word, gl_ScopeDevice, gl_StorageSemanticsBuffer, semantics)
#define TT_STORE(word, value, semantics) \
    atomicStore(word, value, gl_ScopeDevice, gl_StorageSemanticsBuffer, semantics)

// What a consistent read of an exact entry found (and, for certify, its fast entry beside it).
struct ExactRead {
    bool consistent;
    uint64_t tag;
    u64vec2 count;
    GpuBoard key;
    uint64_t fast_verification;
    uint64_t fast_data;
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
}

// Every entry of the bucket is compared; the first that accepts answers, and each occupied
// entry of another key counts as a wrong-occupied probe.
Probe tt_probe(u64vec2 hash, GpuBoard key, uint depth) {
    Probe probe;
    probe.kind = PROBE_MISS;
    probe.exact = u64vec2(0);
    probe.fast = uint64_t(0);
    if (tt_compact(depth)) {
        Bucket b = compact_bucket(hash);
        u64vec4 entries = compact_segment(b).sectors[b.index];
        uint64_t check = compact_check(hash);
        for (uint way = 0u; way < TT_COMPACT_WAYS; way++) {
            uint64_t entry = entries[way];
            bool occupied = (entry & COMPACT_COUNT_MASK) != uint64_t(0);
            // Judged by the full check, whatever the verifier width.
            if (occupied && (entry & ~COMPACT_COUNT_MASK) != check) {
                tt_count(TT_STAT_WRONG_OCCUPIED);
            }
            if (probe.kind == PROBE_MISS && occupied
                    && ((entry ^ check) & tt.compact_verifier_mask) == uint64_t(0)) {
                uint64_t count = (entry & COMPACT_COUNT_MASK) - uint64_t(1);
                probe.kind = PROBE_HIT;
                probe.exact = u64vec2(count, uint64_t(0));
                probe.fast = count;
            }
        }
        tt_count(probe.kind == PROBE_HIT ? TT_STAT_HITS : TT_STAT_MISSES);
        return probe;
    }
    Bucket b = tt_bucket(hash);
    uint64_t check = fast_check(hash);
    if (tt.mode == TT_MODE_FAST) {
        FastSegment entries = fast_segment(b);
        for (uint way = 0u; way < FAST_WAYS; way++) {
            u64vec2 entry = entries.entries[b.index * FAST_WAYS + way];
            // Judged by the full 64 bits, whatever the verifier width.
            if (entry.y != uint64_t(0) && (entry.x ^ entry.y) != check) {
                tt_count(TT_STAT_WRONG_OCCUPIED);
            }
            if (probe.kind == PROBE_MISS && fast_accepts(entry.x, entry.y, check)) {
                uint64_t count = entry.y >> FAST_DEPTH_BITS;
                probe.kind = PROBE_HIT;
                probe.exact = u64vec2(count, uint64_t(0));
                probe.fast = count;
            }
        }
    } else {
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
        // The probe self-test (src/gpu/backend/probe_self_test.rs) catches the looped form.
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

// --- Store

// The replacement rule (src/tt/replace.rs), folded over a bucket's entries in order.
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

// `tie_start` of src/tt/replace.rs.
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
// The compact store (src/tt/compact.rs, `compact_victim`): the same check, else the first
// empty entry, else the smallest count, scanning from an entry chosen by check bits.
void store_compact(u64vec2 hash, u64vec2 count) {
    if (count.y != uint64_t(0) || count.x > MAX_COMPACT_COUNT) {
        tt_count(TT_STAT_PAYLOAD_SKIPS);
        return;
    }
    Bucket b = compact_bucket(hash);
    FastWords words = fast_words(b);
    uint base = b.index * TT_COMPACT_WAYS;
    uint64_t check = compact_check(hash);
    uint start = uint(check >> TT_COMPACT_COUNT_BITS) & (TT_COMPACT_WAYS - 1u);
    uint same = NO_WAY;
    uint empty = NO_WAY;
    uint smallest = NO_WAY;
    uint64_t smallest_count = ~uint64_t(0);
    uint smallest_place = NO_WAY;
    for (uint way = 0u; way < TT_COMPACT_WAYS; way++) {
        uint64_t entry = TT_LOAD(words.words[base + way], gl_SemanticsRelaxed);
        uint64_t stored = entry & COMPACT_COUNT_MASK;
        uint place = (way - start) & (TT_COMPACT_WAYS - 1u);
        if (stored == uint64_t(0)) {
            empty = empty == NO_WAY ? way : empty;
        } else if ((entry & ~COMPACT_COUNT_MASK) == check) {
            same = same == NO_WAY ? way : same;
        } else if (stored < smallest_count
                || (stored == smallest_count && place < smallest_place)) {
            smallest = way;
            smallest_count = stored;
            smallest_place = place;
        }
    }
    uint way = same != NO_WAY ? same : (empty != NO_WAY ? empty : smallest);
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
    unlock_exact(entries, base, stable);
    bool old_empty = exact_empty(old_tag);
    tt_count_store(old_empty ? NO_DEPTH : uint(old_tag & TAG_DEPTH_MASK) - 1u, !old_empty && !same);
}

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

#endif

#endif
