// The leaf stage (glsl/common/leaf_stage.glsl) of a move-type statistics run: the last two
// plies fused, counting the moves and tallying every statistic of them
// (glsl/common/move_stats.glsl).
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "tt_extensions.glsl"

#define MOVE_STATS
#include "leaf_stage.glsl"
