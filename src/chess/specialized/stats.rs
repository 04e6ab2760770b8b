//! Perft with the move-type statistics of the last ply ([`LeafStats`], defined as
//! [`MoveStats`](crate::chess::move_stats::MoveStats) defines them), counted in bulk like the
//! plain perft's leaves: a node at depth 1 gets each piece's targets as a set and classifies
//! them with masks computed once per node.
//!
//! - Captures: the targets holding their pieces; pawn captures and pushes come apart.
//! - Direct checks: the targets among the squares from which a piece of the moving role
//!   attacks their king with this node's occupancy. Leaving `from` cannot open the moved
//!   piece's own line to the king: that would take `from` between `to` and the king, a move
//!   along that line away from the king, whose piece then already gave check. A promotion's
//!   new piece is looked up with the occupancy after the move, since the pawn may have
//!   shielded the king from it.
//! - Discovered checks: `from` is the only piece between one of our sliders and their king,
//!   and `to` leaves the line through both (no move crosses the king or the slider).
//! - Checkmates: a checking move is no mate when their king surely has a square to step to
//!   ([`LastPly::king_escapes`], no move made); the others are made and the child searched for
//!   a legal move, which stops after the king's moves when it has one.
//! - Stalemates: only the quiet moves that might kill every witness ([`Witnesses`]) are made
//!   and searched.
//! - Castles and en passant captures (which also change squares other than `from` and `to`)
//!   are made and classified by the child's checkers.

use super::board::{Board, BISHOP, KING, KNIGHT, PAWN, PROMOTIONS, QUEEN, ROOK};
use super::flags::{Flag, No, Side, Yes};
use super::leaf_count::add_leaf_count_ops;
use super::leaf_stats::LeafStats;
use super::lookup::Sliders;
use super::node::{
    attacked_next_to_king, generate, king_safety, origin, Children, Subtree, Visitor,
};
use super::witnesses::{shifted, Witnesses};
use crate::chess::bitboard::Bitboard;
use crate::chess::castling::CastlingSquares;
use crate::chess::square::Square;
use std::marker::PhantomData;

/// Adds to `total` perft of `board` to `depth >= 1` with the statistics of the last moves; as
/// [`perft`](super::node::perft), a node at depth 2 adds its children to the leaf count-ops.
#[inline(always)]
pub fn add_perft_stats<L: Sliders, S: Side, E: Flag, C: Flag>(
    sliders: L,
    board: &Board,
    depth: u32,
    total: &mut LeafStats,
) {
    if depth == 1 {
        let mut last_ply = LastPly::<L, S, C>::new(sliders, board, total);
        generate::<L, S, E, C, _>(sliders, board, &mut last_ply);
        last_ply.stats.nodes += last_ply.nodes;
    } else {
        let mut children = Children::<L, S, C, LeafStats>::new(sliders, board, depth - 1);
        generate::<L, S, E, C, _>(sliders, board, &mut children);
        if depth == 2 {
            add_leaf_count_ops(children.made);
        }
        *total += children.total;
    }
}

impl Subtree for LeafStats {
    #[inline(always)]
    fn add_below<L: Sliders, S: Side, E: Flag, C: Flag>(
        &mut self,
        sliders: L,
        child: &Board,
        depth: u32,
    ) {
        sliders.add_perft_stats::<S, E, C>(child, depth, self);
    }

    /// A call, not inlined: the statistics visitor is large.
    #[inline(always)]
    fn add_last_ply<L: Sliders, S: Side, C: Flag>(&mut self, sliders: L, child: &Board) {
        sliders.add_perft_stats::<S, No, C>(child, 1, self);
    }
}

/// Whether the side to move on `board` has a legal move.
#[inline(always)]
pub fn any_legal_move<L: Sliders, S: Side, E: Flag, C: Flag>(sliders: L, board: &Board) -> bool {
    let mut any = AnyMove(false);
    generate::<L, S, E, C, _>(sliders, board, &mut any);
    any.0
}

/// Whether a legal move was seen.
struct AnyMove(bool);

impl Visitor for AnyMove {
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }

    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _offset: i8) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, _offset: i8) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _offset: i8) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn en_passant(&mut self, _from: Square) {
        self.0 = true;
    }

    #[inline(always)]
    fn castle(&mut self, _squares: CastlingSquares) {
        self.0 = true;
    }
}

/// Classifies the moves of a node at depth 1, `S` to move.
struct LastPly<'a, 't, L, S, C> {
    sliders: L,
    board: &'a Board,
    theirs: Bitboard,
    their_king: Square,
    /// Where a piece of each role checks their king from, with this node's occupancy.
    check_squares: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and their king.
    discoverers: Bitboard,
    /// The squares next to their king that hold none of theirs and that we do not attack,
    /// found for the first checking move.
    escapes: Option<Bitboard>,
    witnesses: Witnesses,
    /// The caller's total, which the moves' statistics are added to.
    stats: &'t mut LeafStats,
    /// The moves, added to the total at the end: a count in a register, not a chain of
    /// additions in memory, each waiting for the last one's write.
    nodes: u64,
    side: PhantomData<(S, C)>,
}

impl<'a, 't, L: Sliders, S: Side, C: Flag> LastPly<'a, 't, L, S, C> {
    #[inline(always)]
    fn new(sliders: L, board: &'a Board, stats: &'t mut LeafStats) -> Self {
        let t = sliders.leapers();
        let ours = board.ours::<S>();
        let theirs = board.theirs::<S>();
        let occupied = ours | theirs;
        let their_king = (board.roles[KING] & theirs).lsb();
        let mut check_squares = [Bitboard::EMPTY; 6];
        check_squares[PAWN] = t.pawn(S::Other::COLOR, their_king);
        check_squares[KNIGHT] = t.knight(their_king);
        check_squares[BISHOP] = sliders.bishop(their_king, occupied);
        check_squares[ROOK] = sliders.rook(their_king, occupied);
        check_squares[QUEEN] = check_squares[BISHOP] | check_squares[ROOK];

        // Our sliders on a line to their king with exactly one piece between (none would be
        // check on the side not to move): ours discovers, theirs is pinned.
        let queens = board.roles[QUEEN];
        let snipers = ((t.rook_rays(their_king) & (board.roles[ROOK] | queens))
            | (t.bishop_rays(their_king) & (board.roles[BISHOP] | queens)))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let between = t.between(their_king, sniper) & occupied;
            if !between.more_than_one() {
                discoverers |= between & ours;
                pinned |= between & theirs;
            }
        }
        LastPly {
            sliders,
            board,
            theirs,
            their_king,
            check_squares,
            discoverers,
            escapes: None,
            witnesses: Witnesses::new::<L, S>(sliders, board, their_king, pinned),
            stats,
            nodes: 0,
            side: PhantomData,
        }
    }

    /// Whether the opponent has a legal move in `child`; `en_passant`: it may take en passant.
    #[inline(always)]
    fn has_reply(&self, child: &Board, en_passant: bool) -> bool {
        let castling = C::ON && child.castling_rooks.any();
        match (en_passant, castling) {
            (false, false) => self.sliders.any_legal_move::<S::Other, No, No>(child),
            (false, true) => self.sliders.any_legal_move::<S::Other, No, Yes>(child),
            (true, false) => self.sliders.any_legal_move::<S::Other, Yes, No>(child),
            (true, true) => self.sliders.any_legal_move::<S::Other, Yes, Yes>(child),
        }
    }

    /// Whether their king, in check after our piece of role `role` moves `from -> to`, has a
    /// square to step to for sure. Our attacks next to their king after the move are those
    /// before it, less what `to` now blocks, plus the moved piece's from `to` and the rays that
    /// leaving `from` uncovers; all with their king taken off the board, so that it cannot step
    /// back along a checking slider's ray. `to` itself, a piece of ours next to their king, may
    /// be defended: it is no escape here.
    #[inline(always)]
    fn king_escapes(&mut self, role: usize, from: Square, to: Square) -> bool {
        let t = self.sliders.leapers();
        let board = self.board;
        let (sliders, their_king) = (self.sliders, self.their_king);
        let escapes = *self.escapes.get_or_insert_with(|| {
            t.king(their_king)
                & !board.theirs::<S>()
                & !attacked_next_to_king::<L, S::Other>(sliders, board, their_king)
        });
        let escapes = escapes.without(to);
        if escapes.is_empty() {
            return false;
        }
        let occupied = (board.ours::<S>() | self.theirs)
            .without(from)
            .with(to)
            .without(their_king);
        let mut attacked = match role {
            PAWN => t.pawn(S::COLOR, to),
            KNIGHT => t.knight(to),
            BISHOP => sliders.bishop(to, occupied),
            ROOK => sliders.rook(to, occupied),
            QUEEN => sliders.bishop(to, occupied) | sliders.rook(to, occupied),
            _ => t.king(to),
        };
        if (escapes & (t.bishop_rays(from) | t.rook_rays(from))).any() {
            let ours = board.ours::<S>().without(from);
            let queens = board.roles[QUEEN];
            let straight = sliders.rook(from, occupied);
            if (straight & (board.roles[ROOK] | queens) & ours).any() {
                attacked |= straight;
            }
            let diagonal = sliders.bishop(from, occupied);
            if (diagonal & (board.roles[BISHOP] | queens) & ours).any() {
                attacked |= diagonal;
            }
        }
        (escapes & !attacked).any()
    }

    /// Our pawn moves from `to - offset` onto `targets` that uncover a check:
    /// those whose origin discovers and whose target leaves the line.
    #[inline(always)]
    fn discovered_by_pawns(&self, targets: Bitboard, offset: i8) -> Bitboard {
        let t = self.sliders.leapers();
        let mut discovered = Bitboard::EMPTY;
        for to in targets & shifted(self.discoverers, offset) {
            if !t.line(self.their_king, origin(to, offset)).contains(to) {
                discovered = discovered.with(to);
            }
        }
        discovered
    }

    /// Adds moves of a piece that lands as role `role` to `targets` (`captures` of them
    /// captures), of which `direct` give check with the moved piece and `discovered` with
    /// another, and tests for mate the checking ones and for stalemate the quiet ones among
    /// `unproven`; `from` gives a target's origin, and `make` makes the move to a target and
    /// says whether the opponent may then take en passant.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn last_moves(
        &mut self,
        role: usize,
        from: impl Fn(Square) -> Square,
        targets: Bitboard,
        captures: u32,
        direct: Bitboard,
        discovered: Bitboard,
        unproven: Bitboard,
        make: impl Fn(Square) -> (Board, bool),
    ) {
        let checking = direct | discovered;
        let stats = &mut *self.stats;
        self.nodes += u64::from(targets.count());
        stats.captures += u64::from(captures);
        stats.checks += u64::from(checking.count());
        stats.double_checks += u64::from((direct & discovered).count());
        stats.discovered_checks += u64::from((discovered & !direct).count());
        for to in checking {
            if self.king_escapes(role, from(to), to) {
                continue;
            }
            let (child, en_passant) = make(to);
            if !self.has_reply(&child, en_passant) {
                self.stats.checkmates += 1;
            }
        }
        for to in targets & !checking & unproven {
            let (child, en_passant) = make(to);
            if !self.has_reply(&child, en_passant) {
                self.stats.stalemates += 1;
            }
        }
    }

    /// A move that changes squares besides `from` and `to`, classified by the child's
    /// checkers; `moved_to`: where the piece that moved (for a castle, the rook) landed.
    #[inline(always)]
    fn made(&mut self, child: &Board, moved_to: Square) {
        let checkers = king_safety::<L, S::Other>(self.sliders, child, self.their_king).checkers;
        let check = checkers.any();
        let double = checkers.more_than_one();
        let stats = &mut *self.stats;
        self.nodes += 1;
        stats.checks += u64::from(check);
        stats.double_checks += u64::from(double);
        stats.discovered_checks += u64::from(check && !double && !checkers.contains(moved_to));
        if !self.has_reply(child, false) {
            if check {
                self.stats.checkmates += 1;
            } else {
                self.stats.stalemates += 1;
            }
        }
    }

    /// Pawn moves (pushes, captures, double pushes) onto `targets` from `to - offset`.
    #[inline(always)]
    fn pawn_batch(
        &mut self,
        targets: Bitboard,
        offset: i8,
        make: impl Fn(Square) -> (Board, bool),
    ) {
        let captures = if offset == S::PUSH || offset == 2 * S::PUSH {
            0
        } else {
            targets.count()
        };
        let direct = targets & self.check_squares[PAWN];
        let discovered = self.discovered_by_pawns(targets, offset);
        let unproven = self.witnesses.unproven_pawn_moves(offset);
        let from = |to| origin(to, offset);
        self.last_moves(
            PAWN, from, targets, captures, direct, discovered, unproven, make,
        );
    }
}

impl<L: Sliders, S: Side, C: Flag> Visitor for LastPly<'_, '_, L, S, C> {
    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, from: Square, targets: Bitboard) {
        let t = self.sliders.leapers();
        let direct = targets & self.check_squares[ROLE];
        let discovered = if self.discoverers.contains(from) {
            targets & !t.line(self.their_king, from)
        } else {
            Bitboard::EMPTY
        };
        let captures = (targets & self.theirs).count();
        let unproven = self.witnesses.unproven(ROLE, from);
        let board = self.board;
        let origin = |_| from;
        self.last_moves(
            ROLE,
            origin,
            targets,
            captures,
            direct,
            discovered,
            unproven,
            |to| (board.moved::<S, C, ROLE>(from, to), false),
        );
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8) {
        let board = self.board;
        self.pawn_batch(targets, offset, |to| {
            (board.moved::<S, C, PAWN>(origin(to, offset), to), false)
        });
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, offset: i8) {
        let board = self.board;
        self.pawn_batch(targets, offset, |to| {
            board.double_pushed::<S>(origin(to, offset), to)
        });
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i8) {
        let t = self.sliders.leapers();
        let board = self.board;
        let occupied = board.ours::<S>() | self.theirs;
        let captures = u32::from(offset != S::PUSH);
        for to in targets {
            let from = origin(to, offset);
            let after = occupied.without(from).with(to);
            let target = Bitboard::from_square(to);
            let discovered = self.discovered_by_pawns(target, offset);
            for role in PROMOTIONS {
                let attacks = match role {
                    KNIGHT => t.knight(to),
                    BISHOP => self.sliders.bishop(to, after),
                    ROOK => self.sliders.rook(to, after),
                    _ => self.sliders.bishop(to, after) | self.sliders.rook(to, after),
                };
                let direct = if attacks.contains(self.their_king) {
                    target
                } else {
                    Bitboard::EMPTY
                };
                self.stats.promotions += 1;
                let unproven = self.witnesses.unproven(role, from);
                let origin = |_| from;
                self.last_moves(
                    role,
                    origin,
                    target,
                    captures,
                    direct,
                    discovered,
                    unproven,
                    |to| (board.promoted::<S, C>(from, to, role), false),
                );
            }
        }
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square) {
        let child = self.board.en_passant::<S>(from);
        self.stats.en_passant += 1;
        self.stats.captures += 1;
        self.made(&child, self.board.ep_square);
    }

    #[inline(always)]
    fn castle(&mut self, squares: CastlingSquares) {
        let child = self.board.castled::<S>(squares);
        self.stats.castles += 1;
        self.made(&child, squares.rook_to);
    }
}
