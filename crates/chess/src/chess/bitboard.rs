//! A set of squares as a 64-bit mask, bit `i` for square `i`.

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xff);
    pub const RANK_3: Bitboard = Bitboard(0xff << 16);
    pub const RANK_4: Bitboard = Bitboard(0xff << 24);
    pub const RANK_5: Bitboard = Bitboard(0xff << 32);
    pub const RANK_6: Bitboard = Bitboard(0xff << 40);
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);
    pub const BACK_RANKS: Bitboard = Bitboard(0xff | (0xff << 56));
    /// The squares of a1's color: a1, c1, ..., b2, d2, ...
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank))
    }

    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file)
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when more than one square is set.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; the set must not be empty.
    #[inline]
    pub const fn lsb(self) -> Square {
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// The only square of a one-square set, `None` otherwise.
    #[inline]
    pub fn single_square(self) -> Option<Square> {
        (self.any() && !self.more_than_one()).then(|| self.lsb())
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// One file towards file a; the caller masks out file a first.
    #[inline]
    pub const fn shift_west(self) -> Bitboard {
        Bitboard(self.0 >> 1)
    }

    /// One file towards file h; the caller masks out file h first.
    #[inline]
    pub const fn shift_east(self) -> Bitboard {
        Bitboard(self.0 << 1)
    }

    /// Shift towards rank 8 by `ranks` ranks.
    #[inline]
    pub const fn shift_north(self, ranks: u32) -> Bitboard {
        Bitboard(self.0 << (8 * ranks))
    }

    /// Shift towards rank 1 by `ranks` ranks.
    #[inline]
    pub const fn shift_south(self, ranks: u32) -> Bitboard {
        Bitboard(self.0 >> (8 * ranks))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// The squares of a [`Bitboard`], lowest first.
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
