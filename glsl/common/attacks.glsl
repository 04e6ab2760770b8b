// Attack lookups from the tables the host uploads (src/gpu/tables.rs builds them from the same
// data as the CPU's src/chess/attacks.rs): leapers, magic sliders, between and line rays.
#ifndef ATTACKS_GLSL
#define ATTACKS_GLSL

#include "bitboard.glsl"

// Layout of the `tables` buffer, in 64-bit words (offsets passed as macros from Rust):
// TABLE_KNIGHT[64], TABLE_KING[64], TABLE_PAWN[2][64], TABLE_BETWEEN[64][64], TABLE_LINE[64][64],
// TABLE_MAGICS[128][3] (rook squares then bishop squares: mask, magic, offset | shift << 32),
// then the slider attack sets from TABLE_SLIDERS.
layout(std430, set = 0, binding = BINDING_TABLES) readonly buffer Tables {
    uint64_t tables[];
};

uint64_t knight_attacks(uint sq) { return tables[TABLE_KNIGHT + sq]; }
uint64_t king_attacks(uint sq) { return tables[TABLE_KING + sq]; }
// Squares a pawn of `color` (0 white, 1 black) on `sq` attacks.
uint64_t pawn_attacks(uint color, uint sq) { return tables[TABLE_PAWN + color * 64u + sq]; }
uint64_t between_bb(uint a, uint b) { return tables[TABLE_BETWEEN + a * 64u + b]; }
uint64_t line_bb(uint a, uint b) { return tables[TABLE_LINE + a * 64u + b]; }

uint64_t magic_attacks(uint entry, uint64_t occupied) {
    uint base = TABLE_MAGICS + entry * 3u;
    uint64_t mask = tables[base];
    uint64_t magic = tables[base + 1u];
    uvec2 offset_shift = unpackUint2x32(tables[base + 2u]);
    uint index = uint(((occupied & mask) * magic) >> offset_shift.y);
    return tables[TABLE_SLIDERS + offset_shift.x + index];
}

uint64_t rook_attacks(uint sq, uint64_t occupied) { return magic_attacks(sq, occupied); }
uint64_t bishop_attacks(uint sq, uint64_t occupied) { return magic_attacks(64u + sq, occupied); }

#endif
