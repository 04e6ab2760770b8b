// The child's TT hash from its parent's, following the move (the incremental hash of
// crates/chess/src/chess/zobrist.rs): for the stages that make moves.
#ifndef TT_CHILD_HASH_GLSL
#define TT_CHILD_HASH_GLSL

#include "movegen.glsl"
#include "tt_hash.glsl"

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
