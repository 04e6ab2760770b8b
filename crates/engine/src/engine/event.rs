//! What the engine reports.

use super::job::JobId;
use crate::backend::{BackendError, Device};
use crate::chess::{Move, MoveStat, MoveStats, Position};
use crate::count::Counts;
use crate::gpu::error::GpuError;
use crate::tt::{TtError, TtMode, TtStatsSnapshot};
use crate::work_counters::WorkCounters;
use std::time::Duration;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    #[error("depth {depth} is out of range (0..={max})")]
    DepthOutOfRange { depth: u32, max: u32 },
    #[error(transparent)]
    Tt(#[from] TtError),
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A backend's own failure that is none of the above.
    #[error("{0}")]
    Backend(String),
    /// A bug (or a driver failure surfacing as a panic) stopped the run.
    #[error("the run stopped on an internal error: {0}")]
    Panicked(String),
}

/// A backend's failure as the engine reports it: a device's error keeps its type where the
/// engine knows it (the Vulkan backend's), so the CLI can say what to do about it.
impl From<BackendError> for EngineError {
    fn from(error: BackendError) -> EngineError {
        match error {
            BackendError::Table(error) => EngineError::Tt(error),
            BackendError::Device(error) => match error.downcast::<GpuError>() {
                Ok(error) => EngineError::Gpu(*error),
                Err(other) => EngineError::Backend(other.to_string()),
            },
            BackendError::Unsupported(what) => EngineError::Backend(what.to_string()),
        }
    }
}

/// A snapshot of a running job.
#[derive(Clone, Debug)]
pub struct Progress {
    pub nodes: u128,
    pub elapsed: Duration,
    /// Node rate since the start.
    pub nps: f64,
    pub tasks_done: usize,
    pub tasks_total: usize,
    /// Transposition table statistics so far (none for `off`).
    pub tt: Option<TtStatsSnapshot>,
    /// Work counters so far, where the backend reports them live.
    pub work: Option<WorkCounters>,
    /// The stores the table will hold at the end, forecast from random walks (a CPU run with a
    /// table, once the walks are done): the clock of the time left.
    pub expected_table_stores: Option<f64>,
}

#[derive(Clone, Debug)]
pub struct PerftResult {
    pub position: Position,
    pub depth: u32,
    pub counts: Counts,
    /// Per root move, sorted by UCI notation.
    pub divide: Vec<(Move, Counts)>,
    pub elapsed: Duration,
    /// What ran it: the CPU with its threads, or the device.
    pub device: Device,
    /// The job's CPU threads (the CPU backend's, or the host's beside a device).
    pub threads: usize,
    pub zobrist_seed: u64,
    pub tt_mode: TtMode,
    /// Final transposition table statistics (none for `off`).
    pub tt: Option<TtStatsSnapshot>,
    /// What the run did (positions, probes, submissions).
    pub work: WorkCounters,
    /// Whether the counts carry the move-type statistics (`--stats`).
    pub move_stats: bool,
    /// The counts with their statistics at every depth from 1 to `depth`, for a job that asked
    /// ([`super::Job::stats_every_depth`]); empty otherwise.
    pub stats_by_depth: Vec<(u32, Counts)>,
}

impl PerftResult {
    pub fn nps(&self) -> f64 {
        nodes_per_second(self.counts.nodes, self.elapsed)
    }

    /// The result as `vkperft perft --json` prints it (`divide` adds the per-move counts; a
    /// job that counted every depth's statistics, the window's, adds `stats_by_depth`).
    /// Counts are decimal strings: they can exceed 2^64.
    pub fn to_json(&self, divide: bool) -> serde_json::Value {
        let mut value = serde_json::json!({
            "fen": self.position.to_fen(),
            "depth": self.depth,
            "nodes": self.counts.nodes.to_string(),
            "elapsed_s": self.elapsed.as_secs_f64(),
            "nps": self.nps(),
            "backend": self.device.kind().name(),
            "device": self.device.detail(),
            "threads": self.threads,
            "zobrist_seed": format!("{:#x}", self.zobrist_seed),
            "tt": self
                .tt
                .as_ref()
                .map(|tt| tt.to_json(self.fast_total(), self.counts.nodes)),
            "work": self.work.to_json(),
        });
        if self.move_stats {
            value["stats"] = move_stats_json(&self.counts.stats);
            if self.tt_mode == TtMode::Certify {
                value["fast_stats"] = move_stats_json(&self.counts.fast_stats);
            }
        }
        if !self.stats_by_depth.is_empty() {
            value["stats_by_depth"] = self
                .stats_by_depth
                .iter()
                .map(|(depth, counts)| {
                    serde_json::json!({
                        "depth": depth,
                        "nodes": counts.nodes.to_string(),
                        "stats": move_stats_json(&counts.stats),
                    })
                })
                .collect();
        }
        if divide {
            value["divide"] = self
                .divide
                .iter()
                .map(|(m, c)| {
                    let mut line =
                        serde_json::json!({"move": m.to_string(), "nodes": c.nodes.to_string()});
                    if self.move_stats {
                        line["stats"] = move_stats_json(&c.stats);
                    }
                    line
                })
                .collect();
        }
        value
    }

    /// In `certify` mode, the total the fast table alone would have produced.
    pub fn fast_total(&self) -> Option<u128> {
        (self.tt_mode == TtMode::Certify).then_some(self.counts.fast_nodes)
    }
}

/// Move-type statistics as JSON: one decimal string per column of both conventions, keyed as
/// [`MoveStat::key`] names it.
pub fn move_stats_json(stats: &MoveStats) -> serde_json::Value {
    MoveStat::ALL
        .iter()
        .map(|&stat| {
            (
                stat.key().to_string(),
                serde_json::Value::String(stats.get(stat).to_string()),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

pub fn nodes_per_second(nodes: u128, elapsed: Duration) -> f64 {
    let seconds = elapsed.as_secs_f64();
    if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    }
}

#[derive(Clone, Debug)]
pub enum Event {
    /// The job runs on `device`; `note` says, for `auto`, which backend was chosen and why.
    Started {
        job: JobId,
        device: Device,
        note: Option<String>,
    },
    Progress {
        job: JobId,
        progress: Box<Progress>,
    },
    RootMoveDone {
        job: JobId,
        mv: Move,
        /// Boxed: with their statistics, counts are larger than every other event.
        counts: Box<Counts>,
    },
    Finished {
        job: JobId,
        result: Box<PerftResult>,
    },
    Failed {
        job: JobId,
        error: EngineError,
    },
    Cancelled {
        job: JobId,
    },
}

impl Event {
    pub fn job(&self) -> JobId {
        match self {
            Event::Started { job, .. }
            | Event::Progress { job, .. }
            | Event::RootMoveDone { job, .. }
            | Event::Finished { job, .. }
            | Event::Failed { job, .. }
            | Event::Cancelled { job } => *job,
        }
    }
}
