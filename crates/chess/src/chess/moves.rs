//! A move in 16 bits and a fixed-capacity move list.
//!
//! Layout of [`Move`]: bits 0-5 origin square, bits 6-11 target square, bits 12-14 [`MoveKind`],
//! bit 15 set on a castle written in Chess960 notation. A castle is stored as the king taking its
//! own rook (origin the king's square, target the rook's), which names every Chess960 castle,
//! even one where the king does not move; bit 15 says whether UCI writes it so (`e1h1`, as
//! engines do with `UCI_Chess960`) or as the king's two-square step (`e1g1`).

use super::castling::CastlingSquares;
use super::square::Square;
use super::types::Role;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal = 0,
    DoublePush = 1,
    EnPassant = 2,
    Castle = 3,
    PromoteKnight = 4,
    PromoteBishop = 5,
    PromoteRook = 6,
    PromoteQueen = 7,
}

impl MoveKind {
    const ALL: [MoveKind; 8] = [
        MoveKind::Normal,
        MoveKind::DoublePush,
        MoveKind::EnPassant,
        MoveKind::Castle,
        MoveKind::PromoteKnight,
        MoveKind::PromoteBishop,
        MoveKind::PromoteRook,
        MoveKind::PromoteQueen,
    ];

    pub const PROMOTIONS: [MoveKind; 4] = [
        MoveKind::PromoteQueen,
        MoveKind::PromoteRook,
        MoveKind::PromoteBishop,
        MoveKind::PromoteKnight,
    ];

    /// The piece a promotion creates.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self {
            MoveKind::PromoteKnight => Some(Role::Knight),
            MoveKind::PromoteBishop => Some(Role::Bishop),
            MoveKind::PromoteRook => Some(Role::Rook),
            MoveKind::PromoteQueen => Some(Role::Queen),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);

impl Move {
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.to_u8() as u16 | (to.to_u8() as u16) << 6 | (kind as u16) << 12)
    }

    /// The castle of the king on `king` with the rook on `rook`, written king-to-rook when
    /// `chess960`.
    #[inline]
    pub const fn castle(king: Square, rook: Square, chess960: bool) -> Move {
        let m = Move::new(king, rook, MoveKind::Castle);
        Move(m.0 | (chess960 as u16) << CHESS960_BIT)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        MoveKind::ALL[(self.0 >> 12 & 7) as usize]
    }

    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The same move, a castle written in the other notation (see [`Move::castle`]).
    pub const fn with_chess960_notation(self, chess960: bool) -> Move {
        match self.kind() {
            MoveKind::Castle => Move::castle(self.from(), self.to(), chess960),
            _ => self,
        }
    }

    /// Where UCI puts the move: the king's landing square for a castle in standard notation,
    /// else the target.
    pub fn uci_target(self) -> Square {
        if matches!(self.kind(), MoveKind::Castle) && self.0 >> CHESS960_BIT == 0 {
            CastlingSquares::new(self.from(), self.to()).king_to
        } else {
            self.to()
        }
    }
}

const CHESS960_BIT: u16 = 15;

impl fmt::Display for Move {
    /// UCI notation: `e2e4`, `e7e8q`, a castle as `e1g1` (standard) or `e1h1` (Chess960).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.uci_target())?;
        if let Some(role) = self.kind().promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Legal chess positions have at most 218 moves.
pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
