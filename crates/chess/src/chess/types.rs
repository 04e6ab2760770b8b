//! Colors, piece roles and pieces.

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

    /// The rank (0 = rank 1) this color's pieces start on and castle on.
    #[inline]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// The color whose back rank `rank` is, if it is one.
    #[inline]
    pub const fn of_back_rank(rank: u8) -> Option<Color> {
        match rank {
            0 => Some(Color::White),
            7 => Some(Color::Black),
            _ => None,
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

// The shaders number roles and colors as the NybbleBoard codes do.
const _: () = {
    use super::nybble_codes::*;
    assert!(Color::White as u8 == COLOR_WHITE && Color::Black as u8 == COLOR_BLACK);
    assert!(Role::Pawn as u8 == ROLE_PAWN && Role::Knight as u8 == ROLE_KNIGHT);
    assert!(Role::Bishop as u8 == ROLE_BISHOP && Role::Rook as u8 == ROLE_ROOK);
    assert!(Role::Queen as u8 == ROLE_QUEEN && Role::King as u8 == ROLE_KING);
};

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
