// The upsweep stage (glsl/common/upsweep_stage.glsl) of a node count.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

#include "upsweep_stage.glsl"
