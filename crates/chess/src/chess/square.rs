//! Squares 0..64, a1 = 0, h1 = 7, a8 = 56 (little-endian rank-file mapping).

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);

    /// `index` must be below 64.
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square::new(rank * 8 + file)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// 0 = file a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Parses `e4`-style names; `None` for anything else.
    pub fn parse(name: &str) -> Option<Square> {
        let bytes = name.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::from_coords(file, rank))
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}
