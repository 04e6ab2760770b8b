//! A job run to its end on the caller's thread: what the command line and a suite's runs do
//! with the engine, where the window reads its events as they come.

use super::event::{EngineError, Event, PerftResult};
use super::job::Job;
use super::thread::Engine;
use crossbeam_channel::RecvTimeoutError;
use std::time::Duration;

/// How a job run with [`Engine::run_blocking`] ended.
#[derive(Debug)]
pub enum BlockingEnd {
    Finished(Box<PerftResult>),
    Failed(EngineError),
    Cancelled,
    /// The engine thread ended before the job did.
    EngineStopped,
}

/// A blocking run's end, and whether `stop` asked for it: a job stopped that way may still
/// have finished (its total came in just before the cancel), which is not the caller's result.
#[derive(Debug)]
pub struct BlockingRun {
    pub end: BlockingEnd,
    pub stopped: bool,
}

impl Engine {
    /// Runs `job` and waits for its end, handing each of its events to `on_event` (events of
    /// this client's other jobs are dropped); `stop` is asked every `poll`, and once it says so
    /// the job is cancelled. Another client's jobs may run first.
    pub fn run_blocking(
        &self,
        job: Job,
        poll: Duration,
        stop: &dyn Fn() -> bool,
        on_event: &mut dyn FnMut(&Event),
    ) -> BlockingRun {
        let id = job.id;
        self.run(job);
        let mut stopped = false;
        loop {
            if !stopped && stop() {
                self.cancel(id);
                stopped = true;
            }
            let event = match self.events().recv_timeout(poll) {
                Ok(event) if event.job() == id => event,
                Ok(_) | Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    return BlockingRun {
                        end: BlockingEnd::EngineStopped,
                        stopped,
                    }
                }
            };
            on_event(&event);
            let end = match event {
                Event::Finished { result, .. } => BlockingEnd::Finished(result),
                Event::Failed { error, .. } => BlockingEnd::Failed(error),
                Event::Cancelled { .. } => BlockingEnd::Cancelled,
                Event::Started { .. } | Event::Progress { .. } | Event::RootMoveDone { .. } => {
                    continue
                }
            };
            return BlockingRun { end, stopped };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::engine::job::{BackendChoice, JobId};
    use crate::tt::{TtConfig, TtMode};

    fn job(id: JobId, depth: u32) -> Job {
        Job {
            id,
            position: Position::startpos(),
            depth,
            backend: BackendChoice::Cpu,
            threads: 1,
            zobrist_seed: 1,
            tt: TtConfig::new(TtMode::Off, 0),
            tt_size_chosen: true,
            gpu: Default::default(),
            keep_table: false,
            move_stats: false,
            stats_every_depth: false,
        }
    }

    /// The job's own events reach the caller, started first and its end last, and the end is
    /// its result; a job whose `stop` is set at once is cancelled and says so.
    #[test]
    fn a_blocking_run_hands_over_its_events_and_ends_with_its_result() {
        let engine = Engine::spawn(None);
        let id = engine.next_job_id();
        let mut seen = Vec::new();
        let mut record = |event: &Event| {
            assert_eq!(event.job(), id);
            seen.push(match event {
                Event::Started { .. } => "started",
                Event::RootMoveDone { .. } => "root move",
                Event::Finished { .. } => "finished",
                Event::Progress { .. } => return,
                Event::Failed { .. } | Event::Cancelled { .. } => "other end",
            });
        };
        let run = engine.run_blocking(job(id, 3), Duration::from_millis(5), &|| false, &mut record);
        assert!(!run.stopped);
        match run.end {
            BlockingEnd::Finished(result) => assert_eq!(result.counts.nodes, 8_902),
            other => panic!("expected Finished, got {other:?}"),
        }
        let mut expected = vec!["started"];
        expected.extend(["root move"; 20]);
        expected.push("finished");
        assert_eq!(seen, expected);

        let id = engine.next_job_id();
        let run = engine.run_blocking(job(id, 7), Duration::from_millis(5), &|| true, &mut |_| {});
        assert!(run.stopped);
        assert!(
            matches!(run.end, BlockingEnd::Cancelled | BlockingEnd::Finished(_)),
            "{:?}",
            run.end
        );
    }
}
