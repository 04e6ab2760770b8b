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
const uint KIND_CASTLE = 3u; // from the king's square to its own rook's, as on the CPU
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

// The lines through `sq`, edge to edge. A piece pinned to the king lies on exactly one line
// through the king, the one it may move along, so `pinned & line_through(king, dir)` are the
// pieces pinned along `dir`.
uint64_t line_through(uint sq, int dir) {
    uint file = sq & 7u;
    uint rank = sq >> 3u;
    if (dir == NORTH || dir == SOUTH) return FILE_A << file;
    if (dir == EAST || dir == WEST) return RANK_1 << (8u * rank);
    // Shifting by whole ranks moves a diagonal without wrapping around the board's edge.
    if (dir == NORTH_EAST || dir == SOUTH_WEST) {
        return file >= rank ? DIAGONAL_A1H8 >> (8u * (file - rank)) : DIAGONAL_A1H8 << (8u * (rank - file));
    }
    return file + rank >= 7u ? ANTI_DIAGONAL_H1A8 << (8u * (file + rank - 7u))
                             : ANTI_DIAGONAL_H1A8 >> (8u * (7u - file - rank));
}

// One direction through our king: adds what their sliders attack in `dir` to `attacked` (seen
// through our king), and looks from the king the other way: a slider seen there is a checker
// (added to `checkers`, the squares up to it to `check_rays`), and the first piece seen there
// is pinned if it is ours and a slider sees it from beyond. Rays in one direction from several
// pieces never overlap (each stops at the next piece), so whole sets are handled at once. One
// direction at a time keeps two fills live, not four.
void scan_direction(uint64_t king, uint64_t sliders, uint64_t ours, uint64_t empty, int dir,
                    inout uint64_t attacked, inout uint64_t checkers, inout uint64_t check_rays,
                    inout uint64_t pinned) {
    uint64_t slider_rays = slide(sliders, empty | king, dir);
    attacked |= slider_rays;
    uint64_t king_ray = slide(king, empty, -dir);
    pinned |= king_ray & slider_rays & ours;
    if ((king_ray & sliders) != uint64_t(0)) {
        checkers |= king_ray & sliders;
        check_rays |= king_ray;
    }
}

// What the legal moves of the side to move depend on, kept small: a GPU holds it in
// registers while it generates every move (and, in the leaf, counts every child's moves), so
// everything that can be derived cheaply from the position is derived when needed instead.
struct Analysis {
    uint king;
    // Our pinned pieces: each moves only along its line through the king (line_through).
    uint64_t pinned;
    // Squares a move other than the king's must land on: all but ours, and when in check,
    // the checker or a square between it and the king; none in double check.
    uint64_t targets;
    // Where the king may go, and the squares of the rooks it may castle with (the only king
    // moves onto a square of ours).
    uint64_t king_moves;
};

// What the opponent does to our king: the squares it attacks (seen through our king), its
// checkers, and the squares a check can be blocked on.
struct Threats {
    uint64_t attacked;
    uint64_t checkers;
    uint64_t check_rays;
};

// Threats and pins on whole sets of pieces, with fills: no loops over pieces and no table
// reads, so invocations running in lockstep stay together whatever their positions.
Threats threats_by_fills(Pos p, inout Analysis a) {
    uint us = p.turn;
    uint them = us ^ 1u;
    uint64_t ours = side(p, us);
    uint64_t theirs = side(p, them);
    uint64_t empty = ~(ours | theirs);
    uint64_t king = square_bb(a.king);
    uint64_t their_rooks = (p.role[ROOK] | p.role[QUEEN]) & theirs;
    uint64_t their_bishops = (p.role[BISHOP] | p.role[QUEEN]) & theirs;
    Threats t;
    t.attacked = uint64_t(0);
    t.checkers = uint64_t(0);
    t.check_rays = uint64_t(0);
    scan_direction(king, their_rooks, ours, empty, NORTH, t.attacked, t.checkers, t.check_rays, a.pinned);
    scan_direction(king, their_rooks, ours, empty, SOUTH, t.attacked, t.checkers, t.check_rays, a.pinned);
    scan_direction(king, their_rooks, ours, empty, EAST, t.attacked, t.checkers, t.check_rays, a.pinned);
    scan_direction(king, their_rooks, ours, empty, WEST, t.attacked, t.checkers, t.check_rays, a.pinned);
    scan_direction(king, their_bishops, ours, empty, NORTH_EAST, t.attacked, t.checkers, t.check_rays, a.pinned);
    scan_direction(king, their_bishops, ours, empty, SOUTH_WEST, t.attacked, t.checkers, t.check_rays, a.pinned);
    scan_direction(king, their_bishops, ours, empty, NORTH_WEST, t.attacked, t.checkers, t.check_rays, a.pinned);
    scan_direction(king, their_bishops, ours, empty, SOUTH_EAST, t.attacked, t.checkers, t.check_rays, a.pinned);
    return t;
}

// Threats and pins by magic lookups: two from the king for checkers, two more with our first
// pieces lifted for pinners, and one per slider of theirs for the squares they attack.
Threats threats_by_lookups(Pos p, inout Analysis a) {
    uint us = p.turn;
    uint64_t ours = side(p, us);
    uint64_t theirs = side(p, us ^ 1u);
    uint64_t occupied = ours | theirs;
    uint64_t their_rooks = (p.role[ROOK] | p.role[QUEEN]) & theirs;
    uint64_t their_bishops = (p.role[BISHOP] | p.role[QUEEN]) & theirs;
    Threats t;
    uint64_t rook_rays = rook_attacks(a.king, occupied);
    uint64_t bishop_rays = bishop_attacks(a.king, occupied);
    t.checkers = (rook_rays & their_rooks) | (bishop_rays & their_bishops);
    // One checker is enough to know the blocking squares: with two, only the king moves.
    t.check_rays = t.checkers == uint64_t(0) ? uint64_t(0) : between_bb(a.king, lsb64(t.checkers));
    uint64_t pinners = ((rook_attacks(a.king, occupied ^ (rook_rays & ours)) & their_rooks)
        | (bishop_attacks(a.king, occupied ^ (bishop_rays & ours)) & their_bishops)) & ~t.checkers;
    while (pinners != uint64_t(0)) {
        a.pinned |= between_bb(a.king, lsb64(pinners)) & ours;
        pinners &= pinners - uint64_t(1);
    }
    uint64_t through_king = occupied ^ square_bb(a.king);
    uint64_t sliders = their_rooks | their_bishops;
    t.attacked = uint64_t(0);
    while (sliders != uint64_t(0)) {
        uint sq = lsb64(sliders);
        sliders &= sliders - uint64_t(1);
        if ((their_rooks & square_bb(sq)) != uint64_t(0)) t.attacked |= rook_attacks(sq, through_king);
        if ((their_bishops & square_bb(sq)) != uint64_t(0)) t.attacked |= bishop_attacks(sq, through_king);
    }
    return t;
}

// Where the king of a castle lands, given the king's and the rook's squares, and where the
// rook lands beside it (files from crates/chess/src/chess/castling_files.rs).
uint castling_king_to(uint king, uint rook) {
    return (king & 56u) + (rook > king ? CASTLE_KING_SIDE_KING_FILE : CASTLE_QUEEN_SIDE_KING_FILE);
}

uint castling_rook_to(uint king, uint rook) {
    return (king & 56u) + (rook > king ? CASTLE_KING_SIDE_ROOK_FILE : CASTLE_QUEEN_SIDE_ROOK_FILE);
}

// The castling rooks of the side to move (not in check) that it may castle with now: the
// squares between the king and its target and between the rook and its target empty but for
// the two, the king's path not attacked, and (Chess960) no attack along the back rank that the
// rook itself blocked, found by looking from the king's target with both pieces moved. Few
// values are live at once: this runs inside the leaf's count of each child.
uint64_t castles(Pos p, uint king, uint64_t attacked) {
    uint base = king & 56u;
    uint files = (p.castling_files >> (p.turn == WHITE ? 0u : 8u)) & 0xffu;
    uint64_t allowed = uint64_t(0);
    while (files != 0u) {
        uint rook = base + findLSB(files);
        files &= files - 1u;
        uint king_to = castling_king_to(king, rook);
        uint rook_to = castling_rook_to(king, rook);
        uint64_t others = (p.color[WHITE] | p.color[BLACK]) ^ square_bb(king) ^ square_bb(rook);
        bool legal = ((between_bb(king, king_to) | square_bb(king_to)) & (others | attacked)) == uint64_t(0)
            && ((between_bb(rook, rook_to) | square_bb(rook_to)) & others) == uint64_t(0)
            && (rook_attacks(king_to, others | square_bb(rook_to)) & (p.role[ROOK] | p.role[QUEEN])
                & side(p, p.turn ^ 1u)) == uint64_t(0);
        if (legal) allowed |= square_bb(rook);
    }
    return allowed;
}

Analysis analyze(Pos p) {
    Analysis a;
    uint us = p.turn;
    uint them = us ^ 1u;
    uint64_t ours = side(p, us);
    uint64_t theirs = side(p, them);
    uint64_t king = p.role[KING] & ours;
    a.king = lsb64(king);
    a.pinned = uint64_t(0);
    Threats t = sliders_by_lookups() ? threats_by_lookups(p, a) : threats_by_fills(p, a);
    t.attacked |= pawn_spread(them, p.role[PAWN] & theirs)
        | knight_spread(p.role[KNIGHT] & theirs)
        | king_spread(p.role[KING] & theirs);
    t.checkers |= ((knight_spread(king) & p.role[KNIGHT]) | (pawn_spread(us, king) & p.role[PAWN])) & theirs;
    a.king_moves = king_spread(king) & ~ours & ~t.attacked;
    uint64_t check_mask = t.checkers == uint64_t(0) ? ~uint64_t(0) : t.check_rays | t.checkers;
    a.targets = more_than_one(t.checkers) ? uint64_t(0) : ~ours & check_mask;

    if (t.checkers == uint64_t(0)) {
        a.king_moves |= castles(p, a.king, t.attacked);
    }
    return a;
}

// Our pieces that may move along `dir`: not pinned, or pinned along its line.
uint64_t free_along(Analysis a, int dir) {
    return ~a.pinned | line_through(a.king, dir);
}

// Our pawns that capture en passant legally.
uint64_t ep_capturers(Pos p) {
    uint64_t capturers = uint64_t(0);
    if (p.ep != NO_SQUARE) {
        uint captured = p.turn == WHITE ? p.ep - 8u : p.ep + 8u;
        uint64_t candidates = pawn_attacks(p.turn ^ 1u, p.ep) & p.role[PAWN] & side(p, p.turn);
        while (candidates != uint64_t(0)) {
            uint from = lsb64(candidates);
            candidates &= candidates - uint64_t(1);
            if (ep_capture_is_legal(p, from, p.ep, captured)) capturers |= square_bb(from);
        }
    }
    return capturers;
}

// Pawn moves by the square they land on: single pushes, double pushes, captures towards the
// h-file and towards the a-file. Pushes land on empty squares and captures on theirs, and a
// single and a double push never share a square. A target on the last rank is four
// promotions.
const uint PAWN_PUSHES = 0u;
const uint PAWN_DOUBLE_PUSHES = 1u;
const uint PAWN_CAPTURES_EAST = 2u;
const uint PAWN_CAPTURES_WEST = 3u;

uint64_t pawn_targets(Pos p, Analysis a, uint kind) {
    bool white = p.turn == WHITE;
    uint64_t ours = side(p, p.turn);
    uint64_t pawns = p.role[PAWN] & ours;
    uint64_t empty = ~(p.color[WHITE] | p.color[BLACK]);
    if (kind == PAWN_PUSHES || kind == PAWN_DOUBLE_PUSHES) {
        uint64_t pushers = pawns & free_along(a, NORTH);
        uint64_t single = (white ? pushers << 8 : pushers >> 8) & empty;
        if (kind == PAWN_PUSHES) return single & a.targets;
        single &= white ? RANK_3 : RANK_6;
        return (white ? single << 8 : single >> 8) & empty & a.targets;
    }
    uint64_t theirs = side(p, p.turn ^ 1u);
    // East captures run along the diagonal for white (+9) and the anti-diagonal for black (-7).
    if (kind == PAWN_CAPTURES_EAST) {
        uint64_t capturers = pawns & free_along(a, white ? NORTH_EAST : NORTH_WEST);
        return (white ? capturers << 9 : capturers >> 7) & ~FILE_A & theirs & a.targets;
    }
    uint64_t capturers = pawns & free_along(a, white ? NORTH_WEST : NORTH_EAST);
    return (white ? capturers << 7 : capturers >> 9) & ~FILE_H & theirs & a.targets;
}

// How far a pawn move of `pawn_kind` goes: it lands on its origin + this.
int pawn_offset(bool white, uint pawn_kind) {
    int push = white ? 8 : -8;
    return pawn_kind == PAWN_PUSHES ? push
        : pawn_kind == PAWN_DOUBLE_PUSHES ? 2 * push
        : pawn_kind == PAWN_CAPTURES_EAST ? (white ? 9 : -7)
        : (white ? 7 : -9);
}

// Moves of `movers` in direction `dir`; adds the squares they land on to `reached`.
uint count_sliding(Pos p, Analysis a, uint64_t movers, int dir, inout uint64_t reached) {
    uint64_t empty = ~(p.color[WHITE] | p.color[BLACK]);
    uint64_t targets = slide(movers & free_along(a, dir), empty, dir) & a.targets;
    reached |= targets;
    return popcount64(targets);
}

uint count_slider_moves_by_fills(Pos p, Analysis a, inout uint64_t reached) {
    uint64_t ours = side(p, p.turn);
    uint64_t rook_movers = (p.role[ROOK] | p.role[QUEEN]) & ours;
    uint64_t bishop_movers = (p.role[BISHOP] | p.role[QUEEN]) & ours;
    return count_sliding(p, a, rook_movers, NORTH, reached) + count_sliding(p, a, rook_movers, SOUTH, reached)
        + count_sliding(p, a, rook_movers, EAST, reached) + count_sliding(p, a, rook_movers, WEST, reached)
        + count_sliding(p, a, bishop_movers, NORTH_EAST, reached)
        + count_sliding(p, a, bishop_movers, SOUTH_WEST, reached)
        + count_sliding(p, a, bishop_movers, NORTH_WEST, reached)
        + count_sliding(p, a, bishop_movers, SOUTH_EAST, reached);
}

// The squares the slider of `p` on `sq` attacks (a queen both ways).
uint64_t slider_attacks(Pos p, uint sq, uint64_t occupied) {
    uint64_t at = square_bb(sq);
    uint64_t attacks = uint64_t(0);
    if (((p.role[ROOK] | p.role[QUEEN]) & at) != uint64_t(0)) attacks |= rook_attacks(sq, occupied);
    if (((p.role[BISHOP] | p.role[QUEEN]) & at) != uint64_t(0)) attacks |= bishop_attacks(sq, occupied);
    return attacks;
}

uint count_slider_moves_by_lookups(Pos p, Analysis a, inout uint64_t reached) {
    uint64_t occupied = p.color[WHITE] | p.color[BLACK];
    uint64_t sliders = (p.role[ROOK] | p.role[BISHOP] | p.role[QUEEN]) & side(p, p.turn);
    uint n = 0u;
    while (sliders != uint64_t(0)) {
        uint sq = lsb64(sliders);
        sliders &= sliders - uint64_t(1);
        uint64_t targets = slider_attacks(p, sq, occupied) & a.targets;
        if ((a.pinned & square_bb(sq)) != uint64_t(0)) targets &= line_bb(a.king, sq);
        reached |= targets;
        n += popcount64(targets);
    }
    return n;
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

// Moves of one pawn target set; a target on the last rank is four promotions.
uint count_pawn_moves(uint64_t targets, uint64_t promo_rank) {
    return popcount64(targets) + 3u * popcount64(targets & promo_rank);
}

// The number of legal moves, and in `reached` every square a move other than an en passant
// capture or a castle lands on: what generate_moves visits, counted set by set and added up
// as it goes, so that little is live at once. Where `reached` is not read, its unions are
// dead code and compiled away.
uint count_legal_reaching(Pos p, inout uint64_t reached) {
    // En passant first: its loop is the one branch, and values computed before it would be
    // kept across it.
    uint n = popcount64(ep_capturers(p));
    Analysis a = analyze(p);
    uint64_t ours = side(p, p.turn);
    n += popcount64(a.king_moves);
    reached |= a.king_moves & ~ours;
    uint64_t promo_rank = p.turn == WHITE ? RANK_8 : RANK_1;
    uint64_t knights = p.role[KNIGHT] & ours & ~a.pinned;
    n += count_knight_moves(knights, a.targets);
    reached |= knight_spread(knights) & a.targets;
    n += sliders_by_lookups() ? count_slider_moves_by_lookups(p, a, reached)
                              : count_slider_moves_by_fills(p, a, reached);
    for (uint kind = PAWN_PUSHES; kind <= PAWN_CAPTURES_WEST; kind++) {
        uint64_t targets = pawn_targets(p, a, kind);
        reached |= targets;
        n += count_pawn_moves(targets, promo_rank);
    }
    return n;
}

// The number of legal moves.
uint count_legal(Pos p) {
    uint64_t unused = uint64_t(0);
    return count_legal_reaching(p, unused);
}

// The position after a legal move (copy-make), with its canonical ep square.
Pos play_move(Pos p, uint from, uint to, uint kind) {
    Pos c = p;
    uint us = p.turn;
    uint them = us ^ 1u;
    uint64_t from_bb = square_bb(from);
    uint64_t to_bb = square_bb(to);
    uint role = role_on(p, from_bb);
    bool capture = (side(p, them) & to_bb) != uint64_t(0);
    if (capture) {
        for (uint r = 0u; r < 6u; r++) c.role[r] &= ~to_bb;
        toggle_side(c, them, to_bb);
    }
    if (kind == KIND_CASTLE) {
        // The king takes its own rook in the move's encoding: the rook goes to its side of
        // the king's target, and the king to its target, by XOR so that a piece that stays
        // (or lands where the other stood) comes out right.
        uint64_t rook_move = to_bb ^ square_bb(castling_rook_to(from, to));
        c.role[ROOK] ^= rook_move;
        toggle_side(c, us, rook_move);
        to_bb = square_bb(castling_king_to(from, to));
    }
    toggle_role(c, role, from_bb ^ to_bb);
    toggle_side(c, us, from_bb ^ to_bb);
    if (kind == KIND_EN_PASSANT) {
        uint64_t captured = square_bb(us == WHITE ? to - 8u : to + 8u);
        c.role[PAWN] ^= captured;
        toggle_side(c, them, captured);
    } else if (kind >= KIND_PROMOTE_KNIGHT) {
        c.role[PAWN] ^= to_bb;
        toggle_role(c, KNIGHT + (kind - KIND_PROMOTE_KNIGHT), to_bb);
    }
    // A right is lost when its rook moves or is taken, and both when the king moves.
    c.castling_files &= ~castling_files_of(from_bb | to_bb);
    if (role == KING) c.castling_files &= us == WHITE ? 0xff00u : 0x00ffu;
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
