// Where an entry lives: the table's arrays as buffer references, their entry layouts (the
// Rust twins in crates/table/src/tt/fast.rs, crates/table/src/tt/exact.rs, crates/table/src/tt/compact.rs), the bucket of a hash, and
// the device-scope atomic accesses every table word goes through. Built with GPU_TT only.
#ifndef TT_BUCKETS_GLSL
#define TT_BUCKETS_GLSL

#include "tt_params.glsl"

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

// The entry layouts' constants come from crates/table/src/tt/shader_shared.rs (TT_*).
const uint FAST_WORDS = TT_FAST_WORDS;
const uint FAST_WAYS = TT_FAST_WAYS;
const uint VERIFIED_WAYS = TT_VERIFIED_WAYS;
// The data word of a fast entry: count << FAST_DEPTH_BITS | depth + 1.
const uint FAST_DEPTH_BITS = TT_FAST_DEPTH_BITS;
const uint64_t FAST_DEPTH_MASK = (uint64_t(1) << FAST_DEPTH_BITS) - uint64_t(1);
const uint EXACT_WORDS = TT_EXACT_WORDS;
const uint EXACT_SEQUENCE = TT_EXACT_SEQUENCE;
const uint EXACT_TAG = TT_EXACT_TAG;
const uint EXACT_COUNT = TT_EXACT_COUNT;
const uint EXACT_KEY = TT_EXACT_KEY;
const uint64_t TAG_DEPTH_MASK = (uint64_t(1) << TT_TAG_DEPTH_BITS) - uint64_t(1);

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

#endif
