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

#include "generate_groups.glsl"
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

// The pieces of ours giving check after our piece of role `role` (a promotion's new piece)
// goes `from -> to` in `p`, a move that is neither a castle nor an en passant capture, found on
// the occupancy alone: only `from` and `to` change. Before the move nothing of ours attacks their
// king (`p` is legal, us to move), so a check comes from the moved piece on `to`, or from one of
// our sliders whose line to the king `from` alone blocked. Leaving `from` cannot open the moved
// piece's own line: `from` would lie between `to` and the king, and the piece would already have
// given check.
uint64_t checkers_of_move(Pos p, uint from, uint to, uint role) {
    uint king = lsb64(p.role[KING] & side(p, p.turn ^ 1u));
    uint64_t to_bb = square_bb(to);
    uint64_t occupied = ((p.color[WHITE] | p.color[BLACK]) & ~square_bb(from)) | to_bb;
    uint64_t checkers = uint64_t(0);
    if (line_bb(king, from) != uint64_t(0)) {
        uint64_t staying = side(p, p.turn) & ~square_bb(from);
        checkers = ((rook_attacks(king, occupied) & (p.role[ROOK] | p.role[QUEEN]))
            | (bishop_attacks(king, occupied) & (p.role[BISHOP] | p.role[QUEEN]))) & staying;
    }
    uint64_t attacks = uint64_t(0);
    if (role == PAWN) {
        attacks = pawn_attacks(p.turn, to);
    } else if (role == KNIGHT) {
        attacks = knight_attacks(to);
    } else if (role != KING && line_bb(king, to) != uint64_t(0)) {
        attacks = (role != ROOK ? bishop_attacks(to, occupied) : uint64_t(0))
            | (role != BISHOP ? rook_attacks(to, occupied) : uint64_t(0));
    }
    return (attacks & square_bb(king)) != uint64_t(0) ? checkers | to_bb : checkers;
}

// The rank and file through `sq`, and its two diagonals, edge to edge.
uint64_t straight_lines(uint sq) {
    return line_through(sq, NORTH) | line_through(sq, EAST);
}

uint64_t diagonal_lines(uint sq) {
    return line_through(sq, NORTH_EAST) | line_through(sq, NORTH_WEST);
}

// The squares a move of the side to move in `p` must land on to leave the opponent no legal
// move, if it gives no check, as far as witnesses show: moves of theirs that stay legal after
// any such move of ours except one landing on the witness's squares. A witness is a piece of
// theirs off every line through their king (no move of ours can pin it, and moving it uncovers
// nothing) with a move no piece can block: a knight's jump, or a bishop's, rook's or queen's
// step to a square next to it along its own lines, onto a square none of theirs holds (our
// piece landing there makes it a capture), whose only square is its own (taken, it is gone);
// a pawn with an empty square ahead, whose squares are its own and that square. Every square
// without a witness; two witnesses' squares never meet, so that nothing is left to test. A
// castle or an en passant capture changes more squares: those are made and searched.
uint64_t stalemate_landings(Pos p) {
    uint them = p.turn ^ 1u;
    uint64_t theirs = side(p, them);
    uint king = lsb64(p.role[KING] & theirs);
    uint64_t unpinnable = theirs & ~p.role[KING] & ~(straight_lines(king) | diagonal_lines(king));
    uint64_t occupied = p.color[WHITE] | p.color[BLACK];
    uint64_t pawns = unpinnable & p.role[PAWN];
    uint64_t pushes = (them == WHITE ? pawns << 8u : pawns >> 8u) & ~occupied;
    if (more_than_one(pushes)) {
        return uint64_t(0);
    }
    uint64_t landings = pushes != uint64_t(0)
        ? pushes | (them == WHITE ? pushes >> 8u : pushes << 8u)
        : ~uint64_t(0);
    uint64_t pieces = unpinnable & ~p.role[PAWN];
    while (pieces != uint64_t(0) && landings != uint64_t(0)) {
        uint sq = lsb64(pieces);
        pieces &= pieces - uint64_t(1);
        uint64_t square = square_bb(sq);
        uint64_t steps = (p.role[KNIGHT] & square) != uint64_t(0) ? knight_attacks(sq)
            : king_spread(square)
                & (((p.role[ROOK] & square) != uint64_t(0) ? uint64_t(0) : diagonal_lines(sq))
                    | ((p.role[BISHOP] & square) != uint64_t(0) ? uint64_t(0) : straight_lines(sq)));
        if ((steps & ~theirs) != uint64_t(0)) {
            landings &= square;
        }
    }
    return landings;
}

// The columns tallied so far (STAT_* order), at most 218 * 218 each as the leaf tallies two
// plies at most: each invocation's in shared memory rather than in registers held through both
// generator loops (the leaf's over a position's moves and, for each, tally_visit_moves over the
// child's). Atomics, as null_replies.glsl's words, for the same reason: lavapipe (Mesa 22.3)
// loses plain stores to shared memory made in the generator's loop.
shared uint tally_words[STAT_COLUMNS * WORKGROUP_SIZE];

// This invocation's word of `column`.
uint tally_slot(uint column) {
    return column * WORKGROUP_SIZE + gl_LocalInvocationIndex;
}

void tally_add(uint column, uint n) {
    atomicAdd(tally_words[tally_slot(column)], n);
}

uint tally_value(uint column) {
    return atomicAdd(tally_words[tally_slot(column)], 0u);
}

// What the position whose moves are being tallied knows of their effect on the opponent's king,
// found once: our pieces that alone stand between one of our sliders and it (a move of one off
// that line uncovers a check), and stalemate_landings. With its moves and captures counted so
// far, in registers: atomics on shared memory cost CPU devices, which make them one lane at a
// time, twice the statistics' time.
uint64_t tally_discoverers;
uint64_t tally_stalemate_landings;
uint tally_moves_counted;
uint tally_captures;

// The knights, bishop movers and rook movers (a queen is both) with a move tally_select returns,
// found by tally_moves: the generator's loop looks at these pieces' moves alone.
uint64_t tally_visited_knights;
uint64_t tally_visited_bishop_movers;
uint64_t tally_visited_rook_movers;
// The position's analysis, which tally_moves made and the generator's loop uses again.
Analysis tally_analysis;
// The groups after the king's (one bit each, GROUP_* order) with a move to visit.
uint tally_visited_groups;

// Where a bishop and a rook of ours check their king from, with the node's occupancy: found
// once per node, as every set of a slider's moves is checked against them.
uint64_t tally_bishop_checks;
uint64_t tally_rook_checks;

// The squares from which our piece of role `role` checks their king in `p`.
uint64_t check_squares(Pos p, uint role) {
    uint king = lsb64(p.role[KING] & side(p, p.turn ^ 1u));
    return role == PAWN ? pawn_attacks(p.turn ^ 1u, king)
        : role == KNIGHT ? knight_attacks(king)
        : (role == BISHOP || role == QUEEN ? tally_bishop_checks : uint64_t(0))
            | (role == ROOK || role == QUEEN ? tally_rook_checks : uint64_t(0));
}

// Our pieces in `p` that alone stand between one of our sliders and their king on `king`: of
// our sliders on the king's lines of their kind, those with exactly one piece between, ours.
uint64_t discoverers_of(Pos p, uint king) {
    uint64_t ours = side(p, p.turn);
    uint64_t occupied = p.color[WHITE] | p.color[BLACK];
    uint64_t snipers = ((straight_lines(king) & (p.role[ROOK] | p.role[QUEEN]))
        | (diagonal_lines(king) & (p.role[BISHOP] | p.role[QUEEN]))) & ours;
    uint64_t discoverers = uint64_t(0);
    while (snipers != uint64_t(0)) {
        uint64_t between = between_bb(king, lsb64(snipers)) & occupied;
        snipers &= snipers - uint64_t(1);
        if (!more_than_one(between)) {
            discoverers |= between & ours;
        }
    }
    return discoverers;
}

void tally_clear() {
    for (uint k = 0u; k < STAT_COLUMNS; k++) {
        atomicExchange(tally_words[tally_slot(k)], 0u);
    }
}

// Tallies the legal move (from, to, kind) of `p` that tally_select chose to visit: what the move
// is, unless tally_select counted it already (every move but castles, en passant captures and
// promotions), then what it does (a check of which kind, a mate, a stalemate). A move that
// changes only `from` and `to` is classified on the occupancy, and made only when it gives
// check (is it mate?) or may stalemate; a castle or an en passant capture is made and
// classified from the position after it. A castle lands on the king's own rook, never on
// theirs: no capture.
void tally_move(Pos p, uint from, uint to, uint kind) {
    bool on_occupancy = kind != KIND_EN_PASSANT && kind != KIND_CASTLE;
    if (kind != KIND_NORMAL && kind != KIND_DOUBLE_PUSH) {
        tally_moves_counted++;
    }
    if (kind == KIND_EN_PASSANT) {
        tally_add(STAT_EN_PASSANT, 1u);
        tally_add(STAT_CAPTURES, 1u);
    } else if (kind == KIND_CASTLE) {
        tally_add(STAT_CASTLES, 1u);
    } else if (kind >= KIND_PROMOTE_KNIGHT) {
        tally_add(STAT_PROMOTIONS, 1u);
        if ((side(p, p.turn ^ 1u) & square_bb(to)) != uint64_t(0)) {
            tally_add(STAT_CAPTURES, 1u);
        }
    }
    uint64_t checkers = uint64_t(0);
    if (on_occupancy) {
        uint role = kind >= KIND_PROMOTE_KNIGHT ? KNIGHT + (kind - KIND_PROMOTE_KNIGHT)
                                                : role_on(p, square_bb(from));
        checkers = checkers_of_move(p, from, to, role);
        if (checkers == uint64_t(0) && (tally_stalemate_landings & square_bb(to)) == uint64_t(0)) {
            return;
        }
    }
    Pos c = play_move(p, from, to, kind);
    if (!on_occupancy) {
        checkers = checkers_after(c);
    }
    // The kind in CheckKind's order: +2 for two checkers, +1 when the moved piece is none.
    // Only it and whether there is a check are kept through the search for a reply.
    uint landed = kind == KIND_CASTLE ? castling_rook_to(from, to) : to;
    uint check_kind = (more_than_one(checkers) ? 2u : 0u)
        + ((checkers & square_bb(landed)) != uint64_t(0) ? 0u : 1u);
    bool check = checkers != uint64_t(0);
    bool replies = has_legal_move(c);
    if (check) {
        tally_add((replies ? STAT_CHECKS_BY_KIND : STAT_MATES_BY_KIND) + check_kind, 1u);
    } else if (!replies) {
        tally_add(STAT_STALEMATES, 1u);
    }
}

// The promotions onto `promotions` (from `to - offset`) that tally_move must classify: where the
// pawn stands on no line through their king, leaving its square opens no line to the king and
// uncovers no check, so that the new piece checks exactly from its role's check squares; a
// promotion landing elsewhere, off the stalemate landings, gives no check and leaves a witness.
// tally_moves counts the others in bulk, four moves each.
uint64_t promotion_visits(Pos p, uint64_t promotions, int offset) {
    uint king = lsb64(p.role[KING] & side(p, p.turn ^ 1u));
    uint64_t king_lines = straight_lines(king) | diagonal_lines(king);
    return promotions & (check_squares(p, KNIGHT) | tally_bishop_checks | tally_rook_checks
        | tally_stalemate_landings | shift_squares(king_lines, offset));
}

// The moves of one of the generator's sets (a group's, or one piece's: `from`; pawn moves land
// on their origin + `offset`) that tally_move must classify: castles, en passant captures,
// promotion_visits' promotions, and the moves that may give check or stalemate. A superset of
// those, which tally_move settles exactly: the targets among the moving role's check squares,
// every target of a piece (a pawn: every move from a square) that may uncover a check, and the
// stalemate landings. Any other move gives no check (the moved piece checks only from a check
// square, the occupancy the squares were found with being the move's but for `from`, which on
// the line from a check square to the king would have given check already; a piece that
// uncovers a check is a discoverer) and leaves a witness. tally_moves counted every move but
// the castles, en passant captures and the promotions returned here, and their captures.
uint64_t tally_select(Pos p, uint group, uint from, int offset, uint64_t targets) {
    if (group == GROUP_CASTLES || group == GROUP_EN_PASSANT) {
        return targets;
    }
    uint64_t promotions = uint64_t(0);
    uint64_t suspects = tally_stalemate_landings;
    if (group >= GROUP_PAWNS) {
        promotions = promotion_visits(p, targets & (RANK_1 | RANK_8), offset);
        targets &= ~(RANK_1 | RANK_8);
        suspects |= check_squares(p, PAWN) | shift_squares(tally_discoverers, offset);
    } else {
        uint role = group == GROUP_KING ? KING : role_on(p, square_bb(from));
        suspects |= (tally_discoverers & square_bb(from)) != uint64_t(0) ? ~uint64_t(0)
                                                                          : check_squares(p, role);
    }
    return (targets & suspects) | promotions;
}

// The next group with a move to visit after `group`; GROUP_COUNT where none is left.
uint tally_next_group(uint group) {
    uint later = tally_visited_groups & ~((2u << group) - 1u);
    return later == 0u ? GROUP_COUNT : uint(findLSB(later));
}

// The pieces of a group whose moves tally_select may return (tally_moves found them); en passant
// capturers are all looked at.
uint64_t tally_pieces(uint group, uint64_t pieces) {
    return group == GROUP_KNIGHTS ? pieces & tally_visited_knights
        : group == GROUP_BISHOP_MOVERS ? pieces & tally_visited_bishop_movers
        : group == GROUP_ROOK_MOVERS ? pieces & tally_visited_rook_movers
        : pieces;
}

// The generator's loop (generate_loop.glsl) over a position held in registers, through the
// pieces tally_moves found with moves to look at, visiting the moves tally_select returns with
// tally_move: the classification, which makes the move and may look for replies, has a single
// call site (the compiler inlines every call: one per group would multiply it).
#define GENERATE_FUNCTION tally_visit_moves
#define GENERATE_ARGUMENT Pos position
#define GENERATE_POSITION(salt) position
#define GENERATE_VISIT tally_move
#define GENERATE_SELECT tally_select
#define GENERATE_PIECES tally_pieces
#define GENERATE_ANALYSIS(position) tally_analysis
#define GENERATE_NEXT_GROUP tally_next_group
#include "generate_loop.glsl"
#undef GENERATE_FUNCTION
#undef GENERATE_ARGUMENT
#undef GENERATE_POSITION
#undef GENERATE_VISIT
#undef GENERATE_SELECT
#undef GENERATE_PIECES
#undef GENERATE_ANALYSIS
#undef GENERATE_NEXT_GROUP

// Counts the moves of `movers` (not pinned, or pinned along its line) in direction `dir`, and
// their captures; returns the movers with a move onto `suspects`: looking back from those
// targets, the first piece is the one that slid there.
uint64_t tally_sliding(Pos p, Analysis a, uint64_t movers, int dir, uint64_t suspects) {
    uint64_t empty = ~(p.color[WHITE] | p.color[BLACK]);
    uint64_t free_movers = movers & free_along(a, dir);
    uint64_t targets = slide(free_movers, empty, dir) & a.targets;
    tally_moves_counted += popcount64(targets);
    tally_captures += popcount64(targets & side(p, p.turn ^ 1u));
    uint64_t suspected = targets & suspects;
    return suspected == uint64_t(0) ? uint64_t(0) : slide(suspected, empty, -dir) & free_movers;
}

// The sliders' moves counted by direction with fills (CPU devices): the bishop and rook movers
// with a move onto their suspects (a queen's check squares are both kinds'). Two directions a
// turn of a loop kept rolled, each a constant: written out whole, the compiler interleaves the
// eight fills and holds more values at once than a GPU has registers (RADV spilled 93 VGPRs);
// one direction a turn, a variable, makes every fill shift both ways (lavapipe took 12% longer
// over the statistics run).
void tally_sliders_by_fills(Pos p, Analysis a, uint64_t diagonal_suspects, uint64_t straight_suspects) {
    uint64_t ours = side(p, p.turn);
    uint64_t rook_movers = (p.role[ROOK] | p.role[QUEEN]) & ours;
    uint64_t bishop_movers = (p.role[BISHOP] | p.role[QUEEN]) & ours;
    [[dont_unroll]] for (uint i = 0u; i < 4u; i++) {
        uint64_t r = uint64_t(0);
        uint64_t b = uint64_t(0);
        switch (i) {
            case 0u:
                r = tally_sliding(p, a, rook_movers, NORTH, straight_suspects)
                    | tally_sliding(p, a, rook_movers, SOUTH, straight_suspects);
                break;
            case 1u:
                r = tally_sliding(p, a, rook_movers, EAST, straight_suspects)
                    | tally_sliding(p, a, rook_movers, WEST, straight_suspects);
                break;
            case 2u:
                b = tally_sliding(p, a, bishop_movers, NORTH_EAST, diagonal_suspects)
                    | tally_sliding(p, a, bishop_movers, SOUTH_WEST, diagonal_suspects);
                break;
            default:
                b = tally_sliding(p, a, bishop_movers, NORTH_WEST, diagonal_suspects)
                    | tally_sliding(p, a, bishop_movers, SOUTH_EAST, diagonal_suspects);
                break;
        }
        tally_visited_rook_movers |= r;
        tally_visited_bishop_movers |= b;
    }
}

// The sliders' moves counted piece by piece with lookups (GPUs), as tally_sliders_by_fills.
void tally_sliders_by_lookups(Pos p, Analysis a, uint64_t diagonal_suspects, uint64_t straight_suspects) {
    uint64_t occupied = p.color[WHITE] | p.color[BLACK];
    uint64_t theirs = side(p, p.turn ^ 1u);
    uint64_t sliders = (p.role[ROOK] | p.role[BISHOP] | p.role[QUEEN]) & side(p, p.turn);
    while (sliders != uint64_t(0)) {
        uint sq = lsb64(sliders);
        sliders &= sliders - uint64_t(1);
        uint64_t at = square_bb(sq);
        uint64_t targets = a.targets;
        if ((a.pinned & at) != uint64_t(0)) targets &= line_bb(a.king, sq);
        uint64_t diagonal = (p.role[ROOK] & at) != uint64_t(0) ? uint64_t(0) : bishop_attacks(sq, occupied) & targets;
        uint64_t straight = (p.role[BISHOP] & at) != uint64_t(0) ? uint64_t(0) : rook_attacks(sq, occupied) & targets;
        tally_moves_counted += popcount64(diagonal) + popcount64(straight);
        tally_captures += popcount64((diagonal | straight) & theirs);
        if ((diagonal & diagonal_suspects) != uint64_t(0)) tally_visited_bishop_movers |= at;
        if ((straight & straight_suspects) != uint64_t(0)) tally_visited_rook_movers |= at;
    }
}

// Adds the columns of `p`'s legal moves to the tally; its number of legal moves. Every move but
// the castles, en passant captures and the promotions promotion_visits returns is counted here
// in bulk, with its captures, as count_legal counts (those are counted where they are
// visited); the generator's loop then looks only at the groups and pieces with a move
// tally_select returns, and runs only where there is one. This build is only for statistics
// runs: the node count's leaf keeps its register budget.
uint tally_moves(Pos p) {
    tally_moves_counted = 0u;
    tally_captures = 0u;
    uint64_t ours = side(p, p.turn);
    uint64_t theirs = side(p, p.turn ^ 1u);
    uint king = lsb64(p.role[KING] & theirs);
    uint64_t occupied = ours | theirs;
    tally_bishop_checks = bishop_attacks(king, occupied);
    tally_rook_checks = rook_attacks(king, occupied);
    tally_discoverers = discoverers_of(p, king);
    tally_stalemate_landings = stalemate_landings(p);
    Analysis a = analyze(p);
    tally_analysis = a;

    uint64_t steps = a.king_moves & ~ours;
    tally_moves_counted += popcount64(steps);
    tally_captures += popcount64(steps & theirs);
    bool king_discovers = (tally_discoverers & square_bb(a.king)) != uint64_t(0);
    uint64_t king_visits = steps & (king_discovers ? ~uint64_t(0) : tally_stalemate_landings);
    // Castles and en passant captures are always visited; the loop finds which pawns may take
    // en passant.
    tally_visited_groups = ((a.king_moves & ours) != uint64_t(0) ? 1u << GROUP_CASTLES : 0u)
        | (p.ep != NO_SQUARE ? 1u << GROUP_EN_PASSANT : 0u);

    uint64_t knights = p.role[KNIGHT] & ours & ~a.pinned;
    tally_moves_counted += count_knight_moves(knights, a.targets);
    tally_captures += count_knight_moves(knights, a.targets & theirs);
    tally_visited_knights = knights
        & (tally_discoverers | knight_spread(a.targets & (check_squares(p, KNIGHT) | tally_stalemate_landings)));

    // A queen moving along a line may check along a diagonal, and the other way round.
    uint64_t queens = (p.role[QUEEN] & ours) != uint64_t(0) ? ~uint64_t(0) : uint64_t(0);
    uint64_t diagonal_suspects = tally_bishop_checks | (queens & tally_rook_checks) | tally_stalemate_landings;
    uint64_t straight_suspects = tally_rook_checks | (queens & tally_bishop_checks) | tally_stalemate_landings;
    tally_visited_bishop_movers = (p.role[BISHOP] | p.role[QUEEN]) & ours & tally_discoverers;
    tally_visited_rook_movers = (p.role[ROOK] | p.role[QUEEN]) & ours & tally_discoverers;
    if (sliders_by_lookups()) {
        tally_sliders_by_lookups(p, a, diagonal_suspects, straight_suspects);
    } else {
        tally_sliders_by_fills(p, a, diagonal_suspects, straight_suspects);
    }
    tally_visited_groups |= (tally_visited_knights != uint64_t(0) ? 1u << GROUP_KNIGHTS : 0u)
        | (tally_visited_bishop_movers != uint64_t(0) ? 1u << GROUP_BISHOP_MOVERS : 0u)
        | (tally_visited_rook_movers != uint64_t(0) ? 1u << GROUP_ROOK_MOVERS : 0u);

    bool white = p.turn == WHITE;
    uint64_t pawn_suspects = check_squares(p, PAWN) | tally_stalemate_landings;
    uint promotions_counted = 0u;
    for (uint kind = PAWN_PUSHES; kind <= PAWN_CAPTURES_WEST; kind++) {
        uint64_t targets = pawn_targets(p, a, kind);
        int offset = pawn_offset(white, kind);
        uint64_t promotions = targets & (RANK_1 | RANK_8);
        uint64_t visited_promotions = promotion_visits(p, promotions, offset);
        uint64_t counted_promotions = promotions & ~visited_promotions;
        targets &= ~promotions;
        tally_moves_counted += popcount64(targets);
        tally_captures += popcount64(targets & theirs) + 4u * popcount64(counted_promotions & theirs);
        promotions_counted += 4u * popcount64(counted_promotions);
        uint64_t suspects = pawn_suspects | shift_squares(tally_discoverers, offset);
        if (((targets & suspects) | visited_promotions) != uint64_t(0)) {
            tally_visited_groups |= 1u << (GROUP_PAWNS + kind);
        }
    }
    if (promotions_counted != 0u) {
        tally_moves_counted += promotions_counted;
        tally_add(STAT_PROMOTIONS, promotions_counted);
    }

    if (king_visits != uint64_t(0) || tally_visited_groups != 0u) {
        tally_visit_moves(p);
    }
    tally_add(STAT_CAPTURES, tally_captures);
    return tally_moves_counted;
}

#endif
