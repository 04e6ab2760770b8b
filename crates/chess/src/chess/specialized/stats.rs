//! Perft with the move-type statistics of the last ply ([`LeafStats`], defined as
//! [`MoveStat`](crate::chess::move_stat::MoveStat) defines them), counted in bulk like the
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
//!   ([`LastPlyNode::king_escapes`], no move made); the others are made and the child searched
//!   for a legal move, which stops after the king's moves when it has one.
//! - Stalemates: only the quiet moves that might kill every witness ([`Witnesses`]) are made
//!   and searched.
//! - Castles and en passant captures (which also change squares other than `from` and `to`)
//!   are made and classified by the child's checkers; a castle that a witness surely survives
//!   is not searched for a reply.
//!
//! The loops the generator inlines only count moves and captures and, with a few masks, find a
//! superset of the moves that need more (checks, quiet moves that might stalemate); those are
//! [`Deferred`] to a function called out of line, which classifies them exactly. The node at
//! depth 1 is a function of its own ([`Sliders::add_last_ply_stats`]), as the plain leaf count
//! is: inlined into the recursion its code, and the deeper nodes' around it, ran slower.

use super::board::{Board, BISHOP, KING, KNIGHT, PAWN, PROMOTIONS, QUEEN, ROOK};
use super::flags::{Flag, No, Side, Yes};
use super::leaf_stats::LeafStats;
use super::lookup::{OutOfLine, Sliders};
use super::neutral_stats::add_perft_two_stats;
use super::node::{
    attacked_next_to_king, generate, king_safety, origin, Children, Subtree, Visitor,
};
use super::witnesses::{shifted, Witnesses};
use crate::chess::bitboard::Bitboard;
use crate::chess::castling::CastlingSquares;
use crate::chess::move_stat::CheckKind;
use crate::chess::square::Square;
use std::marker::PhantomData;

/// Adds to `total` perft of `board` to `depth >= 1` with the statistics of the last moves; as
/// [`perft`](super::recursion::perft), a node at depth 2 counts the moves that keep its null
/// board's statistics without making them ([`super::neutral_stats`]).
#[inline(always)]
pub fn add_perft_stats<L: Sliders, S: Side, E: Flag, C: Flag>(
    sliders: L,
    board: &Board,
    depth: u32,
    total: &mut LeafStats,
) {
    if depth == 1 {
        sliders.add_last_ply_stats::<S, E, C>(board, total);
    } else if depth == 2 {
        add_perft_two_stats::<L, S, E, C>(sliders, board, total);
    } else {
        let mut children = Children::<L, S, C, LeafStats>::new(sliders, board, depth - 1);
        generate::<L, S, E, C, _>(sliders, board, &mut children);
        *total += children.total;
    }
}

/// Adds to `total` the moves of `board` and the statistics of each: perft to depth 1.
#[inline(always)]
pub fn add_last_ply_stats<L: Sliders, S: Side, E: Flag, C: Flag>(
    sliders: L,
    board: &Board,
    total: &mut LeafStats,
) {
    let mut last_ply = LastPly::<L, S, C>::new(sliders, board, total);
    generate::<L, S, E, C, _>(sliders, board, &mut last_ply);
    last_ply.finish();
}

impl Subtree for LeafStats {
    /// As for `u64`, a child at depth 1 goes straight to the last ply's function.
    #[inline(always)]
    fn add_below<L: Sliders, S: Side, E: Flag, C: Flag>(
        &mut self,
        sliders: L,
        child: &Board,
        depth: u32,
    ) {
        match depth {
            1 => sliders.add_last_ply_stats::<S, E, C>(child, self),
            _ => sliders.add_perft_stats::<S, E, C>(child, depth, self),
        }
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

/// The moves of a node at depth 1 whose classification needs a child made: checking moves (is
/// it mate?), quiet moves that might stalemate, and the rare kinds of move. The generator's
/// loops hand them to [`LastPlyNode::settle`] by a call rather than inline it: in the common
/// case a piece's moves cost a few masks and popcounts, and the loops stay small.
#[derive(Clone, Copy)]
enum Deferred {
    /// `mover`'s moves onto `suspects`: a superset of those that give check and of the quiet
    /// ones that might stalemate, classified exactly here.
    Moves {
        mover: Mover,
        suspects: Bitboard,
    },
    /// Promotions onto `targets` from `to - offset`, classified whole here.
    Promotions {
        targets: Bitboard,
        offset: i8,
    },
    EnPassant {
        from: Square,
    },
    Castle {
        squares: CastlingSquares,
    },
}

/// How a deferred move is made: the piece that lands on its target, and where it comes from.
#[derive(Clone, Copy)]
enum Mover {
    /// The piece of role `role` (knight to king) on `from`.
    Piece {
        role: usize,
        from: Square,
    },
    /// A pawn from `to - offset` that does not promote.
    Pawn {
        offset: i8,
    },
    DoublePush {
        offset: i8,
    },
    /// A pawn from `to - offset` that lands as `role`.
    Promotion {
        role: usize,
        offset: i8,
    },
}

impl Mover {
    #[inline(always)]
    fn role(self) -> usize {
        match self {
            Mover::Piece { role, .. } | Mover::Promotion { role, .. } => role,
            Mover::Pawn { .. } | Mover::DoublePush { .. } => PAWN,
        }
    }

    #[inline(always)]
    fn origin(self, to: Square) -> Square {
        match self {
            Mover::Piece { from, .. } => from,
            Mover::Pawn { offset }
            | Mover::DoublePush { offset }
            | Mover::Promotion { offset, .. } => origin(to, offset),
        }
    }
}

/// What a node at depth 1, `S` to move, knows of its moves' effect on their king, found once.
struct LastPlyNode<'a, L, S, C> {
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
    side: PhantomData<(S, C)>,
}

impl<'a, L: Sliders, S: Side, C: Flag> LastPlyNode<'a, L, S, C> {
    #[inline(always)]
    fn new(sliders: L, board: &'a Board) -> Self {
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
        LastPlyNode {
            sliders,
            board,
            theirs,
            their_king,
            check_squares,
            discoverers,
            escapes: None,
            witnesses: Witnesses::new::<L, S>(sliders, board, their_king, pinned),
            side: PhantomData,
        }
    }

    /// Adds to `stats` what the generator's loops left of `deferred`'s moves: checks, checkmates
    /// and stalemates, and everything of promotions, en passant captures and castles.
    #[inline(always)]
    fn settle(&mut self, deferred: Deferred, stats: &mut LeafStats) {
        match deferred {
            Deferred::Moves { mover, suspects } => {
                let (direct, discovered, quiet) = self.classify_exactly(mover, suspects);
                add_checks(stats, direct, discovered);
                self.test_endings(mover, direct, discovered, quiet, stats);
            }
            Deferred::Promotions { targets, offset } => self.promotions(targets, offset, stats),
            Deferred::EnPassant { from } => {
                let child = self.board.en_passant::<S>(from);
                stats.en_passant += 1;
                stats.captures += 1;
                self.made(&child, self.board.ep_square, false, stats);
            }
            Deferred::Castle { squares } => {
                let child = self.board.castled::<S>(squares);
                stats.castles += 1;
                let landing = Bitboard::from_square(squares.king_to).with(squares.rook_to);
                let survivor = self.witnesses.survive_landing(landing);
                self.made(&child, squares.rook_to, survivor, stats);
            }
        }
    }

    /// Tests `mover`'s checking moves (to `direct`, given by the moved piece, and to
    /// `discovered`, by another) for mate and its moves to `quiet` for stalemate.
    #[inline(always)]
    fn test_endings(
        &mut self,
        mover: Mover,
        direct: Bitboard,
        discovered: Bitboard,
        quiet: Bitboard,
        stats: &mut LeafStats,
    ) {
        for to in direct | discovered {
            if self.king_escapes(mover.role(), mover.origin(to), to) {
                continue;
            }
            let (child, en_passant) = self.make(mover, to);
            if !self.has_reply(&child, en_passant) {
                let moved_piece_checks = direct.contains(to);
                let double = moved_piece_checks && discovered.contains(to);
                let kind = CheckKind::of(double, moved_piece_checks);
                stats.mates[kind as usize] += 1;
            }
        }
        for to in quiet {
            let (child, en_passant) = self.make(mover, to);
            if !self.has_reply(&child, en_passant) {
                stats.stalemates += 1;
            }
        }
    }

    /// The child after `mover` goes to `to`, and whether the opponent may then take en
    /// passant.
    #[inline(always)]
    fn make(&self, mover: Mover, to: Square) -> (Board, bool) {
        let board = self.board;
        match mover {
            Mover::Piece { role, from } => {
                let child = match role {
                    KNIGHT => board.moved::<S, C, KNIGHT>(from, to),
                    BISHOP => board.moved::<S, C, BISHOP>(from, to),
                    ROOK => board.moved::<S, C, ROOK>(from, to),
                    QUEEN => board.moved::<S, C, QUEEN>(from, to),
                    _ => board.moved::<S, C, KING>(from, to),
                };
                (child, false)
            }
            Mover::Pawn { offset } => (board.moved::<S, C, PAWN>(origin(to, offset), to), false),
            Mover::DoublePush { offset } => board.double_pushed::<S>(origin(to, offset), to),
            Mover::Promotion { role, offset } => {
                (board.promoted::<S, C>(origin(to, offset), to, role), false)
            }
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

    /// Of `mover`'s moves onto `suspects`, those that give check with the moved piece (`direct`),
    /// those that give check with another (`from` alone between one of our sliders and their
    /// king, `to` off the line through both), and the quiet ones after which no witness is known
    /// to survive.
    #[inline(always)]
    fn classify_exactly(&self, mover: Mover, suspects: Bitboard) -> (Bitboard, Bitboard, Bitboard) {
        let t = self.sliders.leapers();
        let (direct, discovered, unproven) = match mover {
            Mover::Piece { role, from } => {
                let discovered = if self.discoverers.contains(from) {
                    suspects & !t.line(self.their_king, from)
                } else {
                    Bitboard::EMPTY
                };
                let unproven = self.witnesses.unproven(role, from);
                (suspects & self.check_squares[role], discovered, unproven)
            }
            Mover::Pawn { offset } | Mover::DoublePush { offset } => (
                suspects & self.check_squares[PAWN],
                self.discovered_by_pawns(suspects, offset),
                self.witnesses.unproven_pawn_moves(offset),
            ),
            Mover::Promotion { .. } => unreachable!("promotions are classified whole"),
        };
        let quiet = suspects & !(direct | discovered) & unproven;
        (direct, discovered, quiet)
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

    /// Promotions onto `targets` from `to - offset`, four moves each, counted by set. Where the
    /// pawn's square is on no line through their king, leaving it changes nothing between
    /// `to` and the king and uncovers no slider: the new piece checks exactly from its role's
    /// check squares. The others are classified one by one.
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i8, stats: &mut LeafStats) {
        let t = self.sliders.leapers();
        let moves = 4 * u64::from(targets.count());
        stats.nodes += moves;
        stats.promotions += moves;
        if offset != S::PUSH {
            stats.captures += moves;
        }
        let king_lines = t.bishop_rays(self.their_king) | t.rook_rays(self.their_king);
        let aligned = targets & shifted(king_lines, offset);
        for to in aligned {
            self.aligned_promotions(to, offset, stats);
        }
        let unaligned = targets & !aligned;
        if unaligned.is_empty() {
            return;
        }
        for role in PROMOTIONS {
            let direct = unaligned & self.check_squares[role];
            add_checks(stats, direct, Bitboard::EMPTY);
            let mut quiet = Bitboard::EMPTY;
            if self.witnesses.may_stalemate() {
                for to in unaligned & !direct {
                    if self
                        .witnesses
                        .unproven(role, origin(to, offset))
                        .contains(to)
                    {
                        quiet = quiet.with(to);
                    }
                }
            }
            if (direct | quiet).any() {
                let mover = Mover::Promotion { role, offset };
                self.test_endings(mover, direct, Bitboard::EMPTY, quiet, stats);
            }
        }
    }

    /// The four promotions onto `to` from `to - offset`, a square on a line through their
    /// king: the new piece is looked up with the occupancy after the move, since the pawn may
    /// have shielded the king from it.
    #[inline(always)]
    fn aligned_promotions(&mut self, to: Square, offset: i8, stats: &mut LeafStats) {
        let t = self.sliders.leapers();
        let occupied = self.board.ours::<S>() | self.theirs;
        let from = origin(to, offset);
        let after = occupied.without(from).with(to);
        let target = Bitboard::from_square(to);
        let discovered = self.discovered_by_pawns(target, offset);
        let diagonal = self.sliders.bishop(to, after);
        let straight = self.sliders.rook(to, after);
        for role in PROMOTIONS {
            let attacks = match role {
                KNIGHT => t.knight(to),
                BISHOP => diagonal,
                ROOK => straight,
                _ => diagonal | straight,
            };
            let direct = if attacks.contains(self.their_king) {
                target
            } else {
                Bitboard::EMPTY
            };
            add_checks(stats, direct, discovered);
            let mover = Mover::Promotion { role, offset };
            if (direct | discovered).any() {
                self.test_endings(mover, direct, discovered, Bitboard::EMPTY, stats);
            } else {
                let quiet = self.witnesses.unproven(role, from) & target;
                self.test_endings(mover, Bitboard::EMPTY, Bitboard::EMPTY, quiet, stats);
            }
        }
    }

    /// A move that changes squares besides `from` and `to`, classified by the child's
    /// checkers; `moved_to`: where the piece that moved (for a castle, the rook) landed;
    /// `survivor`: a witness survives the move, so that it is no stalemate.
    #[inline(always)]
    fn made(&self, child: &Board, moved_to: Square, survivor: bool, stats: &mut LeafStats) {
        let checkers = king_safety::<L, S::Other>(self.sliders, child, self.their_king).checkers;
        let check = checkers.any();
        let kind = CheckKind::of(checkers.more_than_one(), checkers.contains(moved_to));
        stats.nodes += 1;
        if check {
            stats.checks[kind as usize] += 1;
        }
        if (check || !survivor) && !self.has_reply(child, false) {
            if check {
                stats.mates[kind as usize] += 1;
            } else {
                stats.stalemates += 1;
            }
        }
    }
}

/// A node's deferred moves, settled out of line into `stats`.
struct Settle<'n, 'a, 's, L, S, C> {
    node: &'n mut LastPlyNode<'a, L, S, C>,
    deferred: Deferred,
    stats: &'s mut LeafStats,
}

impl<L: Sliders, S: Side, C: Flag> OutOfLine for Settle<'_, '_, '_, L, S, C> {
    #[inline(always)]
    fn run(&mut self) {
        self.node.settle(self.deferred, self.stats);
    }
}

/// Adds the checks of moves to `direct | discovered`, mates included: `direct` give check with
/// the moved piece, `discovered` with another (both: a direct discovered check). A move that is
/// neither castle nor en passant uncovers at most one line: no double discovered check.
#[inline(always)]
fn add_checks(stats: &mut LeafStats, direct: Bitboard, discovered: Bitboard) {
    stats.checks[CheckKind::Direct as usize] += u64::from((direct & !discovered).count());
    stats.checks[CheckKind::SingleDiscovered as usize] += u64::from((discovered & !direct).count());
    stats.checks[CheckKind::DirectDiscovered as usize] += u64::from((direct & discovered).count());
}

/// Classifies the moves of a node at depth 1 as the generator finds them: moves and captures
/// counted here, the few that may give check or stalemate deferred to [`LastPlyNode::settle`].
struct LastPly<'a, 't, L, S, C> {
    node: LastPlyNode<'a, L, S, C>,
    /// The moves counted here in the low 32 bits, the captures among them in the high 32: one
    /// register for both (a node has at most 218 moves).
    moves_and_captures: u64,
    /// The caller's total, which the deferred moves add to as they are settled.
    total: &'t mut LeafStats,
}

impl<'a, 't, L: Sliders, S: Side, C: Flag> LastPly<'a, 't, L, S, C> {
    #[inline(always)]
    fn new(sliders: L, board: &'a Board, total: &'t mut LeafStats) -> Self {
        LastPly {
            node: LastPlyNode::new(sliders, board),
            moves_and_captures: 0,
            total,
        }
    }

    /// Adds the moves and captures counted in registers to the total.
    #[inline(always)]
    fn finish(self) {
        self.total.nodes += self.moves_and_captures & u64::from(u32::MAX);
        self.total.captures += self.moves_and_captures >> 32;
    }

    /// Out of line: see [`Deferred`].
    #[inline(always)]
    fn defer(&mut self, deferred: Deferred) {
        let sliders = self.node.sliders;
        sliders.out_of_line(&mut Settle {
            node: &mut self.node,
            deferred,
            stats: self.total,
        });
    }

    /// Adds `mover`'s moves to `targets` (`captures` of them captures) and defers those onto
    /// `suspects`.
    #[inline(always)]
    fn classify(&mut self, mover: Mover, targets: Bitboard, captures: u32, suspects: Bitboard) {
        self.moves_and_captures += u64::from(targets.count()) | u64::from(captures) << 32;
        if suspects.any() {
            self.defer(Deferred::Moves { mover, suspects });
        }
    }

    /// Pawn moves (pushes, captures, double pushes) onto `targets` from `to - offset`.
    #[inline(always)]
    fn pawn_batch(&mut self, mover: Mover, targets: Bitboard, offset: i8) {
        let node = &self.node;
        let captures = if offset == S::PUSH || offset == 2 * S::PUSH {
            0
        } else {
            targets.count()
        };
        let suspects = node.check_squares[PAWN]
            | shifted(node.discoverers, offset)
            | node.witnesses.unproven_pawn_moves_superset();
        self.classify(mover, targets, captures, targets & suspects);
    }
}

impl<L: Sliders, S: Side, C: Flag> Visitor for LastPly<'_, '_, L, S, C> {
    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, from: Square, targets: Bitboard) {
        let node = &self.node;
        let discoverer = if node.discoverers.contains(from) {
            Bitboard::ALL
        } else {
            Bitboard::EMPTY
        };
        let suspects =
            node.check_squares[ROLE] | discoverer | node.witnesses.unproven_superset(ROLE, from);
        let captures = (targets & node.theirs).count();
        let mover = Mover::Piece { role: ROLE, from };
        self.classify(mover, targets, captures, targets & suspects);
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8) {
        self.pawn_batch(Mover::Pawn { offset }, targets, offset);
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, offset: i8) {
        self.pawn_batch(Mover::DoublePush { offset }, targets, offset);
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i8) {
        if targets.any() {
            self.defer(Deferred::Promotions { targets, offset });
        }
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square) {
        self.defer(Deferred::EnPassant { from });
    }

    #[inline(always)]
    fn castle(&mut self, squares: CastlingSquares) {
        self.defer(Deferred::Castle { squares });
    }
}
