// The GPU board is the 32-byte NybbleBoard (crates/chess/src/chess/nybble.rs): four bit planes of 4-bit
// square codes. It is decoded into piece bitboards for move generation and encoded back for
// children. Codes (macros from Rust): CODE_*; ordinary pieces are color << 3 | (role + 1).
#ifndef BOARD_GLSL
#define BOARD_GLSL

#include "bitboard.glsl"

struct GpuBoard {
    uint64_t planes[4];
};

// Roles and colors as the codes number them (crates/chess/src/chess/nybble_codes.rs).
const uint PAWN = ROLE_PAWN;
const uint KNIGHT = ROLE_KNIGHT;
const uint BISHOP = ROLE_BISHOP;
const uint ROOK = ROLE_ROOK;
const uint QUEEN = ROLE_QUEEN;
const uint KING = ROLE_KING;
const uint WHITE = COLOR_WHITE;
const uint BLACK = COLOR_BLACK;
const uint NO_SQUARE = 64u;

struct Pos {
    uint64_t role[6];
    uint64_t color[2];
    uint turn;
    // The files of the rooks that may still castle (Chess960: any file): bits 0-7 white's on
    // rank 1, bits 8-15 black's on rank 8. Files, not squares, keep a Pos one register smaller.
    uint castling_files;
    uint ep; // canonical ep square or NO_SQUARE
};

// Array elements are selected with constant indices only, so that the compiler can keep a
// `Pos` in registers: a run-time index into a private array forces it into memory.
uint64_t side(Pos p, uint color) {
    return color == WHITE ? p.color[WHITE] : p.color[BLACK];
}

// The role of the piece on `squares` (one square), or NO_ROLE if it is empty.
const uint NO_ROLE = 6u;
uint role_on(Pos p, uint64_t squares) {
    uint role = NO_ROLE;
    for (uint r = 0u; r < 6u; r++) {
        if ((p.role[r] & squares) != uint64_t(0)) role = r;
    }
    return role;
}

void toggle_side(inout Pos p, uint color, uint64_t squares) {
    if (color == WHITE) {
        p.color[WHITE] ^= squares;
    } else {
        p.color[BLACK] ^= squares;
    }
}

void toggle_role(inout Pos p, uint role, uint64_t squares) {
    for (uint r = 0u; r < 6u; r++) {
        if (r == role) {
            p.role[r] ^= squares;
        }
    }
}

// Squares holding exactly `code`.
uint64_t code_squares(GpuBoard b, uint code) {
    uint64_t squares = ~uint64_t(0);
    for (uint k = 0u; k < 4u; k++) {
        squares &= ((code >> k) & 1u) != 0u ? b.planes[k] : ~b.planes[k];
    }
    return squares;
}

// The squares of the castling rooks whose files `castling_files` holds (see Pos).
uint64_t castling_rooks(uint castling_files) {
    return uint64_t(castling_files & 0xffu) | (uint64_t(castling_files >> 8u) << 56u);
}

// The bits of Pos.castling_files for the back-rank squares among `squares`.
uint castling_files_of(uint64_t squares) {
    return uint(squares & RANK_1) | (uint(squares >> 56) << 8u);
}

Pos decode_board(GpuBoard b) {
    Pos p;
    for (uint r = 0u; r < 6u; r++) {
        p.role[r] = code_squares(b, r + 1u) | code_squares(b, CODE_BLACK | (r + 1u));
    }
    p.color[WHITE] = uint64_t(0);
    p.color[BLACK] = uint64_t(0);
    for (uint r = 0u; r < 6u; r++) {
        p.color[WHITE] |= code_squares(b, r + 1u);
        p.color[BLACK] |= code_squares(b, CODE_BLACK | (r + 1u));
    }
    uint64_t castling_rook_squares = code_squares(b, CODE_CASTLING_ROOK);
    uint64_t ep_pawn = code_squares(b, CODE_EP_PAWN);
    uint64_t king_to_move = code_squares(b, CODE_KING_TO_MOVE);
    // The other king keeps its ordinary code; its color says who is not to move.
    p.turn = (p.role[KING] & p.color[WHITE]) != uint64_t(0) ? BLACK : WHITE;
    p.role[ROOK] |= castling_rook_squares;
    p.color[WHITE] |= (castling_rook_squares & RANK_1) | (ep_pawn & RANK_4);
    p.color[BLACK] |= (castling_rook_squares & RANK_8) | (ep_pawn & RANK_5);
    p.role[PAWN] |= ep_pawn;
    p.role[KING] |= king_to_move;
    toggle_side(p, p.turn, king_to_move);
    p.castling_files = castling_files_of(castling_rook_squares);
    if (ep_pawn == uint64_t(0)) {
        p.ep = NO_SQUARE;
    } else {
        uint pawn_sq = lsb64(ep_pawn);
        p.ep = p.turn == WHITE ? pawn_sq + 8u : pawn_sq - 8u;
    }
    return p;
}

void set_code(inout GpuBoard b, uint64_t squares, uint code) {
    for (uint k = 0u; k < 4u; k++) {
        if (((code >> k) & 1u) != 0u) {
            b.planes[k] |= squares;
        } else {
            b.planes[k] &= ~squares;
        }
    }
}

GpuBoard encode_board(Pos p) {
    GpuBoard b;
    for (uint k = 0u; k < 4u; k++) b.planes[k] = uint64_t(0);
    for (uint r = 0u; r < 6u; r++) {
        set_code(b, p.role[r] & p.color[WHITE], r + 1u);
        set_code(b, p.role[r] & p.color[BLACK], CODE_BLACK | (r + 1u));
    }
    set_code(b, castling_rooks(p.castling_files), CODE_CASTLING_ROOK);
    if (p.ep != NO_SQUARE) {
        set_code(b, square_bb(p.turn == WHITE ? p.ep - 8u : p.ep + 8u), CODE_EP_PAWN);
    }
    set_code(b, p.role[KING] & side(p, p.turn), CODE_KING_TO_MOVE);
    return b;
}

#endif
