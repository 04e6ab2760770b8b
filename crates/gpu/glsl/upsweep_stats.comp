// The upsweep stage (glsl/common/upsweep_stage.glsl) of a move-type statistics run.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

#define MOVE_STATS
#include "upsweep_stage.glsl"
