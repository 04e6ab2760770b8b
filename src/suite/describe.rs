//! How a result reads as text: in the command's report, in a JUnit failure, in the window.

use super::outcome::{Drill, PositionResult, Verdict};
use crate::count::thousands;
use crate::hunt::{moves_text, Difference, Finding};

/// One line: what was expected, what came, and why it failed.
pub fn headline(result: &PositionResult) -> String {
    let expected = result.expected.map_or_else(|| "?".into(), thousands);
    let from = if result.expected_from_file {
        ""
    } else {
        " (vkperft's count)"
    };
    match &result.verdict {
        Verdict::Passed => format!("{expected} nodes"),
        Verdict::Failed(_) => format!(
            "expected {expected}{from}, got {}",
            result.got.map_or_else(|| "?".into(), thousands)
        ),
        Verdict::Refused(why) => format!("refused: {why}"),
        Verdict::EngineError(why) => format!("engine error: {why}"),
    }
}

/// Where a failure's walk ended, as lines (none for a result that did not fail).
pub fn drill_text(result: &PositionResult) -> String {
    match &result.verdict {
        Verdict::Failed(Drill::Found { finding, .. }) => finding_text(finding),
        Verdict::Failed(Drill::Stopped(why)) => format!("the walk stopped: {why}\n"),
        _ => String::new(),
    }
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
