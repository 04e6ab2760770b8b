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

/// Layout of the ray tables buffer, in 64-bit words: the line through two squares, edge to
/// edge. (Attack sets are computed in the shaders.)
pub const TABLE_LINE: u32 = 0;

pub const SHADER_DEFINES: [(&str, u32); 8] = [
    ("WORKGROUP_SIZE", WORKGROUP_SIZE),
    ("BINDING_TABLES", BINDING_TABLES),
    ("BINDING_BOARDS", BINDING_BOARDS),
    ("BINDING_CHILDREN", BINDING_CHILDREN),
    ("BINDING_COUNTS", BINDING_COUNTS),
    ("BINDING_CONTROL", BINDING_CONTROL),
    ("TABLE_LINE", TABLE_LINE),
    ("BINDING_COUNT", BINDING_COUNT),
];
