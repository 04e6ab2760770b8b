//! Where a castle puts king and rook: on the g- and f-files when the rook stands on the king's
//! higher-file side, else on the c- and d-files, in standard chess and Chess960 alike.
//! Dependency-free so that `build.rs` hands the same files to the shaders (`movegen.glsl`) as
//! macro definitions.

pub const KING_SIDE_KING_FILE: u8 = 6;
pub const KING_SIDE_ROOK_FILE: u8 = 5;
pub const QUEEN_SIDE_KING_FILE: u8 = 2;
pub const QUEEN_SIDE_ROOK_FILE: u8 = 3;

/// The files king and rook land on: (king, rook).
pub const fn landing_files(king_side: bool) -> (u8, u8) {
    if king_side {
        (KING_SIDE_KING_FILE, KING_SIDE_ROOK_FILE)
    } else {
        (QUEEN_SIDE_KING_FILE, QUEEN_SIDE_ROOK_FILE)
    }
}

/// Macro definitions for the shaders.
pub const SHADER_DEFINES: [(&str, u8); 4] = [
    ("CASTLE_KING_SIDE_KING_FILE", KING_SIDE_KING_FILE),
    ("CASTLE_KING_SIDE_ROOK_FILE", KING_SIDE_ROOK_FILE),
    ("CASTLE_QUEEN_SIDE_KING_FILE", QUEEN_SIDE_KING_FILE),
    ("CASTLE_QUEEN_SIDE_ROOK_FILE", QUEEN_SIDE_ROOK_FILE),
];
