//! What to compute, and the one way the CLI and the window build it from what a person set.

use crate::backend::{RunRequest, MAX_DEPTH};
use crate::chess::zobrist::DEFAULT_SEED;
use crate::chess::Position;
use crate::gpu::options::{GpuOptions, Submissions};
use crate::tt::{TableSplit, TtConfig, TtMode, DEFAULT_VERIFIER_BITS};
use thiserror::Error;

/// The table size unless one is chosen, on the CPU and on Vulkan on the CPU; a GPU's default
/// is most of its free memory (`Backend::default_table_bytes`).
pub const DEFAULT_TT_MB: u64 = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobId(pub u64);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    Cpu,
    Vulkan,
    /// A GPU if a usable one exists (and the job needs nothing it lacks), else the CPU. Vulkan
    /// on the CPU (lavapipe, SwiftShader) is slower than the CPU backend and is not chosen.
    Auto,
}

impl BackendChoice {
    pub fn name(self) -> &'static str {
        match self {
            BackendChoice::Cpu => "cpu",
            BackendChoice::Vulkan => "vulkan",
            BackendChoice::Auto => "auto",
        }
    }

    /// What the choice runs on, for people choosing one.
    pub const fn description(self) -> &'static str {
        match self {
            BackendChoice::Cpu => "The CPU backend, on every core unless told otherwise.",
            BackendChoice::Vulkan => "A Vulkan device (the preferred one unless a device is chosen), even one that runs on the CPU.",
            BackendChoice::Auto => "A GPU if a usable one exists (and has what the job needs), else the CPU backend; Vulkan on the CPU (lavapipe) is not chosen.",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Job {
    pub id: JobId,
    pub position: Position,
    pub depth: u32,
    pub backend: BackendChoice,
    /// CPU threads; at least 1.
    pub threads: usize,
    pub zobrist_seed: u64,
    /// Mode, size and verifier width of the transposition table (none for `off`).
    pub tt: TtConfig,
    /// Whether the table's size was chosen: if not, `tt.bytes` is the default, and a backend
    /// with a default of its own uses that instead.
    pub tt_size_chosen: bool,
    /// Device and memory budget for the Vulkan backend.
    pub gpu: GpuOptions,
    /// Start from the table the previous job left when that job finished with the same
    /// backend, table and seed (the units of a work plan: remaining depth is part of every key,
    /// so entries stay true from one position to the next), its statistics going on from that
    /// job's; otherwise start empty.
    pub keep_table: bool,
    /// Count the move-type statistics too (`--stats`); `tt.move_stats` says the same.
    pub move_stats: bool,
    /// With `move_stats`, count every shallower depth's statistics too, after the job's own
    /// depth and with its table (the window's table by depth).
    pub stats_every_depth: bool,
}

impl Job {
    /// What the backend is asked to compute.
    pub fn request(&self) -> RunRequest {
        RunRequest {
            position: self.position,
            depth: self.depth,
            threads: self.threads,
            move_stats: self.move_stats,
        }
    }
}

/// A job as a person sets it up, in the units they use (MiB, "all cores").
#[derive(Clone, Debug)]
pub struct JobSpec {
    pub position: Position,
    pub depth: u32,
    pub backend: BackendChoice,
    /// Vulkan device index from `vkperft devices`; `None` for the preferred one.
    pub device: Option<usize>,
    /// Memory for the GPU's search buffers in MiB; `None` for the backend's default.
    pub gpu_mem_mb: Option<u64>,
    /// When the GPU's chunks go in one submission.
    pub submissions: Submissions,
    /// How the GPU's fast table shares its memory between remaining depths.
    pub table_split: TableSplit,
    /// CPU threads; `None` for every core.
    pub threads: Option<usize>,
    pub tt_mode: TtMode,
    /// Table size in MiB; `None` for the backend's default.
    pub tt_mb: Option<u64>,
    pub verifier_bits: u32,
    pub zobrist_seed: u64,
    /// Count the move-type statistics of the lines' last moves too (`--stats`).
    pub move_stats: bool,
    /// With `move_stats`, those of every shallower depth too ([`Job::stats_every_depth`]).
    pub stats_every_depth: bool,
}

/// Why a [`JobSpec`] is not a job.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum JobSpecError {
    #[error("depth {depth} is out of range (0..={MAX_DEPTH})")]
    DepthOutOfRange { depth: u32 },
    #[error("0 threads cannot run anything")]
    NoThreads,
}

impl JobSpec {
    /// Perft of `position` to `depth` with the defaults: auto backend, every core, a fast
    /// table of the backend's default size, the default Zobrist seed.
    pub fn new(position: Position, depth: u32) -> JobSpec {
        JobSpec {
            position,
            depth,
            backend: BackendChoice::Auto,
            device: None,
            gpu_mem_mb: None,
            submissions: Submissions::Auto,
            table_split: TableSplit::default(),
            threads: None,
            tt_mode: TtMode::Fast,
            tt_mb: None,
            verifier_bits: DEFAULT_VERIFIER_BITS,
            zobrist_seed: DEFAULT_SEED,
            move_stats: false,
            stats_every_depth: false,
        }
    }

    /// The CPU threads the job gets.
    pub fn thread_count(&self) -> usize {
        self.threads.unwrap_or_else(all_cores)
    }

    pub fn tt_config(&self) -> TtConfig {
        TtConfig {
            mode: self.tt_mode,
            bytes: mib_to_bytes(self.tt_mb.unwrap_or(DEFAULT_TT_MB)),
            verifier_bits: self.verifier_bits,
            move_stats: self.move_stats,
        }
    }

    pub fn job(&self, id: JobId) -> Result<Job, JobSpecError> {
        if self.depth > MAX_DEPTH {
            return Err(JobSpecError::DepthOutOfRange { depth: self.depth });
        }
        if self.threads == Some(0) {
            return Err(JobSpecError::NoThreads);
        }
        Ok(Job {
            id,
            position: self.position,
            depth: self.depth,
            backend: self.backend,
            threads: self.thread_count(),
            zobrist_seed: self.zobrist_seed,
            tt: self.tt_config(),
            tt_size_chosen: self.tt_mb.is_some(),
            gpu: GpuOptions {
                device: self.device,
                memory_budget: self.gpu_mem_mb.map(|mb| mb.saturating_mul(1 << 20)),
                submissions: self.submissions,
                table_split: self.table_split,
                ..GpuOptions::default()
            },
            keep_table: false,
            move_stats: self.move_stats,
            stats_every_depth: self.move_stats && self.stats_every_depth,
        })
    }
}

/// Every core of this machine.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `mib` MiB in bytes; a size beyond the address space saturates (and then fails to allocate
/// with a clear error).
pub fn mib_to_bytes(mib: u64) -> usize {
    usize::try_from(mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_becomes_a_job_in_bytes_and_threads() {
        let mut spec = JobSpec::new(Position::startpos(), 5);
        spec.tt_mb = Some(3);
        spec.gpu_mem_mb = Some(2);
        spec.threads = Some(7);
        let job = spec.job(JobId(9)).expect("a valid spec");
        assert_eq!(job.tt.bytes, 3 << 20);
        assert_eq!(job.gpu.memory_budget, Some(2 << 20));
        assert_eq!(job.threads, 7);
        assert_eq!(job.id, JobId(9));
        spec.threads = None;
        assert_eq!(spec.job(JobId(1)).map(|j| j.threads), Ok(all_cores()));
        assert_eq!(mib_to_bytes(u64::MAX), usize::MAX);
    }

    #[test]
    fn bad_specs_say_why() {
        let mut spec = JobSpec::new(Position::startpos(), MAX_DEPTH + 1);
        assert_eq!(
            spec.job(JobId(1)).err(),
            Some(JobSpecError::DepthOutOfRange {
                depth: MAX_DEPTH + 1
            })
        );
        spec.depth = 1;
        spec.threads = Some(0);
        assert_eq!(spec.job(JobId(1)).err(), Some(JobSpecError::NoThreads));
        spec.threads = None;
        spec.move_stats = true;
        assert!(spec
            .job(JobId(1))
            .is_ok_and(|job| job.move_stats && job.tt.move_stats && !job.stats_every_depth));
        spec.stats_every_depth = true;
        assert!(spec.job(JobId(1)).is_ok_and(|job| job.stats_every_depth));
        spec.move_stats = false;
        assert!(spec.job(JobId(1)).is_ok_and(|job| !job.stats_every_depth));
    }
}
