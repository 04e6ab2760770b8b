//! What the node function needs of a slider lookup; the lookups themselves, and their unsafe
//! code, are in [`super::sliders`], which compiles the node function for each.

use super::board::Board;
use super::flags::{Flag, Side};
use super::leaf_stats::LeafStats;
use super::stats::{Deferred, LastPlyNode};
use super::tables::{Leapers, SliderSquare};
use crate::chess::bitboard::Bitboard;
use crate::chess::square::Square;

/// Slider lookups and the attack tables the generator reads, and the node function compiled
/// for them.
pub trait Sliders: Copy {
    fn leapers(self) -> &'static Leapers;
    /// Where `occupied`'s attack set lies among `square`'s: below `2^popcount(square.mask)`.
    fn index(square: &SliderSquare, occupied: Bitboard) -> usize;
    /// Perft of `board` to `depth >= 1`, by [`perft`](super::node::perft) compiled for these
    /// lookups.
    fn perft<S: Side, E: Flag, C: Flag>(self, board: &Board, depth: u32) -> u64;
    /// Adds to `total` perft of `board` to `depth >= 1` with the statistics of the last moves,
    /// by [`add_perft_stats`](super::stats::add_perft_stats) compiled for these lookups.
    fn add_perft_stats<S: Side, E: Flag, C: Flag>(
        self,
        board: &Board,
        depth: u32,
        total: &mut LeafStats,
    );
    /// Whether the side to move on `board` has a legal move, by
    /// [`any_legal_move`](super::stats::any_legal_move) compiled for these lookups.
    fn any_legal_move<S: Side, E: Flag, C: Flag>(self, board: &Board) -> bool;
    /// [`LastPlyNode::settle`] compiled for these lookups, out of line.
    fn settle_last_moves<S: Side, C: Flag>(
        self,
        node: &mut LastPlyNode<'_, Self, S, C>,
        deferred: Deferred,
        stats: &mut LeafStats,
    );
    /// The squares a rook on `sq` attacks with `occupied`.
    fn rook(self, sq: Square, occupied: Bitboard) -> Bitboard;
    /// The squares a bishop on `sq` attacks with `occupied`.
    fn bishop(self, sq: Square, occupied: Bitboard) -> Bitboard;
}
