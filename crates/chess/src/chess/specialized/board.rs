//! The board the specialised generator copies and makes moves on: piece sets, castling rooks
//! and the en passant square, without move counters or notation. Each make function knows at
//! compile time which side moves and whether castling rights are left, and the caller knows the
//! role of the moving piece, so nothing is looked up on the board.

use super::flags::{Flag, Side};
use crate::chess::bitboard::Bitboard;
use crate::chess::castling::CastlingSquares;
use crate::chess::position::Position;
use crate::chess::square::Square;
use crate::chess::types::Role;

pub const PAWN: usize = Role::Pawn.index();
pub const KNIGHT: usize = Role::Knight.index();
pub const BISHOP: usize = Role::Bishop.index();
pub const ROOK: usize = Role::Rook.index();
pub const QUEEN: usize = Role::Queen.index();
pub const KING: usize = Role::King.index();

/// Roles a pawn promotes to, by index.
pub const PROMOTIONS: [usize; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub roles: [Bitboard; 6],
    pub colors: [Bitboard; 2],
    /// The rooks that may still castle, of both sides.
    pub castling_rooks: Bitboard,
    /// Where an en passant capture would land; meaningful only in a node whose en passant flag
    /// is on (after a double push next to an enemy pawn).
    pub ep_square: Square,
}

const _: () = assert!(size_of::<Board>() == 80);

impl Board {
    pub fn from_position(pos: &Position) -> Board {
        Board {
            roles: Role::ALL.map(|role| pos.by_role(role)),
            colors: [
                pos.by_color(crate::chess::Color::White),
                pos.by_color(crate::chess::Color::Black),
            ],
            castling_rooks: pos.castling_rooks(),
            ep_square: pos.ep_square().unwrap_or(Square::A1),
        }
    }

    #[inline(always)]
    pub fn ours<S: Side>(&self) -> Bitboard {
        self.colors[S::COLOR.index()]
    }

    #[inline(always)]
    pub fn theirs<S: Side>(&self) -> Bitboard {
        self.colors[S::Other::COLOR.index()]
    }

    /// The piece of role `ROLE` on `from` goes to `to`, taking whatever enemy piece is there.
    /// Also a pawn's push or capture that does not promote.
    #[inline(always)]
    pub fn moved<S: Side, C: Flag, const ROLE: usize>(&self, from: Square, to: Square) -> Board {
        let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
        let mut next = self.with_captured::<S>(to);
        next.roles[ROLE] ^= from_to;
        next.colors[S::COLOR.index()] ^= from_to;
        if C::ON {
            // A right is lost when its rook moves or is taken, and both when the king moves.
            next.castling_rooks &= !from_to;
            if ROLE == KING {
                next.castling_rooks &= !S::BACK_RANK;
            }
        }
        next
    }

    /// A pawn's double push, and whether an enemy pawn now stands beside it, so that the
    /// opponent may have an en passant capture.
    #[inline(always)]
    pub fn double_pushed<S: Side>(&self, from: Square, to: Square) -> (Board, bool) {
        let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
        let mut next = *self;
        next.roles[PAWN] ^= from_to;
        next.colors[S::COLOR.index()] ^= from_to;
        next.ep_square = Square::new((from.to_u8() + to.to_u8()) / 2);
        let to_bb = Bitboard::from_square(to);
        let beside =
            (to_bb & !Bitboard::FILE_A).shift_west() | (to_bb & !Bitboard::FILE_H).shift_east();
        let capturable = (beside & self.roles[PAWN] & self.theirs::<S>()).any();
        (next, capturable)
    }

    /// A pawn's promotion to the role `promoted` on `to`, pushing or capturing.
    #[inline(always)]
    pub fn promoted<S: Side, C: Flag>(&self, from: Square, to: Square, promoted: usize) -> Board {
        let mut next = self.with_captured::<S>(to);
        next.roles[PAWN] ^= Bitboard::from_square(from);
        next.roles[promoted] |= Bitboard::from_square(to);
        next.colors[S::COLOR.index()] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        if C::ON {
            next.castling_rooks &= !Bitboard::from_square(to);
        }
        next
    }

    /// An en passant capture by the pawn on `from` onto the en passant square.
    #[inline(always)]
    pub fn en_passant<S: Side>(&self, from: Square) -> Board {
        let to = self.ep_square;
        let captured = Bitboard::from_square(Square::new((to.to_u8() as i8 - S::PUSH) as u8));
        let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
        let mut next = *self;
        next.roles[PAWN] ^= from_to | captured;
        next.colors[S::COLOR.index()] ^= from_to;
        next.colors[S::Other::COLOR.index()] ^= captured;
        next
    }

    /// A castle: king and rook are lifted before they are put down, since in Chess960 either
    /// may land where the other stood.
    #[inline(always)]
    pub fn castled<S: Side>(&self, squares: CastlingSquares) -> Board {
        let mut next = *self;
        let king = &mut next.roles[KING];
        *king = king.without(squares.king_from).with(squares.king_to);
        let rook = &mut next.roles[ROOK];
        *rook = rook.without(squares.rook_from).with(squares.rook_to);
        let ours = &mut next.colors[S::COLOR.index()];
        *ours = ours
            .without(squares.king_from)
            .without(squares.rook_from)
            .with(squares.king_to)
            .with(squares.rook_to);
        next.castling_rooks &= !S::BACK_RANK;
        next
    }

    /// This board with the enemy piece on `to`, if any, removed. `to` never holds one of our
    /// pieces nor the enemy king, so clearing it from every other set needs no test.
    #[inline(always)]
    fn with_captured<S: Side>(&self, to: Square) -> Board {
        let keep = !Bitboard::from_square(to);
        let mut next = *self;
        for set in &mut next.roles[..KING] {
            *set &= keep;
        }
        next.colors[S::Other::COLOR.index()] &= keep;
        next
    }
}
