// The leaf stage (glsl/common/leaf_stage.glsl): the last two plies fused, counting moves.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

#include "leaf_stage.glsl"
