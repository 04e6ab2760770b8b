//! The live view of a run: the latest progress and the node rate over time.

use crate::engine::{JobId, PerftResult, Progress, ProgressPoint, TimeLeft};
use crate::tt::TtMode;
use std::time::Duration;

/// The node rate is averaged over this much of the run: reports come in bursts (a chunk of
/// tasks ends together), and a rate between two close reports spikes.
pub const RATE_WINDOW_SECONDS: f64 = 1.0;
/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    Finished,
    Failed,
    Cancelled,
}

#[derive(Clone, Copy, Debug)]
struct Report {
    seconds: f64,
    nodes: u128,
}

#[derive(Clone, Debug)]
pub struct LiveRun {
    pub job: Option<JobId>,
    /// The figures are a finished result's (the breadcrumb or the history went back to a run
    /// whose reports were not kept): no tasks, no rate over time.
    pub from_result: bool,
    pub depth: u32,
    pub tt_mode: TtMode,
    pub progress: Option<Progress>,
    /// `[seconds, nodes per second]`, the rate averaged over [`RATE_WINDOW_SECONDS`].
    pub rate_samples: Vec<[f64; 2]>,
    /// Every report, from which the rates are averaged.
    reports: Vec<Report>,
    time_left: TimeLeft,
    pub roots_done: usize,
    /// Set when the run has ended.
    pub end: Option<RunEnd>,
}

impl LiveRun {
    pub fn new(job: JobId, depth: u32, tt_mode: TtMode) -> LiveRun {
        LiveRun {
            job: Some(job),
            from_result: false,
            depth,
            tt_mode,
            progress: None,
            rate_samples: Vec::new(),
            reports: vec![Report {
                seconds: 0.0,
                nodes: 0,
            }],
            time_left: TimeLeft::default(),
            roots_done: 0,
            end: None,
        }
    }

    /// The finished view of an earlier run's result (the breadcrumb went back to it).
    pub fn of_result(result: &PerftResult) -> LiveRun {
        let mut live = LiveRun {
            job: None,
            from_result: true,
            ..LiveRun::new(JobId(0), result.depth, result.tt_mode)
        };
        live.finish(result);
        live
    }

    pub fn record(&mut self, progress: Progress) {
        let now = progress.elapsed.as_secs_f64();
        let newest = self.reports.last().map_or(0.0, |report| report.seconds);
        if now > newest {
            let since = self.report_before(now - RATE_WINDOW_SECONDS);
            let rate = progress.nodes.saturating_sub(since.nodes) as f64 / (now - since.seconds);
            self.rate_samples.push([now, rate]);
            self.reports.push(Report {
                seconds: now,
                nodes: progress.nodes,
            });
        }
        self.time_left.record(ProgressPoint::of(&progress));
        self.progress = Some(progress);
    }

    /// Shows the final count, time and table statistics once the result is in.
    pub fn finish(&mut self, result: &PerftResult) {
        self.end = Some(RunEnd::Finished);
        let tasks_total = self.progress.as_ref().map_or(1, |p| p.tasks_total.max(1));
        self.progress = Some(Progress {
            nodes: result.counts.nodes,
            elapsed: result.elapsed,
            nps: result.nps(),
            tasks_done: tasks_total,
            tasks_total,
            tt: result.tt.clone(),
            work: Some(result.work.clone()),
            expected_table_stores: None,
        });
    }

    /// The last report at or before `seconds` (the start when none is).
    fn report_before(&self, seconds: f64) -> Report {
        let start = self.reports[0];
        self.reports
            .iter()
            .rev()
            .find(|report| report.seconds <= seconds)
            .copied()
            .unwrap_or(start)
    }

    /// Time left ([`TimeLeft`]): `None` until the run is far enough along to tell.
    pub fn time_left(&self) -> Option<Duration> {
        self.time_left.estimate()
    }

    pub fn fraction_done(&self) -> f32 {
        if self.end == Some(RunEnd::Finished) {
            return 1.0;
        }
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
            expected_table_stores: None,
        }
    }

    #[test]
    fn rate_is_averaged_over_a_window_and_time_left_extrapolates() {
        let mut live = LiveRun::new(JobId(1), 6, TtMode::Off);
        live.record(progress(1000, 100, 1));
        live.record(progress(3000, 200, 5));
        assert_eq!(live.rate_samples.len(), 2);
        // Within the first second: since the start.
        assert!((live.rate_samples[1][1] - 15_000.0).abs() < 1e-6);
        // Too early to tell: under a second in.
        assert_eq!(live.time_left(), None);
        assert!((live.fraction_done() - 0.5).abs() < 1e-6);
        // A burst right after a report does not spike: the rate spans the last second.
        live.record(progress(103_000, 1_200, 6));
        live.record(progress(203_000, 1_210, 7));
        let last = live.rate_samples.last().map_or(0.0, |sample| sample[1]);
        assert!((last - 200_000.0 / 1.01).abs() < 1.0, "{last}");
        // 7 tasks in 1.21 s: the 3 left take 3 * 1.21 / 7 s.
        let left = live.time_left().map_or(0.0, |left| left.as_secs_f64());
        assert!((left - 3.0 * 1.21 / 7.0).abs() < 1e-9, "{left}");
    }
}
