//! Constants shared by the host and the shaders. Dependency-free: `build.rs` includes this file
//! and passes every entry of [`SHADER_DEFINES`] to the GLSL compiler as a macro definition.

/// Invocations per workgroup of every compute stage.
pub const WORKGROUP_SIZE: u32 = 64;

/// Descriptor bindings of set 0.
pub const BINDING_TABLES: u32 = 0;
pub const BINDING_BOARDS: u32 = 1;
pub const BINDING_CHILDREN: u32 = 2;
pub const BINDING_COUNTS: u32 = 3;
pub const BINDING_CONTROL: u32 = 4;
pub const BINDING_COUNT: u32 = 5;

/// Layout of the attack tables buffer, in 64-bit words.
pub const TABLE_KNIGHT: u32 = 0;
pub const TABLE_KING: u32 = TABLE_KNIGHT + 64;
pub const TABLE_PAWN: u32 = TABLE_KING + 64;
pub const TABLE_BETWEEN: u32 = TABLE_PAWN + 2 * 64;
pub const TABLE_LINE: u32 = TABLE_BETWEEN + 64 * 64;
/// 128 magics (rook squares, then bishop squares) of 3 words: mask, magic, offset | shift << 32.
pub const TABLE_MAGICS: u32 = TABLE_LINE + 64 * 64;
pub const TABLE_SLIDERS: u32 = TABLE_MAGICS + 128 * 3;

pub const SHADER_DEFINES: [(&str, u32); 14] = [
    ("WORKGROUP_SIZE", WORKGROUP_SIZE),
    ("BINDING_TABLES", BINDING_TABLES),
    ("BINDING_BOARDS", BINDING_BOARDS),
    ("BINDING_CHILDREN", BINDING_CHILDREN),
    ("BINDING_COUNTS", BINDING_COUNTS),
    ("BINDING_CONTROL", BINDING_CONTROL),
    ("TABLE_KNIGHT", TABLE_KNIGHT),
    ("TABLE_KING", TABLE_KING),
    ("TABLE_PAWN", TABLE_PAWN),
    ("TABLE_BETWEEN", TABLE_BETWEEN),
    ("TABLE_LINE", TABLE_LINE),
    ("TABLE_MAGICS", TABLE_MAGICS),
    ("TABLE_SLIDERS", TABLE_SLIDERS),
    ("BINDING_COUNT", BINDING_COUNT),
];
