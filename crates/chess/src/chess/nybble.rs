//! NybbleBoard: the 32-byte exact key of a position for perft.
//!
//! Each square holds a 4-bit code; the 64 codes are stored bit-sliced as four 64-bit planes
//! (plane `k` holds bit `k` of every square's code), so the key is also a quad-bitboard that a
//! shader turns into piece bitboards with a few AND/ANDNOT operations.
//!
//! | code | meaning |
//! |------|---------|
//! | 0 | empty |
//! | 1-6 | white pawn, knight, bishop, rook, queen, king |
//! | 7 | rook that still has its castling right (color from its back rank: rank 1 white) |
//! | 8 | pawn that can be taken en passant (color from its rank: rank 4 white) |
//! | 9-14 | black pawn, knight, bishop, rook, queen, king |
//! | 15 | king of the side to move (its color is the other king's opposite) |
//!
//! Side to move, castling rights and the canonical ep square are thus all in the placement:
//! two positions have the same key iff they have the same perft subtree.

use super::bitboard::Bitboard;
use super::position::{Position, PositionError};
use super::setup::Setup;
use super::square::Square;
use super::types::{Color, Piece, Role};

pub use super::nybble_codes::{
    CODE_BLACK, CODE_CASTLING_ROOK, CODE_EMPTY, CODE_EP_PAWN, CODE_KING_TO_MOVE,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct NybbleBoard {
    pub planes: [u64; 4],
}

const _: () = assert!(std::mem::size_of::<NybbleBoard>() == 32);

/// Code of an ordinary piece: color in bit 3, role + 1 in bits 0-2.
#[inline]
pub const fn piece_code(piece: Piece) -> u8 {
    ((piece.color as u8) * CODE_BLACK) | (piece.role as u8 + 1)
}

impl NybbleBoard {
    pub fn from_position(pos: &Position) -> NybbleBoard {
        let mut board = NybbleBoard::default();
        for color in Color::ALL {
            for role in Role::ALL {
                board.set_all(pos.pieces(color, role), piece_code(Piece::new(color, role)));
            }
        }
        for sq in pos.castling_rooks() {
            board.set(sq, CODE_CASTLING_ROOK);
        }
        if let Some(ep) = pos.ep_square() {
            let pawn = match pos.turn() {
                Color::White => Square::new(ep.to_u8() - 8),
                Color::Black => Square::new(ep.to_u8() + 8),
            };
            board.set(pawn, CODE_EP_PAWN);
        }
        board.set(pos.king(pos.turn()), CODE_KING_TO_MOVE);
        board
    }

    /// Sets the code of every square in `squares` (whose codes must be 0 so far, or all the same
    /// bits being raised).
    #[inline]
    fn set_all(&mut self, squares: Bitboard, code: u8) {
        for (k, plane) in self.planes.iter_mut().enumerate() {
            if code >> k & 1 != 0 {
                *plane |= squares.0;
            }
        }
    }

    #[inline]
    pub fn set(&mut self, sq: Square, code: u8) {
        let bit = 1u64 << sq.index();
        for (k, plane) in self.planes.iter_mut().enumerate() {
            if code >> k & 1 != 0 {
                *plane |= bit;
            } else {
                *plane &= !bit;
            }
        }
    }

    #[inline]
    pub fn code(&self, sq: Square) -> u8 {
        self.planes.iter().enumerate().fold(0, |code, (k, plane)| {
            code | ((plane >> sq.index() & 1) as u8) << k
        })
    }

    /// The 32 key bytes, plane 0 first, little-endian.
    pub fn to_bytes(&self) -> [u8; 32] {
        let mut bytes = [0; 32];
        for (chunk, plane) in bytes.chunks_exact_mut(8).zip(self.planes) {
            chunk.copy_from_slice(&plane.to_le_bytes());
        }
        bytes
    }

    /// The position this key describes (move counters are not part of the key: 0 and 1).
    pub fn to_position(&self) -> Result<Position, PositionError> {
        let mut setup = Setup::empty();
        let mut king_to_move = None;
        let mut other_king_color = None;
        for sq in Square::all() {
            let code = self.code(sq);
            setup.board[sq.index()] = match code {
                CODE_EMPTY => None,
                CODE_CASTLING_ROOK => {
                    let color = if sq.rank() == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    setup.castling_rooks = setup.castling_rooks.with(sq);
                    Some(Piece::new(color, Role::Rook))
                }
                CODE_EP_PAWN => {
                    let (color, ep) = if sq.rank() == 3 {
                        (Color::White, Square::new(sq.to_u8() - 8))
                    } else {
                        (Color::Black, Square::new(sq.to_u8() + 8))
                    };
                    setup.ep_square = Some(ep);
                    Some(Piece::new(color, Role::Pawn))
                }
                CODE_KING_TO_MOVE => {
                    king_to_move = Some(sq);
                    None
                }
                _ => {
                    let color = if code >> 3 != 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let role = Role::ALL[(code & 7) as usize - 1];
                    if role == Role::King {
                        other_king_color = Some(color);
                    }
                    Some(Piece::new(color, role))
                }
            };
        }
        let turn = !other_king_color.unwrap_or(Color::Black);
        if let Some(sq) = king_to_move {
            setup.board[sq.index()] = Some(Piece::new(turn, Role::King));
        }
        setup.turn = turn;
        Position::from_setup(&setup)
    }
}
