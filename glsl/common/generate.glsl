// The move generator: calls `void on_move(Pos parent, uint from, uint to, uint kind)`, which
// the including shader defines after including movegen.glsl, for every legal move of `p`.
//
// It is one loop that visits one move per turn, so on_move has a single call site: invocations
// running in lockstep (on lavapipe, 8 per SIMD register) make their moves together however
// their moves are spread over pieces, instead of each waiting while the others run through
// piece kinds it has no moves for. Moves are taken group by group: the king's, each piece's,
// then pawn moves by the square they land on, en passant captures and castles.
#ifndef GENERATE_GLSL
#define GENERATE_GLSL

const uint GROUP_KING = 0u;
const uint GROUP_KNIGHTS = 1u;
const uint GROUP_BISHOP_MOVERS = 2u;
const uint GROUP_ROOK_MOVERS = 3u;
const uint GROUP_EN_PASSANT = 4u;
const uint GROUP_PUSHES = 5u;
const uint GROUP_DOUBLE_PUSHES = 6u;
const uint GROUP_CAPTURES_EAST = 7u;
const uint GROUP_CAPTURES_WEST = 8u;
const uint GROUP_CASTLES = 9u;
const uint GROUP_COUNT = 10u;

void generate_moves(Pos p) {
    Moves m = analyze_moves(p);
    uint king = lsb64(m.king);
    uint64_t occupied = ~m.empty;
    uint64_t pinned = m.pinned_on_file | m.pinned_on_rank | m.pinned_on_diagonal | m.pinned_on_anti_diagonal;
    bool white = p.turn == WHITE;
    int push = white ? 8 : -8;
    uint64_t promo_rank = white ? RANK_8 : RANK_1;

    uint group = GROUP_KING;
    // Pieces of the group whose moves are still to come; each one's targets are found when
    // its turn comes.
    uint64_t pieces = uint64_t(0);
    // Squares the current piece or group still moves to; a move starts on `from`, or, for
    // pawn groups, `to - offset`.
    uint64_t targets = m.king_moves;
    uint from = king;
    int offset = 0;
    uint kind = KIND_NORMAL;
    uint promoted = 0u;
    for (;;) {
        while (targets == uint64_t(0) && (pieces != uint64_t(0) || group + 1u < GROUP_COUNT)) {
            if (pieces != uint64_t(0)) {
                from = lsb64(pieces);
                pieces &= pieces - uint64_t(1);
                uint64_t from_bb = square_bb(from);
                if (group == GROUP_KNIGHTS) {
                    targets = knight_attacks(from) & m.targets;
                } else if (group == GROUP_EN_PASSANT) {
                    targets = square_bb(p.ep);
                } else {
                    // One code path for both slider kinds: only the directions differ.
                    bool diagonal = group == GROUP_BISHOP_MOVERS;
                    int dir = diagonal ? NORTH_EAST : NORTH;
                    int other_dir = diagonal ? NORTH_WEST : EAST;
                    targets = (slide(from_bb, m.empty, dir) | slide(from_bb, m.empty, -dir)
                        | slide(from_bb, m.empty, other_dir) | slide(from_bb, m.empty, -other_dir)) & m.targets;
                    if ((pinned & from_bb) != uint64_t(0)) targets &= line_bb(king, from);
                }
                continue;
            }
            group++;
            offset = 0;
            kind = KIND_NORMAL;
            if (group == GROUP_KNIGHTS) {
                pieces = p.role[KNIGHT] & m.ours & ~pinned;
            } else if (group == GROUP_BISHOP_MOVERS) {
                pieces = (p.role[BISHOP] | p.role[QUEEN]) & m.ours;
            } else if (group == GROUP_ROOK_MOVERS) {
                pieces = (p.role[ROOK] | p.role[QUEEN]) & m.ours;
            } else if (group == GROUP_EN_PASSANT) {
                pieces = m.ep_capturers;
                kind = KIND_EN_PASSANT;
            } else if (group == GROUP_PUSHES) {
                targets = m.pushes;
                offset = push;
            } else if (group == GROUP_DOUBLE_PUSHES) {
                targets = m.double_pushes;
                offset = 2 * push;
                kind = KIND_DOUBLE_PUSH;
            } else if (group == GROUP_CAPTURES_EAST) {
                targets = m.captures_east;
                offset = white ? 9 : -7;
            } else if (group == GROUP_CAPTURES_WEST) {
                targets = m.captures_west;
                offset = white ? 7 : -9;
            } else {
                targets = m.castles;
                from = king;
                kind = KIND_CASTLE;
            }
        }
        if (targets == uint64_t(0)) {
            break;
        }
        uint to = lsb64(targets);
        bool promotion = offset != 0 && (promo_rank & square_bb(to)) != uint64_t(0);
        on_move(p, offset != 0 ? uint(int(to) - offset) : from, to,
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

#endif
