// 64-bit bitboard helpers. Bit i is square i (a1 = 0, h8 = 63), as in crates/chess/src/chess/bitboard.rs.
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
const uint64_t FILE_B = FILE_A << 1;
const uint64_t FILE_G = FILE_A << 6;
const uint64_t FILE_H = FILE_A << 7;
const uint64_t RANK_1 = uint64_t(0xfful);
const uint64_t RANK_3 = uint64_t(0xfful) << 16;
const uint64_t RANK_4 = uint64_t(0xfful) << 24;
const uint64_t RANK_5 = uint64_t(0xfful) << 32;
const uint64_t RANK_6 = uint64_t(0xfful) << 40;
const uint64_t RANK_8 = uint64_t(0xfful) << 56;
const uint64_t DIAGONAL_A1H8 = uint64_t(0x8040201008040201ul);
const uint64_t ANTI_DIAGONAL_H1A8 = uint64_t(0x0102040810204080ul);

// Directions as square index steps. Callers pass them as constants, so that after inlining
// every shift amount and mask below is a constant.
const int NORTH = 8;
const int SOUTH = -8;
const int EAST = 1;
const int WEST = -1;
const int NORTH_EAST = 9;
const int NORTH_WEST = 7;
const int SOUTH_EAST = -7;
const int SOUTH_WEST = -9;

// Squares moved by `step` square indices (positive: towards h8); bits leaving the board drop.
uint64_t shift_squares(uint64_t x, int step) {
    return step > 0 ? x << uint(step) : x >> uint(-step);
}

// Squares a step of `dir` (one file at most sideways) can land on: a step east cannot land
// on the a-file, one west not on the h-file, so that no step wraps around the board's edge.
uint64_t landing_squares(int dir) {
    int file_step = dir & 7;
    return file_step == 1 ? ~FILE_A : file_step == 7 ? ~FILE_H : ~uint64_t(0);
}

// Every square of `x` one step in `dir`.
uint64_t step_squares(uint64_t x, int dir) {
    return shift_squares(x, dir) & landing_squares(dir);
}

// What sliders on `sliders` attack in `dir`: every square up to and including the first
// occupied one. A Kogge-Stone fill: arithmetic only, the same work for every position, so
// invocations that run in lockstep do not diverge and no table is read.
uint64_t slide(uint64_t sliders, uint64_t empty, int dir) {
    uint64_t through = empty & landing_squares(dir);
    uint64_t reached = sliders;
    reached |= through & shift_squares(reached, dir);
    through &= shift_squares(through, dir);
    reached |= through & shift_squares(reached, 2 * dir);
    through &= shift_squares(through, 2 * dir);
    reached |= through & shift_squares(reached, 4 * dir);
    return step_squares(reached, dir);
}

#endif
