//! Twin of `glsl/next_level.comp`: after a level's expand, the level it appended is recorded in
//! the `Control` block with the workgroups that cover it, and the append counter is reset;
//! after an overflow the new level is empty and no level's workgroups remain.

use crate::gpu::layouts::{Level, StepConstants};
use crate::gpu::twin::buffers::TwinBuffers;

/// Runs next_level after the expand of `step`'s level.
pub fn next_level(buffers: &mut TwinBuffers, step: &StepConstants) {
    let control = &mut buffers.control;
    let level = control.levels[step.level as usize];
    let next = step.level as usize + 1;
    let overflowed = control.overflow != 0;
    let count = if overflowed { 0 } else { control.appended };
    let max_groups_x = control.max_groups_x;
    control.levels[next] = Level {
        unused: control.levels[next].unused,
        ..Level::new(level.offset + level.count, count, max_groups_x)
    };
    control.appended = 0;
    if overflowed {
        for earlier in &mut control.levels[..next] {
            earlier.groups = Level::new(0, 0, max_groups_x).groups;
        }
    }
}
