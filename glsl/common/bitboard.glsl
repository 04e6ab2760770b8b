// 64-bit bitboard helpers. Bit i is square i (a1 = 0, h8 = 63), as in src/chess/bitboard.rs.
// GLSL's bitCount/findLSB take 32-bit values, so 64-bit versions split the word.
#ifndef BITBOARD_GLSL
#define BITBOARD_GLSL

uint popcount64(uint64_t x) {
    uvec2 halves = unpackUint2x32(x);
    return uint(bitCount(halves.x) + bitCount(halves.y));
}

// Lowest set square; x must not be 0.
uint lsb64(uint64_t x) {
    uvec2 halves = unpackUint2x32(x);
    return halves.x != 0u ? uint(findLSB(halves.x)) : 32u + uint(findLSB(halves.y));
}

uint64_t square_bb(uint sq) {
    return uint64_t(1) << sq;
}

bool more_than_one(uint64_t x) {
    return (x & (x - uint64_t(1))) != uint64_t(0);
}

const uint64_t FILE_A = uint64_t(0x0101010101010101ul);
const uint64_t FILE_H = uint64_t(0x8080808080808080ul);
const uint64_t RANK_1 = uint64_t(0xfful);
const uint64_t RANK_3 = uint64_t(0xfful) << 16;
const uint64_t RANK_4 = uint64_t(0xfful) << 24;
const uint64_t RANK_5 = uint64_t(0xfful) << 32;
const uint64_t RANK_6 = uint64_t(0xfful) << 40;
const uint64_t RANK_8 = uint64_t(0xfful) << 56;

#endif
