//! Legal move generation with check and pin masks, shared by a move-list builder and a
//! bulk counter (at remaining depth 1 perft counts moves with popcounts and never makes them).

use super::attacks;
use super::bitboard::Bitboard;
use super::castling::CastlingSquares;
use super::moves::{Move, MoveKind, MoveList};
use super::position::Position;
use super::square::Square;
use super::types::{Color, Role};

/// Receives generated moves; the two implementations are monomorphized so that counting
/// compiles down to popcounts.
trait MoveSink {
    /// Moves of one piece from `from` to each square of `targets`.
    fn piece_moves(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves landing on each square of `targets`, coming from `to - offset`.
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8, kind: MoveKind);
    /// Promotions landing on each square of `targets` (four moves each).
    fn promotions(&mut self, targets: Bitboard, offset: i8);
    fn single(&mut self, m: Move);
}

struct ListSink<'a>(&'a mut MoveList);

impl MoveSink for ListSink<'_> {
    #[inline]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.0.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8, kind: MoveKind) {
        for to in targets {
            let from = Square::new((to.to_u8() as i8 - offset) as u8);
            self.0.push(Move::new(from, to, kind));
        }
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            let from = Square::new((to.to_u8() as i8 - offset) as u8);
            for kind in MoveKind::PROMOTIONS {
                self.0.push(Move::new(from, to, kind));
            }
        }
    }

    #[inline]
    fn single(&mut self, m: Move) {
        self.0.push(m);
    }
}

struct CountSink(u64);

impl MoveSink for CountSink {
    #[inline]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, _offset: i8, _kind: MoveKind) {
        self.0 += targets.count() as u64;
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, _offset: i8) {
        self.0 += 4 * targets.count() as u64;
    }

    #[inline]
    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// All legal moves of the side to move.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_for_turn(pos, &mut ListSink(&mut list));
    list
}

/// The number of legal moves, without building them.
pub fn count_legal(pos: &Position) -> u64 {
    let mut sink = CountSink(0);
    generate_for_turn(pos, &mut sink);
    sink.0
}

/// Squares attacked by `by`'s pieces with the given occupancy.
#[inline]
fn attacked_squares(pos: &Position, by: Color, occupied: Bitboard) -> Bitboard {
    let theirs = pos.by_color(by);
    let pawns = pos.pieces(by, Role::Pawn);
    let ahead = forward(pawns, by);
    let mut attacked = ((ahead & !Bitboard::FILE_A).shift_west())
        | ((ahead & !Bitboard::FILE_H).shift_east())
        | attacks::king(pos.king(by));
    for sq in pos.by_role(Role::Knight) & theirs {
        attacked |= attacks::knight(sq);
    }
    let queens = pos.by_role(Role::Queen);
    for sq in (pos.by_role(Role::Bishop) | queens) & theirs {
        attacked |= attacks::bishop(sq, occupied);
    }
    for sq in (pos.by_role(Role::Rook) | queens) & theirs {
        attacked |= attacks::rook(sq, occupied);
    }
    attacked
}

/// Shifts a set of squares one rank forward for `color`.
#[inline]
fn forward(bb: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => bb.shift_north(1),
        Color::Black => bb.shift_south(1),
    }
}

/// Dispatches to a generator compiled once per side, so pawn directions and ranks are constants.
#[inline]
fn generate_for_turn<S: MoveSink>(pos: &Position, sink: &mut S) {
    match pos.turn() {
        Color::White => generate::<S, true>(pos, sink),
        Color::Black => generate::<S, false>(pos, sink),
    }
}

#[inline]
const fn side(white: bool) -> Color {
    if white {
        Color::White
    } else {
        Color::Black
    }
}

#[inline]
fn generate<S: MoveSink, const WHITE: bool>(pos: &Position, sink: &mut S) {
    let us = side(WHITE);
    let them = !us;
    let ours = pos.by_color(us);
    let theirs = pos.by_color(them);
    let occupied = ours | theirs;
    let king = pos.king(us);

    // Enemy sliders that see our king through our own pieces: with nothing between they give
    // check, with one of our pieces between it is pinned. Leapers give check directly.
    let queens = pos.by_role(Role::Queen);
    let rook_movers = pos.by_role(Role::Rook) | queens;
    let bishop_movers = pos.by_role(Role::Bishop) | queens;
    let snipers = (attacks::rook(king, theirs) & rook_movers & theirs)
        | (attacks::bishop(king, theirs) & bishop_movers & theirs);
    let mut checkers = (attacks::knight(king) & pos.by_role(Role::Knight) & theirs)
        | (attacks::pawn(us, king) & pos.by_role(Role::Pawn) & theirs);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if blockers.is_empty() {
            checkers = checkers.with(sniper);
        } else if !blockers.more_than_one() {
            pinned |= blockers;
        }
    }

    // Every square the opponent attacks, seen through our king so that it cannot step back
    // along a slider's ray.
    let attacked = attacked_squares(pos, them, occupied.without(king));
    sink.piece_moves(king, attacks::king(king) & !ours & !attacked);

    if checkers.more_than_one() {
        return;
    }
    let check_mask = match checkers.single_square() {
        Some(checker) => attacks::between(king, checker).with(checker),
        None => Bitboard::ALL,
    };
    let target_mask = !ours & check_mask;

    for from in pos.by_role(Role::Knight) & ours & !pinned {
        sink.piece_moves(from, attacks::knight(from) & target_mask);
    }
    for from in bishop_movers & ours {
        let mut targets = attacks::bishop(from, occupied) & target_mask;
        if pinned.contains(from) {
            targets &= attacks::line(king, from);
        }
        sink.piece_moves(from, targets);
    }
    for from in rook_movers & ours {
        let mut targets = attacks::rook(from, occupied) & target_mask;
        if pinned.contains(from) {
            targets &= attacks::line(king, from);
        }
        sink.piece_moves(from, targets);
    }

    generate_pawn_moves::<S, WHITE>(pos, sink, king, pinned, check_mask);

    if checkers.is_empty() {
        let castling_rooks = pos.castling_rooks() & ours;
        if castling_rooks.any() {
            generate_castling::<S, WHITE>(pos, sink, king, castling_rooks, attacked);
        }
    }
}

#[inline]
fn generate_pawn_moves<S: MoveSink, const WHITE: bool>(
    pos: &Position,
    sink: &mut S,
    king: Square,
    pinned: Bitboard,
    check_mask: Bitboard,
) {
    let us = side(WHITE);
    let them = !us;
    let theirs = pos.by_color(them);
    let empty = !pos.occupied();
    let pawns = pos.pieces(us, Role::Pawn);
    let (push, left, right, double_rank, promo_rank) = match us {
        Color::White => (8i8, 7i8, 9i8, Bitboard::RANK_3, Bitboard::RANK_8),
        Color::Black => (-8, -9, -7, Bitboard::RANK_6, Bitboard::RANK_1),
    };

    // A pinned pawn may still move along its pin line: push along a file pin, capture along a
    // diagonal pin. Pawns are grouped by the line they may move on.
    let free = pawns & !pinned;
    let file_pinned = pinned & pawns & Bitboard::file(king.file());
    let diag_pinned = pinned & pawns & !file_pinned;

    let pushers = free | file_pinned;
    let single = forward(pushers, us) & empty;
    let double = forward(single & double_rank, us) & empty & check_mask;
    let single = single & check_mask;

    let capturers_left = (free | diag_pinned) & !Bitboard::FILE_A;
    let capturers_right = (free | diag_pinned) & !Bitboard::FILE_H;
    let mut captures_left = forward(capturers_left, us).shift_west() & theirs & check_mask;
    let mut captures_right = forward(capturers_right, us).shift_east() & theirs & check_mask;

    // Pinned capturers must stay on their pin line; at most a few exist, fix them one by one.
    for from in diag_pinned {
        let line = attacks::line(king, from);
        let left_to = Square::new((from.to_u8() as i8 + left) as u8);
        let right_to = Square::new((from.to_u8() as i8 + right) as u8);
        if from.file() > 0 && !line.contains(left_to) {
            captures_left = captures_left.without(left_to);
        }
        if from.file() < 7 && !line.contains(right_to) {
            captures_right = captures_right.without(right_to);
        }
    }

    sink.pawn_moves(single & !promo_rank, push, MoveKind::Normal);
    sink.pawn_moves(double, 2 * push, MoveKind::DoublePush);
    sink.pawn_moves(captures_left & !promo_rank, left, MoveKind::Normal);
    sink.pawn_moves(captures_right & !promo_rank, right, MoveKind::Normal);
    sink.promotions(single & promo_rank, push);
    sink.promotions(captures_left & promo_rank, left);
    sink.promotions(captures_right & promo_rank, right);

    if let Some(ep) = pos.ep_square() {
        let captured = Square::new((ep.to_u8() as i8 - push) as u8);
        for from in attacks::pawn(them, ep) & pawns {
            if pos.ep_capture_from_is_legal(from, ep, captured) {
                sink.single(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }
}

/// Castles of the side to move, which is not in check, with its `castling_rooks`. Besides the
/// empty and unattacked squares, a Chess960 castle must not uncover an attack along the back
/// rank that its own rook blocked (king d1 castling with the rook on b1, their rook on a1: the
/// king lands on c1 in check once b1 is vacated). `attacked` was computed with the rook in
/// place.
#[inline]
fn generate_castling<S: MoveSink, const WHITE: bool>(
    pos: &Position,
    sink: &mut S,
    king: Square,
    castling_rooks: Bitboard,
    attacked: Bitboard,
) {
    let us = side(WHITE);
    let occupied = pos.occupied();
    let back_rank = Bitboard::rank(king.rank());
    let their_rank_sliders =
        (pos.by_role(Role::Rook) | pos.by_role(Role::Queen)) & pos.by_color(!us) & back_rank;
    let chess960 = pos.notation().is_chess960();
    for rook in castling_rooks {
        let squares = CastlingSquares::new(king, rook);
        if (squares.must_be_empty() & occupied).any() || (squares.king_path() & attacked).any() {
            continue;
        }
        if their_rank_sliders.any() {
            let after = occupied.without(king).without(rook).with(squares.rook_to);
            if (attacks::rook(squares.king_to, after) & their_rank_sliders).any() {
                continue;
            }
        }
        sink.single(Move::castle(king, rook, chess960));
    }
}
