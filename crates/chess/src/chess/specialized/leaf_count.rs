//! The thread's counts of leaf count-ops and of moves counted without being made, which the
//! node function adds to as it counts.

use std::cell::Cell;

thread_local! {
    static LEAF_COUNT_OPS: Cell<u64> = const { Cell::new(0) };
    static NULL_COUNTED: Cell<u64> = const { Cell::new(0) };
}

/// Positions whose legal moves this thread's generator counted at the last ply (children made
/// at depth 2, and roots of depth 1) since the thread began: the leaf count-ops of the work
/// counters (`vkperft_run::work_counters`). The replies of a depth-2 node's null board are counted
/// too, once per node, and are not among them. Callers take differences around a search.
pub fn leaf_count_ops() -> u64 {
    LEAF_COUNT_OPS.with(Cell::get)
}

/// Moves at depth-2 nodes that this thread counted by their null board's replies instead of
/// making them ([`super::null_replies`]), since the thread began.
pub fn null_counted() -> u64 {
    NULL_COUNTED.with(Cell::get)
}

#[inline(always)]
pub(super) fn add_leaf_count_ops(ops: u64) {
    LEAF_COUNT_OPS.with(|total| total.set(total.get().wrapping_add(ops)));
}

#[inline(always)]
pub(super) fn add_null_counted(moves: u64) {
    NULL_COUNTED.with(|total| total.set(total.get().wrapping_add(moves)));
}
