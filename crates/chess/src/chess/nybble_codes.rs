//! The square codes of the NybbleBoard (see [`super::nybble`]). Dependency-free so that
//! `build.rs` can hand the same values to the shaders as macro definitions.

pub const CODE_EMPTY: u8 = 0;
/// Bit of the code that marks a black piece; the low three bits are the role + 1.
pub const CODE_BLACK: u8 = 8;
pub const CODE_CASTLING_ROOK: u8 = 7;
pub const CODE_EP_PAWN: u8 = 8;
pub const CODE_KING_TO_MOVE: u8 = 15;

/// The numbers of the roles and colors in codes (`Role as u8`, `Color as u8`).
pub const ROLE_PAWN: u8 = 0;
pub const ROLE_KNIGHT: u8 = 1;
pub const ROLE_BISHOP: u8 = 2;
pub const ROLE_ROOK: u8 = 3;
pub const ROLE_QUEEN: u8 = 4;
pub const ROLE_KING: u8 = 5;
pub const COLOR_WHITE: u8 = 0;
pub const COLOR_BLACK: u8 = 1;

/// Macro definitions for the shaders.
pub const SHADER_DEFINES: [(&str, u8); 12] = [
    ("ROLE_PAWN", ROLE_PAWN),
    ("ROLE_KNIGHT", ROLE_KNIGHT),
    ("ROLE_BISHOP", ROLE_BISHOP),
    ("ROLE_ROOK", ROLE_ROOK),
    ("ROLE_QUEEN", ROLE_QUEEN),
    ("ROLE_KING", ROLE_KING),
    ("COLOR_WHITE", COLOR_WHITE),
    ("COLOR_BLACK", COLOR_BLACK),
    ("CODE_BLACK", CODE_BLACK),
    ("CODE_CASTLING_ROOK", CODE_CASTLING_ROOK),
    ("CODE_EP_PAWN", CODE_EP_PAWN),
    ("CODE_KING_TO_MOVE", CODE_KING_TO_MOVE),
];
