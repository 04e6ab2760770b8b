// Counting without making in the leaf: the GPU's form of
// crates/chess/src/chess/specialized/null_replies.rs, whose doc defines the neutral moves
// (rules 1-7) and why each leaves the opponent's legal replies those of the board with the
// turn passed (the null board). It must find exactly the moves that the CPU finds: the leaf's
// twin counts them with that code, and the device and the twin are compared per stage.
//
// null_replies_begin(index) analyses the generator's position (GENERATOR_POSITION) at two
// plies remaining; then the leaf asks is_neutral of each move it visits, and counts the null
// board's replies for a neutral move instead of making it. What the analysis found is
// kept in shared memory, a slot per invocation, and each move is classified in the visit,
// before the child is made: the analysis held in registers through the generator's loop, or
// the neutral moves taken out of each group's targets where the loop computes them, raised
// the node count's leaf from 104 VGPRs to 120-136 on navi21 and vega10.
#ifndef NULL_REPLIES_GLSL
#define NULL_REPLIES_GLSL

#include "movegen.glsl"
#include "work.glsl"

// Per invocation, in 32-bit words: the null board's legal replies, then the squares the
// origin and target of a neutral move avoid (rules 3, 4 and 5), by the role that moves: a
// bishop, rook or queen's, a knight's (and rule 6) and a pawn's (and rule 6), two words each;
// every square when the side to move is in check (rule 1). They are read and written with
// atomics: plain accesses to shared memory in the generator's loop make lavapipe (Mesa 22.3)
// lose the invocation's stores after the loop, atomics there (the work counters) do not.
const uint NULL_REPLIES = 0u;
const uint AVOID_ANY = 1u;
const uint AVOID_KNIGHT = 3u;
const uint AVOID_PAWN = 5u;
const uint NULL_WORDS = 7u;
shared uint null_words[WORKGROUP_SIZE * NULL_WORDS];

uint null_load(uint slot, uint word) {
    return atomicAdd(null_words[NULL_WORDS * slot + word], 0u);
}

uint64_t null_load_mask(uint slot, uint word) {
    return packUint2x32(uvec2(null_load(slot, word), null_load(slot, word + 1u)));
}

void null_store(uint slot, uint word, uint value) {
    atomicExchange(null_words[NULL_WORDS * slot + word], value);
}

void null_store_mask(uint slot, uint word, uint64_t mask) {
    uvec2 halves = unpackUint2x32(mask);
    null_store(slot, word, halves.x);
    null_store(slot, word + 1u, halves.y);
}

// Adds `mask` to the squares every role avoids.
void null_avoid_everywhere(uint slot, uint64_t mask) {
    uvec2 halves = unpackUint2x32(mask);
    for (uint word = AVOID_ANY; word < NULL_WORDS; word += 2u) {
        atomicOr(null_words[NULL_WORDS * slot + word], halves.x);
        atomicOr(null_words[NULL_WORDS * slot + word + 1u], halves.y);
    }
}

// Squares one rank ahead of `squares` for `color`'s pawns.
uint64_t pawn_ahead(uint color, uint64_t squares) {
    return color == WHITE ? squares << 8 : squares >> 8;
}

// The zone of the side not to move on `p` (module doc).
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
    // Read with a salt (0: no remaining depth is 256 or more, but the compiler cannot tell) so
    // that the generator's first read of the same position after this is not merged with this
    // one, which would hold the decoded position in registers from here into its loop.
    Pos p = GENERATOR_POSITION(index + (step.remaining >> 8u));
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
    uint slot = gl_LocalInvocationIndex;
    null_store_mask(slot, AVOID_ANY, uint64_t(0));
    if (checkers != uint64_t(0)) {
        null_store_mask(slot, AVOID_KNIGHT, uint64_t(0));
        null_store_mask(slot, AVOID_PAWN, uint64_t(0));
        null_avoid_everywhere(slot, ~uint64_t(0));
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
    null_store_mask(slot, AVOID_KNIGHT, knight_spread(zone));
    null_store_mask(slot, AVOID_PAWN, pawn_spread(them, zone));
    uint64_t king_bb = square_bb(their_king);
    avoid |= lines_of_sight(zone, ~occupied | king_bb);
    uint64_t first = lines_of_sight(king_bb, ~occupied);
    avoid |= lines_of_sight(king_bb, ~occupied | (first & theirs));
    // The null board, read again (a zone holds at most 14 squares: the salt is 0, unknown to
    // the compiler) so that `p` is not held while its replies are counted.
    Pos passed = GENERATOR_POSITION(index + (uint(popcount64(zone)) >> 4u));
    passed.turn ^= 1u;
    passed.ep = NO_SQUARE;
    null_store(slot, NULL_REPLIES, count_legal_reaching(passed, avoid));
    null_avoid_everywhere(slot, avoid);
}

// Whether the move from `from` to `to` of `kind` on `p` (the position null_replies_begin
// analysed) is neutral: a quiet move of a knight, bishop, rook, queen or pawn (no promotion:
// its kind differs; rule 2) whose origin and target avoid the squares of its role, a double
// push passing a square their pawns do not attack (rule 7). Then null_load(slot,
// NULL_REPLIES) are its child's replies.
bool is_neutral(Pos p, uint slot, uint from, uint to, uint kind) {
    uint64_t from_bb = square_bb(from);
    if ((kind != KIND_NORMAL && kind != KIND_DOUBLE_PUSH)
            || ((p.color[WHITE] | p.color[BLACK]) & square_bb(to)) != uint64_t(0)
            || (p.role[KING] & from_bb) != uint64_t(0)) {
        return false;
    }
    bool pawn = (p.role[PAWN] & from_bb) != uint64_t(0);
    uint word = pawn ? AVOID_PAWN
                     : ((p.role[KNIGHT] & from_bb) != uint64_t(0) ? AVOID_KNIGHT : AVOID_ANY);
    if ((null_load_mask(slot, word) & (from_bb | square_bb(to))) != uint64_t(0)) {
        return false;
    }
    if (kind != KIND_DOUBLE_PUSH) {
        return true;
    }
    uint them = p.turn ^ 1u;
    uint64_t passed = square_bb((from + to) >> 1u);
    return (passed & pawn_spread(them, p.role[PAWN] & side(p, them))) == uint64_t(0);
}

#endif
