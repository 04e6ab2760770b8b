//! The backends of this machine: the CPU, and a Vulkan device opened on first use and kept
//! open between jobs. `auto` resolves here.

use super::job::{BackendChoice, Job};
use super::provider::{BackendProvider, Resolved};
use crate::backend::{Backend, BackendKind, RunError};
use crate::cpu::backend::CpuBackend;
use crate::gpu::backend::VulkanBackend;
use crate::gpu::device::{auto_device, list_devices, DeviceInfo};
use crate::gpu::error::GpuError;
use crate::gpu::options::GpuOptions;
use crate::tt::{TtConfig, TtMode};
use std::sync::atomic::AtomicBool;

/// `auto` runs jobs this shallow on the CPU without looking for a device: the CPU counts them
/// (at most a few hundred million leaves from the positions of real games) in about the time a
/// device takes to open.
pub const AUTO_CPU_MAX_DEPTH: u32 = 5;

/// Where `auto` runs, decided once per engine from the device list.
#[derive(Clone, Debug)]
enum AutoChoice {
    /// The GPU at this index of `vkperft devices`.
    Gpu(usize),
    /// The CPU backend, for this reason.
    Cpu(String),
}

/// What the table of the last finished job was made for: the backend that ran it (not the
/// one asked for: `auto` may resolve to either), its table and its keys. Reopening the device
/// (other options) forgets it.
#[derive(Clone, Debug, PartialEq)]
struct TableOwner {
    ran_on: BackendKind,
    tt: TtConfig,
    zobrist_seed: u64,
}

impl TableOwner {
    fn of(job: &Job, ran_on: BackendKind) -> TableOwner {
        TableOwner {
            ran_on,
            tt: job.tt,
            zobrist_seed: job.zobrist_seed,
        }
    }
}

#[derive(Default)]
pub struct Backends {
    cpu: CpuBackend,
    vulkan: Option<(GpuOptions, VulkanBackend)>,
    /// The Vulkan devices, once listed (the window's backend box and `auto` share the list).
    device_list: Option<Result<Vec<DeviceInfo>, GpuError>>,
    auto: Option<AutoChoice>,
    /// The last job that finished, if its backend still holds its table.
    finished_table: Option<TableOwner>,
}

impl Backends {
    /// The Vulkan backend for `options`, opened unless it is open and healthy; `Cancelled` if
    /// `cancel` is set while it opens.
    fn vulkan(
        &mut self,
        options: &GpuOptions,
        cancel: &AtomicBool,
    ) -> Result<&mut VulkanBackend, RunError> {
        let reusable = self
            .vulkan
            .as_ref()
            .is_some_and(|(opened_with, backend)| opened_with == options && backend.is_healthy());
        if !reusable {
            // Free the old device's memory before opening another.
            self.vulkan = None;
            self.finished_table = None;
            let opened = VulkanBackend::open(options, cancel)?;
            self.vulkan = Some((options.clone(), opened.ok_or(RunError::Cancelled)?));
        }
        match &mut self.vulkan {
            Some((_, backend)) => Ok(backend),
            None => unreachable!("opened just above"),
        }
    }

    fn device_list(&mut self) -> &Result<Vec<DeviceInfo>, GpuError> {
        self.device_list.get_or_insert_with(list_devices)
    }

    fn auto_choice(&mut self) -> AutoChoice {
        if let Some(choice) = &self.auto {
            return choice.clone();
        }
        let choice = match self.device_list() {
            Ok(devices) => match auto_device(devices) {
                Some(index) => AutoChoice::Gpu(index),
                None => AutoChoice::Cpu(why_no_gpu(devices)),
            },
            Err(error) => AutoChoice::Cpu(format!("no Vulkan device ({error})")),
        };
        self.auto = Some(choice.clone());
        choice
    }
}

impl Backends {
    /// The kind of backend `job` runs on, the device opened if it is Vulkan, and for `auto`
    /// why.
    fn resolve(
        &mut self,
        job: &Job,
        cancel: &AtomicBool,
    ) -> Result<(BackendKind, Option<String>), RunError> {
        let wants_gpu = match job.backend {
            BackendChoice::Cpu => false,
            BackendChoice::Vulkan => true,
            // A device chosen by index is asked for, whatever its kind.
            BackendChoice::Auto => job.gpu.device.is_some(),
        };
        if wants_gpu {
            self.vulkan(&job.gpu, cancel)?;
            return Ok((BackendKind::Vulkan, None));
        }
        if job.backend == BackendChoice::Cpu {
            return Ok((BackendKind::Cpu, None));
        }
        let cpu_because = |reason: String| Some(format!("auto: using the CPU: {reason}"));
        if job.move_stats {
            return Ok((
                BackendKind::Cpu,
                cpu_because(
                    "the CPU counts move-type statistics in bulk; the Vulkan backend makes \
                     every last-ply move to classify it (--backend vulkan uses it)"
                        .to_string(),
                ),
            ));
        }
        if job.depth <= AUTO_CPU_MAX_DEPTH {
            return Ok((
                BackendKind::Cpu,
                cpu_because(format!(
                    "a perft of depth {AUTO_CPU_MAX_DEPTH} or less is counted before a device \
                     would be open"
                )),
            ));
        }
        let note = match self.auto_choice() {
            AutoChoice::Cpu(reason) => cpu_because(reason),
            AutoChoice::Gpu(index) => {
                let options = GpuOptions {
                    device: Some(index),
                    ..job.gpu.clone()
                };
                // Why the GPU cannot take this job's table, if it cannot.
                let refusal = self.vulkan(&options, cancel).map(|gpu| match job.tt.mode {
                    TtMode::Off => None,
                    _ => gpu.runner().table_refusal(),
                });
                match refusal {
                    Ok(Some(reason)) => {
                        cpu_because(format!("the GPU runs no {} table: {reason}", job.tt.mode))
                    }
                    Ok(None) => {
                        let Some((_, gpu)) = &self.vulkan else {
                            unreachable!("opened just above");
                        };
                        let note = format!("auto: using Vulkan on {}", gpu.runner().device_name());
                        return Ok((BackendKind::Vulkan, Some(note)));
                    }
                    Err(RunError::Cancelled) => return Err(RunError::Cancelled),
                    Err(RunError::Failed(error)) => {
                        cpu_because(format!("the GPU could not be opened ({error})"))
                    }
                }
            }
        };
        Ok((BackendKind::Cpu, note))
    }
}

/// Why `auto` found no GPU among `devices`.
fn why_no_gpu(devices: &[DeviceInfo]) -> String {
    let on_cpu: Vec<&str> = devices
        .iter()
        .filter(|d| d.usable() && !d.kind.is_gpu())
        .map(|d| d.name.as_str())
        .collect();
    if devices.is_empty() {
        "no Vulkan device found".to_string()
    } else if !on_cpu.is_empty() {
        format!(
            "no GPU found; {} implements Vulkan on the CPU, slower than the CPU backend \
             (--backend vulkan uses it)",
            on_cpu.join(", ")
        )
    } else {
        let reasons: Vec<String> = devices
            .iter()
            .map(|d| format!("{} lacks {}", d.name, d.missing.join(", ")))
            .collect();
        format!("no usable GPU ({})", reasons.join("; "))
    }
}

impl BackendProvider for Backends {
    fn backend_for(&mut self, job: &Job, cancel: &AtomicBool) -> Result<Resolved<'_>, RunError> {
        let (kind, note) = self.resolve(job, cancel)?;
        // Until this job finishes, no later job may count on the table (a device opened
        // afresh has forgotten it already).
        let finished_table = self.finished_table.take();
        let holds_table = finished_table == Some(TableOwner::of(job, kind));
        let backend: &mut dyn Backend = match (kind, &mut self.vulkan) {
            (BackendKind::Vulkan, Some((_, gpu))) => gpu,
            (BackendKind::Vulkan, None) => unreachable!("resolved to an open device"),
            (BackendKind::Cpu, _) => &mut self.cpu,
        };
        Ok(Resolved {
            backend,
            note,
            holds_table,
        })
    }

    fn reset(&mut self) {
        *self = Backends {
            device_list: self.device_list.take(),
            auto: self.auto.take(),
            ..Backends::default()
        };
    }

    fn devices(&mut self) -> Vec<DeviceInfo> {
        self.device_list().clone().unwrap_or_default()
    }

    fn table_finished(&mut self, job: &Job, kind: BackendKind) {
        self.finished_table = Some(TableOwner::of(job, kind));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::moves::MAX_MOVES;
    use crate::gpu::chunk_arrays::MAX_POSITION_INDEX;
    use crate::gpu::device::{DeviceKind, MemoryHeap};
    use crate::gpu::layouts::{inner_positions, MAX_INNER_POSITIONS};
    use crate::gpu::runner::memory_defaults;

    fn device(index: usize, name: &str, kind: DeviceKind, usable: bool) -> DeviceInfo {
        DeviceInfo {
            index,
            name: name.to_string(),
            kind,
            driver: "test".to_string(),
            api_version: "1.3".to_string(),
            heaps: Vec::new(),
            shader_int64: usable,
            buffer_int64_atomics: usable,
            buffer_device_address: usable,
            vulkan_memory_model: usable,
            subgroup_arithmetic: usable,
            subgroup_size: 32,
            max_storage_buffer_range: 1 << 27,
            max_memory_allocation_size: 1 << 31,
            max_workgroups: 65_535,
            headless: false,
            has_compute_queue: true,
            missing: if usable {
                Vec::new()
            } else {
                vec!["shaderInt64".to_string()]
            },
            tt_missing: Vec::new(),
        }
    }

    /// A 139 GiB GPU gets a table of most of its free memory beside chunk buffers of a quarter
    /// of it, which no binding caps (their arrays are segments reached by device address);
    /// Vulkan on the CPU keeps the job's table size.
    #[test]
    fn memory_defaults_follow_the_free_memory() {
        const GIB: u64 = 1 << 30;
        let mut gpu = device(0, "big GPU", DeviceKind::Discrete, true);
        gpu.max_storage_buffer_range = u32::MAX;
        gpu.max_memory_allocation_size = 4 * GIB;
        gpu.heaps = vec![MemoryHeap {
            bytes: 139 * GIB,
            device_local: true,
            free: Some(138 * GIB),
        }];
        let defaults = memory_defaults(&gpu);
        assert_eq!(defaults.free, 138 * GIB);
        // The budget would hold more positions than indices below 2^31 - 1 reach. The levels
        // above the leaf level hold at most 16.7 M positions (80 bytes each), whose children
        // number below 2^32.
        assert_eq!(defaults.chunk_positions, MAX_POSITION_INDEX);
        assert_eq!(
            inner_positions(defaults.chunk_positions),
            MAX_INNER_POSITIONS
        );
        assert!(MAX_INNER_POSITIONS * MAX_MOVES as u64 <= u64::from(u32::MAX));
        assert_eq!(
            defaults.chunk_bytes,
            defaults.chunk_positions * 16 + MAX_INNER_POSITIONS * 80
        );
        assert!(defaults.chunk_bytes > 32 * GIB, "{}", defaults.chunk_bytes);
        // 2 GiB segments: 8 each of children and dedup slots, one of every inner array (the
        // statistics arrays, which a node count leaves out, too).
        assert_eq!(defaults.chunk_segment_bytes, 2 * GIB);
        assert_eq!(defaults.chunk_segments, 8 + 8 + 4 + 2);
        // The table: free memory less the chunk buffers and a 5% reserve.
        let table = defaults.table_bytes.expect("a GPU gets a default table");
        assert!(
            table > 95 * GIB && table < 138 * GIB - defaults.chunk_bytes,
            "{table}"
        );

        let mut lavapipe = device(1, "llvmpipe", DeviceKind::Cpu, true);
        lavapipe.heaps = gpu.heaps.clone();
        assert_eq!(memory_defaults(&lavapipe).table_bytes, None);
        // Without a budget from the driver, the whole heap counts as free.
        lavapipe.heaps[0].free = None;
        assert_eq!(memory_defaults(&lavapipe).free, 139 * GIB);
    }

    #[test]
    fn auto_takes_a_gpu_and_never_vulkan_on_the_cpu() {
        let lavapipe = device(0, "llvmpipe", DeviceKind::Cpu, true);
        assert_eq!(auto_device(std::slice::from_ref(&lavapipe)), None);
        let reason = why_no_gpu(std::slice::from_ref(&lavapipe));
        assert!(
            reason.contains("llvmpipe implements Vulkan on the CPU"),
            "{reason}"
        );

        let integrated = device(1, "iGPU", DeviceKind::Integrated, true);
        let discrete = device(2, "dGPU", DeviceKind::Discrete, true);
        let devices = [lavapipe.clone(), integrated.clone(), discrete];
        assert_eq!(auto_device(&devices), Some(2));
        assert_eq!(auto_device(&[lavapipe.clone(), integrated]), Some(1));

        let old_gpu = device(1, "old GPU", DeviceKind::Discrete, false);
        let devices = [lavapipe, old_gpu];
        assert_eq!(auto_device(&devices), None);
        assert!(why_no_gpu(&devices).contains("llvmpipe"));
        let reason = why_no_gpu(&devices[1..]);
        assert!(reason.contains("old GPU lacks shaderInt64"), "{reason}");
        assert_eq!(why_no_gpu(&[]), "no Vulkan device found");
    }

    /// The backend kind and note `auto` resolves a start position perft of `depth` to.
    fn auto_for_depth(backends: &mut Backends, depth: u32) -> (BackendKind, Option<String>) {
        let job = crate::engine::job::JobSpec::new(crate::chess::Position::startpos(), depth)
            .job(crate::engine::job::JobId(1))
            .expect("a valid job");
        let resolved = backends
            .backend_for(&job, &AtomicBool::new(false))
            .expect("a backend");
        let kind = resolved.backend.device(&job.request()).kind();
        (kind, resolved.note)
    }

    #[test]
    fn auto_without_a_gpu_runs_on_the_cpu_and_says_why() {
        let mut backends = Backends {
            auto: Some(AutoChoice::Cpu("no GPU found".to_string())),
            ..Backends::default()
        };
        let (kind, note) = auto_for_depth(&mut backends, 6);
        assert_eq!(kind, BackendKind::Cpu);
        assert_eq!(note.as_deref(), Some("auto: using the CPU: no GPU found"));
        assert!(backends.vulkan.is_none(), "no device was opened");
    }

    #[test]
    fn auto_runs_shallow_jobs_on_the_cpu_without_looking_for_a_device() {
        let mut backends = Backends::default();
        for depth in 1..=AUTO_CPU_MAX_DEPTH {
            let (kind, note) = auto_for_depth(&mut backends, depth);
            assert_eq!(kind, BackendKind::Cpu);
            assert_eq!(
                note.as_deref(),
                Some(
                    "auto: using the CPU: a perft of depth 5 or less is counted before a device \
                     would be open"
                )
            );
        }
        assert!(backends.auto.is_none(), "no device was listed");
        assert!(backends.vulkan.is_none(), "no device was opened");
    }

    /// The table a job finished with belongs to the backend that ran it, not to the choice
    /// asked for: after `auto` ran on the CPU, a CPU job keeps the table, and an `auto` job
    /// that now resolves to a Vulkan device does not.
    #[test]
    fn a_kept_table_belongs_to_the_backend_that_ran() {
        let cancel = AtomicBool::new(false);
        let mut backends = Backends {
            auto: Some(AutoChoice::Cpu("no GPU found".to_string())),
            ..Backends::default()
        };
        let mut spec = crate::engine::job::JobSpec::new(crate::chess::Position::startpos(), 6);
        let auto_job = spec.job(crate::engine::job::JobId(1)).expect("a valid job");
        let first = backends.backend_for(&auto_job, &cancel).expect("the CPU");
        assert!(!first.holds_table, "no job has finished");
        backends.table_finished(&auto_job, BackendKind::Cpu);

        spec.backend = BackendChoice::Cpu;
        let cpu_job = spec.job(crate::engine::job::JobId(2)).expect("a valid job");
        let resolved = backends.backend_for(&cpu_job, &cancel).expect("the CPU");
        assert!(resolved.holds_table, "the CPU ran the auto job");
        let again = backends.backend_for(&cpu_job, &cancel).expect("the CPU");
        assert!(
            !again.holds_table,
            "a job that did not finish leaves no table to keep"
        );
        backends.table_finished(&cpu_job, BackendKind::Cpu);

        backends.auto = Some(AutoChoice::Gpu(0));
        let resolved = backends.backend_for(&auto_job, &cancel).expect("a device");
        assert_eq!(
            resolved.backend.device(&auto_job.request()).kind(),
            BackendKind::Vulkan,
            "{:?}",
            resolved.note
        );
        assert!(
            !resolved.holds_table,
            "the device never held the CPU's table"
        );
    }
}
