// The probe self-test's body (glsl/probe_self_test.comp; crates/gpu/src/gpu/probe_self_test.rs): probes a
// table of buckets crafted on the host through the real `tt_probe`, once per input position,
// and writes back what it answered, for the host to compare with the CPU's probe of the same
// bytes. Input i: its key in boards, its hash in hashes, the depth in step.remaining. Output:
// counts = the exact count, fast_counts = (the fast count, the kind); and the statistics.
layout(local_size_x = WORKGROUP_SIZE) in;

#include "buffers.glsl"
#include "tt.glsl"

void main() {
    tt_stats_begin();
    uint i = level_invocation();
    if (i < level_count()) {
        uint index = level_offset() + i;
        Probe probe = tt_probe(hash_at(index), board_at(index), step.remaining);
        count_at(index) = probe.exact;
        fast_count_at(index) = u64vec2(probe.fast, uint64_t(probe.kind));
    }
    tt_stats_flush(step.remaining);
}
