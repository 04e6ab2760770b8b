// The extensions a stage needs beyond its own: included right after #version and the include
// directive, before any other token. Every build reaches the chunk arrays by device address
// (buffers.glsl); the TT build (GPU_TT = 1) also the table's segments.
#extension GL_EXT_buffer_reference : require
#if GPU_TT
#extension GL_EXT_shader_atomic_int64 : require
// The table's concurrent entries are synchronized under the Vulkan memory model: atomic loads
// and stores with acquire/release semantics at device scope (tt.glsl).
#extension GL_KHR_memory_scope_semantics : require
#pragma use_vulkan_memory_model
#endif
