//! Runs one job to completion on the calling thread, reporting through a callback.

use super::event::{nodes_per_second, EngineError, Event, PerftResult, Progress};
use super::job::Job;
use super::provider::{BackendProvider, Resolved};
use super::table_forecast;
use crate::backend::run_control::{ProgressSample, RunControl};
use crate::backend::{Backend, BackendKind, RunError, RunOutcome, RunRequest, MAX_DEPTH};
use crate::chess::{attacks, specialized, Move, Zobrist};
use crate::count::Counts;
use crate::tt::TtMode;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often a running job reports progress.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Runs `job` on the backend `backends` gives it, sending `Started`, `Progress`,
/// `RootMoveDone` and exactly one of `Finished`, `Failed` or `Cancelled` to `emit`. A job that
/// panics ends with `Failed` (and every open backend is dropped, as it may be in any state).
pub fn run_job(
    job: &Job,
    backends: &mut dyn BackendProvider,
    cancel: &AtomicBool,
    emit: &(dyn Fn(Event) + Sync),
) {
    let ran = catch_unwind(AssertUnwindSafe(|| run(job, backends, cancel, emit)));
    if let Err(panic) = ran {
        backends.reset();
        let message = panic
            .downcast_ref::<&str>()
            .map(|text| text.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        emit(Event::Failed {
            job: job.id,
            error: EngineError::Panicked(message),
        });
    }
}

fn run(
    job: &Job,
    backends: &mut dyn BackendProvider,
    cancel: &AtomicBool,
    emit: &(dyn Fn(Event) + Sync),
) {
    let id = job.id;
    let fail = |error: EngineError| emit(Event::Failed { job: id, error });
    if job.depth > MAX_DEPTH {
        return fail(EngineError::DepthOutOfRange {
            depth: job.depth,
            max: MAX_DEPTH,
        });
    }
    attacks::init();
    specialized::init();
    let zobrist = Zobrist::new(job.zobrist_seed);
    let Resolved {
        backend,
        note,
        holds_table,
    } = match backends.backend_for(job, cancel) {
        Ok(resolved) => resolved,
        Err(RunError::Cancelled) => return emit(Event::Cancelled { job: id }),
        Err(RunError::Failed(error)) => return fail(error.into()),
    };
    let keep_table = job.keep_table && holds_table;
    let mut tt = job.tt;
    if !job.tt_size_chosen {
        tt.bytes = backend.default_table_bytes().unwrap_or(tt.bytes);
    }
    if !keep_table {
        if let Err(error) = backend.prepare(&tt, &zobrist) {
            return fail(error.into());
        }
    }
    // Opening a device and preparing a table can take a while: a cancel in the meantime ends
    // the job here.
    if cancel.load(Ordering::Relaxed) {
        return emit(Event::Cancelled { job: id });
    }
    let request = job.request();
    let device = backend.device(&request);
    emit(Event::Started {
        job: id,
        device: device.clone(),
        note,
    });
    let start = Instant::now();
    let expected_stores = OnceLock::new();
    let on_progress = |sample: ProgressSample| {
        let elapsed = start.elapsed();
        emit(Event::Progress {
            job: id,
            progress: Box::new(Progress {
                nodes: sample.nodes,
                elapsed,
                nps: nodes_per_second(sample.nodes, elapsed),
                tasks_done: sample.tasks_done,
                tasks_total: sample.tasks_total,
                tt: sample.tt,
                work: sample.work,
                expected_table_stores: expected_stores.get().copied().flatten(),
            }),
        });
    };
    let on_root_done = |mv, counts| {
        emit(Event::RootMoveDone {
            job: id,
            mv,
            counts: Box::new(counts),
        })
    };
    let control = RunControl {
        cancel,
        progress_interval: PROGRESS_INTERVAL,
        on_progress: &on_progress,
        on_root_done: &on_root_done,
    };
    let kind = device.kind();
    // The CPU search's time goes to its table's stores: their final number, forecast beside
    // the run (and given up when the run ends first), is the clock of the time left.
    let forecast = kind == BackendKind::Cpu && job.tt.mode != TtMode::Off;
    let run_ended = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| {
        if forecast {
            scope.spawn(|| {
                let position = job.position;
                let stores = table_forecast::expected_stores(&position, job.depth, &run_ended);
                let _ = expected_stores.set(stores);
            });
        }
        let outcome = backend.run(&request, &control);
        run_ended.store(true, Ordering::Relaxed);
        outcome
    });
    let elapsed = start.elapsed();
    match outcome {
        Ok(RunOutcome {
            mut divide,
            tt,
            work,
        }) => {
            let counts = if job.depth == 0 {
                Counts::exact(1)
            } else {
                sum_of(&divide)
            };
            divide.sort_by_key(|(m, _)| m.to_string());
            let stats_by_depth = if job.stats_every_depth {
                match shallower_stats(backend, &request, cancel) {
                    Ok(mut rows) => {
                        rows.push((job.depth, counts));
                        rows
                    }
                    Err(RunError::Cancelled) => return emit(Event::Cancelled { job: id }),
                    Err(RunError::Failed(error)) => return fail(error.into()),
                }
            } else {
                Vec::new()
            };
            backends.table_finished(job, kind);
            emit(Event::Finished {
                job: id,
                result: Box::new(PerftResult {
                    position: job.position,
                    depth: job.depth,
                    counts,
                    divide,
                    elapsed,
                    device,
                    threads: job.threads,
                    zobrist_seed: job.zobrist_seed,
                    tt_mode: job.tt.mode,
                    tt,
                    work,
                    move_stats: job.move_stats,
                    stats_by_depth,
                }),
            });
        }
        Err(RunError::Cancelled) => emit(Event::Cancelled { job: id }),
        Err(RunError::Failed(error)) => fail(error.into()),
    }
}

/// The counts with their statistics at every depth from 1 to one less than `request`'s, after
/// `request` itself ran: they reuse the table it filled, so they cost little beside it, and
/// report no progress of their own.
fn shallower_stats(
    backend: &mut dyn Backend,
    request: &RunRequest,
    cancel: &AtomicBool,
) -> Result<Vec<(u32, Counts)>, RunError> {
    let silent = RunControl {
        cancel,
        progress_interval: PROGRESS_INTERVAL,
        on_progress: &|_| {},
        on_root_done: &|_, _| {},
    };
    (1..request.depth)
        .map(|depth| {
            let shallower = RunRequest { depth, ..*request };
            Ok((depth, sum_of(&backend.run(&shallower, &silent)?.divide)))
        })
        .collect()
}

/// The total of a divide.
fn sum_of(divide: &[(Move, Counts)]) -> Counts {
    divide.iter().map(|&(_, c)| c).sum()
}
