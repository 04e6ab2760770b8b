//! Rust twins of what the shaders see (`glsl/common/buffers.glsl`, `glsl/common/board.glsl`),
//! with their sizes pinned. The `layout_probe` shader checks the offsets at run time (see the
//! tests of the backend).

use crate::chess::NybbleBoard;
use bytemuck::{Pod, Zeroable};

/// `GpuBoard`: the NybbleBoard's four bit planes (32 bytes, 8-byte aligned in std430).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct GpuBoard {
    pub planes: [u64; 4],
}

const _: () = assert!(size_of::<GpuBoard>() == 32);

impl From<NybbleBoard> for GpuBoard {
    fn from(board: NybbleBoard) -> GpuBoard {
        GpuBoard {
            planes: board.planes,
        }
    }
}

/// `children[i]` (a `uvec2`): first child index and number of children.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct ChildRange {
    pub first: u32,
    pub count: u32,
}

const _: () = assert!(size_of::<ChildRange>() == 8);

/// The `Control` block.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Control {
    pub appended: u32,
    pub overflow: u32,
}

const _: () = assert!(size_of::<Control>() == 8);

/// The `Step` push constants.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct StepConstants {
    pub input_offset: u32,
    pub input_count: u32,
    pub output_offset: u32,
    pub output_capacity: u32,
    pub leaf_depth: u32,
}

const _: () = assert!(size_of::<StepConstants>() == 20);

/// Device memory one position takes in a chunk: its board, child range and count.
pub const BYTES_PER_POSITION: u64 =
    (size_of::<GpuBoard>() + size_of::<ChildRange>() + size_of::<u64>()) as u64;
