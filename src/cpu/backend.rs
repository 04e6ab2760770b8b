//! The CPU backend: the parallel driver over a table the backend owns.

use super::parallel;
use super::search::{PlainSearch, PlainStatsSearch, TtSearch};
use crate::backend::run_control::RunControl;
use crate::backend::{Backend, BackendError, Device, RunError, RunOutcome, RunRequest};
use crate::chess::Zobrist;
use crate::tt::{TranspositionTable, TtConfig, TtMode};

#[derive(Default)]
pub struct CpuBackend {
    table: Option<TranspositionTable>,
    zobrist: Zobrist,
}

impl Backend for CpuBackend {
    fn device(&self, request: &RunRequest) -> Device {
        Device::Cpu {
            threads: request.threads,
        }
    }

    fn prepare(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), BackendError> {
        // Free the old table before allocating the new one.
        self.table = None;
        self.zobrist = zobrist.clone();
        if config.mode != TtMode::Off {
            self.table = Some(TranspositionTable::new(config)?);
        }
        Ok(())
    }

    fn run(
        &mut self,
        request: &RunRequest,
        control: &RunControl<'_>,
    ) -> Result<RunOutcome, RunError> {
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
