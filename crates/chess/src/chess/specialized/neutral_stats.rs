//! Statistics without making at the penultimate ply, as [`super::null_replies`] counts: at a
//! node two plies above the leaves, the last ply of the null board (the turn passed) is
//! classified once, and every move of ours that leaves each reply's statistics as they are
//! there adds them without being made. The others are made and their last ply classified.
//!
//! A move of ours from `f` to `t` keeps every reply's statistics when, besides being neutral
//! (the same legal replies, move for move), the following hold. "Our king" is the mover's; a
//! *live line* is a line (rank, file or diagonal) through our king on which a bishop, rook or
//! queen of theirs that checks along it could stand after one reply: one that holds such a
//! slider or a square it attacks (a queen's straight move may land on a diagonal), their back
//! rank while they may castle, our back rank while a pawn of theirs may promote.
//!
//! 1. Neither `f` nor `t` is on a live line. A reply's checkers are the pieces of theirs that
//!    attack our king after it: a knight's, pawn's or king's attack does not depend on the
//!    occupancy, and a slider's runs along a live line, so the checkers, and with them each
//!    check's kind, are those of the null board's reply. A reply takes one of our pieces on
//!    the null board iff it does after the move: no reply lands on `f` or `t` (neutral rule 3).
//!    En passant (none on either board), castles and promotions are the reply's own.
//! 2. No reply on the null board gives check. Then none does after the move, and none mates.
//! 3. Four of our pieces are *free*: off every live line, so never pinned after one reply,
//!    and each a pawn with an empty square ahead short of the last rank (where a castle could
//!    land both of its pieces) or a knight, bishop, rook or queen with two squares that hold
//!    none of ours among those next to it along its moves (a knight: its targets). Our move
//!    takes at most two of them away (the piece that moves, and a pawn whose square ahead it
//!    fills; a piece keeps one of its two squares), a reply at most one (it takes one, or fills
//!    a pawn's square ahead; a square of theirs is a capture). So after any reply that gives no
//!    check one of them has a legal move: no reply stalemates.
//!
//! 2 and 3 are asked of the node, 1 of each move. They hold at most quiet nodes of the opening
//! (half the moves at depth 2 of the start position's perft 5), rarely where checks abound.

use super::board::{Board, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use super::flags::{Flag, No, Side};
use super::leaf_count::{add_leaf_count_ops, add_null_counted};
use super::leaf_stats::LeafStats;
use super::lookup::Sliders;
use super::node::{generate, Children};
use super::null_replies::{avoid, in_check, null_replies, Avoid, Ignore, NeutralSplit};
use crate::chess::bitboard::Bitboard;
use crate::chess::square::Square;

/// Adds to `total` perft of `board` to depth 2 with the statistics of the last moves: the
/// moves that keep the null board's statistics counted by them, the others made.
#[inline(always)]
pub fn add_perft_two_stats<L: Sliders, S: Side, E: Flag, C: Flag>(
    sliders: L,
    board: &Board,
    total: &mut LeafStats,
) {
    let mut children = Children::<L, S, C, LeafStats>::new(sliders, board, 1);
    let Some((null_stats, avoid)) = node_rules::<L, S, C>(sliders, board) else {
        generate::<L, S, E, C, _>(sliders, board, &mut children);
        add_leaf_count_ops(children.made);
        *total += children.total;
        return;
    };
    let mut split = NeutralSplit::<S, _, _>::new(board, children, avoid, 0u64);
    generate::<L, S, E, C, _>(sliders, board, &mut split);
    add_leaf_count_ops(split.others.made);
    add_null_counted(split.neutral);
    *total += split.others.total;
    total.add_times(null_stats, split.neutral);
}

/// The moves of `board`, `S` to move, that keep the null board's last-ply statistics, handed
/// to a list; `None` where rule 2 or 3 fails or `S` is in check, and every move is made.
pub(super) fn list_stats_neutral<L: Sliders, S: Side, E: Flag, C: Flag>(
    sliders: L,
    board: &Board,
) -> Option<Vec<(Square, Square)>> {
    let (_, avoid) = node_rules::<L, S, C>(sliders, board)?;
    let mut split = NeutralSplit::<S, _, _>::new(board, Ignore, avoid, Vec::new());
    generate::<L, S, E, C, _>(sliders, board, &mut split);
    Some(split.neutral)
}

/// Where `S` is not in check and rules 2 and 3 of the module's doc hold, the null board's
/// last-ply statistics and the squares a move's origin and target must avoid: the neutral
/// rules' and the live lines.
#[inline(always)]
fn node_rules<L: Sliders, S: Side, C: Flag>(
    sliders: L,
    board: &Board,
) -> Option<(LeafStats, Avoid)> {
    if in_check::<L, S>(sliders, board) {
        return None;
    }
    let lines = live_king_lines::<L, S, C>(sliders, board);
    if !keeps_a_move::<L, S>(sliders, board, lines) {
        return None;
    }
    let mut null_stats = LeafStats::default();
    sliders.add_last_ply_stats::<S::Other, No, C>(board, &mut null_stats);
    if null_stats.checks.iter().any(|&checks| checks > 0) {
        return None;
    }
    debug_assert_eq!(null_stats.stalemates, 0);
    let replies = null_replies::<L, S, C>(sliders, board);
    debug_assert_eq!(replies.count, null_stats.nodes);
    let mut avoid = avoid::<L, S, C>(sliders, board, replies.targets);
    avoid.knight |= lines;
    avoid.slider |= lines;
    avoid.pawn |= lines;
    Some((null_stats, avoid))
}

/// The lines (ranks, files, diagonals) through the king of `S` on which a bishop, rook or
/// queen of theirs that could check along it may stand after one reply: the squares of their
/// sliders and every square each attacks (a queen's straight move may land on a diagonal),
/// their back rank while they may castle, and our back rank while a pawn of theirs may promote.
#[inline(always)]
fn live_king_lines<L: Sliders, S: Side, C: Flag>(sliders: L, board: &Board) -> Bitboard {
    let t = sliders.leapers();
    let theirs = board.theirs::<S>();
    let occupied = board.ours::<S>() | theirs;
    let king = (board.roles[KING] & board.ours::<S>()).lsb();
    let mut diagonal = Bitboard::EMPTY;
    let mut straight = Bitboard::EMPTY;
    for from in board.roles[BISHOP] & theirs {
        diagonal |= sliders.bishop(from, occupied).with(from);
    }
    for from in board.roles[ROOK] & theirs {
        straight |= sliders.rook(from, occupied).with(from);
    }
    for from in board.roles[QUEEN] & theirs {
        let reach = (sliders.bishop(from, occupied) | sliders.rook(from, occupied)).with(from);
        diagonal |= reach;
        straight |= reach;
    }
    if C::ON && (board.castling_rooks & theirs).any() {
        straight |= S::Other::BACK_RANK;
    }
    if (S::Other::forward(board.roles[PAWN] & theirs) & S::BACK_RANK).any() {
        diagonal |= S::BACK_RANK;
        straight |= S::BACK_RANK;
    }
    let mut live = Bitboard::EMPTY;
    for next in t.king(king) {
        let line = t.line(king, next);
        let presence = if t.bishop_rays(king).contains(next) {
            diagonal
        } else {
            straight
        };
        if (line & presence).any() {
            live |= line;
        }
    }
    live
}

/// Rule 3 of the module's doc: `S` has four free pieces.
#[inline(always)]
fn keeps_a_move<L: Sliders, S: Side>(sliders: L, board: &Board, lines: Bitboard) -> bool {
    let t = sliders.leapers();
    let ours = board.ours::<S>();
    let empty = !(ours | board.theirs::<S>());
    let free = ours & !lines;
    let mut found = (S::forward(free & board.roles[PAWN]) & empty & !S::Other::BACK_RANK).count();
    for square in free & board.roles[KNIGHT] {
        found += u32::from((t.knight(square) & !ours).more_than_one());
    }
    for square in free & (board.roles[BISHOP] | board.roles[ROOK] | board.roles[QUEEN]) {
        let steps = if board.roles[BISHOP].contains(square) {
            t.king(square) & t.bishop_rays(square)
        } else if board.roles[ROOK].contains(square) {
            t.king(square) & t.rook_rays(square)
        } else {
            t.king(square)
        };
        found += u32::from((steps & !ours).more_than_one());
    }
    found >= 4
}
