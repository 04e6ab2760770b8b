//! `suite --json`: one object, `{"summary": {...}, "skipped": [...], "results": [...]}`.
//! Counts are strings, as in every vkperft JSON (they may exceed 2^53).

use super::outcome::{Drill, PositionResult, Summary, Verdict};
use super::read::SkippedLine;
use crate::chess::Move;
use crate::hunt::{Difference, Finding};
use serde_json::{json, Value};

pub fn suite_json(summary: &Summary, skipped: &[SkippedLine], results: &[PositionResult]) -> Value {
    json!({
        "summary": {
            "positions": summary.total(),
            "passed": summary.passed,
            "failed": summary.failed,
            "refused": summary.refused,
            "engine_errors": summary.engine_errors,
            "skipped_lines": summary.skipped_lines,
            "depths_left_out": summary.depths_left_out,
            "stats_compared": summary.stats_compared,
            "stats_not_compared": summary.stats_not_compared,
            "seconds": summary.seconds,
        },
        "skipped": skipped.iter().map(|bad| json!({
            "file": bad.location.file.display().to_string(),
            "line": bad.location.line,
            "problem": bad.problem.to_string(),
        })).collect::<Vec<_>>(),
        "results": results.iter().map(result_json).collect::<Vec<_>>(),
    })
}

/// `{id, file, line, fen, depth, expected, expected_from, got, stats, passed, status, seconds,
/// finding, error}`: `stats` lists each statistic the file gives at the depth as compared,
/// `{key, expected, got, agrees}` (empty when none was compared); `status` is `passed`,
/// `failed`, `refused` or `engine_error`; `finding` is the failure's walk's end (null when
/// there is none), `error` why a position was refused, why the engine failed, or why a walk
/// stopped.
pub fn result_json(result: &PositionResult) -> Value {
    let (status, error) = match &result.verdict {
        Verdict::Passed => ("passed", None),
        Verdict::Failed(Drill::Stopped(why)) => ("failed", Some(why.clone())),
        Verdict::Failed(_) => ("failed", None),
        Verdict::Refused(why) => ("refused", Some(why.clone())),
        Verdict::EngineError(why) => ("engine_error", Some(why.clone())),
    };
    json!({
        "id": result.task.id,
        "file": result.task.location.file.display().to_string(),
        "line": result.task.location.line,
        "fen": result.task.fen,
        "depth": result.task.depth,
        "expected": result.expected.map(|n| n.to_string()),
        "expected_from": if result.expected_from_file { "file" } else { "vkperft" },
        "got": result.got.map(|n| n.to_string()),
        "stats": result.stats.iter().map(|check| json!({
            "key": check.stat.key(),
            "expected": check.expected.to_string(),
            "got": check.got.to_string(),
            "agrees": check.agrees(),
        })).collect::<Vec<_>>(),
        "passed": result.passed(),
        "status": status,
        "seconds": result.seconds,
        "finding": result.finding().map(finding_json),
        "error": error,
    })
}

/// `{path, fen, depth, difference, missing, extra, wrong_counts, queries}`, moves in UCI.
pub fn finding_json(finding: &Finding) -> Value {
    let (kind, missing, extra) = match &finding.difference {
        Difference::None => ("none", Vec::new(), Vec::new()),
        Difference::Moves { missing, extra } => (
            "moves",
            missing.iter().map(Move::to_string).collect(),
            extra.clone(),
        ),
        Difference::Counts => ("counts", Vec::new(), Vec::new()),
        Difference::TotalOnly { .. } => ("total", Vec::new(), Vec::new()),
        Difference::Inconsistent { .. } => ("inconsistent", Vec::new(), Vec::new()),
    };
    json!({
        "path": finding.path.iter().map(Move::to_string).collect::<Vec<_>>(),
        "fen": finding.position.to_fen(),
        "depth": finding.depth,
        "difference": kind,
        "missing": missing,
        "extra": extra,
        "wrong_counts": finding.wrong_counts.iter().map(|wrong| json!({
            "move": wrong.mv.to_string(),
            "expected": wrong.expected.to_string(),
            "engine": wrong.engine.to_string(),
        })).collect::<Vec<_>>(),
        "queries": finding.queries,
    })
}
