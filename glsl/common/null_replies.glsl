// Counting without making in the leaf: the GPU's form of src/chess/specialized/null_replies.rs,
// whose doc defines the neutral moves (rules 1-7) and why each leaves the opponent's legal
// replies those of the board with the turn passed (the null board). It must find exactly the
// moves that the CPU finds: the leaf's twin counts them with that code, and the device and
// the twin are compared per stage.
//
// null_replies_begin(index) analyses the generator's position at two plies remaining; then
// the generator hands each group's targets to take_neutral (GENERATOR_TAKES_NEUTRAL), which
// adds the neutral ones times the null board's reply count to `leaf_sum` and returns the
// others, to be made.
#ifndef NULL_REPLIES_GLSL
#define NULL_REPLIES_GLSL

#include "movegen.glsl"
#include "work.glsl"

// `null_replies` when the side to move is in check (rule 1): no move is neutral.
const uint NO_NULL_BOARD = 0xffffffffu;

// The null board's legal replies, or NO_NULL_BOARD.
uint null_replies;
// Squares the origin and target of every neutral move avoid (rules 3, 4 and 5).
uint64_t null_avoid;

// Squares one rank ahead of `squares` for `color`'s pawns.
uint64_t pawn_ahead(uint color, uint64_t squares) {
    return color == WHITE ? squares << 8 : squares >> 8;
}

// The zone of the side not to move on `p` (module doc): found again where it is needed rather
// than held through the generator's loop, which holds only null_replies and null_avoid.
uint64_t null_zone(Pos p) {
    uint them = p.turn ^ 1u;
    uint64_t theirs = side(p, them);
    uint their_king = lsb64(p.role[KING] & theirs);
    uint64_t zone = (king_attacks(their_king) & ~theirs) | square_bb(their_king);
    uint files = (p.castling_files >> (them == WHITE ? 0u : 8u)) & 0xffu;
    uint base = their_king & 56u;
    while (files != 0u) {
        uint rook = base + findLSB(files);
        files &= files - 1u;
        uint king_to = castling_king_to(their_king, rook);
        uint rook_to = castling_rook_to(their_king, rook);
        uint64_t path = between_bb(their_king, king_to) | square_bb(king_to);
        uint64_t must_be_empty = (path | between_bb(rook, rook_to) | square_bb(rook_to))
            & ~square_bb(their_king) & ~square_bb(rook);
        if ((must_be_empty & theirs) == uint64_t(0)) {
            zone |= path;
        }
    }
    return zone;
}

// The squares on the lines from the squares of `from` in all eight directions, up to and
// including the first square not in `empty`. Filled from the whole set at once: a square of
// `from` that stops another's line starts its own beyond it, so this is the union of each
// square's rook and bishop attacks, as the CPU looks them up.
uint64_t lines_of_sight(uint64_t from, uint64_t empty) {
    return slide(from, empty, NORTH) | slide(from, empty, SOUTH)
        | slide(from, empty, EAST) | slide(from, empty, WEST)
        | slide(from, empty, NORTH_EAST) | slide(from, empty, NORTH_WEST)
        | slide(from, empty, SOUTH_EAST) | slide(from, empty, SOUTH_WEST);
}

// Analyses the generator's position `index`, at two plies remaining.
void null_replies_begin(uint index) {
    Pos p = generator_position(index, 0u);
    uint us = p.turn;
    uint them = us ^ 1u;
    uint64_t ours = side(p, us);
    uint64_t theirs = side(p, them);
    uint64_t occupied = ours | theirs;
    uint king = lsb64(p.role[KING] & ours);
    uint64_t checkers = ((rook_attacks(king, occupied) & (p.role[ROOK] | p.role[QUEEN]))
        | (bishop_attacks(king, occupied) & (p.role[BISHOP] | p.role[QUEEN]))
        | (knight_attacks(king) & p.role[KNIGHT])
        | (pawn_attacks(us, king) & p.role[PAWN])) & theirs;
    if (checkers != uint64_t(0)) {
        null_replies = NO_NULL_BOARD;
        return;
    }
    // Rule 3 (the replies' targets are added below): their pawns' pushes and attacks.
    uint64_t their_pawns = p.role[PAWN] & theirs;
    uint64_t their_second_rank = them == WHITE ? RANK_1 << 8 : RANK_8 >> 8;
    uint64_t avoid = pawn_ahead(them, their_pawns)
        | pawn_ahead(them, pawn_ahead(them, their_pawns & their_second_rank))
        | pawn_spread(them, their_pawns);
    // Rule 4.
    uint their_king = lsb64(p.role[KING] & theirs);
    if (((p.castling_files >> (them == WHITE ? 0u : 8u)) & 0xffu) != 0u) {
        avoid |= RANK_1 << (their_king & 56u);
    }
    // Rule 5: lines of sight from the zone, through their king; from their king, past a first
    // piece of theirs to the second.
    uint64_t zone = null_zone(p);
    uint64_t king_bb = square_bb(their_king);
    avoid |= lines_of_sight(zone, ~occupied | king_bb);
    uint64_t first = lines_of_sight(king_bb, ~occupied);
    avoid |= lines_of_sight(king_bb, ~occupied | (first & theirs));
    // The null board, read again (a zone holds at most 14 squares: the salt is 0, unknown to
    // the compiler) so that `p` is not held while its replies are counted.
    Pos passed = generator_position(index, uint(popcount64(zone)) >> 4u);
    passed.turn ^= 1u;
    passed.ep = NO_SQUARE;
    null_replies = count_legal_reaching(passed, avoid);
    null_avoid = avoid;
}

// The moves of `targets` that are not neutral: those of the piece on `from` in generator group
// `group` (GROUP_KNIGHTS, GROUP_BISHOP_MOVERS, GROUP_ROOK_MOVERS), or the pawn pushes or double
// pushes of pawn group `group`. The neutral ones are counted here.
uint64_t take_neutral(Pos p, uint group, uint from, uint64_t targets) {
    if (null_replies == NO_NULL_BOARD) {
        return targets;
    }
    uint us = p.turn;
    uint them = us ^ 1u;
    uint64_t neutral = uint64_t(0);
    if (group >= GROUP_PAWNS) {
        uint64_t allowed = ~(null_avoid | pawn_spread(them, null_zone(p)));
        if (group == GROUP_PAWNS + PAWN_PUSHES) {
            // Rule 2: a push onto the last rank promotes.
            neutral = targets & allowed & pawn_ahead(us, allowed) & ~(RANK_1 | RANK_8);
        } else if (group == GROUP_PAWNS + PAWN_DOUBLE_PUSHES) {
            // Rule 7: the square passed is not attacked by their pawns.
            uint64_t passable = ~pawn_spread(them, p.role[PAWN] & side(p, them));
            neutral = targets & allowed & pawn_ahead(us, passable)
                & pawn_ahead(us, pawn_ahead(us, allowed));
        }
    } else {
        uint64_t avoid = null_avoid;
        if (group == GROUP_KNIGHTS) {
            avoid |= knight_spread(null_zone(p));
        }
        if ((avoid & square_bb(from)) == uint64_t(0)) {
            neutral = targets & ~(p.color[WHITE] | p.color[BLACK]) & ~avoid;
        }
    }
    uint n = popcount64(neutral);
    leaf_sum += uint64_t(n) * uint64_t(null_replies);
    work_count(WORK_FIELD_NULL_COUNTED, n);
    return targets & ~neutral;
}

#endif
