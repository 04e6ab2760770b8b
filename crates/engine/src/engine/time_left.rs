//! The time left of a running perft, from its progress reports alone: what the CLI's progress
//! line and the window's live panel both show.
//!
//! With a table whose final stores were forecast ([`super::table_forecast`]), the time left is
//! the stores still to come at the rate of the last half of the run: a CPU search's time goes
//! to the positions it stores, at a nearly constant rate, while the share of tasks done is a
//! poor clock there (later tasks meet more of the table and run faster, by a factor that shows
//! only late). Without a forecast (no table, another backend, or before the walks end) the
//! share of tasks done is extrapolated on its power-law course.

use super::event::Progress;
use std::time::Duration;

/// The task share follows a power of the time, `(t / T)^k`: with a table later tasks run
/// faster (k > 1), so a constant task rate overestimates. k is fitted between half the elapsed
/// time and now, within `1..=MAX_GROWTH_EXPONENT`.
const MAX_GROWTH_EXPONENT: f64 = 3.0;
/// No time left is told from the tasks before this much of the run and this share of its
/// tasks: the first tasks also pay for the table's first touches and the threads' start, and
/// an estimate from them alone came out ten times too long.
const MIN_SECONDS_BY_TASKS: f64 = 1.0;
const MIN_TASK_SHARE: f64 = 0.02;
/// From the stores, after this much of the run.
const MIN_SECONDS_BY_STORES: f64 = 0.5;
/// Stores past the forecast (it is an estimate, a few percent off, and a small table stores
/// some positions again) are taken as this share short of the end.
const LATE_MARGIN: f64 = 0.05;

/// What the estimate reads of one progress report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProgressPoint {
    pub seconds: f64,
    pub tasks_done: usize,
    pub tasks_total: usize,
    /// The table's stores so far; `None` without a table.
    pub table_stores: Option<u64>,
    /// The stores the table will hold when the run ends, once forecast.
    pub expected_stores: Option<f64>,
}

impl ProgressPoint {
    pub fn of(progress: &Progress) -> ProgressPoint {
        ProgressPoint {
            seconds: progress.elapsed.as_secs_f64(),
            tasks_done: progress.tasks_done,
            tasks_total: progress.tasks_total,
            table_stores: progress.tt.as_ref().map(|tt| tt.total.stores),
            expected_stores: progress.expected_table_stores,
        }
    }

    /// The start of every run.
    const START: ProgressPoint = ProgressPoint {
        seconds: 0.0,
        tasks_done: 0,
        tasks_total: 0,
        table_stores: Some(0),
        expected_stores: None,
    };
}

/// A run's progress reports and the time left they tell.
#[derive(Clone, Debug, Default)]
pub struct TimeLeft {
    points: Vec<ProgressPoint>,
}

impl TimeLeft {
    /// Adds a report; one no later than the last is ignored.
    pub fn record(&mut self, point: ProgressPoint) {
        if self
            .points
            .last()
            .is_none_or(|last| point.seconds > last.seconds)
        {
            self.points.push(point);
        }
    }

    /// The time left after the last report: `None` until the run is far enough along to tell.
    pub fn estimate(&self) -> Option<Duration> {
        let now = *self.points.last()?;
        self.by_stores(&now)
            .or_else(|| self.by_tasks(&now))
            .map(|left| Duration::from_secs_f64(left.max(0.0)))
    }

    /// The stores still to come at the rate of the last half of the run, or of the time since
    /// the forecast came if that is shorter: the forecast's walks share the processors with the
    /// search until then.
    fn by_stores(&self, now: &ProgressPoint) -> Option<f64> {
        let stores = now.table_stores? as f64;
        let expected = now.expected_stores?.max(stores * (1.0 + LATE_MARGIN));
        if now.seconds < MIN_SECONDS_BY_STORES {
            return None;
        }
        let forecast_came = self
            .points
            .iter()
            .find(|point| point.expected_stores.is_some())
            .map_or(0.0, |point| point.seconds);
        let since = self.before((now.seconds / 2.0).max(forecast_came));
        let stored = stores - since.table_stores.unwrap_or(0) as f64;
        if stored <= 0.0 {
            return None;
        }
        let rate = stored / (now.seconds - since.seconds);
        Some((expected - stores) / rate)
    }

    /// The task share extrapolated to 1 on its power-law course.
    fn by_tasks(&self, now: &ProgressPoint) -> Option<f64> {
        let share = now.tasks_done as f64 / now.tasks_total.max(1) as f64;
        if now.tasks_done == 0 || share < MIN_TASK_SHARE || now.seconds < MIN_SECONDS_BY_TASKS {
            return None;
        }
        let done = now.tasks_done as f64;
        let half = self.before(now.seconds / 2.0);
        let exponent = if half.tasks_done > 0 && half.seconds > 0.0 {
            ((done / half.tasks_done as f64).ln() / (now.seconds / half.seconds).ln())
                .clamp(1.0, MAX_GROWTH_EXPONENT)
        } else {
            1.0
        };
        let end = now.seconds * (1.0 / share.min(1.0)).powf(1.0 / exponent);
        Some(end - now.seconds)
    }

    /// The last report at or before `seconds` (the start when none is).
    fn before(&self, seconds: f64) -> ProgressPoint {
        self.points
            .iter()
            .rev()
            .find(|point| point.seconds <= seconds)
            .copied()
            .unwrap_or(ProgressPoint::START)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(millis: u64, done: usize, total: usize) -> ProgressPoint {
        ProgressPoint {
            seconds: millis as f64 / 1000.0,
            tasks_done: done,
            tasks_total: total,
            table_stores: None,
            expected_stores: None,
        }
    }

    fn left(time_left: &TimeLeft) -> Option<f64> {
        time_left.estimate().map(|left| left.as_secs_f64())
    }

    #[test]
    fn tasks_extrapolate_at_a_steady_rate_after_a_second() {
        let mut time_left = TimeLeft::default();
        time_left.record(point(100, 1, 10));
        time_left.record(point(200, 5, 10));
        // Too early to tell: under a second in.
        assert_eq!(time_left.estimate(), None);
        time_left.record(point(1_200, 6, 10));
        // A report no later than the last is ignored.
        time_left.record(point(1_200, 9, 10));
        time_left.record(point(1_210, 7, 10));
        // 7 tasks in 1.21 s (half the time in, 5 done: a steady rate): 3 more take 3 * 1.21 / 7 s.
        let estimate = left(&time_left).expect("an estimate");
        assert!((estimate - 3.0 * 1.21 / 7.0).abs() < 1e-9, "{estimate}");
    }

    #[test]
    fn no_time_left_from_the_first_tasks_alone() {
        let mut time_left = TimeLeft::default();
        // 4 of 400 tasks, 3 s in: 1% is too few to tell.
        time_left.record(point(3_000, 4, 400));
        assert_eq!(time_left.estimate(), None);
        time_left.record(point(3_100, 8, 400));
        assert!(time_left.estimate().is_some());
    }

    #[test]
    fn tasks_follow_a_power_of_the_time() {
        let run = |done_at: &dyn Fn(u64) -> usize| {
            let mut time_left = TimeLeft::default();
            for second in 1..=10 {
                time_left.record(point(second * 1000, done_at(second), 400));
            }
            left(&time_left)
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

    #[test]
    fn stores_still_to_come_at_the_recent_rate() {
        let with_stores = |millis: u64, stores: u64, expected: Option<f64>| ProgressPoint {
            table_stores: Some(stores),
            expected_stores: expected,
            ..point(millis, 1, 400)
        };
        let mut time_left = TimeLeft::default();
        // Without a forecast the tasks tell, and 1 of 400 is too few.
        time_left.record(with_stores(1_000, 500, None));
        assert_eq!(time_left.estimate(), None);
        // The forecast came at 2 s: the rate is measured from then on (the walks slowed the
        // search before).
        time_left.record(with_stores(2_000, 1_000, Some(10_000.0)));
        time_left.record(with_stores(3_000, 2_000, Some(10_000.0)));
        // From 2 s to 3 s: 1,000 stores a second; 8,000 to come.
        let estimate = left(&time_left).expect("an estimate");
        assert!((estimate - 8.0).abs() < 1e-9, "{estimate}");
        // From 2 s (half the run) to 4 s: 1,500 a second; 6,000 to come.
        time_left.record(with_stores(4_000, 4_000, Some(10_000.0)));
        let estimate = left(&time_left).expect("an estimate");
        assert!((estimate - 6_000.0 / 1_500.0).abs() < 1e-9, "{estimate}");
        // Stores past the forecast: 5% more to come, at 11,000 over 2.2 s.
        time_left.record(with_stores(4_200, 12_000, Some(10_000.0)));
        let estimate = left(&time_left).expect("an estimate");
        assert!((estimate - 600.0 / 5_000.0).abs() < 1e-9, "{estimate}");
    }

    /// A progress trace of `tests/data/progress-traces` as the estimate reads it.
    fn trace(jsonl: &str) -> Vec<ProgressPoint> {
        jsonl
            .lines()
            .map(|line| {
                let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
                let count = |key: &str| value[key].as_u64().expect("a count") as usize;
                ProgressPoint {
                    seconds: value["seconds"].as_f64().expect("seconds"),
                    tasks_done: count("tasks_done"),
                    tasks_total: count("tasks_total"),
                    table_stores: value["stores"].as_u64(),
                    expected_stores: value["expected_stores"].as_f64(),
                }
            })
            .collect()
    }

    /// The worst error of the predicted end (elapsed plus time left) against the trace's own
    /// end, over the reports from `from` of the run's time on, and how many reports there told
    /// no time left.
    fn worst_error(points: &[ProgressPoint], from: f64) -> (f64, usize) {
        let end = points.last().expect("a report").seconds;
        let mut time_left = TimeLeft::default();
        let mut worst: f64 = 0.0;
        let mut silent = 0;
        for &point in points {
            time_left.record(point);
            if point.seconds < from * end {
                continue;
            }
            match time_left.estimate() {
                Some(left) => {
                    let predicted = point.seconds + left.as_secs_f64();
                    worst = worst.max((predicted / end - 1.0).abs());
                }
                None => silent += 1,
            }
        }
        (worst, silent)
    }

    const TABLE_TRACES: [(&str, &str); 6] = [
        (
            "startpos",
            include_str!("../../../../tests/data/progress-traces/startpos.jsonl"),
        ),
        (
            "kiwipete",
            include_str!("../../../../tests/data/progress-traces/kiwipete.jsonl"),
        ),
        (
            "position3",
            include_str!("../../../../tests/data/progress-traces/position3.jsonl"),
        ),
        (
            "position4",
            include_str!("../../../../tests/data/progress-traces/position4.jsonl"),
        ),
        (
            "position5",
            include_str!("../../../../tests/data/progress-traces/position5.jsonl"),
        ),
        (
            "position6",
            include_str!("../../../../tests/data/progress-traces/position6.jsonl"),
        ),
    ];

    const NO_TABLE_TRACES: [(&str, &str); 6] = [
        (
            "startpos",
            include_str!("../../../../tests/data/progress-traces/off/startpos.jsonl"),
        ),
        (
            "kiwipete",
            include_str!("../../../../tests/data/progress-traces/off/kiwipete.jsonl"),
        ),
        (
            "position3",
            include_str!("../../../../tests/data/progress-traces/off/position3.jsonl"),
        ),
        (
            "position4",
            include_str!("../../../../tests/data/progress-traces/off/position4.jsonl"),
        ),
        (
            "position5",
            include_str!("../../../../tests/data/progress-traces/off/position5.jsonl"),
        ),
        (
            "position6",
            include_str!("../../../../tests/data/progress-traces/off/position6.jsonl"),
        ),
    ];

    /// On the recorded runs of the six positions with a table, every time left told from a
    /// fifth of the run on ends within a quarter of the run's time of its true end.
    #[test]
    fn recorded_runs_with_a_table_end_near_the_time_told() {
        for (name, jsonl) in TABLE_TRACES {
            let (worst, _) = worst_error(&trace(jsonl), 0.2);
            assert!(worst <= 0.25, "{name}: {worst:.3}");
        }
    }

    /// Without a table the tasks tell the time (their power law): within a fifth of the run's
    /// time from a fifth of the run on, on these runs recorded under load (the start
    /// position's worst is 0.199).
    #[test]
    fn recorded_runs_without_a_table_end_near_the_time_told() {
        for (name, jsonl) in NO_TABLE_TRACES {
            let (worst, _) = worst_error(&trace(jsonl), 0.2);
            assert!(worst <= 0.2, "{name}: {worst:.3}");
        }
    }
}
