//! Colors, piece roles, pieces and castling rights.

use std::fmt;
use std::ops::Not;

/// The side a piece belongs to, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A piece kind without its color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter as in FEN and UCI promotions.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }
}

/// A colored piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for white.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.role.char().to_ascii_uppercase(),
            Color::Black => self.role.char(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// Dense index 0..12: white pawn..king, then black pawn..king.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }
}

/// Castling rights as four bits: white king side, white queen side, black king side, black
/// queen side.
///
/// No other bit can be set: the bits index the 16 castling keys of the Zobrist table, so the
/// field is private and values come from the constants, [`CastlingRights::from_bits`] and the
/// set operations.
///
/// ```compile_fail,E0423
/// let rights = vkperft::chess::CastlingRights(0xff);
/// ```
///
/// ```
/// use vkperft::chess::CastlingRights;
/// assert_eq!(CastlingRights::from_bits(0xff), None);
/// let rights = CastlingRights::WHITE_KING.with(CastlingRights::BLACK_QUEEN);
/// assert_eq!(rights.to_string(), "Kq");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    pub const WHITE_KING: CastlingRights = CastlingRights(1);
    pub const WHITE_QUEEN: CastlingRights = CastlingRights(2);
    pub const BLACK_KING: CastlingRights = CastlingRights(4);
    pub const BLACK_QUEEN: CastlingRights = CastlingRights(8);
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The rights with these bits, or `None` when a bit other than the four is set.
    #[inline]
    pub const fn from_bits(bits: u8) -> Option<CastlingRights> {
        if bits & !CastlingRights::ALL.0 == 0 {
            Some(CastlingRights(bits))
        } else {
            None
        }
    }

    /// The right for `color` on the king side (`king_side`) or queen side.
    #[inline]
    pub const fn single(color: Color, king_side: bool) -> CastlingRights {
        CastlingRights(1 << (color as u8 * 2 + if king_side { 0 } else { 1 }))
    }

    /// These rights and `other`.
    #[inline]
    pub const fn with(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// These rights less `other`.
    #[inline]
    pub const fn without(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    #[inline]
    pub const fn contains(self, other: CastlingRights) -> bool {
        self.0 & other.0 == other.0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The four bits, 0..16.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }
}

impl fmt::Display for CastlingRights {
    /// FEN castling field: `KQkq` subset, or `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (right, c) in [
            (CastlingRights::WHITE_KING, 'K'),
            (CastlingRights::WHITE_QUEEN, 'Q'),
            (CastlingRights::BLACK_KING, 'k'),
            (CastlingRights::BLACK_QUEEN, 'q'),
        ] {
            if self.contains(right) {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SINGLES: [CastlingRights; 4] = [
        CastlingRights::WHITE_KING,
        CastlingRights::WHITE_QUEEN,
        CastlingRights::BLACK_KING,
        CastlingRights::BLACK_QUEEN,
    ];

    #[test]
    fn from_bits_rejects_bits_above_the_four_rights() {
        for bits in 16..=u8::MAX {
            assert_eq!(CastlingRights::from_bits(bits), None, "{bits}");
        }
    }

    #[test]
    fn every_combination_round_trips() {
        for bits in 0..16u8 {
            let rights = CastlingRights::from_bits(bits).expect("four bits are rights");
            assert_eq!(rights.bits(), bits);
            assert_eq!(rights.is_empty(), bits == 0);
            let mut built = CastlingRights::NONE;
            for (i, right) in SINGLES.into_iter().enumerate() {
                let set = bits >> i & 1 != 0;
                assert_eq!(rights.contains(right), set, "{bits} {i}");
                assert_eq!(rights.without(right).bits(), bits & !(1 << i));
                assert_eq!(rights.with(right).bits(), bits | 1 << i);
                if set {
                    built = built.with(right);
                }
            }
            assert_eq!(built, rights);
            assert_eq!(
                CastlingRights::ALL.without(rights).with(rights),
                CastlingRights::ALL
            );
        }
    }

    #[test]
    fn single_names_each_right() {
        assert_eq!(CastlingRights::single(Color::White, true), SINGLES[0]);
        assert_eq!(CastlingRights::single(Color::White, false), SINGLES[1]);
        assert_eq!(CastlingRights::single(Color::Black, true), SINGLES[2]);
        assert_eq!(CastlingRights::single(Color::Black, false), SINGLES[3]);
    }
}
