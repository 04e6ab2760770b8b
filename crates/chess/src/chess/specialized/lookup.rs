//! What the node function needs of a slider lookup; the lookups themselves, and their unsafe
//! code, are in [`super::sliders`], which compiles the node function for each.

use super::board::Board;
use super::flags::{Flag, Side};
use super::leaf_stats::LeafStats;
use super::tables::{Leapers, SliderSquare};
use crate::chess::bitboard::Bitboard;
use crate::chess::square::Square;

/// Slider lookups and the attack tables the generator reads, and the node function compiled
/// for them.
pub trait Sliders: Copy {
    fn leapers(self) -> &'static Leapers;
    /// Where `occupied`'s attack set lies among `square`'s: below `2^popcount(square.mask)`.
    fn index(square: &SliderSquare, occupied: Bitboard) -> usize;
    /// Perft of `board` to `depth >= 1`, by [`perft`](super::recursion::perft) compiled for these
    /// lookups.
    fn perft<S: Side, E: Flag, C: Flag>(self, board: &Board, depth: u32) -> u64;
    /// The number of legal moves on `board`, by [`leaf_count`](super::node::leaf_count)
    /// compiled for these lookups in a function of its own: small enough that the loops of
    /// a depth-2 node and the leaf count they call stay in the instruction cache together.
    fn leaf_count<S: Side, E: Flag, C: Flag>(self, board: &Board) -> u64;
    /// Adds to `total` perft of `board` to `depth >= 1` with the statistics of the last moves,
    /// by [`add_perft_stats`](super::stats::add_perft_stats) compiled for these lookups.
    fn add_perft_stats<S: Side, E: Flag, C: Flag>(
        self,
        board: &Board,
        depth: u32,
        total: &mut LeafStats,
    );
    /// Adds to `total` the moves of `board` and the statistics of each (perft to depth 1), by
    /// [`add_last_ply_stats`](super::stats::add_last_ply_stats) compiled for these lookups in a
    /// function of its own, as [`Self::leaf_count`].
    fn add_last_ply_stats<S: Side, E: Flag, C: Flag>(self, board: &Board, total: &mut LeafStats);
    /// Whether the side to move on `board` has a legal move, by
    /// [`any_legal_move`](super::stats::any_legal_move) compiled for these lookups.
    fn any_legal_move<S: Side, E: Flag, C: Flag>(self, board: &Board) -> bool;
    /// Runs `work` in a function of its own compiled for these lookups: rare work that would
    /// make the loops that hand it over larger if it were inlined there.
    fn out_of_line<W: OutOfLine>(self, work: &mut W);
    /// The squares a rook on `sq` attacks with `occupied`.
    fn rook(self, sq: Square, occupied: Bitboard) -> Bitboard;
    /// The squares a bishop on `sq` attacks with `occupied`.
    fn bishop(self, sq: Square, occupied: Bitboard) -> Bitboard;
}

/// Work the node function hands to [`Sliders::out_of_line`].
pub trait OutOfLine {
    fn run(&mut self);
}
