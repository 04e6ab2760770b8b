//! vkperft itself as the engine under test: each request is a job on the backend and table
//! mode the user chose, so that a suite checks vkperft's counts, and a failure is walked
//! against vkperft's exact CPU count as an engine's would be.

use crate::chess::{uci, MoveStats, Position};
use crate::engine::{BlockingEnd, Engine, JobSpec};
use crate::hunt::{EngineDivide, EngineUnderTest, HuntError, PositionRequest};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often a wait for a job looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// What errors call vkperft's own runs.
const NAME: &str = "vkperft";

pub struct VkperftSubject {
    /// This subject's client of the engine that runs its jobs (the window's, when the window
    /// runs the suite).
    engine: Engine,
    /// The job settings; each request replaces the position and depth.
    spec: JobSpec,
    /// Set when the suite stops: the job under way is cancelled.
    stop: Arc<AtomicBool>,
    /// The last finished job's statistics, if the settings ask for them.
    move_stats: Option<MoveStats>,
}

impl VkperftSubject {
    pub fn new(engine: Engine, spec: JobSpec, stop: Arc<AtomicBool>) -> VkperftSubject {
        VkperftSubject {
            engine,
            spec,
            stop,
            move_stats: None,
        }
    }
}

impl EngineUnderTest for VkperftSubject {
    fn divide(&mut self, request: &PositionRequest, depth: u32) -> Result<EngineDivide, HuntError> {
        let asked = request.uci_command();
        let failed = |reason: String| HuntError::Failed {
            command: NAME.to_string(),
            reason,
            position: asked.clone(),
        };
        let root = Position::from_fen(&request.fen).map_err(|e| failed(e.to_string()))?;
        let position = uci::play_moves(&root, request.moves.iter().map(String::as_str))
            .map_err(|e| failed(e.to_string()))?;
        let spec = JobSpec {
            position,
            depth,
            ..self.spec.clone()
        };
        let mut job = spec
            .job(self.engine.next_job_id())
            .map_err(|e| failed(e.to_string()))?;
        // One table for the whole suite, as for the units of a work plan: remaining depth is
        // part of every key, so entries stay true from one position to the next, and a table
        // is not allocated and cleared per position.
        job.keep_table = true;
        let stop = || self.stop.load(Ordering::SeqCst);
        let run = self.engine.run_blocking(job, POLL, &stop, &mut |_| {});
        self.move_stats = match &run.end {
            BlockingEnd::Finished(result) if result.move_stats => Some(result.counts.stats),
            _ => None,
        };
        match run.end {
            BlockingEnd::Finished(result) => Ok(EngineDivide {
                moves: result
                    .divide
                    .iter()
                    .map(|(mv, counts)| (mv.to_string(), counts.nodes))
                    .collect(),
                total: Some(result.counts.nodes),
            }),
            BlockingEnd::Failed(error) => Err(failed(error.to_string())),
            BlockingEnd::Cancelled => Err(failed("the run was cancelled".into())),
            BlockingEnd::EngineStopped => Err(failed("the engine thread stopped".into())),
        }
    }

    fn move_stats(&self) -> Option<MoveStats> {
        self.move_stats
    }
}
