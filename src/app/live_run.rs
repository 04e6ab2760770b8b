//! The live view of a run: the latest progress and the node rate over time.

use crate::engine::{JobId, PerftResult, Progress};
use crate::tt::TtMode;
use std::time::Duration;

pub struct LiveRun {
    pub job: JobId,
    pub depth: u32,
    pub tt_mode: TtMode,
    pub progress: Option<Progress>,
    /// `[seconds, nodes per second]` between consecutive progress reports.
    pub rate_samples: Vec<[f64; 2]>,
    pub roots_done: usize,
    /// Set when the run has ended (finished, failed or cancelled).
    pub ended: bool,
}

impl LiveRun {
    pub fn new(job: JobId, depth: u32, tt_mode: TtMode) -> LiveRun {
        LiveRun {
            job,
            depth,
            tt_mode,
            progress: None,
            rate_samples: Vec::new(),
            roots_done: 0,
            ended: false,
        }
    }

    pub fn record(&mut self, progress: Progress) {
        let (last_nodes, last_elapsed) = self
            .progress
            .as_ref()
            .map_or((0, Duration::ZERO), |p| (p.nodes, p.elapsed));
        let seconds = progress.elapsed.saturating_sub(last_elapsed).as_secs_f64();
        if seconds > 0.0 {
            let rate = progress.nodes.saturating_sub(last_nodes) as f64 / seconds;
            self.rate_samples
                .push([progress.elapsed.as_secs_f64(), rate]);
        }
        self.progress = Some(progress);
    }

    /// Shows the final count, time and table statistics once the result is in.
    pub fn finish(&mut self, result: &PerftResult) {
        let tasks_total = self.progress.as_ref().map_or(1, |p| p.tasks_total.max(1));
        self.progress = Some(Progress {
            nodes: result.counts.nodes,
            elapsed: result.elapsed,
            nps: result.nps(),
            tasks_done: tasks_total,
            tasks_total,
            tt: result.tt.clone(),
            work: Some(result.work.clone()),
        });
    }

    /// Time left, extrapolated from the share of tasks done so far.
    pub fn time_left(&self) -> Option<Duration> {
        let progress = self.progress.as_ref()?;
        if progress.tasks_done == 0 || progress.tasks_total == 0 {
            return None;
        }
        let remaining = progress.tasks_total.saturating_sub(progress.tasks_done);
        Some(
            progress
                .elapsed
                .mul_f64(remaining as f64 / progress.tasks_done as f64),
        )
    }

    pub fn fraction_done(&self) -> f32 {
        self.progress.as_ref().map_or(0.0, |p| {
            if p.tasks_total == 0 {
                0.0
            } else {
                p.tasks_done as f32 / p.tasks_total as f32
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(nodes: u128, millis: u64, done: usize) -> Progress {
        Progress {
            nodes,
            elapsed: Duration::from_millis(millis),
            nps: 0.0,
            tasks_done: done,
            tasks_total: 10,
            tt: None,
            work: None,
        }
    }

    #[test]
    fn rate_is_per_interval_and_time_left_extrapolates() {
        let mut live = LiveRun::new(JobId(1), 6, TtMode::Off);
        live.record(progress(1000, 100, 1));
        live.record(progress(3000, 200, 5));
        assert_eq!(live.rate_samples.len(), 2);
        assert!((live.rate_samples[1][1] - 20_000.0).abs() < 1e-6);
        assert_eq!(live.time_left(), Some(Duration::from_millis(200)));
        assert!((live.fraction_done() - 0.5).abs() < 1e-6);
    }
}
