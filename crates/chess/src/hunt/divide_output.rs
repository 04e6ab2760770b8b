//! Reading an engine's divide: `move: count` lines (Stockfish) or `move count` lines (perftree
//! scripts), and a total, either `Nodes searched: N` or a bare number after a blank line. Lines
//! engines add around a divide (`info ...`, `Time: 12 ms`, `Nodes/second: ...`) are skipped;
//! anything else is garbage, shown to the user as it was printed.

use super::error::HuntError;
use std::collections::BTreeMap;

/// An engine's answer to one divide request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineDivide {
    /// Count per move, as the engine wrote the move.
    pub moves: BTreeMap<String, u128>,
    /// The total it printed, if any.
    pub total: Option<u128>,
}

impl EngineDivide {
    /// The total it printed, else the sum of its moves.
    pub fn total(&self) -> u128 {
        self.total.unwrap_or_else(|| self.moves.values().sum())
    }
}

/// Why a line cannot be part of a divide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum BadLine {
    Garbage,
    /// The move was listed before.
    Repeated(String),
}

impl BadLine {
    /// The error for `line`, printed by `command` answering `position`.
    pub(super) fn error(self, command: &str, line: &str, position: &str) -> HuntError {
        match self {
            BadLine::Garbage => HuntError::Garbage {
                command: command.to_string(),
                line: line.to_string(),
                position: position.to_string(),
            },
            BadLine::Repeated(mv) => HuntError::RepeatedMove {
                command: command.to_string(),
                mv,
                position: position.to_string(),
            },
        }
    }
}

impl EngineDivide {
    /// Adds one line of output; `Ok(true)` when it was the total.
    pub(super) fn read_line(&mut self, line: &str) -> Result<bool, BadLine> {
        match classify_line(line).ok_or(BadLine::Garbage)? {
            OutputLine::Move(mv, count) => {
                if self.moves.insert(mv.clone(), count).is_some() {
                    return Err(BadLine::Repeated(mv));
                }
                Ok(false)
            }
            OutputLine::Total(total) => {
                self.total = Some(total);
                Ok(true)
            }
            OutputLine::Other => Ok(false),
        }
    }
}

/// One line of an engine's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputLine {
    Move(String, u128),
    Total(u128),
    /// Not part of the divide: empty, `info ...`, a labelled figure such as `Time: 3 ms`.
    Other,
}

/// The words a total line starts with (lowercase).
const TOTAL_LABELS: [&str; 5] = ["nodes searched", "nodes", "total", "total nodes", "perft"];
/// Lines UCI engines print besides a divide.
const UCI_PREFIXES: [&str; 6] = ["info", "id ", "option ", "uciok", "readyok", "bestmove"];

/// What `line` is; `None` for garbage.
pub fn classify_line(line: &str) -> Option<OutputLine> {
    let line = line.trim();
    let lower = line.to_ascii_lowercase();
    if line.is_empty() || UCI_PREFIXES.iter().any(|p| lower.starts_with(p)) {
        return Some(OutputLine::Other);
    }
    if let Ok(total) = line.parse::<u128>() {
        return Some(OutputLine::Total(total));
    }
    let (head, rest) = match line.find(|c: char| c == ':' || c.is_whitespace()) {
        Some(at) => (&line[..at], line[at..].trim_start_matches(':').trim()),
        None => (line, ""),
    };
    if is_move_shaped(head) {
        return rest
            .parse::<u128>()
            .ok()
            .map(|count| OutputLine::Move(head.to_ascii_lowercase(), count));
    }
    // A label, a separator, and a number: a total if the label says so, else a figure.
    let figure = line.rfind([':', '=']).map(|at| {
        let label = line[..at].trim().to_ascii_lowercase();
        (label, line[at + 1..].trim().replace(',', ""))
    });
    if let Some((label, value)) = figure {
        // Words, at least one of three letters or more (`Time`, `Nodes/second`, not `e9e4`).
        let is_label = label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " /()_-.".contains(c))
            && label
                .split(|c: char| !c.is_ascii_alphabetic())
                .any(|word| word.len() >= 3);
        if is_label {
            if TOTAL_LABELS.contains(&label.as_str()) {
                return value.parse().ok().map(OutputLine::Total);
            }
            return Some(OutputLine::Other);
        }
    }
    None
}

/// `e2e4`, `e7e8q`: two squares and an optional promotion letter.
fn is_move_shaped(text: &str) -> bool {
    let bytes = text.to_ascii_lowercase().into_bytes();
    let square =
        |file: u8, rank: u8| (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank);
    match bytes.as_slice() {
        [f1, r1, f2, r2] => square(*f1, *r1) && square(*f2, *r2),
        [f1, r1, f2, r2, promotion] => {
            square(*f1, *r1) && square(*f2, *r2) && b"nbrq".contains(promotion)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_lines_in_the_common_forms() {
        let mv = |m: &str, n| Some(OutputLine::Move(m.to_string(), n));
        assert_eq!(classify_line("e2e4: 20"), mv("e2e4", 20));
        assert_eq!(classify_line("  a7a8Q 12"), mv("a7a8q", 12));
        assert_eq!(classify_line("e1g1:1"), mv("e1g1", 1));
        assert_eq!(
            classify_line("Nodes searched: 197281"),
            Some(OutputLine::Total(197_281))
        );
        assert_eq!(classify_line("Total: 8902"), Some(OutputLine::Total(8902)));
        assert_eq!(classify_line("nodes = 400"), Some(OutputLine::Total(400)));
        assert_eq!(classify_line("400"), Some(OutputLine::Total(400)));
        for other in [
            "",
            "info string hi",
            "Time: 3 ms",
            "Nodes/second: 1,234",
            "readyok",
        ] {
            assert_eq!(classify_line(other), Some(OutputLine::Other), "{other:?}");
        }
        for garbage in [
            "e2e4: lots",
            "@@@",
            "e2e4 20 30",
            "hello world 3",
            "e9e4: 2",
        ] {
            assert_eq!(classify_line(garbage), None, "{garbage:?}");
        }
    }
}
