//! How a result reads as text: in the command's report, in a JUnit failure, in the window.

use super::outcome::{Drill, PositionResult, Verdict};
use crate::count::thousands;
use crate::hunt::{moves_text, Difference, Finding};

/// One line: what was expected, what came, and why it failed (each statistic that differs
/// named as the EPD names it, `D3.captures`).
pub fn headline(result: &PositionResult) -> String {
    let expected = result.expected.map_or_else(|| "?".into(), thousands);
    let from = if result.expected_from_file {
        ""
    } else {
        " (vkperft's count)"
    };
    match &result.verdict {
        Verdict::Passed if result.stats.is_empty() => format!("{expected} nodes"),
        Verdict::Passed => format!("{expected} nodes, {} statistics agree", result.stats.len()),
        Verdict::Failed(Drill::CountAgrees) => {
            format!("{expected} nodes agree; {}", wrong_stats_text(result))
        }
        Verdict::Failed(_) => {
            let mut text = format!(
                "expected {expected}{from}, got {}",
                result.got.map_or_else(|| "?".into(), thousands)
            );
            if result.wrong_stats().next().is_some() {
                text += &format!("; {}", wrong_stats_text(result));
            }
            text
        }
        Verdict::Refused(why) => format!("refused: {why}"),
        Verdict::EngineError(why) => format!("engine error: {why}"),
    }
}

/// The statistics that differ: `D3.captures expected 35, got 34; ...`.
fn wrong_stats_text(result: &PositionResult) -> String {
    result
        .wrong_stats()
        .map(|check| {
            format!(
                "D{}.{} expected {}, got {}",
                result.task.depth,
                check.stat.key(),
                thousands(check.expected),
                thousands(check.got)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Where a failure's walk ended, as lines, after every statistic compared, each said to agree
/// or differ (none for a result that did not fail).
pub fn drill_text(result: &PositionResult) -> String {
    let Verdict::Failed(drill) = &result.verdict else {
        return String::new();
    };
    let mut text = stats_text(result);
    match drill {
        Drill::Found { finding, .. } => text += &finding_text(finding),
        Drill::Stopped(why) => text += &format!("the walk stopped: {why}\n"),
        Drill::CountAgrees => {
            text += "the leaf count agrees, so there is no walk (it compares leaf counts only)\n"
        }
        Drill::NotAsked => {}
    }
    text
}

/// Every statistic compared, one a line: `D3.captures: 34 agrees` or `D3.castles: expected 1,
/// got 0`.
fn stats_text(result: &PositionResult) -> String {
    let depth = result.task.depth;
    result
        .stats
        .iter()
        .map(|check| {
            let key = check.stat.key();
            if check.agrees() {
                format!("D{depth}.{key}: {} agrees\n", thousands(check.got))
            } else {
                format!(
                    "D{depth}.{key}: expected {}, got {}\n",
                    thousands(check.expected),
                    thousands(check.got)
                )
            }
        })
        .collect()
}

fn list(moves: &[impl ToString]) -> String {
    if moves.is_empty() {
        "none".into()
    } else {
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The walk's end: where, the FEN, and the moves missing or extra.
pub fn finding_text(finding: &Finding) -> String {
    let at = if finding.path.is_empty() {
        "at the root".to_string()
    } else {
        format!("after {}", moves_text(&finding.path))
    };
    let fen = finding.position.to_fen();
    match &finding.difference {
        Difference::None => {
            "the engine's divide agrees with vkperft's: the file's count differs from vkperft's\n"
                .to_string()
        }
        Difference::Moves { missing, extra } => format!(
            "move list wrong {at}\n  FEN: {fen}\n  missing: {}\n  extra: {}\n",
            list(missing),
            list(extra)
        ),
        Difference::Counts => {
            format!("right moves {at}, but counts other than 1 at depth 1\n  FEN: {fen}\n")
        }
        Difference::TotalOnly { expected, engine } => format!(
            "every move agrees {at}, but the total is {} where vkperft counts {}\n  FEN: {fen}\n",
            thousands(*engine),
            thousands(*expected)
        ),
        Difference::Inconsistent {
            expected,
            from_parent,
        } => format!(
            "counted {} {at} when asked from the position before, but its divide there agrees with vkperft ({})\n  FEN: {fen}\n",
            thousands(*from_parent),
            thousands(*expected)
        ),
    }
}
