// Attack sets. Leapers are computed with shifts. Sliders, per device (SLIDER_ATTACKS): on CPU
// implementations such as lavapipe, with Kogge-Stone fills on whole sets of pieces, because an
// invocation's table read at an address that differs from its neighbours' costs a gather (one
// load per invocation); on GPUs, by magic lookup per piece, which takes fewer instructions and
// registers. The tables come from the host (crates/gpu/src/gpu/tables.rs builds them from the CPU's
// crates/chess/src/chess/attacks.rs).
#ifndef ATTACKS_GLSL
#define ATTACKS_GLSL

#include "bitboard.glsl"

// Layout in 64-bit words (offsets passed as macros from Rust, crates/gpu/src/gpu/shader_layout.rs):
// TABLE_LINE[64][64], TABLE_BETWEEN[64][64], TABLE_ROOK_MAGICS[64][3],
// TABLE_BISHOP_MAGICS[64][3], TABLE_SLIDER_ATTACKS[].
layout(std430, set = 0, binding = BINDING_TABLES) readonly buffer Tables {
    uint64_t tables[];
};

// SLIDERS_BY_FILLS or SLIDERS_BY_LOOKUPS, set when the device's pipelines are made.
layout(constant_id = SPEC_SLIDER_ATTACKS) const uint SLIDER_ATTACKS = SLIDERS_BY_FILLS;

bool sliders_by_lookups() { return SLIDER_ATTACKS == SLIDERS_BY_LOOKUPS; }

uint64_t line_bb(uint a, uint b) { return tables[TABLE_LINE + a * 64u + b]; }
uint64_t between_bb(uint a, uint b) { return tables[TABLE_BETWEEN + a * 64u + b]; }

// `attacks[offset + ((occupied & mask) * magic) >> shift]` for the magic at `entry`.
uint64_t magic_attacks(uint entry, uint64_t occupied) {
    uint64_t packed = tables[entry + 2u];
    uint64_t index = ((occupied & tables[entry]) * tables[entry + 1u]) >> uint(packed & uint64_t(63));
    return tables[TABLE_SLIDER_ATTACKS + uint(packed >> 8) + uint(index)];
}

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
    if (sliders_by_lookups()) {
        return magic_attacks(TABLE_ROOK_MAGICS + 3u * sq, occupied);
    }
    uint64_t from = square_bb(sq);
    uint64_t empty = ~occupied;
    return slide(from, empty, NORTH) | slide(from, empty, SOUTH)
        | slide(from, empty, EAST) | slide(from, empty, WEST);
}

uint64_t bishop_attacks(uint sq, uint64_t occupied) {
    if (sliders_by_lookups()) {
        return magic_attacks(TABLE_BISHOP_MAGICS + 3u * sq, occupied);
    }
    uint64_t from = square_bb(sq);
    uint64_t empty = ~occupied;
    return slide(from, empty, NORTH_EAST) | slide(from, empty, NORTH_WEST)
        | slide(from, empty, SOUTH_EAST) | slide(from, empty, SOUTH_WEST);
}

#endif
