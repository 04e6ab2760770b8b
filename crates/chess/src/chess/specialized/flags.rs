//! Compile-time facts about a node: which side moves, whether an en passant capture may exist,
//! whether any castling right is left. Each is a type parameter of the node functions, so every
//! combination is compiled on its own and code that cannot apply is absent from it.

use crate::chess::bitboard::Bitboard;
use crate::chess::types::Color;

/// The side to move.
pub trait Side: 'static {
    const COLOR: Color;
    /// Squares one rank ahead of `bb` for this side.
    fn forward(bb: Bitboard) -> Bitboard;
    /// The rank this side's king and castling rooks start on.
    const BACK_RANK: Bitboard;
    /// Added to a square to push a pawn one rank.
    const PUSH: i8;
    type Other: Side;
}

pub enum White {}
pub enum Black {}

impl Side for White {
    const COLOR: Color = Color::White;
    #[inline(always)]
    fn forward(bb: Bitboard) -> Bitboard {
        bb.shift_north(1)
    }
    const BACK_RANK: Bitboard = Bitboard::RANK_1;
    const PUSH: i8 = 8;
    type Other = Black;
}

impl Side for Black {
    const COLOR: Color = Color::Black;
    #[inline(always)]
    fn forward(bb: Bitboard) -> Bitboard {
        bb.shift_south(1)
    }
    const BACK_RANK: Bitboard = Bitboard::RANK_8;
    const PUSH: i8 = -8;
    type Other = White;
}

/// A yes/no fact about a node.
pub trait Flag: 'static {
    const ON: bool;
}

pub enum Yes {}
pub enum No {}

impl Flag for Yes {
    const ON: bool = true;
}

impl Flag for No {
    const ON: bool = false;
}
