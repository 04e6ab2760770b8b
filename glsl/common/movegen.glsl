// Legal move generation on the GPU: the analysis of a position's legal moves as sets, the bulk
// counter and copy-make. The generator that visits every move is in generate.glsl.
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

// Everything about the side to move that its legal moves depend on, computed on whole sets
// of pieces with shifts and fills: no loops over pieces and no table reads, so invocations
// running in lockstep stay together whatever their positions.
struct Moves {
    uint64_t ours;
    uint64_t empty;
    uint64_t king;
    // Squares the opponent attacks, seen through our king.
    uint64_t attacked;
    uint64_t checkers;
    // Squares a move other than the king's must land on: all but ours, and when in check,
    // the checker or a square between it and the king.
    uint64_t targets;
    // Our pieces pinned along each line through the king: they move only along it.
    uint64_t pinned_on_file;
    uint64_t pinned_on_rank;
    uint64_t pinned_on_diagonal;
    uint64_t pinned_on_anti_diagonal;
    uint64_t king_moves;
    // Pawn moves by the square they land on. Pushes land on empty squares and captures on
    // theirs, and a single and a double push never share a square, so these are disjoint but
    // for the two capture sets. A target on the last rank is four promotions.
    uint64_t pushes;
    uint64_t double_pushes;
    uint64_t captures_east;
    uint64_t captures_west;
    uint64_t ep_capturers;
    // Where the king lands when castling.
    uint64_t castles;
};

Moves analyze_moves(Pos p) {
    Moves m;
    uint us = p.turn;
    uint them = us ^ 1u;
    m.ours = side(p, us);
    uint64_t theirs = side(p, them);
    m.empty = ~(m.ours | theirs);
    m.king = p.role[KING] & m.ours;
    uint64_t queens = p.role[QUEEN];
    uint64_t their_rooks = (p.role[ROOK] | queens) & theirs;
    uint64_t their_bishops = (p.role[BISHOP] | queens) & theirs;

    m.attacked = pawn_spread(them, p.role[PAWN] & theirs)
        | knight_spread(p.role[KNIGHT] & theirs)
        | king_spread(p.role[KING] & theirs);
    m.checkers = ((knight_spread(m.king) & p.role[KNIGHT]) | (pawn_spread(us, m.king) & p.role[PAWN])) & theirs;
    uint64_t check_rays = uint64_t(0);
    m.pinned_on_file = scan_line(m.king, their_rooks, m.ours, m.empty, NORTH, m.attacked, m.checkers, check_rays);
    m.pinned_on_rank = scan_line(m.king, their_rooks, m.ours, m.empty, EAST, m.attacked, m.checkers, check_rays);
    m.pinned_on_diagonal = scan_line(m.king, their_bishops, m.ours, m.empty, NORTH_EAST, m.attacked, m.checkers, check_rays);
    m.pinned_on_anti_diagonal = scan_line(m.king, their_bishops, m.ours, m.empty, NORTH_WEST, m.attacked, m.checkers, check_rays);
    m.king_moves = king_spread(m.king) & ~m.ours & ~m.attacked;
    uint64_t check_mask = m.checkers == uint64_t(0) ? ~uint64_t(0) : check_rays | m.checkers;
    // In double check only the king moves.
    m.targets = more_than_one(m.checkers) ? uint64_t(0) : ~m.ours & check_mask;
    uint64_t unpinned = ~(m.pinned_on_file | m.pinned_on_rank | m.pinned_on_diagonal | m.pinned_on_anti_diagonal);

    uint64_t pawns = p.role[PAWN] & m.ours;
    bool white = us == WHITE;
    uint64_t pushers = pawns & (unpinned | m.pinned_on_file);
    uint64_t single = (white ? pushers << 8 : pushers >> 8) & m.empty;
    uint64_t single_on_3rd = single & (white ? RANK_3 : RANK_6);
    m.double_pushes = (white ? single_on_3rd << 8 : single_on_3rd >> 8) & m.empty & m.targets;
    m.pushes = single & m.targets;
    // East captures run along the diagonal for white (+9) and the anti-diagonal for black (-7).
    uint64_t east_capturers = pawns & (unpinned | (white ? m.pinned_on_diagonal : m.pinned_on_anti_diagonal));
    uint64_t west_capturers = pawns & (unpinned | (white ? m.pinned_on_anti_diagonal : m.pinned_on_diagonal));
    m.captures_east = ((white ? east_capturers << 9 : east_capturers >> 7) & ~FILE_A) & theirs & m.targets;
    m.captures_west = ((white ? west_capturers << 7 : west_capturers >> 9) & ~FILE_H) & theirs & m.targets;

    m.ep_capturers = uint64_t(0);
    if (p.ep != NO_SQUARE && m.targets != uint64_t(0)) {
        uint captured = white ? p.ep - 8u : p.ep + 8u;
        uint64_t candidates = pawn_attacks(them, p.ep) & pawns;
        while (candidates != uint64_t(0)) {
            uint from = lsb64(candidates);
            candidates &= candidates - uint64_t(1);
            if (ep_capture_is_legal(p, from, p.ep, captured)) m.ep_capturers |= square_bb(from);
        }
    }

    m.castles = uint64_t(0);
    if (m.checkers == uint64_t(0)) {
        uint base = white ? 0u : 56u;
        uint king_side_right = white ? WHITE_KING_SIDE : BLACK_KING_SIDE;
        uint queen_side_right = white ? WHITE_QUEEN_SIDE : BLACK_QUEEN_SIDE;
        // King side: f and g empty and not attacked.
        if ((p.castling & king_side_right) != 0u
            && (~m.empty & (uint64_t(0x60ul) << base)) == uint64_t(0)
            && (m.attacked & (uint64_t(0x60ul) << base)) == uint64_t(0)) {
            m.castles |= square_bb(base + 6u);
        }
        // Queen side: b, c and d empty; c and d not attacked.
        if ((p.castling & queen_side_right) != 0u
            && (~m.empty & (uint64_t(0x0eul) << base)) == uint64_t(0)
            && (m.attacked & (uint64_t(0x0cul) << base)) == uint64_t(0)) {
            m.castles |= square_bb(base + 2u);
        }
    }
    return m;
}

// Our pieces not pinned, or pinned along the line of `dir`: those that may move along it.
uint64_t free_along(Moves m, int dir) {
    uint64_t pinned_elsewhere = m.pinned_on_file | m.pinned_on_rank | m.pinned_on_diagonal | m.pinned_on_anti_diagonal;
    if (dir == NORTH || dir == SOUTH) pinned_elsewhere &= ~m.pinned_on_file;
    if (dir == EAST || dir == WEST) pinned_elsewhere &= ~m.pinned_on_rank;
    if (dir == NORTH_EAST || dir == SOUTH_WEST) pinned_elsewhere &= ~m.pinned_on_diagonal;
    if (dir == NORTH_WEST || dir == SOUTH_EAST) pinned_elsewhere &= ~m.pinned_on_anti_diagonal;
    return ~pinned_elsewhere;
}

// Moves of `movers` along both directions of a line.
uint count_sliding(Moves m, uint64_t movers, int dir) {
    uint64_t free_movers = movers & free_along(m, dir);
    return popcount64(slide(free_movers, m.empty, dir) & m.targets)
        + popcount64(slide(free_movers, m.empty, -dir) & m.targets);
}

// Moves of `knights`: per jump direction, since two knights may share a target.
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

// The number of legal moves: what generate_moves visits, counted set by set.
uint count_legal(Pos p) {
    Moves m = analyze_moves(p);
    uint64_t pinned = m.pinned_on_file | m.pinned_on_rank | m.pinned_on_diagonal | m.pinned_on_anti_diagonal;
    uint64_t rook_movers = (p.role[ROOK] | p.role[QUEEN]) & m.ours;
    uint64_t bishop_movers = (p.role[BISHOP] | p.role[QUEEN]) & m.ours;
    uint n = popcount64(m.king_moves) + popcount64(m.castles | m.ep_capturers)
        + count_knight_moves(p.role[KNIGHT] & m.ours & ~pinned, m.targets)
        + count_sliding(m, rook_movers, NORTH) + count_sliding(m, rook_movers, EAST)
        + count_sliding(m, bishop_movers, NORTH_EAST) + count_sliding(m, bishop_movers, NORTH_WEST)
        + popcount64(m.pushes | m.double_pushes | m.captures_east) + popcount64(m.captures_west);
    uint64_t promo_rank = p.turn == WHITE ? RANK_8 : RANK_1;
    if (((m.pushes | m.captures_east | m.captures_west) & promo_rank) != uint64_t(0)) {
        // Three more moves for each promotion: it is four moves, not one.
        n += 3u * (popcount64(m.pushes & promo_rank) + popcount64(m.captures_east & promo_rank)
            + popcount64(m.captures_west & promo_rank));
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
