// 128-bit counts as (low, high) 64-bit words.
#ifndef U128_GLSL
#define U128_GLSL

u64vec2 add128(u64vec2 a, u64vec2 b) {
    uint64_t low = a.x + b.x;
    return u64vec2(low, a.y + b.y + (low < a.x ? uint64_t(1) : uint64_t(0)));
}

#endif
