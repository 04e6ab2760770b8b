//! `.perft` files, as shakmaty and python-chess ship them: an `id NAME` line, an `epd FEN`
//! line, then `perft DEPTH NODES` lines, positions separated by blank lines; `#` starts a
//! comment.

use super::entry::{numbers, SuiteEntry};
use super::error::{LineProblem, Location};
use crate::chess::fen;

/// Reads the lines of a `.perft` file (numbered from 1, comments and blanks already dropped)
/// into its positions; the first bad line ends the reading of the file unless `on_bad` takes
/// it, in which case the reading goes on (a `perft` line of a bad position is then bad too).
pub(super) fn read(
    lines: &[(usize, &str)],
    location: &dyn Fn(usize) -> Location,
    on_bad: &mut dyn FnMut(usize, LineProblem) -> bool,
) -> Vec<SuiteEntry> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut pending_id: Option<String> = None;
    // Whether `perft` lines belong to the last entry (false after a bad `epd` line).
    let mut open = false;
    for &(number, line) in lines {
        let (keyword, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(keyword, rest)| (keyword, rest.trim()));
        let read = match keyword {
            "id" => {
                pending_id = Some(rest.to_string());
                open = false;
                Ok(())
            }
            "epd" | "fen" => match fen::parse(rest) {
                Ok(_) => {
                    entries.push(SuiteEntry::new(
                        pending_id.take(),
                        rest.to_string(),
                        location(number),
                    ));
                    open = true;
                    Ok(())
                }
                Err(error) => {
                    pending_id = None;
                    open = false;
                    Err(LineProblem::Fen(error))
                }
            },
            "perft" => perft_line(rest).and_then(|(depth, nodes)| match entries.last_mut() {
                Some(entry) if open => entry
                    .add(depth, Some(nodes))
                    .map_err(|depth| LineProblem::RepeatedDepth { depth }),
                _ => Err(LineProblem::PerftWithoutPosition),
            }),
            other => Err(LineProblem::UnknownKeyword(other.to_string())),
        };
        if let Err(problem) = read {
            if !on_bad(number, problem) {
                break;
            }
        }
    }
    entries
}

/// `DEPTH NODES` of a `perft` line.
fn perft_line(rest: &str) -> Result<(u32, u128), LineProblem> {
    let mut words = rest.split_whitespace();
    let depth = numbers::depth(words.next().unwrap_or(""))?;
    let count_text: Vec<&str> = words.collect();
    if count_text.is_empty() {
        return Err(LineProblem::MissingCount(format!("perft {rest}")));
    }
    Ok((depth, numbers::count(&count_text.join(""))?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn read_text(text: &str) -> (Vec<SuiteEntry>, Vec<(usize, LineProblem)>) {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
            .collect();
        let mut bad = Vec::new();
        let location = |line| Location {
            file: PathBuf::from("t.perft"),
            line,
        };
        let entries = read(&lines, &location, &mut |line, problem| {
            bad.push((line, problem));
            true
        });
        (entries, bad)
    }

    #[test]
    fn positions_take_their_ids_and_counts() {
        let text = "# tricky\nid pos-3\nepd 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -\nperft 1 14\nperft 2 191\n\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n";
        let (entries, bad) = read_text(text);
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].id, "pos-3");
        assert_eq!(entries[0].location.line, 3);
        assert_eq!(entries[0].count_at(2).and_then(|c| c.nodes), Some(191));
        assert_eq!(entries[1].id, "t.perft:7");
    }

    #[test]
    fn bad_lines_are_named_and_their_perft_lines_with_them() {
        let text = "epd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 five\nperft 2\nbogus 1\nepd 4k3/8/8 w - -\nperft 1 5\n";
        let (entries, bad) = read_text(text);
        assert_eq!(entries.len(), 1);
        let lines: Vec<usize> = bad.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6]);
        assert_eq!(bad[0].1, LineProblem::BadCount("five".into()));
        assert_eq!(bad[2].1, LineProblem::UnknownKeyword("bogus".into()));
        assert_eq!(bad[4].1, LineProblem::PerftWithoutPosition);
    }
}
