// The table's statistics counters (crates/table/src/tt/stats.rs), summed per workgroup. Built with GPU_TT
// only.
#ifndef TT_STATS_GLSL
#define TT_STATS_GLSL

#include "tt_params.glsl"

// --- Statistics: each invocation counts its own probe and store, the workgroup adds them up
// in shared memory, and one atomic per nonzero sum goes to the buffer, so counters are not
// fought over.

// Four bits per field (TT_STAT_FIELDS <= 8, asserted in crates/table/src/tt/shader_shared.rs): an
// invocation counts one probe and one store, so no field passes 15, and one register holds
// what would otherwise take eight through the whole move generation.
uint tt_counted;
// Remaining depth of the entry a store replaced, or NO_DEPTH.
const uint NO_DEPTH = 0xffffffffu;
uint tt_vacated_depth;

// The workgroup's sums: per field, and the slots vacated per depth.
shared uint tt_group_counted[TT_STAT_FIELDS];
shared uint tt_group_vacated[TT_STATS_MAX_DEPTH + 1];

void tt_stats_begin() {
    tt_counted = 0u;
    tt_vacated_depth = NO_DEPTH;
}

void tt_count(uint field) {
    tt_counted += 1u << (4u * field);
}

// The workgroup's shared sums are written before the barrier and read after it by other
// invocations: it makes them available and visible (the Vulkan memory model).
#define TT_GROUP_BARRIER() controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, \
    gl_StorageSemanticsShared, \
    gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible)

// Every invocation of the dispatch calls this at the end of main, outside any branch that
// depends on the invocation (it has workgroup barriers); `depth` is the dispatch's remaining
// depth. Invocation l clears, then adds to the buffer, field l and the depths l + k *
// WORKGROUP_SIZE.
void tt_stats_flush(uint depth) {
    if (tt.mode == TT_MODE_OFF || depth > TT_STATS_MAX_DEPTH) {
        return;
    }
    uint l = gl_LocalInvocationIndex;
    if (l < uint(TT_STAT_FIELDS)) {
        tt_group_counted[l] = 0u;
    }
    for (uint d = l; d <= TT_STATS_MAX_DEPTH; d += WORKGROUP_SIZE) {
        tt_group_vacated[d] = 0u;
    }
    TT_GROUP_BARRIER();
    for (uint f = 0u; f < uint(TT_STAT_FIELDS); f++) {
        uint count = (tt_counted >> (4u * f)) & 15u;
        if (count != 0u) {
            atomicAdd(tt_group_counted[f], count);
        }
    }
    if (tt_vacated_depth != NO_DEPTH) {
        atomicAdd(tt_group_vacated[tt_vacated_depth], 1u);
    }
    TT_GROUP_BARRIER();
    if (l < uint(TT_STAT_FIELDS) && tt_group_counted[l] != 0u) {
        atomicAdd(tt_stats[depth * TT_STAT_FIELDS + l], uint64_t(tt_group_counted[l]));
    }
    for (uint d = l; d <= TT_STATS_MAX_DEPTH; d += WORKGROUP_SIZE) {
        uint vacated = tt_group_vacated[d];
        if (vacated != 0u) {
            atomicAdd(tt_stats[d * TT_STAT_FIELDS + TT_STAT_USED_DELTA],
                uint64_t(0) - uint64_t(vacated));
        }
    }
}

// A store filled a slot at `depth` that held an entry of depth `previous` (NO_DEPTH: empty).
void tt_count_store(uint previous, bool overwrite) {
    tt_count(TT_STAT_STORES);
    tt_count(TT_STAT_USED_DELTA);
    if (overwrite) {
        tt_count(TT_STAT_OVERWRITES);
    }
    tt_vacated_depth = previous;
}

#endif
