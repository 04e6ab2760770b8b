//! Reading a suite file of any format: the format is known by the file's extension (`.epd`,
//! `.perft`, `.tsv`) or else by its first line, comments (`#`) and blank lines are dropped,
//! and each line goes to its format's reader.

use super::entry::SuiteEntry;
use super::error::{LineProblem, Location, SuiteError};
use super::{epd, perft_file, table};
use std::path::Path;

/// The formats a suite file may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuiteFormat {
    /// `FEN ;D1 20 ;D2 400` per line.
    Epd,
    /// `id` / `epd FEN` / `perft D N` lines.
    Perft,
    /// Tab-separated rows: `FEN depth nodes`, or columns a header names.
    Table,
}

impl SuiteFormat {
    pub fn name(self) -> &'static str {
        match self {
            SuiteFormat::Epd => "EPD",
            SuiteFormat::Perft => ".perft",
            SuiteFormat::Table => "tab-separated table",
        }
    }

    /// The format of `file`, by its extension or else by its first line.
    fn of(file: &Path, first_line: &str) -> SuiteFormat {
        match file.extension().and_then(|ext| ext.to_str()) {
            Some("epd") => return SuiteFormat::Epd,
            Some("perft") => return SuiteFormat::Perft,
            Some("tsv") => return SuiteFormat::Table,
            _ => {}
        }
        let keyword = first_line.split_whitespace().next().unwrap_or("");
        if matches!(keyword, "id" | "epd" | "fen" | "perft") {
            SuiteFormat::Perft
        } else if first_line.contains('\t') {
            SuiteFormat::Table
        } else {
            SuiteFormat::Epd
        }
    }
}

/// A line that was skipped (`--skip-bad`), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    pub location: Location,
    pub problem: LineProblem,
}

/// The positions of one suite file.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    pub format: SuiteFormat,
    pub entries: Vec<SuiteEntry>,
    /// Bad lines passed over (only with `skip_bad`).
    pub skipped: Vec<SkippedLine>,
}

/// Reads `file`. A bad line is an error naming it, or with `skip_bad` is passed over and
/// listed.
pub fn read_suite_file(file: &Path, skip_bad: bool) -> Result<SuiteFile, SuiteError> {
    let text = std::fs::read_to_string(file).map_err(|error| SuiteError::Read {
        file: file.to_path_buf(),
        reason: error.to_string(),
    })?;
    read_suite_text(&text, file, skip_bad)
}

/// Reads a suite from `text`, as if it were the contents of `file`.
pub fn read_suite_text(text: &str, file: &Path, skip_bad: bool) -> Result<SuiteFile, SuiteError> {
    // A byte order mark some editors write is no part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim_end_matches(['\r', '\n'])))
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .collect();
    let format = SuiteFormat::of(file, lines.first().map_or("", |(_, line)| line));
    let location = |line| Location {
        file: file.to_path_buf(),
        line,
    };
    let mut skipped = Vec::new();
    let mut first_bad: Option<SkippedLine> = None;
    let mut on_bad = |line: usize, problem: LineProblem| {
        let bad = SkippedLine {
            location: location(line),
            problem,
        };
        if skip_bad {
            skipped.push(bad);
            true
        } else {
            first_bad.get_or_insert(bad);
            false
        }
    };
    let entries = match format {
        SuiteFormat::Epd => {
            let mut entries = Vec::new();
            for &(number, line) in &lines {
                match epd::read_line(line.trim(), location(number)) {
                    Ok(entry) => entries.push(entry),
                    Err(problem) => {
                        if !on_bad(number, problem) {
                            break;
                        }
                    }
                }
            }
            entries
        }
        SuiteFormat::Perft => perft_file::read(&trimmed(&lines), &location, &mut on_bad),
        SuiteFormat::Table => table::read(&lines, &location, &mut on_bad),
    };
    if let Some(bad) = first_bad {
        return Err(SuiteError::BadLine {
            location: bad.location,
            problem: bad.problem,
        });
    }
    if entries.is_empty() && skipped.is_empty() {
        return Err(SuiteError::Empty {
            file: file.to_path_buf(),
        });
    }
    Ok(SuiteFile {
        format,
        entries,
        skipped,
    })
}

fn trimmed<'a>(lines: &[(usize, &'a str)]) -> Vec<(usize, &'a str)> {
    lines.iter().map(|&(n, line)| (n, line.trim())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_format_is_known_by_extension_or_first_line() {
        let file = |name: &str| PathBuf::from(name);
        let epd = "4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n";
        let perft = "id x\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n";
        let tsv = "4k3/8/8/8/8/8/8/4K3 w - -\t1\t5\n";
        for (name, text, format) in [
            ("a.txt", epd, SuiteFormat::Epd),
            ("a.txt", perft, SuiteFormat::Perft),
            ("a.txt", tsv, SuiteFormat::Table),
            ("a.perft", perft, SuiteFormat::Perft),
        ] {
            let suite = read_suite_text(text, &file(name), false).expect("read");
            assert_eq!(suite.format, format, "{name}: {text}");
            assert_eq!(suite.entries[0].count_at(1).and_then(|c| c.nodes), Some(5));
        }
    }

    #[test]
    fn a_bad_line_is_an_error_or_skipped_and_listed() {
        let text = "# suite\n4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n4k3/8/8 w - - ;D1 5\n4k3/8/8/8/8/8/8/4K3 b - - ;D1 5\n";
        let file = PathBuf::from("s.epd");
        let error = read_suite_text(text, &file, false).expect_err("line 3 is bad");
        assert!(error.to_string().starts_with("s.epd:3: "), "{error}");
        let suite = read_suite_text(text, &file, true).expect("skipped");
        assert_eq!(suite.entries.len(), 2);
        assert_eq!(suite.skipped.len(), 1);
        assert_eq!(suite.skipped[0].location.line, 3);
        let empty = read_suite_text("# nothing\n", &file, false).expect_err("empty");
        assert!(matches!(empty, SuiteError::Empty { .. }), "{empty}");
    }
}
