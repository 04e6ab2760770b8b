//! EPD suites, as Ethereal's and Stockfish's `perftsuite.epd` write them:
//! `FEN ;D1 20 ;D2 400 ;D3 8902`. The common variants are read too: four FEN fields or six,
//! operations in EPD's own form (`FEN D1 20; D2 400;`), `D1=20`, digit separators in counts,
//! an `id "name"` operation; other operations (`c0`, `bm`, ...) are skipped. A line without
//! any depth is a position for `--depth`.
//!
//! vkperft's extension: `;D<depth>.<key> <value>` gives a move-type statistic of that depth,
//! the key a column's JSON key as `perft --stats --json` prints it (`;D3.captures 34
//! ;D3.total_checks 12`). A `D` operation with any other key is an error, not an operation to
//! skip: a misspelt column would otherwise pass unchecked.

use super::entry::{numbers, SuiteEntry};
use super::error::{LineProblem, Location};
use crate::chess::{fen, MoveStat};

/// What a `D` operation gives: the node count of its depth, or one statistic of it.
enum DepthValue {
    Nodes,
    Stat(MoveStat),
}

/// Reads one EPD line (not blank, not a comment).
pub(super) fn read_line(text: &str, location: Location) -> Result<SuiteEntry, LineProblem> {
    let (head, rest) = text.split_once(';').unwrap_or((text, ""));
    let words: Vec<&str> = head.split_whitespace().collect();
    // Up to two numbers after the four mandatory fields are the FEN's counters.
    let counters = words
        .iter()
        .skip(4)
        .take(2)
        .take_while(|word| word.bytes().all(|b| b.is_ascii_digit()))
        .count();
    let fen_words = (4 + counters).min(words.len());
    let fen_text = words[..fen_words].join(" ");
    fen::parse(&fen_text).map_err(LineProblem::Fen)?;
    let first_operation = words[fen_words..].join(" ");
    let operations = std::iter::once(first_operation.as_str()).chain(rest.split(';'));
    let mut id = None;
    let mut counts = Vec::new();
    let mut stats = Vec::new();
    for operation in operations.map(str::trim).filter(|op| !op.is_empty()) {
        let (opcode, operand) = operation
            .split_once(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or((operation, ""));
        let operand = operand.trim().trim_start_matches('=').trim();
        if opcode == "id" {
            id = Some(operand.trim_matches('"').to_string());
            continue;
        }
        let Some(depth_operation) = opcode
            .strip_prefix('D')
            .or_else(|| opcode.strip_prefix('d'))
        else {
            continue;
        };
        let (depth_text, key) = depth_operation
            .split_once('.')
            .map_or((depth_operation, None), |(depth, key)| (depth, Some(key)));
        if depth_text.is_empty() || !depth_text.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let depth = numbers::depth(depth_text)?;
        let value = match key {
            None => DepthValue::Nodes,
            Some(key) => DepthValue::Stat(
                MoveStat::from_key(key).ok_or_else(|| LineProblem::UnknownStat(key.to_string()))?,
            ),
        };
        if operand.is_empty() {
            return Err(LineProblem::MissingCount(operation.to_string()));
        }
        let number = numbers::count(operand)?;
        match value {
            DepthValue::Nodes => counts.push((depth, number)),
            DepthValue::Stat(stat) => stats.push((depth, stat, number)),
        }
    }
    let mut entry = SuiteEntry::new(id, fen_text, location);
    for (depth, nodes) in counts {
        entry
            .add(depth, Some(nodes))
            .map_err(|depth| LineProblem::RepeatedDepth { depth })?;
    }
    // After the counts: a statistic may come before its depth's count on the line.
    for (depth, stat, value) in stats {
        entry
            .add_stat(depth, stat, value)
            .map_err(|stat| LineProblem::RepeatedStat {
                depth,
                key: stat.key(),
            })?;
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::FenError;
    use crate::suite::entry::DepthCount;
    use std::path::PathBuf;

    fn at(line: usize) -> Location {
        Location {
            file: PathBuf::from("t.epd"),
            line,
        }
    }

    fn depths(entry: &SuiteEntry) -> Vec<(u32, u128)> {
        entry
            .depths
            .iter()
            .map(|DepthCount { depth, nodes, .. }| (*depth, nodes.expect("a count")))
            .collect()
    }

    #[test]
    fn the_common_variants_read_alike() {
        let startpos = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        for line in [
            format!("{startpos} 0 1 ;D1 20 ;D2 400 ;D3 8902"),
            format!("{startpos} ;D1 20 ;D2 400 ;D3 8902"),
            format!("{startpos} D1 20; D2 400; D3 8902;"),
            format!("{startpos} ; D1 20 ; D2 400 ; D3 8,902"),
            format!("{startpos} ;D1=20 ;D2 =400 ;D3 8902 ;c0 \"comment\""),
        ] {
            let entry = read_line(&line, at(3)).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(depths(&entry), [(1, 20), (2, 400), (3, 8902)], "{line}");
            assert!(entry.fen.starts_with(startpos), "{line}");
            assert_eq!(entry.id, "t.epd:3");
        }
        let named = read_line(&format!("{startpos} id \"start\"; D1 20;"), at(1)).expect("read");
        assert_eq!(named.id, "start");
        assert_eq!(depths(&named), [(1, 20)]);
        let bare = read_line(startpos, at(1)).expect("a position without depths");
        assert!(bare.depths.is_empty());
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let startpos = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - ;D1 20".to_string(),
                LineProblem::Fen(FenError::RankCount(7)),
            ),
            (
                format!("{startpos} ;D1 2x0"),
                LineProblem::BadCount("2x0".into()),
            ),
            (
                format!("{startpos} ;D0 1"),
                LineProblem::BadDepth("0".into()),
            ),
            (
                format!("{startpos} ;D1"),
                LineProblem::MissingCount("D1".into()),
            ),
            (
                format!("{startpos} ;D1 20 ;D1 20"),
                LineProblem::RepeatedDepth { depth: 1 },
            ),
        ];
        for (line, problem) in cases {
            assert_eq!(read_line(&line, at(1)), Err(problem), "{line}");
        }
    }

    #[test]
    fn statistics_are_read_per_depth_beside_the_counts() {
        let startpos = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let line = format!(
            "{startpos} ;D2 400 ;D3.captures 34 ;D3 8902 ;D3.total_checks=12 ;d3.checks 12 \
             ;D4.direct_mates 8 ;D2.en_passant 0"
        );
        let entry = read_line(&line, at(1)).expect("read");
        let stats = |depth: u32| -> Vec<(&str, u128)> {
            let known = entry.count_at(depth).expect("the depth");
            known.stats.iter().map(|(s, v)| (s.key(), v)).collect()
        };
        assert_eq!(entry.count_at(2).and_then(|c| c.nodes), Some(400));
        assert_eq!(stats(2), [("en_passant", 0)]);
        assert_eq!(entry.count_at(3).and_then(|c| c.nodes), Some(8902));
        assert_eq!(
            stats(3),
            [("captures", 34), ("total_checks", 12), ("checks", 12)]
        );
        // Statistics without the depth's count: vkperft's count stands in, as for `--depth`.
        assert_eq!(entry.count_at(4).map(|c| c.nodes), Some(None));
        assert_eq!(stats(4), [("direct_mates", 8)]);
        let plain = read_line(&format!("{startpos} ;D1 20"), at(1)).expect("read");
        assert!(plain.depths.iter().all(|d| d.stats.is_empty()));
    }

    #[test]
    fn bad_statistics_say_what_is_wrong() {
        let startpos = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let cases = [
            (";D3.capture 34", LineProblem::UnknownStat("capture".into())),
            (";D3. 34", LineProblem::UnknownStat(String::new())),
            (
                ";D3.captures 34 ;D3.captures 34",
                LineProblem::RepeatedStat {
                    depth: 3,
                    key: "captures",
                },
            ),
            (";D3.captures 3x4", LineProblem::BadCount("3x4".into())),
            (
                ";D3.captures",
                LineProblem::MissingCount("D3.captures".into()),
            ),
            (";D0.captures 1", LineProblem::BadDepth("0".into())),
        ];
        for (operations, problem) in cases {
            let line = format!("{startpos} {operations}");
            assert_eq!(read_line(&line, at(1)), Err(problem), "{line}");
        }
        let message = LineProblem::UnknownStat("capture".into()).to_string();
        assert!(
            message.contains("\"capture\"") && message.contains("total_checks"),
            "{message}"
        );
    }
}
