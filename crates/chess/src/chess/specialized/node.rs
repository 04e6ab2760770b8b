//! Strictly legal generation from a check mask and two pin masks, shared by the leaf counter
//! (popcounts of target sets, no moves made) and the recursion (each move made on a copy of
//! the board and its child counted).

use super::board::{Board, BISHOP, KING, KNIGHT, PAWN, PROMOTIONS, QUEEN, ROOK};
use super::flags::{Flag, No, Side, Yes};
use super::lookup::Sliders;
use super::tables::Reach;
use crate::chess::bitboard::Bitboard;
use crate::chess::castling::CastlingSquares;
use crate::chess::square::Square;
use std::marker::PhantomData;

/// The number of legal moves on `board`, counted without making them.
#[inline(always)]
pub fn leaf_count<L: Sliders, S: Side, E: Flag, C: Flag>(sliders: L, board: &Board) -> u64 {
    let mut count = Count(0);
    generate::<L, S, E, C, _>(sliders, board, &mut count);
    count.0
}

/// Receives the legal moves of a node, grouped as generation finds them.
pub(super) trait Visitor {
    /// Whether the visitor has seen enough: asked after the king's moves, so that a search
    /// for any legal move stops there when the king has one.
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
    /// Moves of the piece of role `ROLE` on `from` to each square of `targets`.
    fn piece<const ROLE: usize>(&mut self, from: Square, targets: Bitboard);
    /// Moves of the bishops, rooks and queens among `free` (no pin holds them) to each square
    /// of `targets` they attack.
    #[inline(always)]
    fn free_sliders<L: Sliders>(
        &mut self,
        sliders: L,
        board: &Board,
        free: Bitboard,
        occupied: Bitboard,
        targets: Bitboard,
    ) {
        for from in board.roles[BISHOP] & free {
            self.piece::<BISHOP>(from, sliders.bishop(from, occupied) & targets);
        }
        for from in board.roles[ROOK] & free {
            self.piece::<ROOK>(from, sliders.rook(from, occupied) & targets);
        }
        for from in board.roles[QUEEN] & free {
            let attacks = sliders.rook(from, occupied) | sliders.bishop(from, occupied);
            self.piece::<QUEEN>(from, attacks & targets);
        }
    }

    /// Pawn moves that do not promote and are not double pushes, onto each square of
    /// `targets` from `to - offset`.
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8);
    fn double_pushes(&mut self, targets: Bitboard, offset: i8);
    /// Promotions onto each square of `targets` (four moves each).
    fn promotions(&mut self, targets: Bitboard, offset: i8);
    fn en_passant(&mut self, from: Square);
    fn castle(&mut self, squares: CastlingSquares);
}

/// Counts moves without making them.
struct Count(u64);

impl Visitor for Count {
    /// A queen's moves along diagonals and along lines are disjoint sets: counted with the
    /// bishops' and the rooks', two loops instead of three.
    #[inline(always)]
    fn free_sliders<L: Sliders>(
        &mut self,
        sliders: L,
        board: &Board,
        free: Bitboard,
        occupied: Bitboard,
        targets: Bitboard,
    ) {
        let queens = board.roles[QUEEN];
        for from in (board.roles[BISHOP] | queens) & free {
            self.0 += u64::from((sliders.bishop(from, occupied) & targets).count());
        }
        for from in (board.roles[ROOK] | queens) & free {
            self.0 += u64::from((sliders.rook(from, occupied) & targets).count());
        }
    }

    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _offset: i8) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, _offset: i8) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _offset: i8) {
        self.0 += 4 * u64::from(targets.count());
    }

    #[inline(always)]
    fn en_passant(&mut self, _from: Square) {
        self.0 += 1;
    }

    #[inline(always)]
    fn castle(&mut self, _squares: CastlingSquares) {
        self.0 += 1;
    }
}

/// What a node adds up over its children's subtrees: leaf counts (`u64`), or leaf counts with
/// the statistics of their last moves. A subtree is added to the caller's total in place: the
/// statistics are ten words, which a child returning them would write field by field and its
/// parent then read back two at a time, each read stalled on the writes it spans.
pub(super) trait Subtree: Default {
    /// Adds the subtree of `child`, `depth >= 1` plies deep, by the node function of its flags:
    /// a call, so that the loops of a depth-2 node stay small (the leaf counter inlined there
    /// made the code so large that it ran slower, Kiwipete by 3-4%).
    fn add_below<L: Sliders, S: Side, E: Flag, C: Flag>(
        &mut self,
        sliders: L,
        child: &Board,
        depth: u32,
    );
}

impl Subtree for u64 {
    #[inline(always)]
    fn add_below<L: Sliders, S: Side, E: Flag, C: Flag>(
        &mut self,
        sliders: L,
        child: &Board,
        depth: u32,
    ) {
        *self += match depth {
            1 => sliders.leaf_count::<S, E, C>(child),
            _ => sliders.perft::<S, E, C>(child, depth),
        };
    }
}

/// Makes each move and adds up the subtrees of the children, `depth` plies deep.
pub(super) struct Children<'a, L, S, C, T> {
    sliders: L,
    board: &'a Board,
    depth: u32,
    pub total: T,
    /// Children made (the leaf count-ops of a node at depth 2).
    pub made: u64,
    side: PhantomData<(S, C)>,
}

impl<'a, L: Sliders, S: Side, C: Flag, T: Subtree> Children<'a, L, S, C, T> {
    #[inline(always)]
    pub fn new(sliders: L, board: &'a Board, depth: u32) -> Self {
        Children {
            sliders,
            board,
            depth,
            total: T::default(),
            made: 0,
            side: PhantomData,
        }
    }

    /// The child's subtree, by the node function of its flags: castling rights can only go.
    #[inline(always)]
    fn count<E: Flag>(&mut self, child: &Board) {
        self.made += 1;
        if C::ON && child.castling_rooks.any() {
            self.total
                .add_below::<L, S::Other, E, Yes>(self.sliders, child, self.depth);
        } else {
            self.total
                .add_below::<L, S::Other, E, No>(self.sliders, child, self.depth);
        }
    }
}

#[inline(always)]
pub(super) fn origin(to: Square, offset: i8) -> Square {
    Square::new((to.to_u8() as i8 - offset) as u8)
}

impl<L: Sliders, S: Side, C: Flag, T: Subtree> Visitor for Children<'_, L, S, C, T> {
    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            let child = self.board.moved::<S, C, ROLE>(from, to);
            self.count::<No>(&child);
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            let child = self.board.moved::<S, C, PAWN>(origin(to, offset), to);
            self.count::<No>(&child);
        }
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            let (child, ep_possible) = self.board.double_pushed::<S>(origin(to, offset), to);
            if ep_possible {
                self.count::<Yes>(&child);
            } else {
                self.count::<No>(&child);
            }
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            for role in PROMOTIONS {
                let child = self.board.promoted::<S, C>(origin(to, offset), to, role);
                self.count::<No>(&child);
            }
        }
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square) {
        let child = self.board.en_passant::<S>(from);
        self.count::<No>(&child);
    }

    #[inline(always)]
    fn castle(&mut self, squares: CastlingSquares) {
        let child = self.board.castled::<S>(squares);
        self.count::<No>(&child);
    }
}

/// Pieces that give check and pin: a slider sees the king through our pieces; with nothing
/// between it gives check, with one of ours between that piece is pinned. A pin mask holds
/// the ray from the king to each such slider, the slider included: a piece pinned on one ray
/// keeps the moves that stay in the mask (rays of the same kind meet only at the king).
pub(super) struct KingSafety {
    pub checkers: Bitboard,
    /// Rays along ranks and files of the rooks and queens that pin.
    pin_straight: Bitboard,
    /// Rays along diagonals of the bishops and queens that pin.
    pin_diagonal: Bitboard,
}

#[inline(always)]
pub(super) fn king_safety<L: Sliders, S: Side>(
    sliders: L,
    board: &Board,
    king: Square,
) -> KingSafety {
    let t = sliders.leapers();
    let ours = board.ours::<S>();
    let theirs = board.theirs::<S>();
    let occupied = ours | theirs;
    let queens = board.roles[QUEEN];
    let mut checkers = ((t.knight(king) & board.roles[KNIGHT])
        | (t.pawn(S::COLOR, king) & board.roles[PAWN]))
        & theirs;
    let pin_ray = |snipers: Bitboard, checkers: &mut Bitboard| {
        let mut mask = Bitboard::EMPTY;
        for sniper in snipers {
            let ray = t.between(king, sniper);
            let blockers = ray & occupied;
            if blockers.is_empty() {
                *checkers = checkers.with(sniper);
            } else if !blockers.more_than_one() && (blockers & ours).any() {
                mask |= ray.with(sniper);
            }
        }
        mask
    };
    // A slider's lookup only where one of theirs stands on the king's lines.
    let straight = (board.roles[ROOK] | queens) & theirs;
    let pin_straight = if (t.rook_rays(king) & straight).any() {
        pin_ray(sliders.rook(king, theirs) & straight, &mut checkers)
    } else {
        Bitboard::EMPTY
    };
    let diagonal = (board.roles[BISHOP] | queens) & theirs;
    let pin_diagonal = if (t.bishop_rays(king) & diagonal).any() {
        pin_ray(sliders.bishop(king, theirs) & diagonal, &mut checkers)
    } else {
        Bitboard::EMPTY
    };
    KingSafety {
        checkers,
        pin_straight,
        pin_diagonal,
    }
}

/// The squares next to our king that the opponent attacks, seen through the king so that it
/// cannot step back along a slider's ray.
#[inline(always)]
pub(super) fn attacked_next_to_king<L: Sliders, S: Side>(
    sliders: L,
    board: &Board,
    king: Square,
) -> Bitboard {
    let reach = sliders.leapers().next_to_king_reach(king);
    attacked_around_king::<L, S>(sliders, board, king, reach)
}

/// What the opponent attacks, seen through our king, of the zone that `reach` was made for:
/// only enemy pieces that can reach the zone on an empty board are looked at (pawns and the
/// king are cheaper to take whole).
#[inline(always)]
fn attacked_around_king<L: Sliders, S: Side>(
    sliders: L,
    board: &Board,
    king: Square,
    reach: &Reach,
) -> Bitboard {
    let t = sliders.leapers();
    let theirs = board.theirs::<S>();
    let occupied = (board.ours::<S>() | theirs).without(king);
    let queens = board.roles[QUEEN];
    let ahead = S::Other::forward(board.roles[PAWN] & theirs);
    let mut attacked = (ahead & !Bitboard::FILE_A).shift_west()
        | (ahead & !Bitboard::FILE_H).shift_east()
        | t.king((board.roles[KING] & theirs).lsb());
    for from in board.roles[KNIGHT] & theirs & reach.knight {
        attacked |= t.knight(from);
    }
    for from in (board.roles[BISHOP] | queens) & theirs & reach.bishop {
        attacked |= sliders.bishop(from, occupied);
    }
    for from in (board.roles[ROOK] | queens) & theirs & reach.rook {
        attacked |= sliders.rook(from, occupied);
    }
    attacked
}

#[inline(always)]
pub(super) fn generate<L: Sliders, S: Side, E: Flag, C: Flag, V: Visitor>(
    sliders: L,
    board: &Board,
    visitor: &mut V,
) {
    let t = sliders.leapers();
    let ours = board.ours::<S>();
    let occupied = ours | board.theirs::<S>();
    let king = (board.roles[KING] & ours).lsb();
    let safety = king_safety::<L, S>(sliders, board, king);

    let king_targets = t.king(king) & !ours;
    let castling_rooks = if C::ON && safety.checkers.is_empty() {
        rooks_with_clear_castling_paths::<L, S>(sliders, board, king, occupied)
    } else {
        Bitboard::EMPTY
    };
    // With a castle to test, the squares its king passes are looked at in the same pass.
    let attacked = if castling_rooks.any() {
        attacked_around_king::<L, S>(sliders, board, king, t.castling_reach(king))
    } else if king_targets.any() {
        attacked_next_to_king::<L, S>(sliders, board, king)
    } else {
        Bitboard::EMPTY
    };
    visitor.piece::<KING>(king, king_targets & !attacked);
    if safety.checkers.more_than_one() || visitor.done() {
        return;
    }
    let check_mask = if safety.checkers.any() {
        t.between(king, safety.checkers.lsb()) | safety.checkers
    } else {
        Bitboard::ALL
    };
    let targets = !ours & check_mask;
    let straight = safety.pin_straight;
    let diagonal = safety.pin_diagonal;
    let pinned = (straight | diagonal) & ours;

    for from in board.roles[KNIGHT] & ours & !pinned {
        visitor.piece::<KNIGHT>(from, t.knight(from) & targets);
    }
    visitor.free_sliders(sliders, board, ours & !pinned, occupied, targets);
    let queens = board.roles[QUEEN] & ours;
    // Most nodes have no pinned piece: one test skips the four loops.
    if pinned.any() {
        let diagonal_movers = (board.roles[BISHOP] | queens) & ours & diagonal;
        for from in diagonal_movers {
            let targets = sliders.bishop(from, occupied) & targets & diagonal;
            if board.roles[QUEEN].contains(from) {
                visitor.piece::<QUEEN>(from, targets);
            } else {
                visitor.piece::<BISHOP>(from, targets);
            }
        }
        let straight_movers = (board.roles[ROOK] | queens) & ours & straight;
        for from in straight_movers {
            let targets = sliders.rook(from, occupied) & targets & straight;
            if board.roles[QUEEN].contains(from) {
                visitor.piece::<QUEEN>(from, targets);
            } else {
                visitor.piece::<ROOK>(from, targets);
            }
        }
    }

    generate_pawn_moves::<L, S, E, V>(sliders, board, visitor, king, &safety, check_mask);

    if castling_rooks.any() {
        generate_castles::<L, S, V>(sliders, board, visitor, king, castling_rooks, attacked);
    }
}

#[inline(always)]
fn generate_pawn_moves<L: Sliders, S: Side, E: Flag, V: Visitor>(
    sliders: L,
    board: &Board,
    visitor: &mut V,
    king: Square,
    safety: &KingSafety,
    check_mask: Bitboard,
) {
    let ours = board.ours::<S>();
    let theirs = board.theirs::<S>();
    let empty = !(ours | theirs);
    let pawns = board.roles[PAWN] & ours;
    let straight = safety.pin_straight;
    let diagonal = safety.pin_diagonal;
    let (double_rank, promotion_rank) = if S::COLOR.index() == 0 {
        (Bitboard::RANK_3, Bitboard::RANK_8)
    } else {
        (Bitboard::RANK_6, Bitboard::RANK_1)
    };
    let push = S::PUSH;
    // West is towards the a-file: +7 / +9 for white, -9 / -7 for black.
    let (west, east) = (push - 1, push + 1);

    let (single, to_west, to_east) = if (pawns & (straight | diagonal)).is_empty() {
        let ahead = S::forward(pawns);
        (
            ahead & empty,
            (ahead & !Bitboard::FILE_A).shift_west(),
            (ahead & !Bitboard::FILE_H).shift_east(),
        )
    } else {
        // A pawn pinned along a file may push along it; one pinned along a diagonal may
        // capture along it; the pin masks hold exactly the squares of those rays.
        let pushers = pawns & !diagonal;
        let single =
            (S::forward(pushers & !straight) | (S::forward(pushers & straight) & straight)) & empty;
        let capturers = pawns & !straight;
        let ahead_free = S::forward(capturers & !diagonal);
        let ahead_pinned = S::forward(capturers & diagonal);
        (
            single,
            (ahead_free & !Bitboard::FILE_A).shift_west()
                | ((ahead_pinned & !Bitboard::FILE_A).shift_west() & diagonal),
            (ahead_free & !Bitboard::FILE_H).shift_east()
                | ((ahead_pinned & !Bitboard::FILE_H).shift_east() & diagonal),
        )
    };
    let double = S::forward(single & double_rank) & empty & check_mask;
    let single = single & check_mask;
    let to_west = to_west & theirs & check_mask;
    let to_east = to_east & theirs & check_mask;

    visitor.double_pushes(double, 2 * push);
    if ((single | to_west | to_east) & promotion_rank).is_empty() {
        visitor.pawn_moves(single, push);
        visitor.pawn_moves(to_west, west);
        visitor.pawn_moves(to_east, east);
    } else {
        visitor.pawn_moves(single & !promotion_rank, push);
        visitor.pawn_moves(to_west & !promotion_rank, west);
        visitor.pawn_moves(to_east & !promotion_rank, east);
        visitor.promotions(single & promotion_rank, push);
        visitor.promotions(to_west & promotion_rank, west);
        visitor.promotions(to_east & promotion_rank, east);
    }

    if E::ON {
        let t = sliders.leapers();
        let ep = board.ep_square;
        let captured = Square::new((ep.to_u8() as i8 - push) as u8);
        for from in t.pawn(S::Other::COLOR, ep) & pawns {
            if en_passant_is_legal::<L, S>(sliders, board, king, from, captured) {
                visitor.en_passant(from);
            }
        }
    }
}

/// Plays the capture on the occupancy and asks whether the king is then attacked: covers
/// pins, checks, and the rank-wide discovered check when both pawns leave the rank.
#[inline(always)]
fn en_passant_is_legal<L: Sliders, S: Side>(
    sliders: L,
    board: &Board,
    king: Square,
    from: Square,
    captured: Square,
) -> bool {
    let occupied = (board.ours::<S>() | board.theirs::<S>())
        .without(from)
        .without(captured)
        .with(board.ep_square);
    let theirs = board.theirs::<S>().without(captured);
    (attackers_of_king_square::<L, S>(sliders, board, king, occupied) & theirs).is_empty()
}

/// The pieces of either side that attack `king`, the square of `S`'s king, through
/// `occupied`: pawns as they attack `S`, so only the opponent's pawns are meant.
#[inline(always)]
pub(super) fn attackers_of_king_square<L: Sliders, S: Side>(
    sliders: L,
    board: &Board,
    king: Square,
    occupied: Bitboard,
) -> Bitboard {
    let t = sliders.leapers();
    let queens = board.roles[QUEEN];
    (sliders.rook(king, occupied) & (board.roles[ROOK] | queens))
        | (sliders.bishop(king, occupied) & (board.roles[BISHOP] | queens))
        | (t.knight(king) & board.roles[KNIGHT])
        | (t.pawn(S::COLOR, king) & board.roles[PAWN])
}

/// Our rooks that may castle and whose castle has nothing between king, rook and their
/// targets: most nodes with castling rights have none, and need no attack set for castling.
#[inline(always)]
fn rooks_with_clear_castling_paths<L: Sliders, S: Side>(
    sliders: L,
    board: &Board,
    king: Square,
    occupied: Bitboard,
) -> Bitboard {
    // The square beside the king towards a castling rook is that rook or must be empty: when
    // pieces other than castling rooks stand on both sides, nothing can castle.
    let beside = sliders.leapers().king(king) & S::BACK_RANK;
    if beside & occupied & !board.castling_rooks == beside {
        return Bitboard::EMPTY;
    }
    // A side with a castling right has its king on its back rank.
    let back_rank_occupied = (occupied.0 >> S::BACK_RANK.0.trailing_zeros()) as u8;
    let mut clear = Bitboard::EMPTY;
    for rook in board.castling_rooks & board.ours::<S>() {
        let files = CastlingSquares::must_be_empty_files(king.file(), rook.file());
        if files & back_rank_occupied == 0 {
            clear = clear.with(rook);
        }
    }
    clear
}

/// Castles of the side to move, which is not in check, with `rooks` (their paths clear), where
/// the opponent attacks the squares of `attacked` among those a castling king passes. Besides
/// those squares, a Chess960 castle must not uncover an attack along the back rank that its own
/// rook blocked (king d1 castling with the rook on b1, their rook on a1).
#[inline(always)]
fn generate_castles<L: Sliders, S: Side, V: Visitor>(
    sliders: L,
    board: &Board,
    visitor: &mut V,
    king: Square,
    rooks: Bitboard,
    attacked: Bitboard,
) {
    let occupied = board.ours::<S>() | board.theirs::<S>();
    let rank_sliders =
        (board.roles[ROOK] | board.roles[QUEEN]) & board.theirs::<S>() & S::BACK_RANK;
    for rook in rooks {
        let squares = CastlingSquares::new(king, rook);
        if (squares.king_path() & attacked).any() {
            continue;
        }
        if rank_sliders.any() {
            let after = occupied.without(king).without(rook).with(squares.rook_to);
            if (sliders.rook(squares.king_to, after) & rank_sliders).any() {
                continue;
            }
        }
        visitor.castle(squares);
    }
}
