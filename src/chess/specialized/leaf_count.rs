//! The thread's count of leaf count-ops, which the node function adds to as it counts.

use std::cell::Cell;

thread_local! {
    static LEAF_COUNT_OPS: Cell<u64> = const { Cell::new(0) };
}

/// Positions whose legal moves this thread's generator counted at the last ply (children made
/// at depth 2, and roots of depth 1) since the thread began: the leaf count-ops of the work
/// counters (`crate::work_counters`). Callers take differences around a search.
pub fn leaf_count_ops() -> u64 {
    LEAF_COUNT_OPS.with(Cell::get)
}

#[inline(always)]
pub(super) fn add_leaf_count_ops(ops: u64) {
    LEAF_COUNT_OPS.with(|total| total.set(total.get().wrapping_add(ops)));
}
