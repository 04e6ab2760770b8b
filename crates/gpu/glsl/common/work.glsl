// Work counters (crates/run/src/work_counters.rs; layout in crates/gpu/src/gpu/shader_layout.rs, WORK_*): each
// workgroup adds its invocations' counts in shared memory, and one invocation adds the
// workgroup's totals to the buffer, so the buffer sees one atomic per counter per workgroup.
// A counter is 64 bits as two 32-bit words: an add whose low word wraps carries into the high
// word itself, so the sum is exact with 32-bit atomics alone.
#ifndef WORK_GLSL
#define WORK_GLSL

layout(std430, set = 0, binding = BINDING_WORK) buffer Work {
    uint work[WORK_WORDS];
};

const uint WORK_FIELD_LEAF_COUNT_OPS = 0u;
const uint WORK_FIELD_DUPLICATES = 1u;
// Positions whose children the dispatch made, at its remaining depth.
const uint WORK_FIELD_EXPANDED = 2u;
// Moves of depth-2 positions counted by their null board's replies, not made.
const uint WORK_FIELD_NULL_COUNTED = 3u;
const uint WORK_FIELDS = 4u;

shared uint work_group[WORK_FIELDS];

// Under the Vulkan memory model (the TT build) a barrier must make the shared sums available
// and visible itself; without it, barrier() does.
#if GPU_TT
#define WORK_BARRIER() controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, \
    gl_StorageSemanticsShared, \
    gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible)
#else
#define WORK_BARRIER() barrier()
#endif

// At the start of main, in uniform control flow.
void work_begin() {
    if (gl_LocalInvocationIndex < WORK_FIELDS) {
        work_group[gl_LocalInvocationIndex] = 0u;
    }
    WORK_BARRIER();
}

void work_count(uint field, uint amount) {
    if (amount != 0u) {
        atomicAdd(work_group[field], amount);
    }
}

void work_add(uint word, uint amount) {
    if (amount == 0u) {
        return;
    }
    uint before = atomicAdd(work[word], amount);
    if (before + amount < before) {
        atomicAdd(work[word + 1u], 1u);
    }
}

// At the end of main, in uniform control flow; `depth` is the dispatch's remaining depth.
void work_flush(uint depth) {
    WORK_BARRIER();
    if (gl_LocalInvocationIndex == 0u) {
        work_add(WORK_LEAF_COUNT_OPS, work_group[WORK_FIELD_LEAF_COUNT_OPS]);
        work_add(WORK_DUPLICATES, work_group[WORK_FIELD_DUPLICATES]);
        work_add(WORK_NULL_COUNTED, work_group[WORK_FIELD_NULL_COUNTED]);
        work_add(WORK_EXPANDED + 2u * min(depth, WORK_DEPTHS - 1u), work_group[WORK_FIELD_EXPANDED]);
    }
}

#endif
