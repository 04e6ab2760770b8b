// The generator's move loop, one instance per visit: the including file defines
//   GENERATE_FUNCTION         the function's name,
//   GENERATE_ARGUMENT         its one parameter,
//   GENERATE_POSITION(salt)   the position, from that parameter (`salt` is 0; see
//                             generator_position in generate.glsl),
//   GENERATE_VISIT            a function (Pos parent, uint from, uint to, uint kind) called for
//                             every legal move it selects,
//   GENERATE_SELECT(position, group, from, offset, targets)
//                             the moves of a group's (or a piece's) set to visit: `targets`
//                             itself to visit all; others may count the rest in bulk,
//   GENERATE_PIECES(group, pieces)
//                             the pieces of a group of pieces (knights, bishop movers, rook
//                             movers, en passant capturers) whose moves to look at: `pieces`
//                             itself for all; others may have counted the rest in bulk,
//   GENERATE_ANALYSIS(position) the position's analysis (movegen.glsl's analyze), which a
//                             caller may have at hand,
//   GENERATE_NEXT_GROUP(group) the group after `group` (GROUP_COUNT after the last) to look
//                             at: `group + 1` for all; others may skip groups with nothing to
//                             visit,
// includes this file, and undefines them. generate.glsl makes the node count's and the
// expansion's instance (generate_moves, every move visited), move_stats.glsl the statistics'
// (tally_visit_moves, which visits the few moves the statistics must classify one by one, of the
// pieces that have any, after tally_moves counted every move in bulk): one loop, so the moves
// the statistics classify are the moves the node count counts.
//
// It is one loop that visits one move per turn, so the visit has a single call site:
// invocations running in lockstep (on lavapipe, 8 per SIMD register) make their moves together
// however their moves are spread over pieces, instead of each waiting while the others run
// through piece kinds it has no moves for. Moves are taken group by group: the king's steps,
// its castles (its moves onto its own rooks), each piece's, en passant captures, then pawn
// moves by the square they land on. A group's set is computed when its turn comes.
#include "generate_groups.glsl"

void GENERATE_FUNCTION(GENERATE_ARGUMENT) {
    Pos first = GENERATE_POSITION(0u);
    Analysis a = GENERATE_ANALYSIS(first);

    uint group = GROUP_KING;
    // Pieces of the group whose moves are still to come; each one's targets are found when
    // its turn comes.
    uint64_t pieces = uint64_t(0);
    uint from = a.king;
    int offset = 0;
    // Squares the current piece or group still moves to; a move starts on `from`, or, for
    // pawn groups, `to - offset`.
    // The king's steps first; its moves onto its own rooks are its castles, the next group.
    uint64_t targets = GENERATE_SELECT(first, group, from, offset, a.king_moves & ~side(first, first.turn));
    uint promoted = 0u;
    for (;;) {
        while (targets == uint64_t(0) && (pieces != uint64_t(0) || GENERATE_NEXT_GROUP(group) < GROUP_COUNT)) {
            Pos p = GENERATE_POSITION(promoted >> 2u);
            bool white = p.turn == WHITE;
            uint64_t ours = side(p, p.turn);
            if (pieces != uint64_t(0)) {
                from = lsb64(pieces);
                pieces &= pieces - uint64_t(1);
                if (group == GROUP_KNIGHTS) {
                    targets = knight_attacks(from) & a.targets;
                } else if (group == GROUP_EN_PASSANT) {
                    targets = square_bb(p.ep);
                } else {
                    uint64_t occupied = p.color[WHITE] | p.color[BLACK];
                    targets = (group == GROUP_BISHOP_MOVERS ? bishop_attacks(from, occupied)
                                                             : rook_attacks(from, occupied)) & a.targets;
                    if ((a.pinned & square_bb(from)) != uint64_t(0)) targets &= line_bb(a.king, from);
                }
                targets = GENERATE_SELECT(p, group, from, offset, targets);
                continue;
            }
            group = GENERATE_NEXT_GROUP(group);
            if (a.targets == uint64_t(0)) {
                // Double check: only the king moves.
                group = GROUP_COUNT;
                break;
            }
            if (group == GROUP_CASTLES) {
                targets = a.king_moves & ours;
            } else if (group == GROUP_KNIGHTS) {
                pieces = GENERATE_PIECES(group, p.role[KNIGHT] & ours & ~a.pinned);
            } else if (group == GROUP_BISHOP_MOVERS) {
                pieces = GENERATE_PIECES(group, (p.role[BISHOP] | p.role[QUEEN]) & ours);
            } else if (group == GROUP_ROOK_MOVERS) {
                pieces = GENERATE_PIECES(group, (p.role[ROOK] | p.role[QUEEN]) & ours);
            } else if (group == GROUP_EN_PASSANT) {
                pieces = GENERATE_PIECES(group, ep_capturers(p));
            } else {
                uint pawn_kind = group - GROUP_PAWNS;
                targets = pawn_targets(p, a, pawn_kind);
                offset = pawn_offset(white, pawn_kind);
            }
            targets = GENERATE_SELECT(p, group, from, offset, targets);
        }
        if (targets == uint64_t(0)) {
            break;
        }
        uint to = lsb64(targets);
        uint kind = KIND_NORMAL;
        if (group == GROUP_CASTLES) {
            kind = KIND_CASTLE;
        } else if (group == GROUP_EN_PASSANT) {
            kind = KIND_EN_PASSANT;
        } else if (group == GROUP_PAWNS + PAWN_DOUBLE_PUSHES) {
            kind = KIND_DOUBLE_PUSH;
        }
        bool promotion = offset != 0 && (to >= 56u || to < 8u);
        GENERATE_VISIT(GENERATE_POSITION(promoted >> 2u), offset != 0 ? uint(int(to) - offset) : from, to,
                promotion ? KIND_PROMOTE_KNIGHT + promoted : kind);
        // A promotion square is visited four times, once per piece the pawn may become.
        if (promotion && promoted < 3u) {
            promoted++;
        } else {
            promoted = 0u;
            targets &= targets - uint64_t(1);
        }
    }
}
