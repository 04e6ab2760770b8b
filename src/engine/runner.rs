//! Runs one job to completion on the calling thread, reporting through a callback.

use super::event::{nodes_per_second, EngineError, Event, PerftResult, Progress};
use super::job::{BackendChoice, Job, MAX_DEPTH};
use crate::chess::{attacks, Move, Zobrist};
use crate::count::Counts;
use crate::cpu::parallel;
use crate::cpu::search::{PlainSearch, SubtreeSearch, TtSearch};
use crate::gpu::backend::{GpuRunError, PrepareError};
use crate::gpu::{GpuOptions, VulkanBackend};
use crate::run_control::{Cancelled, ProgressSample, RunControl};
use crate::tt::{TranspositionTable, TtMode};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How often a running job reports progress.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Backends kept between jobs: opening a Vulkan device and building its pipelines is slow.
#[derive(Default)]
pub struct Backends {
    vulkan: Option<(GpuOptions, VulkanBackend)>,
}

impl Backends {
    fn vulkan(&mut self, options: &GpuOptions) -> Result<&mut VulkanBackend, EngineError> {
        let reusable = self
            .vulkan
            .as_ref()
            .is_some_and(|(opened_with, _)| opened_with == options);
        if !reusable {
            // Free the old device's memory before opening another.
            self.vulkan = None;
            self.vulkan = Some((options.clone(), VulkanBackend::new(options)?));
        }
        match &mut self.vulkan {
            Some((_, backend)) => Ok(backend),
            None => unreachable!("opened just above"),
        }
    }
}

/// The backend a job will run on after `auto` is resolved.
/// `note` says, for `auto`, which backend was chosen and why.
enum Resolved<'a> {
    Cpu {
        note: Option<String>,
    },
    Vulkan {
        backend: &'a mut VulkanBackend,
        note: Option<String>,
    },
}

fn resolve<'a>(job: &Job, backends: &'a mut Backends) -> Result<Resolved<'a>, EngineError> {
    let tt = job.tt.mode != TtMode::Off;
    match job.backend {
        BackendChoice::Cpu => Ok(Resolved::Cpu { note: None }),
        BackendChoice::Vulkan => Ok(Resolved::Vulkan {
            backend: backends.vulkan(&job.gpu)?,
            note: None,
        }),
        BackendChoice::Auto => match backends.vulkan(&job.gpu) {
            Ok(backend) if tt && !backend.supports_tt() => Ok(Resolved::Cpu {
                note: Some(format!(
                    "auto: using the CPU because --tt {} needs what {} lacks ({})",
                    job.tt.mode,
                    backend.device_name(),
                    backend.device_info().tt_missing.join(", ")
                )),
            }),
            Ok(backend) => {
                let note = Some(format!("auto: using Vulkan on {}", backend.device_name()));
                Ok(Resolved::Vulkan { backend, note })
            }
            Err(err) => Ok(Resolved::Cpu {
                note: Some(format!(
                    "auto: no usable Vulkan device ({err}); using the CPU"
                )),
            }),
        },
    }
}

/// Runs `job`, sending `Started`, `Progress`, `RootMoveDone` and exactly one of `Finished`,
/// `Failed` or `Cancelled` to `emit`.
pub fn run_job(
    job: &Job,
    backends: &mut Backends,
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
    let zobrist = Zobrist::new(job.zobrist_seed);
    let mut resolved = match resolve(job, backends) {
        Ok(resolved) => resolved,
        Err(error) => return fail(error),
    };
    if let Resolved::Vulkan { backend, .. } = &mut resolved {
        match backend.prepare_tt(&job.tt, &zobrist) {
            Ok(()) => {}
            Err(PrepareError::Tt(error)) => return fail(error.into()),
            Err(PrepareError::Gpu(error)) => {
                backends.vulkan = None;
                return fail(error.into());
            }
        }
    }
    let table = match (job.tt.mode, &resolved) {
        (TtMode::Off, _) | (_, Resolved::Vulkan { .. }) => None,
        _ => match TranspositionTable::new(&job.tt) {
            Ok(table) => Some(table),
            Err(error) => return fail(error.into()),
        },
    };
    let (backend, device, note) = match &resolved {
        Resolved::Cpu { note } => ("cpu", format!("{} thread(s)", job.threads), note.clone()),
        Resolved::Vulkan { backend, note } => {
            ("vulkan", backend.device_name().to_string(), note.clone())
        }
    };
    emit(Event::Started {
        job: id,
        backend,
        device: device.clone(),
        note,
    });
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
                tt: sample
                    .tt
                    .or_else(|| table.as_ref().map(TranspositionTable::snapshot)),
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
    let outcome = match (resolved, &table) {
        (Resolved::Cpu { .. }, None) => cpu_divide(job, &PlainSearch, &zobrist, &control)
            .map(|divide| (divide, None))
            .map_err(GpuRunError::from),
        (Resolved::Cpu { .. }, Some(table)) => {
            let search = TtSearch {
                table,
                zobrist: &zobrist,
            };
            cpu_divide(job, &search, &zobrist, &control)
                .map(|divide| (divide, Some(table.snapshot())))
                .map_err(GpuRunError::from)
        }
        (Resolved::Vulkan { backend, .. }, _) => backend
            .divide(&job.position, job.depth, &control)
            .and_then(|divide| Ok((divide, backend.tt_snapshot()?))),
    };
    match outcome {
        Ok((mut divide, tt)) => {
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
                    backend,
                    device,
                    threads: job.threads,
                    zobrist_seed: job.zobrist_seed,
                    tt_mode: job.tt.mode,
                    tt,
                }),
            });
        }
        Err(GpuRunError::Cancelled) => emit(Event::Cancelled { job: id }),
        Err(GpuRunError::Gpu(error)) => {
            // A failed device may be unusable: open it afresh next time.
            backends.vulkan = None;
            fail(error.into());
        }
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
