//! `suite --junit FILE`: JUnit XML for CI dashboards, one `<testsuite>` per suite file and one
//! `<testcase>` per position and depth; a failure is a `<failure>` (`wrong count`, or `wrong
//! statistics` when only statistics differ) with the statistics compared and the walk's end,
//! an engine error an `<error>`, a refused position `<skipped>`.

use super::describe::{drill_text, headline};
use super::outcome::{Drill, PositionResult, Summary, Verdict};
use std::fmt::Write;
use std::path::PathBuf;

/// The document for `results` (in file order) of a run summarised by `summary`.
pub fn junit_xml(summary: &Summary, results: &[PositionResult]) -> String {
    let mut files: Vec<(PathBuf, Vec<&PositionResult>)> = Vec::new();
    for result in results {
        let file = &result.task.location.file;
        match files.last_mut() {
            Some((last, group)) if last == file => group.push(result),
            _ => files.push((file.clone(), vec![result])),
        }
    }
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"vkperft suite\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">",
        summary.total(),
        summary.failed,
        summary.engine_errors,
        summary.refused,
        summary.seconds
    );
    for (file, group) in &files {
        let count =
            |wanted: fn(&Verdict) -> bool| group.iter().filter(|r| wanted(&r.verdict)).count();
        let time: f64 = group.iter().map(|r| r.seconds).sum();
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{time:.3}\">",
            escape(&file.display().to_string()),
            group.len(),
            count(|v| matches!(v, Verdict::Failed(_))),
            count(|v| matches!(v, Verdict::EngineError(_))),
            count(|v| matches!(v, Verdict::Refused(_))),
        );
        for result in group {
            testcase(&mut xml, result);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

fn testcase(xml: &mut String, result: &PositionResult) {
    let task = &result.task;
    let _ = write!(
        xml,
        "    <testcase classname=\"{}\" name=\"{} depth {}\" file=\"{}\" line=\"{}\" time=\"{:.3}\"",
        escape(&task.location.file.display().to_string()),
        escape(&task.id),
        task.depth,
        escape(&task.location.file.display().to_string()),
        task.location.line,
        result.seconds
    );
    let headline = escape(&headline(result));
    let body = escape(&format!("FEN: {}\n{}", task.fen, drill_text(result)));
    match &result.verdict {
        Verdict::Passed => xml.push_str("/>\n"),
        Verdict::Failed(drill) => {
            let kind = match drill {
                Drill::CountAgrees => "wrong statistics",
                _ => "wrong count",
            };
            let _ = writeln!(
                xml,
                ">\n      <failure type=\"{kind}\" message=\"{headline}\">{body}</failure>\n    </testcase>"
            );
        }
        Verdict::EngineError(_) => {
            let _ = writeln!(
                xml,
                ">\n      <error type=\"engine error\" message=\"{headline}\">{body}</error>\n    </testcase>"
            );
        }
        Verdict::Refused(_) => {
            let _ = writeln!(
                xml,
                ">\n      <skipped message=\"{headline}\"/>\n    </testcase>"
            );
        }
    }
}

/// Text as XML character data or an attribute value: the five special characters escaped, and
/// characters XML 1.0 does not allow (an engine's garbage may hold any) replaced.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\n' => escaped.push_str("&#10;"),
            '\t' | '\r' => escaped.push(' '),
            c if (c as u32) < 0x20 || matches!(c, '\u{FFFE}' | '\u{FFFF}') => {
                escaped.push('\u{FFFD}')
            }
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_and_forbidden_characters_are_escaped() {
        assert_eq!(
            escape("a<b>&\"c\"'\u{1}\n"),
            "a&lt;b&gt;&amp;&quot;c&quot;&apos;\u{FFFD}&#10;"
        );
    }
}
