//! The live view of a run: the latest progress and the node rate over time.

use crate::engine::{JobId, PerftResult, Progress};
use crate::tt::TtMode;
use std::time::Duration;

/// The node rate is averaged over this much of the run: reports come in bursts (a chunk of
/// tasks ends together), and a rate between two close reports spikes.
pub const RATE_WINDOW_SECONDS: f64 = 1.0;
/// The time left follows the share of tasks done as a power of the time, `(t / T)^k`: with a
/// table later tasks run faster (k > 1), so a constant task rate overestimates. k is fitted
/// between half the elapsed time and now, within `1..=MAX_GROWTH_EXPONENT`. On two 99 s CPU
/// perft 9 runs with a table, between 10% and 45% of the run, the fit said 0.7 to 1.4 times the
/// time actually left, the task rate of the last 5 s 1.3 to 2.4 times.
const MAX_GROWTH_EXPONENT: f64 = 3.0;
/// No time left is told before this much of the run and this share of its tasks: the first
/// tasks also pay for the table's first touches and the threads' start, and an estimate from
/// them alone came out ten times too long.
const TIME_LEFT_MIN_SECONDS: f64 = 1.0;
const TIME_LEFT_MIN_TASK_SHARE: f64 = 0.02;

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
    tasks_done: usize,
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
                tasks_done: 0,
            }],
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
                tasks_done: progress.tasks_done,
            });
        }
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

    /// Time left: when the share of tasks done reaches 1 on its power-law course
    /// ([`MAX_GROWTH_EXPONENT`]); `None` until the run is far enough along to tell.
    pub fn time_left(&self) -> Option<Duration> {
        let progress = self.progress.as_ref()?;
        let share = progress.tasks_done as f64 / progress.tasks_total.max(1) as f64;
        let now = progress.elapsed.as_secs_f64();
        if progress.tasks_done == 0
            || share < TIME_LEFT_MIN_TASK_SHARE
            || now < TIME_LEFT_MIN_SECONDS
        {
            return None;
        }
        let done = progress.tasks_done as f64;
        let half = self.report_before(now / 2.0);
        let exponent = if half.tasks_done > 0 && half.seconds > 0.0 {
            ((done / half.tasks_done as f64).ln() / (now / half.seconds).ln())
                .clamp(1.0, MAX_GROWTH_EXPONENT)
        } else {
            1.0
        };
        let end = now * (1.0 / share.min(1.0)).powf(1.0 / exponent);
        Some(Duration::from_secs_f64(end - now))
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

    #[test]
    fn no_time_left_from_the_first_tasks_alone() {
        let mut live = LiveRun::new(JobId(1), 6, TtMode::Off);
        let early = |done, millis| Progress {
            tasks_total: 400,
            ..progress(1, millis, done)
        };
        // 4 of 400 tasks, 3 s in: 1% is too few to tell.
        live.record(early(4, 3_000));
        assert_eq!(live.time_left(), None);
        live.record(early(8, 3_100));
        assert!(live.time_left().is_some());
    }

    #[test]
    fn time_left_follows_a_power_of_the_time() {
        let run = |done_at: &dyn Fn(u64) -> usize| {
            let mut live = LiveRun::new(JobId(1), 6, TtMode::Off);
            for second in 1..=10 {
                live.record(Progress {
                    tasks_total: 400,
                    ..progress(1, second * 1000, done_at(second))
                });
            }
            live.time_left().map(|left| left.as_secs_f64())
        };
        // A quarter done at 10 s, growing as t^2: the rest takes 10 s more.
        let squared = run(&|second| (second * second) as usize);
        assert!(
            squared.is_some_and(|left| (left - 10.0).abs() < 1e-9),
            "{squared:?}"
        );
        // Half done at 10 s at a steady rate: 10 s more.
        let steady = run(&|second| (20 * second) as usize);
        assert!(
            steady.is_some_and(|left| (left - 10.0).abs() < 1e-9),
            "{steady:?}"
        );
        // Tasks that slow down are taken as steady, not as ending sooner.
        let slowing = run(&|second| (40 * second.min(5)) as usize);
        assert!(
            slowing.is_some_and(|left| (left - 10.0).abs() < 1e-9),
            "{slowing:?}"
        );
    }
}
