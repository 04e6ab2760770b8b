// Move-type statistics of a position's legal moves, the counted columns crates/chess/src/chess/move_stat.rs
// defines: how many are captures (en passant included), en passant captures, castles,
// promotions (each of the four), checks that do not mate and mates, each by how they check
// (the moved piece alone: for a castle the rook, for a promotion the new piece; one other
// piece; the moved piece and another; two others), and stalemates. The leaf's statistics
// build tallies every column of each position it counts, in one visit of its moves; the other
// stages' statistics builds carry the columns as they carry the count, the statistics being
// sums over the last ply's moves as the node count is.
#ifndef MOVE_STATS_GLSL
#define MOVE_STATS_GLSL

#include "movegen.glsl"

// The pieces of the side that just moved giving check to the side to move in `c`.
uint64_t checkers_after(Pos c) {
    uint us = c.turn;
    uint king = lsb64(c.role[KING] & side(c, us));
    uint64_t occupied = c.color[WHITE] | c.color[BLACK];
    return ((rook_attacks(king, occupied) & (c.role[ROOK] | c.role[QUEEN]))
        | (bishop_attacks(king, occupied) & (c.role[BISHOP] | c.role[QUEEN]))
        | (knight_attacks(king) & c.role[KNIGHT])
        | (pawn_attacks(us, king) & c.role[PAWN])) & side(c, us ^ 1u);
}

// Whether the side to move in `c` has a legal move: the king's are looked at first, the
// likeliest, then each set of the others until one is not empty.
bool has_legal_move(Pos c) {
    Analysis a = analyze(c);
    if (a.king_moves != uint64_t(0)) return true;
    if (a.targets == uint64_t(0)) return false;
    uint64_t ours = side(c, c.turn);
    if (count_knight_moves(c.role[KNIGHT] & ours & ~a.pinned, a.targets) != 0u) return true;
    for (uint kind = PAWN_PUSHES; kind <= PAWN_CAPTURES_WEST; kind++) {
        if (pawn_targets(c, a, kind) != uint64_t(0)) return true;
    }
    uint64_t unused = uint64_t(0);
    if ((sliders_by_lookups() ? count_slider_moves_by_lookups(c, a, unused)
                              : count_slider_moves_by_fills(c, a, unused)) != 0u) {
        return true;
    }
    return ep_capturers(c) != uint64_t(0);
}

// The columns tallied so far (STAT_* order), and the moves visited: at most 218 * 218 each, as
// the leaf tallies two plies at most.
uint tally[STAT_COLUMNS];
uint tally_moves_visited;

void tally_clear() {
    for (uint k = 0u; k < STAT_COLUMNS; k++) {
        tally[k] = 0u;
    }
}

// Tallies the legal move (from, to, kind) of `p`: what the move is, then what it does (a check
// of which kind, a mate, a stalemate) from the position after it. A castle lands on the king's
// own rook, never on theirs: no capture.
void tally_move(Pos p, uint from, uint to, uint kind) {
    tally_moves_visited++;
    if (kind == KIND_EN_PASSANT) {
        tally[STAT_EN_PASSANT]++;
        tally[STAT_CAPTURES]++;
    } else if ((side(p, p.turn ^ 1u) & square_bb(to)) != uint64_t(0)) {
        tally[STAT_CAPTURES]++;
    }
    if (kind == KIND_CASTLE) {
        tally[STAT_CASTLES]++;
    }
    if (kind >= KIND_PROMOTE_KNIGHT) {
        tally[STAT_PROMOTIONS]++;
    }
    Pos c = play_move(p, from, to, kind);
    uint64_t checkers = checkers_after(c);
    if (checkers == uint64_t(0)) {
        if (!has_legal_move(c)) {
            tally[STAT_STALEMATES]++;
        }
        return;
    }
    // The kind in CheckKind's order: +2 for two checkers, +1 when the moved piece is none.
    uint landed = kind == KIND_CASTLE ? castling_rook_to(from, to) : to;
    uint check_kind = (more_than_one(checkers) ? 2u : 0u)
        + ((checkers & square_bb(landed)) != uint64_t(0) ? 0u : 1u);
    tally[(has_legal_move(c) ? STAT_CHECKS_BY_KIND : STAT_MATES_BY_KIND) + check_kind]++;
}

// The generator's loop (generate_loop.glsl) over a position held in registers, visiting
// each move with tally_move: the classification, which makes the move and may look for
// replies, has a single call site (the compiler inlines every call: one per group would
// multiply it).
#define GENERATE_FUNCTION tally_visit_moves
#define GENERATE_ARGUMENT Pos position
#define GENERATE_POSITION(salt) position
#define GENERATE_VISIT tally_move
#include "generate_loop.glsl"
#undef GENERATE_FUNCTION
#undef GENERATE_ARGUMENT
#undef GENERATE_POSITION
#undef GENERATE_VISIT

// Adds the columns of `p`'s legal moves to the tally; its number of legal moves. This build is
// only for statistics runs: the node count's leaf keeps its register budget.
uint tally_moves(Pos p) {
    tally_moves_visited = 0u;
    tally_visit_moves(p);
    return tally_moves_visited;
}

#endif
