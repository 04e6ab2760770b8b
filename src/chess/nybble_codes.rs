//! The square codes of the NybbleBoard (see [`super::nybble`]). Dependency-free so that
//! `build.rs` can hand the same values to the shaders as macro definitions.

pub const CODE_EMPTY: u8 = 0;
/// Bit of the code that marks a black piece; the low three bits are the role + 1.
pub const CODE_BLACK: u8 = 8;
pub const CODE_CASTLING_ROOK: u8 = 7;
pub const CODE_EP_PAWN: u8 = 8;
pub const CODE_KING_TO_MOVE: u8 = 15;

/// Macro definitions for the shaders.
pub const SHADER_DEFINES: [(&str, u8); 4] = [
    ("CODE_BLACK", CODE_BLACK),
    ("CODE_CASTLING_ROOK", CODE_CASTLING_ROOK),
    ("CODE_EP_PAWN", CODE_EP_PAWN),
    ("CODE_KING_TO_MOVE", CODE_KING_TO_MOVE),
];
