//! Parallel CPU perft.
//!
//! The top plies are expanded into a frontier of tasks, finer than the root moves, so every
//! thread stays busy on lopsided trees; threads take tasks from a shared counter. Tasks are kept
//! grouped by root move so that root moves complete (and are reported) one after another.
//! Cancellation is checked between tasks, and the frontier is deep enough that a task is short.

use super::search::SubtreeSearch;
use crate::chess::movegen::legal_moves;
use crate::chess::{Hash128, Move, Position, Zobrist};
use crate::count::Counts;
use crate::run_control::{Cancelled, ProgressSample, RunControl};
use crossbeam_channel::RecvTimeoutError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Expansion stops once there are this many tasks per thread and tasks are no deeper than
/// [`MAX_TASK_DEPTH`] ...
const TASKS_PER_THREAD: usize = 64;
/// ... unless tasks would still be deeper than this (slow to cancel) ...
const MAX_TASK_DEPTH: u32 = 5;
/// ... and never beyond this many tasks (about 100 bytes each).
const MAX_TASKS: usize = 1 << 20;

struct Task {
    root: usize,
    pos: Position,
    hash: Hash128,
}

/// Root moves and the tasks below them, each `remaining` plies deep.
struct Frontier {
    root_moves: Vec<Move>,
    tasks: Vec<Task>,
    tasks_per_root: Vec<usize>,
    remaining: u32,
}

fn build_frontier(root: &Position, depth: u32, zobrist: &Zobrist, threads: usize) -> Frontier {
    let root_hash = zobrist.hash(root);
    let root_moves: Vec<Move> = legal_moves(root).iter().copied().collect();
    let mut tasks: Vec<Task> = root_moves
        .iter()
        .enumerate()
        .map(|(root_index, &m)| {
            let pos = root.play(m);
            Task {
                root: root_index,
                hash: root_hash ^ zobrist.move_delta(root, m, &pos),
                pos,
            }
        })
        .collect();
    let mut remaining = depth - 1;
    while remaining > 2 && (tasks.len() < TASKS_PER_THREAD * threads || remaining > MAX_TASK_DEPTH)
    {
        let mut next = Vec::with_capacity(tasks.len() * 32);
        for task in &tasks {
            for &m in legal_moves(&task.pos).iter() {
                let pos = task.pos.play(m);
                next.push(Task {
                    root: task.root,
                    hash: task.hash ^ zobrist.move_delta(&task.pos, m, &pos),
                    pos,
                });
            }
        }
        if next.len() > MAX_TASKS {
            break;
        }
        tasks = next;
        remaining -= 1;
    }
    let mut tasks_per_root = vec![0; root_moves.len()];
    for task in &tasks {
        tasks_per_root[task.root] += 1;
    }
    Frontier {
        root_moves,
        tasks,
        tasks_per_root,
        remaining,
    }
}

struct RootState {
    counts: Counts,
    tasks_left: usize,
}

struct Shared {
    roots: Vec<RootState>,
    nodes_done: u128,
    tasks_done: usize,
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
    if depth == 0 {
        return Ok(Vec::new());
    }
    let threads = threads.max(1);
    let frontier = build_frontier(root, depth, zobrist, threads);
    // Root moves without tasks (mate or stalemate below them) are done from the start.
    for (index, &m) in frontier.root_moves.iter().enumerate() {
        if frontier.tasks_per_root[index] == 0 {
            (control.on_root_done)(m, Counts::default());
        }
    }
    let shared = Mutex::new(Shared {
        roots: frontier
            .tasks_per_root
            .iter()
            .map(|&tasks_left| RootState {
                counts: Counts::default(),
                tasks_left,
            })
            .collect(),
        nodes_done: 0,
        tasks_done: 0,
    });
    let next_task = AtomicUsize::new(0);
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<()>();

    std::thread::scope(|scope| {
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let (frontier, shared, next_task) = (&frontier, &shared, &next_task);
            scope.spawn(move || {
                let mut worker = search.worker();
                while !control.cancel.load(Ordering::Relaxed) {
                    let index = next_task.fetch_add(1, Ordering::Relaxed);
                    let Some(task) = frontier.tasks.get(index) else {
                        break;
                    };
                    let counts =
                        search.count(&mut worker, &task.pos, task.hash, frontier.remaining);
                    let finished_root = {
                        let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
                        shared.nodes_done += counts.nodes;
                        shared.tasks_done += 1;
                        let root = &mut shared.roots[task.root];
                        root.counts += counts;
                        root.tasks_left -= 1;
                        (root.tasks_left == 0).then_some(root.counts)
                    };
                    if let Some(root_counts) = finished_root {
                        (control.on_root_done)(frontier.root_moves[task.root], root_counts);
                    }
                }
                // The receiver outlives every worker: it is dropped after the scope.
                let _ = done_tx.send(());
            });
        }
        drop(done_tx);
        let report = || {
            let shared = shared.lock().unwrap_or_else(|e| e.into_inner());
            (control.on_progress)(ProgressSample {
                nodes: shared.nodes_done,
                tasks_done: shared.tasks_done,
                tasks_total: frontier.tasks.len(),
                tt: None,
            });
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
    let shared = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(frontier
        .root_moves
        .into_iter()
        .zip(shared.roots)
        .map(|(m, root)| (m, root.counts))
        .collect())
}
