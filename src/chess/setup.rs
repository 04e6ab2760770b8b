//! An unvalidated position: what a FEN or the board editor describes before it is checked.

use super::bitboard::Bitboard;
use super::castling::CastlingNotation;
use super::square::Square;
use super::types::{Color, Piece, Role};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    /// The rooks that may castle, by square.
    pub castling_rooks: Bitboard,
    /// How the FEN wrote castling, so that it is written back the same way.
    pub castling_notation: CastlingNotation,
    pub ep_square: Option<Square>,
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
}

impl Setup {
    /// The file of `color`'s king when it stands on its back rank.
    pub fn king_file_on_back_rank(&self, color: Color) -> Option<u8> {
        let king = Some(Piece::new(color, Role::King));
        (0..8)
            .find(|&file| self.board[Square::from_coords(file, color.back_rank()).index()] == king)
    }

    pub fn empty() -> Setup {
        Setup {
            board: [None; 64],
            turn: Color::White,
            castling_rooks: Bitboard::EMPTY,
            castling_notation: CastlingNotation::Standard,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

impl Default for Setup {
    fn default() -> Self {
        Setup::empty()
    }
}
