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

    /// The rook of `color` farthest from its king on one side, on the king's back rank; the
    /// standard corner when there is none.
    pub(crate) fn outermost_rook(&self, color: Color, king_side: bool) -> Square {
        let rank = color.back_rank();
        let square = |file: u8| Square::from_coords(file, rank);
        let is_rook =
            |&file: &u8| self.board[square(file).index()] == Some(Piece::new(color, Role::Rook));
        let corner = square(if king_side { 7 } else { 0 });
        let Some(king_file) = self.king_file_on_back_rank(color) else {
            return corner;
        };
        let outermost = if king_side {
            (king_file + 1..8).rev().find(is_rook)
        } else {
            (0..king_file).find(is_rook)
        };
        outermost.map_or(corner, square)
    }

    /// The color of the castling rook on `rook` (on a back rank) and whether it is on its king's
    /// king side (for a rook whose king is not on its rank, whether it is on the half of the king
    /// side).
    pub(crate) fn castling_side(&self, rook: Square) -> (Color, bool) {
        let color = Color::of_back_rank(rook.rank()).unwrap_or(Color::Black);
        let king_side = self
            .king_file_on_back_rank(color)
            .map_or(rook.file() >= 4, |file| rook.file() > file);
        (color, king_side)
    }

    /// The letter of the castling field for the right of the rook on `rook`: its file in
    /// Shredder-FEN, else `K`/`Q` by its side of the king, or its file where X-FEN needs one (a
    /// rook beyond it on the same side); upper case for white.
    pub(crate) fn castling_letter(&self, rook: Square) -> char {
        let (color, king_side) = self.castling_side(rook);
        let file_letter = char::from(b'a' + rook.file());
        let letter = match self.castling_notation {
            CastlingNotation::Shredder => file_letter,
            _ if self.outermost_rook(color, king_side) != rook => file_letter,
            _ if king_side => 'k',
            _ => 'q',
        };
        match color {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter,
        }
    }
}

impl Default for Setup {
    fn default() -> Self {
        Setup::empty()
    }
}
