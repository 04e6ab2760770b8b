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

// The groups of moves count_stat visits in turn: the king's (its steps, and its moves onto its
// own rooks: its castles), each knight's and slider's, the en passant captures, then the pawn
// moves by the square they land on (PAWN_PUSHES to PAWN_CAPTURES_WEST from STATS_PAWNS on).
const uint STATS_KING = 0u;
const uint STATS_PIECES = 1u;
const uint STATS_EN_PASSANT = 2u;
const uint STATS_PAWNS = 3u;
const uint STATS_GROUPS = STATS_PAWNS + 4u;

// The legal moves of `p` of statistic `stat`'s type. For the statistics the position after
// the move decides, like generate_moves, one loop visits one move per turn, so that the classification, which makes the move and may count the replies,
// has a single call site (the compiler inlines every call: one per group would multiply it).
// This build is only for statistics runs; the node count's leaf keeps its register budget.
uint count_stat(Pos p, uint stat) {
    if (stat <= STAT_PROMOTIONS) {
        return count_move_kind(p, stat);
    }
    Analysis a = analyze(p);
    uint64_t ours = side(p, p.turn);
    uint64_t occupied = p.color[WHITE] | p.color[BLACK];
    bool white = p.turn == WHITE;
    uint n = 0u;
    uint group = STATS_KING;
    uint64_t pieces = uint64_t(0);
    uint64_t targets = a.king_moves;
    uint from = a.king;
    int offset = 0;
    uint promoted = 0u;
    for (;;) {
        while (targets == uint64_t(0) && (pieces != uint64_t(0) || group + 1u < STATS_GROUPS)) {
            if (pieces != uint64_t(0)) {
                from = lsb64(pieces);
                pieces &= pieces - uint64_t(1);
                uint64_t at = square_bb(from);
                if (group == STATS_EN_PASSANT) {
                    targets = square_bb(p.ep);
                } else {
                    targets = ((p.role[KNIGHT] & at) != uint64_t(0) ? knight_attacks(from)
                                                                    : slider_attacks(p, from, occupied))
                        & a.targets;
                    if ((a.pinned & at) != uint64_t(0)) targets &= line_bb(a.king, from);
                }
                continue;
            }
            group++;
            if (a.targets == uint64_t(0)) {
                // Double check: only the king moves.
                group = STATS_GROUPS;
                break;
            }
            if (group == STATS_PIECES) {
                pieces = ((p.role[KNIGHT] & ~a.pinned) | p.role[BISHOP] | p.role[ROOK] | p.role[QUEEN]) & ours;
            } else if (group == STATS_EN_PASSANT) {
                pieces = ep_capturers(p);
            } else {
                uint pawn_kind = group - STATS_PAWNS;
                targets = pawn_targets(p, a, pawn_kind);
                offset = pawn_offset(white, pawn_kind);
            }
        }
        if (targets == uint64_t(0)) {
            break;
        }
        uint to = lsb64(targets);
        uint kind = KIND_NORMAL;
        if (group == STATS_KING && (ours & square_bb(to)) != uint64_t(0)) {
            kind = KIND_CASTLE;
        } else if (group == STATS_EN_PASSANT) {
            kind = KIND_EN_PASSANT;
        } else if (group == STATS_PAWNS + PAWN_DOUBLE_PUSHES) {
            kind = KIND_DOUBLE_PUSH;
        }
        bool promotion = offset != 0 && (to >= 56u || to < 8u);
        uint origin = offset != 0 ? uint(int(to) - offset) : from;
        if (move_has_stat(p, origin, to, promotion ? KIND_PROMOTE_KNIGHT + promoted : kind, stat)) {
            n++;
        }
        // A promotion square is visited four times, once per piece the pawn may become.
        if (promotion && promoted < 3u) {
            promoted++;
        } else {
            promoted = 0u;
            targets &= targets - uint64_t(1);
        }
    }
    return n;
}

#endif
