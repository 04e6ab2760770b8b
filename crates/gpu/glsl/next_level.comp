// Next level: runs after a level's expand (one invocation). Records where the level expand
// appended is and the workgroups that cover it, and resets the append counter, so that the
// next stages of the chunk can be dispatched indirectly without the host reading anything back.
//
// After an overflow the chunk is redone smaller, and no later dispatch of it may do any work
// (an upsweep over children that were never counted would store wrong counts in the table):
// every level's workgroups are set to none.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

layout(local_size_x = 1) in;

#include "buffers.glsl"

void set_groups(uint level, uint positions) {
    uint groups = (positions + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    uint along_x = min(groups, control.max_groups_x);
    control.levels[level].groups_x = along_x;
    control.levels[level].groups_y = along_x == 0u ? 1u : (groups + along_x - 1u) / along_x;
    control.levels[level].groups_z = 1u;
}

void main() {
    uint next = step.level + 1u;
    uint offset = level_offset() + level_count();
    bool overflowed = control.overflow != 0u;
    uint count = overflowed ? 0u : control.appended;
    control.levels[next].offset = offset;
    control.levels[next].count = count;
    set_groups(next, count);
    control.appended = 0u;
    if (overflowed) {
        for (uint level = 0u; level < next; level++) {
            set_groups(level, 0u);
        }
    }
}
