// The body of the legal move generator (a port of src/chess/movegen.rs), included into a
// function that has `Pos p` in scope and defines the sinks:
//   SINK_PIECE(from, targets)          moves of one piece to each target square
//   SINK_PAWNS(targets, offset, kind)  pawn moves landing on targets, from `to - offset`
//   SINK_PROMOS(targets, offset)       promotions landing on targets (four moves each)
//   SINK_SINGLE(from, to, kind)        one move
// generate.glsl includes it with sinks that visit every move. (The bulk counter, count_legal
// in movegen.glsl, works on whole sets of pieces instead.)
{
    uint us = p.turn;
    uint them = us ^ 1u;
    uint64_t ours = side(p, us);
    uint64_t theirs = side(p, them);
    uint64_t occupied = ours | theirs;
    uint king = lsb64(p.role[KING] & ours);

    uint64_t queens = p.role[QUEEN];
    uint64_t rook_movers = p.role[ROOK] | queens;
    uint64_t bishop_movers = p.role[BISHOP] | queens;

    // Sliders that see the king through our pieces check it or pin one piece.
    uint64_t snipers = (rook_attacks(king, theirs) & rook_movers & theirs)
        | (bishop_attacks(king, theirs) & bishop_movers & theirs);
    uint64_t checkers = (knight_attacks(king) & p.role[KNIGHT] & theirs)
        | (pawn_attacks(us, king) & p.role[PAWN] & theirs);
    uint64_t pinned = uint64_t(0);
    while (snipers != uint64_t(0)) {
        uint sniper = lsb64(snipers);
        snipers &= snipers - uint64_t(1);
        uint64_t blockers = between_bb(king, sniper) & occupied;
        if (blockers == uint64_t(0)) {
            checkers |= square_bb(sniper);
        } else if (!more_than_one(blockers)) {
            pinned |= blockers;
        }
    }

    // Squares the opponent attacks, seen through our king.
    uint64_t occupied_without_king = occupied & ~square_bb(king);
    uint64_t their_pawns = p.role[PAWN] & theirs;
    uint64_t ahead = them == WHITE ? their_pawns << 8 : their_pawns >> 8;
    uint64_t attacked = ((ahead & ~FILE_A) >> 1) | ((ahead & ~FILE_H) << 1)
        | king_attacks(lsb64(p.role[KING] & theirs));
    uint64_t pieces = p.role[KNIGHT] & theirs;
    while (pieces != uint64_t(0)) {
        attacked |= knight_attacks(lsb64(pieces));
        pieces &= pieces - uint64_t(1);
    }
    pieces = bishop_movers & theirs;
    while (pieces != uint64_t(0)) {
        attacked |= bishop_attacks(lsb64(pieces), occupied_without_king);
        pieces &= pieces - uint64_t(1);
    }
    pieces = rook_movers & theirs;
    while (pieces != uint64_t(0)) {
        attacked |= rook_attacks(lsb64(pieces), occupied_without_king);
        pieces &= pieces - uint64_t(1);
    }
    SINK_PIECE(king, king_attacks(king) & ~ours & ~attacked);

    if (!more_than_one(checkers)) {
        uint64_t check_mask = checkers == uint64_t(0)
            ? ~uint64_t(0)
            : between_bb(king, lsb64(checkers)) | checkers;
        uint64_t target_mask = ~ours & check_mask;

        pieces = p.role[KNIGHT] & ours & ~pinned;
        while (pieces != uint64_t(0)) {
            uint from = lsb64(pieces);
            pieces &= pieces - uint64_t(1);
            SINK_PIECE(from, knight_attacks(from) & target_mask);
        }
        pieces = bishop_movers & ours;
        while (pieces != uint64_t(0)) {
            uint from = lsb64(pieces);
            pieces &= pieces - uint64_t(1);
            uint64_t targets = bishop_attacks(from, occupied) & target_mask;
            if ((pinned & square_bb(from)) != uint64_t(0)) targets &= line_bb(king, from);
            SINK_PIECE(from, targets);
        }
        pieces = rook_movers & ours;
        while (pieces != uint64_t(0)) {
            uint from = lsb64(pieces);
            pieces &= pieces - uint64_t(1);
            uint64_t targets = rook_attacks(from, occupied) & target_mask;
            if ((pinned & square_bb(from)) != uint64_t(0)) targets &= line_bb(king, from);
            SINK_PIECE(from, targets);
        }

        // Pawns, set-wise; pinned pawns move only along their pin line.
        uint64_t empty = ~occupied;
        uint64_t pawns = p.role[PAWN] & ours;
        bool white = us == WHITE;
        int push = white ? 8 : -8;
        int left = white ? 7 : -9;
        int right = white ? 9 : -7;
        uint64_t double_rank = white ? RANK_3 : RANK_6;
        uint64_t promo_rank = white ? RANK_8 : RANK_1;
        uint64_t free_pawns = pawns & ~pinned;
        uint64_t file_pinned = pinned & pawns & (FILE_A << (king & 7u));
        uint64_t diag_pinned = pinned & pawns & ~file_pinned;

        uint64_t pushers = free_pawns | file_pinned;
        uint64_t single = (white ? pushers << 8 : pushers >> 8) & empty;
        uint64_t single_on_3rd = single & double_rank;
        uint64_t double_push = (white ? single_on_3rd << 8 : single_on_3rd >> 8) & empty & check_mask;
        single &= check_mask;

        uint64_t capturers = free_pawns | diag_pinned;
        uint64_t ahead_left = capturers & ~FILE_A;
        uint64_t ahead_right = capturers & ~FILE_H;
        ahead_left = white ? ahead_left << 7 : ahead_left >> 9;
        ahead_right = white ? ahead_right << 9 : ahead_right >> 7;
        uint64_t captures_left = ahead_left & theirs & check_mask;
        uint64_t captures_right = ahead_right & theirs & check_mask;
        uint64_t pinned_capturers = diag_pinned;
        while (pinned_capturers != uint64_t(0)) {
            uint from = lsb64(pinned_capturers);
            pinned_capturers &= pinned_capturers - uint64_t(1);
            uint64_t pin_line = line_bb(king, from);
            if ((from & 7u) > 0u) {
                uint left_to = uint(int(from) + left);
                if ((pin_line & square_bb(left_to)) == uint64_t(0)) captures_left &= ~square_bb(left_to);
            }
            if ((from & 7u) < 7u) {
                uint right_to = uint(int(from) + right);
                if ((pin_line & square_bb(right_to)) == uint64_t(0)) captures_right &= ~square_bb(right_to);
            }
        }
        SINK_PAWNS(single & ~promo_rank, push, KIND_NORMAL);
        SINK_PAWNS(double_push, 2 * push, KIND_DOUBLE_PUSH);
        SINK_PAWNS(captures_left & ~promo_rank, left, KIND_NORMAL);
        SINK_PAWNS(captures_right & ~promo_rank, right, KIND_NORMAL);
        SINK_PROMOS(single & promo_rank, push);
        SINK_PROMOS(captures_left & promo_rank, left);
        SINK_PROMOS(captures_right & promo_rank, right);

        if (p.ep != NO_SQUARE) {
            uint captured = uint(int(p.ep) - push);
            uint64_t ep_capturers = pawn_attacks(them, p.ep) & pawns;
            while (ep_capturers != uint64_t(0)) {
                uint from = lsb64(ep_capturers);
                ep_capturers &= ep_capturers - uint64_t(1);
                if (ep_capture_is_legal(p, from, p.ep, captured)) {
                    SINK_SINGLE(from, p.ep, KIND_EN_PASSANT);
                }
            }
        }

        if (checkers == uint64_t(0)) {
            uint base = us == WHITE ? 0u : 56u;
            uint king_side_right = us == WHITE ? WHITE_KING_SIDE : BLACK_KING_SIDE;
            uint queen_side_right = us == WHITE ? WHITE_QUEEN_SIDE : BLACK_QUEEN_SIDE;
            // King side: f and g empty and not attacked.
            if ((p.castling & king_side_right) != 0u
                && (occupied & (uint64_t(0x60ul) << base)) == uint64_t(0)
                && (attacked & (uint64_t(0x60ul) << base)) == uint64_t(0)) {
                SINK_SINGLE(base + 4u, base + 6u, KIND_CASTLE);
            }
            // Queen side: b, c and d empty; c and d not attacked.
            if ((p.castling & queen_side_right) != 0u
                && (occupied & (uint64_t(0x0eul) << base)) == uint64_t(0)
                && (attacked & (uint64_t(0x0cul) << base)) == uint64_t(0)) {
                SINK_SINGLE(base + 4u, base + 2u, KIND_CASTLE);
            }
        }
    }
}
