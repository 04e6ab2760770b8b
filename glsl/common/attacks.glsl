// Attack sets. Leapers and sliders are computed with shifts and fills rather than read from
// tables: an invocation's table reads go to addresses that differ from its neighbours', which
// costs a gather (on CPU drivers such as lavapipe, one load per invocation). Lines through two
// squares, needed only for pinned pieces while generating moves, come from the table the host
// uploads (src/gpu/tables.rs builds it from the same data as the CPU's src/chess/attacks.rs).
#ifndef ATTACKS_GLSL
#define ATTACKS_GLSL

#include "bitboard.glsl"

// Layout of the `tables` buffer, in 64-bit words (offsets passed as macros from Rust):
// TABLE_LINE[64][64].
layout(std430, set = 0, binding = BINDING_TABLES) readonly buffer Tables {
    uint64_t tables[];
};

uint64_t line_bb(uint a, uint b) { return tables[TABLE_LINE + a * 64u + b]; }

// Squares the knights on `knights` attack.
uint64_t knight_spread(uint64_t knights) {
    uint64_t one_file = ((knights << 1) & ~FILE_A) | ((knights >> 1) & ~FILE_H);
    uint64_t two_files = ((knights << 2) & ~(FILE_A | FILE_B)) | ((knights >> 2) & ~(FILE_G | FILE_H));
    return (one_file << 16) | (one_file >> 16) | (two_files << 8) | (two_files >> 8);
}

// Squares the kings on `kings` attack.
uint64_t king_spread(uint64_t kings) {
    uint64_t sideways = ((kings << 1) & ~FILE_A) | ((kings >> 1) & ~FILE_H);
    uint64_t row = kings | sideways;
    return sideways | (row << 8) | (row >> 8);
}

// Squares pawns of `color` (0 white, 1 black) on `pawns` attack.
uint64_t pawn_spread(uint color, uint64_t pawns) {
    uint64_t ahead = color == 0u ? pawns << 8 : pawns >> 8;
    return ((ahead << 1) & ~FILE_A) | ((ahead >> 1) & ~FILE_H);
}

uint64_t knight_attacks(uint sq) { return knight_spread(square_bb(sq)); }
uint64_t king_attacks(uint sq) { return king_spread(square_bb(sq)); }
uint64_t pawn_attacks(uint color, uint sq) { return pawn_spread(color, square_bb(sq)); }

uint64_t rook_attacks(uint sq, uint64_t occupied) {
    uint64_t from = square_bb(sq);
    uint64_t empty = ~occupied;
    return slide(from, empty, NORTH) | slide(from, empty, SOUTH)
        | slide(from, empty, EAST) | slide(from, empty, WEST);
}

uint64_t bishop_attacks(uint sq, uint64_t occupied) {
    uint64_t from = square_bb(sq);
    uint64_t empty = ~occupied;
    return slide(from, empty, NORTH_EAST) | slide(from, empty, NORTH_WEST)
        | slide(from, empty, SOUTH_EAST) | slide(from, empty, SOUTH_WEST);
}

#endif
