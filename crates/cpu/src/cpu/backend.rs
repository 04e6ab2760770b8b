//! The CPU backend: the parallel driver over a table the backend owns.

use super::parallel;
use super::search::{PlainSearch, PlainStatsSearch, TtSearch};
use super::table_size::{stores_at_most, SLOTS_PER_STORED_POSITION};
use crate::backend::run_control::RunControl;
use crate::backend::{Backend, BackendError, Device, RunError, RunOutcome, RunRequest};
use crate::chess::Zobrist;
use crate::tt::{TranspositionTable, TtConfig, TtMode};

/// The table is made for the first run after `prepare`, no larger than that run's search can
/// fill ([`super::table_size`]); a later run without `prepare` (a job that keeps the table)
/// keeps it if it is large enough for that run, and gets a new one otherwise.
#[derive(Default)]
pub struct CpuBackend {
    /// The table `prepare` asked for; `None` for `off`.
    config: Option<TtConfig>,
    table: Option<TranspositionTable>,
    zobrist: Zobrist,
}

impl CpuBackend {
    /// Makes `self.table` the table for `request`: the one held if it is large enough, else
    /// a new one.
    fn make_table_for(&mut self, request: &RunRequest) -> Result<(), RunError> {
        let Some(budget) = &self.config else {
            return Ok(());
        };
        // A held table as large as the budget allows needs no sizing count.
        let whole_budget = budget.table_bytes().map_err(BackendError::from)?;
        if self
            .table
            .as_ref()
            .is_some_and(|table| table.bytes() >= whole_budget)
        {
            return Ok(());
        }
        let budget_slots = budget.slots().map_err(BackendError::from)? as u128;
        let sized = match stores_at_most(&request.position, request.depth, budget_slots) {
            Some(stores) => budget
                .at_most_slots(stores * SLOTS_PER_STORED_POSITION)
                .map_err(BackendError::from)?,
            None => *budget,
        };
        let wanted = sized.table_bytes().map_err(BackendError::from)?;
        if self
            .table
            .as_ref()
            .is_none_or(|table| table.bytes() < wanted)
        {
            // Free the old table before allocating the new one.
            self.table = None;
            let table = TranspositionTable::within(&sized, budget).map_err(BackendError::from)?;
            self.table = Some(table);
        }
        Ok(())
    }
}

impl Backend for CpuBackend {
    fn device(&self, request: &RunRequest) -> Device {
        Device::Cpu {
            threads: request.threads,
        }
    }

    /// Checks the table's budget (sizes, memory available) at once, so that a budget that
    /// cannot be met is refused before any run; the table is made by the run.
    fn prepare(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), BackendError> {
        self.table = None;
        self.zobrist = zobrist.clone();
        self.config = None;
        if config.mode != TtMode::Off {
            TranspositionTable::check(config)?;
            self.config = Some(*config);
        }
        Ok(())
    }

    fn run(
        &mut self,
        request: &RunRequest,
        control: &RunControl<'_>,
    ) -> Result<RunOutcome, RunError> {
        self.make_table_for(request)?;
        let zobrist = &self.zobrist;
        let ((divide, work), tt) = match &self.table {
            None if request.move_stats => (
                parallel::divide_with_work(
                    &request.position,
                    request.depth,
                    request.threads,
                    &PlainStatsSearch,
                    zobrist,
                    control,
                )?,
                None,
            ),
            None => (
                parallel::divide_with_work(
                    &request.position,
                    request.depth,
                    request.threads,
                    &PlainSearch,
                    zobrist,
                    control,
                )?,
                None,
            ),
            Some(table) => {
                let search = TtSearch { table, zobrist };
                let divide = parallel::divide_with_work(
                    &request.position,
                    request.depth,
                    request.threads,
                    &search,
                    zobrist,
                    control,
                )?;
                (divide, Some(table.snapshot()))
            }
        };
        Ok(RunOutcome { divide, tt, work })
    }
}
