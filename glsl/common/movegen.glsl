// Legal move generation on the GPU: the bulk counter and copy-make. The generator that visits
// every move is in generate.glsl.
#ifndef MOVEGEN_GLSL
#define MOVEGEN_GLSL

#include "attacks.glsl"
#include "board.glsl"

// GPU-internal move kinds; moves never leave the GPU.
const uint KIND_NORMAL = 0u;
const uint KIND_DOUBLE_PUSH = 1u;
const uint KIND_EN_PASSANT = 2u;
const uint KIND_CASTLE = 3u;
const uint KIND_PROMOTE_KNIGHT = 4u; // + 0..3: knight, bishop, rook, queen

// Plays the ep capture on the occupancy and asks whether the king is then attacked: covers
// pins, checks and the rank-wide discovered check when both pawns leave the rank.
bool ep_capture_is_legal(Pos p, uint from, uint ep, uint captured) {
    uint us = p.turn;
    uint them = us ^ 1u;
    uint king = lsb64(p.role[KING] & side(p, us));
    uint64_t occupied = ((p.color[0] | p.color[1]) & ~square_bb(from) & ~square_bb(captured)) | square_bb(ep);
    uint64_t theirs = side(p, them) & ~square_bb(captured);
    uint64_t rooks = (p.role[ROOK] | p.role[QUEEN]) & theirs;
    uint64_t bishops = (p.role[BISHOP] | p.role[QUEEN]) & theirs;
    uint64_t others = ((knight_attacks(king) & p.role[KNIGHT]) | (pawn_attacks(us, king) & p.role[PAWN])) & theirs;
    return (rook_attacks(king, occupied) & rooks) == uint64_t(0)
        && (bishop_attacks(king, occupied) & bishops) == uint64_t(0)
        && others == uint64_t(0);
}

uint count_legal(Pos p) {
    uint n = 0u;
#define SINK_PIECE(from, targets) n += popcount64(targets)
#define SINK_PAWNS(targets, offset, kind) n += popcount64(targets)
#define SINK_PROMOS(targets, offset) n += 4u * popcount64(targets)
#define SINK_SINGLE(from, to, kind) n += 1u
#include "movegen_body.glsl"
#undef SINK_PIECE
#undef SINK_PAWNS
#undef SINK_PROMOS
#undef SINK_SINGLE
    return n;
}

// The position after a legal move (copy-make), with its canonical ep square.
Pos play_move(Pos p, uint from, uint to, uint kind) {
    Pos c = p;
    uint us = p.turn;
    uint them = us ^ 1u;
    uint64_t from_bb = square_bb(from);
    uint64_t to_bb = square_bb(to);
    uint role = KING;
    for (uint r = 0u; r < 6u; r++) {
        if ((p.role[r] & from_bb) != uint64_t(0)) role = r;
    }
    bool capture = (side(p, them) & to_bb) != uint64_t(0);
    if (capture) {
        for (uint r = 0u; r < 6u; r++) c.role[r] &= ~to_bb;
        toggle_side(c, them, to_bb);
    }
    toggle_role(c, role, from_bb | to_bb);
    toggle_side(c, us, from_bb | to_bb);
    if (kind == KIND_EN_PASSANT) {
        uint64_t captured = square_bb(us == WHITE ? to - 8u : to + 8u);
        c.role[PAWN] ^= captured;
        toggle_side(c, them, captured);
    } else if (kind == KIND_CASTLE) {
        bool king_side = (to & 7u) == 6u;
        uint base = to & 56u;
        uint64_t rook_move = square_bb(base + (king_side ? 7u : 0u)) | square_bb(base + (king_side ? 5u : 3u));
        c.role[ROOK] ^= rook_move;
        toggle_side(c, us, rook_move);
    } else if (kind >= KIND_PROMOTE_KNIGHT) {
        c.role[PAWN] ^= to_bb;
        toggle_role(c, KNIGHT + (kind - KIND_PROMOTE_KNIGHT), to_bb);
    }
    // Rights lost when a king or rook leaves home or a rook is captured at home.
    uint64_t touched = from_bb | to_bb;
    if ((touched & (square_bb(4u) | square_bb(7u))) != uint64_t(0)) c.castling &= ~WHITE_KING_SIDE;
    if ((touched & (square_bb(4u) | square_bb(0u))) != uint64_t(0)) c.castling &= ~WHITE_QUEEN_SIDE;
    if ((touched & (square_bb(60u) | square_bb(63u))) != uint64_t(0)) c.castling &= ~BLACK_KING_SIDE;
    if ((touched & (square_bb(60u) | square_bb(56u))) != uint64_t(0)) c.castling &= ~BLACK_QUEEN_SIDE;
    c.turn = them;
    c.ep = NO_SQUARE;
    if (kind == KIND_DOUBLE_PUSH) {
        uint ep = (from + to) / 2u;
        uint64_t capturers = pawn_attacks(us, ep) & c.role[PAWN] & side(c, them);
        uint captured = to;
        bool legal = false;
        while (capturers != uint64_t(0)) {
            uint capturer = lsb64(capturers);
            capturers &= capturers - uint64_t(1);
            legal = legal || ep_capture_is_legal(c, capturer, ep, captured);
        }
        if (legal) c.ep = ep;
    }
    return c;
}


#endif
