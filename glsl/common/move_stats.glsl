// Move-type statistics of a position's legal moves, the counted columns src/chess/move_stat.rs
// defines: how many are captures (en passant included), en passant captures, castles,
// promotions (each of the four), checks that do not mate and mates, each by how they check
// (the moved piece alone: for a castle the rook, for a promotion the new piece; one other
// piece; the moved piece and another; two others), and stalemates. The leaf's statistics
// build counts one of them (STAT_*) where the node count counts every move; every other stage
// and the table work alike for both, the statistics being sums over the last ply's moves as
// the node count is.
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
    if ((sliders_by_lookups() ? count_slider_moves_by_lookups(c, a) : count_slider_moves_by_fills(c, a)) != 0u) {
        return true;
    }
    return ep_capturers(c) != uint64_t(0);
}

// Whether the legal move (from, to, kind) of `p` is of statistic `stat`'s type, one that the
// position after it decides (checks and mates by kind, stalemates).
bool move_has_stat(Pos p, uint from, uint to, uint kind, uint stat) {
    Pos c = play_move(p, from, to, kind);
    uint64_t checkers = checkers_after(c);
    if (checkers == uint64_t(0)) {
        return stat == STAT_STALEMATES && !has_legal_move(c);
    }
    if (stat == STAT_STALEMATES) return false;
    // The kind in CheckKind's order: +2 for two checkers, +1 when the moved piece is none.
    uint landed = kind == KIND_CASTLE ? castling_rook_to(from, to) : to;
    uint check_kind = (more_than_one(checkers) ? 2u : 0u)
        + ((checkers & square_bb(landed)) != uint64_t(0) ? 0u : 1u);
    bool mates = stat >= STAT_MATES_BY_KIND;
    if (stat - (mates ? STAT_MATES_BY_KIND : STAT_CHECKS_BY_KIND) != check_kind) return false;
    return has_legal_move(c) != mates;
}

// The moves of `p` of a statistic that the move alone decides (captures, en passant, castles,
// promotions: STAT_PROMOTIONS and those before it), counted set by set as count_legal counts
// them all. A castle lands on the king's own rook, never on theirs: no capture.
uint count_move_kind(Pos p, uint stat) {
    if (stat == STAT_EN_PASSANT) return popcount64(ep_capturers(p));
    uint64_t promo_rank = p.turn == WHITE ? RANK_8 : RANK_1;
    Analysis a = analyze(p);
    if (stat == STAT_CASTLES) return popcount64(a.king_moves & side(p, p.turn));
    if (stat == STAT_PROMOTIONS) {
        uint n = 0u;
        for (uint kind = PAWN_PUSHES; kind <= PAWN_CAPTURES_WEST; kind++) {
            n += 4u * popcount64(pawn_targets(p, a, kind) & promo_rank);
        }
        return n;
    }
    // Captures: the moves onto their pieces, and en passant.
    uint64_t ours = side(p, p.turn);
    uint64_t theirs = side(p, p.turn ^ 1u);
    uint n = popcount64(ep_capturers(p)) + popcount64(a.king_moves & theirs);
    a.targets &= theirs;
    n += count_knight_moves(p.role[KNIGHT] & ours & ~a.pinned, a.targets);
    n += sliders_by_lookups() ? count_slider_moves_by_lookups(p, a) : count_slider_moves_by_fills(p, a);
    n += count_pawn_moves(pawn_targets(p, a, PAWN_CAPTURES_EAST), promo_rank);
    n += count_pawn_moves(pawn_targets(p, a, PAWN_CAPTURES_WEST), promo_rank);
    return n;
}

// The statistic the visit below counts, and its count so far.
uint visited_stat;
uint visited_stat_count;

void visit_stat_move(Pos parent, uint from, uint to, uint kind) {
    if (move_has_stat(parent, from, to, kind, visited_stat)) {
        visited_stat_count++;
    }
}

// The generator's loop (generate_loop.glsl) over a position held in registers, visiting
// each move with visit_stat_move: the classification, which makes the move and may look for
// replies, has a single call site (the compiler inlines every call: one per group would
// multiply it).
#define GENERATE_FUNCTION visit_stat_moves
#define GENERATE_ARGUMENT Pos position
#define GENERATE_POSITION(salt) position
#define GENERATE_VISIT visit_stat_move
#include "generate_loop.glsl"
#undef GENERATE_FUNCTION
#undef GENERATE_ARGUMENT
#undef GENERATE_POSITION
#undef GENERATE_VISIT

// The legal moves of `p` of statistic `stat`'s type. This build is only for statistics runs;
// the node count's leaf keeps its register budget.
uint count_stat(Pos p, uint stat) {
    if (stat <= STAT_PROMOTIONS) {
        return count_move_kind(p, stat);
    }
    visited_stat = stat;
    visited_stat_count = 0u;
    visit_stat_moves(p);
    return visited_stat_count;
}

#endif
