//! The contract between a run and where it runs: a layer below every backend (the CPU, a
//! Vulkan device) and above the chess, the table and the counts. What a backend is asked
//! ([`RunRequest`]) and offers ([`Backend`]), what a run returns or why it does not
//! ([`RunOutcome`], [`RunError`]), which backend ran ([`Device`]), and what every backend
//! shares around its search: the host's plan of the top plies ([`plan`]) and the hooks of a
//! run ([`run_control`]). Nothing here knows a backend, and nothing here knows the engine that
//! chooses one.

mod device;
mod error;
pub mod plan;
mod request;
pub mod run_control;

pub use device::{BackendKind, Device};
pub use error::{BackendError, RunError};
pub use request::{RunRequest, MAX_DEPTH};

use crate::chess::{Move, Zobrist};
use crate::count::Counts;
use crate::tt::{TtConfig, TtStatsSnapshot};
use crate::work_counters::WorkCounters;
use run_control::RunControl;

/// What a finished run computed.
#[derive(Debug)]
pub struct RunOutcome {
    /// Counts per root move, in generation order (empty at depth 0).
    pub divide: Vec<(Move, Counts)>,
    /// The table's final statistics (none for `off`).
    pub tt: Option<TtStatsSnapshot>,
    /// What the run did, in positions, probes and submissions.
    pub work: WorkCounters,
}

/// A place where perft runs. A backend owns its transposition table.
pub trait Backend: Send {
    /// What runs `request`: the CPU with its threads, or the device.
    fn device(&self, request: &RunRequest) -> Device;

    /// Sets up the table of the next runs: none for `off`, else an empty table of `config`
    /// with the keys of `zobrist`, and zeroed statistics. After an error the backend has no
    /// table and stays usable.
    fn prepare(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), BackendError>;

    /// The table size for a run whose size nobody chose; `None`: the caller's default.
    fn default_table_bytes(&self) -> Option<usize> {
        None
    }

    /// Perft of the request's position to its depth through the prepared table, reporting
    /// progress and finished root moves to `control` and stopping when it is cancelled.
    fn run(
        &mut self,
        request: &RunRequest,
        control: &RunControl<'_>,
    ) -> Result<RunOutcome, RunError>;

    /// False once the backend cannot be trusted with another run (a lost device): the next
    /// job gets a fresh one.
    fn is_healthy(&self) -> bool {
        true
    }
}
