//! The CPU backend: the parallel driver over a table the backend owns.

use super::parallel;
use super::search::{PlainSearch, TtSearch};
use crate::chess::Zobrist;
use crate::engine::backend::{Backend, RunError, RunOutcome};
use crate::engine::event::EngineError;
use crate::engine::job::Job;
use crate::run_control::RunControl;
use crate::tt::{TranspositionTable, TtConfig, TtMode};

#[derive(Default)]
pub struct CpuBackend {
    table: Option<TranspositionTable>,
    zobrist: Zobrist,
}

impl Backend for CpuBackend {
    fn kind(&self) -> &'static str {
        "cpu"
    }

    fn runs_on(&self, job: &Job) -> String {
        format!("{} thread(s)", job.threads)
    }

    fn prepare(&mut self, config: &TtConfig, zobrist: &Zobrist) -> Result<(), EngineError> {
        // Free the old table before allocating the new one.
        self.table = None;
        self.zobrist = zobrist.clone();
        if config.mode != TtMode::Off {
            self.table = Some(TranspositionTable::new(config)?);
        }
        Ok(())
    }

    fn run(&mut self, job: &Job, control: &RunControl<'_>) -> Result<RunOutcome, RunError> {
        let zobrist = &self.zobrist;
        let ((divide, work), tt) = match &self.table {
            None => (
                parallel::divide_with_work(
                    &job.position,
                    job.depth,
                    job.threads,
                    &PlainSearch,
                    zobrist,
                    control,
                )?,
                None,
            ),
            Some(table) => {
                let search = TtSearch { table, zobrist };
                let divide = parallel::divide_with_work(
                    &job.position,
                    job.depth,
                    job.threads,
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
