// The probe self-test with the exact entries probed in a loop, the form lavapipe miscompiles
// (glsl/common/tt_probe.glsl): only for the test that shows the self-test catches it.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "tt_extensions.glsl"
#define TT_EXACT_PROBE_LOOPED

#include "probe_self_test.glsl"
