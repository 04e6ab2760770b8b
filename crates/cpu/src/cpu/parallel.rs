//! Parallel CPU perft.
//!
//! The top plies are expanded into a plan of work items, finer than the root moves, so every
//! thread stays busy on lopsided trees; threads take items from a shared counter. Items are
//! grouped by root move so that root moves complete (and are reported) one after another.
//! Cancellation is checked between items and inside an item's search (above its last
//! [`UNINTERRUPTED_DEPTH`](super::search::UNINTERRUPTED_DEPTH) plies), so a run stops within
//! milliseconds however deep its items are.

use super::search::SubtreeSearch;
use crate::backend::plan::{Plan, Tally};
use crate::backend::run_control::{Cancelled, RunControl};
use crate::chess::{specialized, Move, MoveStats, Position, Zobrist};
use crate::count::Counts;
use crate::work_counters::WorkCounters;
use crossbeam_channel::RecvTimeoutError;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Expansion stops once there are this many items per thread and items are no deeper than
/// [`MAX_ITEM_DEPTH`] ...
const ITEMS_PER_THREAD: usize = 64;
/// ... unless items would still be deeper than this (their nodes would reach the progress
/// reports late, and the last items would leave threads idle) ...
const MAX_ITEM_DEPTH: u32 = 5;
/// ... and never beyond this many items (about 100 bytes each).
const MAX_ITEMS: usize = 1 << 20;

/// The plan for `threads` threads: expanded while there are too few items or they are too
/// deep, but never down to the plies a search counts in bulk.
fn plan(
    root: &Position,
    depth: u32,
    threads: usize,
    cancel: &AtomicBool,
) -> Result<Plan, Cancelled> {
    Plan::expand(root, depth, MAX_ITEMS, cancel, |items, remaining| {
        remaining > 2 && (items < ITEMS_PER_THREAD * threads || remaining > MAX_ITEM_DEPTH)
    })
}

/// The tally of a run and the leaf count-ops and moves counted without being made of its
/// finished items, under one lock.
struct Counted {
    tally: Tally,
    leaf_count_ops: u128,
    null_counted: u128,
}

/// Perft of `root` to `depth` on `threads` threads, per root move in generation order.
pub fn divide<S: SubtreeSearch>(
    root: &Position,
    depth: u32,
    threads: usize,
    search: &S,
    zobrist: &Zobrist,
    control: &RunControl<'_>,
) -> Result<Vec<(Move, Counts)>, Cancelled> {
    divide_with_work(root, depth, threads, search, zobrist, control).map(|(divide, _)| divide)
}

/// As [`divide`], with the work counters the search keeps (leaf count-ops, moves counted
/// without being made, items, launch depth).
pub fn divide_with_work<S: SubtreeSearch>(
    root: &Position,
    depth: u32,
    threads: usize,
    search: &S,
    zobrist: &Zobrist,
    control: &RunControl<'_>,
) -> Result<(Vec<(Move, Counts)>, WorkCounters), Cancelled> {
    if depth == 0 {
        return Ok((Vec::new(), WorkCounters::default()));
    }
    let threads = threads.max(1);
    let plan = plan(root, depth, threads, control.cancel)?;
    let tally = Tally::new(&plan);
    for (m, counts) in tally.complete_from_the_start() {
        (control.on_root_done)(m, counts);
    }
    let mut work = WorkCounters {
        items: plan.items.len() as u64,
        launch_depth: plan
            .items
            .iter()
            .map(|item| item.remaining)
            .max()
            .unwrap_or(0),
        // At depth 1 the plan counted the root's moves: the one count-op.
        leaf_count_ops: u128::from(depth == 1),
        ..WorkCounters::default()
    };
    let counted = Mutex::new(Counted {
        tally,
        leaf_count_ops: work.leaf_count_ops,
        null_counted: 0,
    });
    let next_item = AtomicUsize::new(0);
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<()>();

    std::thread::scope(|scope| {
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let (plan, counted, next_item) = (&plan, &counted, &next_item);
            scope.spawn(move || {
                let mut worker = search.worker();
                while !control.cancel.load(Ordering::Relaxed) {
                    let index = next_item.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = plan.items.get(index) else {
                        break;
                    };
                    let hash = zobrist.hash(&item.position);
                    let ops_before = specialized::leaf_count_ops();
                    let null_before = specialized::null_counted();
                    let result = match (item.remaining, search.counts_move_stats()) {
                        // A depth-1 run's items are the root's children: their one line's
                        // last move is the root move above them.
                        (0, true) => {
                            let m = plan.root_moves[item.roots[0].root];
                            Ok(Counts::with_stats(1, MoveStats::of_move(root, m)))
                        }
                        _ => search.count_until(
                            &mut worker,
                            &item.position,
                            hash,
                            item.remaining,
                            control.cancel,
                        ),
                    };
                    let Ok(counts) = result else {
                        break;
                    };
                    let ops = specialized::leaf_count_ops().wrapping_sub(ops_before);
                    let null_counted = specialized::null_counted().wrapping_sub(null_before);
                    let completed = {
                        let mut counted = counted.lock().unwrap_or_else(|e| e.into_inner());
                        counted.leaf_count_ops += u128::from(ops);
                        counted.null_counted += u128::from(null_counted);
                        counted.tally.record(item, counts)
                    };
                    for (m, root_counts) in completed {
                        (control.on_root_done)(m, root_counts);
                    }
                }
                // The receiver outlives every worker: it is dropped after the scope.
                let _ = done_tx.send(());
            });
        }
        drop(done_tx);
        let report = || {
            let (mut sample, leaf_count_ops, null_counted) = {
                let counted = counted.lock().unwrap_or_else(|e| e.into_inner());
                (
                    counted.tally.progress(),
                    counted.leaf_count_ops,
                    counted.null_counted,
                )
            };
            sample.tt = search.tt_snapshot();
            let mut live = WorkCounters {
                leaf_count_ops,
                null_counted,
                ..work.clone()
            };
            live.set_table_counts(sample.tt.as_ref());
            sample.work = Some(live);
            (control.on_progress)(sample);
        };
        let mut running = threads;
        while running > 0 {
            match done_rx.recv_timeout(control.progress_interval) {
                Ok(()) => running -= 1,
                Err(RecvTimeoutError::Timeout) => report(),
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        report();
    });

    if control.cancel.load(Ordering::Relaxed) {
        return Err(Cancelled);
    }
    let counted = counted.into_inner().unwrap_or_else(|e| e.into_inner());
    work.leaf_count_ops = counted.leaf_count_ops;
    work.null_counted = counted.null_counted;
    let tt = search.tt_snapshot();
    work.set_table_counts(tt.as_ref());
    // Through the table, a node's children are made exactly when its probe misses.
    for depth in tt.iter().flat_map(|tt| &tt.per_depth) {
        work.positions_expanded
            .add(depth.depth, depth.counts.misses);
    }
    Ok((counted.tally.into_divide(), work))
}
