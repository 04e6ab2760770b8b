// The TT hash of a position: `Zobrist::hash` of the position XOR the key of its remaining
// depth (crates/chess/src/chess/zobrist.rs), from the decoded position and the uploaded Zobrist keys.
#ifndef TT_HASH_GLSL
#define TT_HASH_GLSL

#include "tt_params.glsl"

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

#endif
