// Legal move generation on the GPU: the bulk counter and copy-make. The generator that visits
// every move is in generate.glsl; both must agree on which moves are legal.
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

// One line through our king (directions `dir` and -dir): adds their sliders' attacks along
// it to `attacked` (seen through our king), slider checkers to `checkers` and the squares that
// block them to `check_rays`, and returns our pieces pinned along the line. Rays in one
// direction from several pieces never overlap (each stops at the next piece), so whole sets
// are handled at once.
uint64_t scan_line(uint64_t king, uint64_t sliders, uint64_t ours, uint64_t empty, int dir,
                   inout uint64_t attacked, inout uint64_t checkers, inout uint64_t check_rays) {
    uint64_t sliders_forward = slide(sliders, empty | king, dir);
    uint64_t sliders_backward = slide(sliders, empty | king, -dir);
    attacked |= sliders_forward | sliders_backward;
    uint64_t king_forward = slide(king, empty, dir);
    uint64_t king_backward = slide(king, empty, -dir);
    uint64_t checker_forward = king_forward & sliders;
    uint64_t checker_backward = king_backward & sliders;
    checkers |= checker_forward | checker_backward;
    if (checker_forward != uint64_t(0)) check_rays |= king_forward;
    if (checker_backward != uint64_t(0)) check_rays |= king_backward;
    // The first piece seen from the king that a slider sees from the other side.
    return ((king_forward & sliders_backward) | (king_backward & sliders_forward)) & ours;
}

// Moves of `movers` along both directions of a line, to `targets`.
uint count_sliding(uint64_t movers, uint64_t empty, uint64_t targets, int dir) {
    return popcount64(slide(movers, empty, dir) & targets) + popcount64(slide(movers, empty, -dir) & targets);
}

// Moves of `knights` to `targets`: per jump direction, since two knights may share a target.
uint count_knight_moves(uint64_t knights, uint64_t targets) {
    uint64_t one_file_east = (knights << 1) & ~FILE_A;
    uint64_t one_file_west = (knights >> 1) & ~FILE_H;
    uint64_t two_files_east = (knights << 2) & ~(FILE_A | FILE_B);
    uint64_t two_files_west = (knights >> 2) & ~(FILE_G | FILE_H);
    return popcount64((one_file_east << 16) & targets) + popcount64((one_file_east >> 16) & targets)
        + popcount64((one_file_west << 16) & targets) + popcount64((one_file_west >> 16) & targets)
        + popcount64((two_files_east << 8) & targets) + popcount64((two_files_east >> 8) & targets)
        + popcount64((two_files_west << 8) & targets) + popcount64((two_files_west >> 8) & targets);
}

// The number of legal moves (the same as generate_moves visits), computed on whole sets of
// pieces with shifts and fills: no loops and no table reads, so invocations running in
// lockstep stay together whatever their positions.
uint count_legal(Pos p) {
    uint us = p.turn;
    uint them = us ^ 1u;
    uint64_t ours = side(p, us);
    uint64_t theirs = side(p, them);
    uint64_t empty = ~(ours | theirs);
    uint64_t king = p.role[KING] & ours;
    uint64_t queens = p.role[QUEEN];
    uint64_t rook_movers = p.role[ROOK] | queens;
    uint64_t bishop_movers = p.role[BISHOP] | queens;
    uint64_t their_rooks = rook_movers & theirs;
    uint64_t their_bishops = bishop_movers & theirs;

    uint64_t attacked = pawn_spread(them, p.role[PAWN] & theirs)
        | knight_spread(p.role[KNIGHT] & theirs)
        | king_spread(p.role[KING] & theirs);
    uint64_t checkers = ((knight_spread(king) & p.role[KNIGHT]) | (pawn_spread(us, king) & p.role[PAWN])) & theirs;
    uint64_t check_rays = uint64_t(0);
    uint64_t pinned_on_file = scan_line(king, their_rooks, ours, empty, NORTH, attacked, checkers, check_rays);
    uint64_t pinned_on_rank = scan_line(king, their_rooks, ours, empty, EAST, attacked, checkers, check_rays);
    uint64_t pinned_on_diagonal = scan_line(king, their_bishops, ours, empty, NORTH_EAST, attacked, checkers, check_rays);
    uint64_t pinned_on_anti_diagonal = scan_line(king, their_bishops, ours, empty, NORTH_WEST, attacked, checkers, check_rays);

    uint n = popcount64(king_spread(king) & ~ours & ~attacked);
    if (more_than_one(checkers)) {
        return n;
    }
    uint64_t check_mask = checkers == uint64_t(0) ? ~uint64_t(0) : check_rays | checkers;
    uint64_t targets = ~ours & check_mask;
    uint64_t unpinned = ~(pinned_on_file | pinned_on_rank | pinned_on_diagonal | pinned_on_anti_diagonal);

    // A pinned piece moves only along its pin line.
    n += count_knight_moves(p.role[KNIGHT] & ours & unpinned, targets);
    uint64_t our_rooks = rook_movers & ours;
    uint64_t our_bishops = bishop_movers & ours;
    n += count_sliding(our_rooks & (unpinned | pinned_on_file), empty, targets, NORTH);
    n += count_sliding(our_rooks & (unpinned | pinned_on_rank), empty, targets, EAST);
    n += count_sliding(our_bishops & (unpinned | pinned_on_diagonal), empty, targets, NORTH_EAST);
    n += count_sliding(our_bishops & (unpinned | pinned_on_anti_diagonal), empty, targets, NORTH_WEST);

    // Pawns. Pushes land on empty squares and captures on theirs, and a single push and a
    // double push never land on the same square, so those sets are disjoint; the captures
    // towards the two sides may share a target.
    uint64_t pawns = p.role[PAWN] & ours;
    bool white = us == WHITE;
    uint64_t pushers = pawns & (unpinned | pinned_on_file);
    uint64_t single = (white ? pushers << 8 : pushers >> 8) & empty;
    uint64_t single_on_3rd = single & (white ? RANK_3 : RANK_6);
    uint64_t double_push = (white ? single_on_3rd << 8 : single_on_3rd >> 8) & empty & check_mask;
    single &= check_mask;
    // East captures run along the diagonal for white (+9) and the anti-diagonal for black (-7).
    uint64_t east_capturers = pawns & (unpinned | (white ? pinned_on_diagonal : pinned_on_anti_diagonal));
    uint64_t west_capturers = pawns & (unpinned | (white ? pinned_on_anti_diagonal : pinned_on_diagonal));
    uint64_t captures_east = ((white ? east_capturers << 9 : east_capturers >> 7) & ~FILE_A) & theirs & check_mask;
    uint64_t captures_west = ((white ? west_capturers << 7 : west_capturers >> 9) & ~FILE_H) & theirs & check_mask;
    n += popcount64(single | double_push | captures_east) + popcount64(captures_west);
    uint64_t promo_rank = white ? RANK_8 : RANK_1;
    if (((single | captures_east | captures_west) & promo_rank) != uint64_t(0)) {
        // Three more moves for each promotion: it is four moves, not one.
        n += 3u * (popcount64(single & promo_rank) + popcount64(captures_east & promo_rank)
            + popcount64(captures_west & promo_rank));
    }

    if (p.ep != NO_SQUARE) {
        uint captured = white ? p.ep - 8u : p.ep + 8u;
        uint64_t ep_capturers = pawn_attacks(them, p.ep) & pawns;
        while (ep_capturers != uint64_t(0)) {
            uint from = lsb64(ep_capturers);
            ep_capturers &= ep_capturers - uint64_t(1);
            if (ep_capture_is_legal(p, from, p.ep, captured)) n += 1u;
        }
    }

    if (checkers == uint64_t(0)) {
        uint base = white ? 0u : 56u;
        uint king_side_right = white ? WHITE_KING_SIDE : BLACK_KING_SIDE;
        uint queen_side_right = white ? WHITE_QUEEN_SIDE : BLACK_QUEEN_SIDE;
        // King side: f and g empty and not attacked.
        if ((p.castling & king_side_right) != 0u
            && (~empty & (uint64_t(0x60ul) << base)) == uint64_t(0)
            && (attacked & (uint64_t(0x60ul) << base)) == uint64_t(0)) {
            n += 1u;
        }
        // Queen side: b, c and d empty; c and d not attacked.
        if ((p.castling & queen_side_right) != 0u
            && (~empty & (uint64_t(0x0eul) << base)) == uint64_t(0)
            && (attacked & (uint64_t(0x0cul) << base)) == uint64_t(0)) {
            n += 1u;
        }
    }
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
