// The extensions the TT build of a stage needs (GPU_TT = 1); included right after #version and
// the include directive, before any other token.
#if GPU_TT
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_buffer_reference : require
// The table's concurrent entries are synchronized under the Vulkan memory model: atomic loads
// and stores with acquire/release semantics at device scope (tt.glsl).
#extension GL_KHR_memory_scope_semantics : require
#pragma use_vulkan_memory_model
#endif
