//! Runs one job to completion on the calling thread, reporting through a callback.

use super::event::{nodes_per_second, EngineError, Event, PerftResult, Progress};
use super::job::{BackendChoice, Job, MAX_DEPTH};
use crate::chess::{attacks, Move, Zobrist};
use crate::count::Counts;
use crate::cpu::parallel::{self, Cancelled, ProgressSample, RunControl};
use crate::cpu::search::{PlainSearch, SubtreeSearch, TtSearch};
use crate::tt::{TranspositionTable, TtMode};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How often a running job reports progress.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Runs `job`, sending `Started`, `Progress`, `RootMoveDone` and exactly one of `Finished`,
/// `Failed` or `Cancelled` to `emit`.
pub fn run_job(job: &Job, cancel: &AtomicBool, emit: &(dyn Fn(Event) + Sync)) {
    let id = job.id;
    if job.depth > MAX_DEPTH {
        emit(Event::Failed {
            job: id,
            error: EngineError::DepthOutOfRange {
                depth: job.depth,
                max: MAX_DEPTH,
            },
        });
        return;
    }
    attacks::init();
    let table = match job.tt.mode {
        TtMode::Off => None,
        _ => match TranspositionTable::new(&job.tt) {
            Ok(table) => Some(table),
            Err(error) => {
                emit(Event::Failed {
                    job: id,
                    error: error.into(),
                });
                return;
            }
        },
    };
    emit(Event::Started { job: id });
    let zobrist = Zobrist::new(job.zobrist_seed);
    let start = Instant::now();
    let on_progress = |sample: ProgressSample| {
        let elapsed = start.elapsed();
        emit(Event::Progress {
            job: id,
            progress: Progress {
                nodes: sample.nodes,
                elapsed,
                nps: nodes_per_second(sample.nodes, elapsed),
                tasks_done: sample.tasks_done,
                tasks_total: sample.tasks_total,
                tt: table.as_ref().map(TranspositionTable::snapshot),
            },
        });
    };
    let on_root_done = |mv, counts| {
        emit(Event::RootMoveDone {
            job: id,
            mv,
            counts,
        })
    };
    let control = RunControl {
        cancel,
        progress_interval: PROGRESS_INTERVAL,
        on_progress: &on_progress,
        on_root_done: &on_root_done,
    };
    let outcome = match (job.backend, &table) {
        (BackendChoice::Cpu, None) => cpu_divide(job, &PlainSearch, &zobrist, &control),
        (BackendChoice::Cpu, Some(table)) => {
            let search = TtSearch {
                table,
                zobrist: &zobrist,
            };
            cpu_divide(job, &search, &zobrist, &control)
        }
    };
    match outcome {
        Ok(mut divide) => {
            let counts = if job.depth == 0 {
                Counts::exact(1)
            } else {
                divide.iter().map(|&(_, c)| c).sum()
            };
            divide.sort_by_key(|(m, _)| m.to_string());
            emit(Event::Finished {
                job: id,
                result: Box::new(PerftResult {
                    position: job.position,
                    depth: job.depth,
                    counts,
                    divide,
                    elapsed: start.elapsed(),
                    backend: job.backend.name(),
                    threads: job.threads,
                    zobrist_seed: job.zobrist_seed,
                    tt_mode: job.tt.mode,
                    tt: table.as_ref().map(TranspositionTable::snapshot),
                }),
            });
        }
        Err(Cancelled) => emit(Event::Cancelled { job: id }),
    }
}

fn cpu_divide<S: SubtreeSearch>(
    job: &Job,
    search: &S,
    zobrist: &Zobrist,
    control: &RunControl<'_>,
) -> Result<Vec<(Move, Counts)>, Cancelled> {
    parallel::divide(
        &job.position,
        job.depth,
        job.threads,
        search,
        zobrist,
        control,
    )
}
