// Probe self-test: the table's probe on crafted buckets, run when a device opens
// (glsl/common/probe_self_test.glsl).
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"

#include "probe_self_test.glsl"
