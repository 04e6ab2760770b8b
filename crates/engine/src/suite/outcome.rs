//! What a suite found: one result per position and depth, and the summary of the run.

use super::expected_stats::StatCheck;
use super::select::Task;
use crate::hunt::{Finding, Step};

/// Where a failure's walk ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drill {
    /// `--no-drill-down`.
    NotAsked,
    /// The walk's end (boxed: it holds a position), and each comparison on the way.
    Found {
        finding: Box<Finding>,
        steps: Vec<Step>,
    },
    /// The walk could not end (the engine failed on the way, or the query limit).
    Stopped(String),
    /// The leaf count agrees and only statistics differ: the walk compares leaf counts, so
    /// there is nothing to walk.
    CountAgrees,
}

/// How one position at one depth went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    /// The count, or a statistic, differs from the expected one.
    Failed(Drill),
    /// The position cannot be run (illegal, or a depth vkperft does not take): the engine
    /// under test is not at fault.
    Refused(String),
    /// The engine under test failed to answer (crashed, hung, printed garbage); it was
    /// restarted for the next position.
    EngineError(String),
}

/// One position at one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionResult {
    pub task: Task,
    /// The count compared with: the file's, else vkperft's exact count.
    pub expected: Option<u128>,
    pub expected_from_file: bool,
    /// The count of the engine under test.
    pub got: Option<u128>,
    /// Each statistic the file gives at this depth, compared with vkperft's (none when no
    /// statistics were counted: without `--stats`, or the engine gave no count).
    pub stats: Vec<StatCheck>,
    /// The time of the engine's answer (not of the walk after a failure).
    pub seconds: f64,
    pub verdict: Verdict,
}

impl PositionResult {
    pub fn passed(&self) -> bool {
        self.verdict == Verdict::Passed
    }

    /// The walk's end, if a failure was walked to one.
    pub fn finding(&self) -> Option<&Finding> {
        match &self.verdict {
            Verdict::Failed(Drill::Found { finding, .. }) => Some(finding.as_ref()),
            _ => None,
        }
    }

    /// The statistics compared that differ.
    pub fn wrong_stats(&self) -> impl Iterator<Item = &StatCheck> {
        self.stats.iter().filter(|check| !check.agrees())
    }
}

/// The counts of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub refused: usize,
    pub engine_errors: usize,
    /// Bad lines passed over (`--skip-bad`).
    pub skipped_lines: usize,
    /// Depths of the files that were not run (over the node budget, or not `--depth`).
    pub depths_left_out: usize,
    /// Statistics compared, one per column and check.
    pub stats_compared: usize,
    /// Statistics the files give for the checks that ran but that were not compared (no
    /// statistics were counted: the run had no `--stats`).
    pub stats_not_compared: usize,
    pub seconds: f64,
}

impl Summary {
    pub fn of(
        results: &[PositionResult],
        skipped_lines: usize,
        depths_left_out: usize,
        seconds: f64,
    ) -> Summary {
        let mut summary = Summary {
            skipped_lines,
            depths_left_out,
            seconds,
            ..Summary::default()
        };
        for result in results {
            summary.stats_compared += result.stats.len();
            if result.got.is_some() && result.stats.is_empty() {
                summary.stats_not_compared += result.task.expected_stats.len();
            }
            match result.verdict {
                Verdict::Passed => summary.passed += 1,
                Verdict::Failed(_) => summary.failed += 1,
                Verdict::Refused(_) => summary.refused += 1,
                Verdict::EngineError(_) => summary.engine_errors += 1,
            }
        }
        summary
    }

    pub fn total(&self) -> usize {
        self.passed + self.failed + self.refused + self.engine_errors
    }
}
